"""The effects-table parser before issue 34 gave hexwar/data/effects.toml its model
(hexwar/rules/terrain_effects.py at 83fb709), kept as a frozen test oracle."""

# ruff: noqa
from __future__ import annotations

from typing import Any

from hexwar.errors import Problem, ValidationError
from hexwar.model.terrain import MOBILITY_CLASSES
from hexwar.rules.terrain_effects import EffectRules


def old_parse_effects(data: dict[str, Any], src: str) -> EffectRules:
    problems: list[Problem] = []

    def table(name: str) -> dict[str, Any]:
        t = data.get(name)
        if not isinstance(t, dict):
            problems.append(Problem(src, name, "missing table"))
            return {}
        return t

    def integer(t: dict[str, Any], tname: str, key: str, lo: int, hi: int) -> int:
        v = t.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            problems.append(Problem(src, f"{tname}.{key}", f"expected an integer {lo}..{hi}, got {v!r}"))
            return lo
        return v

    def classes(t: dict[str, Any], tname: str, key: str) -> frozenset[str]:
        v = t.get(key, [])
        if not isinstance(v, list) or any(x not in MOBILITY_CLASSES for x in v):
            problems.append(
                Problem(src, f"{tname}.{key}", f"expected a list of mobility classes from {MOBILITY_CLASSES}")
            )
            return frozenset()
        return frozenset(v)

    if data.get("schema_version") != 1:
        problems.append(Problem(src, "schema_version", f"expected 1, got {data.get('schema_version')!r}"))
    rub, fire, bld, art, tow = (table(n) for n in ("rubble", "fire", "buildings", "artillery", "towing"))
    base = rub.get("base_terrain", "clear")
    if not isinstance(base, str):
        problems.append(Problem(src, "rubble.base_terrain", 'expected a terrain key such as "clear"'))
        base = "clear"
    hit_on_t = art.get("hit_on")
    hit_on: dict[str, int] = {}
    if not isinstance(hit_on_t, dict) or not hit_on_t:
        problems.append(
            Problem(
                src, "artillery.hit_on", "expected a table side = d6 face, e.g. { german = 3, soviet = 4 }"
            )
        )
    else:
        for side in hit_on_t:
            hit_on[str(side)] = integer(hit_on_t, "artillery.hit_on", side, 1, 7)
    eff = EffectRules(
        rubble_base_terrain=base,
        rubble_defense=integer(rub, "rubble", "defense", -9, 9),
        rubble_move=integer(rub, "rubble", "move", 0, 20),
        rubble_banned=classes(rub, "rubble", "banned"),
        rubble_immobilize_check=classes(rub, "rubble", "immobilize_check"),
        rubble_immobilized_on=integer(rub, "rubble", "immobilized_on", 0, 6),
        fire_defense=integer(fire, "fire", "defense", -9, 9),
        fire_move=integer(fire, "fire", "move", 0, 20),
        fire_spread_bonus=integer(fire, "fire", "spread_bonus", -20, 30),
        fire_damage_hit_on=integer(fire, "fire", "damage_hit_on", 2, 13),
        fire_damage_index=integer(fire, "fire", "damage_index", 0, 20),
        burnout_turns=integer(fire, "fire", "burnout_turns", 1, 1000),
        close_combat_bonus=integer(bld, "buildings", "close_combat_bonus", -20, 20),
        fire_margin=integer(bld, "buildings", "fire_margin", 1, 20),
        hit_on=hit_on,
        hook_up_cost=integer(tow, "towing", "hook_up_cost", 0, 20),
    )
    if problems:
        raise ValidationError(problems)
    return eff
