"""Attacks against buildings: AV against DR, rubble or fire (R8.2-R8.4, seed 003).

An attack against a building compares its attack value ``AV = 2d6 + Damage Index`` (+4 when an
adjacent infantry unit attacks it in close combat; no other dice modifiers, no Command-card
bonus) with the building's Defense Rating (wood 13, stone 14, reinforced 15, from the terrain
table):

* ``AV >= DR + 1``: the building catches fire (R8.4; 003: "It is harder for a building to catch
  fire than it is to create rubble" - the example "artillery ... scores a 14 AV [on wood].
  Instead of Rubble, a Fire marker is placed");
* ``AV == DR`` and the attack is artillery: the building is destroyed, rubble replaces it and
  puts out any fire (R8.3; only artillery makes rubble, 003);
* otherwise no effect.

Only off-board artillery, flamethrowers and infantry close combat attack buildings (R8.2). The
units in the hex are attacked first and keep the building's modifier against the attack that
destroys it (R8.3).

The core (:func:`attack_value`, :func:`outcome_codes`) works on numpy arrays of any shape, for
the simulation harness; :func:`attack_building` is the game's path, rolling through
:class:`~hexwar.rules.dice.Dice` and returning a :class:`BuildingAttack` event.

>>> needed_roll(dr=13, damage_index=2, kind="close combat")   # 003: rifle FP 2 + 4 CC needs an 8
8
>>> building_result(av=14, dr=13, kind="artillery").value      # 003: AV 14 on wood: fire
'fire'
>>> building_result(av=13, dr=13, kind="artillery").value, building_result(av=13, dr=13, kind="flamethrower").value
('rubble', 'no effect')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from .terrain_effects import EffectEvent, EffectRules, default_effects, hex_text

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..model.maps import BattleMap
    from .dice import Dice

__all__ = [
    "FIRE",
    "NO_EFFECT",
    "RUBBLE",
    "BuildingAttack",
    "BuildingAttackError",
    "BuildingAttackKind",
    "BuildingResult",
    "attack_building",
    "attack_value",
    "building_outcome_probabilities",
    "building_result",
    "needed_roll",
    "outcome_codes",
    "two_d6_distribution",
]

NO_EFFECT, RUBBLE, FIRE = 0, 1, 2  #: codes returned by :func:`outcome_codes`


class BuildingAttackKind(enum.StrEnum):
    """The three kinds of attack that may target a building (R8.2)."""

    ARTILLERY = "artillery"
    FLAMETHROWER = "flamethrower"
    CLOSE_COMBAT = "close combat"


class BuildingResult(enum.StrEnum):
    """What an attack did to a building (R8.3, R8.4)."""

    NO_EFFECT = "no effect"
    RUBBLE = "rubble"
    FIRE = "fire"


_CODE_RESULT = {NO_EFFECT: BuildingResult.NO_EFFECT, RUBBLE: BuildingResult.RUBBLE, FIRE: BuildingResult.FIRE}


class BuildingAttackError(HexwarError):
    """An attack on a building the rules do not allow (R8.2); the message says why."""


def _kind(kind: str | BuildingAttackKind) -> BuildingAttackKind:
    try:
        return BuildingAttackKind(kind)
    except ValueError:
        raise BuildingAttackError(
            f"only artillery, flamethrowers and infantry close combat attack buildings (R8.2), got {kind!r}"
        ) from None


def attack_value(
    dice_total: Any, damage_index: Any, kind: str | BuildingAttackKind, effects: EffectRules | None = None
) -> Any:
    """``AV = 2d6 + Damage Index`` (+4 for close combat) (R8.2); ints or arrays of any shape.

    Args:
        dice_total: the 2d6 sum(s), 2..12.
        damage_index: the weapon's Damage Index (for close combat, the attacking infantry's).
        kind: ``"artillery"``, ``"flamethrower"`` or ``"close combat"``.

    Raises:
        BuildingAttackError: for any other kind.

    >>> attack_value(8, 2, "close combat")
    14
    """
    k = _kind(kind)
    eff = effects or default_effects()
    bonus = eff.close_combat_bonus if k is BuildingAttackKind.CLOSE_COMBAT else 0
    return dice_total + damage_index + bonus


def outcome_codes(
    av: Any, dr: Any, kind: str | BuildingAttackKind, effects: EffectRules | None = None
) -> np.ndarray:
    """Vectorized result of attack values against DRs (R8.3, R8.4): ``int8`` codes, broadcast shape.

    ``FIRE`` (2) where ``AV >= DR + 1``, ``RUBBLE`` (1) where ``AV == DR`` and ``kind`` is
    artillery, ``NO_EFFECT`` (0) elsewhere and wherever ``DR <= 0`` (no intact building, as
    :meth:`~hexwar.model.maps.BattleMap.dr_array` gives for rubble and open ground).

    Args:
        av: attack values, any shape.
        dr: Defense Ratings, broadcastable against ``av`` (``int [H, W]`` maps work).
        kind: the attack kind (only artillery makes rubble).

    Raises:
        BuildingAttackError: for a kind that may not attack buildings.

    >>> outcome_codes(np.array([12, 13, 14]), 13, "artillery").tolist()
    [0, 1, 2]
    """
    k = _kind(kind)
    eff = effects or default_effects()
    av = np.asarray(av)
    dr = np.asarray(dr)
    building = dr > 0
    fire = building & (av >= dr + eff.fire_margin)
    out = np.where(fire, FIRE, NO_EFFECT).astype(np.int8)
    if k is BuildingAttackKind.ARTILLERY:
        out[building & (av == dr) & ~fire] = RUBBLE
    return out


def building_result(
    av: int, dr: int, kind: str | BuildingAttackKind, effects: EffectRules | None = None
) -> BuildingResult:
    """The result of one attack value against one DR (R8.3, R8.4); see :func:`outcome_codes`."""
    return _CODE_RESULT[int(outcome_codes(av, dr, kind, effects))]


def needed_roll(
    dr: int,
    damage_index: int,
    kind: str | BuildingAttackKind,
    result: BuildingResult | str = BuildingResult.FIRE,
    effects: EffectRules | None = None,
) -> int:
    """The lowest 2d6 total that gives ``result`` (fire by default) against a building of ``dr``.

    May lie outside 2..12 (then the result is certain or impossible). For rubble this is the
    one total that makes it (artillery only).

    Raises:
        BuildingAttackError: for a kind that may not attack, or rubble asked of a non-artillery kind.
    """
    eff = effects or default_effects()
    res = BuildingResult(result)
    av0 = attack_value(0, damage_index, kind, eff)
    if res is BuildingResult.FIRE:
        return int(dr + eff.fire_margin - av0)
    if res is BuildingResult.RUBBLE:
        if _kind(kind) is not BuildingAttackKind.ARTILLERY:
            raise BuildingAttackError("only artillery reduces a building to rubble (R8.3)")
        return int(dr - av0)
    raise BuildingAttackError("ask for the roll that gives 'fire' or 'rubble'")


def two_d6_distribution() -> dict[int, Fraction]:
    """Exact distribution of a 2d6 sum: ``P(s) = (6 - |s - 7|) / 36`` for s in 2..12 (R1.1)."""
    return {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


def building_outcome_probabilities(
    damage_index: int, dr: int, kind: str | BuildingAttackKind, effects: EffectRules | None = None
) -> dict[BuildingResult, Fraction]:
    """Exact probabilities of no effect / rubble / fire for one attack on a building (R8.2-R8.4).

    >>> p = building_outcome_probabilities(damage_index=4, dr=13, kind="artillery")
    >>> p[BuildingResult.RUBBLE], p[BuildingResult.FIRE]
    (Fraction(1, 9), Fraction(1, 6))
    """
    out = dict.fromkeys(BuildingResult, Fraction(0))
    for s, p in two_d6_distribution().items():
        out[building_result(attack_value(s, damage_index, kind, effects), dr, kind, effects)] += p
    return out


@dataclass(frozen=True)
class BuildingAttack(EffectEvent):
    """One attack against a building (R8.2-R8.4).

    Attributes:
        hex: the building's hex.
        kind: artillery, flamethrower or close combat.
        attacker: who attacked (log text: unit id, or "Soviet artillery").
        building: the building type's name.
        faces: the two d6 faces.
        damage_index: the weapon's Damage Index.
        bonus: the close-combat bonus (+4) or 0.
        av: the attack value ``sum(faces) + damage_index + bonus``.
        dr: the building's Defense Rating.
        result: no effect, rubble or fire.
        was_burning: the building already burned (a fire result then changes nothing).
    """

    hex: Hex
    kind: BuildingAttackKind
    attacker: str
    building: str
    faces: tuple[int, ...]
    damage_index: int
    bonus: int
    av: int
    dr: int
    result: BuildingResult
    was_burning: bool = False

    def apply(self, battlemap: BattleMap) -> None:
        """Rubble replaces the building (and puts out its fire); or a fire starts (R8.3, R8.4)."""
        if self.result is BuildingResult.RUBBLE:
            battlemap.set_rubble(self.hex)
        elif self.result is BuildingResult.FIRE and not self.was_burning:
            battlemap.set_fire(self.hex)
            battlemap.fire_turns[battlemap.index(self.hex)] = 0

    def __str__(self) -> str:
        bonus = f" +{self.bonus} close combat" if self.bonus else ""
        if self.result is BuildingResult.RUBBLE:
            verdict = "the building is destroyed: rubble" + (
                " (the fire goes out)" if self.was_burning else ""
            )
        elif self.result is BuildingResult.FIRE:
            verdict = "it already burns" if self.was_burning else "the building catches fire"
        else:
            verdict = "no effect"
        return (
            f"{self.attacker} attacks the {self.building} in {hex_text(self.hex)} ({self.kind.value}): "
            f"AV 2d6 {list(self.faces)} + DI {self.damage_index}{bonus} = {self.av} vs DR {self.dr}: {verdict}"
        )


def attack_building(
    battlemap: BattleMap,
    h: Hex,
    kind: str | BuildingAttackKind,
    damage_index: int,
    dice: Dice,
    attacker: str = "attacker",
    attacker_hex: Hex | None = None,
    effects: EffectRules | None = None,
) -> BuildingAttack | None:
    """Resolve one attack against the building in ``h`` (R8.2-R8.4); ``None`` if none stands there.

    Rolls 2d6 through ``dice`` (logged with the Damage Index and close-combat bonus as modifiers;
    no other modifier is allowed, R8.2). A hex of rubble or without a building is not attacked
    and rolls nothing. Does not change the map: apply the returned event.

    Args:
        battlemap: the map.
        h: the target hex.
        kind: ``"artillery"``, ``"flamethrower"`` or ``"close combat"``.
        damage_index: the weapon's Damage Index (close combat: the infantry's weapon).
        dice: the game's dice.
        attacker: log text.
        attacker_hex: for close combat, the attacking infantry's hex, which must be adjacent.
        effects: effect numbers; default the package's.

    Raises:
        BuildingAttackError: for another kind, or close combat from a hex not adjacent.
        MapError: when ``h`` is off the map.
    """
    k = _kind(kind)
    eff = effects or default_effects()
    idx = battlemap.index(h)
    if k is BuildingAttackKind.CLOSE_COMBAT and (attacker_hex is None or attacker_hex.distance(h) != 1):
        raise BuildingAttackError(
            f"close combat against the building in {hex_text(h)} needs an adjacent infantry unit,"
            f" attacker is in {hex_text(attacker_hex)} (R8.2)"
        )
    building = battlemap.building_at(h)
    if building is None or building.dr is None:
        return None
    bonus = eff.close_combat_bonus if k is BuildingAttackKind.CLOSE_COMBAT else 0
    mods = [("Damage Index", int(damage_index))] + ([("close combat", bonus)] if bonus else [])
    roll = dice.roll(
        f"{attacker} vs {building.name} in {hex_text(h)} (AV vs DR {building.dr})", "2d6", modifiers=mods
    )
    av = int(attack_value(roll.natural, int(damage_index), k, eff))
    result = building_result(av, building.dr, k, eff)
    return BuildingAttack(
        h,
        k,
        attacker,
        building.name,
        roll.faces,
        int(damage_index),
        bonus,
        av,
        building.dr,
        result,
        bool(battlemap.fire[idx]),
    )
