"""PassCampaignCard: declare no campaign card this battle; the other side is asked next."""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, PassCampaignCard
from ..events import CampaignCardPassed, CampaignEvent
from ..state import CampaignState

COMMAND = PassCampaignCard


def check(st: CampaignState, cmd: PassCampaignCard) -> str | None:
    """Legal for the side asked now."""
    if st.phase != "campaign":
        return f"nothing to declare in the {st.phase} phase"
    if not st.campaign_order or st.campaign_order[0] != cmd.side:
        return "it is not this side's turn to declare"
    return None


def apply(st: CampaignState, cmd: PassCampaignCard, out: list[CampaignEvent]) -> None:
    """Ask the next side (or move on to placing)."""
    st.campaign_order.pop(0)
    out.append(CampaignCardPassed(cmd.side))


def options(st: CampaignState, side: str) -> list[Command]:
    """The pass, for the side asked now."""
    if st.phase != "campaign" or not st.campaign_order or st.campaign_order[0] != side:
        return []
    return [PassCampaignCard(side)]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
