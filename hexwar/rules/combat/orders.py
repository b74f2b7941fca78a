"""What an attack is given: the defender's context, the attack orders, bonus and
friendly-fire policies, the rules variant (R6, R1.3, R11.3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import HexwarError
from ..cards import (
    VARIANTS,
    UnitCard,
    Weapon,
)
from ..terrain_effects import terrain_defense_modifier
from ..units import UnitLike

if TYPE_CHECKING:  # pragma: no cover
    from ...model.hexgrid import Hex
    from ...model.maps import BattleMap


__all__ = [
    "AttackOrders",
    "BonusPolicy",
    "BonusRequest",
    "CombatError",
    "DefenseContext",
    "FriendlyFirePolicy",
    "bonus_on",
    "normalize_variant",
]


class CombatError(HexwarError):
    """An attack the rules do not allow (the message lists every reason); nothing was rolled."""


def normalize_variant(variant: str | Iterable[str]) -> str:
    """``"standard"`` or ``"classic"`` from a variant name or a collection of variant names (R11.3).

    >>> normalize_variant(("burnout", "classic")), normalize_variant("standard")
    ('classic', 'standard')

    Raises:
        CombatError: for a single unknown name.
    """
    if isinstance(variant, str):
        if variant not in VARIANTS:
            raise CombatError(f"unknown rule variant {variant!r}; expected one of {VARIANTS}")
        return variant
    return "classic" if "classic" in set(variant) else "standard"


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DefenseContext:
    """What the map tells the combat engine about one target (R6.3, R6.6, R6.7).

    Attributes:
        terrain: the terrain part of the target's effective Defense, in Defense points:
            terrain table (soft or armored, R6.8) + wreck modifiers (R8.1) + rubble (R8.3), or
            the burning-hex modifier alone (R8.4) -- i.e.
            :func:`hexwar.rules.terrain_effects.terrain_defense_modifier`. Ignored for
            aircraft (R6.8).
        hindrances: hindrance hexes on the LOS: -1 each to the to-hit roll (R3.5, R6.3).
        captor_has_ground_unit: the attacking side has a ground unit in play; in ``classic``
            a crew can only be captured then (R6.6).
    """

    terrain: int = 0
    hindrances: int = 0
    captor_has_ground_unit: bool = True

    @classmethod
    def at(
        cls,
        battlemap: BattleMap,
        h: Hex,
        card: UnitCard,
        *,
        hindrances: int = 0,
        captor_has_ground_unit: bool = True,
    ) -> DefenseContext:
        """The context of a unit of ``card`` standing in hex ``h`` of ``battlemap``.

        Uses :func:`hexwar.rules.terrain_effects.terrain_defense_modifier` with the unit's
        type (soft / armored / aircraft, R6.8).

        Raises:
            MapError: when ``h`` is off the map.
        """
        unit_type = "infantry" if card.is_crew else card.unit_type
        return cls(terrain_defense_modifier(battlemap, h, unit_type), hindrances, captor_has_ground_unit)


@dataclass(frozen=True, slots=True)
class AttackOrders:
    """A declared attack's choices (R6.1, steps b and the attack's Command cards).

    Attributes:
        weapons: weapon indexes in card order of fire (1 or 2, distinct).
        indirect: fired indirectly (rear line, or an SPG's 1st weapon, R7.2-R7.3).
        command_cards: Command card instances (or ids) played on this attack; only cards
            of duration ``"attack"`` (Aimed Fire, Flank Shot, Rapid Fire, ...).
    """

    weapons: tuple[int, ...]
    indirect: bool = False
    command_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BonusRequest:
    """Asked before every roll the attacker may improve with a Command card (R1.3).

    Attributes:
        roll: ``"to_hit"``, ``"intensity"`` or ``"assault_dice"``.
        number: the to-hit roll's number within the attack, from 0 (intensity and assault
            dice carry the number of the to-hit roll that hit).
        attacker: attacking unit uid (``None`` for off-board artillery / fire).
        target: target unit uid.
        weapon_index: weapon fired (``None`` for close assault, fire, artillery).
        need: the attack value needed (to-hit rolls only; 0 otherwise).
        modifier: the to-hit modifiers before any bonus (to-hit rolls only).
    """

    roll: str
    number: int
    attacker: str | None
    target: str
    weapon_index: int | None = None
    need: int = 0
    modifier: int = 0


#: Answers a :class:`BonusRequest`: True = discard a Command card for +1 on this roll.
BonusPolicy = Callable[[BonusRequest], bool]

#: Classic friendly fire (R6.4): ``(attacker, weapon, weapon index) -> (friendly target, its
#: context)`` chosen by the opponent among the legal friendly targets of the firer, or
#: ``None`` when there is none. ``attacker`` is ``None`` for off-board artillery.
FriendlyFirePolicy = Callable[[UnitLike | None, Weapon, int | None], "tuple[UnitLike, DefenseContext] | None"]


def bonus_on(to_hit: Iterable[int] | str = (), intensity: Iterable[int] | str = ()) -> BonusPolicy:
    """A :data:`BonusPolicy` that uses the Command-card bonus on given roll numbers.

    Args:
        to_hit: to-hit roll numbers (0-based within the attack), or ``"all"``.
        intensity: to-hit roll numbers whose Intensity roll gets the bonus, or ``"all"``.

    >>> p = bonus_on(to_hit=[1])
    >>> p(BonusRequest("to_hit", 0, "a", "b")), p(BonusRequest("to_hit", 1, "a", "b"))
    (False, True)
    """
    th = None if to_hit == "all" else frozenset(int(i) for i in to_hit)
    it = None if intensity == "all" else frozenset(int(i) for i in intensity)

    def policy(req: BonusRequest) -> bool:
        if req.roll == "to_hit":
            return th is None or req.number in th
        return it is None or req.number in it

    return policy
