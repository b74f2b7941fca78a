"""``hexwar sim artillery``: where a barrage lands and what it does (R9.3, R9.4, R8.2-R8.4)."""

from __future__ import annotations

import click

from ...model.hexgrid import Hex
from ...outputs import record_output
from .. import echo_json
from .common import (
    _say,
    _weapon,
    _write_csv,
    check_output_paths,
    load_source,
    parse_hex,
    parse_int,
    parse_side,
    progress_bar,
    report_options,
)
from .heatmap import render_heatmap

__all__ = ["artillery", "artillery_heatmap_title"]


@click.command("artillery")
@click.argument("source", metavar="MAP_OR_SCENARIO")
@click.option("--target", "target", required=True, help="Target hex, e.g. P11 (R9.2).")
@click.option("--side", "side", required=True, help="Firing side: german (hits on 3+) or soviet (4+), R9.3.")
@click.option(
    "--missions",
    "missions",
    default=None,
    help="Missions per trial, fired one after another at the target [default: the scenario's, else 1].",
)
@click.option("--bonus", is_flag=True, help="Discard a Command card on every accuracy roll (+1, R1.3).")
@click.option("--trials", "trials", default="100000", show_default=True, help="Number of trials.")
@click.option("--seed", "seed", default="0", show_default=True, help="Seed (same seed, same output).")
@report_options(
    "Write one CSV row per hex.",
    "Draw the landing heatmap (all missions of a trial) on the map to this PNG (headless).",
)
def artillery(
    source: str,
    target: str,
    side: str,
    missions: str | None,
    bonus: bool,
    trials: str,
    seed: str,
    as_json: bool,
    csv_path: str | None,
    png_path: str | None,
    force: bool = False,
) -> None:
    """Where a barrage lands, and what it does to units and buildings (R9.3, R9.4, R8.2-R8.4)."""
    check_output_paths(csv_path, png_path, force)
    from ...sim.artillery import simulate_artillery
    from ...sim.report import UnitOnMap, artillery_csv, artillery_report, artillery_text

    side = parse_side(side)
    n_trials = parse_int(trials, "--trials", 1, 100_000_000)
    seed_v = parse_int(seed, "--seed", 0, 2**63 - 1)
    src = load_source(source)
    m = src.battlemap
    h = parse_hex(m, target, "--target")
    wname, di, hit_on, scen_missions, attack, notes = _weapon(src, side)
    n_missions = parse_int(missions, "--missions", 1, 1000, default=scen_missions or 1)
    if hit_on is None:
        from ...rules.terrain_effects import default_effects

        hit_on = default_effects().side_hit_on(side)
    observers = [u[3] for u in src.units if u[2] == side]
    if src.scenario is not None:
        from ...rules.artillery import target_problem

        problem = target_problem(m, h, observers)
        if problem:
            notes.append(f"in the game this target needs an observer (R9.2): {problem}")
    with progress_bar(n_trials, as_json, "artillery") as tick:
        res = simulate_artillery(
            m,
            h,
            hit_on=hit_on,
            damage_index=di,
            missions=n_missions,
            bonus=int(bonus),
            trials=n_trials,
            seed=seed_v,
            progress=tick,
        )
    units = [UnitOnMap(uid, name, s, hx, tt, tt in attack) for uid, name, s, hx, tt in src.units]
    rep = artillery_report(res, m, side=side, weapon_name=wname, units=units, title=src.title, notes=notes)
    if as_json:
        echo_json(rep)
    else:
        click.echo(artillery_text(rep))
    if csv_path:
        _write_csv(csv_path, artillery_csv(rep), as_json)
    if png_path:
        if n_missions == 1:
            values, what = res.landing_probability(), "P(the strike lands here), 1 mission"
        else:  # all missions of a trial, not one strike (R9.4: one attack per strike landing)
            values, what = res.expected_attacks(), f"expected strikes landing here over {n_missions} missions"
        size = render_heatmap(
            m, values, artillery_heatmap_title(what, side, h, n_trials), png_path, [h], ramp="heat"
        )
        record_output(png_path)
        _say(f"wrote {png_path} ({size[0]} x {size[1]} pixels)", as_json)


def artillery_heatmap_title(what: str, side: str, target: Hex, trials: int) -> str:
    """The title of ``sim artillery --png``: what is drawn (one strike, or all missions of a
    trial), side, target, that every mission is fired in one turn, trials and rules (issue 23).

    >>> artillery_heatmap_title("expected strikes landing here over 3 missions", "soviet", Hex.from_label("F05"), 2000)
    'expected strikes landing here over 3 missions - soviet at F05, all in one turn (R5.1d); 2,000 trials; rules standard (R9.3)'
    """
    return (
        f"{what} - {side} at {target.label}, all in one turn (R5.1d); {trials:,} trials; "
        f"rules standard (R9.3)"
    )
