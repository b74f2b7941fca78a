"""000 Standard Game Setup: each seat takes 4 unit cards from its Reserves deck (crews count),
then the deck is shuffled."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from ..commands import ChooseHand
from ..events import HandChosen
from ..rules import cards, name
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState

MAX_OPTIONS = 200


def hand_size(state: LinesState, seat: str) -> int:
    """Cards to choose: the rules' 4, or the whole deck when it is smaller."""
    return min(cards().rules.hand_units, len(state.reserves[seat]))


def check(state: LinesState, cmd: ChooseHand) -> str | None:
    """Exactly ``hand_size`` distinct cards of the seat's Reserves deck."""
    n = hand_size(state, cmd.seat)
    if len(cmd.cards) != n:
        return f"choose {n} unit cards from your Reserves deck (000 setup), not {len(cmd.cards)}"
    if len(set(cmd.cards)) != len(cmd.cards):
        return "a card is named twice"
    for c in cmd.cards:
        if c not in state.reserves[cmd.seat]:
            return f"{c} is not in your Reserves deck"
    return None


def apply(state: LinesState, cmd: ChooseHand, sink: Sink) -> None:
    """Move the cards to the hand and shuffle the Reserves deck."""
    for c in cmd.cards:
        state.reserves[cmd.seat].remove(c)
        state.hand_units[cmd.seat].append(c)
    state.dice.shuffle(f"shuffle {cmd.seat} Reserves deck", state.reserves[cmd.seat])
    state.done.add(cmd.seat)
    sink.add(
        HandChosen(
            f"{cmd.seat} takes {', '.join(name(c) for c in cmd.cards)} into hand", cmd.seat, tuple(cmd.cards)
        )
    )


def options(state: LinesState, seat: str) -> Iterator[ChooseHand]:
    """Hands of distinct card kinds (one instance each), at most :data:`MAX_OPTIONS`."""
    if seat in state.done:
        return
    n = hand_size(state, seat)
    first: dict[str, str] = {}
    for c in state.reserves[seat]:
        first.setdefault(c.rsplit("#", 1)[0], c)
    pool = sorted(first.values())
    k = 0
    if len(pool) < n:
        yield ChooseHand(seat, tuple(sorted(state.reserves[seat])[:n]))
        return
    for combo in combinations(pool, n):
        yield ChooseHand(seat, combo)
        k += 1
        if k >= MAX_OPTIONS:
            return


ACTION = Action(ChooseHand, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
