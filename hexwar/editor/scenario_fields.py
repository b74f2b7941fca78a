"""The scenario's typed fields in the editor: how each is parsed and checked as it is typed,
the artillery weapon profiles, the card picker's rows, and the whole draft validated in
memory through the one Scenario model (:class:`hexwar.game.scenario_file.ScenarioFile`).

No pyglet: the window's dialogs call :func:`parse_field` on every keystroke and show its
message; the session applies the value (:meth:`hexwar.editor.session.EditorSession.set_field`).

>>> parse_field("budget", "95")
95
>>> parse_field("budget", "120")
Traceback (most recent call last):
...
ValueError: budget: expected 80..100 points (000 Standard Game Setup), got 120
>>> parse_field("weapon", "8.8 cm battery; 9/13/10; DI 8")["attack"]
{'infantry': 9, 'vehicle': 13, 'gun': 10}
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem
from ..model.maps import BattleMap

__all__ = ["FIELDS", "parse_field", "weapon_text", "artillery_profiles", "card_entries", "draft_problems"]

#: field id -> (label shown in the panel and the dialog, what to type)
FIELDS: dict[str, tuple[str, str]] = {
    "name": ("Scenario name", "1..80 characters"),
    "id": ("Scenario id", "letters, digits, - and _ (1..64)"),
    "description": ("Briefing", "free text, up to 2000 characters"),
    "budget": ("Reserves budget", "80..100 points, or empty for a fixed Reserves deck"),
    "hand_size": ("Hand size", "0..7 unit cards chosen in play (R5.2)"),
    "objective_name": ("Objective name", "1..40 characters"),
    "objective_points": ("Objective points", "0..100 victory points to its holder (R10.2)"),
    "area_name": ("New area from the selection", "a name, 1..40 characters (letters, digits, space, - _)"),
    "weapon": (
        "Artillery weapon",
        "name; infantry/vehicle/gun attack; DI n (R9.1), e.g. 'Battery; 9/13/10; DI 8'",
    ),
}

_WEAPON = re.compile(
    r"^\s*(?P<name>[^;]{1,60}?)\s*;\s*(?P<i>\d{1,2})\s*/\s*(?P<v>\d{1,2})\s*/\s*(?P<g>\d{1,2})"
    r"\s*;\s*(?:DI\s*)?(?P<di>\d{1,2})\s*(?:;\s*(?:RoF\s*)?(?P<rof>\d)\s*)?$",
    re.IGNORECASE,
)
_AREA_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")


def _int(field: str, text: str, lo: int, hi: int, what: str) -> int:
    t = text.strip()
    if not re.fullmatch(r"-?\d{1,6}", t):
        raise ValueError(f"{field}: expected a whole number {lo}..{hi} {what}, got {text!r}")
    v = int(t)
    if not lo <= v <= hi:
        raise ValueError(f"{field}: expected {lo}..{hi} {what}, got {v}")
    return v


def parse_field(field: str, text: str) -> Any:
    """The value typed ``text`` gives field ``field`` (a key of :data:`FIELDS`).

    Returns: a ``str``, an ``int``, ``None`` (an empty budget: a fixed Reserves deck) or, for
    ``weapon``, the weapon table (``name``, ``attack`` {infantry, vehicle, gun}: 2..25,
    ``damage_index`` 0..30, ``rate_of_fire`` 1..4; R9.1, R9.4).

    Raises:
        ValueError: naming the field and what was expected.
        HexwarError: for an unknown field id.
    """
    if field not in FIELDS:
        raise HexwarError(f"unknown scenario field {field!r}; expected one of {sorted(FIELDS)}")
    t = text.strip()
    if field == "name":
        if not 1 <= len(t) <= 80:
            raise ValueError("name: expected 1..80 characters")
        return t
    if field == "id":
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", t):
            raise ValueError(f"id: expected letters, digits, - and _ (1..64), got {text!r}")
        return t
    if field == "description":
        if len(text) > 2000:
            raise ValueError("description: at most 2000 characters")
        return text.strip()
    if field == "budget":
        if not t:
            return None
        return _int("budget", t, 80, 100, "points (000 Standard Game Setup)")
    if field == "hand_size":
        return _int("hand_size", t, 0, 7, "unit cards")
    if field == "objective_name":
        if not 1 <= len(t) <= 40:
            raise ValueError("objective name: expected 1..40 characters")
        return t
    if field == "objective_points":
        return _int("points", t, 0, 100, "victory points")
    if field == "area_name":
        if not _AREA_NAME.fullmatch(t):
            raise ValueError(f"area name: expected 1..40 letters, digits, spaces, - or _, got {text!r}")
        return t
    m = _WEAPON.match(text)
    if m is None:
        raise ValueError("weapon: expected 'name; infantry/vehicle/gun; DI n' (optionally '; RoF n')")
    w: dict[str, Any] = {"name": m["name"], "attack": {"infantry": int(m["i"]), "vehicle": int(m["v"]), "gun": int(m["g"])},
                         "damage_index": int(m["di"])}  # fmt: skip
    for k, v in w["attack"].items():
        if not 2 <= v <= 25:
            raise ValueError(f"weapon: {k} attack expected 2..25 (R9.1), got {v}")
    if not 0 <= w["damage_index"] <= 30:
        raise ValueError(f"weapon: Damage Index expected 0..30, got {w['damage_index']}")
    if m["rof"] is not None:
        rof = int(m["rof"])
        if not 1 <= rof <= 4:
            raise ValueError(f"weapon: rate of fire expected 1..4, got {rof}")
        w["rate_of_fire"] = rof
    return w


def weapon_text(w: dict[str, Any]) -> str:
    """A weapon table as :func:`parse_field` reads it back (``"name; 9/13/10; DI 8"``)."""
    a = w.get("attack", {})
    s = f"{w.get('name', '')}; {a.get('infantry', 0)}/{a.get('vehicle', 0)}/{a.get('gun', 0)}; DI {w.get('damage_index', 0)}"
    if "rate_of_fire" in w:
        s += f"; RoF {w['rate_of_fire']}"
    return s


@functools.cache
def artillery_profiles() -> tuple[tuple[str, str], ...]:
    """The off-board artillery weapons of the shipped scenarios, ``(side, weapon JSON)``,
    German first then Soviet, each weapon once (R9.1): the profiles the editor offers."""
    from ..game.scenario import loads_toml
    from ..paths import content_dir

    seen: dict[str, str] = {}
    try:
        folder = Path(content_dir("scenarios"))
        files = sorted(folder.glob("*.toml"))
    except (HexwarError, OSError):
        return ()
    for f in files:
        try:
            data = loads_toml(f.read_text(encoding="utf-8"), str(f))
        except (HexwarError, OSError, UnicodeDecodeError):
            continue
        sides = data.get("sides", {}) if isinstance(data.get("sides"), dict) else {}
        for side in ("german", "soviet"):
            art = sides.get(side, {}).get("artillery") if isinstance(sides.get(side), dict) else None
            w = art.get("weapon") if isinstance(art, dict) else None
            if isinstance(w, dict):
                seen.setdefault(json.dumps(w, sort_keys=True), side)
    out = [(side, wj) for wj, side in seen.items()]
    out.sort(key=lambda x: (x[0] != "german", json.loads(x[1]).get("name", "")))
    return tuple(out)


@functools.cache
def card_entries(side: str) -> tuple[tuple[str, str, str], ...]:
    """The card picker's rows for ``side``: ``(card id, row text, full card text)`` in
    ``hexwar cards`` order (its units, then the crews the Reserves may hold; R4.1, R5.2)."""
    try:
        from ..rules.cards import default_cards

        cs = default_cards()
    except (HexwarError, ImportError, OSError):
        return ()
    out = []
    for u in cs.side_units(side, crews=True):
        if u.unit_type == "aircraft":
            continue
        out.append(
            (
                u.id,
                f"{u.name}  ·  {u.unit_type.replace('_', ' ')}  ·  {u.cost} VP  ·  {u.id}",
                f"{u.name} ({u.id}): {u.help_text(cs)}",
            )
        )
    return tuple(out)


def draft_problems(draft: Any, battlemap: BattleMap, scenario_path: Path | None = None) -> list[Problem]:
    """Every problem the game's validator finds in ``draft`` on ``battlemap`` (in memory, the
    checks ``hexwar validate`` and ``hexwar play`` run, game setup included; R10.2)."""
    from ..game.scenario_file import ScenarioFile

    path = scenario_path or Path("untitled.toml")
    ref = draft.map_ref or f"{path.stem}.map.json"
    d = draft.with_settings(map_ref=ref) if not draft.map_ref else draft
    try:
        sf = ScenarioFile.from_dict(d.to_data(), path)
    except HexwarError as exc:
        return list(getattr(exc, "problems", [])) or [Problem(str(path), "", str(exc))]
    return sf.problems(battlemap=battlemap, map_path=path.parent / ref)
