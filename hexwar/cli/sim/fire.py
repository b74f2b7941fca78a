"""``hexwar sim fire``: which buildings a fire takes turn by turn, and the lines of sight it
cuts (R8.4-R8.6, R3.5)."""

from __future__ import annotations

from typing import Any

import click
import numpy as np

from ...outputs import record_output
from .. import echo_json
from .common import (
    VARIANT,
    _say,
    _write_csv,
    check_output_paths,
    load_source,
    parse_hex,
    parse_int,
    progress_bar,
    report_options,
    resolve_areas,
)
from .heatmap import render_heatmap_strip

__all__ = ["FIRE_PANELS", "fire", "fire_heatmap_frames"]


@click.command("fire")
@click.argument("source", metavar="MAP_OR_SCENARIO")
@click.option(
    "--ignite",
    "ignite",
    multiple=True,
    required=True,
    help="A building hex set alight at turn 0 (repeat for more).",
)
@click.option("--turns", "turns", required=True, help="Begin Turn steps to play (R5.1a).")
@click.option("--trials", "trials", default="10000", show_default=True, help="Number of trials.")
@click.option("--seed", "seed", default="0", show_default=True, help="Seed (same seed, same output).")
@click.option(
    "--variant",
    "variant",
    default=None,
    type=VARIANT,
    help="Rule variant: burnout (R8.6) [default: the scenario's].",
)
@click.option(
    "--area",
    "area_specs",
    multiple=True,
    metavar="NAME[=HEXES]",
    help="Score a named area: one of the scenario's (default: all of them and its objectives) or "
    "NAME=HEXES, e.g. village=E04..G06,H05 (repeat for more).",
)
@report_options(
    "Write one CSV row per hex and turn.",
    "Draw P(burned by the last turn) on the map to this PNG (headless).",
)
def fire(
    source: str,
    ignite: tuple[str, ...],
    turns: str,
    trials: str,
    seed: str,
    variant: str | None,
    as_json: bool,
    csv_path: str | None,
    png_path: str | None,
    area_specs: tuple[str, ...] = (),
    force: bool = False,
) -> None:
    """Which buildings a fire takes turn by turn, and the lines of sight it cuts (R8.4-R8.6, R3.5)."""
    check_output_paths(csv_path, png_path, force)
    from ...sim.exact import ExactTooLarge, exact_fire_on_map
    from ...sim.fire import reachable_buildings, simulate_fire, start_state
    from ...sim.fire_los import plan_los_cuts
    from ...sim.report import fire_csv, fire_report, fire_text

    n_trials = parse_int(trials, "--trials", 1, 10_000_000)
    n_turns = parse_int(turns, "--turns", 1, 200)
    seed_v = parse_int(seed, "--seed", 0, 2**63 - 1)
    notes: list[str] = []
    src = load_source(source)
    m = src.battlemap
    burnout = (
        variant.strip().lower() == "burnout"
        if variant is not None
        else (src.scenario is not None and "burnout" in src.scenario.variants)
    )
    if variant is None and burnout:
        notes.append("variant burnout, as the scenario says")
    hexes = [parse_hex(m, t, "--ignite") for t in ignite]
    b0, _ = start_state(m, hexes)
    reach = reachable_buildings(b0, m.dr_array())
    viewpoints = None
    if src.scenario is not None:
        viewpoints = list(dict.fromkeys([u[3] for u in src.units] + src.objectives))
    plan = plan_los_cuts(m, reach, viewpoints)
    areas = resolve_areas(src, area_specs)
    try:
        exact = exact_fire_on_map(m, hexes, n_turns, burnout, areas=areas)
    except ExactTooLarge as exc:
        exact = None
        notes.append(f"Monte Carlo only: {exc}")
    with progress_bar(n_trials, as_json, "fire") as tick:
        res = simulate_fire(
            m,
            hexes,
            n_turns,
            trials=n_trials,
            seed=seed_v,
            burnout=burnout,
            los=plan,
            areas=areas,
            progress=tick,
        )
    rep = fire_report(res, m, exact=exact, title=src.title, notes=notes)
    if as_json:
        echo_json(rep)
    else:
        click.echo(fire_text(rep))
    if csv_path:
        _write_csv(csv_path, fire_csv(rep), as_json)
    if png_path:
        frames = fire_heatmap_frames(res, "burnout" if burnout else "standard")
        size = render_heatmap_strip(m, frames, png_path, hexes, ramp="fire", vmax=1.0)
        record_output(png_path)
        _say(
            f"wrote {png_path} ({size[0]} x {size[1]} pixels, turns {', '.join(str(t) for t, _ in _panels(res))})",
            as_json,
        )


FIRE_PANELS = 6  #: at most this many turns drawn side by side by ``sim fire --png``


def _panels(res: Any) -> list[tuple[int, np.ndarray]]:
    """The turns a fire heatmap strip shows (every turn up to :data:`FIRE_PANELS`, else evenly
    spaced ones ending with the last) and their P(burned by turn t) maps."""
    T = int(res.turns)
    if T <= FIRE_PANELS:
        turns = list(range(1, T + 1))
    else:
        turns = sorted({round(1 + k * (T - 1) / (FIRE_PANELS - 1)) for k in range(FIRE_PANELS)})
    pb = res.p_burned_by()
    return [(t, pb[t]) for t in turns]


def fire_heatmap_frames(res: Any, variant: str) -> list[tuple[np.ndarray, str]]:
    """``(P(burned by turn t) [height, width], title)`` per panel of ``sim fire --png``; each title
    states the turn, the fire, the trials and the rule variant (issue 23).

    >>> from hexwar.model.hexgrid import Hex
    >>> class R:
    ...     turns, trials, ignite = 2, 500, (Hex.from_label("F05"),)
    ...     def p_burned_by(self): return np.zeros((3, 1, 1))
    >>> [t for _, t in fire_heatmap_frames(R(), "burnout")][1]
    'turn 2 of 2: P(burned by turn 2), fire lit at F05 in turn 0; 500 trials; rules burnout'
    """
    where = ", ".join(h.label for h in res.ignite) or "the map's fires"
    return [
        (
            v,
            f"turn {t} of {res.turns}: P(burned by turn {t}), fire lit at {where} in turn 0; "
            f"{res.trials:,} trials; rules {variant}",
        )
        for t, v in _panels(res)
    ]
