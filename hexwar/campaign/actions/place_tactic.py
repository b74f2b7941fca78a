"""PlaceTacticCard: at most one tactic card per battle, face down, or none (002 Rules .2)."""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, PlaceTacticCard
from ..events import CampaignEvent, CardPlaced
from ..state import CampaignState

COMMAND = PlaceTacticCard


def check(st: CampaignState, cmd: PlaceTacticCard) -> str | None:
    """Legal in ``place`` once per side and battle; the card must be in the tactic hand."""
    if st.phase != "place":
        return f"tactic cards are placed in the place phase, not in the {st.phase} phase"
    if cmd.side not in st.tactic_decided:
        return f"unknown side {cmd.side!r}"
    if st.tactic_decided[cmd.side]:
        return "only one tactic card may be used per battle"
    if cmd.tactic is not None and cmd.tactic not in st.tactics_hand[cmd.side]:
        if cmd.tactic in st.tactics_discard[cmd.side]:
            return f"{cmd.tactic} was used this year and is discarded until next year"
        return f"{cmd.tactic!r} is not in this side's tactic cards"
    return None


def apply(st: CampaignState, cmd: PlaceTacticCard, out: list[CampaignEvent]) -> None:
    """Move the card from the tactic hand to the face-down slot (or record "none")."""
    st.tactic_decided[cmd.side] = True
    if cmd.tactic is not None:
        st.tactics_hand[cmd.side].remove(cmd.tactic)
        st.tactic_slots[cmd.side] = cmd.tactic
        out.append(CardPlaced(cmd.side, "tactic", cmd.tactic))
    else:
        out.append(CardPlaced(cmd.side, "none", None))


def options(st: CampaignState, side: str) -> list[Command]:
    """No tactic card first, then one per tactic card in hand."""
    if st.phase != "place" or st.tactic_decided.get(side, True):
        return []
    out: list[Command] = [PlaceTacticCard(side, None)]
    return out + [PlaceTacticCard(side, t) for t in st.tactics_hand[side]]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
