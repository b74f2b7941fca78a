"""What every ``hexwar sim`` subcommand shares: the ``MAP_OR_SCENARIO`` source, the parsers of
hexes, sides, numbers and areas, the progress bar, output checks and the option decorators.

Every parser refuses bad input with one :class:`~hexwar.errors.HexwarError` sentence naming the
option, so ``hexwar.cli.main`` prints it and exits with status 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import click

from ...errors import HexwarError, clip
from ...fileio import atomic_write_text
from ...model.hexgrid import Hex, HexLabelError
from ...model.maps import BattleMap
from ...outputs import record_output
from ...rules.cards import SIDES

__all__ = [
    "DEFAULT_WEAPON",
    "PROGRESS_DELAY",
    "SimSource",
    "VARIANT",
    "VariantChoice",
    "check_output_paths",
    "load_source",
    "parse_hex",
    "parse_int",
    "parse_side",
    "build_plan",
    "plan_options",
    "progress_bar",
    "report_options",
    "resolve_areas",
]

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
    from ...game import ruleset

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
    from ..basic import load_map_or_scenario

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


def check_output_paths(csv: str | None = None, png: str | None = None, force: bool = False) -> None:
    """Fail before any simulation runs when an output file's folder is missing or the file
    exists and was not written by hexwar (without ``--force``), so no run is lost and no
    file is overwritten by surprise (:func:`hexwar.outputs.check_outputs`).

    Raises:
        HexwarError: naming the option, the path and the problem.
    """
    from ...outputs import check_outputs

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
    from ...game.areas import parse_area_hexes, scenario_areas

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
    from ...rules.cards import default_cards

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


def build_plan(
    scen: Any, plan_path: str | None, targets: Sequence[str], ignites: Sequence[str], n_turns: int
) -> Any:
    """The what-if plan of ``sim scenario`` and ``sim sweep scenario``: the ``--plan`` file's
    missions and ignitions, then the ``--target`` and ``--ignite`` options, missions in turn
    order (R9, R8.4).

    Raises:
        ScenarioSimError: for a bad plan, target or ignition, or one acting after the last
            simulated turn ``n_turns``.
    """
    from ...sim.scenario import ScenarioPlan, ScenarioSimError, load_plan, parse_ignite, parse_target

    plan = load_plan(plan_path, scen) if plan_path else ScenarioPlan()
    missions = list(plan.missions) + [m for t in targets for m in parse_target(t, scen)]
    ignitions = list(plan.ignitions) + [parse_ignite(t, scen) for t in ignites]
    plan = ScenarioPlan(tuple(sorted(missions, key=lambda m: m.turn)), tuple(ignitions))
    late = [m.turn for m in plan.missions if m.turn > n_turns] + [
        g.turn for g in plan.ignitions if g.turn > n_turns
    ]
    if late:
        raise ScenarioSimError(
            f"the plan acts in turn {late[0]}, after the last simulated turn {n_turns} (--turns)"
        )
    return plan
