"""Game events: what happened when a command was applied (DESIGN: commands -> events).

Every change to a game is the result of a command; :meth:`GameState.apply
<hexwar.game.state.GameState.apply>` returns the events it caused, in order, including one
:class:`RollEvent` for every die rolled (R1.2) at the moment it was rolled. The game log is the
concatenation of these lists. Events stay typed objects from the rules to the UI:

* :class:`Event`: an event the game itself reports (``"commit"``, ``"phase"``, ``"draw"`` ...);
* :class:`RollEvent`: one recorded :class:`~hexwar.rules.dice.Roll`;
* :class:`RuleEvent`: an event a rules module returned, unchanged in :attr:`RuleEvent.payload`
  (a :class:`~hexwar.rules.combat.CombatEvent` or an
  :class:`~hexwar.rules.terrain_effects.EffectEvent`: hexes as :class:`~hexwar.model.hexgrid.Hex`,
  rolls as :class:`~hexwar.rules.dice.Roll`).

All three answer ``kind``, ``text`` and ``data``; conversion to JSON happens in ONE place,
:func:`event_to_json` (with its inverse :func:`event_from_json` for a reader of a log or a
network stream), used by :func:`log_lines` (the log, the save's log hash) and by anything that
writes events out. :class:`Recorder` is the game's collector of events; the game's dice report
each roll to it (it is handed to the dice's log once, when the game is built).

>>> e = Event("move", "T-34/76 #1 moves D07 -> D05 (2 MP)", {"unit": "su-t34-76#1"})
>>> event_to_json(e)["kind"]
'move'
>>> event_from_json(event_to_json(e)) == e
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, cast

from typing_extensions import TypeVar as DefaultTypeVar

from ..model.maps import BattleMap
from ..rules.combat import CombatEvent
from ..rules.dice import Roll
from ..rules.terrain_effects import EffectEvent
from ..rules.wrecks import WreckDropped, WreckPlaced
from .event_base import EVENT_CLASSES, DataField, Event, TypedEvent, event_class, fits

__all__ = [
    "Event",
    "TypedEvent",
    "DataField",
    "EVENT_CLASSES",
    "event_class",
    "fits",
    "RollEvent",
    "RuleEvent",
    "UnitWreckEvent",
    "GameEvent",
    "Recorder",
    "event_to_json",
    "event_from_json",
    "log_lines",
]


@dataclass(frozen=True)
class RollEvent:
    """One die roll or random draw, recorded when it was made (R1.2).

    Attributes:
        roll: the recorded roll (``dice`` ``"shuffle"`` for a shuffle, ``"choice of N"`` for a
            random pick).
    """

    roll: Roll
    kind = "roll"

    @property
    def text(self) -> str:
        """The readable log line of the roll."""
        r = self.roll
        if r.dice == "shuffle":
            return f"{r.purpose}: {len(r.faces)} cards shuffled"
        if r.dice.startswith("choice of"):
            return f"{r.purpose}: {r.dice}, took #{r.natural + 1}"
        return str(r)

    @cached_property
    def data(self) -> dict[str, Any]:
        """The roll's JSON form (:func:`event_to_json`'s ``data``)."""
        return event_to_json(self)["data"]

    def to_json(self) -> dict[str, Any]:
        """The log form (same as :func:`event_to_json`)."""
        return event_to_json(self)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class RuleEvent:
    """An event returned by a rules module, kept typed for the UI (:attr:`payload`).

    Attributes:
        payload: the rules' frozen event: a :class:`~hexwar.rules.combat.CombatEvent` (kind
            from its class, e.g. ``"damage"``) or an
            :class:`~hexwar.rules.terrain_effects.EffectEvent` (kind: its class name in snake
            case, e.g. ``"artillery_strike"``).
    """

    payload: CombatEvent | EffectEvent

    @cached_property
    def kind(self) -> str:
        """The log kind (``"damage"``, ``"artillery_strike"``, ...)."""
        return str(event_to_json(self)["kind"])

    @property
    def text(self) -> str:
        """The readable log line (the payload's ``str``)."""
        return str(self.payload)

    @cached_property
    def data(self) -> dict[str, Any]:
        """The payload's JSON form (:func:`event_to_json`'s ``data``): read-only view."""
        return event_to_json(self)["data"]

    def to_json(self) -> dict[str, Any]:
        """The log form (same as :func:`event_to_json`)."""
        return event_to_json(self)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class UnitWreckEvent(RuleEvent):
    """The wreck a destroyed vehicle leaves, or the towed wreck it drops (R6.6, R8.1).

    Logged under ``"wreck_placed"`` / ``"wreck_dropped"`` with the payload's class name kept
    in ``data["event"]`` (the log format of round 1, which saves' log hashes depend on).
    """

    payload: WreckPlaced | WreckDropped


GameEvent = Event | RollEvent | RuleEvent
"""Anything in a game log."""


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def event_to_json(ev: GameEvent) -> dict[str, Any]:
    """THE serializer of game events: ``{"kind": str, "text": str, "data": {...}}``.

    Hexes become labels, rolls :meth:`Roll.to_json <hexwar.rules.dice.Roll.to_json>` dicts,
    enums their values (each rules event's own ``to_json`` gives its fields). The form is the
    round-1 log format, byte for byte (the log hash of old saves depends on it).

    Raises:
        TypeError: for an object that is not a game event.
    """
    if isinstance(ev, Event):
        return {"kind": ev.kind, "text": ev.text, "data": ev.data}
    if isinstance(ev, RollEvent):
        return {"kind": "roll", "text": ev.text, "data": ev.roll.to_json()}
    if isinstance(ev, UnitWreckEvent):
        return {
            "kind": _snake(type(ev.payload).__name__),
            "text": str(ev.payload),
            "data": ev.payload.to_json(),
        }
    if isinstance(ev, RuleEvent):
        p = ev.payload
        d = p.to_json()
        if isinstance(p, CombatEvent):
            kind = d.pop("kind", "combat")
        else:
            kind = _snake(d.pop("event", type(p).__name__))
        return {"kind": kind, "text": str(p), "data": d}
    own = getattr(ev, "event_json", None)  # a game mode's typed events (R11.1 lines) give this same form
    if callable(own):
        return own()  # type: ignore[no-any-return]
    raise TypeError(f"not a game event: {ev!r}")


def event_from_json(d: dict[str, Any]) -> Event:
    """The inverse of :func:`event_to_json` for a reader of a log or network stream: the
    kind's class (:mod:`hexwar.game.event_kinds`) when the data fits it, else a plain
    :class:`Event` (a side's redacted view of an event, R12.1, a roll, a rules event, another
    mode's), with the same ``kind``, ``text`` and ``data`` (the rules' typed payload is not
    rebuilt; nothing read is executed).

    Raises:
        ValueError: when ``d`` lacks a string ``kind`` or ``text`` or a dict ``data``.
    """
    kind, text, data = d.get("kind"), d.get("text"), d.get("data", {})
    if not isinstance(kind, str) or not isinstance(text, str) or not isinstance(data, dict):
        raise ValueError(f"an event needs a string 'kind' and 'text' and a 'data' object, got {sorted(d)}")
    if fits(kind, data):
        return event_class(kind)(text, data)
    return Event(kind, text, data)


def log_lines(events: Iterable[GameEvent]) -> str:
    """The events as JSON lines (sorted keys, one event per line, trailing newline)."""
    return "".join(json.dumps(event_to_json(e), sort_keys=True, ensure_ascii=False) + "\n" for e in events)


E = DefaultTypeVar("E", default=GameEvent)
"""The events a :class:`Recorder` collects: the hex game's :data:`GameEvent` unless a mode says
otherwise (the lines mode's recorder is ``Recorder[LinesLogEvent]``)."""


class Recorder(Generic[E]):
    """The event collector of one game: the events of the command being applied, in order.

    Generic over the event type ``E`` of its game mode (default :data:`GameEvent`): a mode's
    ``E`` must include :class:`RollEvent` and :class:`RuleEvent`, which the dice and the
    combat engine report in every mode; :meth:`emit` and :meth:`effect` are the hex game's.

    Built once with the game and handed to its dice log (:class:`hexwar.game.setup.RollLog`),
    which reports every roll to :meth:`roll`; rolls made while no command is being applied
    (an AI's look-ahead, a test) are not recorded. :meth:`begin` opens the collection for one
    command (or the setup), :meth:`take` closes it and returns the events.

    Attributes:
        battlemap: the game's live map; :meth:`effect` applies map events to it.
        events: the events collected since :meth:`begin`.
        active: whether a command is being applied.
    """

    def __init__(self, battlemap: BattleMap | None = None):
        self.battlemap = battlemap
        self.events: list[E] = []
        self.active = False

    def begin(self) -> None:
        """Start collecting the events of one command."""
        self.events = []
        self.active = True

    def _push(self, ev: GameEvent) -> None:
        """Append an event of the shared kinds (rolls, rules events, the hex game's events)."""
        self.events.append(cast(E, ev))

    def take(self) -> list[E]:
        """Stop collecting; the events collected since :meth:`begin`, in order."""
        out, self.events, self.active = self.events, [], False
        return out

    def add(self, ev: E) -> E:
        """Append an event of this recorder's mode."""
        self.events.append(ev)
        return ev

    def emit(self, kind: str, text: str, **data: Any) -> Event:
        """Append a new event ``kind`` with ``text`` and ``data`` (JSON-ready values): an
        instance of the kind's class (:mod:`hexwar.game.event_kinds`), or a plain :class:`Event`
        for a kind no class registers (a new mode's action may report its own kinds).

        Raises:
            TypeError: for data that does not fit the kind's class.
        """
        cls = EVENT_CLASSES.get(kind)
        ev = cls(text, data) if cls is not None and issubclass(cls, TypedEvent) else Event(kind, text, data)
        self._push(ev)
        return ev

    def roll(self, roll: Roll) -> None:
        """Record one roll (called by the dice log, R1.2); ignored outside a command."""
        if self.active:
            self._push(RollEvent(roll))

    def effect(self, ev: EffectEvent) -> None:
        """Apply a battlefield-effect event to the map (R8, R9) and record it."""
        assert self.battlemap is not None, "a Recorder without a map cannot apply map events"
        ev.apply(self.battlemap)
        self._push(RuleEvent(ev))

    def rule_events(self, evs: Iterable[Any]) -> None:
        """Record (and apply, for map effects) a list of rule or game events in order."""
        for ev in evs:
            if isinstance(ev, EffectEvent):
                self.effect(ev)
            elif isinstance(ev, CombatEvent):
                self._push(RuleEvent(ev))
            elif isinstance(ev, (Event, RollEvent, RuleEvent)):
                self._push(ev)
            else:
                raise TypeError(f"not a game or rules event: {ev!r}")


# the kinds register themselves on import (they subclass TypedEvent above)
from . import event_kinds as _event_kinds  # noqa: E402,F401
