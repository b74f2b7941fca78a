"""Reports of the simulation harness: one JSON-ready dict per run, printed as tables or CSV.

Each ``*_report`` function turns a result (:class:`~hexwar.sim.artillery.ArtilleryResult`,
:class:`~hexwar.sim.fire.FireResult`) into a plain dict (what ``--json`` prints); the
``*_text`` functions format that dict as aligned tables and the ``*_csv`` functions flatten it
into CSV rows, so the three outputs always agree.

Intervals: a probability estimated from ``k`` successes in ``n`` trials gets the 95% Wilson
score interval (:func:`wilson`; sound near 0 and 1, where most hexes of a landing map lie); a
mean (expected attacks, expected burning buildings) gets ``mean +- 1.96 * sd / sqrt(n)``. The
intervals and table helpers live in :mod:`hexwar.sim.tables`, the fire report in
:mod:`hexwar.sim.fire_report` (issue 34); this module offers them all by their old names.

>>> lo, hi = wilson(50, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from .artillery import BURNING, ArtilleryResult
from .exact import building_states, landing_fractions
from .fire_report import fire_csv, fire_report, fire_text
from .tables import Z95, _ci, _frac, _p, _r, format_table, mean_interval, rows_csv, wilson

__all__ = [
    "Z95",
    "UnitOnMap",
    "artillery_csv",
    "artillery_report",
    "artillery_text",
    "fire_csv",
    "fire_report",
    "fire_text",
    "format_table",
    "mean_interval",
    "rows_csv",
    "wilson",
]


@dataclass(frozen=True)
class UnitOnMap:
    """A unit standing on the map, as the artillery report lists it.

    Attributes:
        id: unit id (``"su_rifles#1"``); name: the card's name; side: german/soviet.
        hex: its hex; target_type: infantry, vehicle or gun (R4.2).
        affected: the mission weapon has an attack value against its type.
    """

    id: str
    name: str
    side: str
    hex: Hex
    target_type: str
    affected: bool = True


# -- artillery -------------------------------------------------------------------------------
def artillery_report(
    result: ArtilleryResult,
    battlemap: BattleMap,
    *,
    side: str,
    weapon_name: str,
    units: Sequence[UnitOnMap] = (),
    title: str = "",
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """The JSON-ready report of an artillery run: landings (exact beside Monte Carlo with 95%
    intervals), off-map share, expected attacks per unit and building, P(rubble)/P(fire) per
    building (R9.3, R9.4, R8.2-R8.4)."""
    r = result
    n_s, n_t, m = r.strikes, r.trials, r.missions
    exact = landing_fractions(r.target, r.hit_on, r.bonus, r.width, r.height)
    p_hat = r.landing_probability()
    landing, z_max = _landing_rows(r, battlemap, exact, p_hat)
    off_e = exact.get(None, Fraction(0))
    lo, hi = wilson(r.off_map, n_s)
    off = {
        "exact": _r(off_e),
        "exact_fraction": _frac(off_e),
        "estimate": _r(r.off_map_share()),
        "ci95": [_r(lo), _r(hi)],
        "count": r.off_map,
    }

    def attacks(h: Hex) -> dict[str, Any]:
        return _expected_attacks(r, battlemap, exact, h)

    unit_rows = []
    for u in units:
        unit_rows.append(
            {
                "unit": u.id,
                "name": u.name,
                "side": u.side,
                "hex": u.hex.label,
                "type": u.target_type,
                "affected": u.affected,
                "expected_attacks": attacks(u.hex),
            }
        )
    buildings = _building_rows(r, battlemap, exact, attacks)
    return {
        "command": "artillery",
        "title": title or battlemap.name,
        "map": battlemap.name,
        "width": r.width,
        "height": r.height,
        "target": r.target.label,
        "side": side,
        "hit_on": r.hit_on,
        "bonus": r.bonus,
        "missions": m,
        "weapon": {"name": weapon_name, "damage_index": r.damage_index},
        "trials": n_t,
        "seed": r.seed,
        "strikes": n_s,
        "landing": landing,
        "off_map": off,
        "units": unit_rows,
        "buildings": buildings,
        "max_abs_z": _r(z_max, 3),
        "notes": list(notes),
    }


def _landing_rows(
    r: ArtilleryResult, battlemap: BattleMap, exact: dict[Hex | None, Fraction], p_hat: np.ndarray
) -> tuple[list[dict[str, Any]], float]:
    """Every hex a strike lands in (exact or seen), most likely first: exact, estimate, 95%
    interval, count (R9.3); and the largest |estimate - exact| in standard errors."""
    n_s = r.strikes
    hexes: dict[Hex, Fraction] = {h: p for h, p in exact.items() if h is not None}
    for row, col in zip(*np.nonzero(r.landing_counts), strict=True):
        hexes.setdefault(Hex.from_offset(int(col), int(row)), Fraction(0))
    landing = []
    z_max = 0.0
    for h, pe in sorted(hexes.items(), key=lambda kv: (-kv[1], kv[0].distance(r.target), kv[0].offset)):
        row, col = battlemap.index(h)
        k = int(r.landing_counts[row, col])
        lo, hi = wilson(k, n_s)
        se = math.sqrt(float(pe) * (1 - float(pe)) / max(n_s, 1))
        if se > 0:
            z_max = max(z_max, abs(k / max(n_s, 1) - float(pe)) / se)
        landing.append(
            {
                "hex": h.label,
                "distance": h.distance(r.target),
                "exact": _r(pe),
                "exact_fraction": _frac(pe),
                "estimate": _r(p_hat[row, col]),
                "ci95": [_r(lo), _r(hi)],
                "count": k,
            }
        )
    return landing, z_max


def _expected_attacks(
    r: ArtilleryResult, battlemap: BattleMap, exact: dict[Hex | None, Fraction], h: Hex
) -> dict[str, Any]:
    """Expected strikes landing in ``h`` per trial over the missions, exact and estimated with
    a 95% interval (each strike landing is one attack, R9.4)."""
    n_s, n_t, m = r.strikes, r.trials, r.missions
    row, col = battlemap.index(h)
    pe = float(exact.get(h, Fraction(0)))
    est = r.landing_counts[row, col] / max(n_t, 1)
    p_est = r.landing_counts[row, col] / max(n_s, 1)
    sd = math.sqrt(m * p_est * (1 - p_est))  # per trial: Binomial(missions, p)
    lo, hi = mean_interval(est, sd, n_t)
    return {"exact": _r(m * pe), "estimate": _r(est), "ci95": [_r(max(lo, 0.0)), _r(hi)]}


def _building_rows(
    r: ArtilleryResult,
    battlemap: BattleMap,
    exact: dict[Hex | None, Fraction],
    attacks: Any,
) -> list[dict[str, Any]]:
    """Per building a strike can reach: expected attacks, P(rubble), P(fire), P(fire started),
    exact beside the Monte Carlo with 95% intervals (R8.2-R8.4)."""
    n_t, m = r.trials, r.missions
    buildings = []
    for k, h in enumerate(r.building_hexes):
        row, col = battlemap.index(h)
        bt = battlemap.terrain_at(h)
        ex = building_states(
            exact.get(h, Fraction(0)),
            r.damage_index,
            int(r.building_dr[k]),
            m,
            burning_at_start=bool(r.building_start[k] == BURNING),
        )
        entry: dict[str, Any] = {
            "hex": h.label,
            "building": bt.name,
            "dr": int(r.building_dr[k]),
            "start": "burning" if r.building_start[k] == BURNING else "intact",
            "expected_attacks": attacks(h),
        }
        for key, counts, ex_key in (
            ("p_rubble", r.rubble_counts, "rubble"),
            ("p_fire", r.fire_counts, "burning"),
            ("p_fire_started", r.fire_started_counts, "fire_started"),
        ):
            c = int(counts[k])
            lo, hi = wilson(c, n_t)
            entry[key] = {
                "exact": _r(ex[ex_key]),
                "exact_fraction": _frac(ex[ex_key]),
                "estimate": _r(c / max(n_t, 1)),
                "ci95": [_r(lo), _r(hi)],
                "count": c,
            }
        buildings.append(entry)
    return buildings


def artillery_text(rep: dict[str, Any]) -> str:
    """The artillery report as text tables."""
    bonus = ", Command-card bonus +1" if rep["bonus"] else ""
    out = [
        f"Artillery: {rep['title']} ({rep['width']} x {rep['height']}), target {rep['target']}, "
        f"{rep['side']} hits on {rep['hit_on']}+{bonus}",
        f"weapon {rep['weapon']['name']} (DI {rep['weapon']['damage_index']}), {rep['missions']} "
        f"mission{'s' if rep['missions'] != 1 else ''} per trial, {rep['trials']:,} trials, seed {rep['seed']}",
    ]
    out += [f"note: {n}" for n in rep.get("notes", [])]
    out += ["", "Landing hex of one strike (R9.3): exact beside Monte Carlo"]
    rows = [
        [
            e["hex"] + (" (target)" if e["distance"] == 0 else ""),
            e["distance"],
            e["exact_fraction"],
            _p(e["exact"]),
            _p(e["estimate"]),
            _ci(e["ci95"]),
        ]
        for e in rep["landing"]
    ]
    o = rep["off_map"]
    rows.append(["off map", "", o["exact_fraction"], _p(o["exact"]), _p(o["estimate"]), _ci(o["ci95"])])
    out.append(format_table(["hex", "drift", "exact", "= p", "estimate", "95% interval"], rows))
    out.append(f"largest |estimate - exact| / standard error over the landing hexes: {rep['max_abs_z']}")
    if rep["units"]:
        out += [
            "",
            f"Expected attacks per unit over {rep['missions']} mission(s) (R9.4: one attack per strike landing in its hex)",
        ]
        rows = [
            [
                u["unit"],
                u["name"],
                u["side"],
                u["hex"],
                u["type"] + ("" if u["affected"] else " (not affected)"),
                _p(u["expected_attacks"]["exact"]),
                _p(u["expected_attacks"]["estimate"]),
                _ci(u["expected_attacks"]["ci95"]),
            ]
            for u in rep["units"]
        ]
        out.append(
            format_table(
                ["unit", "name", "side", "hex", "type", "exact", "estimate", "95% interval"], rows, "lllllrrr"
            )
        )
    if rep["buildings"]:
        out += [
            "",
            "Buildings a strike can reach: expected attacks, P(rubble) and P(fire) after the last mission (R8.2-R8.4)",
        ]
        rows = [
            [
                b["hex"],
                b["building"],
                b["dr"],
                _p(b["expected_attacks"]["exact"]),
                _p(b["expected_attacks"]["estimate"]),
                _p(b["p_rubble"]["exact"]),
                _p(b["p_rubble"]["estimate"]),
                _ci(b["p_rubble"]["ci95"]),
                _p(b["p_fire"]["exact"]),
                _p(b["p_fire"]["estimate"]),
                _ci(b["p_fire"]["ci95"]),
            ]
            for b in rep["buildings"]
        ]
        out.append(
            format_table(
                [
                    "hex",
                    "building",
                    "DR",
                    "attacks",
                    "est.",
                    "P(rubble)",
                    "est.",
                    "95% interval",
                    "P(fire)",
                    "est.",
                    "95% interval",
                ],
                rows,
                "llrrrrrrrrr",
            )
        )
    else:
        out += ["", "No building stands where a strike can land."]
    return "\n".join(out)


def artillery_csv(rep: dict[str, Any]) -> str:
    """One CSV row per hex a strike can land in (and ``off-map``): landing probabilities, expected
    attacks, the units there, and the building outcomes."""
    bld = {b["hex"]: b for b in rep["buildings"]}
    units: dict[str, list[str]] = {}
    for u in rep["units"]:
        units.setdefault(u["hex"], []).append(u["unit"])
    heads = [
        "hex",
        "distance",
        "p_landing_exact",
        "p_landing",
        "p_landing_lo",
        "p_landing_hi",
        "expected_attacks_exact",
        "expected_attacks",
        "units",
        "building",
        "dr",
        "p_rubble_exact",
        "p_rubble",
        "p_rubble_lo",
        "p_rubble_hi",
        "p_fire_exact",
        "p_fire",
        "p_fire_lo",
        "p_fire_hi",
    ]
    rows = []
    m = rep["missions"]
    for e in rep["landing"]:
        b = bld.get(e["hex"])
        row = [
            e["hex"],
            e["distance"],
            e["exact"],
            e["estimate"],
            *e["ci95"],
            _r(m * e["exact"]),
            _r(e["count"] / max(rep["trials"], 1)),
            " ".join(units.get(e["hex"], [])),
        ]
        if b:
            row += [
                b["building"],
                b["dr"],
                b["p_rubble"]["exact"],
                b["p_rubble"]["estimate"],
                *b["p_rubble"]["ci95"],
                b["p_fire"]["exact"],
                b["p_fire"]["estimate"],
                *b["p_fire"]["ci95"],
            ]
        else:
            row += [""] * 10
        rows.append(row)
    o = rep["off_map"]
    rows.append(["off-map", "", o["exact"], o["estimate"], *o["ci95"], "", "", ""] + [""] * 10)
    return rows_csv(heads, rows)


# -- fire ------------------------------------------------------------------------------------
