"""Scenario special rules of 1943 (docs/rules.md R10.5-R10.8): minefields, night, snow and mud,
river crossings by boat or over the ice.

A scenario switches them on with data only (nothing in a file is executed):

* **R10.5 Minefields** - ``[battlefield] mines = ["E05", ...]``. A ground unit entering a
  mined hex stops there (the rest of its movement points are lost); a vehicle then rolls 1d6
  and is Immobilized on 1-2 (:data:`MINE_IMMOBILIZED_ON`). Engineer squads (the cards in
  :data:`ENGINEERS`) cross minefields as open ground: they are trained to lift mines.
* **R10.6 Night** - ``[scenario] night = [1, 2]``: in those turns direct fire, and the
  observation for indirect fire, reach at most :data:`NIGHT_RANGE` (2) hexes; aircraft aloft
  and off-board artillery (R9) are not limited.
* **R10.7 Snow and mud** - ``[scenario] ground = "snow"`` or ``"mud"``: every ground unit's
  movement points at the start of each Movement phase are reduced by :func:`ground_mp_change`
  (snow: -1 for every mobility; mud: foot -1, tracked -1, wheeled -2), never below 1.
* **R10.8 River crossings** - ``[battlefield] crossings = ["W12", ...]``: water hexes that
  foot units may enter (boats, rafts, the ice) at a cost of :data:`CROSSING_COST` (4) movement
  points, i.e. a squad's whole move; vehicles and guns still cannot.

>>> ground_mp_change("mud", "wheeled"), ground_mp_change("snow", "foot"), ground_mp_change("dry", "tracked")
(-2, -1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..rules.terrain_effects import EffectEvent, hex_text

if TYPE_CHECKING:  # pragma: no cover
    from ..model.hexgrid import Hex
    from .state import GameState

__all__ = [
    "GROUNDS",
    "NIGHT_RANGE",
    "CROSSING_COST",
    "MINE_IMMOBILIZED_ON",
    "ENGINEERS",
    "MineCheck",
    "ground_mp_change",
    "is_night",
    "mined",
    "mine_entry_check",
    "crossing_costs",
]

GROUNDS = ("dry", "snow", "mud")  # R10.7
NIGHT_RANGE = 2  # R10.6: hexes
CROSSING_COST = 4.0  # R10.8: movement points for a foot unit to enter a crossing hex
MINE_IMMOBILIZED_ON = 2  # R10.5: a vehicle entering a minefield is Immobilized on 1d6 <= this
ENGINEERS = frozenset({"de_pioniere", "su_engineers"})  # R10.5: they lift mines
_GROUND_MP = {
    "snow": {"foot": -1, "tracked": -1, "wheeled": -1},
    "mud": {"foot": -1, "tracked": -1, "wheeled": -2},
}


def ground_mp_change(ground: str, mobility: str) -> int:
    """R10.7: the change to a unit's movement points on ``ground`` (``dry``, ``snow``, ``mud``)
    for ``mobility`` (``foot``, ``tracked``, ``wheeled``); 0 on dry ground."""
    return _GROUND_MP.get(ground, {}).get(mobility, 0)


def is_night(state: GameState) -> bool:
    """R10.6: whether the current turn is one of the scenario's night turns."""
    return state.turn in getattr(state.scenario, "night", ())


def mined(state: GameState, h: Hex) -> bool:
    """R10.5: whether ``h`` is one of the scenario's minefield hexes."""
    return h in state.scenario.battlefield.mines


@dataclass(frozen=True)
class MineCheck(EffectEvent):
    """A ground unit entered a minefield (R10.5): it stops; a vehicle rolled 1d6.

    Attributes:
        unit: the unit's id.
        hex: the mined hex.
        roll: the d6 face (0 when no roll is made: infantry only stop).
        immobilized: the vehicle gains the Immobilized effect (the game applies it).
    """

    unit: str
    hex: Hex
    roll: int
    immobilized: bool

    def __str__(self) -> str:
        """One game-log line."""
        if not self.roll:
            return f"{self.unit} enters the minefield in {hex_text(self.hex)} and stops (R10.5)"
        verdict = "immobilized by a mine" if self.immobilized else "gets through and stops"
        return (
            f"{self.unit} enters the minefield in {hex_text(self.hex)}: 1d6 = {self.roll}, {verdict} (R10.5)"
        )


def mine_entry_check(state: GameState, uid: str, h: Hex, mobility: str) -> MineCheck | None:
    """R10.5 for unit ``uid`` (of mobility ``foot``/``tracked``/``wheeled``) entering ``h``.

    Returns:
        ``None`` when ``h`` is not mined or the unit is an engineer squad (no roll); else the
        check: infantry stop without a roll, vehicles roll 1d6 (on the game's dice, logged).
    """
    if not mined(state, h):
        return None
    u = state.units[uid]
    card = u.card
    if card in ENGINEERS:
        return None
    if mobility == "foot":
        return MineCheck(uid, h, 0, False)
    face = state.dice.roll(f"minefield: {uid} enters {hex_text(h)}", "1d6").natural
    return MineCheck(uid, h, int(face), int(face) <= MINE_IMMOBILIZED_ON)


def crossing_costs(state: Any, mobility: str, cost: np.ndarray) -> np.ndarray:
    """R10.8: ``cost`` (``float [H, W]`` enter costs of ``mobility``) with the scenario's
    crossing hexes enterable by foot units at :data:`CROSSING_COST`; unchanged otherwise."""
    bf = getattr(state.scenario, "battlefield", None)
    if mobility != "foot" or bf is None or not bf.crossings:
        return cost
    out = cost.copy()
    for h in bf.crossings:
        col, row = h.offset
        out[row, col] = CROSSING_COST
    return out
