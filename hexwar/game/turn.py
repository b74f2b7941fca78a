"""The turn sequence (R5) as a command-driven state machine.

:func:`apply_command` is what :meth:`GameState.apply <hexwar.game.state.GameState.apply>` runs:

1. refuse (``IllegalCommand``, nothing changed) a command from the wrong side, one not
   allowed in the current phase, or one the phase's rules forbid - every check happens
   before anything changes or any die is rolled;
2. carry it out, collecting :class:`~hexwar.game.events.Event` objects (every die roll is an
   event at the moment it is rolled, R1.2);
3. run the automatic steps that follow until a side must decide again: a side whose only
   legal command is ``EndPhase`` passes automatically; End Turn (R5.6) and the next Begin Turn
   (R5.1 a-c: fire spread, fire damage, initiative) run by themselves; off-board artillery is
   resolved once both sides have targeted (R5.1d); victory is checked after every resolution
   and at End Turn (R10).

Phases and who acts (R5: the initiative winner does everything first in every phase):

=================  ====================================================================
phase              commands (besides ``EndPhase``)
=================  ====================================================================
``setup``          ``ChooseHand`` (both sides, German first)
``artillery``      ``TargetArtillery`` (R5.1d, R9.2)
``commitment``     ``Commit``, ``Recrew``, ``UseCommandCard`` (R5.2)
``movement``       ``Move``, ``Tow``, ``DropTow``, ``UseCommandCard`` (R5.3)
``declaration``    ``Declare``, ``DeclareCloseAssault``, ``DeclareBuildingAttack``,
                   ``UseCommandCard`` (R6.1, R8.2)
``resolution``     ``Resolve`` - alternating, initiative winner first (R6.2); no EndPhase
``draw``           ``Draw`` then ``Discard`` to the hand limits (R5.5)
=================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from ..rules.cards import EffectKind
from ..rules.terrain_effects import EffectEvent
from . import movement as mv
from . import ruleset, targeting, victory
from .commands import (
    DRAW_SOURCES,
    SIDES,
    ChooseHand,
    Command,
    Commit,
    Declare,
    DeclareBuildingAttack,
    DeclareCloseAssault,
    Discard,
    Draw,
    DropTow,
    EndPhase,
    IllegalCommand,
    Move,
    Recrew,
    Resolve,
    TargetArtillery,
    Tow,
    UseCommandCard,
    field_problem,
)
from .events import Event
from .state import (
    HAND_LIMIT_COMMAND,
    HAND_LIMIT_UNITS,
    STACKING_LIMIT,
    GameState,
    Phase,
    UnitState,
    card_of,
    other_side,
)

__all__ = ["Sink", "apply_command", "check_command", "legal_commands", "begin_play", "can_act", "bump_epoch"]


# -- event collection ------------------------------------------------------------------------
class Sink:
    """Collects the events of one command (or of game setup), rolls included, in order."""

    def __init__(self, state: GameState):
        self.state = state
        self.events: list[Event] = []

    def add(self, ev: Event) -> Event:
        """Append a game event."""
        self.events.append(ev)
        return ev

    def emit(self, kind: str, text: str, **data: Any) -> Event:
        """Append a new event ``kind`` with ``text`` and ``data``."""
        return self.add(Event(kind, text, data))

    def roll(self, roll: Any) -> None:
        """Called by the dice log for every roll (R1.2)."""
        if roll.dice == "shuffle":
            text = f"{roll.purpose}: {len(roll.faces)} cards shuffled"
        elif roll.dice.startswith("choice of"):
            text = f"{roll.purpose}: {roll.dice}, took #{roll.natural + 1}"
        else:
            text = str(roll)
        self.events.append(Event("roll", text, roll.to_json()))

    def effect(self, ev: EffectEvent) -> None:
        """Apply a battlefield-effect event to the map (R8, R9) and log it."""
        ev.apply(self.state.battlemap)
        data = ev.to_json()
        kind = _snake(data.pop("event", type(ev).__name__))
        self.events.append(Event(kind, str(ev), data))

    def rule_events(self, evs: Any) -> None:
        """Log (and apply, for map effects) a list of rule events in order."""
        for ev in evs:
            if isinstance(ev, EffectEvent):
                self.effect(ev)
            elif isinstance(ev, Event):
                self.add(ev)
            else:  # pragma: no cover - every rules module returns one of the two
                self.events.append(Event(_snake(type(ev).__name__), str(ev), {}))


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


# -- dispatch --------------------------------------------------------------------------------
Check = Callable[[GameState, Any], None]
Do = Callable[[GameState, Any, Sink], None]
_RULES: dict[tuple[str, type[Command]], tuple[Check, Do]] = {}


def _rule(phase: str, cls: type[Command]) -> Callable[[Check], Check]:
    def deco(check: Check) -> Check:
        name = "_do_" + check.__name__[len("_check_"):]  # defined right after the check

        def do(state: GameState, cmd: Any, sink: Sink) -> None:
            globals()[name](state, cmd, sink)

        _RULES[(phase, cls)] = (check, do)
        return check
    return deco


def _rules_for(state: GameState, cmd: Command) -> tuple[Check, Do]:
    """The (check, do) pair for ``cmd`` now, after the checks common to every command."""
    if not isinstance(cmd, Command):
        raise IllegalCommand(None, f"not a command: {cmd!r}")
    bad = field_problem(cmd)
    if bad is not None:
        raise IllegalCommand(cmd, bad)
    if state.result is not None:
        raise IllegalCommand(cmd, f"the game is over: {state.result}")
    if cmd.side not in SIDES:
        raise IllegalCommand(cmd, f"unknown side {cmd.side!r}; expected one of {SIDES}")
    if cmd.side != state.to_act:
        raise IllegalCommand(cmd, f"it is {state.to_act}'s turn to act in the {state.phase} phase, not {cmd.side}'s")
    spec = _RULES.get((state.phase, type(cmd)))
    if spec is None:
        allowed = sorted(c.name for (p, c) in _RULES if p == state.phase)
        raise IllegalCommand(cmd, f"{cmd.name} is not allowed in the {state.phase} phase (allowed: {', '.join(allowed)})")
    return spec


def apply_command(state: GameState, cmd: Command) -> list[Event]:
    """Check and apply one command; see the module docstring.

    Raises:
        IllegalCommand: with the reason; the state is unchanged.
    """
    spec = _rules_for(state, cmd)
    check, do = spec
    check(state, cmd)
    bump_epoch(state)
    sink = Sink(state)
    log = state.dice.log
    log.sink = sink  # type: ignore[attr-defined]
    turn_before = state.turn
    try:
        do(state, cmd, sink)
        bump_epoch(state)
        _advance(state, sink)
    finally:
        log.sink = None  # type: ignore[attr-defined]
    state.commands.append(cmd)
    if state.turn != turn_before or any(e.kind == "end_turn" for e in sink.events):
        state.checkpoints.append((turn_before, len(state.commands), state.state_hash()))
    state.log.extend(sink.events)
    return sink.events


def check_command(state: GameState, cmd: Command) -> str | None:
    """Why ``cmd`` would be refused now (the :class:`IllegalCommand` reason), or ``None``.

    Runs exactly the checks of :func:`apply_command` and changes nothing (for UIs and AIs).
    """
    try:
        spec = _rules_for(state, cmd)
        spec[0](state, cmd)
    except IllegalCommand as exc:
        return exc.reason
    return None


def begin_play(state: GameState, sink: Sink | None = None) -> None:
    """Finish :func:`hexwar.game.setup.new_game`: run automatic steps to the first decision.

    Args:
        state: the new game.
        sink: the collector holding the setup's events so far (rolls included).
    """
    sink = sink or Sink(state)
    log = state.dice.log
    log.sink = sink  # type: ignore[attr-defined]
    try:
        state.to_act = "german"
        _advance(state, sink)
    finally:
        log.sink = None  # type: ignore[attr-defined]
    state.log.extend(sink.events)


def legal_commands(state: GameState, side: str | None = None) -> list[Command]:
    """Every legal command for ``side`` (default: the side to act) now, in a fixed order."""
    if state.result is not None:
        return []
    side = side or state.to_act
    if side is None or side != state.to_act:
        return []
    return list(_generate(state, side))


def can_act(state: GameState, side: str) -> bool:
    """True when ``side`` has a legal command other than ``EndPhase`` now."""
    return next(_generate(state, side, include_end=False), None) is not None


def _generate(state: GameState, side: str, include_end: bool = True) -> Iterator[Command]:
    gen = _GENERATORS.get(state.phase)
    if gen is not None:
        yield from gen(state, side)
    if include_end and (state.phase, EndPhase) in _RULES:
        try:
            _check_end_phase_any(state, EndPhase(side))
        except IllegalCommand:
            return
        yield EndPhase(side)


# -- the automatic steps ---------------------------------------------------------------------
def _advance(state: GameState, sink: Sink) -> None:
    """Run automatic steps until a side must decide (or the game is over)."""
    for _ in range(10_000):
        if state.result is not None:
            state.phase = Phase.OVER
            state.to_act = None
            return
        if state.phase == Phase.RESOLUTION:
            targeting.void_attacks(state, sink)
            pending = {s: [a for a in state.attacks.values() if not a.resolved and a.side == s] for s in SIDES}
            if not pending["german"] and not pending["soviet"]:
                _start_phase(state, Phase.DRAW, sink)
                continue
            chooser = state.resolve_turn or state.initiative or "german"
            if not pending[chooser]:
                chooser = other_side(chooser)
            state.resolve_turn = chooser
            state.to_act = chooser
            return
        if state.to_act in state.done:
            state.to_act = other_side(state.to_act or "german")
        if len(state.done) >= 2:
            _complete_phase(state, sink)
            continue
        assert state.to_act is not None
        if not can_act(state, state.to_act):
            if state.phase == Phase.DRAW and not _within_limits(state, state.to_act):  # pragma: no cover
                return
            state.done.add(state.to_act)
            continue
        return
    raise RuntimeError("the turn sequence did not reach a decision")  # pragma: no cover


def bump_epoch(state: GameState) -> None:
    """Invalidate derived data cached for the current position (reach, occupancy)."""
    state.cache["epoch"] = state.cache.get("epoch", 0) + 1


def _start_phase(state: GameState, phase: str, sink: Sink) -> None:
    bump_epoch(state)
    state.phase = phase
    state.done = set()
    state.to_act = state.initiative or "german"
    if phase == Phase.MOVEMENT:
        for uid in sorted(state.units):
            state.units[uid].mp_left = mv.movement_allowance(state, uid)
    elif phase == Phase.RESOLUTION:
        state.resolve_turn = state.initiative
    elif phase == Phase.DRAW:
        state.drawn = set()
    sink.emit("phase", f"Turn {state.turn}: {phase} phase ({state.to_act} first)", turn=state.turn, phase=phase)


def _complete_phase(state: GameState, sink: Sink) -> None:
    p = state.phase
    if p == Phase.SETUP:
        _finish_setup(state, sink)
        _begin_turn(state, sink)
    elif p == Phase.ARTILLERY:
        _resolve_artillery(state, sink)
        if state.result is None:
            _start_phase(state, Phase.COMMITMENT, sink)
    elif p == Phase.COMMITMENT:
        _start_phase(state, Phase.MOVEMENT, sink)
    elif p == Phase.MOVEMENT:
        _start_phase(state, Phase.DECLARATION, sink)
    elif p == Phase.DECLARATION:
        _start_phase(state, Phase.RESOLUTION, sink)
    elif p == Phase.DRAW:
        _end_turn(state, sink)
        if state.result is None:
            state.turn += 1
            _begin_turn(state, sink)
    else:  # pragma: no cover
        raise RuntimeError(f"no completion for phase {p}")


def _finish_setup(state: GameState, sink: Sink) -> None:
    """000 setup: shuffle the Reserves decks, deal the Command cards (Events go back)."""
    for side in SIDES:
        state.dice.shuffle(f"shuffle {side} Reserves deck", state.reserves[side])
    for side in SIDES:
        want = state.scenario.sides[side].command_cards
        for _ in range(want):
            for _attempt in range(len(state.command_deck) + 1):
                if not state.command_deck:
                    break
                c = state.command_deck.pop(0)
                if ruleset.is_event(c):
                    state.command_deck.append(c)
                    state.dice.shuffle(f"{side} drew Event {ruleset.card_name(c)} at setup: reshuffle", state.command_deck)
                    continue
                state.hand_commands[side].append(c)
                break
        sink.emit("deal", f"{side} is dealt {len(state.hand_commands[side])} Command cards", side=side,
                  cards=len(state.hand_commands[side]))


def _begin_turn(state: GameState, sink: Sink) -> None:
    """Begin Turn (R5.1): a. fire spread, b. fire damage, c. initiative; then artillery targeting."""
    from ..rules.fire import fire_damage_checks, fire_spread_phase
    from . import resolution

    sink.emit("begin_turn", f"=== Turn {state.turn} ===", turn=state.turn)
    state.attacks = {}
    state.artillery_calls = []
    state.resolve_turn = None
    sink.rule_events(fire_spread_phase(state.battlemap, state.dice, state.variants))  # R5.1a
    units = [(u.hex, resolution.TargetView(u.uid, state)) for _, u in sorted(state.units.items())
             if u.hex is not None and not u.aloft and u.crewing is None]
    sink.rule_events(fire_damage_checks(state.battlemap, units, state.dice,
                                        lambda unit, h, di, mod, dice: resolution.fire_hit(state, unit.id, di, sink)))
    ev = victory.check_points(state)
    if ev is not None:
        sink.add(ev)
        return
    # R5.1c initiative: 1d10 + modifiers each, re-roll ties
    for _attempt in range(100):
        rolls = {}
        for side in SIDES:
            mods = []
            if state.scenario.sides[side].initiative:
                mods.append(("scenario", state.scenario.sides[side].initiative))
            ev_mod = ruleset.side_effects(state, side, EffectKind.INITIATIVE)
            if ev_mod:
                mods.append(("events", ev_mod))
            card_mod = state.pending[side].get("initiative", 0)
            if card_mod:
                mods.append(("command card", card_mod))
            rolls[side] = state.dice.roll(f"initiative {side}", "1d10", modifiers=mods).result
        if rolls["german"] != rolls["soviet"]:
            break
        sink.emit("initiative_tie", f"initiative tie at {rolls['german']}: re-roll", roll=rolls["german"])
    winner = "german" if rolls["german"] > rolls["soviet"] else "soviet"
    state.initiative = winner
    for side in SIDES:
        state.pending[side].pop("initiative", None)
    sink.emit("initiative", f"{winner} wins initiative ({rolls['german']} german vs {rolls['soviet']} soviet)",
              winner=winner, rolls=rolls)
    _start_phase(state, Phase.ARTILLERY, sink)


def _resolve_artillery(state: GameState, sink: Sink) -> None:
    """R5.1d / R9.3-R9.4: resolve the targeted missions, initiative winner first."""
    from . import resolution

    order = [state.initiative or "german", other_side(state.initiative or "german")]
    for side in order:
        for _, h, bonus in [c for c in state.artillery_calls if c[0] == side]:
            resolution.artillery_mission(state, side, h, bonus is not None, sink)
            ev = victory.check_points(state)
            if ev is not None:
                sink.add(ev)
                return
    for side in SIDES:
        state.pending[side].pop("artillery_accuracy", None)


def _end_turn(state: GameState, sink: Sink) -> None:
    """End Turn (R5.6): counters, Turns of Flight, endurance recovery, envelopment, victory."""
    from . import resolution

    resolution.end_turn_units(state, sink)
    resolution.envelop_crewless(state, sink)
    resolution.end_turn_events(state, sink)
    state.attacks = {}
    state.artillery_calls = []
    sink.emit("end_turn", f"End of turn {state.turn}: German {state.vp['german']} VP, Soviet {state.vp['soviet']} VP",
              turn=state.turn, vp=dict(state.vp))
    for ev in victory.end_turn_victory(state):
        sink.add(ev)


# -- setup -----------------------------------------------------------------------------------
@_rule(Phase.SETUP, ChooseHand)
def _check_choose_hand(state: GameState, cmd: ChooseHand) -> None:
    ss = state.scenario.sides[cmd.side]
    want = min(ss.hand_size, len(state.reserves[cmd.side]))
    if len(cmd.cards) != want:
        raise IllegalCommand(cmd, f"choose exactly {want} unit cards from your Reserves deck, got {len(cmd.cards)}")
    if len(set(cmd.cards)) != len(cmd.cards):
        raise IllegalCommand(cmd, "a card is named twice")
    for c in cmd.cards:
        if c not in state.reserves[cmd.side]:
            raise IllegalCommand(cmd, f"{c} is not in your Reserves deck")


def _do_choose_hand(state: GameState, cmd: ChooseHand, sink: Sink) -> None:
    for c in cmd.cards:
        state.reserves[cmd.side].remove(c)
        state.hand_units[cmd.side].append(c)
    state.done.add(cmd.side)
    sink.emit("hand", f"{cmd.side} takes {len(cmd.cards)} unit cards into hand", side=cmd.side, cards=list(cmd.cards))


def _gen_setup(state: GameState, side: str) -> Iterator[Command]:
    if side in state.done:
        return
    want = min(state.scenario.sides[side].hand_size, len(state.reserves[side]))
    # one representative instance per card id keeps the choices distinct
    by_card: dict[str, list[str]] = {}
    for c in state.reserves[side]:
        by_card.setdefault(card_of(c), []).append(c)
    pool = [inst for cid in sorted(by_card) for inst in by_card[cid][:want]]
    seen: set[tuple[str, ...]] = set()
    n = 0
    for combo in combinations(pool, want):
        key = tuple(sorted(card_of(c) for c in combo))
        if key in seen:
            continue
        seen.add(key)
        yield ChooseHand(side, combo)
        n += 1
        if n >= 2000:
            return


# -- off-board artillery targeting (R5.1d, R9.2) ---------------------------------------------
def _observers(state: GameState, side: str) -> list[Any]:
    return sorted({u.hex for u in state.units.values() if u.side == side and u.hex is not None and not u.aloft
                   and u.crewing is None and ruleset.is_ground(u.card)}, key=lambda h: h.offset)


def _artillery_room(state: GameState, side: str) -> bool:
    art = state.scenario.sides[side].artillery
    if art is None or state.artillery_left[side] <= 0:
        return False
    called = sum(1 for c in state.artillery_calls if c[0] == side)
    return called < art.per_turn


def _bonus_problem(state: GameState, side: str, card: str | None) -> str | None:
    if card is None:
        return None
    if card not in state.hand_commands[side]:
        return f"Command card {card} is not in your hand (R1.3 bonus)"
    return None


@_rule(Phase.ARTILLERY, TargetArtillery)
def _check_target_artillery(state: GameState, cmd: TargetArtillery) -> None:
    if state.scenario.sides[cmd.side].artillery is None:
        raise IllegalCommand(cmd, f"{cmd.side} has no off-board artillery in this scenario")
    if state.artillery_left[cmd.side] <= 0:
        raise IllegalCommand(cmd, f"{cmd.side} has no artillery missions left")
    if not _artillery_room(state, cmd.side):
        raise IllegalCommand(cmd, f"{cmd.side} has called all its artillery missions for this turn")
    if cmd.hex is None or not state.battlemap.in_bounds(cmd.hex):
        raise IllegalCommand(cmd, f"target hex {cmd.hex} is not on the map")
    obs = _observers(state, cmd.side)
    if not obs:
        raise IllegalCommand(cmd, "you have no ground unit on the map to observe the target (R9.2)")
    if not any(ruleset.sees(state, o, cmd.hex)[0] for o in obs):
        raise IllegalCommand(cmd, f"no friendly ground unit has LOS to {cmd.hex.label} (R9.2)")
    p = _bonus_problem(state, cmd.side, cmd.bonus_card)
    if p:
        raise IllegalCommand(cmd, p)


def _do_target_artillery(state: GameState, cmd: TargetArtillery, sink: Sink) -> None:
    from ..rules.artillery import target_artillery

    assert cmd.hex is not None
    if cmd.bonus_card is not None:
        state.hand_commands[cmd.side].remove(cmd.bonus_card)
        state.command_discard.append(cmd.bonus_card)
    state.artillery_left[cmd.side] -= 1
    state.artillery_calls.append((cmd.side, cmd.hex, cmd.bonus_card))
    ev = target_artillery(state.battlemap, cmd.side, cmd.hex, _observers(state, cmd.side),
                          lambda a, b: ruleset.sees(state, a, b)[0])
    sink.effect(ev)


def _gen_artillery(state: GameState, side: str) -> Iterator[Command]:
    if not _artillery_room(state, side):
        return
    obs = _observers(state, side)
    if not obs:
        return
    import numpy as np

    from ..los import BLOCKED

    seen = np.zeros((state.battlemap.height, state.battlemap.width), dtype=bool)
    for o in obs:
        status, _ = ruleset.los_arrays(state, o)
        seen |= status != BLOCKED
    for col in range(state.battlemap.width):
        for row in range(state.battlemap.height):
            if seen[row, col]:
                from ..hexgrid import Hex

                yield TargetArtillery(side, Hex.from_offset(col, row))
    yield from _gen_command_cards(state, side)


# -- commitment (R5.2) ------------------------------------------------------------------------
def _ground_count(state: GameState, side: str, h: Any) -> int:
    _, cnt = mv.occupancy(state)
    col, row = h.offset
    return int(cnt[side][row, col])


def _enemy_in(state: GameState, side: str, h: Any) -> bool:
    occ, _ = mv.occupancy(state)
    col, row = h.offset
    return bool(occ[other_side(side)][row, col])


def commit_problem(state: GameState, cmd: Commit) -> str | None:
    """Why a :class:`~hexwar.game.commands.Commit` is illegal now (R5.2), or ``None``."""
    side = cmd.side
    hand = state.hand_units[side]
    if cmd.unit not in hand:
        return f"{cmd.unit} is not in your hand"
    cid = card_of(cmd.unit)
    name = ruleset.card_name(cid)
    if ruleset.is_crew(cid):
        return f"{name} is a crew card: commit it with the unit it crews (crew=...) or with recrew"
    req = ruleset.crew_required(cid)
    if req is None:
        if cmd.crew is not None or cmd.carry is not None:
            return f"{name} takes no crew and carries nobody"
    elif req == "infantry":
        if cmd.crew is not None:
            return f"{name} takes no crew card; it commits together with an infantry unit (carry=...)"
        if cmd.carry is None:
            return f"{name} must be committed together with an infantry unit from your hand (carry=..., 000)"
        if cmd.carry not in hand or cmd.carry == cmd.unit:
            return f"{cmd.carry} is not in your hand"
        if not ruleset.is_infantry(card_of(cmd.carry)):
            return f"{ruleset.card_name(card_of(cmd.carry))} is not infantry"
    else:
        if cmd.carry is not None:
            return f"{name} carries nobody"
        if cmd.crew is None:
            return f"{name} needs {ruleset.a_or_an(req.replace('_', ' '))} card from your hand (crew=..., R5.2)"
        if cmd.crew not in hand:
            return f"{cmd.crew} is not in your hand"
        if not ruleset.crew_fits(cid, card_of(cmd.crew)):
            return f"{ruleset.card_name(card_of(cmd.crew))} is not {ruleset.a_or_an(req.replace('_', ' '))}"
    if ruleset.is_aircraft(cid):
        if cmd.hex is not None:
            return f"{name} is an aircraft: it goes aloft, give no hex (R5.2)"
        for ev in state.events_in_play:
            if any(e.kind == EffectKind.NO_AIRCRAFT and e.side in (None, side) for e in ruleset.command_card(ev).effects):
                return f"aircraft may not be committed while {ruleset.card_name(ev)} is in play"
        return None
    h = cmd.hex
    if h is None:
        return f"{name} needs a hex of your deploy zone"
    if not state.battlemap.in_bounds(h):
        return f"{state.hex_label(h)} is off the map"
    if h not in state.scenario.sides[side].deploy:
        return f"{h.label} is not in your deploy zone (R5.2)"
    if not ruleset.can_stand(state.battlemap, h, cid):
        return f"{name} may not stand in {h.label} ({state.battlemap.terrain_at(h).name})"
    if cmd.carry is not None and not ruleset.can_stand(state.battlemap, h, card_of(cmd.carry)):
        return f"{ruleset.card_name(card_of(cmd.carry))} may not stand in {h.label}"
    if _enemy_in(state, side, h):
        return f"{h.label} holds an enemy unit"
    need = 2 if cmd.carry is not None else 1
    if _ground_count(state, side, h) + need > STACKING_LIMIT:
        return f"{h.label} already holds {_ground_count(state, side, h)} ground units (stacking limit {STACKING_LIMIT}, R5.2)"
    return None


@_rule(Phase.COMMITMENT, Commit)
def _check_commit(state: GameState, cmd: Commit) -> None:
    p = commit_problem(state, cmd)
    if p:
        raise IllegalCommand(cmd, p)


def _new_unit(state: GameState, uid: str, side: str, h: Any, aloft: bool) -> UnitState:
    u = UnitState(uid, side, side, h, aloft=aloft, endurance=ruleset.full_endurance(uid), entered=state.turn)
    if aloft and not ruleset.is_crew(uid):
        u.flight_turns = ruleset.turns_of_flight(uid) + ruleset.effect_total(ruleset.active_effects(state, u),
                                                                             EffectKind.TURNS_OF_FLIGHT)
        u.flight_turns = max(1, u.flight_turns)
    state.units[uid] = u
    state.hand_units[side].remove(uid)
    return u


def _do_commit(state: GameState, cmd: Commit, sink: Sink) -> None:
    side = cmd.side
    aloft = cmd.hex is None
    u = _new_unit(state, cmd.unit, side, cmd.hex, aloft)
    extra = ""
    if cmd.crew is not None:
        c = _new_unit(state, cmd.crew, side, cmd.hex, aloft)
        c.crewing = u.uid
        u.crew = c.uid
        extra = f" with {ruleset.card_name(c.uid)} ({c.uid})"
    if cmd.carry is not None:
        _new_unit(state, cmd.carry, side, cmd.hex, False)
        extra = f" carrying {ruleset.card_name(cmd.carry)} ({cmd.carry})"
    where = "aloft" if aloft else f"into {cmd.hex.label}"  # type: ignore[union-attr]
    sink.emit("commit", f"{side} commits {ruleset.card_name(u.uid)} ({u.uid}){extra} {where}",
              unit=u.uid, hex=None if aloft else cmd.hex.label, crew=cmd.crew, carry=cmd.carry)  # type: ignore[union-attr]
    if ruleset.is_ground(u.card) and not aloft:
        enemy = other_side(side)
        if state.overrun[enemy]:
            sink.emit("overrun_reset", f"{enemy}'s Overrun count resets: {side} committed a ground unit (R10.1)",
                      side=enemy)
        state.overrun[enemy] = 0
        ev = victory.enter_hex(state, side, cmd.hex)  # type: ignore[arg-type]
        if ev is not None:
            sink.add(ev)


def _gen_commitment(state: GameState, side: str) -> Iterator[Command]:
    hand = state.hand_units[side]
    deploy = state.scenario.sides[side].deploy
    firsts: dict[str, str] = {}
    for c in hand:
        firsts.setdefault(card_of(c), c)
    crews: dict[str, list[str]] = {}
    infantry: list[str] = []
    for cid, inst in sorted(firsts.items()):
        if ruleset.is_crew(cid):
            crews.setdefault(ruleset.unit_type(cid), []).append(inst)
        elif ruleset.is_infantry(cid):
            infantry.append(inst)
    open_hexes = [h for h in deploy if not _enemy_in(state, side, h) and _ground_count(state, side, h) < STACKING_LIMIT]
    for cid, inst in sorted(firsts.items()):
        if ruleset.is_crew(cid):
            continue
        req = ruleset.crew_required(cid)
        options: list[tuple[str | None, str | None]]
        if req is None:
            options = [(None, None)]
        elif req == "infantry":
            options = [(None, i) for i in infantry if i != inst]
        else:
            options = [(c, None) for c in crews.get(req, [])]
        for crew, carry in options:
            if ruleset.is_aircraft(cid):
                cmd = Commit(side, inst, None, crew, carry)
                if commit_problem(state, cmd) is None:
                    yield cmd
                continue
            for h in open_hexes:
                cmd = Commit(side, inst, h, crew, carry)
                if commit_problem(state, cmd) is None:
                    yield cmd
    # recrew a crewless unit (R5.2)
    for uid, u in sorted(state.units.items()):
        if u.side != side or u.crew is not None or not ruleset.needs_crew(u.card) or u.aloft:
            continue
        for c in crews.get(ruleset.crew_required(u.card) or "", []):
            yield Recrew(side, c, uid)
    yield from _gen_command_cards(state, side)


@_rule(Phase.COMMITMENT, Recrew)
def _check_recrew(state: GameState, cmd: Recrew) -> None:
    if cmd.crew not in state.hand_units[cmd.side]:
        raise IllegalCommand(cmd, f"{cmd.crew} is not in your hand")
    u = state.units.get(cmd.unit)
    if u is None or u.side != cmd.side:
        raise IllegalCommand(cmd, f"{cmd.unit} is not a unit of yours in play")
    if u.crew is not None:
        raise IllegalCommand(cmd, f"{cmd.unit} already has a crew")
    if not ruleset.crew_fits(u.card, card_of(cmd.crew)):
        raise IllegalCommand(cmd, f"{ruleset.card_name(card_of(cmd.crew))} cannot crew {ruleset.card_name(u.card)}")
    if u.aloft:
        raise IllegalCommand(cmd, f"{cmd.unit} is aloft")


def _do_recrew(state: GameState, cmd: Recrew, sink: Sink) -> None:
    u = state.units[cmd.unit]
    c = _new_unit(state, cmd.crew, cmd.side, u.hex, False)
    c.crewing = u.uid
    u.crew = c.uid
    sink.emit("recrew", f"{cmd.side} puts {ruleset.card_name(c.uid)} ({c.uid}) on {ruleset.card_name(u.card)} ({u.uid})",
              unit=u.uid, crew=c.uid)
    if u.owner != cmd.side:  # crewing a captured unit instead of scoring it (000)
        from . import resolution

        resolution.forfeit_capture(state, u.uid, sink)


# -- command cards (R4.3) --------------------------------------------------------------------
_PHASE_OF = {Phase.COMMITMENT: "commitment", Phase.MOVEMENT: "movement", Phase.DECLARATION: "combat",
             Phase.RESOLUTION: "combat", Phase.DRAW: "draw", Phase.ARTILLERY: "begin_turn"}


def command_card_problem(state: GameState, cmd: UseCommandCard) -> str | None:
    """Why a Command card may not be played now (R4.3), or ``None``."""
    from . import resolution

    return resolution.command_card_problem(state, cmd, _PHASE_OF.get(state.phase, ""))


def _check_use_card(state: GameState, cmd: UseCommandCard) -> None:
    p = command_card_problem(state, cmd)
    if p:
        raise IllegalCommand(cmd, p)


def _do_use_card(state: GameState, cmd: UseCommandCard, sink: Sink) -> None:
    from . import resolution

    resolution.play_command_card(state, cmd, sink)


for _p in (Phase.ARTILLERY, Phase.COMMITMENT, Phase.MOVEMENT, Phase.DECLARATION, Phase.RESOLUTION, Phase.DRAW):
    _RULES[(_p, UseCommandCard)] = (_check_use_card, _do_use_card)


def _gen_command_cards(state: GameState, side: str) -> Iterator[Command]:
    from . import resolution

    yield from resolution.command_card_options(state, side, _PHASE_OF.get(state.phase, ""))


# -- movement (R5.3, R8.1) --------------------------------------------------------------------
@_rule(Phase.MOVEMENT, Move)
def _check_move(state: GameState, cmd: Move) -> None:
    p = mv.move_problem(state, cmd.side, cmd.unit, cmd.path)
    if p:
        raise IllegalCommand(cmd, p)


def _do_move(state: GameState, cmd: Move, sink: Sink) -> None:
    mv.do_move(state, cmd.side, cmd.unit, cmd.path, sink)


@_rule(Phase.MOVEMENT, Tow)
def _check_tow(state: GameState, cmd: Tow) -> None:
    p = mv.tow_problem(state, cmd.side, cmd.unit, cmd.hex)
    if p:
        raise IllegalCommand(cmd, p)


def _do_tow(state: GameState, cmd: Tow, sink: Sink) -> None:
    assert cmd.hex is not None
    mv.do_tow(state, cmd.side, cmd.unit, cmd.hex, sink)


@_rule(Phase.MOVEMENT, DropTow)
def _check_drop_tow(state: GameState, cmd: DropTow) -> None:
    u = state.units.get(cmd.unit)
    if u is None or u.side != cmd.side:
        raise IllegalCommand(cmd, f"{cmd.unit} is not a unit of yours in play")
    if not u.towing:
        raise IllegalCommand(cmd, f"{cmd.unit} tows no wreck")


def _do_drop_tow(state: GameState, cmd: DropTow, sink: Sink) -> None:
    mv.do_drop_tow(state, cmd.side, cmd.unit, sink)


def _gen_movement(state: GameState, side: str) -> Iterator[Command]:
    for uid, u in sorted(state.units.items()):
        if u.side != side or u.crewing is not None or u.hex is None:
            continue
        if u.towing:
            yield DropTow(side, uid)
        reach = mv.unit_reach(state, uid)
        if reach is not None:
            for dest in reach.destinations():
                yield Move(side, uid, reach.path(dest))
        if not u.towing and u.mp_left >= 2 and ruleset.mobility(u.card) == "tracked":
            for h in [u.hex] + state.battlemap.neighbors(u.hex):
                if state.battlemap.wrecks.get(h) and mv.tow_problem(state, side, uid, h) is None:
                    yield Tow(side, uid, h)
    yield from _gen_command_cards(state, side)


# -- combat: declaration and resolution (R6.1, R6.2, R7) -------------------------------------
@_rule(Phase.DECLARATION, Declare)
def _check_declare(state: GameState, cmd: Declare) -> None:
    p = targeting.declare_problem(state, cmd)
    if p:
        raise IllegalCommand(cmd, p)


def _do_declare(state: GameState, cmd: Declare, sink: Sink) -> None:
    targeting.do_declare(state, cmd, sink)


@_rule(Phase.DECLARATION, DeclareCloseAssault)
def _check_declare_ca(state: GameState, cmd: DeclareCloseAssault) -> None:
    p = targeting.close_assault_problem(state, cmd)
    if p:
        raise IllegalCommand(cmd, p)


def _do_declare_ca(state: GameState, cmd: DeclareCloseAssault, sink: Sink) -> None:
    targeting.do_declare_close_assault(state, cmd, sink)


@_rule(Phase.DECLARATION, DeclareBuildingAttack)
def _check_declare_building(state: GameState, cmd: DeclareBuildingAttack) -> None:
    p = targeting.building_attack_problem(state, cmd)
    if p:
        raise IllegalCommand(cmd, p)


def _do_declare_building(state: GameState, cmd: DeclareBuildingAttack, sink: Sink) -> None:
    targeting.do_declare_building_attack(state, cmd, sink)


def _gen_declaration(state: GameState, side: str) -> Iterator[Command]:
    yield from targeting.declaration_options(state, side)
    yield from _gen_command_cards(state, side)


@_rule(Phase.RESOLUTION, Resolve)
def _check_resolve(state: GameState, cmd: Resolve) -> None:
    a = state.attacks.get(cmd.attack)
    if a is None:
        raise IllegalCommand(cmd, f"there is no declared attack number {cmd.attack} this turn")
    if a.side != cmd.side:
        raise IllegalCommand(cmd, f"attack {cmd.attack} is the {a.side}'s")
    if a.resolved:
        raise IllegalCommand(cmd, f"attack {cmd.attack} is already resolved")
    p = _bonus_problem(state, cmd.side, cmd.bonus_card)
    if p:
        raise IllegalCommand(cmd, p)


def _do_resolve(state: GameState, cmd: Resolve, sink: Sink) -> None:
    from . import resolution

    a = state.attacks[cmd.attack]
    if cmd.bonus_card is not None:
        state.hand_commands[cmd.side].remove(cmd.bonus_card)
        state.command_discard.append(cmd.bonus_card)
    resolution.resolve_attack(state, a, cmd.bonus_card is not None, sink)
    a.resolved = True
    ev = victory.check_points(state)
    if ev is not None:
        sink.add(ev)
        return
    state.resolve_turn = other_side(cmd.side)


def _gen_resolution(state: GameState, side: str) -> Iterator[Command]:
    for n, a in sorted(state.attacks.items()):
        if a.side == side and not a.resolved:
            yield Resolve(side, n)
    yield from _gen_command_cards(state, side)


# -- draw (R5.5) --------------------------------------------------------------------------------
def _within_limits(state: GameState, side: str) -> bool:
    return len(state.hand_commands[side]) <= HAND_LIMIT_COMMAND and len(state.hand_units[side]) <= HAND_LIMIT_UNITS


def _draw_possible(state: GameState, side: str) -> bool:
    return bool(state.command_deck or state.reserves[side])


@_rule(Phase.DRAW, Draw)
def _check_draw(state: GameState, cmd: Draw) -> None:
    if cmd.side in state.drawn:
        raise IllegalCommand(cmd, "you have drawn already this turn")
    extra = _extra_draws(state, cmd.side)
    if len(cmd.extra) != extra:
        raise IllegalCommand(cmd, f"choose {extra} sources for the extra cards, each 'command' or 'reserves' (R5.5)")
    for s in cmd.extra:
        if s not in DRAW_SOURCES:
            raise IllegalCommand(cmd, f"unknown draw source {s!r}; expected one of {DRAW_SOURCES}")


def _extra_draws(state: GameState, side: str) -> int:
    """R5.5: two extra cards, plus Draw effects of Events and Command cards played (min 0)."""
    return max(0, 2 + ruleset.side_effects(state, side, EffectKind.DRAW) + state.pending[side].get("draw", 0))


def _draw_command(state: GameState, side: str, sink: Sink) -> str | None:
    """Draw Command cards until one is not an Event (Events apply at once, R5.5)."""
    from . import resolution

    while state.command_deck:
        c = state.command_deck.pop(0)
        if ruleset.is_event(c):
            state.events_in_play.append(c)
            sink.emit("event_card", f"{side} draws the Event {ruleset.card_name(c)}: it applies to both sides "
                                    f"({ruleset.command_card(c).help_text()})", card=c, side=side)
            resolution.event_drawn(state, c, sink)
            continue
        state.hand_commands[side].append(c)
        return c
    return None


def _do_draw(state: GameState, cmd: Draw, sink: Sink) -> None:
    side = cmd.side
    got: list[str] = []
    first = _draw_command(state, side, sink)
    if first:
        got.append("Command")
    for src in cmd.extra:
        if src == "command":
            if _draw_command(state, side, sink):
                got.append("Command")
        elif state.reserves[side]:
            state.hand_units[side].append(state.reserves[side].pop(0))
            got.append("unit")
    state.drawn.add(side)
    state.pending[side].pop("draw", None)
    sink.emit("draw", f"{side} draws {len(got)} cards ({', '.join(got) or 'none left'}): hand "
                      f"{len(state.hand_commands[side])} Command, {len(state.hand_units[side])} unit",
              side=side, sources=list(cmd.extra), drawn=got)


@_rule(Phase.DRAW, Discard)
def _check_discard(state: GameState, cmd: Discard) -> None:
    if cmd.side not in state.drawn:
        raise IllegalCommand(cmd, "draw first; discards bring the hand down to its limits (R5.5)")
    if cmd.card in state.hand_commands[cmd.side]:
        if len(state.hand_commands[cmd.side]) <= HAND_LIMIT_COMMAND:
            raise IllegalCommand(cmd, f"you hold {len(state.hand_commands[cmd.side])} Command cards, within the limit "
                                      f"of {HAND_LIMIT_COMMAND}")
    elif cmd.card in state.hand_units[cmd.side]:
        if len(state.hand_units[cmd.side]) <= HAND_LIMIT_UNITS:
            raise IllegalCommand(cmd, f"you hold {len(state.hand_units[cmd.side])} unit cards, within the limit "
                                      f"of {HAND_LIMIT_UNITS}")
    else:
        raise IllegalCommand(cmd, f"{cmd.card} is not in your hand")


def _do_discard(state: GameState, cmd: Discard, sink: Sink) -> None:
    side = cmd.side
    if cmd.card in state.hand_commands[side]:
        state.hand_commands[side].remove(cmd.card)
        state.command_discard.append(cmd.card)
        where = "leaves the game"
    else:
        state.hand_units[side].remove(cmd.card)
        state.reserves[side].append(cmd.card)
        where = "goes under the Reserves deck"
    sink.emit("discard", f"{side} discards {ruleset.card_name(cmd.card)} ({cmd.card}): it {where}", side=side, card=cmd.card)


def _gen_draw(state: GameState, side: str) -> Iterator[Command]:
    if side not in state.drawn:
        yield from _gen_command_cards(state, side)
        if not _draw_possible(state, side):
            return
        n = _extra_draws(state, side)
        srcs = [s for s in DRAW_SOURCES if (state.command_deck if s == "command" else state.reserves[side])] or list(DRAW_SOURCES)
        seen = set()
        for k in range(n + 1):  # k cards from the first source, the rest from the second
            combo = tuple([srcs[0]] * k + [srcs[-1]] * (n - k))
            key = tuple(sorted(combo))
            if key not in seen:
                seen.add(key)
                yield Draw(side, combo)
        return
    if len(state.hand_commands[side]) > HAND_LIMIT_COMMAND:
        for c in sorted(set(state.hand_commands[side])):
            yield Discard(side, c)
    if len(state.hand_units[side]) > HAND_LIMIT_UNITS:
        for c in sorted(set(state.hand_units[side])):
            yield Discard(side, c)


# -- EndPhase ---------------------------------------------------------------------------------
def _check_end_phase_any(state: GameState, cmd: EndPhase) -> None:
    if state.phase == Phase.SETUP:
        raise IllegalCommand(cmd, "choose your starting hand first (choose_hand)")
    if state.phase == Phase.RESOLUTION:
        raise IllegalCommand(cmd, "every declared attack must be resolved (R6.2)")
    if state.phase == Phase.DRAW:
        if cmd.side not in state.drawn and _draw_possible(state, cmd.side):
            raise IllegalCommand(cmd, "draw first (R5.5)")
        if not _within_limits(state, cmd.side):
            raise IllegalCommand(cmd, f"discard down to {HAND_LIMIT_COMMAND} Command and {HAND_LIMIT_UNITS} unit cards first (R5.5)")


def _do_end_phase_any(state: GameState, cmd: EndPhase, sink: Sink) -> None:
    state.done.add(cmd.side)
    sink.emit("end_phase", f"{cmd.side} ends its {state.phase} phase", side=cmd.side, phase=state.phase)


for _p in (Phase.ARTILLERY, Phase.COMMITMENT, Phase.MOVEMENT, Phase.DECLARATION, Phase.DRAW):
    _RULES[(_p, EndPhase)] = (_check_end_phase_any, _do_end_phase_any)

_GENERATORS: dict[str, Callable[[GameState, str], Iterator[Command]]] = {
    Phase.SETUP: _gen_setup,
    Phase.ARTILLERY: _gen_artillery,
    Phase.COMMITMENT: _gen_commitment,
    Phase.MOVEMENT: _gen_movement,
    Phase.DECLARATION: _gen_declaration,
    Phase.RESOLUTION: _gen_resolution,
    Phase.DRAW: _gen_draw,
}
