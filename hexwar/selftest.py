"""``hexwar selftest``: the shipped conformance cases, run against the installed build.

The cases are data files inside the package (``hexwar/data/selftest/los.toml`` and
``rules.toml``, installed as package data), so a user who changes terrain data or a rule
variant can check in seconds that hexwar still plays by the book:

* **LOS (R3):** the hand-drawn cases - hexspines, vertices, heights, wrecks, fire, rubble - each
  run from both ends (R3.1), as a shifted twin (the picture moved 2 columns and 1 row; even
  column shifts keep the odd-q layout) and through the shapely reference implementation.
* **Rules:** the seeds' worked examples - 003's artillery drift, building AV and fire spread
  and damage examples, 000's combat steps - with scripted dice: the real rules roll through the
  real :class:`~hexwar.rules.dice.Dice`, whose generator hands out the listed faces and fails the
  case when the rule rolls more or fewer dice.

:func:`run_selftest` returns one :class:`CaseResult` per check with what was expected and what
the build answered.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from .model.hexgrid import Hex
from .model.maps import BattleMap
from .rules.dice import Dice

__all__ = ["CaseResult", "run_selftest", "load_cases", "SUITES"]

SUITES = ("los", "rules")
SHIFT = (2, 1)  # columns (even: the odd-q layout stays the same), rows


@dataclass
class CaseResult:
    """One check of one case.

    Attributes:
        suite: ``"los"`` or ``"rules"``.
        name: the case's name (with the variant: ``reverse``, ``shifted``, ``exact``).
        ok: expected equals actual.
        expected: the fields expected.
        actual: the same fields as the build answered (or ``{"error": ...}``).
    """

    suite: str
    name: str
    ok: bool
    expected: dict[str, Any]
    actual: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "suite": self.suite,
            "name": self.name,
            "ok": self.ok,
            "expected": self.expected,
            "actual": self.actual,
        }


def load_cases(suite: str) -> list[dict[str, Any]]:
    """The cases of ``suite`` from the package's data files.

    Raises:
        ValueError: for an unknown suite.
    """
    if suite not in SUITES:
        raise ValueError(f"unknown selftest suite {suite!r}; expected one of {SUITES}")
    text = resources.files("hexwar").joinpath("data", "selftest", f"{suite}.toml").read_text(encoding="utf-8")
    return list(tomllib.loads(text)["case"])


# -- scripted dice ------------------------------------------------------------------------------
class _ScriptedRng:
    """Stands in for a Dice's numpy Generator: hands out the case's faces, checking their range."""

    def __init__(self, faces: list[int]):
        self.faces = list(faces)

    def integers(self, low: int, high: int, size: Any = None, dtype: Any = None) -> Any:
        n = 1 if size is None else int(np.prod(size))
        if len(self.faces) < n:
            raise AssertionError(
                f"the rule rolled more dice than the case lists ({n} wanted, {len(self.faces)} left)"
            )
        out = [self.faces.pop(0) for _ in range(n)]
        if not all(low <= f < high for f in out):
            raise AssertionError(f"faces {out} outside {low}..{high - 1}")
        return out[0] if size is None else np.array(out).reshape(size)

    def permutation(self, n: int) -> Any:
        return np.arange(n)


def _dice(faces: list[int]) -> Dice:
    d = Dice(0)
    d.rng = _ScriptedRng(faces)  # type: ignore[assignment]
    return d


def _all_used(d: Dice) -> None:
    left = d.rng.faces  # type: ignore[attr-defined]
    if left:
        raise AssertionError(f"the rule rolled fewer dice than the case lists ({left} left over)")


# -- LOS ----------------------------------------------------------------------------------------
def _shift(label: str, by: tuple[int, int]) -> str:
    c, r = Hex.from_label(label).offset
    return Hex.from_offset(c + by[0], r + by[1]).label


def _los_map(case: dict[str, Any], by: tuple[int, int]) -> BattleMap:
    w, h = case["size"]
    m = BattleMap.new(w + by[0], h + by[1])
    for lab, key in case.get("terrain", {}).items():
        m.set_terrain(Hex.from_label(_shift(lab, by)), key)
    for lab, lv in case.get("levels", {}).items():
        m.set_level(Hex.from_label(_shift(lab, by)), int(lv))
    for lab, wreck in case.get("wrecks", {}).items():
        m.add_wreck(Hex.from_label(_shift(lab, by)), wreck)
    for lab in case.get("fire", []):
        m.set_fire(Hex.from_label(_shift(lab, by)))
    for lab in case.get("rubble", []):
        m.set_rubble(Hex.from_label(_shift(lab, by)))
    return m


def _los_fields(r: Any, keys: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in keys:
        if k == "status":
            out[k] = r.status
        elif k == "reason":
            out[k] = r.reason
        elif k == "hindrances":
            out[k] = int(r.hindrances)
        elif k == "blocking":
            out[k] = r.blocking.label if r.blocking is not None else None
        elif k == "intervening":
            out[k] = [h.label for h in r.intervening]
    return out


def _los_case(case: dict[str, Any]) -> list[CaseResult]:
    from .model.los import line_of_sight
    from .model.los_exact import line_of_sight_exact

    exp = dict(case["expect"])
    name = case["name"]
    out: list[CaseResult] = []

    def check(variant: str, fn: Callable[..., Any], by: tuple[int, int], reverse: bool) -> None:
        m = _los_map(case, by)
        a, b = Hex.from_label(_shift(case["from"], by)), Hex.from_label(_shift(case["to"], by))
        want = dict(exp)
        if by != (0, 0):
            if want.get("blocking"):
                want["blocking"] = _shift(want["blocking"], by)
            if "intervening" in want:
                want["intervening"] = [_shift(x, by) for x in want["intervening"]]
        if reverse:
            a, b = b, a
            want.pop("blocking", None)  # the first blocker seen from the other end may differ
            if "intervening" in want:
                want["intervening"] = list(reversed(want["intervening"]))
        try:
            got = _los_fields(fn(m, a, b), list(want))
        except Exception as exc:  # a broken build must be reported, not crash the suite
            got = {"error": f"{type(exc).__name__}: {exc}"}
        out.append(
            CaseResult("los", f"{name}{' [' + variant + ']' if variant else ''}", got == want, want, got)
        )

    check("", line_of_sight, (0, 0), False)
    check("reverse", line_of_sight, (0, 0), True)
    if case.get("shift", True):
        check("shifted", line_of_sight, SHIFT, False)
    check("exact", line_of_sight_exact, (0, 0), False)
    return out


# -- rules --------------------------------------------------------------------------------------
def _artillery(case: dict[str, Any]) -> dict[str, Any]:
    from .rules.artillery import roll_strike

    w, h = case.get("size", [10, 10])
    d = _dice(case["faces"])
    s = roll_strike(
        BattleMap.new(w, h),
        case["side"],
        Hex.from_label(case["target"]),
        d,
        command_card=bool(case.get("command_card", False)),
    )
    _all_used(d)
    return {
        "accuracy_roll": s.accuracy_roll,
        "hit_on": s.hit_on,
        "hit": s.hit,
        "drift": s.drift,
        "direction": s.direction,
        "landing": s.landing.label if s.landing is not None else None,
    }


def _building(case: dict[str, Any]) -> dict[str, Any]:
    from .rules.buildings import attack_building

    m = BattleMap.new(6, 6)
    target = Hex.from_label("C03")
    m.set_terrain(target, case["terrain"])
    d = _dice(case["faces"])
    kind = case["attack"]
    ev = attack_building(
        m,
        target,
        kind,
        int(case["damage_index"]),
        d,
        "selftest",
        attacker_hex=Hex.from_label("C04") if kind == "close combat" else None,
    )
    _all_used(d)
    if ev is None:
        return {"result": "not attacked"}
    return {"av": ev.av, "dr": ev.dr, "result": ev.result.value}


def _fire_spread(case: dict[str, Any]) -> dict[str, Any]:
    from .rules.fire import FireSpreadCheck, fire_spread_phase

    w, h = case["size"]
    m = BattleMap.new(w, h)
    for lab, key in case.get("terrain", {}).items():
        m.set_terrain(Hex.from_label(lab), key)
    for lab in case.get("fire", []):
        m.set_fire(Hex.from_label(lab))
    d = _dice(case["faces"])
    events = fire_spread_phase(m, d, frozenset())
    _all_used(d)
    s = next(e for e in events if isinstance(e, FireSpreadCheck))
    return {"from": s.from_hex.label, "to": s.to_hex.label, "total": s.total, "dr": s.dr, "spread": s.spread}


def _fire_damage(case: dict[str, Any]) -> dict[str, Any]:
    from .rules.artillery import TargetUnit
    from .rules.fire import FireDamageCheck, fire_damage_checks

    m = BattleMap.new(6, 6)
    hx = Hex.from_label("C03")
    m.set_terrain(hx, "wood_building")
    m.set_fire(hx)
    m.fire_turns[m.index(hx)] = 1  # burning since before this turn's step a
    d = _dice(case["faces"])
    events = fire_damage_checks(m, [(hx, TargetUnit("rifles", "infantry"))], d, lambda *a: [])
    _all_used(d)
    c = next(e for e in events if isinstance(e, FireDamageCheck))
    return {"total": c.total, "hit": c.hit}


def _combat(case: dict[str, Any]) -> dict[str, Any]:
    from .rules.cards import Deck, default_cards
    from .rules.combat import AttackOrders, CombatEngine, DefenseContext
    from .rules.units import roster

    cards = default_cards()
    att, tgt = tuple(case["attacker"]), tuple(case["target"])
    units = roster(
        cards, (att[0], att[1] if len(att) > 1 else None), (tgt[0], tgt[1] if len(tgt) > 1 else None)
    )
    d = _dice(case["faces"])
    eng = CombatEngine(cards, d, Deck("damage", ["dmg05#1"], reshuffle=True), units)
    ev = eng.resolve_attack(units[att[0]], units[tgt[0]], AttackOrders((0,)), DefenseContext())
    _all_used(d)
    to_hit = next(e for e in ev if e.kind == "to_hit")
    out: dict[str, Any] = {"outcome": getattr(to_hit, "outcome", None)}
    dmg = next((e for e in ev if e.kind == "damage"), None)
    if dmg is not None:
        out.update(
            damage=getattr(dmg, "damage", None), endurance_before=getattr(dmg, "endurance_before", None)
        )
    out["endurance_after"] = units[tgt[0]].endurance
    out["damage_card"] = units[tgt[0]].damage_card is not None
    return out


_RULES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "artillery": _artillery,
    "building": _building,
    "fire_spread": _fire_spread,
    "fire_damage": _fire_damage,
    "combat": _combat,
}


def _rules_case(case: dict[str, Any]) -> list[CaseResult]:
    exp = dict(case["expect"])
    try:
        got_all = _RULES[case["kind"]](case)
        got = {k: got_all.get(k) for k in exp}
    except Exception as exc:  # report, never crash
        got = {"error": f"{type(exc).__name__}: {exc}"}
    got = {k: _plain(v) for k, v in got.items()}
    return [CaseResult("rules", case["name"], got == exp, exp, got)]


def _plain(v: Any) -> Any:
    """numpy scalars as Python ones (JSON-ready)."""
    return v.item() if isinstance(v, np.generic) else v


def run_selftest(suites: tuple[str, ...] = SUITES) -> list[CaseResult]:
    """Run the shipped cases of ``suites`` (``"los"``, ``"rules"``) against this build.

    Returns:
        one :class:`CaseResult` per check, in file order.

    Raises:
        ValueError: for an unknown suite.
    """
    out: list[CaseResult] = []
    for s in suites:
        for case in load_cases(s):
            out.extend(_los_case(case) if s == "los" else _rules_case(case))
    return out
