"""What terrain and battlefield overlays do to units: Defense modifiers and movement costs (R6.7, R8).

This module is the one place the game, the combat engine, the AI and the simulation harness ask
two questions:

* :func:`terrain_defense_modifier` (and :func:`terrain_defense_array` for whole maps): the terrain
  part of a unit's effective Defense in a hex (R6.7): the terrain table's soft or armored
  modifier, plus wreck counters (R8.1: black +1 for every ground unit, red +2 / -1 for soft units
  only), plus rubble +2 (R8.3, the destroyed building's own modifier no longer counts); in a
  burning hex Defense -2 and no other terrain modifier at all (R8.4); aircraft take none (R6.8).
* :func:`enter_cost` (and :func:`enter_cost_array`): the movement points a unit of a mobility
  class (foot, tracked, wheeled) spends to enter a hex (R5.3): the terrain table's cost, rubble
  +2 with wheeled units banned (R8.3), fire +1 (R8.4); ``math.inf`` when the unit may not enter.

It also holds what the other battlefield-effect modules share: the effect numbers loaded from
``hexwar/data/effects.toml`` (:class:`EffectRules`), the defense classes of R6.8 and
:class:`EffectEvent`, the base class of every event the wreck, artillery, building and fire rules
return (each event knows how to :meth:`~EffectEvent.apply` itself to a
:class:`~hexwar.model.maps.BattleMap` and prints as one readable log line).

>>> from hexwar.model.maps import BattleMap
>>> from hexwar.model.hexgrid import Hex
>>> m = BattleMap.new(6, 6)
>>> h = Hex.from_label("C03")
>>> m.set_terrain(h, "wood_building")
>>> terrain_defense_modifier(m, h, "soft"), enter_cost(m, h, "foot")
(2, 2.0)
>>> m.set_fire(h)
>>> terrain_defense_modifier(m, h, "soft"), enter_cost(m, h, "foot")
(-2, 3.0)
>>> m.set_rubble(h)
>>> terrain_defense_modifier(m, h, "soft"), enter_cost(m, h, "foot"), enter_cost(m, h, "wheeled")
(2, 3.0, inf)
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ValidationError
from ..fileio import loads_toml, read_text
from ..formats import effects_file  # its model is made at the first effects file validated
from ..model import compiled_docs
from ..model.documents import check
from ..model.hexgrid import Hex, HexLabelError
from ..model.terrain import MOBILITY_CLASSES, RulesTerrain

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..model.maps import BattleMap
    from .dice import Dice

__all__ = [
    "AIRCRAFT",
    "ARMORED",
    "DEFENSE_CLASSES",
    "SOFT",
    "EffectEvent",
    "EffectRules",
    "RubbleEntryCheck",
    "apply_events",
    "default_effects",
    "defense_class",
    "enter_cost",
    "enter_cost_array",
    "hex_text",
    "immobilized_by_rubble",
    "load_effects",
    "rubble_entry_check",
    "terrain_defense_array",
    "terrain_defense_modifier",
    "wreck_defense_modifier",
]

# -- defense classes (R6.8) ------------------------------------------------------------------
SOFT = "soft"  #: infantry, crews and guns (CoH's red defense)
ARMORED = "armored"  #: vehicles (CoH's blue defense)
AIRCRAFT = "aircraft"  #: aircraft aloft: no terrain modifiers, never hit by artillery
DEFENSE_CLASSES = (SOFT, ARMORED, AIRCRAFT)

_UNIT_TYPE_CLASS = {
    "infantry": SOFT,
    "gun": SOFT,
    "crew": SOFT,
    "tank crew": SOFT,
    "tank_crew": SOFT,
    "artillery crew": SOFT,
    "artillery_crew": SOFT,
    "pilot": SOFT,
    "vehicle": ARMORED,
    "aircraft": AIRCRAFT,
}


def defense_class(unit_type: str) -> str:
    """The defense class of a unit type (R6.8): ``"soft"``, ``"armored"`` or ``"aircraft"``.

    Args:
        unit_type: a unit type of R4.1 (``"infantry"``, ``"vehicle"``, ``"gun"``,
            ``"aircraft"``, ``"tank crew"``, ``"artillery crew"``, ``"pilot"``) or already a
            defense class.

    Raises:
        ValueError: naming the input when it is neither.

    >>> defense_class("infantry"), defense_class("vehicle"), defense_class("gun")
    ('soft', 'armored', 'soft')
    """
    key = str(unit_type).strip().lower()
    if key in DEFENSE_CLASSES:
        return key
    try:
        return _UNIT_TYPE_CLASS[key]
    except KeyError:
        raise ValueError(
            f"unknown unit type {unit_type!r}: expected one of {sorted(_UNIT_TYPE_CLASS)} or a defense class {DEFENSE_CLASSES}"
        ) from None


def _check_class(cls: str) -> str:
    if cls not in DEFENSE_CLASSES:
        return defense_class(cls)
    return cls


# -- effect numbers (data) -------------------------------------------------------------------
@dataclass(frozen=True)
class EffectRules:
    """The numbers of the battlefield-effect rules, from ``hexwar/data/effects.toml``.

    Attributes:
        rubble_base_terrain: terrain key a rubble hex moves and defends as (R8.3).
        rubble_defense: Defense modifier of rubble (+2, R8.3).
        rubble_move: extra movement points to enter rubble (+2, R8.3).
        rubble_banned: mobility classes that may not enter rubble (wheeled, R8.3).
        rubble_immobilize_check: mobility classes rolling 1d6 on entering rubble (tracked).
        rubble_immobilized_on: the d6 face (or lower) that immobilizes (1).
        fire_defense: Defense modifier in a burning hex, replacing all terrain modifiers (-2, R8.4).
        fire_move: extra movement points to enter a burning hex (+1, R8.4).
        fire_spread_bonus: added to the 2d6 spread roll (6, R8.4).
        fire_damage_hit_on: a fire damage check hits at 2d6 >= this (8, R8.5).
        fire_damage_index: Damage Index of a fire hit (4, R8.5).
        burnout_turns: full turns a fire burns before leaving rubble in variant ``burnout`` (3, R8.6).
        close_combat_bonus: AV bonus of infantry close combat against a building (+4, R8.2).
        fire_margin: fire starts when AV >= DR + this (1, R8.4).
        hit_on: off-board artillery accuracy: the 1d6 result (after the Command-card bonus) at
            or above which a side hits, by side (german 3, soviet 4, R9.3).
        hook_up_cost: movement points to hook up a wreck (2, R8.1).
    """

    rubble_base_terrain: str = "clear"
    rubble_defense: int = 2
    rubble_move: int = 2
    rubble_banned: frozenset[str] = frozenset({"wheeled"})
    rubble_immobilize_check: frozenset[str] = frozenset({"tracked"})
    rubble_immobilized_on: int = 1
    fire_defense: int = -2
    fire_move: int = 1
    fire_spread_bonus: int = 6
    fire_damage_hit_on: int = 8
    fire_damage_index: int = 4
    burnout_turns: int = 3
    close_combat_bonus: int = 4
    fire_margin: int = 1
    hit_on: Mapping[str, int] = dataclasses.field(default_factory=lambda: {"german": 3, "soviet": 4})
    hook_up_cost: int = 2

    def side_hit_on(self, side: str) -> int:
        """The artillery hit number of ``side`` (R9.3).

        Raises:
            ValueError: for a side the data does not list.
        """
        try:
            return int(self.hit_on[side])
        except KeyError:
            raise ValueError(
                f"no artillery hit number for side {side!r}; expected one of {sorted(self.hit_on)}"
            ) from None

    def replace(self, **changes: Any) -> EffectRules:
        """A copy with some numbers changed (scenario overrides, parameter sweeps)."""
        return dataclasses.replace(self, **changes)


def _parse_effects(data: dict[str, Any], src: str) -> EffectRules:
    """The numbers of an effects file, read by its typed model
    (:class:`hexwar.formats.effects_file.EffectsFile`, issue 34; R8, R9).

    Raises:
        ValidationError: listing every problem (file, ``table.key``, what was expected).
    """
    doc, problems = check(effects_file.EffectsFile, data, src)  # the model made at its first use
    if doc is None:
        raise ValidationError(problems)
    return _effects_of(doc)


def _effects_of(doc: Any) -> EffectRules:
    """The numbers of a validated effects document (the model's value or its compiled form)."""
    rub, fire, bld = doc.rubble, doc.fire, doc.buildings
    return EffectRules(
        rubble_base_terrain=rub.base_terrain,
        rubble_defense=rub.defense,
        rubble_move=rub.move,
        rubble_banned=frozenset(rub.banned),
        rubble_immobilize_check=frozenset(rub.immobilize_check),
        rubble_immobilized_on=rub.immobilized_on,
        fire_defense=fire.defense,
        fire_move=fire.move,
        fire_spread_bonus=fire.spread_bonus,
        fire_damage_hit_on=fire.damage_hit_on,
        fire_damage_index=fire.damage_index,
        burnout_turns=fire.burnout_turns,
        close_combat_bonus=bld.close_combat_bonus,
        fire_margin=bld.fire_margin,
        hit_on=dict(doc.artillery.hit_on),
        hook_up_cost=doc.towing.hook_up_cost,
    )


def load_effects(path: str | None = None) -> EffectRules:
    """Load and validate the battlefield-effect numbers (R8, R9).

    Args:
        path: an effects TOML file; default the package's ``data/effects.toml``.

    Raises:
        ValidationError: listing every problem (file, ``table.key``, what was expected).
    """
    p = path or str(resources.files("hexwar") / "data" / "effects.toml")
    text = read_text(p, kind="data")
    doc = compiled_docs.lookup(text, ("effects",))  # the shipped file's validated form (issue 35)
    if doc is not None:
        return _effects_of(doc)
    return _parse_effects(loads_toml(text, p), p)


@cache
def default_effects() -> EffectRules:
    """The package's own effect numbers, loaded once.

    >>> default_effects().hit_on["soviet"], default_effects().fire_spread_bonus
    (4, 6)
    """
    return load_effects()


# -- events ----------------------------------------------------------------------------------
def hex_text(h: Hex | None) -> str:
    """A hex as log text: its label (``"D07"``), axial text off the board, ``"-"`` for None.

    >>> hex_text(Hex.from_label("D07")), hex_text(Hex(0, -3))
    ('D07', 'axial (0, -3)')
    """
    if h is None:
        return "-"
    try:
        return h.label
    except HexLabelError:
        return f"axial ({h.q}, {h.r})"


def _jsonable(v: Any) -> Any:
    if isinstance(v, Hex):
        return hex_text(v)
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, EffectEvent):
        return v.to_json()
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _jsonable(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, frozenset, set)):
        return [_jsonable(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


@dataclass(frozen=True)
class EffectEvent:
    """Base of every battlefield-effect event (R8, R9): a frozen record of what happened.

    Subclasses are frozen dataclasses whose ``__str__`` is one readable game-log line. Events
    that change the map override :meth:`apply`; rule functions never change the map themselves,
    they return events and the caller applies them (the game on its state, the editor's preview
    on a copy, the simulation harness not at all).
    """

    def apply(self, battlemap: BattleMap) -> None:
        """Change ``battlemap`` as this event says (default: nothing, a pure log record)."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"event": class name, field: value ...}``, hexes as labels."""
        out: dict[str, Any] = {"event": type(self).__name__}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


def apply_events(battlemap: BattleMap, events: Iterable[Any]) -> None:
    """Apply every :class:`EffectEvent` in ``events`` to ``battlemap`` in order; others are skipped.

    (Unit events from the combat engine pass through rule functions unchanged; they are the
    game's to apply.)
    """
    for ev in events:
        if isinstance(ev, EffectEvent):
            ev.apply(battlemap)


# -- Defense modifiers (R6.7, R6.8, R8.1, R8.3, R8.4) ---------------------------------------
def wreck_defense_modifier(wreck_ids: Iterable[str], rules: RulesTerrain, cls: str) -> int:
    """Sum of the Defense modifiers that a stack of wreck counters gives a unit (R8.1).

    Black modifiers (``applies = "all"``) count for soft and armored units; red ones
    (``applies = "soft"``, +2 or -1) for soft units only (R6.8). Every counter of the stack
    counts (docs/rules.md: wreck modifiers add up). Aircraft get nothing.

    Args:
        wreck_ids: wreck counter ids in the hex.
        rules: the table holding the counters (``battlemap.rules``).
        cls: defense class (or unit type) of the unit.

    Raises:
        KeyError: for a wreck id that ``rules`` does not know.
        ValueError: for an unknown defense class.
    """
    cls = _check_class(cls)
    if cls == AIRCRAFT:
        return 0
    total = 0
    for wid in wreck_ids:
        w = rules.wrecks[wid]
        if w.applies == "all" or (w.applies == "soft" and cls == SOFT):
            total += w.modifier
    return total


def terrain_defense_modifier(
    battlemap: BattleMap, h: Hex, cls: str, effects: EffectRules | None = None
) -> int:
    """The terrain part of a unit's effective Defense in hex ``h`` (R6.7), in Defense points.

    * aircraft: 0 (R6.8);
    * burning hex: ``fire.defense`` (-2) and nothing else, no wreck, no building (R8.4);
    * rubble: the ``rubble.base_terrain`` type's modifier (clear: 0) + ``rubble.defense`` (+2)
      instead of the building's (R8.3);
    * otherwise the terrain table's soft or armored modifier;
    * plus the wreck stack's modifiers (R8.1) outside burning hexes.

    A building destroyed by an attack still protects the units against that attack (R8.3):
    artillery and flamethrowers resolve the units before the building, so the map still shows
    the intact building when their modifier is asked for.

    Args:
        battlemap: the map.
        h: the unit's hex.
        cls: ``"soft"``, ``"armored"``, ``"aircraft"`` or a unit type (see :func:`defense_class`).
        effects: effect numbers; default the package's.

    Raises:
        MapError: when ``h`` is off the map.
        ValueError: for an unknown class.
    """
    cls = _check_class(cls)
    idx = battlemap.index(h)
    if cls == AIRCRAFT:
        return 0
    eff = effects or default_effects()
    if battlemap.fire[idx]:
        return eff.fire_defense
    if battlemap.rubble[idx]:
        base = battlemap.rules.by_key(eff.rubble_base_terrain)
        mod = (base.defense_soft if cls == SOFT else base.defense_armored) + eff.rubble_defense
    else:
        t = battlemap.terrain_at(h)
        mod = t.defense_soft if cls == SOFT else t.defense_armored
    return mod + wreck_defense_modifier(battlemap.wrecks.get(h, ()), battlemap.rules, cls)


def terrain_defense_array(battlemap: BattleMap, cls: str, effects: EffectRules | None = None) -> np.ndarray:
    """``int16 [height, width]``: :func:`terrain_defense_modifier` for every hex at once.

    For the AI and the simulation harness (expected damage per hex); equal to the scalar
    function on every hex (tested).

    Raises:
        ValueError: for an unknown class.
    """
    cls = _check_class(cls)
    shape = (battlemap.height, battlemap.width)
    if cls == AIRCRAFT:
        return np.zeros(shape, dtype=np.int16)
    eff = effects or default_effects()
    per_type = np.array(
        [t.defense_soft if cls == SOFT else t.defense_armored for t in battlemap.rules.types], dtype=np.int16
    )
    out = per_type[battlemap.terrain]
    base = battlemap.rules.by_key(eff.rubble_base_terrain)
    rubble_mod = (base.defense_soft if cls == SOFT else base.defense_armored) + eff.rubble_defense
    out[battlemap.rubble] = rubble_mod
    for h, stack in battlemap.wrecks.items():
        if stack and battlemap.in_bounds(h):
            out[battlemap.index(h)] += wreck_defense_modifier(stack, battlemap.rules, cls)
    out[battlemap.fire] = eff.fire_defense
    return out


# -- movement costs (R5.3, R8.3, R8.4) -------------------------------------------------------
def _check_mobility(mobility: str) -> str:
    if mobility not in MOBILITY_CLASSES:
        raise ValueError(f"unknown mobility class {mobility!r}: expected one of {MOBILITY_CLASSES}")
    return mobility


def enter_cost(
    battlemap: BattleMap,
    h: Hex,
    mobility: str,
    from_hex: Hex | None = None,
    effects: EffectRules | None = None,
) -> float:
    """Movement points for a unit of ``mobility`` to enter hex ``h`` (R5.3, R8.3, R8.4).

    * base: the terrain table's cost for the class (``math.inf`` when impassable); when
      ``from_hex`` is given, is adjacent and both hexes carry a road, the road's cost if lower
      (moving along the road, docs/rules.md);
    * rubble: the ``rubble.base_terrain`` type's cost (the building is gone) + 2; wheeled
      units may not enter (``math.inf``) (R8.3);
    * fire: the burning building's cost + 1 (R8.4).

    Args:
        battlemap: the map.
        h: the hex entered.
        mobility: ``"foot"``, ``"tracked"`` or ``"wheeled"``.
        from_hex: the hex the unit comes from, for road movement (optional).
        effects: effect numbers; default the package's.

    Returns:
        movement points (a float; ``math.inf`` when the unit may not enter).

    Raises:
        MapError: when ``h`` is off the map.
        ValueError: for an unknown mobility class.
    """
    _check_mobility(mobility)
    idx = battlemap.index(h)
    eff = effects or default_effects()
    if battlemap.rubble[idx]:
        if mobility in eff.rubble_banned:
            return math.inf
        base = battlemap.rules.by_key(eff.rubble_base_terrain).move_cost(mobility)
    else:
        base = battlemap.terrain_at(h).move_cost(mobility)
    if (
        from_hex is not None
        and from_hex.distance(h) == 1
        and battlemap.in_bounds(from_hex)
        and battlemap.road[idx]
        and battlemap.road[battlemap.index(from_hex)]
    ):
        base = min(base, _road_cost(battlemap, mobility))
    if battlemap.rubble[idx]:
        return base + eff.rubble_move
    if battlemap.fire[idx]:
        return base + eff.fire_move
    return float(base)


def _road_cost(battlemap: BattleMap, mobility: str) -> float:
    try:
        return battlemap.rules.by_key("road").move_cost(mobility)
    except KeyError:
        return math.inf


def enter_cost_array(
    battlemap: BattleMap,
    mobility: str,
    along_road: bool = False,
    effects: EffectRules | None = None,
) -> np.ndarray:
    """``float64 [height, width]``: :func:`enter_cost` of every hex for one mobility class.

    Args:
        battlemap: the map.
        mobility: ``"foot"``, ``"tracked"`` or ``"wheeled"``.
        along_road: give the cost when entering from an adjacent road hex (applies to road
            hexes only; elsewhere the plain cost). A path finder uses this array for a step
            between two road hexes and the plain one otherwise.
        effects: effect numbers; default the package's.

    Raises:
        ValueError: for an unknown mobility class.
    """
    _check_mobility(mobility)
    eff = effects or default_effects()
    per_type = np.array([t.move_cost(mobility) for t in battlemap.rules.types], dtype=np.float64)
    out = per_type[battlemap.terrain]
    rubble_base = battlemap.rules.by_key(eff.rubble_base_terrain).move_cost(mobility)
    out[battlemap.rubble] = rubble_base
    if along_road:
        out = np.where(battlemap.road, np.minimum(out, _road_cost(battlemap, mobility)), out)
    out[battlemap.rubble] += eff.rubble_move
    if mobility in eff.rubble_banned:
        out[battlemap.rubble] = math.inf
    out[battlemap.fire & ~battlemap.rubble] += eff.fire_move
    return out


@dataclass(frozen=True)
class RubbleEntryCheck(EffectEvent):
    """A tracked unit entered rubble and rolled 1d6 for immobilization (R8.3).

    Attributes:
        unit: the unit's id.
        hex: the rubble hex entered.
        roll: the d6 face.
        immobilized: the unit gains the Immobilized effect (the game applies it).
    """

    unit: str
    hex: Hex
    roll: int
    immobilized: bool

    def __str__(self) -> str:
        verdict = "immobilized" if self.immobilized else "gets through"
        return f"{self.unit} enters rubble in {hex_text(self.hex)}: 1d6 = {self.roll}, {verdict}"


def immobilized_by_rubble(faces: Any, effects: EffectRules | None = None) -> Any:
    """Whether d6 ``faces`` (int or int array of any shape) immobilize a tracked unit in rubble (R8.3).

    >>> immobilized_by_rubble(1), immobilized_by_rubble(np.array([1, 2, 6])).tolist()
    (True, [True, False, False])
    """
    eff = effects or default_effects()
    res = np.asarray(faces) <= eff.rubble_immobilized_on
    return bool(res) if res.ndim == 0 else res


def rubble_entry_check(
    battlemap: BattleMap,
    h: Hex,
    mobility: str,
    dice: Dice,
    unit: str = "unit",
    effects: EffectRules | None = None,
) -> RubbleEntryCheck | None:
    """Roll the immobilization check of a unit entering ``h`` if the rules ask for one (R8.3).

    Only units whose mobility class is in ``rubble.immobilize_check`` (tracked) entering a
    rubble hex roll (1d6, recorded in ``dice``); anything else returns ``None`` and rolls nothing.

    Raises:
        MapError: when ``h`` is off the map.
        ValueError: for an unknown mobility class.
    """
    _check_mobility(mobility)
    eff = effects or default_effects()
    if not battlemap.rubble[battlemap.index(h)] or mobility not in eff.rubble_immobilize_check:
        return None
    face = dice.roll(f"rubble immobilization: {unit} enters {hex_text(h)}", "1d6").natural
    return RubbleEntryCheck(unit, h, face, bool(immobilized_by_rubble(face, eff)))
