"""``hexwar sim scenario``: what-if games of a scenario's battlefield over turns (R5.1, R8, R9)."""

from __future__ import annotations

from typing import Any

import click

from ...outputs import record_output
from .. import echo_json
from .common import (
    _say,
    _write_csv,
    build_plan,
    check_output_paths,
    parse_int,
    plan_options,
    progress_bar,
    report_options,
)
from .heatmap import render_heatmap_strip

__all__ = ["scenario_cmd"]


@click.command("scenario")
@click.argument("source", metavar="SCENARIO")
@click.option("--trials", "trials", default="1000", show_default=True, help="Number of what-if games.")
@click.option("--seed", "seed", default="0", show_default=True, help="Seed (same seed, same output).")
@plan_options(
    "Missions on HEX in TURNS, e.g. soviet:G06@1-3 (repeat for more).",
    "Set the building in HEX alight in TURN (0: before play; repeat for more).",
)
@click.option(
    "--area",
    "area_names",
    multiple=True,
    metavar="NAME",
    help="Report only these named areas (default: the scenario's areas and objectives).",
)
@click.option(
    "--rules", "rules", default=None, help="Rule variants, comma-separated (default: the scenario's)."
)
@click.option(
    "--no-check",
    "no_check",
    is_flag=True,
    help="Do not fail when a Monte Carlo figure is more than 5 standard errors from its exact value.",
)
@report_options(
    "Write one CSV row per unit, building and area measure and turn.",
    "Draw where the strikes of each turn land, one small map per turn (headless).",
)
def scenario_cmd(
    source: str,
    turns: str,
    trials: str,
    seed: str,
    plan_path: str | None,
    targets: tuple[str, ...],
    ignites: tuple[str, ...],
    area_names: tuple[str, ...],
    rules: str | None,
    as_json: bool,
    csv_path: str | None,
    png_path: str | None,
    no_check: bool = False,
    force: bool = False,
) -> None:
    """What-if games of a scenario's battlefield over turns (R5.1, R8, R9): the planned
    artillery and fires, turn after turn, with the scenario's units taking every attack
    through the combat engine. Reports P(attacked, hit, Damage card, destroyed) per unit,
    crew fate, P(rubble, burning) per building and each named area, by turn.

    When turn-1 values were computed exactly, the command checks the Monte Carlo against them
    after writing its outputs and exits with status 1, naming the worst figures, when one is
    more than 5 standard errors away (``--no-check`` skips this)."""
    check_output_paths(csv_path, png_path, force)
    from ...game.areas import scenario_areas
    from ...game.scenario import load_scenario
    from ...sim.scenario import ScenarioSimError, simulate_scenario
    from ...sim.scenario_report import scenario_csv, scenario_report, scenario_text

    n_trials = parse_int(trials, "--trials", 1, 1_000_000)
    n_turns = parse_int(turns, "--turns", 1, 30)
    seed_v = parse_int(seed, "--seed", 0, 2**63 - 1)
    scen = load_scenario(source)
    plan = build_plan(scen, plan_path, targets, ignites, n_turns)
    if not plan.missions and not plan.ignitions:
        raise ScenarioSimError(
            "nothing to simulate: give --target [SIDE:]HEX@TURNS, --ignite HEX@TURN or --plan FILE"
        )
    try:
        areas = scenario_areas(scen, list(area_names) if area_names else None)
    except KeyError as exc:
        raise ScenarioSimError(str(exc.args[0])) from None
    variants = None
    if rules is not None:
        from ..game import parse_rules

        variants = parse_rules((rules,))
    with progress_bar(n_trials, as_json, "what-if") as tick:
        res = simulate_scenario(
            scen,
            plan,
            turns=n_turns,
            trials=n_trials,
            seed=seed_v,
            variants=variants,
            areas=areas,
            progress=tick,
        )
    notes = _notes(res, plan, n_trials)
    rep = scenario_report(res, title=f"{scen.name} ({scen.id})", notes=notes)
    if as_json:
        echo_json(rep)
    else:
        click.echo(scenario_text(rep))
    if csv_path:
        _write_csv(csv_path, scenario_csv(rep), as_json)
    if png_path:
        _landing_png(res, plan, scen, n_turns, n_trials, png_path, as_json)
    if not no_check:
        _check_exact(rep)


def _notes(res: Any, plan: Any, n_trials: int) -> list[str]:
    """Why a report has no exact values (one mission in turn 1, fired in every trial)."""
    if res.exact:
        return []
    single = len(plan.missions) == 1 and plan.missions[0].turn == 1 and not plan.ignitions
    if single and res.fired[0] != n_trials:
        return [
            "Monte Carlo only: the game refused the mission in some trials (see Missions), and the "
            "exact values assume it is fired"
        ]
    return [
        "Monte Carlo only: exact values need one mission in turn 1, no ignition and no fire "
        "within 7 hexes of the target"
    ]


def _landing_png(
    res: Any, plan: Any, scen: Any, n_turns: int, n_trials: int, png_path: str, as_json: bool
) -> None:
    """``--png``: where the strikes of each turn land, one small map per turn (headless)."""
    from ...sim.scenario_report import landing_strip

    strip = landing_strip(res)
    vs = ", ".join(res.variants) or "standard"
    frames = []
    for t in range(n_turns):
        k = sum(1 for m in plan.missions if m.turn == t + 1)
        frames.append(
            (
                strip[t],
                f"turn {t + 1} of {n_turns}: strikes landing per game, {k} mission(s) planned "
                f"this turn; {n_trials:,} trials; rules {vs}",
            )
        )
    size = render_heatmap_strip(
        scen.battlemap, frames, png_path, list({m.hex for m in plan.missions}), ramp="heat"
    )
    record_output(png_path)
    _say(f"wrote {png_path} ({size[0]} x {size[1]} pixels)", as_json)


def _check_exact(rep: dict[str, Any]) -> None:
    """Exit with status 1, naming the worst figures, when a Monte Carlo figure is more than
    ``CHECK_Z`` standard errors from its exact value (after the outputs are written)."""
    from ...sim.scenario_report import CHECK_Z, exact_check

    bad = exact_check(rep, CHECK_Z)
    if bad:
        more = f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""
        click.echo(
            f"hexwar: check failed: the Monte Carlo disagrees with its own exact values by more than "
            f"{CHECK_Z:g} standard errors: " + "; ".join(bad[:3]) + more + ". Either the simulation or "
            "the exact calculation is wrong (please report it with the command line); --no-check "
            "skips this check.",
            err=True,
        )
        raise click.exceptions.Exit(1)
