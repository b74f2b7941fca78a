"""``hexwar sim artillery | fire | sweep``: the simulation harness on the command line (issue 9).

* ``hexwar sim artillery MAP_OR_SCENARIO --target HEX --side german|soviet [--missions N] [--bonus]
  [--trials N] [--seed S] [--json] [--csv FILE] [--png FILE]``
* ``hexwar sim fire MAP_OR_SCENARIO --ignite HEX [--ignite HEX ...] --turns T [--trials N]
  [--seed S] [--variant burnout] [--json] [--csv FILE] [--png FILE]``
* ``hexwar sim sweep artillery|fire MAP_OR_SCENARIO ... --vary NAME=VALUES [--vary ...]
  [--seeds 0..4] [--trials N] [--csv FILE] [--json] [--workers K] [--cluster local|none|tcp://HOST:8786]``
  (``--cluster``: the runs in chunks on Dask, same rows as on one core; issue 20, docs/sim.md)

``MAP_OR_SCENARIO`` is a map or scenario file, or a shipped map or scenario name. A scenario
brings its units (their expected artillery attacks; viewpoints for the LOS cut by fire), its
objectives (viewpoints too), each side's artillery weapon, hit number and missions, and its rule
variants. Every bad input is one sentence on stderr and exit status 2 (``hexwar.cli.main``).

Heatmaps (``--png``) are drawn on the real map by hexwar's pyglet renderer, headless, with a
legend; only this module (never :mod:`hexwar.sim`) loads it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import click
import numpy as np

from ..errors import HexwarError, clip
from ..fileio import atomic_write_text
from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap
from ..outputs import record_output
from ..rules.cards import SIDES
from . import echo_json
from .balance import cluster_options

__all__ = ["SimSource", "load_source", "sim"]

#: Off-board artillery profile used when a bare map (or a scenario without artillery for the
#: side) gives none: the side's divisional howitzer, by weapon id in the cards' weapons.toml.
DEFAULT_WEAPON = {"german": "lefh18", "soviet": "m30"}
PROGRESS_DELAY = 0.5  # seconds before a progress bar appears (short runs show none)


@dataclass
class SimSource:
    """What a ``MAP_OR_SCENARIO`` argument gives the harness.

    Attributes:
        battlemap: the map.
        title: map (or scenario) name for reports.
        scenario: the loaded :class:`~hexwar.game.scenario.Scenario`, or ``None`` for a map.
        units: ground units on the map: ``(id, name, side, hex, target type)``.
        objectives: objective hexes.
    """

    battlemap: BattleMap
    title: str
    scenario: Any = None
    units: list[tuple[str, str, str, Hex, str]] = field(default_factory=list)
    objectives: list[Hex] = field(default_factory=list)


def _scenario_units(scen: Any) -> list[tuple[str, str, str, Hex, str]]:
    """Ground units on the map at the start of a scenario, with the game's own instance ids."""
    from ..game import ruleset

    out: list[tuple[str, str, str, Hex, str]] = []
    try:
        state = scen.new_game(seed=scen.seed)
        for uid, u in sorted(state.units.items()):
            if u.hex is None or u.aloft or u.crewing is not None:
                continue
            cid = uid.rsplit("#", 1)[0]
            out.append((uid, ruleset.card_name(cid), u.side, u.hex, ruleset.target_type(cid)))
        return out
    except Exception:  # the engine could not start this scenario: fall back to its fixed units
        counts: dict[str, int] = {}
        for side in SIDES:
            ss = scen.sides.get(side)
            for su in ss.units if ss else ():
                if su.hex is None or ruleset.is_aircraft(su.card):
                    continue
                counts[su.card] = counts.get(su.card, 0) + 1
                out.append(
                    (
                        f"{su.card}#{counts[su.card]}",
                        ruleset.card_name(su.card),
                        side,
                        su.hex,
                        ruleset.target_type(su.card),
                    )
                )
        return out


def load_source(name: str) -> SimSource:
    """Load ``MAP_OR_SCENARIO``: a map or scenario file, or a shipped map or scenario name.

    Raises:
        HexwarError: when nothing by that name exists, or the file is broken (a
            ValidationError listing every problem).
    """
    from .basic import load_map_or_scenario

    m, scen = load_map_or_scenario(name)
    if scen is None:
        return SimSource(m, m.name)
    return SimSource(
        m, f"{scen.name} ({m.name})", scen, _scenario_units(scen), [o.hex for o in scen.objectives]
    )


def parse_hex(battlemap: BattleMap, text: str, option: str) -> Hex:
    """Parse a hex label given to ``option`` and check it lies on the map.

    Raises:
        HexwarError: one sentence naming the option, the text and what was expected.
    """
    try:
        h = Hex.from_label(text)
    except HexLabelError:
        raise HexwarError(
            f"{option} {text!r} is not a hex label: expected column letters then a row number, like D07"
        ) from None
    if not battlemap.in_bounds(h):
        last = Hex.from_offset(battlemap.width - 1, battlemap.height - 1).label
        raise HexwarError(
            f"{option} {h.label} is off the map: {battlemap.name} is {battlemap.width} x "
            f"{battlemap.height} hexes, A01 to {last}"
        )
    return h


def parse_side(text: str) -> str:
    """``german`` or ``soviet`` (any case).

    Raises:
        HexwarError: for anything else.
    """
    s = (text or "").strip().lower()
    if s not in SIDES:
        raise HexwarError(f"unknown side {text!r}: expected german or soviet")
    return s


class VariantChoice(click.Choice):  # type: ignore[type-arg]
    """The fire variant (``burnout`` R8.6, or ``standard``), any case; a refusal names it."""

    def __init__(self) -> None:
        super().__init__(["burnout", "standard"], case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The variant's name in lower case.

        Raises:
            click.BadParameter: ``unknown variant 'X': expected burnout (or standard)``.
        """
        try:
            return super().convert(str(value).strip(), param, ctx)
        except click.BadParameter:
            raise click.BadParameter(
                f"unknown variant {value!r}: expected burnout (or standard)", ctx, param
            ) from None


VARIANT = VariantChoice()


def parse_int(text: str | None, option: str, lo: int, hi: int, default: int | None = None) -> int:
    """A whole number for ``option`` within ``lo..hi``.

    Raises:
        HexwarError: for anything else.
    """
    if text is None:
        if default is None:  # pragma: no cover - options with no default are required by click
            raise HexwarError(f"{option} is required")
        return default
    try:
        v = int(str(text).replace("_", "").replace(",", ""))
    except ValueError:
        raise HexwarError(f"{option} {clip(text)}: expected a whole number {lo}..{hi:,}") from None
    if not lo <= v <= hi:
        raise HexwarError(f"{option} {clip(str(v), quote=False)}: expected a whole number {lo}..{hi:,}")
    return v


@contextmanager
def progress_bar(total: int, quiet: bool, what: str) -> Iterator[Callable[[int], Any]]:
    """A tqdm bar on stderr for long runs; off when ``quiet`` (``--json``) or stderr is not a TTY."""
    from tqdm import tqdm

    disable = quiet or not sys.stderr.isatty()
    bar = tqdm(
        total=total,
        unit=" trials",
        desc=what,
        disable=disable,
        delay=PROGRESS_DELAY,
        leave=False,
        file=sys.stderr,
        unit_scale=True,
    )
    try:
        yield bar.update
    finally:
        bar.close()


def _say(text: str, as_json: bool) -> None:
    click.echo(text, err=as_json)


def _heatmap_image(
    battlemap: BattleMap,
    values: np.ndarray,
    title: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
    width: int = 1400,
) -> np.ndarray:
    """``uint8 [h, w, 4]``: ``values`` drawn on the whole map with a legend band (headless)."""
    from ..render import backend

    backend.configure(None)
    from ..render.camera import Camera, map_bounds
    from ..render.offscreen import render_map
    from ..render.overlays import HeatmapOverlay, HighlightOverlay

    # the whole map, with a free band above and below it so the legend covers no hex
    w, band, margin = width, 100, 0.02
    cam = Camera(viewport=(float(w), 100.0))
    x0, y0, x1, y1 = map_bounds(battlemap.width, battlemap.height, cam.layout)
    zoom = w * (1 - 2 * margin) / (x1 - x0)
    h = int(min(2400, (y1 - y0) * zoom / (1 - 2 * margin) + 2 * band))
    cam = Camera(viewport=(float(w), float(h)))
    cam.fit((x0, y0 - band / zoom, x1, y1 + band / zoom), margin)
    overlays = {
        "heat": HeatmapOverlay(
            values,
            ramp=ramp,
            vmin=0.0,
            vmax=vmax,
            title=title,
            hide_below=1e-9,
            show_values=int((np.asarray(values) > 1e-9).sum()) <= 120,
            fmt=lambda v: f"{v:.2g}",
            wash=0.6,
        ),
        "marks": HighlightOverlay(rings, colour="target"),
    }
    return np.asarray(render_map(battlemap, size=(w, h), overlays=overlays, camera=cam))


def render_heatmap(
    battlemap: BattleMap,
    values: np.ndarray,
    title: str,
    path: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
) -> tuple[int, int]:
    """Draw ``values`` (``[height, width]``, NaN/0 = none) on the map with a legend, headless, to ``path``.

    Returns the image size in pixels. Raises HexwarError when it cannot render or write.
    """
    from ..render.offscreen import save_png

    img = _heatmap_image(battlemap, values, title, rings, ramp, vmax)
    save_png(img, path)
    return int(img.shape[1]), int(img.shape[0])


def render_heatmap_strip(
    battlemap: BattleMap,
    frames: list[tuple[np.ndarray, str]],
    path: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
) -> tuple[int, int]:
    """Draw one small map per frame (``(values [height, width], title)``), side by side, to ``path``.

    Used for per-turn heatmaps: each panel's title says what it shows. Returns the image size.
    """
    from ..render.offscreen import save_png

    width = 700 if len(frames) > 1 else 1400
    imgs = [_heatmap_image(battlemap, v, t, rings, ramp, vmax, width=width) for v, t in frames]
    hmax = max(i.shape[0] for i in imgs)
    pad = [np.pad(i, ((0, hmax - i.shape[0]), (0, 4), (0, 0)), constant_values=255) for i in imgs]
    strip = np.ascontiguousarray(np.concatenate(pad, axis=1)[:, :-4])
    save_png(strip, path)
    return int(strip.shape[1]), int(strip.shape[0])


def check_output_paths(csv: str | None = None, png: str | None = None, force: bool = False) -> None:
    """Fail before any simulation runs when an output file's folder is missing or the file
    exists and was not written by hexwar (without ``--force``), so no run is lost and no
    file is overwritten by surprise (:func:`hexwar.outputs.check_outputs`).

    Raises:
        HexwarError: naming the option, the path and the problem.
    """
    from ..outputs import check_outputs

    check_outputs(force, csv=csv, png=png)


def resolve_areas(
    src: SimSource, specs: Sequence[str], default_all: bool = True
) -> dict[str, tuple[Hex, ...]]:
    """The named areas of ``--area`` options: a scenario's area (or objective) by name, or
    ``NAME=HEXES`` with hex labels and ranges ``A..B`` (:mod:`hexwar.game.areas`).

    Args:
        src: what ``MAP_OR_SCENARIO`` loaded.
        specs: the ``--area`` values, in order.
        default_all: with no ``--area``, every area and objective of a scenario (a bare map: none).

    Raises:
        HexwarError: naming the option, the area and what was expected.
    """
    from ..game.areas import parse_area_hexes, scenario_areas

    known = scenario_areas(src.scenario) if src.scenario is not None else {}
    if not specs:
        return dict(known) if default_all else {}
    out: dict[str, tuple[Hex, ...]] = {}
    for spec in specs:
        name, eq, body = spec.partition("=")
        name = name.strip()
        if not name:
            raise HexwarError(
                f"--area {spec[:40]!r}: expected NAME or NAME=HEXES such as village=E04..G06,H05"
            )
        if eq:

            def refuse(where: str, expected: str) -> None:
                raise HexwarError(f"{where}: {expected}")

            hexes = parse_area_hexes(
                [x for x in body.split(",") if x.strip()] or None,
                src.battlemap,
                f"--area {name[:40]}",
                refuse,
            )
            out[name] = hexes
        elif name in known:
            out[name] = known[name]
        else:
            has = ", ".join(sorted(known)) or "none (give NAME=HEXES)"
            raise HexwarError(
                f"--area {name[:40]!r}: no such area; {'the scenario' if src.scenario else 'a bare map'} "
                f"has: {has}"
            )
    return out


def _write_csv(path: str, text: str, as_json: bool) -> None:
    atomic_write_text(path, text)
    record_output(path)
    _say(f"wrote {path}", as_json)


# -- the commands ----------------------------------------------------------------------------
@click.group("sim")
def sim() -> None:
    """Monte Carlo of artillery drift and fire spread on a real map, on the game's own rules."""


def _weapon(src: SimSource, side: str) -> tuple[str, int, int | None, int | None, dict[str, int], list[str]]:
    """``(name, damage_index, hit_on or None, missions or None, attack values, notes)`` for ``side``."""
    notes: list[str] = []
    art = (
        src.scenario.sides[side].artillery
        if src.scenario is not None and side in src.scenario.sides
        else None
    )
    if art is not None:
        return (
            art.weapon.name,
            art.weapon.damage_index,
            art.hit_on,
            art.missions,
            dict(art.weapon.attack),
            notes,
        )
    from ..rules.cards import default_cards

    w = default_cards().weapons[DEFAULT_WEAPON[side]]
    where = "the scenario gives it no off-board artillery" if src.scenario is not None else "a bare map"
    notes.append(f"{side} fires the default profile {w.name} (DI {w.damage_index}): {where}")
    return w.name, w.damage_index, None, None, dict(w.attack), notes


def report_options(csv_help: str, png_help: str) -> Callable[[Any], Any]:
    """The output options of ``hexwar sim artillery / fire / scenario``, as one decorator:
    ``--json`` (the report as JSON), ``--csv FILE`` and ``--png FILE`` (with their own help
    texts), and ``--force`` (replace files hexwar did not write).

    Args:
        csv_help: the ``--csv`` help text; png_help: the ``--png`` help text.
    """

    def deco(f: Any) -> Any:
        f = click.option(
            "--force", is_flag=True, help="Replace existing --csv/--png files that hexwar did not write."
        )(f)
        f = click.option("--png", "png_path", default=None, type=click.Path(dir_okay=False), help=png_help)(f)
        f = click.option("--csv", "csv_path", default=None, type=click.Path(dir_okay=False), help=csv_help)(f)
        f = click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")(f)
        return f

    return deco


@sim.command("artillery")
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
    from ..sim.artillery import simulate_artillery
    from ..sim.report import UnitOnMap, artillery_csv, artillery_report, artillery_text

    side = parse_side(side)
    n_trials = parse_int(trials, "--trials", 1, 100_000_000)
    seed_v = parse_int(seed, "--seed", 0, 2**63 - 1)
    src = load_source(source)
    m = src.battlemap
    h = parse_hex(m, target, "--target")
    wname, di, hit_on, scen_missions, attack, notes = _weapon(src, side)
    n_missions = parse_int(missions, "--missions", 1, 1000, default=scen_missions or 1)
    if hit_on is None:
        from ..rules.terrain_effects import default_effects

        hit_on = default_effects().side_hit_on(side)
    observers = [u[3] for u in src.units if u[2] == side]
    if src.scenario is not None:
        from ..rules.artillery import target_problem

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


@sim.command("fire")
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
    from ..sim.exact import ExactTooLarge, exact_fire_on_map
    from ..sim.fire import reachable_buildings, simulate_fire, start_state
    from ..sim.fire_los import plan_los_cuts
    from ..sim.report import fire_csv, fire_report, fire_text

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


def plan_options(target_help: str, ignite_help: str) -> Callable[[Any], Any]:
    """The what-if plan options of ``hexwar sim scenario`` and ``hexwar sim sweep scenario``,
    as one decorator: ``--turns`` (1-30), ``--plan FILE`` (a TOML plan), ``--target`` missions
    and ``--ignite`` fires (R9, R8.4), with the two last help texts given.

    Args:
        target_help: the ``--target`` help text; ignite_help: the ``--ignite`` help text.
    """

    def deco(f: Any) -> Any:
        f = click.option("--ignite", "ignites", multiple=True, metavar="HEX@TURN", help=ignite_help)(f)
        f = click.option("--target", "targets", multiple=True, metavar="[SIDE:]HEX@TURNS", help=target_help)(
            f
        )
        f = click.option(
            "--plan",
            "plan_path",
            default=None,
            type=click.Path(dir_okay=False, exists=True),
            help="A TOML plan of [[mission]] and [[ignite]] tables (docs/sim.md).",
        )(f)
        f = click.option("--turns", "turns", default="3", show_default=True, help="Turns to play (1-30).")(f)
        return f

    return deco


@sim.command("scenario")
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
    from ..game.areas import scenario_areas
    from ..game.scenario import load_scenario
    from ..sim.scenario import (
        ScenarioPlan,
        ScenarioSimError,
        load_plan,
        parse_ignite,
        parse_target,
        simulate_scenario,
    )
    from ..sim.scenario_report import (
        CHECK_Z,
        exact_check,
        landing_strip,
        scenario_csv,
        scenario_report,
        scenario_text,
    )

    n_trials = parse_int(trials, "--trials", 1, 1_000_000)
    n_turns = parse_int(turns, "--turns", 1, 30)
    seed_v = parse_int(seed, "--seed", 0, 2**63 - 1)
    scen = load_scenario(source)
    plan = load_plan(plan_path, scen) if plan_path else ScenarioPlan()
    missions = list(plan.missions) + [m for t in targets for m in parse_target(t, scen)]
    ignitions = list(plan.ignitions) + [parse_ignite(t, scen) for t in ignites]
    plan = ScenarioPlan(tuple(sorted(missions, key=lambda m: m.turn)), tuple(ignitions))
    if not plan.missions and not plan.ignitions:
        raise ScenarioSimError(
            "nothing to simulate: give --target [SIDE:]HEX@TURNS, --ignite HEX@TURN or --plan FILE"
        )
    late = [m for m in plan.missions if m.turn > n_turns] + [g for g in plan.ignitions if g.turn > n_turns]
    if late:
        raise ScenarioSimError(
            f"the plan acts in turn {late[0].turn}, after the last simulated turn {n_turns} (--turns)"
        )
    try:
        areas = scenario_areas(scen, list(area_names) if area_names else None)
    except KeyError as exc:
        raise ScenarioSimError(str(exc.args[0])) from None
    variants = None
    if rules is not None:
        from .game import parse_rules

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
    notes = []
    if not res.exact:
        single = len(plan.missions) == 1 and plan.missions[0].turn == 1 and not plan.ignitions
        if single and res.fired[0] != n_trials:
            notes.append(
                "Monte Carlo only: the game refused the mission in some trials (see Missions), and the "
                "exact values assume it is fired"
            )
        else:
            notes.append(
                "Monte Carlo only: exact values need one mission in turn 1, no ignition and no fire "
                "within 7 hexes of the target"
            )
    rep = scenario_report(res, title=f"{scen.name} ({scen.id})", notes=notes)
    if as_json:
        echo_json(rep)
    else:
        click.echo(scenario_text(rep))
    if csv_path:
        _write_csv(csv_path, scenario_csv(rep), as_json)
    if png_path:
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
    bad = [] if no_check else exact_check(rep, CHECK_Z)
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


@sim.group("sweep")
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
    from ..sim.sweep import parse_hex_values, parse_vary

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
    from ..game.areas import scenario_areas
    from ..sim.sweep import parse_hex_values

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
    from ..sim.scenario import sweep_scenario
    from ..sim.sweep import sweep_artillery, sweep_chunk, sweep_fire, sweep_runs

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
    from ..cluster import chunked, run_chunks

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
    from ..sim.sweep import sweep_csv

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
    from ..cluster import parse_cluster
    from ..sim.sweep import parse_seeds

    where = parse_cluster(cluster, workers)
    side = parse_side(side)
    n_trials = parse_int(trials, "--trials", 1, 10_000_000)
    seed_list = parse_seeds(seeds)
    src = load_source(source)
    hexes, areas = _places(src, hex_specs, area_specs, default_areas=False)
    from ..game.areas import scenario_areas

    spec = _vary(vary, src.battlemap, scenario_areas(src.scenario) if src.scenario else {}, ("target",))
    if target is None and "target" not in spec:
        raise HexwarError("--target HEX is required (or --vary target=HEXES)")
    h = parse_hex(src.battlemap, target or spec["target"][0], "--target")
    _, di, hit_on, scen_missions, _, _ = _weapon(src, side)
    n_missions = parse_int(missions, "--missions", 1, 1000, default=scen_missions or 1)
    if hit_on is None:
        from ..rules.terrain_effects import default_effects

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
    from ..cluster import parse_cluster
    from ..sim.sweep import parse_seeds

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
    from ..game.areas import scenario_areas

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
    from ..cluster import parse_cluster
    from ..game.areas import scenario_areas
    from ..sim.scenario import ScenarioPlan, load_plan, parse_ignite, parse_target
    from ..sim.sweep import parse_seeds

    where = parse_cluster(cluster, workers)
    n_trials = parse_int(trials, "--trials", 1, 1_000_000)
    n_turns = parse_int(turns, "--turns", 1, 30)
    seed_list = parse_seeds(seeds)
    src = load_source(source)
    scen = src.scenario
    if scen is None:
        raise HexwarError(f"{source}: a scenario sweep needs a scenario, not a bare map")
    plan = load_plan(plan_path, scen) if plan_path else ScenarioPlan()
    missions = list(plan.missions) + [m for t in targets for m in parse_target(t, scen)]
    ignitions = list(plan.ignitions) + [parse_ignite(t, scen) for t in ignites]
    plan = ScenarioPlan(tuple(sorted(missions, key=lambda m: m.turn)), tuple(ignitions))
    late = [m.turn for m in plan.missions if m.turn > n_turns] + [
        g.turn for g in plan.ignitions if g.turn > n_turns
    ]
    if late:
        raise HexwarError(
            f"the plan acts in turn {late[0]}, after the last simulated turn {n_turns} (--turns)"
        )
    spec = _vary(vary, src.battlemap, scenario_areas(scen), ("target", "ignite"))
    if not plan.missions and not plan.ignitions and "ignite" not in spec:
        raise HexwarError(
            "nothing to simulate: give --target [SIDE:]HEX@TURNS, --ignite HEX@TURN or --plan FILE"
        )
    hexes, areas = _places(src, hex_specs, area_specs, default_areas=True)
    variants = None
    if rules is not None:
        from .game import parse_rules

        variants = parse_rules((rules,))
    kw = {"plan": plan, "turns": n_turns, "variants": variants, "hexes": hexes, "areas": areas}
    rows = _run_sweep("scenario", scen, kw, spec, seed_list, n_trials, where, workers, as_json)
    _emit_rows(rows, csv_path, as_json)
