"""The deck file (``"format": "hexwar-deck"``, a Reserves deck for ``hexwar play lines --deck``) as a typed model.

:class:`DeckFile` declares the file once (000 setup); :func:`hexwar.lines.scenario.load_deck`
validates a parsed file by it (every problem at once, with the field path) and then checks what
the model cannot say: card ids that exist, of the deck's side, within the points
(:func:`hexwar.lines.scenario.deck_problems`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..model.filemodel import EXACT, FileModel
from .migrate import DECK_FORMAT  # the one spelling, re-exported

__all__ = ["DeckFile", "DeckTable", "DECK_FORMAT"]


class DeckTable(FileModel):
    """The ``[deck]`` table."""

    name: str = Field("", description="text (the deck's name)")
    side: Literal["german", "soviet"] = Field(description="a side: german or soviet")
    cards: list[Annotated[str, Field(description="a unit card id")]] = Field(
        max_length=100, description="a list of unit card ids (at most 100)"
    )


class DeckFile(FileModel):
    """A deck file (version 1)."""

    format: Literal["hexwar-deck"] = Field(description='"hexwar-deck"')
    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1")
    deck: DeckTable = Field(description="the [deck] table")
