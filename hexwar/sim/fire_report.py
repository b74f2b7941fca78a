"""The fire simulation's report (``hexwar sim fire``): the JSON-ready dict of a
:class:`~hexwar.sim.fire.FireResult` with exact values beside the Monte Carlo, its text tables
and its CSV rows, which always agree (R8.4-R8.6, R3.5; issue 34: cut from
:mod:`hexwar.sim.report`, which still offers these names).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from .exact import ExactFire
from .fire import FireResult
from .tables import Z95, _ci, _r, format_table, mean_interval, rows_csv, wilson

__all__ = ["fire_csv", "fire_report", "fire_text"]


def fire_report(
    result: FireResult,
    battlemap: BattleMap,
    *,
    exact: ExactFire | None = None,
    title: str = "",
    notes: Sequence[str] = (),
    top: int = 25,
) -> dict[str, Any]:
    """The JSON-ready report of a fire run: per-hex P(burning) and P(burned by) each turn (exact
    beside Monte Carlo for small clusters), burning buildings per turn with intervals, and the
    lines of sight cut by fire (R8.4-R8.6, R3.5).

    Args:
        top: how many lines / hexes of the LOS section the text shows (JSON: every hex, and
            the ``top`` x 8 most likely lines).
    """
    r = result
    n = r.trials
    T = r.turns
    mean = r.burning_buildings_mean()
    sd = r.burning_buildings_sd()
    lo, hi = mean_interval(mean, sd, n)
    q05 = r.burning_buildings_quantile(0.05)
    q95 = r.burning_buildings_quantile(0.95)
    ex_mean = exact.expected_burning() if exact is not None else None
    per_turn = []
    for t in range(T + 1):
        per_turn.append(
            {
                "turn": t,
                "mean": _r(mean[t], 4),
                "ci95": [_r(max(lo[t], 0.0), 4), _r(hi[t], 4)],
                "sd": _r(sd[t], 4),
                "q05": int(q05[t]),
                "q95": int(q95[t]),
                "spread_checks_per_trial": _r(r.spread_checks[t] / max(n, 1), 4),
                "exact_mean": None if ex_mean is None else _r(ex_mean[t], 6),
            }
        )
    ex_idx = {h: k for k, h in enumerate(exact.hexes)} if exact is not None else {}
    pb, pe, pr = r.p_burning(), r.p_burned_by(), r.rubble_counts / max(n, 1)
    hexes = []
    rows_, cols_ = np.nonzero(r.ever_counts[T])
    order = sorted(
        zip(rows_.tolist(), cols_.tolist(), strict=True), key=lambda rc: (-r.ever_counts[T][rc], rc[1], rc[0])
    )
    for row, col in order:
        h = Hex.from_offset(col, row)
        lo_t, hi_t = wilson(r.ever_counts[T][row, col], n)
        entry: dict[str, Any] = {
            "hex": h.label,
            "building": battlemap.terrain_at(h).name,
            "dr": int(r.dr[row, col]),
            "ignited": h in r.ignite,
            "p_burning": [_r(pb[t, row, col]) for t in range(T + 1)],
            "p_burned_by": [_r(pe[t, row, col]) for t in range(T + 1)],
            "p_burned_by_final_ci95": [_r(lo_t), _r(hi_t)],
        }
        if r.burnout_turns is not None:
            entry["p_rubble"] = [_r(pr[t, row, col]) for t in range(T + 1)]
        k = ex_idx.get(h)
        if exact is not None and k is not None:
            entry["exact_burning"] = [_r(exact.burning[t, k]) for t in range(T + 1)]
            entry["exact_burned_by"] = [_r(exact.burned_by[t, k]) for t in range(T + 1)]
        hexes.append(entry)
    rep: dict[str, Any] = {
        "command": "fire",
        "title": title or battlemap.name,
        "map": battlemap.name,
        "width": r.width,
        "height": r.height,
        "ignite": [h.label for h in r.ignite],
        "turns": T,
        "trials": n,
        "seed": r.seed,
        "variant": "burnout" if r.burnout_turns is not None else "standard",
        "burnout_turns": r.burnout_turns,
        "exact": exact is not None,
        "burning_buildings": per_turn,
        "hexes": hexes,
        "notes": list(notes),
    }
    if r.los is not None:
        rep["los"] = _los_report(r, top)
    if r.area_names:
        rep["areas"] = _fire_areas(r, exact)
    return rep


def _fire_areas(r: FireResult, exact: ExactFire | None) -> list[dict[str, Any]]:
    """Per named area and turn: expected buildings burning and burned by then (mean with its
    95% interval), P(all of them burned by then) with its Wilson interval, and the exact values
    when the dynamic program ran (areas as :func:`~hexwar.sim.fire.simulate_fire` scored them)."""
    n = max(r.trials, 1)
    out = []
    ex_names = list(exact.area_names) if exact is not None else []
    for a, name in enumerate(r.area_names):
        k = ex_names.index(name) if name in ex_names else None
        by_turn = []
        for t in range(r.turns + 1):
            mean = r.area_burned[t, a] / n
            var = max(r.area_burned_sq[t, a] / n - mean * mean, 0.0) * n / max(n - 1, 1)
            half = Z95 * math.sqrt(var / n)
            lo, hi = wilson(r.area_all[t, a], n)
            row: dict[str, Any] = {
                "turn": t,
                "expected_burning": _r(r.area_burning[t, a] / n, 4),
                "expected_burned": _r(mean, 4),
                "expected_burned_ci95": [_r(max(mean - half, 0.0), 4), _r(mean + half, 4)],
                "p_all_burned": _r(r.area_all[t, a] / n),
                "p_all_burned_ci95": [_r(lo), _r(hi)],
            }
            if exact is not None and k is not None:
                row["exact_expected_burned"] = _r(exact.area_burned[t, k])
                row["exact_p_all_burned"] = _r(exact.area_all[t, k])
            by_turn.append(row)
        out.append({"area": name, "buildings": int(r.area_buildings[a]), "by_turn": by_turn})
    return out


def _los_report(r: FireResult, top: int) -> dict[str, Any]:
    los = r.los
    n, T = r.trials, r.turns
    mean = los.mean_cut_lines()
    sd = los.sd_cut_lines()
    lo, hi = mean_interval(mean, sd, n)
    per_turn = [
        {"turn": t, "mean": _r(mean[t], 4), "ci95": [_r(max(lo[t], 0.0), 4), _r(hi[t], 4)]}
        for t in range(T + 1)
    ]

    def per_hex(counts: np.ndarray) -> list[dict[str, Any]]:
        rows_, cols_ = np.nonzero(counts.max(axis=0))
        items: list[tuple[tuple[int, int], dict[str, Any]]] = []
        for row, col in zip(rows_.tolist(), cols_.tolist(), strict=True):
            items.append(
                (
                    (col, row),
                    {
                        "hex": Hex.from_offset(col, row).label,
                        "p": [_r(counts[t, row, col] / max(n, 1)) for t in range(T + 1)],
                    },
                )
            )
        items.sort(key=lambda e: (-e[1]["p"][-1], -max(e[1]["p"]), e[0]))
        return [e for _, e in items]

    lines = []
    order = np.argsort(-los.line_counts[T], kind="stable")[: top * 8]
    for i in order:
        if los.line_counts[T][i] == 0:
            break
        a, b = los.line_hexes(int(i))
        lines.append({"from": a.label, "to": b.label, "p_final": _r(los.line_counts[T][i] / max(n, 1))})
    return {
        "viewpoints": "every hex" if los.viewpoints is None else [h.label for h in los.viewpoints],
        "definition": "a line is a pair of viewpoints whose LOS is not blocked on the map as loaded; it is cut "
        "when fire blocks it (a burning intervening hex, or a hexside pair whose two sides block)",
        "lines_at_risk": int(los.lines.shape[0]),
        "cut_lines": per_turn,
        "hexes_cut": per_hex(los.lost_counts),
        "cutting_fires": per_hex(los.cutter_counts),
        "lines": lines,
    }


def _turn_columns(T: int, limit: int = 10) -> list[int]:
    if T <= limit:
        return list(range(1, T + 1))
    step = math.ceil(T / limit)
    cols = list(range(step, T + 1, step))
    if cols[-1] != T:
        cols.append(T)
    return cols


def fire_text(rep: dict[str, Any], top: int = 25) -> str:
    """The fire report as text tables."""
    T = rep["turns"]
    var = "variant burnout" if rep["variant"] == "burnout" else "fires burn for the rest of the game"
    out = [
        f"Fire: {rep['title']} ({rep['width']} x {rep['height']}), ignite {', '.join(rep['ignite']) or '(map fires)'} "
        f"at turn 0, {T} turn{'s' if T != 1 else ''}, {rep['trials']:,} trials, seed {rep['seed']}, {var}",
    ]
    out += [f"note: {x}" for x in rep.get("notes", [])]
    out += [
        "",
        "Burning buildings per turn: mean with its 95% interval; 5%..95% of trials"
        + ("; exact mean (dynamic programming)" if rep["exact"] else ""),
    ]
    heads = ["turn", "mean", "95% interval", "5%..95%", "spread checks"] + (["exact"] if rep["exact"] else [])
    rows = []
    for e in rep["burning_buildings"]:
        row = [
            e["turn"],
            f"{e['mean']:.3f}",
            f"{e['ci95'][0]:.3f}-{e['ci95'][1]:.3f}",
            f"{e['q05']}..{e['q95']}",
            f"{e['spread_checks_per_trial']:.3f}",
        ]
        if rep["exact"]:
            row.append(f"{e['exact_mean']:.3f}")
        rows.append(row)
    out.append(format_table(heads, rows))
    cols = _turn_columns(T)
    shown = rep["hexes"][: max(top, 1) * 2]
    out += [
        "",
        f"P(burned by turn t) per building hex ({len(rep['hexes'])} can burn; "
        f"{'showing ' + str(len(shown)) if len(shown) < len(rep['hexes']) else 'all shown'}; * = ignited)",
    ]
    heads = ["hex", "building", "DR"] + [f"t{t}" for t in cols]
    if rep["exact"]:
        heads.append(f"exact t{T}")
    heads.append(f"95% interval t{T}")
    rows = []
    for e in shown:
        row = [e["hex"] + ("*" if e["ignited"] else ""), e["building"], e["dr"]] + [
            f"{e['p_burned_by'][t]:.3f}" for t in cols
        ]
        if rep["exact"]:
            ex = e.get("exact_burned_by")
            row.append(f"{ex[T]:.3f}" if ex else "")
        row.append(_ci(e["p_burned_by_final_ci95"]))
        rows.append(row)
    out.append(format_table(heads, rows, "llr" + "r" * (len(heads) - 3)))
    if rep["variant"] == "burnout":
        out.append(
            "(with burnout a hex may have burned by turn t and be rubble now: see p_burning and p_rubble in --json/--csv)"
        )
    out += _fire_area_lines(rep, T, cols)
    out += _fire_los_lines(rep.get("los"), T, top)
    return "\n".join(out)


def _fire_area_lines(rep: dict[str, Any], T: int, cols: list[int]) -> list[str]:
    """The named areas' table of :func:`fire_text` (buildings burned by turn t and P(all)); none
    without areas."""
    if not rep.get("areas"):
        return []
    out: list[str] = []
    exact = any("exact_p_all_burned" in row for a in rep["areas"] for row in a["by_turn"])
    out += [
        "",
        "Named areas: buildings burned by turn t (mean) and P(all of them burned by turn t)"
        + ("; exact beside" if exact else ""),
    ]
    heads = ["area", "buildings", "turn", "burning", "burned", "P(all burned)", "95% interval"] + (
        ["exact burned", "exact P(all)"] if exact else []
    )
    rows = []
    for a in rep["areas"]:
        for row in a["by_turn"]:
            if row["turn"] == 0 or (T > 10 and row["turn"] not in cols):
                continue
            cells = [
                a["area"] if row["turn"] == cols[0] else "",
                a["buildings"] if row["turn"] == cols[0] else "",
                row["turn"],
                f"{row['expected_burning']:.2f}",
                f"{row['expected_burned']:.2f}",
                f"{row['p_all_burned']:.3f}",
                _ci(row["p_all_burned_ci95"]),
            ]
            if exact:
                cells += [
                    f"{row['exact_expected_burned']:.2f}" if "exact_expected_burned" in row else "",
                    f"{row['exact_p_all_burned']:.3f}" if "exact_p_all_burned" in row else "",
                ]
            rows.append(cells)
    out.append(format_table(heads, rows, "lr" + "r" * (len(heads) - 2)))
    return out


def _fire_los_lines(los: dict[str, Any] | None, T: int, top: int) -> list[str]:
    """The lines-of-sight-cut-by-fire tables of :func:`fire_text` (R3.5); none without a plan."""
    if los is None:
        return []
    out: list[str] = []
    vp = los["viewpoints"]
    vp_text = "every hex of the map" if vp == "every hex" else f"{len(vp)} unit and objective hexes"
    out += [
        "",
        f"Lines of sight cut by fire (viewpoints: {vp_text}; {los['lines_at_risk']} lines fire could cut)",
        "A line is a pair of viewpoints with LOS on the map as loaded; it is cut when fire blocks it.",
    ]
    rows = [
        [e["turn"], f"{e['mean']:.2f}", f"{e['ci95'][0]:.2f}-{e['ci95'][1]:.2f}"] for e in los["cut_lines"]
    ]
    out.append(format_table(["turn", "cut lines", "95% interval"], rows))
    if los["hexes_cut"]:
        out += [
            "",
            f"Hexes whose LOS is cut by fire at turn {T} (P that at least one of their lines is cut; top {top})",
        ]
        out.append(
            format_table(
                ["hex", f"P t{T}", "max over turns"],
                [[e["hex"], f"{e['p'][-1]:.3f}", f"{max(e['p']):.3f}"] for e in los["hexes_cut"][:top]],
            )
        )
        out += ["", f"Fires that cut LOS at turn {T} (P the hex burns and blocks a line; top {top})"]
        out.append(
            format_table(
                ["hex", f"P t{T}", "max over turns"],
                [[e["hex"], f"{e['p'][-1]:.3f}", f"{max(e['p']):.3f}"] for e in los["cutting_fires"][:top]],
            )
        )
    else:
        out.append("No line of sight between viewpoints can be cut by these fires.")
    return out


def fire_csv(rep: dict[str, Any]) -> str:
    """Long CSV: one row per (hex, turn) for every hex that burns or whose LOS is cut in some trial."""
    T = rep["turns"]
    los = rep.get("los") or {}
    lost = {e["hex"]: e["p"] for e in los.get("hexes_cut", [])}
    cut = {e["hex"]: e["p"] for e in los.get("cutting_fires", [])}
    heads = [
        "hex",
        "turn",
        "building",
        "dr",
        "p_burning",
        "p_burned_by",
        "p_rubble",
        "exact_burning",
        "exact_burned_by",
        "p_los_cut",
        "p_cuts_los",
    ]
    rows = []
    seen = set()
    for e in rep["hexes"]:
        seen.add(e["hex"])
        for t in range(T + 1):
            rows.append(
                [
                    e["hex"],
                    t,
                    e["building"],
                    e["dr"],
                    e["p_burning"][t],
                    e["p_burned_by"][t],
                    e["p_rubble"][t] if "p_rubble" in e else "",
                    e["exact_burning"][t] if "exact_burning" in e else "",
                    e["exact_burned_by"][t] if "exact_burned_by" in e else "",
                    lost[e["hex"]][t] if e["hex"] in lost else 0.0,
                    cut[e["hex"]][t] if e["hex"] in cut else 0.0,
                ]
            )
    for h, ps in lost.items():
        if h in seen:
            continue
        for t in range(T + 1):
            rows.append([h, t, "", "", 0.0, 0.0, "", "", "", ps[t], 0.0])
    if rep.get("areas"):  # one row per (named area, turn), in the area columns
        heads += [
            "area",
            "area_buildings",
            "expected_burning",
            "expected_burned",
            "p_all_burned",
            "exact_expected_burned",
            "exact_p_all_burned",
        ]
        rows = [row + [""] * 7 for row in rows]
        for a in rep["areas"]:
            for e in a["by_turn"]:
                rows.append(
                    ["", e["turn"]]
                    + [""] * 9
                    + [
                        a["area"],
                        a["buildings"],
                        e["expected_burning"],
                        e["expected_burned"],
                        e["p_all_burned"],
                        e.get("exact_expected_burned", ""),
                        e.get("exact_p_all_burned", ""),
                    ]
                )
    return rows_csv(heads, rows)
