"""The campaign data files (``format = "hexwar-campaign-cards"``, ``hexwar/data/campaign/*.toml``) as typed models.

One model per ``kind`` (002, R11.2): ``rules``, ``years``, ``ranks``, ``battle``, ``tactics``,
``campaign``, ``events`` and ``hex_battles``; :data:`CampaignFile` is their union, told apart by
``kind`` (``hexwar schema campaign``). An effect's model checks what its kind takes (a value, an
arm, a side) and on which cards it may be (:data:`CAMPAIGN_EFFECT_RULES`). What needs other
cards or files (years that follow one another, rank orders without gaps, seven battle cards a
side, ids used once) is checked by :func:`hexwar.campaign.cards.load_campaign_cards` after it.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, ValidatorFunctionWrapHandler, model_validator

from ..model.filemodel import EXACT, FileModel, json_schema, new_dict
from .card_vocab import card_rules

__all__ = [
    "CAMPAIGN_EFFECT_RULES",
    "CAMPAIGN_MODELS",
    "CampaignFile",
    "CampaignKind",
    "CampaignHeader",
    "campaign_schema",
]

Side = Literal["german", "soviet"]
Arm = Literal["armour", "infantry", "artillery", "air"]
EffectKind = Literal[
    "score", "opponent_score", "cancel_opponent_tactic", "returns_to_hand", "wins_draws", "loss_is_stalemate"
]
Text = Annotated[str, StringConstraints(pattern=r"\S"), Field(description="text")]
Note = Annotated[str, Field(description="text")]
#: effect kind -> (takes a value, the card kinds it may be on, may select an arm (events: a side))
CAMPAIGN_EFFECT_RULES: dict[str, tuple[bool, frozenset[str], bool]] = {
    "score": (True, frozenset({"tactics", "campaign", "events"}), True),
    "opponent_score": (True, frozenset({"tactics", "campaign"}), False),
    "cancel_opponent_tactic": (False, frozenset({"tactics"}), False),
    "returns_to_hand": (False, frozenset({"tactics"}), False),
    "wins_draws": (False, frozenset({"tactics", "campaign"}), False),
    "loss_is_stalemate": (False, frozenset({"tactics"}), False),
}


class _Effect(FileModel):
    """An effect ``{ kind = ..., value = ..., arm = ... }`` on a card of kind :attr:`ON`."""

    ON: ClassVar[str] = "tactics"

    kind: EffectKind = Field(description="a campaign effect kind (docs/campaign.md)")
    value: int | None = Field(None, ge=-9, le=9, description="an integer -9..9")
    side: Side | None = Field(None, description='"german" or "soviet"')
    arm: Arm | None = Field(None, description="an arm: armour, infantry, artillery or air")

    @model_validator(mode="wrap")
    @classmethod
    def _kind_rules(cls, v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        out = handler(v)
        takes_value, allowed_on, selects = CAMPAIGN_EFFECT_RULES[out.kind]
        if cls.ON not in allowed_on:
            card_rules(
                "Effect",
                v,
                [
                    (
                        "kind",
                        f"{out.kind!r} is not allowed on {cls.ON} cards (allowed on {sorted(allowed_on)})",
                    )
                ],
            )
        known = (
            {"kind"}
            | ({"value"} if takes_value else set())
            | ({"arm"} | ({"side"} if cls.ON == "events" else set()) if selects else set())
        )
        found = [
            (k, f"unknown field; expected one of {sorted(known)}")
            for k in ("value", "side", "arm")
            if k in out.model_fields_set and k not in known
        ]
        if takes_value and not out.value:
            found.append(("value", f"expected a non-zero score change, got {out.value!r}"))
        card_rules("Effect", v, found)
        return out


class TacticEffect(_Effect):
    """An effect of a tactic card."""

    ON: ClassVar[str] = "tactics"


class CampaignEffect(_Effect):
    """An effect of a campaign card."""

    ON: ClassVar[str] = "campaign"


class EventEffect(_Effect):
    """An effect of an event card (may select a side)."""

    ON: ClassVar[str] = "events"


_EFFECTS = "a non-empty list of { kind = ..., ... } tables"
_EFFECT = "a table { kind = ... }"
TacticEffects = Annotated[
    list[Annotated[TacticEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]
CampaignEffects = Annotated[
    list[Annotated[CampaignEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]
EventEffects = Annotated[
    list[Annotated[EventEffect, Field(description=_EFFECT)]], Field(min_length=1, description=_EFFECTS)
]

FILE_KIND = Literal["rules", "years", "ranks", "battle", "tactics", "campaign", "events", "hex_battles"]


class CampaignKind(FileModel):
    """The ``kind`` of a campaign file, read first to choose its model."""

    model_config = FileModel.model_config | {"extra": "allow"}

    kind: FILE_KIND


class CampaignHeader(FileModel):
    """The keys every campaign file starts with."""

    model_config = FileModel.model_config | {"extra": "allow"}

    format: Literal["hexwar-campaign-cards"] = Field(description='"hexwar-campaign-cards"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")
    kind: FILE_KIND = Field(
        description="rules, years, ranks, battle, tactics, campaign, events or hex_battles"
    )


class _Head(FileModel):
    format: Literal["hexwar-campaign-cards"] = Field(description='"hexwar-campaign-cards"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")


def _table(model: Any, what: str) -> Any:
    return Annotated[
        dict[str, Annotated[model, Field(description="a table")]],
        Field(min_length=1, description=f"[{what}.ID] tables"),
    ]


class RulesFile(_Head):
    """``kind = "rules"``: the campaign's numbers (002)."""

    kind: Literal["rules"] = Field(description='"rules"')
    battles_per_year: int = Field(ge=1, le=20, description="an integer 1..20")
    wins_to_promote: int = Field(ge=1, le=20, description="an integer 1..20")
    years_to_win: int = Field(ge=1, le=5, description="an integer 1..5")
    events_per_year: int = Field(ge=1, le=2, description="an integer 1..2")
    tied_year: Literal["initiative", "nobody"] = Field(
        "initiative",
        description='who takes the card of a year tied in battles won: "initiative" (hexwar\'s tiebreak) or '
        '"nobody" (002: unclaimed)',
    )


class YearEntry(FileModel):
    """A year card (002 Rules .3)."""

    year: int = Field(ge=1939, le=1950, description="an integer 1939..1950")
    title: Text
    initiative: Literal["german", "soviet", "draw"] = Field(description='"german", "soviet" or "draw"')


class YearsFile(_Head):
    """``kind = "years"``."""

    kind: Literal["years"] = Field(description='"years"')
    year: _table(YearEntry, "year")  # type: ignore[valid-type]


class RankEntry(FileModel):
    """A rank (002 Rules .1)."""

    order: int = Field(ge=1, le=10, description="an integer 1..10")
    title: Text
    tactic_cards: int = Field(ge=0, le=5, description="an integer 0..5")


class RanksFile(_Head):
    """``kind = "ranks"``."""

    kind: Literal["ranks"] = Field(description='"ranks"')
    rank: _table(RankEntry, "rank")  # type: ignore[valid-type]


class BattleEntry(FileModel):
    """A battle card (002)."""

    side: Side = Field(description='"german" or "soviet"')
    title: Text
    arm: Arm = Field(description="an arm: armour, infantry, artillery or air")
    value: int = Field(ge=0, le=20, description="an integer 0..20")
    note: Note = ""


class BattleFile(_Head):
    """``kind = "battle"``."""

    kind: Literal["battle"] = Field(description='"battle"')
    battle: _table(BattleEntry, "battle")  # type: ignore[valid-type]


class TacticEntry(FileModel):
    """A tactic card (002 Rules .2)."""

    title: Text
    effects: TacticEffects
    note: Note = ""


class TacticsFile(_Head):
    """``kind = "tactics"``."""

    kind: Literal["tactics"] = Field(description='"tactics"')
    tactic: _table(TacticEntry, "tactic")  # type: ignore[valid-type]


class CampaignEntry(FileModel):
    """A campaign card (once per war, cannot be countered)."""

    side: Side = Field(description='"german" or "soviet"')
    title: Text
    effects: CampaignEffects
    note: Note = ""


class CampaignCardsFile(_Head):
    """``kind = "campaign"``."""

    kind: Literal["campaign"] = Field(description='"campaign"')
    campaign: _table(CampaignEntry, "campaign")  # type: ignore[valid-type]


class EventEntry(FileModel):
    """An event card."""

    title: Text
    effects: EventEffects
    note: Note = ""


class EventsFile(_Head):
    """``kind = "events"``."""

    kind: Literal["events"] = Field(description='"events"')
    event: _table(EventEntry, "event")  # type: ignore[valid-type]


class HexBattlesFile(_Head):
    """``kind = "hex_battles"``: the hex scenarios fought for each year (``--battles hex``)."""

    kind: Literal["hex_battles"] = Field(description='"hex_battles"')
    year: dict[
        Annotated[
            str, StringConstraints(pattern=r"^(19(39|4[0-9]|50))$"), Field(description="a year 1939..1950")
        ],
        Annotated[
            list[Annotated[str, StringConstraints(min_length=1), Field(description="a scenario name")]],
            Field(description="a list of scenario names"),
        ],
    ] = Field(default_factory=new_dict, description="a table YEAR = [scenario names]")
    min_units: int = Field(ge=0, le=50, description="an integer 0..50")


CampaignFile = Annotated[
    RulesFile
    | YearsFile
    | RanksFile
    | BattleFile
    | TacticsFile
    | CampaignCardsFile
    | EventsFile
    | HexBattlesFile,
    Field(discriminator="kind"),
]
#: kind -> its model
CAMPAIGN_MODELS: dict[str, Any] = {
    "rules": RulesFile,
    "years": YearsFile,
    "ranks": RanksFile,
    "battle": BattleFile,
    "tactics": TacticsFile,
    "campaign": CampaignCardsFile,
    "events": EventsFile,
    "hex_battles": HexBattlesFile,
}


def campaign_schema() -> dict[str, Any]:
    """The JSON Schema of the campaign data files (``hexwar schema campaign``)."""
    return json_schema(
        CampaignFile,  # type: ignore[arg-type]
        "urn:hexwar:schema:campaign",
        "hexwar campaign data file (TOML, as parsed)",
        "A campaign data file (hexwar/data/campaign/*.toml, 002) as the TOML document parses, told "
        "apart by its kind. Years that follow one another, rank orders, the number of battle cards "
        "and ids used once are checked by hexwar after the schema.",
    )
