"""Reports of a what-if run (:mod:`hexwar.sim.scenario`): JSON-ready dict, text tables, CSV.

Every Monte Carlo probability comes with its 95% Wilson interval; exact turn-1 values (one
strike) stand beside them where they were computed, with the distance in standard errors.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from .report import format_table, rows_csv, wilson
from .scenario import ScenarioSimResult

__all__ = ["CHECK_Z", "exact_check", "scenario_report", "scenario_text", "scenario_csv"]

_UNIT_KEYS = ("attacked", "hit", "damage_card", "destroyed")
TOP = 12  #: units and buildings shown in the text report (all of them in JSON and CSV)


def _est(k: int, n: int, exact: Any = None) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    d: dict[str, Any] = {
        "estimate": round(k / n, 6) if n else 0.0,
        "count": int(k),
        "ci95": [round(float(lo), 6), round(float(hi), 6)],
    }
    if exact is not None and n:
        p = float(exact)
        d["exact"] = round(p, 6)
        z = _z(k, n, p)
        d["z"] = None if math.isinf(z) else z
        if math.isinf(z):
            d["impossible"] = True  # p is 0 or 1 and some trial went the other way
    return d


def _z(k: int, n: int, p: float) -> float:
    """(k/n - p) / sqrt(p (1 - p) / n): the Monte Carlo's distance from the exact ``p`` in
    standard errors of ``n`` trials; +-inf when ``p`` is 0 or 1 and a trial went the other way
    (an outcome the exact values call impossible), 0 when none did."""
    est = k / n
    var = p * (1 - p)
    if var <= 1e-15:
        return 0.0 if abs(est - p) <= 1e-12 else math.copysign(math.inf, est - p)
    return round((est - p) / math.sqrt(var / n), 2)


CHECK_Z = 5.0  #: ``hexwar sim scenario`` fails when a figure is further than this from its exact value


def _binomial_tail(k: int, n: int, p: float, upper: bool) -> float:
    """P(X >= k) (``upper``) or P(X <= k) for X ~ Binomial(n, p): how surprising a count is."""
    from scipy.stats import binom

    return float(binom.sf(k - 1, n, p)) if upper else float(binom.cdf(k, n, p))


def exact_check(rep: dict[str, Any], threshold: float = CHECK_Z) -> list[str]:
    """The figures of a :func:`scenario_report` whose Monte Carlo estimate is more than
    ``threshold`` standard errors from its exact value, worst first, as sentences naming the
    unit or building, the measure and turn, both values and the distance. Empty when all agree
    (or nothing was computed exactly).

    A figure also has to be as unlikely as that by the binomial distribution of its count
    (its one-sided tail below the normal tail beyond ``threshold``): an outcome of p = 0.0023
    seen 3 times in 100 trials is 5.8 standard errors out but happens in about 1 run of 600,
    so small counts do not fail the check by the normal approximation alone. An outcome the
    exact values call impossible always fails.

    Args:
        rep: a :func:`scenario_report` dict (with ``trials``); threshold: standard errors (> 0).
    """
    from scipy.stats import norm

    alpha = float(norm.sf(threshold))
    n = int(rep.get("trials", 0))
    figures: list[tuple[str, str, int, dict[str, Any]]] = []
    for u in rep["units"]:
        label = f"{u['name']} ({u['unit']}) in {u['hex']}"
        figures += [
            (label, k, row["turn"], v) for row in u["by_turn"] for k, v in row.items() if isinstance(v, dict)
        ]
        figures += [(label, f"crew {f}", rep["turns"], v) for f, v in u.get("crew_fate", {}).items()]
    for b in rep["buildings"]:
        label = f"the building in {b['hex']}"
        figures += [
            (label, k, row["turn"], v) for row in b["by_turn"] for k, v in row.items() if isinstance(v, dict)
        ]
    bad: list[tuple[float, str]] = []
    for label, key, turn, v in figures:
        if "exact" not in v:
            continue
        z = math.inf if v.get("impossible") else abs(v["z"])
        if z > threshold and not math.isinf(z) and n and "count" in v:
            tail = _binomial_tail(int(v["count"]), n, float(v["exact"]), v["estimate"] > v["exact"])
            if tail >= alpha:
                continue  # a small count: not that unlikely after all
        if z > threshold:
            dist = (
                "an outcome the exact values call impossible" if math.isinf(z) else f"{z:.1f} standard errors"
            )
            bad.append(
                (
                    z,
                    f"{label}: {key} by turn {turn} is {v['estimate']:.4f} by Monte Carlo, "
                    f"exact {v['exact']:.4f} ({dist})",
                )
            )
    return [t for _, t in sorted(bad, key=lambda x: -x[0])]


def scenario_report(r: ScenarioSimResult, title: str = "", notes: list[str] | None = None) -> dict[str, Any]:
    """The run as a JSON-ready dict: plan, missions fired, units, buildings, areas by turn.

    Units and buildings that nothing ever touched (no attack, no hit, no change) are left out
    of ``units``/``buildings``; ``untouched_units`` counts them.
    """
    n, T = r.trials, r.turns
    missions = []
    for i, m in enumerate(r.plan.missions):
        missions.append(
            {
                "side": m.side,
                "hex": m.hex.label,
                "turn": m.turn,
                "fired": _est(r.fired[i], n),
                "refused": dict(r.refused[i].most_common()),
            }
        )
    units = []
    untouched = 0
    for j, u in enumerate(r.units):
        if not any(getattr(r, k)[:, j].any() for k in _UNIT_KEYS) and u.uid not in r.exact:
            untouched += 1
            continue
        ex = r.exact.get(u.uid, {})
        by_turn = []
        for t in range(T):
            row: dict[str, Any] = {"turn": t + 1}
            for k in _UNIT_KEYS:
                row[k] = _est(int(getattr(r, k)[t, j]), n, ex.get(k) if t == 0 and ex else None)
            by_turn.append(row)
        entry: dict[str, Any] = {
            "unit": u.uid,
            "name": u.name,
            "side": u.side,
            "hex": u.hex.label,
            "type": u.unit_type,
            "by_turn": by_turn,
        }
        if u.crew:
            cf: Counter[str] = r.crew_fate.get(u.uid, Counter())
            entry["crew"] = u.crew
            entry["crew_fate"] = {
                f: _est(int(cf.get(f, 0)), n, ex.get(f"crew_{f}") if ex and T == 1 else None)
                for f in ("survives", "captured", "destroyed")
            }
        units.append(entry)
    buildings = []
    sb = r.start_burning if len(r.start_burning) == len(r.buildings) else np.zeros(len(r.buildings), bool)
    sr = r.start_rubble if len(r.start_rubble) == len(r.buildings) else np.zeros(len(r.buildings), bool)
    for j, h in enumerate(r.buildings):
        changed = (r.rubble[:, j] != n * sr[j]).any() or (r.burning[:, j] != n * sb[j]).any()
        if not changed and h.label not in r.exact and h not in r.targets:
            continue
        ex = r.exact.get(h.label, {})
        buildings.append(
            {
                "hex": h.label,
                "target": h in r.targets,
                "by_turn": [
                    {
                        "turn": t + 1,
                        "rubble": _est(int(r.rubble[t, j]), n, ex.get("rubble") if t == 0 and ex else None),
                        "burning": _est(
                            int(r.burning[t, j]), n, ex.get("burning") if t == 0 and ex else None
                        ),
                    }
                    for t in range(T)
                ],
            }
        )
    areas = []
    for a, (name, idx) in enumerate(r.areas.items()):
        lanes = len(r.lanes.get(name, []))
        areas.append(
            {
                "area": name,
                "buildings": len(idx),
                "lanes_open_at_start": lanes,
                "by_turn": [
                    {
                        "turn": t + 1,
                        "expected_burning_or_rubble": round(float(r.area_burned[t, a]) / n, 6),
                        "all_burned": _est(int(r.area_all[t, a]), n) if idx else None,
                        "expected_lanes_closed": round(float(r.lanes_closed[t, a]) / n, 6),
                    }
                    for t in range(T)
                ],
            }
        )
    rows_all: list[dict[str, Any]] = [row for x in units + buildings for row in x["by_turn"]]
    figs = [v for row in rows_all for v in row.values() if isinstance(v, dict) and "z" in v]
    zs = [abs(v["z"]) for v in figs if v["z"] is not None]
    impossible = sum(1 for v in figs if v.get("impossible"))
    return {
        "scenario": r.scenario,
        "title": title or r.scenario,
        "plan": r.plan.describe(),
        "turns": T,
        "trials": n,
        "seed": r.seed,
        "variants": list(r.variants),
        "notes": list(notes or []),
        "missions": missions,
        "exact_computed": bool(r.exact),
        "max_abs_z": round(max(zs), 2) if zs else None,
        "impossible_outcomes": impossible,
        "games_over_by_turn": [int(x) for x in r.ended],
        "units": units,
        "untouched_units": untouched,
        "buildings": buildings,
        "areas": areas,
    }


def _p(d: dict[str, Any] | None) -> str:
    if d is None:
        return "-"
    s = f"{d['estimate']:.3f}"
    if "exact" in d:
        s += f" (exact {d['exact']:.3f})"
    return s


def scenario_text(rep: dict[str, Any]) -> str:
    """The report as text: missions, units, crews, buildings, areas (one row per turn)."""
    vs = ", ".join(rep["variants"]) or "standard"
    out = [
        f"What-if: {rep['title']}: {rep['plan']}",
        f"{rep['turns']} turn(s), {rep['trials']:,} trials, seed {rep['seed']}, rules {vs}",
    ]
    out += [f"note: {x}" for x in rep["notes"]]
    if rep["missions"]:
        out += ["", "Missions (the game refuses a mission it would refuse in play, R9.1-R9.2):"]
        for m in rep["missions"]:
            why = "; ".join(f"{k} ({v})" for k, v in m["refused"].items())
            out.append(
                f"  {m['side']} on {m['hex']} in turn {m['turn']}: fired in {m['fired']['estimate']:.1%}"
                + (f"; refused: {why}" if why else "")
            )
    out += _unit_lines(rep)
    more = len(rep["units"]) - min(len(rep["units"]), TOP)
    if rep["untouched_units"] or more:
        out.append(
            f"({rep['untouched_units']} other units were never attacked or hit"
            + (f"; {more} more in --json and --csv" if more else "")
            + ")"
        )
    out += _building_lines(rep)
    out += _area_lines(rep)
    if rep["max_abs_z"] is not None:
        out += ["", f"largest |Monte Carlo - exact| / standard error: {rep['max_abs_z']}"]
    if rep.get("impossible_outcomes"):
        out.append(
            f"figures where an outcome the exact values call impossible happened: {rep['impossible_outcomes']}"
        )
    if any(rep["games_over_by_turn"]):
        out.append(f"games over (victory) by each turn: {rep['games_over_by_turn']}")
    return "\n".join(out)


def _unit_lines(rep: dict[str, Any]) -> list[str]:
    """The units' table of :func:`scenario_text` (the most attacked first) and the crews' fate (R6.6)."""
    if not rep["units"]:
        return []
    out: list[str] = []
    out += ["", "Units: P(by the end of the turn), Monte Carlo (exact for one strike where computed)"]
    rows = []
    shown = sorted(
        rep["units"],
        key=lambda u: (
            -u["by_turn"][-1]["attacked"]["estimate"],
            -u["by_turn"][-1]["hit"]["estimate"],
            u["unit"],
        ),
    )[:TOP]
    for u in shown:
        for row in u["by_turn"]:
            rows.append(
                [
                    u["name"] if row["turn"] == 1 else "",
                    u["side"] if row["turn"] == 1 else "",
                    u["hex"] if row["turn"] == 1 else "",
                    row["turn"],
                ]
                + [_p(row[k]) for k in _UNIT_KEYS]
            )
    out.append(
        format_table(
            ["unit", "side", "hex", "turn", "attacked", "hit", "Damage card", "destroyed"],
            rows,
            "lllrrrrr",
        )
    )
    crews = [u for u in rep["units"] if "crew_fate" in u]
    if crews:
        out += ["", f"Crew fate by the end of turn {rep['turns']} (R6.6):"]
        out.append(
            format_table(
                ["unit", "crew survives", "captured", "destroyed"],
                [
                    [u["name"]] + [_p(u["crew_fate"][f]) for f in ("survives", "captured", "destroyed")]
                    for u in crews
                ],
                "lrrr",
            )
        )
    return out


def _building_lines(rep: dict[str, Any]) -> list[str]:
    """The buildings' table of :func:`scenario_text`: P(rubble), P(burning) by turn (R8.3, R8.4)."""
    if not rep["buildings"]:
        return []
    out: list[str] = []
    out += [
        "",
        "Buildings that change: P(rubble), P(burning) at the end of the turn (R8.3, R8.4); targets first",
    ]
    rows = []
    shown_b = sorted(
        rep["buildings"],
        key=lambda b: (
            not b["target"],
            -(b["by_turn"][-1]["rubble"]["estimate"] + b["by_turn"][-1]["burning"]["estimate"]),
            b["hex"],
        ),
    )[:TOP]
    for b in shown_b:
        for row in b["by_turn"]:
            either = row["rubble"]["estimate"] + row["burning"]["estimate"]  # one state or the other
            rows.append(
                [
                    b["hex"] if row["turn"] == 1 else "",
                    row["turn"],
                    _p(row["rubble"]),
                    _p(row["burning"]),
                    f"{either:.3f}",
                ]
            )
    out.append(format_table(["hex", "turn", "rubble", "burning", "either"], rows, "lrrrr"))
    if len(rep["buildings"]) > TOP:
        out.append(
            f"(the {TOP} buildings most likely to change; {len(rep['buildings']) - TOP} more in --json and --csv)"
        )
    return out


def _area_lines(rep: dict[str, Any]) -> list[str]:
    """The areas' table of :func:`scenario_text`: buildings burning or rubble, P(all), LOS lanes closed."""
    if not rep["areas"]:
        return []
    out: list[str] = []
    out += [
        "",
        "Areas: expected buildings burning or rubble, P(all of them), LOS lanes between the deploy "
        "zones through the area closed",
    ]
    rows = []
    for a in rep["areas"]:
        for row in a["by_turn"]:
            rows.append(
                [
                    a["area"] if row["turn"] == 1 else "",
                    a["buildings"] if row["turn"] == 1 else "",
                    row["turn"],
                    f"{row['expected_burning_or_rubble']:.2f}",
                    _p(row["all_burned"]),
                    f"{row['expected_lanes_closed']:.2f} of {a['lanes_open_at_start']}",
                ]
            )
    out.append(
        format_table(
            ["area", "buildings", "turn", "E[burning/rubble]", "P(all)", "lanes closed"], rows, "lrrrrr"
        )
    )
    return out


def scenario_csv(rep: dict[str, Any]) -> str:
    """One CSV row per (what, id, turn, measure): estimate, 95% interval, exact (if any)."""
    rows: list[list[Any]] = []

    def add(kind: str, ident: str, turn: int, measure: str, d: dict[str, Any] | None) -> None:
        if d is not None:
            rows.append(
                [kind, ident, turn, measure, d["estimate"], d["ci95"][0], d["ci95"][1], d.get("exact", "")]
            )

    for u in rep["units"]:
        for row in u["by_turn"]:
            for k in _UNIT_KEYS:
                add("unit", u["unit"], row["turn"], k, row[k])
        for f, d in u.get("crew_fate", {}).items():
            add("crew", u["unit"], rep["turns"], f, d)
    for b in rep["buildings"]:
        for row in b["by_turn"]:
            add("building", b["hex"], row["turn"], "rubble", row["rubble"])
            add("building", b["hex"], row["turn"], "burning", row["burning"])
    for a in rep["areas"]:
        for row in a["by_turn"]:
            add("area", a["area"], row["turn"], "all_burned", row["all_burned"])
            rows.append(
                [
                    "area",
                    a["area"],
                    row["turn"],
                    "expected_burning_or_rubble",
                    row["expected_burning_or_rubble"],
                    "",
                    "",
                    "",
                ]
            )
            rows.append(
                [
                    "area",
                    a["area"],
                    row["turn"],
                    "expected_lanes_closed",
                    row["expected_lanes_closed"],
                    "",
                    "",
                    "",
                ]
            )
    return rows_csv(["what", "id", "turn", "measure", "estimate", "ci95_low", "ci95_high", "exact"], rows)


def landing_strip(r: ScenarioSimResult) -> np.ndarray:
    """``float [turns, height, width]``: expected strikes landing in each hex during each turn."""
    return r.landings.astype(np.float64) / max(r.trials, 1)
