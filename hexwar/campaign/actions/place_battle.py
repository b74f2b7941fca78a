"""PlaceBattleCard: one battle card from the hand, face down (002 Rules .2)."""

from __future__ import annotations

from ...game.action_registry import Action
from ..commands import Command, PlaceBattleCard
from ..events import CampaignEvent, CardPlaced
from ..state import CampaignState

COMMAND = PlaceBattleCard


def check(st: CampaignState, cmd: PlaceBattleCard) -> str | None:
    """Legal in ``place`` for a side without a battle card placed, with a card of its hand."""
    if st.phase != "place":
        return f"battle cards are placed in the place phase, not in the {st.phase} phase"
    if cmd.side not in st.slots:
        return f"unknown side {cmd.side!r}"
    if st.slots[cmd.side] is not None:
        return "a battle card is already placed for this battle"
    if cmd.card not in st.hands[cmd.side]:
        return f"{cmd.card!r} is not in this side's hand of battle cards"
    return None


def apply(st: CampaignState, cmd: PlaceBattleCard, out: list[CampaignEvent]) -> None:
    """Move the card from the hand to the face-down slot."""
    st.hands[cmd.side].remove(cmd.card)
    st.slots[cmd.side] = cmd.card
    out.append(CardPlaced(cmd.side, "battle", cmd.card))


def options(st: CampaignState, side: str) -> list[Command]:
    """One per battle card in the hand, in the hand's order."""
    if st.phase != "place" or st.slots.get(side, "x") is not None:
        return []
    return [PlaceBattleCard(side, c) for c in st.hands[side]]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
