"""``Declare`` (R6.1, R7): one target and up to two weapons for one unit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import targeting
from ..commands import Declare
from ..events import Recorder
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: Declare) -> str | None:
    """Range, LOS, weapon and target rules (R6.1, R7)."""
    return targeting.declare_problem(state, cmd)


def apply(state: GameState, cmd: Declare, rec: Recorder) -> None:
    """Record the declared attack (resolved in the Resolution phase, R6.2)."""
    targeting.do_declare(state, cmd, rec)


def options(state: GameState, side: str) -> Iterator[Declare]:
    """Every legal target of every unit with every 1- or 2-weapon choice."""
    yield from targeting.declare_options(state, side)


ACTION = Action(Declare, check, apply, options)
