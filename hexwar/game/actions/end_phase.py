"""``EndPhase``: the side is done with the current phase (or step)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..commands import EndPhase
from ..events import Recorder
from ..state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS, Phase
from .common import draw_possible, within_limits
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply"]


def check(state: GameState, cmd: EndPhase) -> str | None:
    """Not in setup or Resolution; in the Draw phase only after drawing and discarding (R5.5)."""
    if state.phase == Phase.SETUP:
        return "choose your starting hand first (choose_hand)"
    if state.phase == Phase.RESOLUTION:
        return "every declared attack must be resolved (R6.2)"
    if state.phase == Phase.DRAW:
        if cmd.side not in state.drawn and draw_possible(state, cmd.side):
            return "draw first (R5.5)"
        if not within_limits(state, cmd.side):
            return (
                f"discard down to {HAND_LIMIT_COMMAND} Command and {HAND_LIMIT_UNITS} unit cards first (R5.5)"
            )
    return None


def apply(state: GameState, cmd: EndPhase, rec: Recorder) -> None:
    """Mark the side done; the turn sequence moves on when both are."""
    state.done.add(cmd.side)
    rec.emit("end_phase", f"{cmd.side} ends its {state.phase} phase", side=cmd.side, phase=state.phase)


ACTION = Action(EndPhase, check, apply)
