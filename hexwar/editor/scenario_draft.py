"""The scenario as the editor edits it: an immutable draft that reads and writes the scenario TOML
of :mod:`hexwar.game.scenario` (``docs/scenarios-format.md``).

The editor changes deploy zones per side (R5.2), objective hexes (R10.2), fixed starting units
(R10.2), the turn limit, the victory points target (R10.1), off-board artillery missions (R9.1,
R9.3), Event cards (R4.3) and rule variants (R11.3). Everything else in the file (Reserves decks,
budgets, pools, hands, the victory/hold table ...) is kept as it was read, so opening and saving
a scenario loses nothing.

A :class:`ScenarioDraft` is a frozen value: every edit returns a new draft, so an undo step is
just the pair (before, after) (:class:`~hexwar.editor.commands.ScenarioEdit`).

>>> d = ScenarioDraft.empty(name="Test")
>>> d = d.with_deploy("german", {Hex.from_label("A01"), Hex.from_label("A02"), Hex.from_label("B01")})
>>> zone_specs(d.deploy_of("german"))
['A01:A02', 'B01']
>>> import tomllib
>>> tomllib.loads(d.to_toml())["sides"]["german"]["deploy"]
['A01:A02', 'B01']
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import Problem, ValidationError
from ..fileio import loads_json
from ..game.scenario_file import ScenarioFile
from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap, MapError

__all__ = [
    "SIDES",
    "VARIANTS",
    "ArtilleryDraft",
    "ObjectiveDraft",
    "ScenarioDraft",
    "UnitPlacement",
    "draft_from_map",
    "load_scenario_draft",
    "scenario_files",
    "zone_specs",
]

SIDES = ("german", "soviet")
VARIANTS = ("classic", "burnout", "crews-fight")  # R11.3 named switches ("standard" = none)
MAX_SCENARIO_BYTES = 1024 * 1024
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True, order=True)
class UnitPlacement:
    """A fixed starting unit (R10.2).

    Attributes:
        side: ``"german"`` or ``"soviet"``.
        card: unit card id.
        hex: its hex, or ``None`` for an aircraft aloft.
        crew: crew card id riding with it, if any.
    """

    side: str
    card: str
    hex: Hex | None
    crew: str | None = None


@dataclass(frozen=True)
class ObjectiveDraft:
    """An objective hex (R10.2): ``points`` to its holder at the turn limit."""

    hex: Hex
    name: str = ""
    points: int = 0
    holder: str | None = None


@dataclass(frozen=True)
class ArtilleryDraft:
    """A side's off-board artillery (R9.1, R9.3).

    Attributes:
        missions: missions for the game (0..100).
        per_turn: missions a turn (1..10).
        hit_on: accuracy d6 needed (``None``: the effects data's default per side).
        weapon_json: the weapon table as JSON text (name, attack, damage_index, rate_of_fire).
    """

    missions: int
    weapon_json: str
    per_turn: int = 1
    hit_on: int | None = None

    @property
    def weapon(self) -> dict[str, Any]:
        """The weapon table (a fresh dict)."""
        return dict(json.loads(self.weapon_json))


@dataclass(frozen=True)
class ScenarioDraft:
    """An editable scenario (immutable: the ``with_*`` methods return new drafts).

    Attributes:
        rest_json: the rest of the file's data (every key the editor does not model), as JSON text.
        id, name, description: identity and briefing (text, never interpreted).
        map_ref: the ``scenario.map`` value (shipped map name or a path relative to the file).
        seed: default seed (R1.2).
        turns: turn limit, 0 = none (R10.2).
        victory_points: points that win at once (R10.1).
        variants: rule variants (R11.3).
        events: Event card ids shuffled into the Command deck (R4.3).
        deploy: per side (in :data:`SIDES` order) its deploy-zone hexes (R5.2).
        units: fixed starting units (R10.2), in file order.
        artillery: per side its :class:`ArtilleryDraft` or ``None``.
        objectives: objective hexes (R10.2).
        warnings: what reading the file leniently dropped.
        source_text: the file's text as last read or saved; writing merges the draft into it
            (:class:`hexwar.game.scenario_file.ScenarioFile`), so comments and layout survive.
    """

    rest_json: str = "{}"
    id: str = "untitled"
    name: str = "Untitled scenario"
    description: str = ""
    map_ref: str = ""
    seed: int = 1943
    turns: int = 0
    victory_points: int = 51
    variants: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    deploy: tuple[frozenset[Hex], ...] = (frozenset(), frozenset())
    units: tuple[UnitPlacement, ...] = ()
    artillery: tuple[ArtilleryDraft | None, ...] = (None, None)
    objectives: tuple[ObjectiveDraft, ...] = ()
    warnings: tuple[str, ...] = field(default=(), compare=False)
    source_text: str = field(default="", compare=False, repr=False)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def empty(cls, name: str = "Untitled scenario") -> ScenarioDraft:
        """A new scenario with no Reserves, budget or deploy zones: nothing is defaulted
        silently (issue 23); the editor lists what the game's validator still needs."""
        sid = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip().lower()).strip("-")[:64] or "untitled"
        return cls(rest_json="{}", id=sid, name=name)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ScenarioDraft:
        """Read a parsed scenario TOML document leniently (bad entries become warnings).

        Hex labels that do not parse are dropped with a warning; the game's validator
        (:func:`hexwar.game.scenario.parse_scenario`) judges the saved file.
        """
        from_game = _game_scenario()
        rest = copy.deepcopy(dict(data))
        warnings: list[str] = []
        sc = rest.get("scenario", {}) if isinstance(rest.get("scenario"), dict) else {}
        rest["scenario"] = sc

        def pop(table: dict[str, Any], key: str, default: Any, kind: type | tuple[type, ...]) -> Any:
            v = table.pop(key, default)
            if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
                warnings.append(f"{key}: ignored {v!r}")
                return default
            return v

        kw: dict[str, Any] = {
            "id": pop(sc, "id", "untitled", str),
            "name": pop(sc, "name", "Untitled scenario", str),
            "description": pop(sc, "description", "", str),
            "map_ref": pop(sc, "map", "", str),
            "seed": pop(sc, "seed", 0, int),
            "turns": pop(sc, "turns", 0, int),
            "victory_points": pop(sc, "victory_points", 51, int),
            "variants": tuple(
                v for v in pop(sc, "rules", [], list) if isinstance(v, str) and v != "standard"
            ),
            "events": tuple(e for e in pop(sc, "events", [], list) if isinstance(e, str)),
        }
        sides = rest.get("sides", {}) if isinstance(rest.get("sides"), dict) else {}
        deploy: list[frozenset[Hex]] = []
        units: list[UnitPlacement] = []
        arts: list[ArtilleryDraft | None] = []
        for side in SIDES:
            t = sides.get(side, {}) if isinstance(sides.get(side), dict) else {}
            zone: set[Hex] = set()
            for z in t.pop("deploy", []) if isinstance(t.get("deploy", []), list) else []:
                try:
                    zone.update(from_game.parse_zone(z) if from_game else [Hex.from_label(z)])
                except (HexLabelError, TypeError) as exc:
                    warnings.append(f"sides.{side}.deploy: dropped {z!r} ({exc})")
            deploy.append(frozenset(zone))
            for u in t.pop("units", []) if isinstance(t.get("units", []), list) else []:
                if not isinstance(u, dict) or not isinstance(u.get("card"), str):
                    warnings.append(f"sides.{side}.units: dropped {u!r}")
                    continue
                hx = None
                if isinstance(u.get("hex"), str):
                    try:
                        hx = Hex.from_label(u["hex"])
                    except HexLabelError as exc:
                        warnings.append(f"sides.{side}.units: dropped {u!r} ({exc})")
                        continue
                crew = u.get("crew") if isinstance(u.get("crew"), str) else None
                units.append(UnitPlacement(side, u["card"], hx, crew))
            a = t.pop("artillery", None)
            if isinstance(a, dict) and isinstance(a.get("weapon"), dict):
                arts.append(
                    ArtilleryDraft(
                        missions=int(a.get("missions", 0)) if isinstance(a.get("missions"), int) else 0,
                        weapon_json=json.dumps(a["weapon"], sort_keys=True),
                        per_turn=int(a.get("per_turn", 1)) if isinstance(a.get("per_turn", 1), int) else 1,
                        hit_on=a.get("hit_on") if isinstance(a.get("hit_on"), int) else None,
                    )
                )
            else:
                if a is not None:
                    warnings.append(f"sides.{side}.artillery: dropped {a!r} (no weapon table)")
                arts.append(None)
            if side in sides:
                sides[side] = t
        objectives: list[ObjectiveDraft] = []
        objs = rest.pop("objectives", [])
        for o in objs if isinstance(objs, list) else []:
            try:
                objectives.append(
                    ObjectiveDraft(
                        Hex.from_label(o["hex"]),
                        str(o.get("name", "")),
                        int(o.get("points", 0)),
                        o.get("holder"),
                    )
                )
            except (HexLabelError, KeyError, TypeError, ValueError) as exc:
                warnings.append(f"objectives: dropped {o!r} ({exc})")
        # normalise what to_data() writes back anyway, so from_data(to_data(d)) == d
        rest.pop("format", None)
        rest.pop("schema_version", None)
        if not rest.get("scenario"):
            rest.pop("scenario", None)
        if isinstance(rest.get("sides"), dict):
            rest["sides"] = {k: v for k, v in rest["sides"].items() if v != {}}
            if not rest["sides"]:
                del rest["sides"]
        return cls(
            rest_json=json.dumps(rest, sort_keys=True),
            deploy=tuple(deploy),
            units=tuple(units),
            artillery=tuple(arts),
            objectives=tuple(objectives),
            warnings=tuple(warnings),
            **kw,
        )

    # -- queries -----------------------------------------------------------------------
    @staticmethod
    def side_index(side: str) -> int:
        """Index of ``side`` in :data:`SIDES`. Raises ``MapError`` for another name."""
        if side not in SIDES:
            raise MapError(f"unknown side {side!r}; expected one of {SIDES}")
        return SIDES.index(side)

    def deploy_of(self, side: str) -> frozenset[Hex]:
        """The deploy-zone hexes of ``side`` (R5.2)."""
        return self.deploy[self.side_index(side)]

    def artillery_of(self, side: str) -> ArtilleryDraft | None:
        """The off-board artillery of ``side`` (R9.1), if any."""
        return self.artillery[self.side_index(side)]

    def units_at(self, h: Hex) -> list[UnitPlacement]:
        """Starting units in hex ``h``, in file order."""
        return [u for u in self.units if u.hex == h]

    def objective_at(self, h: Hex) -> ObjectiveDraft | None:
        """The objective in ``h``, if any."""
        for o in self.objectives:
            if o.hex == h:
                return o
        return None

    def hexes(self) -> set[Hex]:
        """Every hex the scenario names (deploy zones, units, objectives)."""
        out: set[Hex] = set()
        for z in self.deploy:
            out |= z
        out |= {u.hex for u in self.units if u.hex is not None}
        out |= {o.hex for o in self.objectives}
        return out

    def check(self, m: BattleMap) -> None:
        """Check what the editor can judge without the card data: hexes on map ``m``, numbers in
        range, deploy zones apart, at most 3 starting units a hex (R5.2).

        Raises:
            MapError: naming the first problem.
        """
        for h in sorted(self.hexes()):
            if not m.in_bounds(h):
                raise MapError(f"hex {m.label(h)} is off the {m.width}x{m.height} map")
        both = self.deploy[0] & self.deploy[1]
        if both:
            raise MapError(f"the deploy zones of both sides would overlap in {m.label(min(both))}")
        if not 0 <= self.turns <= 1000:
            raise MapError(f"turn limit must be 0..1000 (0 = none), got {self.turns}")
        if not 1 <= self.victory_points <= 10_000:
            raise MapError(f"victory points must be 1..10000, got {self.victory_points}")
        for v in self.variants:
            if v not in VARIANTS:
                raise MapError(f"unknown rule variant {v!r}; expected one of {VARIANTS}")
        for a in self.artillery:
            if a is not None:
                if not 0 <= a.missions <= 100:
                    raise MapError(f"artillery missions must be 0..100, got {a.missions}")
                if a.hit_on is not None and not 1 <= a.hit_on <= 7:
                    raise MapError(f"artillery hit number must be 1..7 on the d6, got {a.hit_on}")
                if not 1 <= a.per_turn <= 10:
                    raise MapError(f"artillery missions per turn must be 1..10, got {a.per_turn}")
        stacks: dict[Hex, list[str]] = {}
        for u in self.units:
            if u.side not in SIDES:
                raise MapError(f"unknown side {u.side!r}")
            if u.hex is not None:
                stacks.setdefault(u.hex, []).append(u.side)
        for h, ss in stacks.items():
            if len(ss) > 3:
                raise MapError(f"hex {m.label(h)}: {len(ss)} starting units; the stacking limit is 3 (R5.2)")
            if len(set(ss)) > 1:
                raise MapError(f"hex {m.label(h)}: starting units of both sides in one hex")
        for o in self.objectives:
            if o.holder is not None and o.holder not in SIDES:
                raise MapError(f"objective {m.label(o.hex)}: holder must be one of {SIDES}")
            if not 0 <= o.points <= 1000:
                raise MapError(f"objective {m.label(o.hex)}: points must be 0..1000")

    # -- edits (each returns a new draft) ---------------------------------------------
    def with_deploy(self, side: str, hexes: Iterable[Hex]) -> ScenarioDraft:
        """``side``'s deploy zone replaced by ``hexes``."""
        i = self.side_index(side)
        d = list(self.deploy)
        d[i] = frozenset(hexes)
        return replace(self, deploy=tuple(d))

    def with_units(self, units: Iterable[UnitPlacement]) -> ScenarioDraft:
        """The starting units replaced by ``units``."""
        return replace(self, units=tuple(units))

    def with_objectives(self, objectives: Iterable[ObjectiveDraft]) -> ScenarioDraft:
        """The objectives replaced by ``objectives`` (one per hex; later ones win)."""
        by_hex: dict[Hex, ObjectiveDraft] = {}
        for o in objectives:
            by_hex[o.hex] = o
        return replace(self, objectives=tuple(by_hex.values()))

    def with_artillery(self, side: str, art: ArtilleryDraft | None) -> ScenarioDraft:
        """``side``'s artillery replaced by ``art`` (``None``: no artillery)."""
        i = self.side_index(side)
        a = list(self.artillery)
        a[i] = art
        return replace(self, artillery=tuple(a))

    def with_settings(self, **kw: Any) -> ScenarioDraft:
        """Settings replaced: ``turns``, ``victory_points``, ``variants``, ``events``, ``name``,
        ``id``, ``description``, ``seed``, ``map_ref``.

        Raises:
            MapError: for another field name.
        """
        allowed = {
            "turns",
            "victory_points",
            "variants",
            "events",
            "name",
            "id",
            "description",
            "seed",
            "map_ref",
        }
        for k in kw:
            if k not in allowed:
                raise MapError(f"unknown scenario setting {k!r}; expected one of {sorted(allowed)}")
        for k in ("variants", "events"):
            if k in kw:
                kw[k] = tuple(kw[k])
        return replace(self, **kw)

    def rest_value(self, *path: str) -> Any:
        """The value at ``path`` of the fields the draft keeps as read (``("sides", "german",
        "budget")``, ``("areas",)``), or ``None`` when it is not there."""
        v: Any = json.loads(self.rest_json)
        for k in path:
            if not isinstance(v, dict) or k not in v:
                return None
            v = v[k]
        return v

    def with_rest(self, path: Sequence[str], value: Any) -> ScenarioDraft:
        """The draft with the kept field at ``path`` set to ``value`` (``None`` removes it,
        and tables left empty go too): a side's ``budget``, ``reserves``, ``hand``,
        ``hand_size``, the ``[areas]`` table (R5.2, R10.2; docs/scenarios-format.md).

        Raises:
            MapError: for an empty path.
        """
        if not path:
            raise MapError("with_rest needs a field path")
        data: dict[str, Any] = json.loads(self.rest_json)
        tables = [data]
        for k in path[:-1]:
            nxt = tables[-1].get(k)
            if not isinstance(nxt, dict):
                nxt = {}
                tables[-1][k] = nxt
            tables.append(nxt)
        if value is None:
            tables[-1].pop(path[-1], None)
        else:
            tables[-1][path[-1]] = copy.deepcopy(value)
        for i in range(len(path) - 1, 0, -1):  # drop tables the removal emptied
            if not tables[i]:
                tables[i - 1].pop(path[i - 1], None)
        return replace(self, rest_json=json.dumps(data, sort_keys=True))

    def areas(self) -> dict[str, list[str]]:
        """The ``[areas]`` table: area name -> hex labels and ranges, as written."""
        a = self.rest_value("areas")
        return (
            {str(k): [str(x) for x in v] for k, v in a.items() if isinstance(v, list)}
            if isinstance(a, dict)
            else {}
        )

    def translated(self, t: Hex, m: BattleMap) -> ScenarioDraft:
        """Every hex moved by ``t`` (a map resize); hexes then off map ``m`` are dropped."""

        def mv(h: Hex) -> Hex:
            return h + t

        deploy = tuple(frozenset(mv(h) for h in z if m.in_bounds(mv(h))) for z in self.deploy)
        units = tuple(
            replace(u, hex=None if u.hex is None else mv(u.hex))
            for u in self.units
            if u.hex is None or m.in_bounds(mv(u.hex))
        )
        objs = tuple(replace(o, hex=mv(o.hex)) for o in self.objectives if m.in_bounds(mv(o.hex)))
        return replace(self, deploy=deploy, units=units, objectives=objs)

    # -- files ---------------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """The scenario as TOML-ready data (rest of the file merged back)."""
        data: dict[str, Any] = json.loads(self.rest_json)
        out: dict[str, Any] = {"format": "hexwar-scenario", "schema_version": 1}
        sc = dict(data.pop("scenario", {}) or {})
        data.pop("format", None)
        data.pop("schema_version", None)
        head: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.description:
            head["description"] = self.description
        head["map"] = self.map_ref
        head["seed"] = self.seed
        head["turns"] = self.turns
        head["victory_points"] = self.victory_points
        head["rules"] = list(self.variants)
        head["events"] = list(self.events)
        head.update(sc)
        out["scenario"] = head
        sides_rest = data.pop("sides", {}) or {}
        sides: dict[str, Any] = {}
        for i, side in enumerate(SIDES):
            t: dict[str, Any] = {"deploy": zone_specs(self.deploy[i])}
            t.update(sides_rest.get(side, {}))
            us = []
            for u in self.units:
                if u.side != side:
                    continue
                e: dict[str, Any] = {"card": u.card}
                if u.hex is not None:
                    e["hex"] = u.hex.to_label(3 if u.hex.offset[1] >= 99 else 2)
                if u.crew:
                    e["crew"] = u.crew
                us.append(e)
            if us:
                t["units"] = us
            a = self.artillery[i]
            if a is not None:
                at: dict[str, Any] = {"missions": a.missions}
                if a.per_turn != 1:
                    at["per_turn"] = a.per_turn
                if a.hit_on is not None:
                    at["hit_on"] = a.hit_on
                at["weapon"] = a.weapon
                t["artillery"] = at
            sides[side] = t
        out["sides"] = sides
        if self.objectives:
            objs = []
            for o in self.objectives:
                e = {"hex": o.hex.label}
                if o.name:
                    e["name"] = o.name
                e["points"] = o.points
                if o.holder:
                    e["holder"] = o.holder
                objs.append(e)
            out["objectives"] = objs
        out.update(data)
        return out

    def to_file(self, path: Path | None = None) -> ScenarioFile:
        """The scenario document: this draft merged into :attr:`source_text` (comments kept).

        Raises:
            ValidationError: when a value cannot be written as TOML.
        """
        return ScenarioFile.from_dict(self.to_data(), path, base_text=self.source_text)

    def to_toml(self) -> str:
        """The scenario file's text (written with tomlkit over :attr:`source_text`)."""
        return self.to_file().to_text()

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form for the recovery file (lossless, see :meth:`from_json`)."""
        return {"data": self.to_data(), "source_text": self.source_text}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ScenarioDraft:
        """Inverse of :meth:`to_json`."""
        d = cls.from_data(obj["data"])
        src = obj.get("source_text", "")
        return replace(d, source_text=src) if isinstance(src, str) else d


def zone_specs(hexes: Iterable[Hex]) -> list[str]:
    """Compact deploy-zone entries: offset rectangles ``"A01:C05"`` and single labels ``"D07"``.

    Each column's hexes are split into runs of rows; equal runs in neighbouring columns merge
    into one rectangle (``hexwar.game.scenario.parse_zone`` reads them back).

    >>> zone_specs([Hex.from_label(x) for x in ("B02", "B03", "C02", "C03", "E09")])
    ['B02:C03', 'E09']
    """
    cols: dict[int, list[int]] = {}
    digits = 2
    for h in hexes:
        c, r = h.offset
        cols.setdefault(c, []).append(r)
        if r >= 99:
            digits = 3
    runs: list[tuple[int, int, int]] = []  # (col, r0, r1)
    for c in sorted(cols):
        rows = sorted(set(cols[c]))
        start = prev = rows[0]
        for r in rows[1:]:
            if r != prev + 1:
                runs.append((c, start, prev))
                start = r
            prev = r
        runs.append((c, start, prev))
    open_rects: dict[tuple[int, int], list[int]] = {}  # (r0, r1) -> [c0, c1]
    done: list[tuple[int, int, int, int]] = []
    for c, r0, r1 in runs:
        key = (r0, r1)
        if key in open_rects and open_rects[key][1] == c - 1:
            open_rects[key][1] = c
        else:
            if key in open_rects:
                c0, c1 = open_rects[key]
                done.append((c0, r0, c1, r1))
            open_rects[key] = [c, c]
    for (r0, r1), (c0, c1) in open_rects.items():
        done.append((c0, r0, c1, r1))
    out = []
    for c0, r0, c1, r1 in sorted(done):
        a = Hex.from_offset(c0, r0).to_label(digits)
        if (c0, r0) == (c1, r1):
            out.append(a)
        else:
            out.append(f"{a}:{Hex.from_offset(c1, r1).to_label(digits)}")
    return out


# ---------------------------------------------------------------------------------------------
# Loading and saving with the map
# ---------------------------------------------------------------------------------------------


def _game_scenario() -> Any:
    try:
        from ..game import scenario as gs
    except ImportError:  # pragma: no cover - the game layer is always shipped
        return None
    return gs


def resolve_map_ref(value: str, scenario_path: Path) -> Path:
    """The map file a scenario's ``map`` field names, by the game's own rules
    (shipped map name, or a path relative to the scenario that stays in maps/ or its folder).

    Raises:
        ValidationError: naming the problem.
    """
    gs = _game_scenario()
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(str(scenario_path), where, msg))

    p = gs._resolve_map(value, scenario_path, bad) if gs is not None else None
    if p is None:
        raise ValidationError(
            problems or [Problem(str(scenario_path), "scenario.map", "cannot resolve the map")]
        )
    return Path(p)


def load_scenario_draft(path: str | os.PathLike[str]) -> tuple[ScenarioDraft, BattleMap]:
    """Open a scenario file for editing: its draft and its map.

    Lenient where the editor can repair things (bad hex labels become warnings), strict where
    it cannot (bad TOML, a missing or broken map).

    Raises:
        ValidationError: naming the file and the problem.
    """
    p = Path(path)
    sf = ScenarioFile.load(p)
    draft = replace(ScenarioDraft.from_data(sf.data), source_text=sf.to_text())
    if not draft.map_ref:
        raise ValidationError(
            [Problem(str(p), "scenario.map", "missing: the editor needs the scenario's map")]
        )
    m = BattleMap.load(resolve_map_ref(draft.map_ref, p))
    return draft, m


STANDARD_BUDGET = 100  #: a new scenario on a map draws each side's Reserves to 100 points (000)


def draft_from_map(m: BattleMap, map_ref: str = "", name: str = "") -> tuple[ScenarioDraft, list[str]]:
    """A scenario draft on ``m`` from its markers: "New scenario on this map" (issue 32).

    The deploy zones are the map's deploy-zone markers (R5.2), the objectives its objective
    markers (R10.2). Like the standard game (000, R10.1) each side's Reserves deck is drawn to
    100 points from all its cards, 51 victory points win and the game lasts 20 turns; these
    defaults are said in the returned notes, not set silently.

    Args:
        m: the map; map_ref: the ``scenario.map`` value (a file name beside the scenario, or
            ``""`` for ``<stem>.map.json`` at the first save); name: the scenario's name
            (default: the map's).

    Returns:
        ``(draft, notes)``: notes name what the map is missing (a side without deploy
        markers, no objective markers) and the defaults taken.
    """
    title = name or f"{m.name}: new scenario"
    d = ScenarioDraft.empty(name=title)
    rest = {"sides": {s: {"budget": STANDARD_BUDGET} for s in SIDES}}
    d = replace(d, rest_json=json.dumps(rest), map_ref=map_ref, turns=20, victory_points=51)
    notes = []
    for side in SIDES:
        zone = m.deploy.get(side, ())
        if zone:
            d = d.with_deploy(side, zone)
        else:
            notes.append(
                f"the map has no {side} deploy markers: paint the {side} deploy zone (Deploy tool) "
                "before saving"
            )
    if m.objectives:
        d = d.with_objectives(ObjectiveDraft(o.hex, o.name, o.points) for o in m.objectives)
    else:
        notes.append(
            "the map has no objective markers: the scenario has no objectives (Objective tool adds them)"
        )
    notes.append(
        f"Reserves: each side draws {STANDARD_BUDGET} points from all its cards, 51 victory points, "
        "20 turns, as the standard game (change them in the Scenario tab)"
    )
    return d, notes


def default_map_ref(scenario_path: Path) -> str:
    """Map file name for a new scenario saved as ``scenario_path``: ``<stem>.map.json`` beside it."""
    return f"{scenario_path.stem}.map.json"


def scenario_files(draft: ScenarioDraft, m: BattleMap, scenario_path: Path) -> list[tuple[Path, str]]:
    """The files a scenario save writes: the map (first, when it changed), then the scenario TOML.

    A draft with no map yet gets ``<stem>.map.json`` beside the scenario. The scenario is
    validated in memory against the editor's map by the game's own validator
    (:meth:`hexwar.game.scenario_file.ScenarioFile.validate`, the checks ``hexwar validate``
    and ``hexwar play`` run, game setup included) before anything is written.

    Raises:
        ValidationError: every problem the game's validator finds (nothing is written).
        HexwarError: when the map reference cannot be resolved.
    """
    ref = draft.map_ref or default_map_ref(scenario_path)
    if not draft.map_ref:
        draft = draft.with_settings(map_ref=ref)
    try:
        map_path = resolve_map_ref(ref, scenario_path)
    except ValidationError:
        bare = "/" not in ref and "\\" not in ref
        cand = scenario_path.parent / (ref if ref.endswith(".json") or not bare else f"{ref}.json")
        if cand.exists():
            raise
        map_path = cand  # a new map file beside the scenario
    map_text = m.to_text()
    sf = draft.to_file(scenario_path)
    sf.validate(
        battlemap=BattleMap.from_json(loads_json(map_text, str(map_path)), str(map_path)), map_path=map_path
    )
    out: list[tuple[Path, str]] = []
    try:
        if map_path.read_text(encoding="utf-8") != map_text:
            out.append((map_path, map_text))
    except OSError:
        out.append((map_path, map_text))
    out.append((scenario_path, sf.to_text()))
    return out
