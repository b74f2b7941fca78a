"""Scenario files: TOML schema, loader and collect-all-errors validator (R10.2, R11.3).

A scenario names the map, the two sides (deploy zones, Reserves decks as fixed lists or a
point budget, optional starting hand, fixed starting units, off-board artillery), the Event
cards shuffled into the Command deck, objective hexes, the turn limit, the victory points
target, the rule variants and a default seed. The full format, with an example, is in
``docs/scenarios-format.md``; the shape in brief::

    format = "hexwar-scenario"
    schema_version = 1

    [scenario]
    id = "skirmish"                   # letters, digits, - and _
    name = "Skirmish at the tractor works"
    map = "kharkov"                   # shipped map name, or a path relative to this file
    seed = 1943                       # default seed (R1.2)
    turns = 8                         # turn limit, 0 = none (R10.2)
    victory_points = 51               # R10.1
    rules = []                        # variants: "classic", "burnout", "fog", "crews-fight" (R11.3, R12.2)
    fog = false                       # fog of war (R12.2), same as rules = ["fog"]
    events = []                       # Event card ids shuffled into the Command deck (R4.3)

    [sides.german]
    deploy = ["A01:C22"]              # hex labels and rectangles "A01:C22" (offset corners)
    reserves = ["de-pz4g", "de-tank-crew", ...]   # or: budget = 90 (80..100 points)

    [[sides.german.units]]            # fixed starting units (R10.2), not in the decks
    card = "de-pak40"
    hex = "D07"
    crew = "de-artillery-crew"

    [sides.german.artillery]          # R9.1
    missions = 2
    weapon = { name = "10.5 cm leFH 18", damage_index = 5, attack = { infantry = 10, vehicle = 14, gun = 11 } }

    [[objectives]]                    # R10.2
    hex = "P11"
    points = 10

A map path is resolved relative to the scenario file and stays inside ``maps/`` or the
scenario's folder (no ``..``). The semantic checks are in :mod:`hexwar.game.scenario_checks`.

>>> from hexwar.game.scenario import parse_zone
>>> [h.label for h in parse_zone("B02:C03")]
['B02', 'B03', 'C02', 'C03']
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError, Problem, ValidationError, clip
from ..fileio import loads_toml as _loads_toml
from ..fileio import read_text, recover_group
from ..formats import scenario_file  # its models are created at the first hex scenario read
from ..formats.migrate import upgrade
from ..model import compiled_docs
from ..model.documents import Lenient, merge_problems, read_lenient
from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap, MapError
from ..paths import content_dir, find_content
from .modes import MODES, known_modes, mode_hook

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = [
    "SCENARIO_FORMAT",
    "SCENARIO_SCHEMA_VERSION",
    "KNOWN_VARIANTS",
    "BUDGET_RANGE",
    "ArtilleryWeapon",
    "ArtillerySetup",
    "StartingUnit",
    "SideSetup",
    "Objective",
    "HoldVictory",
    "Battlefield",
    "apply_battlefield",
    "Scenario",
    "load_scenario",
    "find_scenario",
    "validate_scenario_file",
    "parse_scenario",
    "build_scenario",
    "loads_toml",
    "check_setup",
    "parse_zone",
]

SCENARIO_FORMAT = "hexwar-scenario"
SCENARIO_SCHEMA_VERSION = 1
KNOWN_VARIANTS = (
    "standard",
    "classic",
    "burnout",
    "fog",
    "crews-fight",
)  # R11.3, R12.2; "standard" = none of the others
BUDGET_RANGE = (80, 100)  # 000 Standard Game Setup: Reserves decks of 80-100 points
MAX_SCENARIO_BYTES = 1024 * 1024
TARGET_TYPES = ("infantry", "vehicle", "gun", "aircraft")  # R4.2 attack value columns
_ZONE_RE = re.compile(r"^\s*([A-Za-z]+\d+)\s*:\s*([A-Za-z]+\d+)\s*$")


def parse_zone(spec: str) -> list[Hex]:
    """Hexes of one deploy-zone entry: a label ``"D07"`` or a rectangle ``"A01:C22"``.

    A rectangle covers every column from the first label's to the second's and every row
    between, in offset coordinates (R2.2), column by column.

    Raises:
        HexLabelError: naming the entry when a label is malformed or the rectangle is reversed.
    """
    m = _ZONE_RE.match(spec) if isinstance(spec, str) else None
    if not m:
        return [Hex.from_label(spec)]
    a, b = Hex.from_label(m.group(1)), Hex.from_label(m.group(2))
    (c0, r0), (c1, r1) = a.offset, b.offset
    if c1 < c0 or r1 < r0:
        raise HexLabelError(f"bad zone {clip(spec)}: the first corner must be the top-left one")
    if (c1 - c0 + 1) * (r1 - r0 + 1) > 250_000:
        raise HexLabelError(f"bad zone {clip(spec)}: too large")
    return [Hex.from_offset(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]


@dataclass(frozen=True)
class ArtilleryWeapon:
    """The weapon profile off-board artillery missions fire (R9.1; Spearpoint numbers, R4.2).

    Attributes:
        name: display name.
        attack: attack value per target type (``infantry``, ``vehicle``, ``gun``); a type
            missing cannot be affected. Aircraft are never hit (R9.4).
        damage_index: the Damage Index.
        rate_of_fire: rolls per target (1-4).
    """

    name: str
    attack: dict[str, int]
    damage_index: int
    rate_of_fire: int = 1


@dataclass(frozen=True)
class ArtillerySetup:
    """A side's off-board artillery (R9.1, R9.3).

    Attributes:
        missions: missions for the whole game.
        per_turn: missions it may call in one turn (default 1).
        hit_on: the accuracy d6 result needed (default from the effects data: German 3,
            Soviet 4).
        weapon: the profile fired.
    """

    missions: int
    weapon: ArtilleryWeapon
    per_turn: int = 1
    hit_on: int | None = None


@dataclass(frozen=True)
class StartingUnit:
    """A unit in play at the start (R10.2; not part of the Reserves deck).

    Attributes:
        card: unit card id.
        hex: its hex (``None`` for an aircraft aloft).
        crew: the crew card id it requires, if any.
    """

    card: str
    hex: Hex | None
    crew: str | None = None


@dataclass(frozen=True)
class SideSetup:
    """One side's setup.

    Attributes:
        side: ``"german"`` or ``"soviet"``.
        deploy: the deploy zone's hexes (R5.2), in file order without repeats.
        reserves: a fixed Reserves deck (card ids, repeats allowed), or empty with ``budget``.
        budget: build the Reserves deck at random from ``pool`` up to this many points
            (80..100, 000 Standard Game Setup) when ``reserves`` is empty.
        pool: card ids a budget deck draws from (default: every card of the side).
        hand: starting hand card ids (from the deck); empty = players choose (ChooseHand).
        hand_size: unit cards in the starting hand (000: 4).
        command_cards: Command cards dealt at the start (000: 3).
        units: fixed starting units.
        artillery: off-board artillery, if any.
        initiative: modifier added to this side's initiative rolls (R5.1c).
        max_copies: a ``budget`` deck drawn from ``pool`` holds at most this many copies of
            one unit card (R10.4; 0: no limit).
    """

    side: str
    deploy: tuple[Hex, ...]
    reserves: tuple[str, ...] = ()
    budget: int | None = None
    pool: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    hand_size: int = 4
    command_cards: int = 3
    units: tuple[StartingUnit, ...] = ()
    artillery: ArtillerySetup | None = None
    initiative: int = 0
    max_copies: int = 0


@dataclass(frozen=True)
class Objective:
    """An objective hex (R10.2): held by the side whose ground unit entered it last.

    Attributes:
        hex: the hex.
        name: display name.
        points: points it adds to its holder's score in the turn-limit comparison.
        holder: who holds it at the start (``None``: nobody).
    """

    hex: Hex
    name: str = ""
    points: int = 0
    holder: str | None = None


@dataclass(frozen=True)
class HoldVictory:
    """R10.2: ``side`` wins at the End Turn of ``turn`` if it then holds every objective."""

    side: str
    turn: int


@dataclass(frozen=True)
class Battlefield:
    """Battlefield state a scenario places on its map at the start (R8.1, R8.3, R8.4, R10.3).

    Attributes:
        fires: building hexes burning at the start (R8.4; their fire has burned 0 turns).
        rubble: building hexes already reduced to rubble (R8.3).
        wrecks: ``(hex, wreck counter id)`` pairs, bottom of each stack first (R8.1;
            ids from ``hexwar/data/wrecks.toml``).
        mines: minefield hexes (R10.5, :mod:`hexwar.game.special`).
        crossings: water hexes foot units may cross by boat or over the ice (R10.8).
    """

    fires: tuple[Hex, ...] = ()
    rubble: tuple[Hex, ...] = ()
    wrecks: tuple[tuple[Hex, str], ...] = ()
    mines: frozenset[Hex] = frozenset()
    crossings: tuple[Hex, ...] = ()

    def __bool__(self) -> bool:
        """True when anything is placed on the map (mines and crossings are rules, not overlays)."""
        return bool(self.fires or self.rubble or self.wrecks)


def apply_battlefield(battlemap: BattleMap, bf: Battlefield) -> list[tuple[str, str]]:
    """Place ``bf`` on ``battlemap`` in place (R10.3): rubble first, then fires, then wrecks,
    each through the :class:`~hexwar.model.maps.BattleMap` API, which refuses fire or rubble
    where no building stands and unknown wreck ids. The one code path: the scenario loader
    applies it to a copy of the map file's map, which every game, render and replay then copies.

    Args:
        battlemap: the map (changed in place).
        bf: what to place.

    Returns:
        ``(field path, message)`` for every placement refused (empty when all fit), e.g.
        ``("battlefield.fires[1]", "hex J12: fire needs an intact building, found Open")``.
    """
    problems: list[tuple[str, str]] = []
    for i, h in enumerate(bf.rubble):
        try:
            battlemap.set_rubble(h, True)
        except MapError as exc:
            problems.append((f"battlefield.rubble[{i}]", str(exc)))
    for i, h in enumerate(bf.fires):
        try:
            battlemap.set_fire(h, True)
        except MapError as exc:
            problems.append((f"battlefield.fires[{i}]", str(exc)))
    seen: dict[Hex, int] = {}
    for h, w in bf.wrecks:
        k = seen.get(h, 0)
        seen[h] = k + 1
        try:
            battlemap.add_wreck(h, w)
        except MapError as exc:
            problems.append((f"battlefield.wrecks.{h.label}[{k}]", str(exc)))
    return problems


@dataclass(frozen=True)
class Scenario:
    """A loaded, validated scenario: definitions only (DESIGN), shared by every game of it.

    Attributes:
        id: short identifier.
        name: display name.
        description: free text for players (never interpreted).
        path: the scenario file (``None`` when built in memory).
        map_path: the resolved map file.
        battlemap: the map as loaded (games copy it).
        seed: default seed.
        turns: turn limit (0: none).
        victory_points: points that win at once (R10.1; 51 by default).
        overrun: the Overrun condition applies (R10.1).
        guns_move: guns may move (R5.3: only when a scenario says so).
        variants: rule variants (R11.3).
        events: Event card ids shuffled into the Command deck.
        sides: per-side setup.
        objectives: objective hexes.
        hold: optional objective-holding victory.
        areas: named hex groups of the ``[areas]`` table (:mod:`hexwar.game.areas`).
        content_hash: SHA-256 over the scenario text and the map's content hash.
        reference: the name the scenario was given by (its file's stem).
        override_reserves: fixed Reserves decks may lie outside 000's 80-100 points.
        map_spec: ``"generated:SEED:STYLE:WxH"`` when the scenario is played on a generated map
            or ``"file:NAME.json"`` (a map file) instead of its own
            (:func:`hexwar.game.onmap.scenario_on_map`), else ``""``.
        battlefield: the fires, rubble and wrecks the scenario placed (already on
            :attr:`battlemap`, R10.3), its minefields and river crossings (R10.5, R10.8).
        night: night turns (R10.6).
        ground: ``"dry"``, ``"snow"`` or ``"mud"`` (R10.7).
    """

    id: str
    name: str
    battlemap: BattleMap
    sides: dict[str, SideSetup]
    description: str = ""
    path: Path | None = None
    map_path: Path | None = None
    seed: int = 0
    turns: int = 0
    victory_points: int = 51
    overrun: bool = True
    guns_move: bool = False
    variants: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    objectives: tuple[Objective, ...] = ()
    hold: HoldVictory | None = None
    areas: dict[str, tuple[Hex, ...]] = field(default_factory=dict)
    content_hash: str = ""
    reference: str = field(default="", compare=False)
    override_reserves: bool = False
    map_spec: str = field(default="", compare=False)
    battlefield: Battlefield = field(default_factory=Battlefield)
    night: tuple[int, ...] = ()
    ground: str = "dry"

    def new_game(self, seed: int | None = None, variants: tuple[str, ...] | None = None) -> GameState:
        """Start a game of this scenario (see :func:`hexwar.game.setup.new_game`)."""
        from .setup import new_game

        return new_game(self, seed=seed, variants=variants)


# -- loading -------------------------------------------------------------------------------
def find_scenario(name: str) -> Path:
    """Resolve a scenario path or a shipped scenario name (``"skirmish"``).

    Raises:
        HexwarError: when nothing by that name exists.
    """
    p = find_content("scenarios", name)
    if p is None:
        raise HexwarError(
            f"scenario {clip(name)} not found: give a path to a .toml file or a shipped scenario name"
        )
    return p


def _resolve_map(value: str, scenario_path: Path | None, bad: Any) -> Path | None:
    """Resolve the ``map`` field; report escapes and missing files through ``bad``."""
    if not isinstance(value, str) or not value.strip():
        bad("scenario.map", "expected a shipped map name or a path relative to the scenario file")
        return None
    allowed: list[Path] = []
    try:
        allowed.append(content_dir("maps").resolve())
    except FileNotFoundError:
        pass
    base = scenario_path.parent.resolve() if scenario_path is not None else Path.cwd().resolve()
    allowed.append(base)
    is_bare = "/" not in value and "\\" not in value and not value.endswith(".json")
    if is_bare:
        cands = [a / f"{value}.json" for a in allowed] + [base / value]
    else:
        if os.path.isabs(value):
            cands = [Path(value)]
        else:
            cands = [base / value]
    for c in cands:
        r = c.resolve()
        inside = any(r == a or a in r.parents for a in allowed)
        if not inside:
            bad(
                "scenario.map",
                f"{clip(value)} resolves to {r}, outside the project's maps/ folder and the scenario's folder",
            )
            return None
        if r.is_file():
            return r
    where = " or ".join(str(c) for c in cands)
    bad("scenario.map", f"map {clip(value)} not found (looked for {where})")
    return None


def _scenario_hash(text: str, battlemap: BattleMap | None) -> str:
    h = hashlib.sha256(text.encode())
    if battlemap is not None:
        h.update(battlemap.content_hash().encode())
    return h.hexdigest()


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Load and validate a scenario file (or a shipped scenario name).

    Raises:
        ValidationError: listing every problem (file, field path or hex label, expectation).
        HexwarError: when a bare name matches no shipped scenario.
    """
    p = Path(path)
    if not p.exists() and "/" not in str(path) and not str(path).endswith(".toml"):
        p = find_scenario(str(path))
    recover_group(p)  # finish an interrupted paired save (the editor's map + scenario) first
    text = read_text(p, kind="hexwar-scenario")
    # a shipped scenario's validated document (issue 35): no TOML to parse, no model to build
    doc = compiled_docs.lookup(text, ("scenario",))
    if doc is not None:
        return build_scenario({}, text, p, compiled=doc)
    doc = compiled_docs.lookup(text, ("lines-scenario",))
    if doc is not None:
        return build_scenario({"mode": "lines"}, text, p, compiled=doc)
    return build_scenario(loads_toml(text, str(p)), text, p)


def validate_scenario_file(path: str) -> None:
    """Validate a scenario file; registered in :data:`hexwar.validate.VALIDATORS`.

    Raises:
        ValidationError: listing every problem found (the same checks as ``play``).
    """
    load_scenario(path)


def parse_scenario(text: str, path: Path | None = None) -> Scenario:
    """Parse and validate scenario TOML ``text`` (its map is loaded too).

    Args:
        text: the TOML text.
        path: the file it came from (map paths are resolved relative to it).

    Raises:
        ValidationError: listing every problem.
    """
    return build_scenario(loads_toml(text, str(path) if path is not None else "<memory>"), text, path)


def loads_toml(text: str, src: str) -> dict[str, Any]:
    """Parse scenario TOML ``text`` (never executed).

    Raises:
        ValidationError: naming ``src`` and the TOML syntax error.
    """
    return _loads_toml(text, src)  # the one TOML reader: dates and times refused (issue 33)


def build_scenario(
    data: dict[str, Any],
    text: str,
    path: Path | None = None,
    battlemap: BattleMap | None = None,
    map_path: Path | None = None,
    compiled: Any = None,
) -> Scenario:
    """Validate parsed scenario ``data`` (the TOML ``text`` it came from) and build the
    :class:`Scenario`; then set a game of it up (:func:`check_setup`), so whatever passes here
    also starts (issue 13 item 1). The one validator: :func:`load_scenario`,
    :func:`parse_scenario` and :meth:`hexwar.game.scenario_file.ScenarioFile.validate` call it.

    The shape of the file (fields, types, ranges, hex label spelling) is the typed model's
    (:class:`hexwar.formats.scenario_file.ScenarioFile`, issue 34); what needs the cards and the
    map (cards, hexes on the map, decks, stacking, R5, R10) is checked after it, by
    :class:`~hexwar.game.scenario_checks.ScenarioChecks`, which skips what the model refused.

    Args:
        data: the parsed TOML.
        text: its text (hashed into :attr:`Scenario.content_hash`).
        path: the file (map paths resolve relative to it; problems name it).
        battlemap: check against this map instead of loading ``scenario.map`` (the editor's
            unsaved map); ``map_path`` is where it will be saved.
        compiled: the validated document of ``text`` from its compiled form
            (:func:`hexwar.model.compiled_docs.lookup`, issue 35), read instead of ``data``
            (``{}``, or ``{"mode": "lines"}``); the semantic checks still run on it.

    Raises:
        ValidationError: listing every problem (file, field path, what was expected).
    """
    # Issue 35: a load builds some 10,000 objects that live as long as the game (the map, the
    # cards, the set-up game, the modules imported on first use) and next to no garbage; the
    # cyclic collector, paused meanwhile, would only walk them again and again (about 0.02 s of
    # a 0.3 s start). Restored as it was, whatever happens; reference counting frees as usual.
    was_on = gc.isenabled()
    gc.disable()
    try:
        return _build_scenario(data, text, path, battlemap, map_path, compiled)
    finally:
        if was_on:
            gc.enable()


def _build_scenario(
    data: dict[str, Any],
    text: str,
    path: Path | None,
    battlemap: BattleMap | None,
    map_path: Path | None,
    compiled: Any = None,
) -> Scenario:
    """:func:`build_scenario`'s work, with the collector paused."""
    src = str(path) if path is not None else "<memory>"
    # R11.1: a scenario of another game mode is built by that mode (mode = "lines", hexwar.game.modes)
    mode = data.get("mode", "hex")
    if mode != "hex":
        if mode not in MODES:
            raise ValidationError(
                [Problem(src, "mode", f"expected one of {list(known_modes())}, got {clip(mode)}")]
            )
        hook = mode_hook(mode, "parse_scenario")
        if compiled is not None:
            return hook(data, text, path, compiled=compiled)  # type: ignore[no-any-return]
        return hook(data, text, path)  # type: ignore[no-any-return]
    structural: list[Problem] = []
    if compiled is not None:  # the validated document of these bytes (load_scenario found it)
        read: Lenient[Any] = Lenient(compiled, [], frozenset())
    else:
        data = {k: v for k, v in data.items() if k != "mode"}
        # issue 19: upgrade an older schema_version in memory; then the model (hexwar schema scenario)
        try:
            data, _ = upgrade(data, "scenario", src)
        except ValidationError as exc:
            structural += exc.problems
            data = dict(data, schema_version=SCENARIO_SCHEMA_VERSION)
        read = read_lenient(
            scenario_file.ScenarioFile, data, src
        )  # made and built here (never in a lines game)
    structural += read.problems
    if read.value is None:
        raise ValidationError(structural)
    from .scenario_checks import ScenarioChecks  # below this module: it builds its types

    checks = ScenarioChecks(src, path, read.value, battlemap, map_path)
    built = checks.run()
    problems = merge_problems(structural, read.semantic(checks.problems))
    if problems or built is None:
        raise ValidationError(problems)
    scenario = replace(built, content_hash=_scenario_hash(text, built.battlemap))
    problems = check_setup(scenario)
    if problems:
        raise ValidationError(problems)
    return scenario


def check_setup(scenario: Scenario) -> list[Problem]:
    """Set a game of ``scenario`` up with its default seed - the code every ``play``, ``render``
    and replay runs - and report what stops it (issue 13 item 1: *validate ok* implies *the
    game starts*). Problems name the scenario file and, where setup knows it, the field.

    Returns:
        the problems (empty when a game starts).
    """
    from .setup import SetupError

    src = str(scenario.path) if scenario.path is not None else "<memory>"
    try:
        scenario.new_game()
    except SetupError as exc:
        return [Problem(src, exc.where, f"setting up a game fails: {exc}")]
    except HexwarError as exc:
        return [Problem(src, "", f"setting up a game fails: {clip(str(exc), 300, quote=False)}")]
    except Exception as exc:  # an engine defect must still not let a broken scenario pass
        return [
            Problem(
                src, "", f"setting up a game fails ({type(exc).__name__}: {clip(str(exc), 200, quote=False)})"
            )
        ]
    return []
