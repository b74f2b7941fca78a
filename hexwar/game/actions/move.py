"""``Move`` (R5.3): a ground unit along a path of adjacent hexes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import movement as mv
from ..commands import Move
from ..events import Recorder
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options", "movers", "by_unit"]


def check(state: GameState, cmd: Move) -> str | None:
    """The path is legal for the unit now (R5.3: MP, terrain, stacking, enemy hexes)."""
    return mv.move_problem(state, cmd.side, cmd.unit, cmd.path)


def apply(state: GameState, cmd: Move, rec: Recorder) -> None:
    """Move the unit hex by hex (rubble checks, objectives, R8.4, R10.2)."""
    mv.do_move(state, cmd.side, cmd.unit, cmd.path, rec)


def movers(state: GameState, side: str) -> list[str]:
    """``side``'s units that may be given movement commands (not riding as crew, on the map), by id."""
    return [
        uid
        for uid, u in sorted(state.units.items())
        if u.side == side and u.crewing is None and u.hex is not None
    ]


def by_unit(cmd: Move) -> str:
    """Merge key of the movement actions: the unit's instance id."""
    return cmd.unit


def options(state: GameState, side: str) -> Iterator[Move]:
    """One shortest path to every reachable destination of every unit, by unit id."""
    for uid in movers(state, side):
        reach = mv.unit_reach(state, uid)
        if reach is not None:
            for dest in reach.destinations():
                yield Move(side, uid, reach.path(dest))


ACTION = Action(Move, check, apply, options, merge_key=by_unit)
