"""The counts of a what-if run of a scenario (``hexwar sim scenario``): the units on the map at
the start and their starting places, the LOS lanes of an area, and the tally filled one game at
a time from the game's own events (R8.3-R8.5, R9.4, R6.6; issue 34: cut from
:mod:`hexwar.sim.scenario`, which still offers :class:`UnitRow`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.los import line_of_sight

__all__ = ["LANE_SAMPLE", "ScenarioSimError", "UnitRow"]


class ScenarioSimError(HexwarError):
    """Bad input to ``hexwar sim scenario``: the message names the option, field or hex."""


LANE_SAMPLE = 8  #: deploy-zone hexes per side sampled for the LOS lanes of an area


@dataclass(frozen=True)
class UnitRow:
    """A ground unit on the map at the start: instance id, card name, side, hex, unit type, crew id."""

    uid: str
    name: str
    side: str
    hex: Hex
    unit_type: str
    crew: str | None


def _event_dicts(events: Iterable[Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """(kind, data) of each game event, whatever its class (the JSON boundary's form)."""
    for e in events:
        d = e.to_json() if hasattr(e, "to_json") else {}
        if isinstance(d, dict) and "data" in d and "kind" in d and isinstance(d["data"], dict):
            yield str(d["kind"]), d["data"]
        else:
            yield str(getattr(e, "kind", d.get("kind", ""))), d


def _sample(hexes: Sequence[Hex], n: int) -> list[Hex]:
    hs = sorted(set(hexes), key=lambda h: h.offset)
    if len(hs) <= n:
        return hs
    idx = np.linspace(0, len(hs) - 1, n).round().astype(int)
    return [hs[i] for i in idx]


def _lanes(scenario: Any, area: Sequence[Hex]) -> list[tuple[Hex, Hex]]:
    """LOS lanes of an area: deploy-zone pairs (one hex of each side) open at the start whose
    intervening hexes (R3.2) include a hex of the area."""
    sides = sorted(scenario.sides)
    if len(sides) != 2:
        return []
    a = _sample(scenario.sides[sides[0]].deploy, LANE_SAMPLE)
    b = _sample(scenario.sides[sides[1]].deploy, LANE_SAMPLE)
    inside = set(area)
    out = []
    for x in a:
        for y in b:
            r = line_of_sight(scenario.battlemap, x, y)
            if r.status != "blocked" and inside.intersection(r.intervening):
                out.append((x, y))
    return out


_UNIT_KEYS = ("attacked", "hit", "damage_card", "destroyed")


class _Tally:
    """The counts of a run, filled one trial at a time (:func:`simulate_scenario`)."""

    def __init__(self, scenario: Any, turns: int, areas: dict[str, tuple[Hex, ...]], n_missions: int):
        bm0 = scenario.battlemap
        self.T = turns
        self.buildings = [h for h in bm0.hexes() if bm0.building_at(h) is not None and not bm0.has_rubble(h)]
        bidx = {h: i for i, h in enumerate(self.buildings)}
        self.area_names = list(areas)
        self.area_b = {n: [bidx[h] for h in hs if h in bidx] for n, hs in areas.items()}
        self.lanes = {n: _lanes(scenario, hs) for n, hs in areas.items()}
        T, B, A = turns, len(self.buildings), len(self.area_names)
        self.units: list[UnitRow] = []
        self.uidx: dict[str, int] = {}  # this trial's instance id -> row
        self.slot: dict[tuple[str, str, Hex, str, int], int] = {}  # starting place -> row
        self.counts = {k: np.zeros((T, 0), np.int64) for k in _UNIT_KEYS}
        self.crew_fate: dict[str, Counter[str]] = {}
        self.rubble = np.zeros((T, B), np.int64)
        self.burning = np.zeros((T, B), np.int64)
        self.area_burned = np.zeros((T, A), np.int64)
        self.area_all = np.zeros((T, A), np.int64)
        self.lanes_closed = np.zeros((T, A), np.int64)
        self.landings = np.zeros((T, bm0.height, bm0.width), np.int64)
        self.ended = np.zeros(T, np.int64)
        self.fired = [0] * n_missions
        self.refused: list[Counter[str]] = [Counter() for _ in range(n_missions)]
        self.exact: dict[str, dict[str, Fraction | float]] = {}
        # per trial
        self.firsts: dict[str, np.ndarray] = {}
        self.crew_of: dict[str, str] = {}
        self.snap: dict[int, tuple[np.ndarray, np.ndarray, list[int]]] = {}

    def start_trial(self, st: Any) -> None:
        """Before a trial's first command: learn the units (first trial), reset the trial's marks.

        A unit's row is its starting place (:func:`_slot_keys`), not its instance id: the game
        numbers card instances after drawing each side's Reserves deck (R10.4 budget draws), so
        the grenadiers placed in Q10 are ``de_grenadiers#1`` in one game and ``#2`` in the next.
        """
        here = _units_of(st)
        if not self.units:
            self.units = here
            self.slot = {k: i for i, k in enumerate(_slot_keys(here))}
            self.counts = {k: np.zeros((self.T, len(self.units)), np.int64) for k in _UNIT_KEYS}
            self.crew_fate = {u.uid: Counter() for u in self.units if u.crew}
        self.uidx = {}
        self.crew_of = {}
        for u, k in zip(here, _slot_keys(here), strict=True):
            i = self.slot.get(k)
            if i is None:  # pragma: no cover - every game of a scenario starts with the same units
                raise ScenarioSimError(
                    f"{u.uid} in {u.hex.label}: a starting unit the first game did not have"
                )
            self.uidx[u.uid] = i
            if u.crew:
                self.crew_of[u.crew] = self.units[i].uid
        self.firsts = {
            k: np.zeros(len(self.units), np.int64) for k in _UNIT_KEYS
        }  # first turn seen, 0 = never
        self.snap = {}

    def on_events(self, evs: list[Any], turn: int) -> None:
        """Read the events of one command issued in ``turn`` (a later Begin Turn moves it on)."""
        t = turn
        for kind, d in _event_dicts(evs):
            if kind == "begin_turn":
                t = int(d.get("turn", t + 1))
                continue
            if t > self.T:  # the next turn's Begin Turn (R5.1) is past the run
                continue
            key = None
            uid = d.get("unit") if kind in ("artillery_unit_attack", "destroyed") else d.get("target")
            if kind == "artillery_unit_attack":
                key = "attacked"
            elif kind == "to_hit" and d.get("outcome") not in ("miss", "friendly_fire"):
                key = "hit"
            elif kind == "damage":
                key = "hit"
            elif kind == "damage_card" and not d.get("ignored"):
                key = "damage_card"
            elif kind == "destroyed":
                key = "destroyed"
            elif kind == "crew_fate":
                j = self.uidx.get(str(d.get("unit")))
                owner = self.crew_of.get(str(d.get("crew"))) or (self.units[j].uid if j is not None else "")
                if owner in self.crew_fate:
                    self.crew_fate[owner][str(d.get("fate"))] += 1
            elif kind == "artillery_strike" and not d.get("off_map") and d.get("landing"):
                c, r = Hex.from_label(str(d["landing"])).offset
                self.landings[t - 1, r, c] += 1
            if key and uid in self.uidx and self.firsts[key][self.uidx[uid]] == 0:
                self.firsts[key][self.uidx[uid]] = t

    def picture(self, bm: Any) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """Rubble and fire of every tracked building, and blocked lanes per area, on ``bm`` now."""
        return (
            np.array([bm.has_rubble(h) for h in self.buildings], bool),
            np.array([bm.has_fire(h) for h in self.buildings], bool),
            [
                sum(1 for x, y in self.lanes[nm] if line_of_sight(bm, x, y).status == "blocked")
                for nm in self.area_names
            ],
        )

    def end_trial(self, st: Any) -> None:
        """Add the finished trial: each turn's picture (the final one for turns after a victory)."""
        final = self.picture(st.battlemap)
        for t in range(1, self.T + 1):
            over = st.over and t >= st.turn
            self.ended[t - 1] += over
            rb, fb, closed = final if over else self.snap.get(t, final)
            self.rubble[t - 1] += rb
            self.burning[t - 1] += fb
            gone = rb | fb
            for j, nm in enumerate(self.area_names):
                ib = self.area_b[nm]
                nb = int(gone[ib].sum()) if ib else 0
                self.area_burned[t - 1, j] += nb
                self.area_all[t - 1, j] += bool(ib) and nb == len(ib)
                self.lanes_closed[t - 1, j] += closed[j]
        gone = self.firsts["destroyed"]
        for k, arr in self.counts.items():
            f = self.firsts[k]
            for t in range(1, self.T + 1):
                by_t = (f > 0) & (f <= t)
                if k == "damage_card":  # drawn and still in play (the odds' outcome, R6.5)
                    by_t &= ~((gone > 0) & (gone <= t))
                arr[t - 1] += by_t


def _slot_keys(units: Sequence[UnitRow]) -> list[tuple[str, str, Hex, str, int]]:
    """The starting place of each unit, the same in every game of a scenario: (side, card id,
    hex, crew card id or "", k), k counting the units of that key in the order the game
    attacks a hex's units (sorted instance ids, R9.4), so rows that differ only in k are
    interchangeable and row k is always attacked k-th among them."""
    seen: Counter[tuple[str, str, Hex, str]] = Counter()
    out = []
    for u in units:
        base = (u.side, u.uid.rsplit("#", 1)[0], u.hex, u.crew.rsplit("#", 1)[0] if u.crew else "")
        out.append((*base, seen[base]))
        seen[base] += 1
    return out


def _units_of(st: Any) -> list[UnitRow]:
    from ..game import ruleset

    out = []
    for uid, u in sorted(st.units.items()):
        if u.hex is None or u.aloft or u.crewing is not None:
            continue
        cid = uid.rsplit("#", 1)[0]
        out.append(UnitRow(uid, ruleset.card_name(cid), u.side, u.hex, ruleset.target_type(cid), u.crew))
    return out
