"""``ChooseHand`` (000 Standard Game Setup): the unit cards a side starts with."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from ..commands import ChooseHand
from ..events import Recorder
from ..state import card_of
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: ChooseHand) -> str | None:
    """Exactly the hand size (or the whole deck) of distinct cards from the side's Reserves."""
    ss = state.scenario.sides[cmd.side]
    want = min(ss.hand_size, len(state.reserves[cmd.side]))
    if len(cmd.cards) != want:
        return f"choose exactly {want} unit cards from your Reserves deck, got {len(cmd.cards)}"
    if len(set(cmd.cards)) != len(cmd.cards):
        return "a card is named twice"
    for c in cmd.cards:
        if c not in state.reserves[cmd.side]:
            return f"{c} is not in your Reserves deck"
    return None


def apply(state: GameState, cmd: ChooseHand, rec: Recorder) -> None:
    """Move the cards from the Reserves deck into the hand; the side is done with setup."""
    for c in cmd.cards:
        state.reserves[cmd.side].remove(c)
        state.hand_units[cmd.side].append(c)
    state.done.add(cmd.side)
    rec.emit(
        "hand",
        f"{cmd.side} takes {len(cmd.cards)} unit cards into hand",
        side=cmd.side,
        cards=list(cmd.cards),
    )


def options(state: GameState, side: str) -> Iterator[ChooseHand]:
    """Distinct hands (by card id, one instance per id), at most 2000."""
    if side in state.done:
        return
    want = min(state.scenario.sides[side].hand_size, len(state.reserves[side]))
    by_card: dict[str, list[str]] = {}
    for c in state.reserves[side]:
        by_card.setdefault(card_of(c), []).append(c)
    pool = [inst for cid in sorted(by_card) for inst in by_card[cid][:want]]
    seen: set[tuple[str, ...]] = set()
    n = 0
    for combo in combinations(pool, want):
        key = tuple(sorted(card_of(c) for c in combo))
        if key in seen:
            continue
        seen.add(key)
        yield ChooseHand(side, combo)
        n += 1
        if n >= 2000:
            return


ACTION = Action(ChooseHand, check, apply, options)
