"""SwapEvent: the battle's winner sends an event card in play to the bottom of the pile and
reveals the next from the top (002 advanced option 3, ``event_swap``)."""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, SwapEvent
from ..events import CampaignEvent, EventSwapped
from ..state import CampaignState

COMMAND = SwapEvent


def check(st: CampaignState, cmd: SwapEvent) -> str | None:
    """Legal in ``swap`` for the battle's winner, naming an event card in play."""
    if st.phase != "swap":
        return f"an event card may be swapped only right after winning a battle, not in the {st.phase} phase"
    if cmd.side != st.swapper:
        return "only the winner of the battle may swap an event card"
    if cmd.event not in st.events_in_play:
        return f"{cmd.event!r} is not an event card in play ({', '.join(st.events_in_play)})"
    if not st.event_pile:
        return "the event pile is empty"
    return None


def apply(st: CampaignState, cmd: SwapEvent, out: list[CampaignEvent]) -> None:
    """Old card to the bottom, the top card into its place; then the next battle."""
    from ..sequence import after_battle

    i = st.events_in_play.index(cmd.event)
    st.event_pile.append(cmd.event)
    new = st.event_pile.pop(0)
    st.events_in_play[i] = new
    out.append(EventSwapped(cmd.side, cmd.event, new))
    after_battle(st, out)


def options(st: CampaignState, side: str) -> list[Command]:
    """One per event card in play, for the winner."""
    if st.phase != "swap" or side != st.swapper or not st.event_pile:
        return []
    return [SwapEvent(side, e) for e in st.events_in_play]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
