"""The campaign save file (``"format": "hexwar-campaign-save"``, R11.2) as a typed model.

:class:`CampaignSaveFile` declares the file once (``hexwar schema campaign-save``): the seed,
options, players, the command log, one checkpoint per finished year, the games of the hex or
line battles (file names in the save's folder) and the final bookkeeping. Each command's own
fields, the options' values, the hashes and the replay itself are checked by
:func:`hexwar.campaign.save.read_campaign_save` after the model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints
from typing_extensions import TypedDict

from ..model.filemodel import EXACT, FileModel, json_schema, new_dict, new_list

__all__ = ["CampaignSaveFile", "campaign_save_schema"]

_HASH = r"^[0-9a-f]{64}$"
PLAIN_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$"


class CampaignCheckpoint(FileModel):
    """The state hash after a finished year."""

    year: int = Field(description="an integer (year)")
    commands: int = Field(description="an integer (commands applied)")
    hash: Annotated[str, StringConstraints(pattern=_HASH)] = Field(description="a SHA-256 hex digest")


class CampaignGame(TypedDict):
    """A battle's game save, a file in the campaign save's folder: ``{year, battle, game, hash}``."""

    __pydantic_config__ = ConfigDict(extra="allow", strict=True)  # type: ignore[misc]

    game: Annotated[
        str, StringConstraints(pattern=PLAIN_NAME), Field(description="a file name in the save's folder")
    ]


class CampaignFinal(FileModel):
    """The end of the log (the hashes and the winner are checked after the model)."""

    model_config = FileModel.model_config | {"strict": False}

    year: Any = None
    battle: Any = None
    phase: Any = None
    commands: Any = None
    hash: Any = None
    commands_hash: Any = None
    log_hash: Any = None
    winner: Any = None
    result: Any = None
    header_hash: Any = None


class CampaignSaveFile(FileModel):
    """A campaign save (version 1)."""

    format: Literal["hexwar-campaign-save"] = Field(description='"hexwar-campaign-save"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")
    seed: int = Field(ge=0, description="an integer >= 0 (the campaign's seed, R1.2)")
    options: dict[str, Any] = Field(default_factory=new_dict, description="the campaign's options")
    players: dict[str, Any] | None = Field(None, description="an object side -> player name")
    commands: list[Annotated[dict[str, Any], Field(description="a command object")]] = Field(
        max_length=100_000, description="a list of at most 100000 commands"
    )
    checkpoints: list[
        Annotated[
            CampaignCheckpoint,
            Field(description="exactly {year: int, commands: int, hash: SHA-256 hex digest}"),
        ]
    ] = Field(description="a list of {year, commands, hash}, one per finished year")
    games: list[
        Annotated[
            CampaignGame,
            Field(description="{year, battle, game, hash}, the game a file in the save's folder"),
        ]
    ] = Field(default_factory=new_list, description="a list of {year, battle, game, hash}")
    final: CampaignFinal = Field(
        description="{year, battle, phase, commands, hash, commands_hash, log_hash, winner, result, header_hash}"
    )


def campaign_save_schema() -> dict[str, Any]:
    """The JSON Schema of the campaign save (``hexwar schema campaign-save``)."""
    return json_schema(
        CampaignSaveFile,
        "urn:hexwar:schema:campaign-save",
        "hexwar campaign save file",
        "A saved campaign (R11.2): seed, options, players, the command log, one checkpoint per "
        "finished year, the battles' game saves and the final bookkeeping. Each command's fields, "
        "the options, the hashes and the replay are checked by hexwar after the schema.",
    )
