"""Helpers for the campaign tests: wars set up by commands, event cards put in play by hand."""

from __future__ import annotations

from hexwar.campaign.commands import ChooseTactics, PlaceBattleCard, PlaceTacticCard
from hexwar.campaign.options import CampaignOptions
from hexwar.campaign.state import CampaignState, new_campaign


def force_events(st: CampaignState, ids: list[str]) -> None:
    """Put exactly ``ids`` in play (moved from the pile or discards), keeping every card in one place."""
    for ev in list(st.events_in_play):
        st.events_in_play.remove(ev)
        st.event_pile.insert(0, ev)
    for ev in ids:
        if ev in st.event_pile:
            st.event_pile.remove(ev)
        else:
            st.events_discard.remove(ev)
        st.events_in_play.append(ev)


def war(
    seed: int = 1,
    german: tuple[str, ...] = ("flank_attack",),
    soviet: tuple[str, ...] = ("bluff",),
    events: list[str] | None = None,
    **options: object,
) -> CampaignState:
    """A war at its first battle's placing, tactic cards chosen, with ``events`` in play."""
    st, _ = new_campaign(seed, CampaignOptions(**options))  # type: ignore[arg-type]
    if st.phase == "choose_tactics":
        if not st.tactics_chosen["german"]:
            st.apply(ChooseTactics("german", german))
        if not st.tactics_chosen["soviet"]:
            st.apply(ChooseTactics("soviet", soviet))
    if events is not None:
        force_events(st, events)
    return st


def battle(st: CampaignState, g: str, s: str, gt: str | None = None, stt: str | None = None) -> list[object]:
    """Place both sides' cards for one battle (German first) and return the events of the reveal."""
    st.apply(PlaceBattleCard("german", g))
    st.apply(PlaceTacticCard("german", gt))
    st.apply(PlaceBattleCard("soviet", s))
    return list(st.apply(PlaceTacticCard("soviet", stt)))
