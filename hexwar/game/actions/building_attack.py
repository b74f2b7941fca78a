"""``DeclareBuildingAttack`` (R8.2): infantry attacks an adjacent building in close combat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import targeting
from ..commands import DeclareBuildingAttack
from ..events import Recorder
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: DeclareBuildingAttack) -> str | None:
    """Infantry next to a building, able to attack (R8.2)."""
    return targeting.building_attack_problem(state, cmd)


def apply(state: GameState, cmd: DeclareBuildingAttack, rec: Recorder) -> None:
    """Record the declared building attack."""
    targeting.do_declare_building_attack(state, cmd, rec)


def options(state: GameState, side: str) -> Iterator[DeclareBuildingAttack]:
    """Every building next to every infantry unit of the side that may attack it."""
    yield from targeting.building_attack_options(state, side)


ACTION = Action(DeclareBuildingAttack, check, apply, options)
