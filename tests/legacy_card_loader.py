"""The card loader before issue 34 (hexwar/rules/cards/loader.py and reader.py at 83fb709), kept as
a frozen test oracle for tests/test_card_model_equivalence.py. Not used by hexwar."""

# ruff: noqa
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hexwar.errors import Problem, ValidationError
from hexwar.fileio import read_toml
from hexwar.model.terrain import MOBILITY_CLASSES
from hexwar.rules.cards.cardset import CardSet
from hexwar.rules.cards.definitions import (
    _EFFECT_SPECS,
    CARD_FILES,
    CREW_REQUIREMENTS,
    CREW_TYPES,
    DURATIONS,
    FORMAT,
    LINES,
    PHASES,
    QUALITIES,
    SCHEMA_VERSION,
    SIDE_PREFIX,
    SIDES,
    TARGET_TYPES,
    UNIT_TYPES,
    WEAPON_FLAGS,
    CombatRules,
    CommandCard,
    CrewQuality,
    DamageCard,
    DamageSide,
    Effect,
    EffectKind,
    EventCard,
    UnitCard,
    Weapon,
)


def _cards():
    from hexwar.rules.cards.loader import default_cards

    return default_cards()


class _Reader:
    """Typed field access on parsed TOML that records problems instead of raising."""

    def __init__(self, src: str, problems: list[Problem]):
        self.src = src
        self.problems = problems

    def bad(self, where: str, msg: str) -> None:
        self.problems.append(Problem(self.src, where, msg))

    def table(self, d: Any, where: str) -> dict[str, Any]:
        if not isinstance(d, dict):
            self.bad(where, "expected a table")
            return {}
        return d

    def int_(
        self, d: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int | None = None
    ) -> int:
        v = d.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {v!r}")
            return lo if default is None else default
        if not lo <= v <= hi:
            self.bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {v}")
        return v

    def str_(
        self,
        d: dict[str, Any],
        key: str,
        where: str,
        choices: Sequence[str] | None = None,
        default: str | None = None,
    ) -> str:
        v = d.get(key, default)
        if not isinstance(v, str) or not v.strip():
            self.bad(
                f"{where}.{key}",
                f"expected a text{'' if choices is None else f' in {tuple(choices)}'}, got {v!r}",
            )
            return default or (choices[0] if choices else "")
        if choices is not None and v not in choices:
            self.bad(f"{where}.{key}", f"expected one of {tuple(choices)}, got {v!r}")
        return v

    def bool_(self, d: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
        v = d.get(key, default)
        if not isinstance(v, bool):
            self.bad(f"{where}.{key}", f"expected true or false, got {v!r}")
            return default
        return v

    def unknown(self, d: dict[str, Any], allowed: Iterable[str], where: str) -> None:
        extra = sorted(set(d) - set(allowed))
        for k in extra:
            self.bad(f"{where}.{k}", f"unknown field; expected one of {sorted(allowed)}")

    def effects(self, raw: Any, where: str, context: str) -> tuple[Effect, ...]:
        if not isinstance(raw, list) or not raw:
            self.bad(where, 'expected a non-empty list of effects like { kind = "defense", value = 1 }')
            return ()
        out: list[Effect] = []
        for i, e in enumerate(raw):
            w = f"{where}[{i}]"
            if not isinstance(e, dict):
                self.bad(w, "expected an inline table { kind = ..., value = ... }")
                continue
            self.unknown(e, ("kind", "value", "mobility", "side", "unit_types"), w)
            kind_s = e.get("kind")
            try:
                kind = EffectKind(str(kind_s))
            except ValueError:
                self.bad(
                    f"{w}.kind",
                    f"unknown effect kind {kind_s!r}; expected one of {[k.value for k in EffectKind]}",
                )
                continue
            rule, contexts, _ = _EFFECT_SPECS[kind]
            if context not in contexts:
                self.bad(
                    f"{w}.kind",
                    f"{kind.value!r} is not allowed on {context} cards (allowed on: {sorted(contexts)})",
                )
            value = 0
            if rule == "none":
                if "value" in e:
                    self.bad(f"{w}.value", f"{kind.value!r} takes no value")
            else:
                v = e.get("value")
                if isinstance(v, bool) or not isinstance(v, int) or v == 0 or (rule == "positive" and v < 1):
                    self.bad(
                        f"{w}.value",
                        f"{kind.value!r} needs "
                        f"{'a positive integer' if rule == 'positive' else 'a non-zero integer'}, got {v!r}",
                    )
                else:
                    value = v
                    if abs(v) > 10:
                        self.bad(f"{w}.value", f"{v} is out of range -10..10")
            if kind == EffectKind.EXTRA_DAMAGE and value > 2:
                self.bad(f"{w}.value", "extra_damage is 1 or 2 d10")
            mobility = e.get("mobility")
            if kind == EffectKind.MOVE_COST:
                if mobility not in MOBILITY_CLASSES:
                    self.bad(f"{w}.mobility", f"expected one of {MOBILITY_CLASSES}, got {mobility!r}")
            elif mobility is not None:
                self.bad(f"{w}.mobility", "only move_cost effects name a mobility class")
            side = e.get("side")
            if side is not None and (context != "event" or side not in SIDES):
                self.bad(f"{w}.side", f"a side ({SIDES}) may only be named on Event effects")
                side = None
            uts = e.get("unit_types", [])
            if not isinstance(uts, list) or any(u not in UNIT_TYPES for u in uts):
                self.bad(f"{w}.unit_types", f"expected a list of {UNIT_TYPES}")
                uts = []
            elif uts and context == "damage":
                self.bad(f"{w}.unit_types", "Damage card edges already name their unit type")
            out.append(Effect(kind, value, mobility if isinstance(mobility, str) else None, side, tuple(uts)))
        return tuple(out)


def _check_header(data: dict[str, Any], r: _Reader, kind: str | None = None) -> str:
    fmt = data.get("format")
    if fmt != FORMAT:
        r.bad("format", f"expected {FORMAT!r}, got {fmt!r}")
    sv = data.get("schema_version")
    if sv != SCHEMA_VERSION:
        r.bad("schema_version", f"expected {SCHEMA_VERSION}, got {sv!r}")
    k = data.get("kind")
    if k not in CARD_FILES:
        r.bad("kind", f"expected one of {CARD_FILES}, got {k!r}")
        return ""
    if kind is not None and k != kind:
        r.bad("kind", f"expected {kind!r}, got {k!r}")
    return str(k)


def _parse_weapons(data: dict[str, Any], r: _Reader) -> dict[str, Weapon]:
    out: dict[str, Weapon] = {}
    table = r.table(data.get("weapon"), "weapon")
    for wid, w in table.items():
        where = f"weapon.{wid}"
        if not isinstance(w, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(w, ("name", "attack", "rof", "damage_index", "range", "underscored", "flags"), where)
        att = r.table(w.get("attack"), f"{where}.attack")
        pairs: list[tuple[str, int]] = []
        for t in att:
            if t not in TARGET_TYPES:
                r.bad(f"{where}.attack.{t}", f"unknown target type; expected one of {TARGET_TYPES}")
        for t in TARGET_TYPES:
            if t in att:
                pairs.append((t, r.int_(att, t, f"{where}.attack", 2, 20)))
        if not pairs and isinstance(w.get("attack"), dict):
            r.bad(f"{where}.attack", "expected at least one attack value")
        flags = w.get("flags", [])
        if not isinstance(flags, list) or any(f not in WEAPON_FLAGS for f in flags):
            r.bad(f"{where}.flags", f"expected a list of {WEAPON_FLAGS}, got {flags!r}")
            flags = []
        out[wid] = Weapon(
            id=wid,
            name=r.str_(w, "name", where),
            attack=tuple(pairs),
            rate_of_fire=r.int_(w, "rof", where, 1, 4, default=1),
            damage_index=r.int_(w, "damage_index", where, 0, 20),
            range=r.int_(w, "range", where, 0, 60),
            underscored=r.bool_(w, "underscored", where),
            bomb="bomb" in flags,
            flamethrower="flamethrower" in flags,
            indirect="indirect" in flags,
        )
    return out


_UNIT_FIELDS = (
    "name",
    "type",
    "crew",
    "defense",
    "endurance",
    "cost",
    "line",
    "movement",
    "mobility",
    "turns_of_flight",
    "weapons",
    "note",
)


def _parse_units(
    data: dict[str, Any], r: _Reader, weapons: Mapping[str, Weapon] | None
) -> dict[str, UnitCard]:
    out: dict[str, UnitCard] = {}
    side = data.get("side")
    if side not in SIDES:
        r.bad("side", f"expected one of {SIDES}, got {side!r}")
        side = "german"
    table = r.table(data.get("unit"), "unit")
    for uid, u in table.items():
        where = f"unit.{uid}"
        if not isinstance(u, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(u, _UNIT_FIELDS, where)
        if not uid.startswith(SIDE_PREFIX[side] + "_"):
            r.bad(where, f"{side} unit ids start with {SIDE_PREFIX[side] + '_'!r}")
        utype = r.str_(u, "type", where, TARGET_TYPES)
        crew = r.str_(u, "crew", where, CREW_REQUIREMENTS, default="none")
        allowed_crew = {
            "infantry": ("none",),
            "gun": ("artillery_crew",),
            "aircraft": ("pilot",),
            "vehicle": ("tank_crew", "artillery_crew", "infantry", "none"),
        }.get(utype, CREW_REQUIREMENTS)
        if crew not in allowed_crew:
            r.bad(f"{where}.crew", f"a {utype} needs crew in {allowed_crew}, got {crew!r}")
        end = r.table(u.get("endurance"), f"{where}.endurance")
        full = r.int_(end, "full", f"{where}.endurance", 2, 40, default=2)
        half = r.int_(end, "half", f"{where}.endurance", 1, 20, default=1)
        if half >= full:
            r.bad(f"{where}.endurance", f"half ({half}) must be below full ({full})")
        line = r.str_(u, "line", where, LINES)
        tof: int | None = None
        if utype == "aircraft":
            if line != "aircraft":
                r.bad(f"{where}.line", 'aircraft have line = "aircraft" (Turns of Flight)')
            tof = r.int_(u, "turns_of_flight", where, 1, 6)
        else:
            if line == "aircraft":
                r.bad(f"{where}.line", 'only aircraft have line = "aircraft"')
            if "turns_of_flight" in u:
                r.bad(f"{where}.turns_of_flight", "only aircraft have Turns of Flight")
        mobility = u.get("mobility")
        movement = r.int_(u, "movement", where, 0, 12, default=0)
        if utype in ("gun", "aircraft"):
            if mobility is not None or movement != 0:
                r.bad(f"{where}.mobility", f"a {utype} has no mobility class and movement 0 (R4.1)")
            mobility = None
        else:
            want = ("foot",) if utype == "infantry" else ("tracked", "wheeled")
            if mobility not in want:
                r.bad(f"{where}.mobility", f"a {utype} moves {' or '.join(want)}, got {mobility!r}")
                mobility = want[0]
            if movement < 1:
                r.bad(f"{where}.movement", "expected at least 1 movement point")
        wids = u.get("weapons")
        ws: list[Weapon] = []
        if not isinstance(wids, list) or not 1 <= len(wids) <= 3:
            r.bad(f"{where}.weapons", "expected a list of 1 to 3 weapon ids")
            wids = []
        for i, wid in enumerate(wids):
            if weapons is None:
                continue
            w = weapons.get(wid) if isinstance(wid, str) else None
            if w is None:
                r.bad(f"{where}.weapons[{i}]", f"unknown weapon {wid!r} (not in weapons.toml)")
                continue
            ws.append(w)
            if w.range == 0 and utype != "aircraft":
                r.bad(f"{where}.weapons[{i}]", f"{wid}: range 0 (unlimited) is for aircraft weapons only")
            if w.bomb and utype != "aircraft":
                r.bad(f"{where}.weapons[{i}]", f"{wid}: only aircraft carry bombs")
            if w.indirect and not (line == "rear" or (line == "frontline_or_rear" and i == 0)):
                r.bad(
                    f"{where}.weapons[{i}]",
                    f"{wid}: indirect weapons belong to rear-line units "
                    "or the 1st weapon of an SPG (R7.2, R7.3)",
                )
            if line == "rear" and not w.indirect and w.attack_value("aircraft") is None:
                r.bad(f"{where}.weapons[{i}]", f"{wid}: a rear-line unit fires indirectly (R7.3)")
        if line == "frontline_or_rear" and ws and not ws[0].indirect:
            r.bad(f"{where}.weapons[0]", "an SPG's 1st weapon is its indirect long-range weapon (R7.2)")
        note = u.get("note", "")
        if not isinstance(note, str):
            r.bad(f"{where}.note", "expected a text")
            note = ""
        out[uid] = UnitCard(
            id=uid,
            name=r.str_(u, "name", where),
            side=str(side),
            unit_type=utype,
            crew=crew,
            defense=r.int_(u, "defense", where, 0, 12),
            endurance_full=full,
            endurance_half=half,
            cost=r.int_(u, "cost", where, 1, 40),
            line=line,
            weapons=tuple(ws),
            movement=movement,
            mobility=mobility if isinstance(mobility, str) else None,
            turns_of_flight=tof,
            note=note,
        )
    return out


def _parse_afoot(
    data: dict[str, Any], r: _Reader, weapons: Mapping[str, Weapon]
) -> tuple[set[tuple[str, str]], int, dict[str, tuple[Weapon, ...]]]:
    """``[fight_as_infantry]`` of crews.toml: the crews (type, quality) that may stay in play and
    fight as infantry when their frontline unit is destroyed (000's optional rule, variant
    ``crews-fight``, R11.3), their movement points and their weapons per side."""
    where = "fight_as_infantry"
    if "fight_as_infantry" not in data:
        return set(), 0, {}
    t = r.table(data.get(where), where)
    r.unknown(t, ("crew_types", "qualities", "movement", "weapons"), where)
    types = t.get("crew_types", [])
    quals = t.get("qualities", [])
    if not isinstance(types, list) or any(x not in CREW_TYPES or x == "pilot" for x in types):
        r.bad(f"{where}.crew_types", "expected a list of ground crew types (tank_crew, artillery_crew)")
        types = []
    if not isinstance(quals, list) or any(x not in QUALITIES for x in quals):
        r.bad(f"{where}.qualities", f"expected a list of qualities from {QUALITIES}")
        quals = []
    movement = r.int_(t, "movement", where, 1, 8, default=3)
    ws = r.table(t.get("weapons"), f"{where}.weapons")
    per_side: dict[str, tuple[Weapon, ...]] = {}
    for side in SIDES:
        ids = ws.get(side)
        if not isinstance(ids, list) or not 1 <= len(ids) <= 2:
            r.bad(f"{where}.weapons.{side}", "expected a list of 1 or 2 weapon ids")
            continue
        got = []
        for i, wid in enumerate(ids):
            w = weapons.get(wid) if isinstance(wid, str) else None
            if w is None:
                r.bad(f"{where}.weapons.{side}[{i}]", f"unknown weapon {wid!r} (not in weapons.toml)")
                continue
            got.append(w)
        per_side[side] = tuple(got)
    return {(ct, q) for ct in types for q in quals}, movement, per_side


def _parse_crews(
    data: dict[str, Any], r: _Reader, weapons: Mapping[str, Weapon] | None = None
) -> tuple[dict[str, CrewQuality], dict[str, UnitCard]]:
    quals: dict[str, CrewQuality] = {}
    qt = r.table(data.get("quality"), "quality")
    for q in QUALITIES:
        if q not in qt:
            r.bad("quality", f"missing quality {q!r}")
    for key, q in qt.items():
        where = f"quality.{key}"
        if key not in QUALITIES:
            r.bad(where, f"unknown quality; expected one of {QUALITIES}")
            continue
        qd = r.table(q, where)
        r.unknown(qd, ("name", "attack", "ignores_marked_effects"), where)
        quals[key] = CrewQuality(
            key,
            r.str_(qd, "name", where),
            r.int_(qd, "attack", where, -3, 3),
            r.bool_(qd, "ignores_marked_effects", where),
        )
    units: dict[str, UnitCard] = {}
    afoot, afoot_mp, afoot_ws = _parse_afoot(data, r, weapons or {})
    ct = r.table(data.get("crew_type"), "crew_type")
    for ctype, c in ct.items():
        where = f"crew_type.{ctype}"
        if ctype not in CREW_TYPES:
            r.bad(where, f"unknown crew type; expected one of {CREW_TYPES}")
            continue
        c = r.table(c, where)
        r.unknown(c, ("names", "defense", "endurance", "cost", "movement"), where)
        names = r.table(c.get("names"), f"{where}.names")
        end = r.table(c.get("endurance"), f"{where}.endurance")
        full = r.int_(end, "full", f"{where}.endurance", 2, 20, default=2)
        half = r.int_(end, "half", f"{where}.endurance", 1, 10, default=1)
        if half >= full:
            r.bad(f"{where}.endurance", f"half ({half}) must be below full ({full})")
        costs = r.table(c.get("cost"), f"{where}.cost")
        defense = r.int_(c, "defense", where, 0, 5)
        movement = r.int_(c, "movement", where, 0, 8, default=0)
        for side in SIDES:
            name = names.get(side)
            if not isinstance(name, str):
                r.bad(f"{where}.names.{side}", "expected the crew's name for this side")
                name = ctype
            for qk in QUALITIES:
                cid = f"{SIDE_PREFIX[side]}_{ctype}_{qk}"
                qname = quals[qk].name if qk in quals else qk
                fights = (ctype, qk) in afoot  # its infantry profile (variant crews-fight)
                mp = afoot_mp if fights else movement
                units[cid] = UnitCard(
                    id=cid,
                    name=f"{name} ({qname.lower()})",
                    side=side,
                    unit_type=ctype,
                    crew="none",
                    defense=defense,
                    endurance_full=full,
                    endurance_half=half,
                    cost=r.int_(costs, qk, f"{where}.cost", 1, 10, default=1),
                    line="frontline",  # crews ride with the unit they crew
                    weapons=afoot_ws.get(side, ()) if fights else (),
                    movement=mp,
                    mobility="foot" if mp else None,
                    quality=qk,
                )
    for ctype in CREW_TYPES:
        if ctype not in ct:
            r.bad("crew_type", f"missing crew type {ctype!r}")
    return quals, units


def _parse_command(data: dict[str, Any], r: _Reader) -> dict[str, CommandCard]:
    out: dict[str, CommandCard] = {}
    for cid, c in r.table(data.get("command"), "command").items():
        where = f"command.{cid}"
        if not isinstance(c, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(c, ("title", "copies", "phase", "applies_to", "duration", "effects", "note"), where)
        at = c.get("applies_to", [])
        if not isinstance(at, list) or any(t not in UNIT_TYPES for t in at):
            r.bad(f"{where}.applies_to", f"expected a list of {UNIT_TYPES}")
            at = []
        duration = r.str_(c, "duration", where, DURATIONS)
        phase = r.str_(c, "phase", where, PHASES)
        effects = r.effects(c.get("effects"), f"{where}.effects", "command")
        if duration == "attack" and phase != "combat":
            r.bad(f"{where}.phase", "a card played on one attack is played in the combat phase")
        out[cid] = CommandCard(
            cid,
            r.str_(c, "title", where),
            r.int_(c, "copies", where, 1, 10),
            phase,
            tuple(at),
            duration,
            effects,
            str(c.get("note", "")),
        )
    return out


def _parse_damage(data: dict[str, Any], r: _Reader) -> dict[str, DamageCard]:
    out: dict[str, DamageCard] = {}
    raw = data.get("damage")
    if not isinstance(raw, list):
        r.bad("damage", "expected [[damage]] entries")
        return out
    for i, d in enumerate(raw):
        where = f"damage[{i}]"
        if not isinstance(d, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(d, ("id",) + TARGET_TYPES, where)
        did = d.get("id")
        if not isinstance(did, str) or not did:
            r.bad(f"{where}.id", "expected an id")
            did = f"damage{i}"
        if did in out:
            r.bad(f"{where}.id", f"duplicate Damage card id {did!r}")
        where = f"damage.{did}"
        sides: list[DamageSide] = []
        for t in TARGET_TYPES:
            s = d.get(t)
            if not isinstance(s, dict):
                r.bad(f"{where}.{t}", f"missing the {t} effect (every Damage card has all four, R4.3)")
                continue
            r.unknown(s, ("title", "effects", "turns", "veteran_ignores"), f"{where}.{t}")
            turns = s.get("turns")
            if turns is not None and (
                isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 5
            ):
                r.bad(f"{where}.{t}.turns", f"expected a turn counter 1..5, got {turns!r}")
                turns = None
            sides.append(
                DamageSide(
                    t,
                    r.str_(s, "title", f"{where}.{t}"),
                    r.effects(s.get("effects"), f"{where}.{t}.effects", "damage"),
                    turns,
                    r.bool_(s, "veteran_ignores", f"{where}.{t}"),
                )
            )
        out[did] = DamageCard(did, tuple(sides))
    return out


def _parse_events(data: dict[str, Any], r: _Reader) -> dict[str, EventCard]:
    out: dict[str, EventCard] = {}
    for eid, e in r.table(data.get("event"), "event").items():
        where = f"event.{eid}"
        if not isinstance(e, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(e, ("title", "effects", "turns", "note"), where)
        if not eid.startswith("ev_"):
            r.bad(where, "Event ids start with 'ev_'")
        turns = e.get("turns")
        if turns is not None and (
            isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 10
        ):
            r.bad(f"{where}.turns", f"expected 1..10 turns or no value (rest of the game), got {turns!r}")
            turns = None
        out[eid] = EventCard(
            eid,
            r.str_(e, "title", where),
            r.effects(e.get("effects"), f"{where}.effects", "event"),
            turns,
            str(e.get("note", "")),
        )
    return out


def _pair(v: Any) -> tuple[int, int] | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return (v[0], v[1])
    return None


def _parse_combat(data: dict[str, Any], r: _Reader) -> CombatRules:
    c = r.table(data.get("combat"), "combat")
    d = CombatRules()
    kw: dict[str, Any] = {}
    for name in ("double_intensity", "special", "friendly_fire"):
        v = c.get(name)
        if not isinstance(v, list) or not all(isinstance(x, int) and 2 <= x <= 20 for x in v):
            r.bad(f"combat.{name}", "expected a list of natural 2d10 sums 2..20")
        else:
            kw[name] = tuple(v)
    for name in ("crew_survives", "crew_captured", "crew_destroyed"):
        p = _pair(c.get(name))
        if p is None or not 1 <= p[0] <= p[1] <= 10:
            r.bad(f"combat.{name}", "expected [low, high] d10 faces")
        else:
            kw[name] = p
    if all(k in kw for k in ("crew_survives", "crew_captured", "crew_destroyed")):
        faces = sorted(
            f
            for k in ("crew_survives", "crew_captured", "crew_destroyed")
            for f in range(kw[k][0], kw[k][1] + 1)
        )
        if faces != list(range(1, 11)):
            r.bad("combat", "the crew fate bands must cover d10 faces 1..10 exactly once")
    ranges = {
        "immobilized_attack_bonus": (0, 5),
        "capture_multiplier": (1, 4),
        "close_assault_min": (2, 6),
        "max_weapons": (1, 3),
        "command_deck_size": (10, 200),
        "damage_deck_size": (5, 100),
        "reserves_min": (1, 500),
        "reserves_max": (1, 500),
        "hand_units": (0, 10),
        "hand_command": (0, 10),
    }
    for name, (lo, hi) in ranges.items():
        kw[name] = r.int_(c, name, "combat", lo, hi, default=getattr(d, name))
    r.unknown(
        c,
        set(ranges)
        | {
            "double_intensity",
            "special",
            "friendly_fire",
            "crew_survives",
            "crew_captured",
            "crew_destroyed",
        },
        "combat",
    )
    return CombatRules(**kw)


def _data_dir() -> Path:
    return Path(str(resources.files("hexwar") / "data" / "cards"))


def _read_all(folder: Path, problems: list[Problem]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {k: [] for k in CARD_FILES}
    files = sorted(folder.glob("*.toml"))
    if not files:
        problems.append(Problem(str(folder), "", "no card files (*.toml) found"))
    for f in files:
        try:
            data = read_toml(f)
        except ValidationError as exc:
            problems.extend(exc.problems)
            continue
        r = _Reader(str(f), problems)
        kind = _check_header(data, r)
        if kind:
            by_kind[kind].append((str(f), data))
    return by_kind


def old_load_cards(folder: str | os.PathLike[str] | None = None) -> CardSet:
    """Load and validate every card file in ``folder`` (default: the package's ``data/cards``).

    All files are read and checked before anything is reported, and every problem is listed
    at once (file, field path, what was expected): unknown weapon ids, crew types without
    crew cards, deck sizes other than the rules' 50 and 25, Damage cards missing an edge, ...

    Raises:
        ValidationError: with every problem found.
    """
    folder = Path(folder) if folder is not None else _data_dir()
    problems: list[Problem] = []
    by_kind = _read_all(folder, problems)
    for kind in CARD_FILES:
        if kind not in ("units",) and len(by_kind[kind]) != 1:
            problems.append(
                Problem(
                    str(folder), "", f"expected exactly one {kind!r} card file, found {len(by_kind[kind])}"
                )
            )
    if not by_kind["units"]:
        problems.append(Problem(str(folder), "", "no 'units' card files found"))

    def one(kind: str) -> tuple[str, dict[str, Any]]:
        return by_kind[kind][0] if by_kind[kind] else (str(folder / f"{kind}.toml"), {})

    src, data = one("weapons")
    weapons = _parse_weapons(data, _Reader(src, problems))
    src, data = one("combat")
    rules = _parse_combat(data, _Reader(src, problems))
    src, data = one("crews")
    qualities, units = _parse_crews(data, _Reader(src, problems), weapons)
    crew_ids = set(units)
    for src, data in by_kind["units"]:
        r = _Reader(src, problems)
        for uid, u in _parse_units(data, r, weapons).items():
            if uid in units:
                r.bad(f"unit.{uid}", "duplicate unit card id")
            units[uid] = u
    # cross-file checks: every crew a unit needs exists on its side
    for u in units.values():
        if u.needs_crew and not any(
            units[c].side == u.side and units[c].unit_type == u.crew for c in crew_ids
        ):
            problems.append(Problem(str(folder), f"unit.{u.id}.crew", f"no {u.side} {u.crew} card exists"))
    src, data = one("command")
    command = _parse_command(data, _Reader(src, problems))
    n_cmd = sum(c.copies for c in command.values())
    if command and n_cmd != rules.command_deck_size:
        problems.append(
            Problem(
                src,
                "command",
                f"the Command cards add up to {n_cmd} copies; "
                f"expected exactly {rules.command_deck_size} (R4.3)",
            )
        )
    src, data = one("damage")
    damage = _parse_damage(data, _Reader(src, problems))
    if len(damage) != rules.damage_deck_size and (damage or data):
        problems.append(
            Problem(
                src, "damage", f"{len(damage)} Damage cards; expected exactly {rules.damage_deck_size} (R4.3)"
            )
        )
    src, data = one("events")
    events = _parse_events(data, _Reader(src, problems))
    clash = set(events) & set(command)
    for cid in sorted(clash):
        problems.append(Problem(src, f"event.{cid}", "id also used by a Command card"))
    if problems:
        raise ValidationError(problems)
    return CardSet(
        weapons=MappingProxyType(dict(weapons)),
        units=MappingProxyType(dict(units)),
        qualities=MappingProxyType(dict(qualities)),
        command=MappingProxyType(dict(command)),
        damage=MappingProxyType(dict(damage)),
        events=MappingProxyType(dict(events)),
        rules=rules,
        sources=tuple(sorted(s for lst in by_kind.values() for s, _ in lst)),
    )


@cache
def _unused__cards() -> CardSet:
    """The package's own cards (``hexwar/data/cards``), loaded and validated once."""
    return load_cards()


def old_validate_card_file(path: str) -> None:
    """Validate one card file (for ``hexwar validate``; ``format = "hexwar-cards"``).

    The file is checked on its own; weapon references of a units file are checked against
    the package's ``weapons.toml`` unless the file *is* a weapons file.

    Raises:
        ValidationError: with every problem found.
    """
    problems: list[Problem] = []
    data = read_toml(path)
    r = _Reader(str(path), problems)
    kind = _check_header(data, r)
    if kind == "weapons":
        _parse_weapons(data, r)
    elif kind == "units":
        _parse_units(data, r, _cards().weapons)
    elif kind == "crews":
        _parse_crews(data, r, _cards().weapons)
    elif kind == "command":
        cmd = _parse_command(data, r)
        n = sum(c.copies for c in cmd.values())
        size = _cards().rules.command_deck_size
        if cmd and n != size:
            r.bad("command", f"the Command cards add up to {n} copies; expected exactly {size} (R4.3)")
    elif kind == "damage":
        dmg = _parse_damage(data, r)
        size = _cards().rules.damage_deck_size
        if len(dmg) != size:
            r.bad("damage", f"{len(dmg)} Damage cards; expected exactly {size} (R4.3)")
    elif kind == "events":
        _parse_events(data, r)
    elif kind == "combat":
        _parse_combat(data, r)
    if problems:
        raise ValidationError(problems)
