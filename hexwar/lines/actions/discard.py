"""Draw Phase: discard down to 5 Command and 7 unit cards (R5.5): Command cards leave the game
(face-up discard pile), unit cards go face down under the Reserves deck."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import Discard
from ..events import Discarded
from ..rules import name
from ..state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: Discard) -> str | None:
    """After drawing; only from a hand over its limit."""
    if cmd.seat not in state.drawn:
        return "draw first; discards bring the hand down to its limits (R5.5)"
    if cmd.card in state.hand_commands[cmd.seat]:
        if len(state.hand_commands[cmd.seat]) <= HAND_LIMIT_COMMAND:
            return f"you hold {len(state.hand_commands[cmd.seat])} Command cards, within the limit of {HAND_LIMIT_COMMAND}"
    elif cmd.card in state.hand_units[cmd.seat]:
        if len(state.hand_units[cmd.seat]) <= HAND_LIMIT_UNITS:
            return f"you hold {len(state.hand_units[cmd.seat])} unit cards, within the limit of {HAND_LIMIT_UNITS}"
    else:
        return f"{cmd.card} is not in your hand"
    return None


def apply(state: LinesState, cmd: Discard, sink: Sink) -> None:
    """Discard."""
    if cmd.card in state.hand_commands[cmd.seat]:
        state.hand_commands[cmd.seat].remove(cmd.card)
        state.command_discard.append(cmd.card)
        where = "it leaves the game"
    else:
        state.hand_units[cmd.seat].remove(cmd.card)
        state.reserves[cmd.seat].append(cmd.card)
        where = "it goes under the Reserves deck"
    try:
        what = name(cmd.card)
    except Exception:  # a Command card
        what = cmd.card
    sink.add(Discarded(f"{cmd.seat} discards {what}: {where}", cmd.seat, cmd.card))


def options(state: LinesState, seat: str) -> Iterator[Discard]:
    """Each card kind of a hand over its limit."""
    if seat not in state.drawn:
        return
    for hand, limit in (
        (state.hand_commands[seat], HAND_LIMIT_COMMAND),
        (state.hand_units[seat], HAND_LIMIT_UNITS),
    ):
        if len(hand) > limit:
            seen: set[str] = set()
            for c in sorted(hand):
                if c.rsplit("#", 1)[0] not in seen:
                    seen.add(c.rsplit("#", 1)[0])
                    yield Discard(seat, c)


ACTION = Action(Discard, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
