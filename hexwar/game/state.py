"""The state of one game: ids and quantities only, never the ruleset (DESIGN).

:class:`GameState` holds where every card instance is (decks, hands, discard, the map), each
unit's current endurance and markers, the turn, phase and who must act, the declared attacks,
the score, and the live :class:`~hexwar.model.maps.BattleMap` whose overlays (wrecks, rubble, fire)
change during play. Card *definitions* (names, weapons, costs) stay in the frozen card data
and are looked up through :mod:`hexwar.game.ruleset` by id.

Card instances: every physical card in a game has an instance id ``"<card id>#<n>"``
(``"su-t34-76#3"``), unique in the game; a unit on the map is identified by its card's
instance id. Each instance lives in exactly one zone at any time (:func:`check_invariants`).

Changing a game: only through :meth:`GameState.apply` with a command
(:mod:`hexwar.game.commands`); it returns the events (:mod:`hexwar.game.events`). A UI asks
:meth:`GameState.legal_commands` for what may be done now and :attr:`GameState.to_act` for who
must do it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from ..rules.combat import RULES_REVISION
from ..rules.dice import Dice
from . import ruleset
from .commands import SIDES, Command
from .events import GameEvent, Recorder
from .outcome import GameResult, Kill
from .sight import after_command

if TYPE_CHECKING:  # pragma: no cover
    from .scenario import Scenario

__all__ = [
    "SIDES",
    "SHARED_MEMOS",
    "Phase",
    "UnitState",
    "Attack",
    "Kill",
    "GameResult",
    "GameState",
    "other_side",
    "card_of",
    "check_invariants",
    "STACKING_LIMIT",
    "HAND_LIMIT_COMMAND",
    "HAND_LIMIT_UNITS",
]

#: The ``cache`` key of memos shared between games of one scenario, variants and card set, by
#: content (:func:`hexwar.game.targeting.share_memos`: the search's sample worlds, issue 31).
SHARED_MEMOS = "shared_memos"

STACKING_LIMIT = 3  # R5.2: ground units per hex; crews ride along and do not count
HAND_LIMIT_COMMAND = 5  # R5.5
HAND_LIMIT_UNITS = 7  # R5.5


class Phase:
    """Names of the steps in which a player decides (R5); automatic steps have no name here.

    ``SETUP`` (choose starting hands), ``ARTILLERY`` (R5.1d targeting), ``COMMITMENT`` (R5.2),
    ``MOVEMENT`` (R5.3), ``DECLARATION`` and ``RESOLUTION`` (R5.4 / R6.1-R6.2), ``DRAW`` (R5.5),
    ``OVER`` (the game has ended, R10).
    """

    SETUP = "setup"
    ARTILLERY = "artillery"
    COMMITMENT = "commitment"
    MOVEMENT = "movement"
    DECLARATION = "declaration"
    RESOLUTION = "resolution"
    DRAW = "draw"
    OVER = "over"
    ORDER = (SETUP, ARTILLERY, COMMITMENT, MOVEMENT, DECLARATION, RESOLUTION, DRAW, OVER)


def other_side(side: str) -> str:
    """The opponent of ``side``.

    >>> other_side("german")
    'soviet'
    """
    return "soviet" if side == "german" else "german"


@lru_cache(maxsize=65536)
def card_of(instance: str) -> str:
    """The card id of a card-instance id (``"su_t34_76#3"`` -> ``"su_t34_76"``).

    >>> card_of("de_pz_iv_g#12")
    'de_pz_iv_g'
    """
    hit = _CARD_OF.get(instance)
    if hit is None:
        if len(_CARD_OF) >= _CARD_OF_MAX:
            _CARD_OF.clear()
        hit = _CARD_OF[instance] = instance.rsplit("#", 1)[0]
    return hit


#: instance id -> card id: :attr:`UnitState.card` is read tens of thousands of times a game
#: (the rules look cards up by it), so each id is split once (bounded: cleared when full)
_CARD_OF: dict[str, str] = {}
_CARD_OF_MAX = 1 << 16


@dataclass
class UnitState:
    """One unit card in play: on a hex, aloft, or riding as the crew of another unit.

    Attributes:
        uid: the card-instance id (also the unit's id in commands).
        owner: the side whose Reserves deck the card came from.
        side: the side controlling it now (differs from ``owner`` for captured units).
        hex: the unit's hex; ``None`` for aircraft aloft. Crews carry their unit's hex.
        aloft: an aircraft in the air (R5.2, R7.4).
        crew: instance id of the crew riding this unit, if any.
        crewing: for a crew card: the instance id of the unit it crews.
        endurance: Current Endurance (R6.5), back to Full or Half at End Turn (R5.6).
        damage_card: the Damage card instance under the unit, if any (R6.6).
        damage_turns: turns left of a temporary damage effect (counts down at End Turn),
            ``None`` when permanent or none.
        immobilized: gained the Immobilized effect from rubble (R8.3) (damage-card
            immobilization is read from the card).
        mp_left: movement points left this Movement phase (R5.3; halved while towing, R8.1).
        towing: the wreck counter id this vehicle tows (R8.1), if any.
        flight_turns: Turns of Flight left for an aircraft (R5.6).
        bombs_used: indexes of bomb weapons already dropped this flight (R7.4).
        command_cards: Command card instances placed under the unit (R4.3).
        entered: the turn the unit was committed.
    """

    uid: str
    owner: str
    side: str
    hex: Hex | None = None
    aloft: bool = False
    crew: str | None = None
    crewing: str | None = None
    endurance: int = 0
    damage_card: str | None = None
    damage_turns: int | None = None
    immobilized: bool = False
    mp_left: float = 0.0
    towing: str | None = None
    flight_turns: int = 0
    bombs_used: tuple[int, ...] = ()
    command_cards: list[str] = field(default_factory=list)
    entered: int = 0

    @cached_property
    def card(self) -> str:
        """The unit's card id (of :attr:`uid`, which never changes: read tens of thousands of
        times a game, so kept on the instance after the first read, issue 35)."""
        return card_of(self.uid)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready snapshot (hexes as labels, only non-default markers)."""
        d: dict[str, Any] = {
            "uid": self.uid,
            "owner": self.owner,
            "side": self.side,
            "hex": self.hex.label if self.hex is not None else None,
            "endurance": self.endurance,
        }
        for k in ("aloft", "crew", "crewing", "damage_card", "damage_turns", "immobilized", "towing"):
            v = getattr(self, k)
            if v not in (None, False):
                d[k] = v
        if self.mp_left:
            d["mp_left"] = self.mp_left
        if self.flight_turns:
            d["flight_turns"] = self.flight_turns
        if self.bombs_used:
            d["bombs_used"] = list(self.bombs_used)
        if self.command_cards:
            d["command_cards"] = list(self.command_cards)
        d["entered"] = self.entered
        return d


@dataclass
class Attack:
    """One declared attack (R6.1).

    Attributes:
        number: its key in :attr:`GameState.attacks` (declaration order, from 1 each turn).
        side: the attacking side.
        attackers: the attacking unit(s): one, or three or more infantry for a close assault.
        target: the target unit's instance id.
        weapons: weapon indexes (card order) to fire, up to two (empty for a close assault).
        at_crew: R7.5: infantry fires at a frontline gun's crew.
        close_assault: a close assault (000).
        indirect: indirect fire (rear-line or SPG first weapon, R7.2-R7.3).
        hindrance: hindrance count of the LOS at declaration (R3.5: +1 needed per hindrance).
        resolved: resolved or void.
        command_cards: Command cards played on this attack (duration ``"attack"``, R4.3);
            discarded when it is resolved.
        building: for a close-combat attack on a building (R8.2): its hex (``target`` is
            then empty).
    """

    number: int
    side: str
    attackers: tuple[str, ...]
    target: str
    weapons: tuple[int, ...] = ()
    at_crew: bool = False
    close_assault: bool = False
    indirect: bool = False
    hindrance: int = 0
    resolved: bool = False
    command_cards: list[str] = field(default_factory=list)
    building: Hex | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of the attack."""
        return {
            "number": self.number,
            "side": self.side,
            "attackers": list(self.attackers),
            "target": self.target,
            "weapons": list(self.weapons),
            "at_crew": self.at_crew,
            "close_assault": self.close_assault,
            "indirect": self.indirect,
            "hindrance": self.hindrance,
            "resolved": self.resolved,
            "command_cards": list(self.command_cards),
            "building": self.building.label if self.building is not None else None,
        }


class TurnEngine(Protocol):
    """What applies commands to a game: :class:`hexwar.game.turn.TurnSequence` (the state does
    not import it: the turn sequence lies above the state in the module order)."""

    def apply_command(self, state: GameState, cmd: Command) -> list[GameEvent]:
        """Check and apply ``cmd``; raises ``IllegalCommand`` with nothing changed."""
        ...

    def check_command(self, state: GameState, cmd: Command) -> str | None:
        """Why ``cmd`` would be refused now, or ``None``."""
        ...

    def legal_commands(self, state: GameState, side: str | None = None) -> list[Command]:
        """Every legal command of ``side`` now."""
        ...


@dataclass(eq=False)
class GameState:
    """Everything that changes in one game (R5, R10), plus references to what does not.

    Build one with :func:`hexwar.game.setup.new_game` (or :meth:`Scenario.new_game
    <hexwar.game.scenario.Scenario.new_game>`), then drive it only with :meth:`apply`.

    Attributes:
        scenario: the loaded scenario (definitions; not part of the state's hash).
        battlemap: the live map (its overlays are state).
        dice: the game's only source of randomness (R1.2).
        variants: rule variants in force (``"classic"``, ``"burnout"``, ...; R11.3).
        turn: the turn number, from 1.
        phase: the current decision step, one of :class:`Phase`.
        to_act: the side that must issue the next command (``None`` when the game is over).
        initiative: the side that won initiative this turn (R5.1c), ``None`` before.
        done: sides done with the current phase.
        units: every unit in play by instance id (on the map, aloft, riding as crew).
        reserves: each side's Reserves deck, top first.
        hand_units: each side's unit cards in hand.
        hand_commands: each side's Command cards in hand.
        command_deck: the common Command deck, top first (R4.3).
        command_discard: discarded Command cards (out of the game, R5.5).
        events_in_play: Event cards drawn and in effect (face up for the game).
        event_turns: for each Event in play, the turn at whose End Turn it leaves play (-1: the
            rest of the game).
        pending: per side, effects of instant Command cards waiting for their roll or draw
            (``"initiative"``, ``"artillery_accuracy"``, ``"draw"``: summed values).
        damage_deck: the Damage deck, top first; refilled from ``damage_discard`` when empty.
        damage_discard: Damage cards whose unit left play.
        removed: unit cards destroyed or captured (out of the game).
        kills: scoring entries (R10; VP = sum of their points).
        vp: victory points per side.
        attacks: this turn's declared attacks by number (R6.1).
        resolve_turn: in Resolution, the side whose choice it is (R6.2 alternation).
        artillery_left: off-board artillery missions left per side (R9.1).
        artillery_calls: this turn's targeted missions ``(side, hex, bonus card)``.
        drawn: sides that have drawn this Draw phase.
        overrun: consecutive End Turns each side has overrun the enemy (R10.1).
        objective_holders: objective hex -> side holding it (R10.2).
        result: set when the game ends (R10).
        all_cards: every card instance of the game (for the invariants).
        commands: every command applied so far (the replay log).
        log: every event so far (the game log).
        checkpoints: ``(turn, commands applied, state hash)`` after each End Turn (saves).
        last_seen: fog of war (R12.2): per side, last-known markers of enemy units that left
            its sight, ``uid -> (hex label, turn seen, card id)`` (:mod:`hexwar.game.view`).
        sight: fog of war: per side, the units it saw after the last command.
        log_sides: fog of war: per event of :attr:`log`, the sides that may see it.
        log_cuts: fog of war: log index -> side -> what of that event the side may not know
            (:func:`hexwar.game.sight.event_cuts`).
        cache: derived data (LOS, movement costs) keyed by map version; not state.
        engine: the turn sequence that applies commands (a
            :class:`hexwar.game.turn.TurnSequence` with its action registry; ``None``: the
            standard game's). Set by :func:`~hexwar.game.setup.new_game`; not state.
        recorder: the game's event collector; the dice log reports every roll to it (R1.2).
        rules_revision: the combat rules revision the game is played with
            (:data:`hexwar.rules.combat.RULES_REVISION` for new games; a save without one
            replays with revision 1, docs/rules.md "Rules revisions"). Fixed for the game
            like the seed; not part of the state hash.
        undo_points: positions before the side's undoable commands of this phase (R12.3,
            :mod:`hexwar.game.actions.undo`); rebuilt by replaying the commands, not saved.
        undoable: ``False``: no undo points are taken (``Undo`` is then refused as having
            nothing to take back). :func:`hexwar.game.headless.play` clears it while every
            player is a computer player that never takes back (issue 22: the copy before every
            Commit, Move and Declare was a tenth of an AI-vs-AI game); not state, not saved.
    """

    scenario: Scenario
    battlemap: BattleMap
    dice: Dice
    variants: tuple[str, ...] = ()
    seed: int = 0
    rules_revision: int = RULES_REVISION
    turn: int = 1
    phase: str = Phase.SETUP
    to_act: str | None = None
    initiative: str | None = None
    done: set[str] = field(default_factory=set)
    units: dict[str, UnitState] = field(default_factory=dict)
    reserves: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    hand_units: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    hand_commands: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    command_deck: list[str] = field(default_factory=list)
    command_discard: list[str] = field(default_factory=list)
    events_in_play: list[str] = field(default_factory=list)
    event_turns: dict[str, int] = field(default_factory=dict)
    pending: dict[str, dict[str, int]] = field(default_factory=lambda: {s: {} for s in SIDES})
    damage_deck: list[str] = field(default_factory=list)
    damage_discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    vp: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    attacks: dict[int, Attack] = field(default_factory=dict)
    resolve_turn: str | None = None
    artillery_left: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    artillery_calls: list[tuple[str, Hex, str | None]] = field(default_factory=list)
    drawn: set[str] = field(default_factory=set)
    overrun: dict[str, int] = field(default_factory=lambda: {s: 0 for s in SIDES})
    objective_holders: dict[Hex, str | None] = field(default_factory=dict)
    result: GameResult | None = None
    all_cards: tuple[str, ...] = ()
    commands: list[Command] = field(default_factory=list)
    log: list[GameEvent] = field(default_factory=list)
    checkpoints: list[tuple[int, int, str]] = field(default_factory=list)
    last_seen: dict[str, dict[str, tuple[str, int, str]]] = field(default_factory=dict)
    sight: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    log_sides: list[tuple[str, ...]] = field(default_factory=list, repr=False)
    log_cuts: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict, repr=False)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)
    engine: TurnEngine | None = field(default=None, repr=False)
    recorder: Recorder = field(default_factory=Recorder, repr=False)
    undo_points: list[Any] = field(default_factory=list, repr=False)
    undoable: bool = field(default=True, repr=False)

    # -- driving the game -------------------------------------------------------------
    def apply(self, command: Command) -> list[GameEvent]:
        """Check ``command`` against the rules and carry it out (R5 turn sequence).

        Automatic steps that follow (End Turn, Begin Turn rolls, artillery resolution...) run
        inside the same call until a side must decide again.

        Returns:
            the events it caused, in order, dice rolls included (also appended to :attr:`log`).

        Raises:
            IllegalCommand: with the reason when the command is not allowed now; the state is
                then unchanged (nothing is rolled either).
        """
        events = self._engine().apply_command(self, command)
        after_command(self, events)  # R12.2 sight and last-known markers (fog only)
        return events

    def legal_commands(self, side: str | None = None) -> list[Command]:
        """Every command :attr:`to_act` (or ``side``) may issue now, in a fixed order.

        Moves list one shortest path per reachable destination; declarations list every
        legal target with every legal weapon choice. Empty when the game is over or it is
        not ``side``'s turn to act.
        """
        return self._engine().legal_commands(self, side)

    def check(self, command: Command) -> str | None:
        """Why ``command`` would be refused now, or ``None`` when it is legal (nothing changes)."""
        return self._engine().check_command(self, command)

    def _engine(self) -> TurnEngine:
        if self.engine is None:
            raise HexwarError(
                "this GameState has no turn sequence: build games with hexwar.game.setup.new_game"
            )
        return self.engine

    @property
    def over(self) -> bool:
        """True once the game has a result (R10)."""
        return self.result is not None

    # -- queries ----------------------------------------------------------------------
    def units_of(self, side: str) -> list[UnitState]:
        """Units ``side`` controls in play (crews included), in instance-id order."""
        return [u for u in self.units.values() if u.side == side]

    def units_at(self, h: Hex) -> list[UnitState]:
        """Units whose hex is ``h`` (crews riding there included), in instance-id order."""
        return [u for u in self.units.values() if u.hex == h and not u.aloft]

    def hex_label(self, h: Hex | None) -> str:
        """Label of ``h`` on this map (``"aloft"`` for None)."""
        return "aloft" if h is None else self.battlemap.label(h)

    # -- snapshot and hash --------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (ids and quantities only), for hashing and tests."""
        bm = self.battlemap
        # only the few marked cells are visited (numpy), not every hex of the map: same text
        rubble = [Hex.from_offset(int(c), int(r)) for r, c in zip(*bm.rubble.nonzero(), strict=True)]
        fire = [
            (Hex.from_offset(int(c), int(r)), int(bm.fire_turns[r, c]))
            for r, c in zip(*bm.fire.nonzero(), strict=True)
        ]
        overlays = {
            "rubble": sorted(bm.label(h) for h in rubble),
            "fire": sorted(f"{bm.label(h)}:{t}" for h, t in fire),
            "wrecks": {bm.label(h): list(s) for h, s in sorted(bm.wrecks.items()) if s},
            "artillery_marker": bm.label(bm.artillery_marker) if bm.artillery_marker is not None else None,
        }
        return {
            "turn": self.turn,
            "phase": self.phase,
            "to_act": self.to_act,
            "initiative": self.initiative,
            "done": sorted(self.done),
            "units": [u.to_json() for _, u in sorted(self.units.items())],
            "reserves": {s: list(v) for s, v in self.reserves.items()},
            "hand_units": {s: list(v) for s, v in self.hand_units.items()},
            "hand_commands": {s: list(v) for s, v in self.hand_commands.items()},
            "command_deck": list(self.command_deck),
            "command_discard": list(self.command_discard),
            "events_in_play": list(self.events_in_play),
            "event_turns": dict(sorted(self.event_turns.items())),
            "pending": {k: dict(sorted(v.items())) for k, v in sorted(self.pending.items())},
            "damage_deck": list(self.damage_deck),
            "damage_discard": list(self.damage_discard),
            "removed": list(self.removed),
            "kills": [k.to_json() for k in self.kills],
            "vp": dict(self.vp),
            "attacks": [a.to_json() for _, a in sorted(self.attacks.items())],
            "resolve_turn": self.resolve_turn,
            "artillery_left": dict(self.artillery_left),
            "artillery_calls": [[s, h.label, b] for s, h, b in self.artillery_calls],
            "drawn": sorted(self.drawn),
            "overrun": dict(self.overrun),
            "objectives": {bm.label(h): s for h, s in sorted(self.objective_holders.items())},
            "map": overlays,
            "result": self.result.to_json() if self.result else None,
            "rolls": len(self.dice.log),
        } | (
            {
                "last_seen": {
                    s: {u: list(m) for u, m in sorted(v.items())} for s, v in sorted(self.last_seen.items())
                }
            }
            if "fog" in self.variants
            else {}
        )

    def state_hash(self) -> str:
        """SHA-256 of :meth:`snapshot` as canonical JSON: equal states have equal hashes."""
        text = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    # -- card zones (for invariants and UIs) -------------------------------------------
    def zones(self) -> Iterator[tuple[str, str]]:
        """Every ``(zone name, card instance)`` pair: each card appears in exactly one zone."""
        for s in SIDES:
            for c in self.reserves[s]:
                yield f"reserves.{s}", c
            for c in self.hand_units[s]:
                yield f"hand_units.{s}", c
            for c in self.hand_commands[s]:
                yield f"hand_commands.{s}", c
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
        for uid, u in self.units.items():
            yield "map", uid
            if u.damage_card is not None:
                yield f"under.{uid}", u.damage_card
            for c in u.command_cards:
                yield f"under.{uid}", c


def check_invariants(state: GameState) -> list[str]:
    """Rules invariants that must hold after every command; returns the broken ones as text.

    * each card instance exists exactly once across decks, hands, discards and the map;
    * no hex holds more than :data:`STACKING_LIMIT` ground units (R5.2);
    * every unit's Current Endurance is within 1..Full (R6.5; 0 or less means destroyed);
    * each side's victory points equal the costs of the enemy cards it destroyed plus twice
      the costs of those it captured (R6.6, R10);
    * crews and the units they ride point at each other and share a hex.
    """
    out: list[str] = []
    seen: dict[str, str] = {}
    for zone, c in state.zones():
        if c in seen:
            out.append(f"card {c} is in both {seen[c]} and {zone}")
        seen[c] = zone
    missing = set(state.all_cards) - set(seen)
    extra = set(seen) - set(state.all_cards)
    if missing:
        out.append(f"cards vanished: {sorted(missing)}")
    if extra:
        out.append(f"cards appeared from nowhere: {sorted(extra)}")
    counts: dict[Hex, int] = {}
    for u in state.units.values():
        if u.hex is not None and not u.aloft and u.crewing is None and ruleset.is_ground(u.card):
            counts[u.hex] = counts.get(u.hex, 0) + 1
        full = ruleset.full_endurance(u.card)
        if not 1 <= u.endurance <= full:
            out.append(f"{u.uid}: endurance {u.endurance} outside 1..{full}")
        if u.crew is not None:
            cu = state.units.get(u.crew)
            if cu is None or cu.crewing != u.uid or cu.hex != u.hex:
                out.append(f"{u.uid}: crew {u.crew} is not riding with it")
        if u.crewing is not None:
            v = state.units.get(u.crewing)
            if v is None or v.crew != u.uid:
                out.append(f"{u.uid}: crews {u.crewing}, which does not list it as crew")
    for h, n in counts.items():
        if n > STACKING_LIMIT:
            out.append(f"{state.hex_label(h)} holds {n} ground units (limit {STACKING_LIMIT})")
    for s in SIDES:
        want = 0
        for k in state.kills:
            if k.scorer != s:
                continue
            cost = ruleset.unit_card(card_of(k.uid)).cost
            want += cost * (2 if k.kind == "captured" else 1)
            if k.points != cost * (2 if k.kind == "captured" else 1):
                out.append(
                    f"kill of {k.uid} scored {k.points}, expected {cost} x {2 if k.kind == 'captured' else 1}"
                )
        if state.vp[s] != want:
            out.append(f"{s} has {state.vp[s]} VP but its kills are worth {want}")
    return out
