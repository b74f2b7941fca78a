"""The field reader of the card files: typed getters that collect every problem with the file,
the card and the field named (R4), instead of stopping at the first."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import Problem
from ...model.terrain import MOBILITY_CLASSES
from .definitions import (
    _EFFECT_SPECS,
    CARD_FILES,
    FORMAT,
    SCHEMA_VERSION,
    SIDES,
    UNIT_TYPES,
    Effect,
    EffectKind,
)

__all__: list[str] = []


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
