"""The save file (``"format": "hexwar-save"``, hex and lines games) as typed models, one per version.

:class:`SaveFileV2` is the current file (version 2 adds ``scenario.map``, a game on a generated
map); :class:`SaveFileV1` the round-1 file; :func:`save_1_to_2` the step between them
(``hexwar.formats.migrate`` runs it). ``hexwar schema save`` prints the current model's JSON
Schema and :func:`hexwar.formats.schema.schema_problems` checks a document with it. Each
command's own fields (by ``cmd``), the bookkeeping (counts, hashes) and the replay itself are
checked by :func:`hexwar.game.save.parse_save` after the model. Commands are typed dicts that
keep their other keys: a save may hold 200,000 of them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints, ValidationError, ValidatorFunctionWrapHandler
from pydantic import WrapValidator as _Wrap
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from ..model.filemodel import DEFERRED, EXACT, FileModel, error_details, json_schema, new_dict, new_list
from .save_steps import SAVE_MIGRATIONS, SAVE_SCHEMA_VERSION, save_1_to_2

__all__ = [
    "SaveFileV1",
    "SaveFileV2",
    "SaveFile",
    "SAVE_MIGRATIONS",
    "SAVE_SCHEMA_VERSION",
    "save_1_to_2",
    "save_schema",
]

Side = Literal["german", "soviet"]
Seat = Literal["german", "soviet", "german-front", "german-support", "soviet-front", "soviet-support"]
Variant = Annotated[
    Literal["standard", "classic", "burnout", "fog", "crews-fight"],
    Field(description="a rule variant: standard, classic, burnout, fog or crews-fight"),
]
Count = Annotated[int, Field(ge=0)]


class SavedScenario(FileModel):
    """The scenario the game was played from, and its hash when saved."""

    model_config = DEFERRED  # the save models are built when a save is first read or written

    id: str = Field(description="text (the scenario id)")
    name: str = Field(description="text (the scenario as given when the game started)")
    path: str = Field(description="text (the scenario file's path when saved)")
    hash: Annotated[str, StringConstraints(pattern=r"^([0-9a-f]{64})?$")] = Field(
        description="a 64-digit SHA-256 hex digest"
    )


class SavedScenarioV2(SavedScenario):
    """Version 2: the map a game was played on instead of the scenario's (generated, or a map file)."""

    # absent when the game used the scenario's own map; never null (the default is not validated)
    map: Annotated[
        str,
        StringConstraints(pattern=r"^(generated:[0-9]+(:[a-z]+)?(:[0-9]+x[0-9]+)?|file:[^/\\]+\.json)$"),
    ] = Field(
        None,  # type: ignore[assignment]
        description="the map the game was played on instead of the scenario's, e.g. generated:7:village:30x24, "
        "or file:NAME.json, a map file looked for by name in the save's and the scenario's folders and the "
        "shipped maps (version 2)",
    )


class SavedCommand(TypedDict, total=False):
    """A command of the log: ``cmd`` and who gave it (``side``; lines: ``seat``), then its own fields."""

    __pydantic_config__ = ConfigDict(extra="allow", strict=True)  # type: ignore[misc]

    cmd: Annotated[str, Field(description="a command name")]
    side: Annotated[Side, Field(description="a side: german or soviet")]
    seat: Annotated[Seat, Field(description="a seat of the lines game (lines saves)")]


class Checkpoint(TypedDict):
    """The state hash after an End Turn: ``{turn, commands, hash}``."""

    __pydantic_config__ = ConfigDict(extra="allow", strict=True)  # type: ignore[misc]

    turn: Annotated[int, Field(ge=0, description="an integer (turn)")]
    commands: Annotated[int, Field(ge=0, description="an integer (commands applied)")]
    hash: Annotated[str, Field(description="text (state hash)")]


class Final(TypedDict, total=False):
    """The end of the log: ``{turn, phase, commands, hash, result}`` (``hash`` required)."""

    __pydantic_config__ = ConfigDict(extra="allow", strict=True)  # type: ignore[misc]

    turn: Annotated[int, Field(ge=0, description="an integer (turn)")]
    phase: Annotated[str, Field(description="text (phase)")]
    commands: Annotated[int, Field(ge=0, description="an integer (commands in the log)")]
    hash: Annotated[str, Field(description="text (state hash)")]
    commands_hash: Annotated[str, Field(description="text (SHA-256 of the command log)")]
    log_hash: Annotated[str, Field(description="text (SHA-256 of the event log)")]
    result: Annotated[dict[str, Any] | None, Field(description="the result object or null")]


def _final_needs_hash(v: Any, handler: ValidatorFunctionWrapHandler) -> Final:
    """``final.hash`` is required (a typed dict with optional keys cannot say it)."""
    missing = isinstance(v, dict) and "hash" not in v
    try:
        out: Final = handler(v)
    except ValidationError as exc:
        errs = error_details(exc) + ([_missing("hash", "text (state hash)", v)] if missing else [])
        raise ValidationError.from_exception_data("Final", errs) from None
    if missing:
        raise ValidationError.from_exception_data("Final", [_missing("hash", "text (state hash)", v)])
    return out


def _missing(key: str, desc: str | None, value: Any, loc: tuple[int | str, ...] = ()) -> InitErrorDetails:
    msg = f"missing; expected {desc}" if desc else "missing"
    return InitErrorDetails(
        type=PydanticCustomError("required_key", msg, {"field": key}), loc=loc, input=value
    )


class _SaveBody(FileModel):
    model_config = DEFERRED  # built when a save is first read or written, not at every start

    format: Literal["hexwar-save"] = Field(description='"hexwar-save"')
    mode: Literal["hex", "lines"] = Field("hex", description="the game mode (R11.1): hex (default) or lines")
    setup: dict[str, Any] = Field(
        default_factory=new_dict,
        description="a game mode's start choices the scenario file does not hold (lines: decks)",
    )
    seed: int = Field(ge=0, description="an integer >= 0 (the game's seed, R1.2)")
    variants: list[Variant] = Field(default_factory=new_list, description="a list of rule variants")
    rules_revision: int = Field(
        1, ge=1, description="the rules revision the game was played with (absent: 1, the saves of round 1)"
    )
    players: dict[
        Annotated[Seat, Field(description="a side, or a seat of the lines game")],
        Annotated[str, Field(description="text (who played the side)")],
    ] = Field(default_factory=new_dict, description="{side or seat: name}")
    commands: list[
        Annotated[SavedCommand, Field(description='a command object with "cmd" and "side" (lines: "seat")')]
    ] = Field(max_length=200_000, description="a list of commands")
    checkpoints: list[Annotated[Checkpoint, Field(description="{turn: int, commands: int, hash: text}")]] = (
        Field(default_factory=new_list, description="a list of {turn, commands, hash}")
    )
    final: Annotated[
        Final,
        _Wrap(_final_needs_hash, json_schema_input_type=Final),
        Field(description="{turn, phase, commands, hash, result}"),
    ]


def _who_gave_it(v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """Every command names ``cmd`` and its ``side`` (a lines save: its ``seat``), all reported at once."""
    extra: list[InitErrorDetails] = []
    if isinstance(v, dict) and isinstance(v.get("commands"), list):
        who = "seat" if v.get("mode") == "lines" else "side"
        for i, c in enumerate(v["commands"]):
            if isinstance(c, dict):
                if "cmd" not in c:  # as the schema's items and its if/then/else both say
                    extra.append(_missing("cmd", "a command name", c, ("commands", i)))
                for key in ("cmd", who):
                    if key not in c:
                        extra.append(_missing(key, None, c, ("commands", i)))
    try:
        out = handler(v)
    except ValidationError as exc:
        raise ValidationError.from_exception_data("SaveFile", error_details(exc) + extra) from None
    if extra:
        raise ValidationError.from_exception_data("SaveFile", extra)
    return out


class SaveFileV1(_SaveBody):
    """A round-1 save: no ``scenario.map``."""

    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")
    scenario: SavedScenario = Field(description="{id, name, path, hash}")


class SaveFileV2(_SaveBody):
    """A save of this hexwar (version 2)."""

    model_config = _SaveBody.model_config | {
        "json_schema_extra": {
            "if": {"properties": {"mode": {"const": "lines"}}, "required": ["mode"]},
            "then": {"properties": {"commands": {"items": {"required": ["cmd", "seat"]}}}},
            "else": {"properties": {"commands": {"items": {"required": ["cmd", "side"]}}}},
        }
    }

    schema_version: Annotated[Literal[2], EXACT] = Field(
        description="2 (this hexwar's save schema; version 1 files are migrated)"
    )
    scenario: SavedScenarioV2 = Field(description="{id, name, path, hash}")


SaveFile = Annotated[SaveFileV2, _Wrap(_who_gave_it)]


def save_schema() -> dict[str, Any]:
    """The JSON Schema of the current save file (``hexwar schema save``)."""
    return json_schema(
        SaveFileV2,
        "urn:hexwar:schema:save",
        "hexwar save file",
        "A saved game (version 2 adds scenario.map: a game on a generated map): the scenario "
        "reference and hash, seed, rule variants, the command log, one checkpoint per End Turn and "
        'the final state hash. Each command\'s own fields (by "cmd") and the replay itself are '
        "checked by hexwar after the schema.",
    )
