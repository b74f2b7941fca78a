"""``DeclareCloseAssault`` (R6.6, 000 Close Assault): three or more adjacent infantry on a vehicle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import targeting
from ..commands import DeclareCloseAssault
from ..events import Recorder
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: DeclareCloseAssault) -> str | None:
    """Enough adjacent infantry able to attack a vehicle (000)."""
    return targeting.close_assault_problem(state, cmd)


def apply(state: GameState, cmd: DeclareCloseAssault, rec: Recorder) -> None:
    """Record the declared close assault."""
    targeting.do_declare_close_assault(state, cmd, rec)


def options(state: GameState, side: str) -> Iterator[DeclareCloseAssault]:
    """Every enemy vehicle with the minimum number of adjacent infantry."""
    yield from targeting.close_assault_options(state, side)


ACTION = Action(DeclareCloseAssault, check, apply, options)
