"""Reading and checking the card files (``hexwar/data/cards/*.toml``): every problem is
reported with the file, the card and the field (R4).

Each file is read by its typed model (:mod:`hexwar.formats.card_file`, issue 34): fields,
types, ranges and the rules between one card's own fields. What follows here needs other cards
or other files: weapon ids that exist and suit the unit (R4.2, R7.2, R7.3), unit ids of their
side, a crew card for every crew a unit needs (R4.1), deck sizes (R4.3), ids used once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...errors import Problem, ValidationError
from ...fileio import read_toml
from ...formats import card_file as cf
from ...model.filemodel import check, read_lenient
from .cardset import CardSet
from .definitions import (
    CARD_FILES,
    QUALITIES,
    SIDE_PREFIX,
    SIDES,
    TARGET_TYPES,
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
from .shipped import card_data_dir, default_cards

__all__ = ["default_cards", "load_cards", "validate_card_file"]


class _File:
    """One card file read by its model; semantic problems collect in ``problems``."""

    def __init__(self, src: str, model: Any, problems: list[Problem]):
        self.src, self.model, self.problems = src, model, problems

    def bad(self, where: str, msg: str) -> None:
        self.problems.append(Problem(self.src, where, msg))


def _read(path: Path, problems: list[Problem]) -> tuple[str, _File | None]:
    """``(kind, file)`` of one card file: its header, then its kind's model (what fits of it)."""
    src = str(path)
    try:
        data = read_toml(path)
    except ValidationError as exc:
        problems.extend(exc.problems)
        return "", None
    head, _ = check(cf.CardKind, data, src)
    if head is None:  # no model to read it by: what is wrong with its header
        problems.extend(check(cf.CardHeader, data, src)[1])
        return "", None
    read = read_lenient(cf.CARD_MODELS[head.kind], data, src)
    problems.extend(_by_id(p, data) for p in read.problems) if head.kind == "damage" else problems.extend(
        read.problems
    )
    if read.value is None:
        return head.kind, None
    semantic: list[Problem] = []
    f = _File(src, read.value, semantic)
    f.filled = read  # type: ignore[attr-defined]
    return head.kind, f


def _by_id(p: Problem, data: dict[str, Any]) -> Problem:
    """A Damage card's problem named by the card's id (``damage.dmg04.vehicle``), not its place
    in the file (``damage[3].vehicle``), when it has an id; its other fields keep the place."""
    m = re.match(r"damage\[(\d+)\]\.(.+)", p.where)
    items = data.get("damage")
    if (
        m
        and m.group(2).split(".")[0] in TARGET_TYPES
        and isinstance(items, list)
        and int(m.group(1)) < len(items)
    ):
        did = items[int(m.group(1))].get("id") if isinstance(items[int(m.group(1))], dict) else None
        if isinstance(did, str) and did:
            return Problem(p.file, f"damage.{did}.{m.group(2)}", p.message)
    return p


def _close(f: _File | None, problems: list[Problem]) -> None:
    """Move ``f``'s semantic problems to ``problems`` (none about a value the model filled in)."""
    if f is not None:
        problems.extend(f.filled.semantic(f.problems))  # type: ignore[attr-defined]
        f.problems.clear()


def _effect(e: Any) -> Effect:
    return Effect(EffectKind(e.kind), e.value or 0, e.mobility, e.side, tuple(e.unit_types))


def _weapons(f: _File) -> dict[str, Weapon]:
    out: dict[str, Weapon] = {}
    for wid, w in f.model.weapon.items():
        att = w.attack
        out[wid] = Weapon(
            id=wid,
            name=w.name,
            attack=tuple((t, getattr(att, t)) for t in TARGET_TYPES if getattr(att, t) is not None),
            rate_of_fire=w.rof,
            damage_index=w.damage_index,
            range=w.range,
            underscored=w.underscored,
            bomb="bomb" in w.flags,
            flamethrower="flamethrower" in w.flags,
            indirect="indirect" in w.flags,
        )
    return out


def _units(f: _File, weapons: Mapping[str, Weapon] | None) -> dict[str, UnitCard]:
    """A units file's cards: ids of the file's side; weapons that exist and suit the unit (R4.2,
    R7.2, R7.3: range 0 and bombs for aircraft, indirect fire from the rear line or an SPG's 1st
    weapon)."""
    side = f.model.side
    out: dict[str, UnitCard] = {}
    for uid, u in f.model.unit.items():
        where = f"unit.{uid}"
        if not uid.startswith(SIDE_PREFIX[side] + "_"):
            f.bad(where, f"{side} unit ids start with {SIDE_PREFIX[side] + '_'!r}")
        ws: list[Weapon] = []
        for i, wid in enumerate(u.weapons if weapons is not None else ()):
            w = weapons.get(wid) if weapons is not None else None
            if w is None:
                f.bad(f"{where}.weapons[{i}]", f"unknown weapon {wid!r} (not in weapons.toml)")
                continue
            ws.append(w)
            if w.range == 0 and u.type != "aircraft":
                f.bad(f"{where}.weapons[{i}]", f"{wid}: range 0 (unlimited) is for aircraft weapons only")
            if w.bomb and u.type != "aircraft":
                f.bad(f"{where}.weapons[{i}]", f"{wid}: only aircraft carry bombs")
            if w.indirect and not (u.line == "rear" or (u.line == "frontline_or_rear" and i == 0)):
                f.bad(
                    f"{where}.weapons[{i}]",
                    f"{wid}: indirect weapons belong to rear-line units or the 1st weapon of an SPG (R7.2, R7.3)",
                )
            if u.line == "rear" and not w.indirect and w.attack_value("aircraft") is None:
                f.bad(f"{where}.weapons[{i}]", f"{wid}: a rear-line unit fires indirectly (R7.3)")
        if u.line == "frontline_or_rear" and ws and not ws[0].indirect:
            f.bad(f"{where}.weapons[0]", "an SPG's 1st weapon is its indirect long-range weapon (R7.2)")
        out[uid] = UnitCard(
            id=uid,
            name=u.name,
            side=side,
            unit_type=u.type,
            crew=u.crew,
            defense=u.defense,
            endurance_full=u.endurance.full,
            endurance_half=u.endurance.half,
            cost=u.cost,
            line=u.line,
            weapons=tuple(ws),
            movement=u.movement,
            mobility=u.mobility,
            turns_of_flight=u.turns_of_flight,
            note=u.note,
        )
    return out


def _afoot(
    f: _File, weapons: Mapping[str, Weapon]
) -> tuple[set[tuple[str, str]], int, dict[str, tuple[Weapon, ...]]]:
    """``[fight_as_infantry]`` of crews.toml: the crews (type, quality) that may stay in play and
    fight as infantry when their frontline unit is destroyed (000's optional rule, variant
    ``crews-fight``, R11.3), their movement points and their weapons per side."""
    t = f.model.fight_as_infantry
    if t is None:
        return set(), 0, {}
    per_side: dict[str, tuple[Weapon, ...]] = {}
    for side in SIDES:
        got = []
        for i, wid in enumerate(getattr(t.weapons, side)):
            w = weapons.get(wid)
            if w is None:
                f.bad(
                    f"fight_as_infantry.weapons.{side}[{i}]", f"unknown weapon {wid!r} (not in weapons.toml)"
                )
                continue
            got.append(w)
        per_side[side] = tuple(got)
    return {(ct, q) for ct in t.crew_types for q in t.qualities}, t.movement, per_side


def _crews(
    f: _File, weapons: Mapping[str, Weapon] | None = None
) -> tuple[dict[str, CrewQuality], dict[str, UnitCard]]:
    """The crew qualities and one crew card per crew type, side and quality (R4.1)."""
    m = f.model
    quals = {
        q: CrewQuality(
            q,
            getattr(m.quality, q).name,
            getattr(m.quality, q).attack,
            getattr(m.quality, q).ignores_marked_effects,
        )
        for q in QUALITIES
    }
    afoot, afoot_mp, afoot_ws = _afoot(f, weapons or {})
    units: dict[str, UnitCard] = {}
    for ctype in ("tank_crew", "artillery_crew", "pilot"):
        c = getattr(m.crew_type, ctype)
        for side in SIDES:
            for qk in QUALITIES:
                fights = (ctype, qk) in afoot  # its infantry profile (variant crews-fight)
                mp = afoot_mp if fights else c.movement
                cid = f"{SIDE_PREFIX[side]}_{ctype}_{qk}"
                units[cid] = UnitCard(
                    id=cid,
                    name=f"{getattr(c.names, side)} ({quals[qk].name.lower()})",
                    side=side,
                    unit_type=ctype,
                    crew="none",
                    defense=c.defense,
                    endurance_full=c.endurance.full,
                    endurance_half=c.endurance.half,
                    cost=getattr(c.cost, qk),
                    line="frontline",  # crews ride with the unit they crew
                    weapons=afoot_ws.get(side, ()) if fights else (),
                    movement=mp,
                    mobility="foot" if mp else None,
                    quality=qk,
                )
    return quals, units


def _command(f: _File) -> dict[str, CommandCard]:
    return {
        cid: CommandCard(
            cid,
            c.title,
            c.copies,
            c.phase,
            tuple(c.applies_to),
            c.duration,
            tuple(map(_effect, c.effects)),
            c.note,
        )
        for cid, c in f.model.command.items()
    }


def _damage(f: _File) -> dict[str, DamageCard]:
    """The Damage cards: ids used once, an edge for each of the four target types (R4.3)."""
    out: dict[str, DamageCard] = {}
    for i, d in enumerate(f.model.damage):
        if not d.id:
            f.bad(f"damage[{i}].id", "expected an id")
        elif d.id in out:
            f.bad(f"damage[{i}].id", f"duplicate Damage card id {d.id!r}")
        sides: list[DamageSide] = []
        for t in TARGET_TYPES:
            s = getattr(d, t)
            if s is None:
                f.bad(f"damage.{d.id}.{t}", f"missing the {t} effect (every Damage card has all four, R4.3)")
                continue
            sides.append(DamageSide(t, s.title, tuple(map(_effect, s.effects)), s.turns, s.veteran_ignores))
        out[d.id] = DamageCard(d.id, tuple(sides))
    return out


def _events(f: _File) -> dict[str, EventCard]:
    return {
        eid: EventCard(eid, e.title, tuple(map(_effect, e.effects)), e.turns, e.note)
        for eid, e in f.model.event.items()
    }


def _combat(f: _File) -> CombatRules:
    c = f.model.combat
    kw = {name: getattr(c, name) for name in c.model_fields_set}
    for name in (
        "double_intensity",
        "special",
        "friendly_fire",
        "crew_survives",
        "crew_captured",
        "crew_destroyed",
    ):
        kw[name] = tuple(kw[name])
    return CombatRules(**kw)


def _deck_sizes(
    f: _File,
    command: Mapping[str, CommandCard] | None,
    damage: Mapping[str, DamageCard] | None,
    rules: CombatRules,
) -> None:
    """R4.3: the Command cards add up to the Command deck's size, the Damage cards to its deck's."""
    if command:
        n = sum(c.copies for c in command.values())
        if n != rules.command_deck_size:
            f.bad(
                "command",
                f"the Command cards add up to {n} copies; expected exactly {rules.command_deck_size} (R4.3)",
            )
    if damage is not None and len(damage) != rules.damage_deck_size:
        f.bad("damage", f"{len(damage)} Damage cards; expected exactly {rules.damage_deck_size} (R4.3)")


def load_cards(folder: str | os.PathLike[str] | None = None) -> CardSet:
    """Load and validate every card file in ``folder`` (default: the package's ``data/cards``).

    All files are read and checked before anything is reported, and every problem is listed
    at once (file, field path, what was expected): unknown weapon ids, crew types without
    crew cards, deck sizes other than the rules' 50 and 25, Damage cards missing an edge, ...

    Raises:
        ValidationError: with every problem found.
    """
    folder = Path(folder) if folder is not None else card_data_dir()
    problems: list[Problem] = []
    files = sorted(folder.glob("*.toml"))
    if not files:
        problems.append(Problem(str(folder), "", "no card files (*.toml) found"))
    by_kind: dict[str, list[_File]] = {k: [] for k in CARD_FILES}
    sources: dict[str, str] = {}  # file -> its kind (every file with a good header)
    for p in files:
        kind, f = _read(p, problems)
        if kind:
            sources[str(p)] = kind
        if f is not None:
            by_kind[kind].append(f)
    for kind in CARD_FILES:
        n = sum(1 for k in sources.values() if k == kind)
        if kind != "units" and n != 1:
            problems.append(Problem(str(folder), "", f"expected exactly one {kind!r} card file, found {n}"))
        elif kind == "units" and not n:
            problems.append(Problem(str(folder), "", "no 'units' card files found"))

    def one(kind: str) -> _File | None:
        return by_kind[kind][0] if by_kind[kind] else None

    wf, cb = one("weapons"), one("combat")
    weapons = _weapons(wf) if wf else {}
    rules = _combat(cb) if cb else CombatRules()
    crf = one("crews")
    qualities, units = _crews(crf, weapons) if crf else ({}, {})
    crew_ids = set(units)
    for f in by_kind["units"]:
        for uid, u in _units(f, weapons).items():
            if uid in units:
                f.bad(f"unit.{uid}", "duplicate unit card id")
            units[uid] = u
    for u in units.values():  # cross-file: every crew a unit needs exists on its side (R4.1)
        if u.needs_crew and not any(
            units[c].side == u.side and units[c].unit_type == u.crew for c in crew_ids
        ):
            problems.append(Problem(str(folder), f"unit.{u.id}.crew", f"no {u.side} {u.crew} card exists"))
    cmf, dmf, evf = one("command"), one("damage"), one("events")
    command = _command(cmf) if cmf else {}
    damage = _damage(dmf) if dmf else {}
    events = _events(evf) if evf else {}
    if cmf:
        _deck_sizes(cmf, command, None, rules)
    if dmf:
        _deck_sizes(dmf, None, damage, rules)
    if evf:
        for cid in sorted(set(events) & set(command)):
            evf.bad(f"event.{cid}", "id also used by a Command card")
    for fs in by_kind.values():
        for f in fs:
            _close(f, problems)
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
        sources=tuple(sorted(sources)),
    )


def validate_card_file(path: str) -> None:
    """Validate one card file (for ``hexwar validate``; ``format = "hexwar-cards"``).

    The file is checked on its own; weapon references of a units file are checked against
    the package's ``weapons.toml`` unless the file *is* a weapons file.

    Raises:
        ValidationError: with every problem found.
    """
    problems: list[Problem] = []
    kind, f = _read(Path(path), problems)
    if f is not None:
        if kind == "units":
            _units(f, default_cards().weapons)
        elif kind == "crews":
            _crews(f, default_cards().weapons)
        elif kind == "command":
            _deck_sizes(f, _command(f), None, default_cards().rules)
        elif kind == "damage":
            _deck_sizes(f, None, _damage(f), default_cards().rules)
        _close(f, problems)
    if problems:
        raise ValidationError(problems)
