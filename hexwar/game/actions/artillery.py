"""``TargetArtillery`` (R5.1d, R9.2): place an off-board artillery mission on a hex."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from ...model.hexgrid import Hex
from ...model.los import BLOCKED
from ...rules.artillery import target_artillery
from .. import ruleset
from ..commands import TargetArtillery
from ..events import Recorder
from .common import artillery_room, bonus_problem, observers
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: TargetArtillery) -> str | None:
    """Missions left this turn and overall; a friendly ground unit sees the hex (R9.2)."""
    if state.scenario.sides[cmd.side].artillery is None:
        return f"{cmd.side} has no off-board artillery in this scenario"
    if state.artillery_left[cmd.side] <= 0:
        return f"{cmd.side} has no artillery missions left"
    if not artillery_room(state, cmd.side):
        return f"{cmd.side} has called all its artillery missions for this turn"
    if cmd.hex is None or not state.battlemap.in_bounds(cmd.hex):
        return f"target hex {cmd.hex} is not on the map"
    obs = observers(state, cmd.side)
    if not obs:
        return "you have no ground unit on the map to observe the target (R9.2)"
    if not any(ruleset.sees(state, o, cmd.hex)[0] for o in obs):
        return f"no friendly ground unit has LOS to {cmd.hex.label} (R9.2)"
    return bonus_problem(state, cmd.side, cmd.bonus_card)


def apply(state: GameState, cmd: TargetArtillery, rec: Recorder) -> None:
    """Spend the mission (and the bonus card); the marker goes on the map."""
    assert cmd.hex is not None
    if cmd.bonus_card is not None:
        state.hand_commands[cmd.side].remove(cmd.bonus_card)
        state.command_discard.append(cmd.bonus_card)
    state.artillery_left[cmd.side] -= 1
    state.artillery_calls.append((cmd.side, cmd.hex, cmd.bonus_card))
    ev = target_artillery(
        state.battlemap,
        cmd.side,
        cmd.hex,
        observers(state, cmd.side),
        lambda a, b: ruleset.sees(state, a, b)[0],
    )
    rec.effect(ev)


def options(state: GameState, side: str) -> Iterator[TargetArtillery]:
    """Every hex some observer sees, column by column (R9.2)."""
    if not artillery_room(state, side):
        return
    obs = observers(state, side)
    if not obs:
        return
    seen = np.zeros((state.battlemap.height, state.battlemap.width), dtype=bool)
    for o in obs:
        status, _ = ruleset.los_arrays(state, o)
        seen |= status != BLOCKED
    cols, rows = np.nonzero(seen.T)  # column by column, rows in order within each
    for col, row in zip(cols.tolist(), rows.tolist(), strict=True):
        yield TargetArtillery(side, Hex.from_offset(col, row))


ACTION = Action(TargetArtillery, check, apply, options)
