"""``Tow`` and ``DropTow`` (R8.1): hook up a wreck (2 MP) and drop it again (no cost)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import movement as mv
from .. import ruleset
from ..commands import DropTow, Tow
from ..events import Recorder
from .move import by_unit, movers
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "DROP_ACTION", "check", "apply", "options", "check_drop", "apply_drop", "options_drop"]


def check(state: GameState, cmd: Tow) -> str | None:
    """A tracked vehicle with 2 MP left hooks up a wreck in or next to its hex (R8.1)."""
    return mv.tow_problem(state, cmd.side, cmd.unit, cmd.hex)


def apply(state: GameState, cmd: Tow, rec: Recorder) -> None:
    """Hook up the wreck (the map event is applied by the recorder)."""
    assert cmd.hex is not None
    mv.do_tow(state, cmd.side, cmd.unit, cmd.hex, rec)


def options(state: GameState, side: str) -> Iterator[Tow]:
    """Every wreck each free tracked vehicle with 2 MP may hook up, by unit id."""
    for uid in movers(state, side):
        u = state.units[uid]
        if not u.towing and u.mp_left >= 2 and ruleset.mobility(u.card) == "tracked":
            assert u.hex is not None
            for h in [u.hex] + state.battlemap.neighbors(u.hex):
                if state.battlemap.wrecks.get(h) and mv.tow_problem(state, side, uid, h) is None:
                    yield Tow(side, uid, h)


def check_drop(state: GameState, cmd: DropTow) -> str | None:
    """The unit is the side's and tows a wreck."""
    u = state.units.get(cmd.unit)
    if u is None or u.side != cmd.side:
        return f"{cmd.unit} is not a unit of yours in play"
    if not u.towing:
        return f"{cmd.unit} tows no wreck"
    return None


def apply_drop(state: GameState, cmd: DropTow, rec: Recorder) -> None:
    """Drop the towed wreck in the vehicle's hex."""
    mv.do_drop_tow(state, cmd.side, cmd.unit, rec)


def options_drop(state: GameState, side: str) -> Iterator[DropTow]:
    """Every towing unit of the side, by unit id."""
    for uid in movers(state, side):
        if state.units[uid].towing:
            yield DropTow(side, uid)


ACTION = Action(Tow, check, apply, options, merge_key=by_unit)
DROP_ACTION = Action(DropTow, check_drop, apply_drop, options_drop, merge_key=by_unit)
