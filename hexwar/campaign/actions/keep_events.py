"""KeepEvents: the battle's winner declines the event swap (002 advanced option 3)."""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, KeepEvents
from ..events import CampaignEvent
from ..state import CampaignState

COMMAND = KeepEvents


def check(st: CampaignState, cmd: KeepEvents) -> str | None:
    """Legal in ``swap`` for the battle's winner."""
    if st.phase != "swap":
        return f"nothing to keep in the {st.phase} phase"
    if cmd.side != st.swapper:
        return "only the winner of the battle decides on the event swap"
    return None


def apply(st: CampaignState, cmd: KeepEvents, out: list[CampaignEvent]) -> None:
    """Move on to the next battle."""
    from ..sequence import after_battle

    after_battle(st, out)


def options(st: CampaignState, side: str) -> list[Command]:
    """Keeping comes first among the winner's options."""
    if st.phase != "swap" or side != st.swapper:
        return []
    return [KeepEvents(side)]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
