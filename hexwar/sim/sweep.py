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
    Places (issue 23): artillery ``target`` and fire ``ignite`` take hexes instead of numbers:
    labels, offset ranges ``E04..G06`` and ``area:NAME`` (every hex of a named area; for
    ``ignite`` the building hexes of a range or area), one run per hex.
    Scenario fields (``hexwar sim sweep scenario``, :mod:`hexwar.sim.scenario`): ``target``,
    ``ignite`` (the hex of every planned mission / ignition), ``sides.SIDE.artillery.missions``,
    ``.per_turn``, ``.hit_on``, ``.damage_index``, ``objectives.NAME.points`` and
    ``scenario.victory_points``: the scenario is run with that field changed.

Per-hex and per-area outputs: with ``hexes`` and ``areas`` every row also has, for each hex,
``"HEX:measure"`` and for each named area ``"AREA:measure"`` columns (the JSON rows nest them
as ``"hexes": {HEX: {measure: ...}}`` and ``"areas": {AREA: {measure: ...}}``); the measures are
listed by each sweep function.

>>> parse_values("2..5"), parse_values("13,15")
([2, 3, 4, 5], [13, 15])
>>> parse_vary("dr:wood_building=12..14")
('dr:wood_building', [12, 13, 14])
>>> parse_hex_values("B02..C03,E05", BattleMap.new(8, 8))
['B02', 'B03', 'C02', 'C03', 'E05']
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
    "parse_hex_values",
    "flatten_row",
    "HEX_PARAMS",
    "sweep_artillery",
    "sweep_csv",
    "sweep_fire",
    "sweep_runs",
]

ARTILLERY_PARAMS = {
    "hit_on": (1, 7),
    "bonus": (0, 1),
    "missions": (1, 1000),
    "damage_index": (0, 30),
    "target": (0, 0),
}
FIRE_PARAMS = {"turns": (1, 200), "spread_bonus": (-20, 30), "burnout_turns": (1, 50), "ignite": (0, 0)}
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
        raise SweepError(
            f"bad values {_short(text)}: expected whole numbers (at most 9 digits) like 2,3,4 or a range 2..6"
        ) from None
    return vals


def parse_vary(spec: str) -> tuple[str, list[int]]:
    """``"name=values"`` (see :func:`parse_values`) as ``(name, values)``.

    Raises:
        SweepError: when there is no ``=`` or the values do not parse.
    """
    if "=" not in spec:
        raise SweepError(
            f"--vary {spec!r}: expected NAME=VALUES, like hit_on=2..6 or dr:wood_building=12,13,14"
        )
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


HEX_PARAMS = ("target", "ignite")  #: parameters whose values are hexes


def parse_hex_values(
    text: str,
    battlemap: BattleMap,
    areas: Mapping[str, Sequence[Hex]] | None = None,
    buildings_only: bool = False,
) -> list[str]:
    """Hexes for a place parameter: ``"F05"``, ``"E04..G06,H05"`` (offset ranges, R2.2) or
    ``"area:NAME"``, as hex labels in the order given (ranges column by column), without repeats.

    Args:
        text: the values after ``NAME=``.
        battlemap: every hex must lie on it.
        areas: the named areas ``area:NAME`` may use.
        buildings_only: keep only hexes with a building that is not rubble from ranges and
            areas (``ignite``); a single label is kept as given and checked by the sweep.

    Raises:
        SweepError: naming the value and what was expected.
    """
    from ..game.areas import parse_area_hexes

    out: list[str] = []
    for part in [p.strip() for p in text.split(",") if p.strip()] or [text]:
        if part.startswith("area:"):
            name = part[5:].strip()
            if not areas or name not in areas:
                has = ", ".join(sorted(areas or {})) or "none"
                raise SweepError(f"{_short(part)}: no area {name[:40]!r}; the scenario has: {has}")
            hexes = list(areas[name])
            many = True
        else:

            def refuse(where: str, expected: str) -> None:
                raise SweepError(f"{where}: {expected}")

            hexes = list(parse_area_hexes([part], battlemap, f"value {_short(part)}", refuse))
            many = ".." in part
        if buildings_only and many:
            hexes = [h for h in hexes if battlemap.building_at(h) is not None and not battlemap.has_rubble(h)]
        out += [h.label for h in hexes if h.label not in out]
    if not out:
        raise SweepError(f"{_short(text)}: no hexes" + (" with a building" if buildings_only else ""))
    if len(out) > MAX_RUNS:
        raise SweepError(f"{_short(text)}: at most {MAX_RUNS} hexes in one sweep")
    return out


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


def _check_params(
    vary: Mapping[str, Sequence[int]], allowed: Mapping[str, tuple[int, int]], battlemap: BattleMap, kind: str
) -> None:
    if not vary:
        raise SweepError("nothing to sweep: give at least one --vary NAME=VALUES")
    for name, vals in vary.items():
        if not vals:
            raise SweepError(f"--vary {name}: no values")
        if name.startswith("dr:"):
            for v in vals:
                dr_with(battlemap, battlemap.dr_array(), name[3:], v)
            continue
        if name in HEX_PARAMS and name in allowed:
            for v in vals:
                h = Hex.from_label(str(v))
                if not battlemap.in_bounds(h):
                    raise SweepError(f"--vary {name}={v}: off the {battlemap.width}x{battlemap.height} map")
            continue
        if name not in allowed:
            names = ", ".join(list(allowed) + ["dr:<building>"])
            article = "an" if kind[0] in "aeiou" else "a"
            raise SweepError(f"--vary {name}: not {article} {kind} parameter; expected one of {names}")
        lo, hi = allowed[name]
        for v in vals:
            if not lo <= v <= hi:
                raise SweepError(f"--vary {name}={v}: expected {lo}..{hi}")


def _combos(vary: Mapping[str, Sequence[Any]], seeds: Sequence[int]) -> list[tuple[dict[str, Any], int]]:
    names = list(vary)
    out = [
        (dict(zip(names, vals, strict=True)), s)
        for vals in itertools.product(*(vary[n] for n in names))
        for s in seeds
    ]
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
    vary: Mapping[str, Sequence[Any]],
    seeds: Sequence[int],
    trials: int = 20_000,
    hexes: Sequence[Hex] = (),
    areas: Mapping[str, Sequence[Hex]] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Run :func:`~hexwar.sim.artillery.simulate_artillery` for every combination of ``vary`` and seed.

    Returns rows with the parameters and: ``p_target`` (one strike on the target hex) and its
    exact value, ``off_map`` and exact, ``expected_fires`` / ``expected_rubble`` (buildings
    burning / rubble after the last mission, summed over the buildings a strike can reach) with
    their exact values. ``vary`` may move the ``target`` (hex labels).

    Per hex of ``hexes``: ``strikes`` (expected strikes landing there per trial) and
    ``p_burning`` / ``p_rubble`` (its building after the last mission), each with ``*_exact``.
    Per area of ``areas``: ``expected_burning`` / ``expected_rubble`` (its buildings, exact
    beside) and ``p_all_gone`` (every building of the area burning or rubble, Monte Carlo only:
    the strikes make the buildings dependent).

    Raises:
        SweepError: for an unknown parameter or a value out of range.
    """
    _check_params(vary, ARTILLERY_PARAMS, battlemap, "artillery")
    rows = []
    for params, seed in _combos(vary, seeds):
        p: dict[str, Any] = {
            "hit_on": hit_on,
            "damage_index": damage_index,
            "missions": missions,
            "bonus": bonus,
        }
        p.update({k: v for k, v in params.items() if not k.startswith("dr:") and k != "target"})
        tgt = Hex.from_label(params["target"]) if "target" in params else target
        dr = _dr_for(battlemap, params)
        r = simulate_artillery(
            battlemap, tgt, trials=trials, seed=seed, dr=dr, progress=progress, keep_trials=bool(areas), **p
        )
        exact = landing_fractions(tgt, p["hit_on"], p["bonus"], battlemap.width, battlemap.height)
        ex_fire = ex_rubble = 0.0
        ex_b: dict[Hex, dict[str, Fraction]] = {}
        for k, h in enumerate(r.building_hexes):
            st = building_states(
                exact.get(h, Fraction(0)),
                p["damage_index"],
                int(r.building_dr[k]),
                p["missions"],
                burning_at_start=bool(r.building_start[k] == BURNING),
            )
            ex_b[h] = st
            ex_fire += float(st["burning"])
            ex_rubble += float(st["rubble"])
        tr = max(trials, 1)
        row: dict[str, Any] = {"kind": "artillery", "seed": seed, "trials": trials, **params}
        row.update(
            {
                "p_target": round(float(r.landing_probability()[battlemap.index(tgt)]), 6),
                "p_target_exact": round(float(exact.get(tgt, Fraction(0))), 6),
                "off_map": round(r.off_map_share(), 6),
                "off_map_exact": round(float(exact.get(None, Fraction(0))), 6),
                "expected_fires": round(float(r.fire_counts.sum()) / tr, 6),
                "expected_fires_exact": round(ex_fire, 6),
                "expected_rubble": round(float(r.rubble_counts.sum()) / tr, 6),
                "expected_rubble_exact": round(ex_rubble, 6),
            }
        )
        if hexes or areas:
            _artillery_places(row, battlemap, r, exact, ex_b, hexes, areas or {})
        rows.append(row)
    return rows


def _artillery_places(
    row: dict[str, Any],
    battlemap: BattleMap,
    r: Any,
    exact: Mapping[Hex | None, Fraction],
    ex_b: Mapping[Hex, Mapping[str, Fraction]],
    hexes: Sequence[Hex],
    areas: Mapping[str, Sequence[Hex]],
) -> None:
    """The per-hex and per-area numbers of one artillery run (see :func:`sweep_artillery`)."""
    tr = max(r.trials, 1)
    kidx = {h: k for k, h in enumerate(r.building_hexes)}
    per_hex: dict[str, dict[str, Any]] = {}
    for h in hexes:
        rr, cc = battlemap.index(h)
        k = kidx.get(h)
        burning0 = battlemap.has_fire(h)
        st = ex_b.get(h)
        per_hex[h.label] = {
            "strikes": round(float(r.landing_counts[rr, cc]) / tr, 6),
            "strikes_exact": round(float(exact.get(h, Fraction(0))) * r.missions, 6),
            "p_burning": round(float(r.fire_counts[k]) / tr, 6) if k is not None else float(burning0),
            "p_burning_exact": round(float(st["burning"]), 6) if st else float(burning0),
            "p_rubble": round(float(r.rubble_counts[k]) / tr, 6)
            if k is not None
            else float(battlemap.has_rubble(h)),
            "p_rubble_exact": round(float(st["rubble"]), 6) if st else float(battlemap.has_rubble(h)),
        }
    per_area: dict[str, dict[str, Any]] = {}
    for name, hs in areas.items():
        blds = [h for h in hs if battlemap.building_at(h) is not None and not battlemap.has_rubble(h)]
        ks = [kidx[h] for h in blds if h in kidx]
        fixed_gone = sum(1 for h in blds if h not in kidx and battlemap.has_fire(h))  # burning, out of reach
        fixed_intact = len(blds) - len(ks) - fixed_gone
        if r.trial_states is not None and ks and not fixed_intact:
            gone = (r.trial_states[:, ks] != 0).all(axis=1)
            p_all = round(float(gone.sum()) / tr, 6)
        else:
            p_all = 0.0 if fixed_intact or not blds else 1.0
        per_area[name] = {
            "buildings": len(blds),
            "expected_burning": round((float(r.fire_counts[ks].sum()) if ks else 0.0) / tr + fixed_gone, 6),
            "expected_burning_exact": round(
                sum(float(ex_b[h]["burning"]) for h in blds if h in ex_b) + fixed_gone, 6
            ),
            "expected_rubble": round((float(r.rubble_counts[ks].sum()) if ks else 0.0) / tr, 6),
            "expected_rubble_exact": round(sum(float(ex_b[h]["rubble"]) for h in blds if h in ex_b), 6),
            "p_all_gone": p_all,
        }
    if per_hex:
        row["hexes"] = per_hex
    if per_area:
        row["areas"] = per_area


def sweep_fire(
    battlemap: BattleMap,
    ignite: Sequence[Hex],
    *,
    turns: int,
    burnout: bool = False,
    vary: Mapping[str, Sequence[Any]],
    seeds: Sequence[int],
    trials: int = 5_000,
    hexes: Sequence[Hex] = (),
    areas: Mapping[str, Sequence[Hex]] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Run :func:`~hexwar.sim.fire.simulate_fire` for every combination of ``vary`` and seed.

    Returns rows with the parameters and, at the last turn: ``burning_mean`` with its 95%
    interval (``burning_lo``, ``burning_hi``), ``burned_by_mean`` (buildings that burned at some
    point), the 5% and 95% quantiles, and ``burning_exact`` when the cluster is small enough for
    :func:`~hexwar.sim.exact.exact_fire` (blank otherwise). ``vary`` may set the ``ignite``
    hex (one building hex per run, in place of ``ignite``).

    Per hex of ``hexes`` at the last turn: ``p_burning`` and ``p_burned_by``, with
    ``p_burned_by_exact``. Per area of ``areas``: ``expected_burned`` (its buildings burned by
    the last turn) and ``p_all_burned``, each with ``*_exact`` when the exact computation ran.

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
        ign = [Hex.from_label(params["ignite"])] if "ignite" in params else list(ignite)
        try:
            r = simulate_fire(
                battlemap,
                ign,
                T,
                trials=trials,
                seed=seed,
                burnout=burnout,
                dr=dr,
                progress=progress,
                areas=areas,
                **kw,
            )
        except HexwarError as exc:
            raise SweepError(
                f"--vary ignite={ign[0].label}: {exc}" if "ignite" in params else str(exc)
            ) from None
        mean = r.burning_buildings_mean()[T]
        sd = r.burning_buildings_sd()[T]
        half = Z95 * sd / max(trials, 1) ** 0.5
        ex = None
        try:
            b0, t0 = start_state(battlemap, ign)
            ex = exact_fire(b0, t0, dr, T, burnout, areas=areas, **kw)
            exact_mean: Any = round(float(ex.expected_burning()[T]), 6)
        except ExactTooLarge:
            exact_mean = ""
        row: dict[str, Any] = {"kind": "fire", "seed": seed, "trials": trials, **params}
        row.update(
            {
                "turn": T,
                "burning_mean": round(float(mean), 6),
                "burning_lo": round(float(mean - half), 6),
                "burning_hi": round(float(mean + half), 6),
                "burned_by_mean": round(float(r.ever_counts[T].sum()) / max(trials, 1), 6),
                "burning_q05": int(r.burning_buildings_quantile(0.05)[T]),
                "burning_q95": int(r.burning_buildings_quantile(0.95)[T]),
                "burning_exact": exact_mean,
            }
        )
        tr = max(trials, 1)
        if hexes:
            ex_idx = {h: k for k, h in enumerate(ex.hexes)} if ex is not None else {}
            per_hex: dict[str, dict[str, Any]] = {}
            for h in hexes:
                rr, cc = battlemap.index(h)
                k = ex_idx.get(h)
                per_hex[h.label] = {
                    "p_burning": round(float(r.burning_counts[T, rr, cc]) / tr, 6),
                    "p_burned_by": round(float(r.ever_counts[T, rr, cc]) / tr, 6),
                    "p_burned_by_exact": (round(float(ex.burned_by[T, k]), 6) if k is not None else 0.0)
                    if ex is not None
                    else "",
                }
            row["hexes"] = per_hex
        if areas:
            row["areas"] = {
                name: {
                    "buildings": int(r.area_buildings[a]),
                    "expected_burned": round(float(r.area_burned[T, a]) / tr, 6),
                    "expected_burned_exact": round(float(ex.area_burned[T, a]), 6) if ex is not None else "",
                    "p_all_burned": round(float(r.area_all[T, a]) / tr, 6),
                    "p_all_burned_exact": round(float(ex.area_all[T, a]), 6) if ex is not None else "",
                }
                for a, name in enumerate(r.area_names)
            }
        rows.append(row)
    return rows


def sweep_runs(vary: Mapping[str, Sequence[Any]], seeds: Sequence[int]) -> list[tuple[dict[str, Any], int]]:
    """Every ``(parameter values, seed)`` run of a sweep, in row order (the Cartesian product of
    ``vary`` in the order given, each with every seed).

    Raises:
        SweepError: for more than :data:`MAX_RUNS` runs.

    >>> sweep_runs({"hit_on": [3, 4]}, [0, 1])
    [({'hit_on': 3}, 0), ({'hit_on': 3}, 1), ({'hit_on': 4}, 0), ({'hit_on': 4}, 1)]
    """
    return _combos(vary, seeds)


def sweep_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """CSV of sweep rows (columns in first-seen order); a row's ``hexes`` and ``areas`` become
    ``HEX:measure`` and ``AREA:measure`` columns."""
    flat = [flatten_row(row) for row in rows]
    heads: list[str] = []
    for row in flat:
        for k in row:
            if k not in heads:
                heads.append(k)
    return rows_csv(heads, ([row.get(h, "") for h in heads] for row in flat))


def flatten_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """One sweep row with its per-hex and per-area dicts as ``"PLACE:measure"`` keys.

    >>> flatten_row({"seed": 0, "hexes": {"F05": {"p_rubble": 0.5}}, "areas": {"village": {"p_all_burned": 0.1}}})
    {'seed': 0, 'F05:p_rubble': 0.5, 'village:p_all_burned': 0.1}
    """
    out: dict[str, Any] = {k: v for k, v in row.items() if k not in ("hexes", "areas")}
    for group in ("hexes", "areas"):
        for place, vals in (row.get(group) or {}).items():
            for k, v in vals.items():
                out[f"{place}:{k}"] = v
    return out
