"""Parameter sweeps over seeds: one artillery or fire simulation per (parameter values, seed).

``vary`` maps parameter names to the values to try; every combination (the Cartesian product,
in the order given) is run once per seed, each run giving one row of summary numbers. Because
every die of a trial is keyed by what it decides (:mod:`hexwar.sim.seeding`), runs with the same
seed and different parameters use common random numbers: the differences between rows of one
seed are much less noisy than the rows themselves.

Parameters
    artillery: ``hit_on`` (1..7, R9.3), ``bonus`` (0/1, R1.3), ``missions`` (1..1000),
    ``damage_index`` (0..30), ``dr:<building>`` (the DR of one building class, e.g.
    ``dr:wood_building``).
    fire: ``turns`` (1..200), ``spread_bonus`` (R8.4's +6), ``burnout_turns`` (R8.6's 3; needs
    variant ``burnout``), ``dr:<building>``.

>>> parse_values("2..5"), parse_values("13,15")
([2, 3, 4, 5], [13, 15])
>>> parse_vary("dr:wood_building=12..14")
('dr:wood_building', [12, 13, 14])
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from .artillery import BURNING, simulate_artillery
from .exact import ExactTooLarge, building_states, exact_fire, landing_fractions
from .fire import simulate_fire, start_state
from .report import Z95, rows_csv

__all__ = [
    "ARTILLERY_PARAMS",
    "FIRE_PARAMS",
    "SweepError",
    "dr_with",
    "parse_seeds",
    "parse_values",
    "parse_vary",
    "sweep_artillery",
    "sweep_csv",
    "sweep_fire",
    "sweep_runs",
    "sweep_chunk",
]

ARTILLERY_PARAMS = {"hit_on": (1, 7), "bonus": (0, 1), "missions": (1, 1000), "damage_index": (0, 30)}
FIRE_PARAMS = {"turns": (1, 200), "spread_bonus": (-20, 30), "burnout_turns": (1, 50)}
DR_RANGE = (1, 40)
MAX_RUNS = 10_000
_RANGE = re.compile(r"^\s*(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})\s*$")


class SweepError(HexwarError):
    """A sweep specification that cannot be run; the message names it and what was expected."""


def _short(text: str) -> str:
    """``text`` as it goes into an error message: at most 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def parse_values(text: str) -> list[int]:
    """``"a,b,c"`` or an inclusive range ``"lo..hi"`` as a list of ints.

    Raises:
        SweepError: naming the text.
    """
    m = _RANGE.match(text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise SweepError(f"bad range {_short(text)}: expected lo..hi with lo <= hi")
        if hi - lo >= MAX_RUNS:
            raise SweepError(f"bad range {_short(text)}: at most {MAX_RUNS} values in one sweep")
        return list(range(lo, hi + 1))
    try:
        parts = text.split(",")
        if len(parts) > MAX_RUNS or any(len(v.strip().lstrip("-")) > 9 for v in parts):
            raise ValueError
        vals = [int(v) for v in parts]
    except ValueError:
        raise SweepError(f"bad values {_short(text)}: expected whole numbers (at most 9 digits) like 2,3,4 or a range 2..6") from None
    return vals


def parse_vary(spec: str) -> tuple[str, list[int]]:
    """``"name=values"`` (see :func:`parse_values`) as ``(name, values)``.

    Raises:
        SweepError: when there is no ``=`` or the values do not parse.
    """
    if "=" not in spec:
        raise SweepError(f"--vary {spec!r}: expected NAME=VALUES, like hit_on=2..6 or dr:wood_building=12,13,14")
    name, _, vals = spec.partition("=")
    return name.strip(), parse_values(vals)


def parse_seeds(text: str) -> list[int]:
    """Seeds as ``"0..4"`` or ``"1,7,9"`` (non-negative).

    Raises:
        SweepError: for a bad list or a negative seed.
    """
    seeds = parse_values(text)
    if any(s < 0 for s in seeds):
        raise SweepError(f"--seeds {text!r}: seeds must be >= 0")
    return seeds


def _building_keys(battlemap: BattleMap) -> list[str]:
    return [t.key for t in battlemap.rules.types if t.is_building]


def dr_with(battlemap: BattleMap, dr: np.ndarray, key: str, value: int) -> np.ndarray:
    """``dr`` with every intact building of terrain ``key`` given DR ``value``.

    Raises:
        SweepError: for a terrain key that is not a building, or a DR outside 1..40.
    """
    keys = _building_keys(battlemap)
    if key not in keys:
        raise SweepError(f"dr:{key}: not a building class; expected one of {', '.join(keys)}")
    if not DR_RANGE[0] <= value <= DR_RANGE[1]:
        raise SweepError(f"dr:{key}={value}: a DR must be {DR_RANGE[0]}..{DR_RANGE[1]}")
    idx = battlemap.rules.index_of_key(key)
    out = np.array(dr, dtype=np.int16, copy=True)
    out[(battlemap.terrain == idx) & (out > 0)] = value
    return out


def _check_params(vary: Mapping[str, Sequence[int]], allowed: Mapping[str, tuple[int, int]], battlemap: BattleMap,
                  kind: str) -> None:
    if not vary:
        raise SweepError("nothing to sweep: give at least one --vary NAME=VALUES")
    for name, vals in vary.items():
        if not vals:
            raise SweepError(f"--vary {name}: no values")
        if name.startswith("dr:"):
            for v in vals:
                dr_with(battlemap, battlemap.dr_array(), name[3:], v)
            continue
        if name not in allowed:
            names = ", ".join(list(allowed) + ["dr:<building>"])
            article = "an" if kind[0] in "aeiou" else "a"
            raise SweepError(f"--vary {name}: not {article} {kind} parameter; expected one of {names}")
        lo, hi = allowed[name]
        for v in vals:
            if not lo <= v <= hi:
                raise SweepError(f"--vary {name}={v}: expected {lo}..{hi}")


def _combos(vary: Mapping[str, Sequence[int]], seeds: Sequence[int]) -> list[tuple[dict[str, int], int]]:
    names = list(vary)
    out = [(dict(zip(names, vals, strict=True)), s) for vals in itertools.product(*(vary[n] for n in names)) for s in seeds]
    if len(out) > MAX_RUNS:
        raise SweepError(f"{len(out)} runs requested; a sweep may run at most {MAX_RUNS}")
    return out


def _dr_for(battlemap: BattleMap, params: Mapping[str, int]) -> np.ndarray:
    dr = battlemap.dr_array()
    for name, v in params.items():
        if name.startswith("dr:"):
            dr = dr_with(battlemap, dr, name[3:], v)
    return dr


def sweep_artillery(
    battlemap: BattleMap,
    target: Hex,
    *,
    hit_on: int,
    damage_index: int,
    missions: int = 1,
    bonus: int = 0,
    vary: Mapping[str, Sequence[int]],
    seeds: Sequence[int],
    trials: int = 20_000,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Run :func:`~hexwar.sim.artillery.simulate_artillery` for every combination of ``vary`` and seed.

    Returns rows with the parameters and: ``p_target`` (one strike on the target hex) and its
    exact value, ``off_map`` and exact, ``expected_fires`` / ``expected_rubble`` (buildings
    burning / rubble after the last mission, summed over the buildings a strike can reach) with
    their exact values.

    Raises:
        SweepError: for an unknown parameter or a value out of range.
    """
    _check_params(vary, ARTILLERY_PARAMS, battlemap, "artillery")
    rows = []
    for params, seed in _combos(vary, seeds):
        p: dict[str, Any] = {"hit_on": hit_on, "damage_index": damage_index, "missions": missions, "bonus": bonus}
        p.update({k: v for k, v in params.items() if not k.startswith("dr:")})
        dr = _dr_for(battlemap, params)
        r = simulate_artillery(battlemap, target, trials=trials, seed=seed, dr=dr, progress=progress, **p)
        exact = landing_fractions(target, p["hit_on"], p["bonus"], battlemap.width, battlemap.height)
        ex_fire = ex_rubble = 0.0
        for k, h in enumerate(r.building_hexes):
            st = building_states(exact.get(h, Fraction(0)), p["damage_index"], int(r.building_dr[k]), p["missions"],
                                 burning_at_start=bool(r.building_start[k] == BURNING))
            ex_fire += float(st["burning"])
            ex_rubble += float(st["rubble"])
        tr = max(trials, 1)
        row: dict[str, Any] = {"kind": "artillery", "seed": seed, "trials": trials, **params}
        row.update({
            "p_target": round(float(r.landing_probability()[battlemap.index(target)]), 6),
            "p_target_exact": round(float(exact.get(target, Fraction(0))), 6),
            "off_map": round(r.off_map_share(), 6), "off_map_exact": round(float(exact.get(None, Fraction(0))), 6),
            "expected_fires": round(float(r.fire_counts.sum()) / tr, 6), "expected_fires_exact": round(ex_fire, 6),
            "expected_rubble": round(float(r.rubble_counts.sum()) / tr, 6), "expected_rubble_exact": round(ex_rubble, 6),
        })
        rows.append(row)
    return rows


def sweep_fire(
    battlemap: BattleMap,
    ignite: Sequence[Hex],
    *,
    turns: int,
    burnout: bool = False,
    vary: Mapping[str, Sequence[int]],
    seeds: Sequence[int],
    trials: int = 5_000,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Run :func:`~hexwar.sim.fire.simulate_fire` for every combination of ``vary`` and seed.

    Returns rows with the parameters and, at the last turn: ``burning_mean`` with its 95%
    interval (``burning_lo``, ``burning_hi``), ``burned_by_mean`` (buildings that burned at some
    point), the 5% and 95% quantiles, and ``burning_exact`` when the cluster is small enough for
    :func:`~hexwar.sim.exact.exact_fire` (blank otherwise).

    Raises:
        SweepError: for an unknown parameter, a value out of range, or ``burnout_turns``
            without ``burnout``.
    """
    _check_params(vary, FIRE_PARAMS, battlemap, "fire")
    if "burnout_turns" in vary and not burnout:
        raise SweepError("--vary burnout_turns needs --variant burnout")
    rows = []
    for params, seed in _combos(vary, seeds):
        T = params.get("turns", turns)
        dr = _dr_for(battlemap, params)
        kw: dict[str, Any] = {k: params[k] for k in ("spread_bonus", "burnout_turns") if k in params}
        r = simulate_fire(battlemap, ignite, T, trials=trials, seed=seed, burnout=burnout, dr=dr, progress=progress, **kw)
        mean = r.burning_buildings_mean()[T]
        sd = r.burning_buildings_sd()[T]
        half = Z95 * sd / max(trials, 1) ** 0.5
        try:
            b0, t0 = start_state(battlemap, ignite)
            ex = exact_fire(b0, t0, dr, T, burnout, **kw)
            exact_mean: Any = round(float(ex.expected_burning()[T]), 6)
        except ExactTooLarge:
            exact_mean = ""
        row: dict[str, Any] = {"kind": "fire", "seed": seed, "trials": trials, **params}
        row.update({
            "turn": T, "burning_mean": round(float(mean), 6), "burning_lo": round(float(mean - half), 6),
            "burning_hi": round(float(mean + half), 6),
            "burned_by_mean": round(float(r.ever_counts[T].sum()) / max(trials, 1), 6),
            "burning_q05": int(r.burning_buildings_quantile(0.05)[T]), "burning_q95": int(r.burning_buildings_quantile(0.95)[T]),
            "burning_exact": exact_mean,
        })
        rows.append(row)
    return rows


def sweep_runs(vary: Mapping[str, Sequence[int]], seeds: Sequence[int]) -> list[tuple[dict[str, int], int]]:
    """Every ``(parameter values, seed)`` run of a sweep, in row order (the Cartesian product of
    ``vary`` in the order given, each with every seed).

    Raises:
        SweepError: for more than :data:`MAX_RUNS` runs.

    >>> sweep_runs({"hit_on": [3, 4]}, [0, 1])
    [({'hit_on': 3}, 0), ({'hit_on': 3}, 1), ({'hit_on': 4}, 0), ({'hit_on': 4}, 1)]
    """
    return _combos(vary, seeds)


def sweep_chunk(items: list[tuple[str, BattleMap, dict[str, Any], dict[str, int], int]]) -> list[dict[str, Any]]:
    """Run a chunk of sweep runs (on a Dask worker or in this process), one row each, in order.

    Args:
        items: ``(kind, battlemap, keyword arguments, parameter values, seed)`` with kind
            ``"artillery"`` (:func:`sweep_artillery`) or ``"fire"`` (:func:`sweep_fire`); a run
            is the sweep of one combination and one seed, so its row is exactly the row the
            whole sweep gives for them (every die is keyed by its seed, :mod:`hexwar.sim.seeding`).

    Raises:
        SweepError: as the sweep functions do.
    """
    rows: list[dict[str, Any]] = []
    for kind, battlemap, kw, params, seed in items:
        fn = sweep_artillery if kind == "artillery" else sweep_fire
        rows += fn(battlemap, **kw, vary={k: [v] for k, v in params.items()}, seeds=[seed])
    return rows


def sweep_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """CSV of sweep rows (columns in first-seen order)."""
    heads: list[str] = []
    for row in rows:
        for k in row:
            if k not in heads:
                heads.append(k)
    return rows_csv(heads, ([row.get(h, "") for h in heads] for row in rows))
