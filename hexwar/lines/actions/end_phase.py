"""Done with the current phase (Commitment, Declaration, Draw). Resolution has no end: every
declared attack is resolved (R6.2). The Draw Phase ends only after drawing and within the hand
limits (R5.5)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import EndPhase
from ..events import PhaseEnded
from ..state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS, Phase
from . import draw
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: EndPhase) -> str | None:
    """Draw first and discard to the limits in the Draw Phase."""
    if state.phase == Phase.DRAW:
        if cmd.seat not in state.drawn and draw.possible(state, cmd.seat):
            return "draw first (R5.5)"
        if (
            len(state.hand_commands[cmd.seat]) > HAND_LIMIT_COMMAND
            or len(state.hand_units[cmd.seat]) > HAND_LIMIT_UNITS
        ):
            return (
                f"discard down to {HAND_LIMIT_COMMAND} Command and {HAND_LIMIT_UNITS} unit cards first (R5.5)"
            )
    return None


def apply(state: LinesState, cmd: EndPhase, sink: Sink) -> None:
    """Mark the seat done."""
    state.done.add(cmd.seat)
    sink.add(PhaseEnded(f"{cmd.seat} ends its {state.phase} phase", cmd.seat, state.phase))


def options(state: LinesState, seat: str) -> Iterator[EndPhase]:
    """EndPhase when allowed."""
    cmd = EndPhase(seat)
    if check(state, cmd) is None:
        yield cmd


ACTION = Action(EndPhase, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
