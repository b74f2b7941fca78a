"""ChooseTactics: the tactic cards of the year, as many as the rank allows (002 Rules .2, .3)."""

from __future__ import annotations

from itertools import combinations

from ...game.action_registry import Action
from ..commands import ChooseTactics, Command
from ..events import CampaignEvent
from ..state import CampaignState

COMMAND = ChooseTactics


def check(st: CampaignState, cmd: ChooseTactics) -> str | None:
    """Legal in ``choose_tactics`` for a side that has not chosen: exactly the rank's number of
    distinct tactic card ids."""
    if st.phase != "choose_tactics":
        return f"tactic cards are chosen at the start of a year, not in the {st.phase} phase"
    if cmd.side not in st.tactics_chosen:
        return f"unknown side {cmd.side!r}"
    if st.tactics_chosen[cmd.side]:
        return "this year's tactic cards are already chosen"
    n = st.tactic_allowance(cmd.side)
    if len(cmd.tactics) != n or len(set(cmd.tactics)) != n:
        return f"the rank {st.cards.ranks[st.ranks[cmd.side] - 1].title} chooses exactly {n} different tactic cards"
    unknown = [t for t in cmd.tactics if t not in st.cards.tactics]
    if unknown:
        return f"unknown tactic card {unknown[0]!r}; expected one of {list(st.cards.tactics)}"
    return None


def apply(st: CampaignState, cmd: ChooseTactics, out: list[CampaignEvent]) -> None:
    """Move the chosen cards from aside to the hand (in the cards' file order)."""
    chosen = [t for t in st.cards.tactics if t in cmd.tactics]
    st.tactics_hand[cmd.side] = chosen
    st.tactics_aside[cmd.side] = [t for t in st.tactics_aside[cmd.side] if t not in chosen]
    st.tactics_chosen[cmd.side] = True


def options(st: CampaignState, side: str) -> list[Command]:
    """Every subset of the rank's size, in file order."""
    if st.phase != "choose_tactics" or st.tactics_chosen.get(side, True):
        return []
    return [ChooseTactics(side, combo) for combo in combinations(st.cards.tactics, st.tactic_allowance(side))]


ACTION: Action[CampaignState, Command] = Action(COMMAND, check, apply, options)
"""This action for the campaign registry (:data:`hexwar.campaign.actions.REGISTRY`)."""
