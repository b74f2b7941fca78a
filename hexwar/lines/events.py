"""Typed frozen events of the lines game (R1.2: every roll is one :class:`RollMade`).

Each event has ``kind`` (a short name), ``text`` (one readable log line), ``data`` (its fields,
JSON-ready) and ``to_json()`` -> ``{"kind", "text", "data"}``, the hex game's event shape: the
one serializer :func:`hexwar.game.events.event_to_json` writes them through their
:meth:`LinesEvent.event_json`, so the log, the save's log hash and the headless printer work on
both modes. Rolls are the hex game's :class:`~hexwar.game.events.RollEvent` and the combat
engine's events its :class:`~hexwar.game.events.RuleEvent` (payload unchanged): the same types
end to end.

>>> e = Committed("german commits Tiger I to the frontline", "german", "de_tiger_i#1", "front", None)
>>> from hexwar.game.events import event_to_json
>>> event_to_json(e)["data"]["line"]
'front'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..game.events import RollEvent, RuleEvent
from ..rules.combat.events import _jsonable

__all__ = [
    "LinesEvent",
    "LinesLogEvent",
    "RollMade",
    "CombatHappened",
    "SetupDone",
    "HandChosen",
    "TurnBegan",
    "InitiativeWon",
    "PhaseBegan",
    "Committed",
    "Recrewed",
    "LineChanged",
    "CrewMoved",
    "CommitmentRevealed",
    "Declared",
    "Resolved",
    "CommandCardPlayed",
    "TakenFromReserves",
    "BonusDiscarded",
    "Drew",
    "EventDrawn",
    "EventEnded",
    "Discarded",
    "PhaseEnded",
    "UnitLeft",
    "Scored",
    "CaptureForfeited",
    "Enveloped",
    "LineCollapsed",
    "OverrunCount",
    "TurnEnded",
    "GameOver",
]


@dataclass(frozen=True, slots=True)
class LinesEvent:
    """Base of every lines event: ``text`` is the log line, the other fields its data."""

    kind: ClassVar[str] = "lines"
    text: str

    @property
    def data(self) -> dict[str, Any]:
        """The event's fields but ``text``, JSON-ready."""
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self) if f.name != "text"}

    def event_json(self) -> dict[str, Any]:
        """``{"kind", "text", "data"}``: what :func:`hexwar.game.events.event_to_json` writes."""
        return {"kind": self.kind, "text": self.text, "data": self.data}

    def to_json(self) -> dict[str, Any]:
        """The log form (same as :func:`hexwar.game.events.event_to_json`)."""
        return self.event_json()

    def __str__(self) -> str:
        return self.text


RollMade = RollEvent  #: a roll in the log: the hex game's RollEvent
CombatHappened = RuleEvent  #: a combat-engine event in the log: the hex game's RuleEvent (payload unchanged)

LinesLogEvent = LinesEvent | RollEvent | RuleEvent
"""Anything in a lines game's log: its own events, the shared rolls and combat events (the
event type of the lines mode's :class:`~hexwar.game.events.Recorder`)."""


@dataclass(frozen=True, slots=True)
class SetupDone(LinesEvent):
    """The game is set up: scenario, seed, rules, seats."""

    kind: ClassVar[str] = "setup"
    scenario: str
    seed: int
    variants: tuple[str, ...]
    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandChosen(LinesEvent):
    """000 setup: a seat took its 4 starting unit cards (the Reserves deck is then shuffled)."""

    kind: ClassVar[str] = "choose_hand"
    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnBegan(LinesEvent):
    """Begin Turn."""

    kind: ClassVar[str] = "begin_turn"
    turn: int


@dataclass(frozen=True, slots=True)
class InitiativeWon(LinesEvent):
    """Initiative (000 Begin Turn; 4-player: once for the Support, once for the Frontline Commanders)."""

    kind: ClassVar[str] = "initiative"
    group: str
    winner: str
    rolls: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class PhaseBegan(LinesEvent):
    """A phase begins; ``order`` is the seats' order in it."""

    kind: ClassVar[str] = "phase"
    phase: str
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Committed(LinesEvent):
    """A unit entered play on a line (``"front"``, ``"rear"``, ``"air"``)."""

    kind: ClassVar[str] = "commit"
    seat: str
    unit: str
    line: str
    crew: str | None
    infantry: str | None = None


@dataclass(frozen=True, slots=True)
class Recrewed(LinesEvent):
    """A crew card joined a crewless unit in play (replacing a lost crew, or a captured unit)."""

    kind: ClassVar[str] = "recrew"
    seat: str
    unit: str
    crew: str


@dataclass(frozen=True, slots=True)
class LineChanged(LinesEvent):
    """An SPG moved between the lines in Commitment (000)."""

    kind: ClassVar[str] = "move_line"
    seat: str
    unit: str
    line: str


@dataclass(frozen=True, slots=True)
class CrewMoved(LinesEvent):
    """Classic (001): a crew moved from one ground unit to another in Commitment."""

    kind: ClassVar[str] = "move_crew"
    seat: str
    crew: str
    from_unit: str
    to_unit: str


@dataclass(frozen=True, slots=True)
class CommitmentRevealed(LinesEvent):
    """Classic (001): the hidden commitments are revealed together."""

    kind: ClassVar[str] = "reveal"
    count: int


@dataclass(frozen=True, slots=True)
class Declared(LinesEvent):
    """An attack declared (R6.1): number, attacker(s), target, weapons."""

    kind: ClassVar[str] = "declare"
    number: int
    seat: str
    attackers: tuple[str, ...]
    target: str
    weapons: tuple[int, ...]
    at_crew: bool
    close_assault: bool


@dataclass(frozen=True, slots=True)
class Resolved(LinesEvent):
    """A declared attack was resolved (or void)."""

    kind: ClassVar[str] = "resolved"
    number: int
    seat: str


@dataclass(frozen=True, slots=True)
class CommandCardPlayed(LinesEvent):
    """A Command card played for its effect (R4.3)."""

    kind: ClassVar[str] = "command_card"
    seat: str
    card: str
    unit: str | None


@dataclass(frozen=True, slots=True)
class TakenFromReserves(LinesEvent):
    """A Command card (Reinforcements) or an Event took a unit card from the Reserves deck to commit."""

    kind: ClassVar[str] = "reserves"
    seat: str
    card: str


@dataclass(frozen=True, slots=True)
class BonusDiscarded(LinesEvent):
    """R1.3: a Command card discarded for +1 on a roll."""

    kind: ClassVar[str] = "bonus"
    seat: str
    card: str
    roll: str


@dataclass(frozen=True, slots=True)
class Drew(LinesEvent):
    """Draw Phase (R5.5)."""

    kind: ClassVar[str] = "draw"
    seat: str
    sources: tuple[str, ...]
    drawn: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EventDrawn(LinesEvent):
    """An Event card drawn: it applies to every player at once (000)."""

    kind: ClassVar[str] = "event_card"
    seat: str
    card: str


@dataclass(frozen=True, slots=True)
class EventEnded(LinesEvent):
    """An Event's turns are over."""

    kind: ClassVar[str] = "event_ends"
    card: str


@dataclass(frozen=True, slots=True)
class Discarded(LinesEvent):
    """Discard to the hand limits (R5.5): Command cards leave the game, unit cards go under the Reserves."""

    kind: ClassVar[str] = "discard"
    seat: str
    card: str


@dataclass(frozen=True, slots=True)
class PhaseEnded(LinesEvent):
    """A seat is done with the phase."""

    kind: ClassVar[str] = "end_phase"
    seat: str
    phase: str


@dataclass(frozen=True, slots=True)
class UnitLeft(LinesEvent):
    """A unit left play: ``where`` is ``"removed"`` (out of the game) or ``"reserves"``; its
    Command and Damage cards were cleared (000)."""

    kind: ClassVar[str] = "leave_play"
    unit: str
    where: str
    cleared: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scored(LinesEvent):
    """Victory points (R10): cost for destroyed, twice for captured."""

    kind: ClassVar[str] = "score"
    side: str
    unit: str
    how: str
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class CaptureForfeited(LinesEvent):
    """000: the captor crews a captured unit instead of scoring it: the points are given back."""

    kind: ClassVar[str] = "forfeit"
    side: str
    unit: str
    points: int


@dataclass(frozen=True, slots=True)
class Enveloped(LinesEvent):
    """000: a crewless unit alone on its Frontline is enveloped and captured."""

    kind: ClassVar[str] = "captured"
    unit: str
    captor: str


@dataclass(frozen=True, slots=True)
class LineCollapsed(LinesEvent):
    """000: the whole Frontline was lost: the Rear Line becomes the Frontline (Begin Turn)."""

    kind: ClassVar[str] = "line_collapse"
    side: str
    units: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OverrunCount(LinesEvent):
    """R10.1 Overrun count of a side after End Turn (or its reset by a commitment)."""

    kind: ClassVar[str] = "overrun"
    side: str
    count: int


@dataclass(frozen=True, slots=True)
class TurnEnded(LinesEvent):
    """End Turn done."""

    kind: ClassVar[str] = "end_turn"
    turn: int


@dataclass(frozen=True, slots=True)
class GameOver(LinesEvent):
    """The game has ended (R10)."""

    kind: ClassVar[str] = "victory"
    winner: str | None
    reason: str
    turn: int
    score: tuple[tuple[str, int], ...]
