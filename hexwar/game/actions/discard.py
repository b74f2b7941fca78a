"""``Discard`` (R5.5): discard down to the hand limits after drawing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import ruleset
from ..commands import Discard
from ..events import Recorder
from ..state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: Discard) -> str | None:
    """After drawing, a card of a kind whose hand is over its limit (R5.5)."""
    if cmd.side not in state.drawn:
        return "draw first; discards bring the hand down to its limits (R5.5)"
    if cmd.card in state.hand_commands[cmd.side]:
        if len(state.hand_commands[cmd.side]) <= HAND_LIMIT_COMMAND:
            return (
                f"you hold {len(state.hand_commands[cmd.side])} Command cards, within the limit "
                f"of {HAND_LIMIT_COMMAND}"
            )
    elif cmd.card in state.hand_units[cmd.side]:
        if len(state.hand_units[cmd.side]) <= HAND_LIMIT_UNITS:
            return f"you hold {len(state.hand_units[cmd.side])} unit cards, within the limit of {HAND_LIMIT_UNITS}"
    else:
        return f"{cmd.card} is not in your hand"
    return None


def apply(state: GameState, cmd: Discard, rec: Recorder) -> None:
    """A Command card leaves the game; a unit card goes under the Reserves deck (R5.5)."""
    side = cmd.side
    if cmd.card in state.hand_commands[side]:
        state.hand_commands[side].remove(cmd.card)
        state.command_discard.append(cmd.card)
        where = "leaves the game"
    else:
        state.hand_units[side].remove(cmd.card)
        state.reserves[side].append(cmd.card)
        where = "goes under the Reserves deck"
    rec.emit(
        "discard",
        f"{side} discards {ruleset.card_name(cmd.card)} ({cmd.card}): it {where}",
        side=side,
        card=cmd.card,
    )


def options(state: GameState, side: str) -> Iterator[Discard]:
    """After drawing: every distinct card of each kind over its limit."""
    if side not in state.drawn:
        return
    if len(state.hand_commands[side]) > HAND_LIMIT_COMMAND:
        for c in sorted(set(state.hand_commands[side])):
            yield Discard(side, c)
    if len(state.hand_units[side]) > HAND_LIMIT_UNITS:
        for c in sorted(set(state.hand_units[side])):
            yield Discard(side, c)


ACTION = Action(Discard, check, apply, options)
