"""``hexwar sim sweep artillery | fire | scenario``: parameter sweeps over seeds, one CSV row per
(values, seed), on this process or in chunks on Dask (``--cluster``, issue 20, docs/sim.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ...errors import HexwarError
from ...model.hexgrid import Hex
from ...model.maps import BattleMap
from .. import echo_json
from ..balance import cluster_options
from .common import (
    VARIANT,
    SimSource,
    _weapon,
    _write_csv,
    build_plan,
    check_output_paths,
    load_source,
    parse_hex,
    parse_int,
    parse_side,
    plan_options,
    progress_bar,
    resolve_areas,
)

__all__ = ["sweep", "sweep_output_options"]


@click.group("sweep")
def sweep() -> None:
    """Parameter sweeps over seeds, one CSV row per (values, seed)."""


def _vary(
    specs: tuple[str, ...],
    battlemap: BattleMap | None = None,
    areas: dict[str, tuple[Hex, ...]] | None = None,
    hex_params: tuple[str, ...] = (),
    words: tuple[str, ...] = (),
) -> dict[str, list[Any]]:
    """``--vary NAME=VALUES`` options: numbers, or hexes for ``hex_params`` (labels, ranges
    ``A..B``, ``area:NAME``; ``ignite`` keeps the buildings of a range or area)."""
    from ...sim.sweep import parse_hex_values, parse_vary

    out: dict[str, list[Any]] = {}
    for spec in specs:
        name = spec.partition("=")[0].strip()
        if name in hex_params and "=" in spec and battlemap is not None:
            vals: list[Any] = parse_hex_values(
                spec.partition("=")[2], battlemap, areas, buildings_only=name == "ignite"
            )
        else:
            name, vals = parse_vary(spec)
        if name in out:
            raise HexwarError(f"--vary {name} given twice")
        out[name] = vals
    return out


def _places(
    src: SimSource, hex_specs: tuple[str, ...], area_specs: tuple[str, ...], default_areas: bool
) -> tuple[list[Hex], dict[str, tuple[Hex, ...]]]:
    """``--hex`` (labels, ranges, ``area:NAME``) and ``--area`` options of a sweep: the hexes and
    named areas that get their own output columns."""
    from ...game.areas import scenario_areas
    from ...sim.sweep import parse_hex_values

    known = scenario_areas(src.scenario) if src.scenario is not None else {}
    hexes: list[Hex] = []
    for spec in hex_specs:
        for lab in parse_hex_values(spec, src.battlemap, known):
            h = Hex.from_label(lab)
            if h not in hexes:
                hexes.append(h)
    return hexes, resolve_areas(src, area_specs, default_all=default_areas)


def _run_sweep(
    kind: str,
    source: Any,
    kw: dict[str, Any],
    spec: dict[str, list[Any]],
    seed_list: list[int],
    trials: int,
    where: str,
    workers: int,
    as_json: bool,
) -> list[dict[str, Any]]:
    """A sweep on ``where`` (``none``: this process with a trial-level progress bar; else Dask).

    ``source`` is the map (``artillery``, ``fire``) or the scenario (``scenario``). The runs are
    cut into chunks of about a few seconds; rows come back in sweep order whatever ran them,
    so the CSV is the same on one core and on a cluster (issue 20).
    """
    from ...sim.chunks import sweep_chunk
    from ...sim.scenario_sweep import sweep_scenario
    from ...sim.sweep import sweep_artillery, sweep_fire, sweep_runs

    fns: dict[str, Callable[..., list[dict[str, Any]]]] = {
        "artillery": sweep_artillery,
        "fire": sweep_fire,
        "scenario": sweep_scenario,
    }
    fn = fns[kind]
    runs = sweep_runs(spec, seed_list)
    if where == "none":
        with progress_bar(len(runs) * trials, as_json, "sweep") as tick:
            return fn(source, **kw, vary=spec, seeds=seed_list, trials=trials, progress=tick)
    from ...cluster import chunked, run_chunks

    # validate everything here first (a bad --vary is one message, not a failure on a worker)
    fn(source, **kw, vary=spec, seeds=[], trials=trials)
    items = [(kind, source, {**kw, "trials": trials}, params, seed) for params, seed in runs]
    budget = 2_000_000 if kind != "scenario" else 2_000  # trials of about a few seconds
    per_chunk = max(1, min(max(1, budget // max(trials, 1)), -(-len(items) // (4 * workers))))
    run = run_chunks(
        sweep_chunk,
        chunked(items, per_chunk),
        cluster=where,
        workers=workers,
        quiet=as_json,
        desc="sweep",
        unit="runs",
    )
    if run.interrupted:
        raise KeyboardInterrupt
    return run.ordered()


def _emit_rows(rows: list[dict[str, Any]], csv_path: str | None, as_json: bool) -> None:
    from ...sim.sweep import sweep_csv

    text = sweep_csv(rows)
    if as_json:
        echo_json(rows)
    elif not csv_path:
        click.echo(text, nl=False)
    if csv_path:
        _write_csv(csv_path, text, as_json)


_AREA_HELP = "Per-area columns AREA:measure (a scenario's area, or NAME=HEXES; repeat)."
_AREA_DEFAULT_HELP = "Per-area columns AREA:measure (default: every area and objective of the scenario)."
_FORCE_HELP = "Replace existing --csv/--png files that hexwar did not write."
_FORCE_CSV_HELP = "Replace an existing --csv file that hexwar did not write."


def sweep_output_options(area_help: str = _AREA_HELP, force_help: str = _FORCE_HELP) -> Callable[[Any], Any]:
    """The options every ``hexwar sim sweep`` subcommand shares: per-hex and per-area columns
    (``--hex``, ``--area``), where the rows go (``--csv``, ``--json``, ``--force``) and where the
    work runs (``--workers``, ``--cluster``), as one decorator.

    Args:
        area_help: the ``--area`` help text; force_help: the ``--force`` help text.
    """

    def deco(f: Any) -> Any:
        f = cluster_options(f)
        f = click.option("--force", is_flag=True, help=force_help)(f)
        f = click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")(f)
        f = click.option(
            "--csv",
            "csv_path",
            default=None,
            type=click.Path(dir_okay=False),
            help="Write the rows here (else stdout).",
        )(f)
        f = click.option("--area", "area_specs", multiple=True, metavar="NAME[=HEXES]", help=area_help)(f)
        f = click.option(
            "--hex",
            "hex_specs",
            multiple=True,
            metavar="HEXES",
            help="Per-hex columns HEX:measure for these hexes (F05, E04..G06, area:NAME; repeat).",
        )(f)
        return f

    return deco


@sweep.command("artillery")
@click.argument("source", metavar="MAP_OR_SCENARIO")
@click.option("--target", "target", default=None, help="Target hex (unless --vary target=...).")
@click.option("--side", "side", required=True, help="german or soviet.")
@click.option(
    "--missions", "missions", default=None, help="Missions per trial [default: the scenario's, else 1]."
)
@click.option("--bonus", is_flag=True, help="Command-card bonus on every accuracy roll.")
@click.option(
    "--vary",
    "vary",
    multiple=True,
    required=True,
    help="NAME=VALUES: hit_on, bonus, missions, damage_index or dr:<building> (values 2..6 or 2,4,6), "
    "or target (hexes: F05,G06, E04..G06 or area:NAME).",
)
@click.option("--seeds", "seeds", default="0..2", show_default=True, help="Seeds: 0..4 or 1,7,9.")
@click.option("--trials", "trials", default="20000", show_default=True, help="Trials per run.")
@sweep_output_options()
def sweep_artillery_cmd(
    source: str,
    target: str | None,
    side: str,
    missions: str | None,
    bonus: bool,
    vary: tuple[str, ...],
    seeds: str,
    trials: str,
    csv_path: str | None,
    as_json: bool,
    workers: int,
    cluster: str | None,
    hex_specs: tuple[str, ...] = (),
    area_specs: tuple[str, ...] = (),
    force: bool = False,
) -> None:
    """Sweep artillery parameters (hit numbers, DR of a building class, ...) over seeds."""
    check_output_paths(csv_path, force=force)
    from ...cluster import parse_cluster
    from ...sim.sweep import parse_seeds

    where = parse_cluster(cluster, workers)
    side = parse_side(side)
    n_trials = parse_int(trials, "--trials", 1, 10_000_000)
    seed_list = parse_seeds(seeds)
    src = load_source(source)
    hexes, areas = _places(src, hex_specs, area_specs, default_areas=False)
    from ...game.areas import scenario_areas

    spec = _vary(vary, src.battlemap, scenario_areas(src.scenario) if src.scenario else {}, ("target",))
    if target is None and "target" not in spec:
        raise HexwarError("--target HEX is required (or --vary target=HEXES)")
    h = parse_hex(src.battlemap, target or spec["target"][0], "--target")
    _, di, hit_on, scen_missions, _, _ = _weapon(src, side)
    n_missions = parse_int(missions, "--missions", 1, 1000, default=scen_missions or 1)
    if hit_on is None:
        from ...rules.terrain_effects import default_effects

        hit_on = default_effects().side_hit_on(side)
    kw = {
        "target": h,
        "hit_on": hit_on,
        "damage_index": di,
        "missions": n_missions,
        "bonus": int(bonus),
        "hexes": hexes,
        "areas": areas,
    }
    rows = _run_sweep("artillery", src.battlemap, kw, spec, seed_list, n_trials, where, workers, as_json)
    _emit_rows(rows, csv_path, as_json)


@sweep.command("fire")
@click.argument("source", metavar="MAP_OR_SCENARIO")
@click.option(
    "--ignite",
    "ignite",
    multiple=True,
    help="Building hex set alight at turn 0 (repeat; unless --vary ignite=...).",
)
@click.option("--turns", "turns", required=True, help="Begin Turn steps to play.")
@click.option(
    "--variant", "variant", default=None, type=VARIANT, help="burnout (R8.6) [default: the scenario's]."
)
@click.option(
    "--vary",
    "vary",
    multiple=True,
    required=True,
    help="NAME=VALUES: turns, spread_bonus, burnout_turns or dr:<building> (values 12..14 or 12,14), "
    "or ignite (building hexes: F05,G06, E04..G06 or area:NAME).",
)
@click.option("--seeds", "seeds", default="0..2", show_default=True, help="Seeds: 0..4 or 1,7,9.")
@click.option("--trials", "trials", default="5000", show_default=True, help="Trials per run.")
@sweep_output_options()
def sweep_fire_cmd(
    source: str,
    ignite: tuple[str, ...],
    turns: str,
    variant: str | None,
    vary: tuple[str, ...],
    seeds: str,
    trials: str,
    csv_path: str | None,
    as_json: bool,
    workers: int,
    cluster: str | None,
    hex_specs: tuple[str, ...] = (),
    area_specs: tuple[str, ...] = (),
    force: bool = False,
) -> None:
    """Sweep fire parameters (DR of a building class, spread bonus, ...) over seeds."""
    check_output_paths(csv_path, force=force)
    from ...cluster import parse_cluster
    from ...sim.sweep import parse_seeds

    where = parse_cluster(cluster, workers)
    n_trials = parse_int(trials, "--trials", 1, 10_000_000)
    n_turns = parse_int(turns, "--turns", 1, 200)
    seed_list = parse_seeds(seeds)
    src = load_source(source)
    burnout = (
        variant.strip().lower() == "burnout"
        if variant is not None
        else (src.scenario is not None and "burnout" in src.scenario.variants)
    )
    hexes = [parse_hex(src.battlemap, t, "--ignite") for t in ignite]
    from ...game.areas import scenario_areas

    spec = _vary(vary, src.battlemap, scenario_areas(src.scenario) if src.scenario else {}, ("ignite",))
    if not hexes and "ignite" not in spec:
        raise HexwarError("--ignite HEX is required (or --vary ignite=HEXES)")
    out_hexes, areas = _places(src, hex_specs, area_specs, default_areas=False)
    kw = {"ignite": hexes, "turns": n_turns, "burnout": burnout, "hexes": out_hexes, "areas": areas}
    rows = _run_sweep("fire", src.battlemap, kw, spec, seed_list, n_trials, where, workers, as_json)
    _emit_rows(rows, csv_path, as_json)


@sweep.command("scenario")
@click.argument("source", metavar="SCENARIO")
@plan_options(
    "Missions on HEX in TURNS (repeat); --vary target=... moves them.",
    "Set a building alight (repeat); --vary ignite=... moves it.",
)
@click.option(
    "--vary",
    "vary",
    multiple=True,
    required=True,
    help="NAME=VALUES: target or ignite (hexes: F05,G06, E04..G06, area:NAME), "
    "sides.SIDE.artillery.missions|per_turn|hit_on|damage_index, objectives.NAME.points, "
    "scenario.victory_points (numbers: 2..6 or 2,4).",
)
@click.option("--seeds", "seeds", default="0", show_default=True, help="Seeds: 0..4 or 1,7,9.")
@click.option("--trials", "trials", default="200", show_default=True, help="What-if games per run.")
@click.option(
    "--rules", "rules", default=None, help="Rule variants, comma-separated (default: the scenario's)."
)
@sweep_output_options(area_help=_AREA_DEFAULT_HELP, force_help=_FORCE_CSV_HELP)
def sweep_scenario_cmd(
    source: str,
    turns: str,
    plan_path: str | None,
    targets: tuple[str, ...],
    ignites: tuple[str, ...],
    vary: tuple[str, ...],
    seeds: str,
    trials: str,
    rules: str | None,
    hex_specs: tuple[str, ...],
    area_specs: tuple[str, ...],
    csv_path: str | None,
    as_json: bool,
    workers: int,
    cluster: str | None,
    force: bool = False,
) -> None:
    """Sweep a scenario's what-if games (hexwar sim scenario) over targets, ignition hexes and
    scenario fields (its artillery's missions and hit number, objective points, ...)."""
    check_output_paths(csv_path, force=force)
    from ...cluster import parse_cluster
    from ...game.areas import scenario_areas
    from ...sim.sweep import parse_seeds

    where = parse_cluster(cluster, workers)
    n_trials = parse_int(trials, "--trials", 1, 1_000_000)
    n_turns = parse_int(turns, "--turns", 1, 30)
    seed_list = parse_seeds(seeds)
    src = load_source(source)
    scen = src.scenario
    if scen is None:
        raise HexwarError(f"{source}: a scenario sweep needs a scenario, not a bare map")
    plan = build_plan(scen, plan_path, targets, ignites, n_turns)
    spec = _vary(vary, src.battlemap, scenario_areas(scen), ("target", "ignite"))
    if not plan.missions and not plan.ignitions and "ignite" not in spec:
        raise HexwarError(
            "nothing to simulate: give --target [SIDE:]HEX@TURNS, --ignite HEX@TURN or --plan FILE"
        )
    hexes, areas = _places(src, hex_specs, area_specs, default_areas=True)
    variants = None
    if rules is not None:
        from ..game import parse_rules

        variants = parse_rules((rules,))
    kw = {"plan": plan, "turns": n_turns, "variants": variants, "hexes": hexes, "areas": areas}
    rows = _run_sweep("scenario", scen, kw, spec, seed_list, n_trials, where, workers, as_json)
    _emit_rows(rows, csv_path, as_json)
