"""DeclareCampaignCard: play a campaign card for this battle (002 Rules .3).

"Only one can be declared per battle, whoever declares it first": in hexwar the sides are
asked in turn before the cards are placed, the initiative holder first (docs/rules.md); the
first to declare takes the battle's campaign slot and the other side is not asked.
"""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, DeclareCampaignCard
from ..events import CampaignCardDeclared, CampaignEvent
from ..state import CampaignState

COMMAND = DeclareCampaignCard


def check(st: CampaignState, cmd: DeclareCampaignCard) -> str | None:
    """Legal for the side asked now, with one of its unused campaign cards."""
    if st.phase != "campaign":
        return f"campaign cards are declared before the cards are placed, not in the {st.phase} phase"
    if not st.campaign_order or st.campaign_order[0] != cmd.side:
        return "it is not this side's turn to declare"
    if cmd.card in st.campaign_used.get(cmd.side, []):
        return f"{cmd.card} was already used in this war (once per war)"
    if cmd.card not in st.campaign_unused.get(cmd.side, []):
        return f"{cmd.card!r} is not one of this side's campaign cards"
    return None


def apply(st: CampaignState, cmd: DeclareCampaignCard, out: list[CampaignEvent]) -> None:
    """Declare it (openly); nobody else may declare this battle."""
    st.campaign_declared = (cmd.side, cmd.card)
    st.campaign_order = []
    out.append(CampaignCardDeclared(cmd.side, cmd.card))


def options(st: CampaignState, side: str) -> list[Command]:
    """One per unused campaign card of the side asked now."""
    if st.phase != "campaign" or not st.campaign_order or st.campaign_order[0] != side:
        return []
    return [DeclareCampaignCard(side, c) for c in st.campaign_unused[side]]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
