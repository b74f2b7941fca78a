"""The game's own events, one frozen class per kind (issue 14: typed events end to end).

Every event the hex game reports itself (not a roll, not a rules module's event) is an instance
of one of the classes below, a subclass of :class:`~hexwar.game.events.Event`. Each class names
its ``KIND`` (the log's ``"kind"``), the rule it reports, and its data as typed read-only
attributes (``ev.unit``, ``ev.turn`` ...), so the UI, the AI, the view and the network code read
``MoveEvent.unit`` instead of ``ev.data["unit"]``. The JSON form (``{"kind", "text", "data"}``)
is unchanged, byte for byte: it is made in one place, :func:`~hexwar.game.events.event_to_json`,
and old saves' log hashes depend on it.

:meth:`Recorder.emit <hexwar.game.events.Recorder.emit>` builds the class registered for a kind
and refuses data that does not fit it (a missing or unknown key is a programming error, caught by
every test that plays a game). :func:`~hexwar.game.events.event_from_json` rebuilds the typed
class when the data fits and keeps a plain :class:`~hexwar.game.events.Event` otherwise (a side's
redacted view of an event, R12.1, or a kind of a newer version).

>>> from hexwar.game.events import event_class, event_from_json, event_to_json
>>> e = event_class("move")("Soviet moves T-34 (su-t34#1) D07 -> D05 (2 MP)",
...                          {"unit": "su-t34#1", "from": "D07", "path": ["D06", "D05"], "mp": 2})
>>> type(e).__name__, e.unit, e.src, e.mp
('MoveEvent', 'su-t34#1', 'D07', 2)
>>> type(event_from_json(event_to_json(e))).__name__
'MoveEvent'
"""

from __future__ import annotations

from typing import Any

from .event_base import DataField, TypedEvent

__all__ = [
    "SetupEvent",
    "PlaceEvent",
    "BeginTurnEvent",
    "DealEvent",
    "HandEvent",
    "DeckEvent",
    "InitiativeTieEvent",
    "InitiativeEvent",
    "PhaseEvent",
    "EndPhaseEvent",
    "EndTurnEvent",
    "UndoEvent",
    "CommitEvent",
    "OverrunResetEvent",
    "MoveEvent",
    "MoveCrewEvent",
    "RecrewEvent",
    "DeclareEvent",
    "VoidEvent",
    "WeaponsLostEvent",
    "ScoreEvent",
    "ForfeitEvent",
    "CrewEvent",
    "WithdrawEvent",
    "CapturedEvent",
    "CommandCardEvent",
    "RepairEvent",
    "ReservesEvent",
    "EventCardEvent",
    "EventEndsEvent",
    "RollBonusEvent",
    "DrawEvent",
    "DiscardEvent",
    "ObjectiveEvent",
    "ObjectivesEvent",
    "OverrunEvent",
    "VictoryEvent",
]


# -- the turn (R5) ---------------------------------------------------------------------------------
class SetupEvent(TypedEvent):
    """The game is set up (R1.2: the seed decides every die; R12.5: it never leaves the game)."""

    __slots__ = ()
    KIND = "setup"
    scenario = DataField[str]()
    seed = DataField[int]()
    variants = DataField[list[str]]()


class PlaceEvent(TypedEvent):
    """A scenario's fixed starting unit is placed (R10.2), with its crew if any."""

    __slots__ = ()
    KIND = "place"
    unit = DataField[str]()
    hex = DataField["str | None"]()
    crew = DataField["str | None"]()


class BeginTurnEvent(TypedEvent):
    """A turn begins (R5.1)."""

    __slots__ = ()
    KIND = "begin_turn"
    turn = DataField[int]()


class DealEvent(TypedEvent):
    """A side is dealt its Command cards at the start (R5)."""

    __slots__ = ()
    KIND = "deal"
    side = DataField[str]()
    cards = DataField[list[str]]()


class HandEvent(TypedEvent):
    """A side takes its starting unit cards into hand (R5; hidden from the other side, R12.1)."""

    __slots__ = ()
    KIND = "hand"
    side = DataField[str]()
    cards = DataField[list[str]]()


class DeckEvent(TypedEvent):
    """A side builds its own Reserves deck in setup (000, R4.3; the cards hidden from the
    other side, R12.1)."""

    __slots__ = ()
    KIND = "deck"
    side = DataField[str]()
    cards = DataField[list[str]]()


class InitiativeTieEvent(TypedEvent):
    """The initiative rolls tie and are rolled again (R5.1 c)."""

    __slots__ = ()
    KIND = "initiative_tie"
    roll = DataField[int]()


class InitiativeEvent(TypedEvent):
    """A side wins initiative (R5.1 c): ``rolls`` is side -> total."""

    __slots__ = ()
    KIND = "initiative"
    winner = DataField[str]()
    rolls = DataField[dict[str, int]]()


class PhaseEvent(TypedEvent):
    """A phase of the turn begins (R5)."""

    __slots__ = ()
    KIND = "phase"
    turn = DataField[int]()
    phase = DataField[str]()


class EndPhaseEvent(TypedEvent):
    """A side ends its part of a phase (R5)."""

    __slots__ = ()
    KIND = "end_phase"
    side = DataField[str]()
    phase = DataField[str]()


class EndTurnEvent(TypedEvent):
    """A turn ends (R5.6) with the victory points so far (side -> VP)."""

    __slots__ = ()
    KIND = "end_turn"
    turn = DataField[int]()
    vp = DataField[dict[str, int]]()


class UndoEvent(TypedEvent):
    """A side takes back its commands of the phase (R12.3)."""

    __slots__ = ()
    KIND = "undo"
    side = DataField[str]()
    undone = DataField[Any]()


# -- commitment and movement (R5.2, R5.3) ----------------------------------------------------------
class CommitEvent(TypedEvent):
    """A unit card is committed onto the map or aloft (R5.2), with its crew and carried unit."""

    __slots__ = ()
    KIND = "commit"
    unit = DataField[str]()
    hex = DataField["str | None"]()
    crew = DataField["str | None"]()
    carry = DataField["str | None"]()


class OverrunResetEvent(TypedEvent):
    """The enemy's Overrun count resets: this side committed a ground unit (R10.1)."""

    __slots__ = ()
    KIND = "overrun_reset"
    side = DataField[str]()


class MoveEvent(TypedEvent):
    """A ground unit moves along ``path`` (hex labels) from ``src``, spending ``mp`` (R5.3)."""

    __slots__ = ()
    KIND = "move"
    unit = DataField[str]()
    src = DataField[str]("from")
    path = DataField[list[str]]()
    mp = DataField[int]()


class MoveCrewEvent(TypedEvent):
    """A crew moves onto a crewless unit (001), from the unit it crewed (``src``) or on foot."""

    __slots__ = ()
    KIND = "move_crew"
    crew = DataField[str]()
    unit = DataField[str]()
    src = DataField["str | None"]("from")


class RecrewEvent(TypedEvent):
    """A crew card is put on a crewless unit (000 crews, R5.2)."""

    __slots__ = ()
    KIND = "recrew"
    crew = DataField[str]()
    unit = DataField[str]()


# -- combat (R6, R7) -------------------------------------------------------------------------------
class DeclareEvent(TypedEvent):
    """An attack is declared (R6 a); ``attack`` is its JSON (number, attackers, target...)."""

    __slots__ = ()
    KIND = "declare"
    attack = DataField[dict[str, Any]]()


class VoidEvent(TypedEvent):
    """A declared attack is void when it comes to resolve (R6.2)."""

    __slots__ = ()
    KIND = "void"
    attack = DataField[int]()


class WeaponsLostEvent(TypedEvent):
    """An attack keeps only some of its weapons (R6.2): ``weapons`` are the kept indices."""

    __slots__ = ()
    KIND = "weapons_lost"
    attack = DataField[int]()
    weapons = DataField[list[int]]()


class ScoreEvent(TypedEvent):
    """A side scores victory points for a destroyed or captured unit (R10.1)."""

    __slots__ = ()
    KIND = "score"
    side = DataField[str]()
    unit = DataField[str]()
    points = DataField[int]()
    kind_of_kill = DataField[str]("kind")


class ForfeitEvent(TypedEvent):
    """A side gives up points it scored for a unit the enemy retook (000 captured units)."""

    __slots__ = ()
    KIND = "forfeit"
    side = DataField[str]()
    unit = DataField[str]()
    points = DataField[int]()


class CrewEvent(TypedEvent):
    """What becomes of a destroyed vehicle's crew (R6.6): ``fate`` and, if on the map, its hex."""

    __slots__ = ()
    KIND = "crew"
    unit = DataField[str]()
    fate = DataField[str]()
    hex = DataField["str | None"](optional=True)


class WithdrawEvent(TypedEvent):
    """A unit returns under its Reserves deck (R5.6: Turns of Flight spent, or crewless)."""

    __slots__ = ()
    KIND = "withdraw"
    unit = DataField[str]()


class CapturedEvent(TypedEvent):
    """A crewless unit is enveloped and captured (000 captured units)."""

    __slots__ = ()
    KIND = "captured"
    side = DataField[str]()
    unit = DataField[str]()


# -- cards (R5.5, R1.3) ----------------------------------------------------------------------------
class CommandCardEvent(TypedEvent):
    """A Command card is played (R6, on a unit when ``unit`` is set)."""

    __slots__ = ()
    KIND = "command_card"
    side = DataField[str]()
    card = DataField[str]()
    unit = DataField["str | None"]()


class RepairEvent(TypedEvent):
    """A Damage card is removed from a unit by a Command card (R6)."""

    __slots__ = ()
    KIND = "repair"
    unit = DataField[str]()


class ReservesEvent(TypedEvent):
    """A unit card is taken from the Reserves deck to commit (a Command card; hidden, R12.1)."""

    __slots__ = ()
    KIND = "reserves"
    side = DataField[str]()
    card = DataField[str]()


class EventCardEvent(TypedEvent):
    """An Event card is drawn and applies to both sides (R5.5)."""

    __slots__ = ()
    KIND = "event_card"
    side = DataField[str]()
    card = DataField[str]()


class EventEndsEvent(TypedEvent):
    """An Event card's effect ends (R5.6)."""

    __slots__ = ()
    KIND = "event_ends"
    card = DataField[str]()


class RollBonusEvent(TypedEvent):
    """A card is discarded for a bonus on a roll (R1.3)."""

    __slots__ = ()
    KIND = "roll_bonus"
    side = DataField[str]()
    card = DataField[str]()
    roll = DataField[str]()


class DrawEvent(TypedEvent):
    """A side draws its cards (R5.5): ``sources`` as chosen, ``drawn`` the cards got."""

    __slots__ = ()
    KIND = "draw"
    side = DataField[str]()
    sources = DataField[list[str]]()
    drawn = DataField[list[str]]()


class DiscardEvent(TypedEvent):
    """A card is discarded to the hand limit (R5.5)."""

    __slots__ = ()
    KIND = "discard"
    side = DataField[str]()
    card = DataField[str]()


# -- victory (R10) ---------------------------------------------------------------------------------
class ObjectiveEvent(TypedEvent):
    """A side takes an objective hex (R10.2: the last ground unit to enter holds it)."""

    __slots__ = ()
    KIND = "objective"
    side = DataField[str]()
    hex = DataField[str]()


class ObjectivesEvent(TypedEvent):
    """A side does not hold every objective at the turn a scenario checks them (R10.2)."""

    __slots__ = ()
    KIND = "objectives"
    side = DataField[str]()


class OverrunEvent(TypedEvent):
    """A side's Overrun count after an end of turn (R10.1)."""

    __slots__ = ()
    KIND = "overrun"
    side = DataField[str]()
    count = DataField[int]()


class VictoryEvent(TypedEvent):
    """The game is over (R10, R12.4): the data is the result's JSON."""

    __slots__ = ()
    KIND = "victory"
    OPEN = True
    winner = DataField["str | None"]()
    reason = DataField[str]()
    turn = DataField[int]()
    score = DataField[dict[str, int]]()
    objective_points = DataField[dict[str, int]]()
