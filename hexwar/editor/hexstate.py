"""Per-hex snapshots and all-or-nothing map transactions: the ground the editor's undo stands on.

A :class:`HexState` is everything a :class:`~hexwar.model.maps.BattleMap` stores for one hex (R2.4:
terrain, ground level, road, rubble, fire and its turns, the wreck stack). Writing one back goes
through the map's own methods (``set_terrain``, ``set_level``, ``set_rubble``, ``set_fire``,
``add_wreck`` ...), so the editor can never put a state on the map that the map would refuse.

A :class:`MapTransaction` records the state of every hex before an edit first touches it; if
the edit raises (a :class:`~hexwar.model.maps.MapError` from the map's validation), the transaction
writes those states back, so an invalid edit changes nothing.

>>> from hexwar.model.maps import BattleMap
>>> from hexwar.model.hexgrid import Hex
>>> m = BattleMap.new(4, 3)
>>> h = Hex.from_label("B02")
>>> tx = MapTransaction(m)
>>> tx.touch(h); m.set_terrain(h, "wood_building")
>>> tx.touch(h); m.set_fire(h, True)
>>> tx.changes()[h][1].fire
True
>>> tx.rollback(); m.terrain_at(h).key, m.has_fire(h)
('clear', False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..model.hexgrid import Hex
from ..model.maps import BattleMap, MapError

__all__ = ["HexState", "MapTransaction", "read_states", "write_states"]


@dataclass(frozen=True, slots=True)
class HexState:
    """Everything a map holds for one hex (R2.4), as an immutable value.

    Attributes:
        terrain: index into ``battlemap.rules.types`` (the base terrain, buildings included).
        level: ground level in levels (0..9, R3.4).
        road: a road runs through the hex.
        rubble: the building is rubble (R8.3); only on building terrain.
        fire: a building fire burns (R8.4); only on an intact building.
        fire_turns: full turns the fire has burned (R8.6 ``burnout``); 0 without fire.
        wrecks: wreck counter ids, bottom first (R8.1).
    """

    terrain: int
    level: int = 0
    road: bool = False
    rubble: bool = False
    fire: bool = False
    fire_turns: int = 0
    wrecks: tuple[str, ...] = ()

    @classmethod
    def read(cls, m: BattleMap, h: Hex) -> HexState:
        """The state of hex ``h`` of map ``m``.

        Raises:
            MapError: when ``h`` is off the map.
        """
        idx = m.index(h)
        return cls(
            terrain=int(m.terrain[idx]),
            level=int(m.level[idx]),
            road=bool(m.road[idx]),
            rubble=bool(m.rubble[idx]),
            fire=bool(m.fire[idx]),
            fire_turns=int(m.fire_turns[idx]),
            wrecks=tuple(m.wrecks.get(h, ())),
        )

    def write(self, m: BattleMap, h: Hex) -> None:
        """Make hex ``h`` of ``m`` hold exactly this state, through the map's own methods.

        Not atomic by itself (use :func:`write_states` or a :class:`MapTransaction`).

        Raises:
            MapError: off-map hex, unknown terrain index or wreck id, a level outside 0..9,
                rubble or fire where the terrain holds no (intact) building.
        """
        if not 0 <= self.terrain < len(m.rules.types):
            raise MapError(f"hex {m.label(h)}: terrain index {self.terrain} is not in the terrain table")
        key = m.rules.types[self.terrain].key
        m.set_terrain(h, key)  # clears rubble and fire on non-buildings
        m.set_level(h, self.level)
        m.set_road(h, self.road)
        if m.has_fire(h) and not self.fire:
            m.set_fire(h, False)
        m.set_rubble(h, self.rubble)  # raises MapError for rubble on a non-building (R8.3)
        if self.fire:
            m.set_fire(h, True)  # raises MapError unless an intact building stands (R8.4)
            m.fire_turns[m.index(h)] = int(self.fire_turns)
        elif self.fire_turns:
            raise MapError(f"hex {m.label(h)}: fire_turns {self.fire_turns} without a fire")
        current = m.wrecks_at(h)
        if list(self.wrecks) != current:
            while m.wrecks_at(h):
                m.remove_wreck(h)
            for wid in self.wrecks:
                m.add_wreck(h, wid)  # raises MapError for an unknown wreck id (R8.1)


def read_states(m: BattleMap, hexes: Iterable[Hex]) -> dict[Hex, HexState]:
    """States of ``hexes`` (each must be on the map; raises ``MapError`` naming one that is not)."""
    return {h: HexState.read(m, h) for h in hexes}


def write_states(m: BattleMap, states: Mapping[Hex, HexState]) -> None:
    """Write several hex states all-or-nothing.

    Raises:
        MapError: the first problem found; the map is then exactly as before the call.
    """
    tx = MapTransaction(m)
    try:
        for h, st in states.items():
            tx.touch(h)
            st.write(m, h)
    except MapError:
        tx.rollback()
        raise


class MapTransaction:
    """Records each hex's state before its first change, to roll back or to build an undo step.

    Call :meth:`touch` on a hex *before* changing it. :meth:`rollback` writes the recorded
    states back (they were valid, so this cannot fail); :meth:`changes` lists
    ``hex -> (before, after)`` for hexes whose state really changed.

    A transaction may span many operations (a brush stroke): :meth:`savepoint` and
    :meth:`rollback_to` undo just the last operation when it fails.
    """

    def __init__(self, m: BattleMap) -> None:
        """Start recording changes to map ``m``."""
        self.map = m
        self.before: dict[Hex, HexState] = {}
        self._order: list[Hex] = []

    def touch(self, h: Hex) -> None:
        """Record ``h``'s state if not yet recorded. Raises ``MapError`` when ``h`` is off the map."""
        if h not in self.before:
            self.before[h] = HexState.read(self.map, h)
            self._order.append(h)

    def touch_all(self, hexes: Iterable[Hex]) -> None:
        """:meth:`touch` every hex of ``hexes`` (checks them all before anything changes)."""
        for h in hexes:
            self.touch(h)

    def savepoint(self) -> tuple[int, dict[Hex, HexState]]:
        """A marker to :meth:`rollback_to`: the current states of every touched hex."""
        return len(self._order), {h: HexState.read(self.map, h) for h in self._order}

    def rollback_to(self, mark: tuple[int, dict[Hex, HexState]]) -> None:
        """Undo everything since ``mark`` (hexes first touched since then return to their
        recorded before-state and are forgotten)."""
        n, states = mark
        for h in self._order[n:]:
            self.before[h].write(self.map, h)
            del self.before[h]
        del self._order[n:]
        for h, st in states.items():
            if HexState.read(self.map, h) != st:
                st.write(self.map, h)

    def rollback(self) -> None:
        """Write back every recorded before-state (the map is as at the start)."""
        for h in reversed(self._order):
            if HexState.read(self.map, h) != self.before[h]:
                self.before[h].write(self.map, h)

    def changes(self) -> dict[Hex, tuple[HexState, HexState]]:
        """``hex -> (before, after)`` for every touched hex whose state differs now."""
        out: dict[Hex, tuple[HexState, HexState]] = {}
        for h in self._order:
            after = HexState.read(self.map, h)
            if after != self.before[h]:
                out[h] = (self.before[h], after)
        return out
