"""The state of one lines game: ids and numbers only (R11.1; DESIGN).

Where every card instance is (Reserves decks, hands, the common Command deck, the Damage deck,
discards, the lines, under units), each unit's Current Endurance and counters, the turn, phase
and who must act, the declared attacks, the score. Card definitions stay in the frozen card
data (:func:`hexwar.rules.cards.default_cards`), looked up by id.

Lines: ``lines[side]["front"]``, ``lines[side]["rear"]`` and ``lines[side]["air"]`` (aircraft
aloft, on no line) hold the uids of the units the side controls there, in commitment order;
crews ride their unit (``crew`` / ``crewing``) and are on no list.

Change a game only with :meth:`LinesState.apply`; :meth:`LinesState.legal_commands` lists what
a seat may do now.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..game.events import Recorder
from ..game.outcome import GameResult, Kill
from ..rules.cards import card_id_of, default_cards
from ..rules.dice import Dice
from .commands import LinesCommand, side_of_seat
from .events import LinesLogEvent

if TYPE_CHECKING:  # pragma: no cover
    from .scenario import LinesScenario

__all__ = [
    "SIDES",
    "LINE_NAMES",
    "Phase",
    "LineUnit",
    "LineAttack",
    "LinesState",
    "HAND_LIMIT_COMMAND",
    "HAND_LIMIT_UNITS",
    "check_invariants",
    "other_side",
]

SIDES = ("german", "soviet")
LINE_NAMES = ("front", "rear", "air")
HAND_LIMIT_COMMAND = 5  # R5.5 / 000 Draw Phase
HAND_LIMIT_UNITS = 7


def other_side(side: str) -> str:
    """The enemy side."""
    return "soviet" if side == "german" else "german"


class Phase:
    """Decision steps of the lines turn (000 Turn Sequence)."""

    SETUP = "setup"
    COMMITMENT = "commitment"
    DECLARATION = "declaration"
    RESOLUTION = "resolution"
    DRAW = "draw"
    OVER = "over"


@dataclass
class LineUnit:
    """A unit card in play (the combat engine's :class:`~hexwar.rules.units.UnitLike`).

    Attributes:
        uid: card-instance id.
        owner: the seat whose Reserves deck it came from.
        side: the side controlling it now (captured units change side).
        seat: the seat controlling it now.
        line: ``"front"``, ``"rear"``, ``"air"`` (aircraft) or ``None`` for a riding crew.
        endurance: Current Endurance (R6.5).
        crew / crewing: the crew riding it / the unit a crew rides.
        damage_card, damage_turns: Damage card under it and its counter (R6.6, R5.6).
        immobilized: unused on lines (the engine reads the Damage card).
        command_cards: Command cards under it.
        bombs_used: bomb weapons dropped this flight (000).
        flight_turns: Turns of Flight left (aircraft).
        entered: the turn it was committed.
        captured: taken over by the enemy (000 envelopment), crewless until recrewed.
    """

    uid: str
    owner: str
    side: str
    seat: str
    line: str | None
    endurance: int
    crew: str | None = None
    crewing: str | None = None
    damage_card: str | None = None
    damage_turns: int | None = None
    immobilized: bool = False
    command_cards: list[str] = field(default_factory=list)
    bombs_used: tuple[int, ...] = ()
    flight_turns: int = 0
    entered: int = 0
    captured: bool = False

    @property
    def card(self) -> str:
        """The unit card id."""
        return card_id_of(self.uid)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready snapshot."""
        return {
            "uid": self.uid,
            "owner": self.owner,
            "side": self.side,
            "seat": self.seat,
            "line": self.line,
            "endurance": self.endurance,
            "crew": self.crew,
            "crewing": self.crewing,
            "damage_card": self.damage_card,
            "damage_turns": self.damage_turns,
            "command_cards": list(self.command_cards),
            "bombs_used": list(self.bombs_used),
            "flight_turns": self.flight_turns,
            "entered": self.entered,
            "captured": self.captured,
        }


@dataclass
class LineAttack:
    """A declared attack (R6.1).

    Attributes:
        number: declaration order from 1 each turn.
        seat: the declaring seat.
        attackers: one uid, or three or more infantry for a Close Assault.
        target: the target unit (the gun, when ``at_crew``).
        weapons: weapon indexes (empty for a Close Assault).
        at_crew: infantry fires at a Frontline gun's crew (000).
        close_assault: a Close Assault (000).
        resolved: done or void.
        command_cards: Command cards played on it (duration ``attack``).
    """

    number: int
    seat: str
    attackers: tuple[str, ...]
    target: str
    weapons: tuple[int, ...] = ()
    at_crew: bool = False
    close_assault: bool = False
    resolved: bool = False
    command_cards: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "number": self.number,
            "seat": self.seat,
            "attackers": list(self.attackers),
            "target": self.target,
            "weapons": list(self.weapons),
            "at_crew": self.at_crew,
            "close_assault": self.close_assault,
            "resolved": self.resolved,
            "command_cards": list(self.command_cards),
        }


@dataclass(eq=False)
class LinesState:
    """Everything that changes in one lines game.

    Build with :meth:`LinesScenario.new_game <hexwar.lines.scenario.LinesScenario.new_game>`;
    drive only with :meth:`apply`.

    Attributes:
        scenario: the scenario (definitions, not hashed).
        dice: the game's only randomness (R1.2).
        seed, variants: as started (``("classic",)`` for 001).
        seats: the seats playing (2 or 4).
        turn, phase, to_act: where the game is.
        order: the seats' acting order in this turn's phases (initiative winner first; 4-player:
            the Support Commanders first).
        done: seats done with the current phase.
        units: units in play by uid (crews included).
        lines: per side, ``front`` / ``rear`` / ``air`` lists of uids.
        reserves, hand_units, hand_commands: per seat.
        command_deck, command_discard, events_in_play, event_turns: the common Command deck.
        damage_deck, damage_discard: the Damage deck.
        removed: cards out of the game (destroyed, captured crews).
        pending: per seat, instant card effects waiting (``initiative``, ``draw``).
        hidden: classic: the commitments not yet revealed (commands in order).
        attacks: this turn's declared attacks.
        resolve_turn: the seat whose choice it is in Resolution.
        drawn: seats that have drawn this Draw Phase.
        kills, vp: scoring (R10).
        overrun: consecutive End Turns each side has overrun the enemy (R10.1).
        collapse: sides whose Frontline was lost: their Rear Line moves up at the next Begin Turn.
        moved: SPGs and crews that changed place this Commitment Phase.
        result: set when the game ends.
        all_cards: every card instance of the game (invariants).
        commands, log, checkpoints: the replay log, the event log, per-End-Turn hashes.
        recorder: collects the events of the command being applied (given to the dice once).
    """

    scenario: LinesScenario
    dice: Dice
    seed: int = 0
    variants: tuple[str, ...] = ()
    seats: tuple[str, ...] = ("german", "soviet")
    turn: int = 1
    phase: str = Phase.SETUP
    to_act: str | None = None
    order: list[str] = field(default_factory=list)
    done: set[str] = field(default_factory=set)
    units: dict[str, LineUnit] = field(default_factory=dict)
    lines: dict[str, dict[str, list[str]]] = field(
        default_factory=lambda: {s: {n: [] for n in LINE_NAMES} for s in SIDES}
    )
    reserves: dict[str, list[str]] = field(default_factory=dict)
    hand_units: dict[str, list[str]] = field(default_factory=dict)
    hand_commands: dict[str, list[str]] = field(default_factory=dict)
    command_deck: list[str] = field(default_factory=list)
    command_discard: list[str] = field(default_factory=list)
    events_in_play: list[str] = field(default_factory=list)
    event_turns: dict[str, int] = field(default_factory=dict)
    damage_deck: list[str] = field(default_factory=list)
    damage_discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    pending: dict[str, dict[str, int]] = field(default_factory=dict)
    hidden: list[LinesCommand] = field(default_factory=list)
    attacks: dict[int, LineAttack] = field(default_factory=dict)
    resolve_turn: str | None = None
    drawn: set[str] = field(default_factory=set)
    kills: list[Kill] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    overrun: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    collapse: set[str] = field(default_factory=set)
    moved: set[str] = field(default_factory=set)
    result: GameResult | None = None
    all_cards: tuple[str, ...] = ()
    commands: list[LinesCommand] = field(default_factory=list)
    log: list[LinesLogEvent] = field(default_factory=list)
    checkpoints: list[tuple[int, int, str]] = field(default_factory=list)
    mode: str = "lines"
    recorder: Recorder[LinesLogEvent] = field(default_factory=Recorder, repr=False)

    # -- driving ------------------------------------------------------------------------
    def apply(self, command: LinesCommand) -> list[LinesLogEvent]:
        """Check ``command`` and carry it out, then every automatic step up to the next decision.

        Raises:
            IllegalLinesCommand: with the reason; the state is unchanged.
        """
        from .turn import apply_command

        return apply_command(self, command)

    def check(self, command: LinesCommand) -> str | None:
        """Why ``command`` would be refused now, or ``None``."""
        from .turn import check_command

        return check_command(self, command)

    def legal_commands(self, seat: str | None = None) -> list[LinesCommand]:
        """Every command :attr:`to_act` (or ``seat``, when it is its turn) may issue now."""
        from .turn import legal_commands

        return legal_commands(self, seat)

    @property
    def over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def two_player(self) -> bool:
        """The 2-player game (seats are sides)."""
        return len(self.seats) == 2

    # -- queries ------------------------------------------------------------------------
    def line_of(self, uid: str) -> str | None:
        """The line of a unit in play (a crew: its unit's line)."""
        u = self.units[uid]
        if u.crewing is not None:
            return self.units[u.crewing].line
        return u.line

    def on_line(self, side: str, line: str) -> list[LineUnit]:
        """Units ``side`` controls on ``line`` (``front``, ``rear``, ``air``)."""
        return [self.units[x] for x in self.lines[side][line]]

    def ground_units(self, side: str) -> list[LineUnit]:
        """``side``'s ground units in play (Frontline and Rear Line; crews excluded)."""
        return self.on_line(side, "front") + self.on_line(side, "rear")

    def seats_of(self, side: str) -> list[str]:
        """The seats of ``side``."""
        return [s for s in self.seats if side_of_seat(s) == side]

    # -- snapshot -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (ids and numbers)."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "to_act": self.to_act,
            "order": list(self.order),
            "done": sorted(self.done),
            "units": [u.to_json() for _, u in sorted(self.units.items())],
            "lines": {s: {n: list(v) for n, v in d.items()} for s, d in self.lines.items()},
            "reserves": {k: list(v) for k, v in sorted(self.reserves.items())},
            "hand_units": {k: list(v) for k, v in sorted(self.hand_units.items())},
            "hand_commands": {k: list(v) for k, v in sorted(self.hand_commands.items())},
            "command_deck": list(self.command_deck),
            "command_discard": list(self.command_discard),
            "events_in_play": list(self.events_in_play),
            "event_turns": dict(sorted(self.event_turns.items())),
            "damage_deck": list(self.damage_deck),
            "damage_discard": list(self.damage_discard),
            "removed": list(self.removed),
            "pending": {k: dict(sorted(v.items())) for k, v in sorted(self.pending.items())},
            "hidden": [c.to_json() for c in self.hidden],
            "attacks": [a.to_json() for _, a in sorted(self.attacks.items())],
            "resolve_turn": self.resolve_turn,
            "drawn": sorted(self.drawn),
            "kills": [k.to_json() for k in self.kills],
            "vp": dict(self.vp),
            "overrun": dict(self.overrun),
            "collapse": sorted(self.collapse),
            "moved": sorted(self.moved),
            "result": self.result.to_json() if self.result else None,
            "rolls": len(self.dice.log),
        }

    def state_hash(self) -> str:
        """SHA-256 of :meth:`snapshot` as canonical JSON."""
        text = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def zones(self) -> Iterator[tuple[str, str]]:
        """Every ``(zone, card instance)``: each card is in exactly one zone."""
        for seat in self.seats:
            for name in ("reserves", "hand_units", "hand_commands"):
                for c in getattr(self, name)[seat]:
                    yield f"{name}.{seat}", c
        for name in (
            "command_deck",
            "command_discard",
            "events_in_play",
            "damage_deck",
            "damage_discard",
            "removed",
        ):
            for c in getattr(self, name):
                yield name, c
        for n, a in self.attacks.items():
            for c in a.command_cards:
                yield f"attack.{n}", c
        for cmd in self.hidden:
            for c in _hidden_cards(cmd):
                yield "hidden", c
        for uid, u in self.units.items():
            yield "play", uid
            if u.damage_card is not None:
                yield f"under.{uid}", u.damage_card
            for c in u.command_cards:
                yield f"under.{uid}", c


def _hidden_cards(cmd: LinesCommand) -> list[str]:
    return [
        c
        for c in (getattr(cmd, "unit", None), getattr(cmd, "crew", None), getattr(cmd, "infantry", None))
        if c
    ]


def check_invariants(state: LinesState) -> list[str]:
    """Rules invariants after every command (the broken ones as text).

    * each card instance is in exactly one zone; none vanished or appeared;
    * no unit is on two lines; every non-crew unit in play is on exactly one line list, its
      ``line`` field agrees; aircraft are never on the Frontline or Rear Line and only
      aircraft are aloft;
    * hand limits (5 Command, 7 unit cards) hold outside the Draw Phase (R5.5);
    * Current Endurance within 1..Full; crews and units point at each other;
    * each side's victory points equal its kills (cost, twice for captures).
    """
    cards = default_cards()
    out: list[str] = []
    seen: dict[str, str] = {}
    for zone, c in state.zones():
        if c in seen:
            out.append(f"card {c} is in both {seen[c]} and {zone}")
        seen[c] = zone
    missing = set(state.all_cards) - set(seen)
    if missing:
        out.append(f"cards vanished: {sorted(missing)}")
    extra = set(seen) - set(state.all_cards)
    if extra:
        out.append(f"cards appeared from nowhere: {sorted(extra)}")
    where: dict[str, str] = {}
    for side in SIDES:
        for line in LINE_NAMES:
            for uid in state.lines[side][line]:
                if uid in where:
                    out.append(f"{uid} is on two lines: {where[uid]} and {side}.{line}")
                where[uid] = f"{side}.{line}"
                u = state.units.get(uid)
                if u is None:
                    out.append(f"{uid} is on {side}.{line} but not in play")
                    continue
                if u.line != line or u.side != side:
                    out.append(f"{uid} says {u.side}.{u.line} but is listed on {side}.{line}")
                is_air = cards.unit(uid).unit_type == "aircraft"
                if is_air != (line == "air"):
                    out.append(f"{uid} ({cards.unit(uid).unit_type}) is on the {line} line")
    for uid, u in state.units.items():
        uc = cards.unit(uid)
        if u.crewing is None and uid not in where:
            out.append(f"{uid} is in play on no line")
        if u.crewing is not None and uid in where:
            out.append(f"crew {uid} is on a line itself")
        if not 1 <= u.endurance <= uc.endurance_full:
            out.append(f"{uid}: endurance {u.endurance} outside 1..{uc.endurance_full}")
        if u.crew is not None and (u.crew not in state.units or state.units[u.crew].crewing != uid):
            out.append(f"{uid}: crew {u.crew} is not riding with it")
        if u.crewing is not None and (u.crewing not in state.units or state.units[u.crewing].crew != uid):
            out.append(f"{uid}: crews {u.crewing}, which does not list it")
    from .events import PhaseBegan

    if (
        state.phase == Phase.COMMITMENT
        and not state.done
        and state.log
        and isinstance(state.log[-1], PhaseBegan)
    ):
        for seat in state.seats:  # R5.5: the limits hold at the end of every turn
            if len(state.hand_commands[seat]) > HAND_LIMIT_COMMAND:
                out.append(
                    f"{seat} holds {len(state.hand_commands[seat])} Command cards (limit {HAND_LIMIT_COMMAND})"
                )
            if len(state.hand_units[seat]) > HAND_LIMIT_UNITS:
                out.append(
                    f"{seat} holds {len(state.hand_units[seat])} unit cards (limit {HAND_LIMIT_UNITS})"
                )
    for s in SIDES:
        want = sum(
            cards.unit(k.uid).cost * (2 if k.kind == "captured" else 1) for k in state.kills if k.scorer == s
        )
        if state.vp[s] != want:
            out.append(f"{s} has {state.vp[s]} VP but its kills are worth {want}")
    return out
