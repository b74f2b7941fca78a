"""The vocabulary of the card files and the effects on their cards (R4.3), as typed models.

Part of the card file models (:mod:`hexwar.formats.card_file`): the names a card file may use
(unit types, lines, phases ...), every effect kind with its value rule and the cards it may be
on (:data:`EFFECT_RULES`), and one effect model per kind of card (:class:`CommandEffect`,
:class:`DamageEffect`, :class:`EventEffect`) that checks those rules.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, get_args

import pydantic
from pydantic import Field, StringConstraints, ValidatorFunctionWrapHandler, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..model.filemodel import BUILT, DEFERRED, FileModel, new_list
from ..model.terrain_file import Mobility
from .effect_rules import EFFECT_RULES

__all__ = [
    "EFFECT_RULES",
    "CommandEffect",
    "DamageEffect",
    "EventEffect",
    "CommandEffects",
    "DamageEffects",
    "EventEffects",
    "card_rules",
]

Side = Literal["german", "soviet"]
TargetType = Literal["infantry", "vehicle", "gun", "aircraft"]  # attack columns, Damage card edges
CrewType = Literal["tank_crew", "artillery_crew", "pilot"]
UnitType = Literal["infantry", "vehicle", "gun", "aircraft", "tank_crew", "artillery_crew", "pilot"]
CrewNeed = Literal["none", "infantry", "tank_crew", "artillery_crew", "pilot"]
LineName = Literal["frontline", "rear", "frontline_or_rear", "aircraft"]
Quality = Literal["green", "regular", "veteran"]
WeaponFlag = Literal["bomb", "flamethrower", "indirect"]
Phase = Literal["begin_turn", "commitment", "movement", "combat", "draw", "end_turn", "any"]
Duration = Literal["instant", "attack", "turn", "permanent"]
Text = Annotated[str, StringConstraints(pattern=r"\S"), Field(description="a text")]

EffectKindName = Literal[
    "defense",
    "attack",
    "exposed",
    "damage_index",
    "rate_of_fire",
    "no_second_weapon",
    "no_attack",
    "immobilized",
    "extra_damage",
    "movement",
    "move_cost",
    "turns_of_flight",
    "initiative",
    "draw",
    "remove_damage_card",
    "commit_from_reserves",
    "artillery_accuracy",
    "no_aircraft",
    "close_assault",
]
assert set(get_args(EffectKindName)) == set(EFFECT_RULES)


def card_rules(title: str, value: Any, found: list[tuple[str, str]]) -> None:
    """Raise every broken rule of one card at once, each naming its field (``""``: the card).

    Args:
        title: the model's name (for pydantic's error).
        value: the input validated.
        found: ``(field, message)`` of each broken rule.

    Raises:
        pydantic.ValidationError: when ``found`` is not empty.
    """
    if found:
        raise pydantic.ValidationError.from_exception_data(
            title,
            [
                InitErrorDetails(
                    type=PydanticCustomError("card_rule", msg, {"field": f} if f else None),
                    loc=(),
                    input=value,
                )
                for f, msg in found
            ],
        )


# -- effects (R4.3) ---------------------------------------------------------------------------------
class _Effect(FileModel):
    """An effect ``{ kind = ..., value = ... }`` on a card of :attr:`CONTEXT`."""

    model_config = DEFERRED  # a base only: its subclasses are built

    CONTEXT: ClassVar[str] = "command"

    kind: EffectKindName = Field(description="an effect kind (docs/cards.md)")
    value: int | None = Field(None, ge=-10, le=10, description="an integer -10..10")
    mobility: Mobility | None = Field(None, description="a mobility class: foot, tracked or wheeled")
    side: Side | None = Field(None, description="a side: german or soviet")
    unit_types: list[UnitType] = Field(default_factory=new_list, description="a list of unit types")

    @model_validator(mode="wrap")
    @classmethod
    def _kind_rules(cls, v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        out = handler(v)
        rule, contexts = EFFECT_RULES[out.kind]
        found: list[tuple[str, str]] = []
        ctx = cls.CONTEXT
        if ctx not in contexts:
            found.append(
                ("kind", f"{out.kind!r} is not allowed on {ctx} cards (allowed on: {sorted(contexts)})")
            )
        if rule == "none" and out.value is not None:
            found.append(("value", f"{out.kind!r} takes no value"))
        elif rule != "none" and (
            out.value is None or out.value == 0 or (rule == "positive" and out.value < 1)
        ):
            need = "a positive integer" if rule == "positive" else "a non-zero integer"
            found.append(("value", f"{out.kind!r} needs {need}, got {out.value!r}"))
        if out.kind == "extra_damage" and (out.value or 0) > 2:
            found.append(("value", "extra_damage is 1 or 2 d10"))
        if out.kind == "move_cost" and out.mobility is None:
            found.append(("mobility", "expected one of ('foot', 'tracked', 'wheeled'), got None"))
        elif out.kind != "move_cost" and out.mobility is not None:
            found.append(("mobility", "only move_cost effects name a mobility class"))
        if out.side is not None and ctx != "event":
            found.append(("side", "a side ('german', 'soviet') may only be named on Event effects"))
        if out.unit_types and ctx == "damage":
            found.append(("unit_types", "Damage card edges already name their unit type"))
        card_rules("Effect", v, found)
        return out


class CommandEffect(_Effect):
    """An effect of a Command card."""

    model_config = BUILT
    CONTEXT: ClassVar[str] = "command"


class DamageEffect(_Effect):
    """An effect of a Damage card's edge."""

    model_config = BUILT
    CONTEXT: ClassVar[str] = "damage"


class EventEffect(_Effect):
    """An effect of an Event card (may name a side)."""

    model_config = BUILT
    CONTEXT: ClassVar[str] = "event"


_EFFECT = 'an effect like { kind = "defense", value = 1 }'
_EFFECTS = 'a non-empty list of effects like { kind = "defense", value = 1 }'
CommandEffects = Annotated[
    list[Annotated[CommandEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]
DamageEffects = Annotated[
    list[Annotated[DamageEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]
EventEffects = Annotated[
    list[Annotated[EventEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]
