"""The turn sequence (R5) as a command-driven state machine.

:class:`TurnSequence` is what :meth:`GameState.apply <hexwar.game.state.GameState.apply>` runs
(:data:`STANDARD_TURNS` for the standard game; the module functions :func:`apply_command`,
:func:`check_command`, :func:`legal_commands` are the same for a given state):

1. refuse (``IllegalCommand``, nothing changed) a command from the wrong side, one not
   allowed in the current phase, or one the phase's rules forbid - every check happens
   before anything changes or any die is rolled;
2. carry it out through its :class:`~hexwar.game.actions.Action` of the game's
   :class:`~hexwar.game.actions.ActionRegistry` (one module per command under
   :mod:`hexwar.game.actions`), collecting typed events in the game's
   :class:`~hexwar.game.events.Recorder` (every die roll is an event at the moment it is
   rolled, R1.2);
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
``commitment``     ``Commit``, ``Recrew``, ``MoveCrew``, ``UseCommandCard`` (R5.2, 001)
``movement``       ``Move``, ``Tow``, ``DropTow``, ``UseCommandCard`` (R5.3)
``declaration``    ``Declare``, ``DeclareCloseAssault``, ``DeclareBuildingAttack``,
                   ``UseCommandCard`` (R6.1, R8.2)
``resolution``     ``Resolve`` - alternating, initiative winner first (R6.2); no EndPhase
``draw``           ``Draw`` then ``Discard`` to the hand limits (R5.5)
=================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Iterator

from ..rules.cards import EffectKind
from ..rules.fire import fire_spread_phase
from . import movement as mv
from . import resolution, ruleset, targeting, victory
from .actions import STANDARD, Action, ActionRegistry
from .actions import command_card as command_card_action
from .actions import commit as commit_action
from .actions import undo as undo_action
from .actions.common import within_limits
from .commands import SIDES, Command, Commit, EndPhase, IllegalCommand, UseCommandCard, field_problem
from .events import GameEvent, Recorder
from .sight import fog_on
from .state import GameState, Phase, other_side

__all__ = [
    "Sink",
    "TurnSequence",
    "STANDARD_TURNS",
    "apply_command",
    "check_command",
    "legal_commands",
    "begin_play",
    "can_act",
    "legal_of",
    "bump_epoch",
    "commit_problem",
    "command_card_problem",
]


class Sink(Recorder):
    """A :class:`~hexwar.game.events.Recorder` for ``state``'s map, already collecting (kept for
    callers of round 1 that drive one rules step by hand)."""

    def __init__(self, state: GameState):
        super().__init__(state.battlemap)
        self.active = True


# -- dispatch --------------------------------------------------------------------------------
class TurnSequence:
    """The standard turn sequence (R5) over an action registry.

    Args:
        registry: the actions by phase (default :data:`hexwar.game.actions.STANDARD`).
    """

    def __init__(self, registry: ActionRegistry = STANDARD):
        self.registry = registry

    def _action(self, state: GameState, cmd: Command) -> Action:
        """The action for ``cmd`` now, after the checks common to every command."""
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
            raise IllegalCommand(
                cmd, f"it is {state.to_act}'s turn to act in the {state.phase} phase, not {cmd.side}'s"
            )
        act = self.registry.action(state.phase, type(cmd))
        if act is None:
            allowed = self.registry.allowed(state.phase)
            raise IllegalCommand(
                cmd, f"{cmd.name} is not allowed in the {state.phase} phase (allowed: {', '.join(allowed)})"
            )
        return act

    def apply_command(self, state: GameState, cmd: Command) -> list[GameEvent]:
        """Check and apply one command; see the module docstring.

        Returns:
            the typed events it caused, in order (also appended to ``state.log``).

        Raises:
            IllegalCommand: with the reason; the state is unchanged.
        """
        act = self._action(state, cmd)
        problem = act.check(state, cmd)
        if problem:
            raise IllegalCommand(cmd, problem)
        bump_epoch(state)
        point = undo_action.before(state, cmd)
        rolls_before = len(state.dice.log)
        rec = state.recorder
        rec.begin()
        turn_before = state.turn
        try:
            act.apply(state, cmd, rec)
            bump_epoch(state)
            _advance(state, rec)
        finally:
            events = rec.take()
        state.commands.append(cmd)
        undo_action.after(state, cmd, point, events, rolls_before)
        capped = victory.command_cap(state)  # R12.4: every game ends
        if capped is not None:
            events.append(capped)
        if state.turn != turn_before or any(e.kind == "end_turn" for e in events):
            state.checkpoints.append((turn_before, len(state.commands), state.state_hash()))
        state.log.extend(events)
        return events

    def check_command(self, state: GameState, cmd: Command) -> str | None:
        """Why ``cmd`` would be refused now (the :class:`IllegalCommand` reason), or ``None``.

        Runs exactly the checks of :meth:`apply_command` and changes nothing (for UIs and AIs).
        """
        try:
            act = self._action(state, cmd)
        except IllegalCommand as exc:
            return exc.reason
        return act.check(state, cmd) or None

    def legal_commands(self, state: GameState, side: str | None = None) -> list[Command]:
        """Every legal command for ``side`` (default: the side to act) now, in a fixed order.

        The listing (all but ``EndPhase``) is shared with :meth:`can_act` for the same
        position (:class:`_Listing`); ``EndPhase`` is checked afresh."""
        if state.result is not None:
            return []
        side = side or state.to_act
        if side is None or side != state.to_act:
            return []
        listing = self._listing(state, side)
        if listing is None:
            return list(self.registry.options(state, side))
        out = listing.all()
        end = self.registry.action(state.phase, EndPhase)
        if end is not None and end.check(state, EndPhase(side)) is None:
            out.append(EndPhase(side))
        return out

    def can_act(self, state: GameState, side: str) -> bool:
        """True when ``side`` has a legal command other than ``EndPhase`` now."""
        listing = self._listing(state, side)
        if listing is None:
            return next(self.registry.options(state, side, include_end=False), None) is not None
        return listing.any()

    def _listing(self, state: GameState, side: str) -> _Listing | None:
        """The shared lazy listing of ``side``'s commands (``EndPhase`` left out) in this
        position, or ``None`` when it may not be shared (issue 22).

        Kept in ``state.cache`` under the position's key: the epoch (:func:`bump_epoch`:
        every command bumps it before and after it is carried out, every phase start too;
        :meth:`dict.clear` of the cache drops the listing with it), the map version, the
        phase, the side to act, the sides done and the game's result. Under fog (R12.2) the
        sight a listing may depend on is updated after the command, so nothing is shared.
        While a listing is being extended, a nested request lists afresh."""
        if fog_on(state):
            return None
        key = (
            id(self),
            side,
            state.cache.get("epoch", 0),
            state.battlemap.version,
            state.phase,
            state.to_act,
            tuple(sorted(state.done)),
            state.result is None,
            state.turn,
        )
        hit = state.cache.get("listing")
        if hit is not None and hit[0] == key:
            listing: _Listing = hit[1]
            return None if listing.busy else listing
        listing = _Listing(self.registry.options(state, side, include_end=False))
        state.cache["listing"] = (key, listing)
        return listing

    def begin_play(self, state: GameState) -> None:
        """Run the automatic steps of a new game to the first decision (the setup's events so
        far are in the open recorder); the events go to ``state.log``."""
        rec = state.recorder
        try:
            state.to_act = "german"
            _advance(state, rec)
        finally:
            events = rec.take()
        state.log.extend(events)


class _Listing:
    """A registry listing computed lazily and at most once: :meth:`any` pulls the first
    command only (what :func:`_advance` needs), :meth:`all` the rest, so the turn sequence's
    check and the player's listing of one position share one computation (issue 22)."""

    __slots__ = ("items", "_rest", "busy")

    def __init__(self, commands: Iterator[Command]):
        self.items: list[Command] = []
        self._rest: Iterator[Command] | None = commands
        self.busy = False

    def _pull(self, upto: int | None) -> None:
        """Extend :attr:`items` to ``upto`` commands (``None``: all)."""
        if self._rest is None:
            return
        self.busy = True
        try:
            while upto is None or len(self.items) < upto:
                nxt = next(self._rest, None)
                if nxt is None:
                    self._rest = None
                    break
                self.items.append(nxt)
        finally:
            self.busy = False

    def any(self) -> bool:
        """True when the listing holds at least one command."""
        self._pull(1)
        return bool(self.items)

    def all(self) -> list[Command]:
        """Every command of the listing, in order (a new list)."""
        self._pull(None)
        return list(self.items)


STANDARD_TURNS = TurnSequence(STANDARD)
"""The standard game's turn sequence."""


def _engine(state: GameState) -> TurnSequence:
    eng = state.engine
    return eng if isinstance(eng, TurnSequence) else STANDARD_TURNS


def apply_command(state: GameState, cmd: Command) -> list[GameEvent]:
    """:meth:`TurnSequence.apply_command` of the state's turn sequence.

    Raises:
        IllegalCommand: with the reason; the state is unchanged.
    """
    return _engine(state).apply_command(state, cmd)


def check_command(state: GameState, cmd: Command) -> str | None:
    """:meth:`TurnSequence.check_command` of the state's turn sequence."""
    return _engine(state).check_command(state, cmd)


def legal_commands(state: GameState, side: str | None = None) -> list[Command]:
    """:meth:`TurnSequence.legal_commands` of the state's turn sequence."""
    return _engine(state).legal_commands(state, side)


def can_act(state: GameState, side: str) -> bool:
    """True when ``side`` has a legal command other than ``EndPhase`` now."""
    return _engine(state).can_act(state, side)


def legal_of(state: GameState, side: str, cls: type[Command]) -> list[Command]:
    """The legal commands of class ``cls`` for ``side`` now, in the order
    :func:`legal_commands` lists them (one action per command class and phase; a merged
    listing keeps each action's own order). Issue 35: a computer player that needs only its
    Recrew and Command-card options does not list 25,000 commitments of a 500x500 map.
    ``EndPhase`` is not listed (check it with :func:`check_command`)."""
    if state.result is not None or side != state.to_act:
        return []
    act = _engine(state).registry.action(state.phase, cls)
    if act is None or act.options is None or cls is EndPhase:
        return []
    return list(act.options(state, side))


def begin_play(state: GameState, sink: Recorder | None = None) -> None:
    """Finish :func:`hexwar.game.setup.new_game`: run automatic steps to the first decision.

    Args:
        state: the new game (its recorder open with the setup's events).
        sink: ignored (round 1 passed the collector; it is the state's recorder now).
    """
    _engine(state).begin_play(state)


def commit_problem(state: GameState, cmd: Commit) -> str | None:
    """Why a :class:`~hexwar.game.commands.Commit` is illegal now (R5.2), or ``None``
    (:func:`hexwar.game.actions.commit.check`)."""
    return commit_action.check(state, cmd)


def command_card_problem(state: GameState, cmd: UseCommandCard) -> str | None:
    """Why a Command card may not be played now (R4.3), or ``None``
    (:func:`hexwar.game.actions.command_card.check`)."""
    return command_card_action.check(state, cmd)


# -- the automatic steps ---------------------------------------------------------------------
def _advance(state: GameState, sink: Recorder) -> None:
    """Run automatic steps until a side must decide (or the game is over)."""
    for _ in range(10_000):
        if state.result is not None:
            state.phase = Phase.OVER
            state.to_act = None
            return
        if state.phase == Phase.RESOLUTION:
            targeting.void_attacks(state, sink)
            pending = {
                s: [a for a in state.attacks.values() if not a.resolved and a.side == s] for s in SIDES
            }
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
            if state.phase == Phase.DRAW and not within_limits(state, state.to_act):  # pragma: no cover
                return
            state.done.add(state.to_act)
            continue
        return
    raise RuntimeError("the turn sequence did not reach a decision")  # pragma: no cover


def bump_epoch(state: GameState) -> None:
    """Invalidate derived data cached for the current position (reach, occupancy)."""
    state.cache["epoch"] = state.cache.get("epoch", 0) + 1


def _start_phase(state: GameState, phase: str, sink: Recorder) -> None:
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
    sink.emit(
        "phase", f"Turn {state.turn}: {phase} phase ({state.to_act} first)", turn=state.turn, phase=phase
    )


def _complete_phase(state: GameState, sink: Recorder) -> None:
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


def _finish_setup(state: GameState, sink: Recorder) -> None:
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
                    state.dice.shuffle(
                        f"{side} drew Event {ruleset.card_name(c)} at setup: reshuffle", state.command_deck
                    )
                    continue
                state.hand_commands[side].append(c)
                break
        sink.emit(
            "deal",
            f"{side} is dealt {len(state.hand_commands[side])} Command cards",
            side=side,
            cards=len(state.hand_commands[side]),
        )


def _begin_turn(state: GameState, sink: Recorder) -> None:
    """Begin Turn (R5.1): a. fire spread, b. fire damage, c. initiative; then artillery targeting."""

    sink.emit("begin_turn", f"=== Turn {state.turn} ===", turn=state.turn)
    state.attacks = {}
    state.artillery_calls = []
    state.resolve_turn = None
    sink.rule_events(fire_spread_phase(state.battlemap, state.dice, state.variants))  # R5.1a
    resolution.fire_damage(state, sink)  # R5.1b
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
            if state.pending[side].get("initiative_bonus", 0):  # R1.3: a card set aside at the Draw
                mods.append(("command card bonus", 1))
            rolls[side] = state.dice.roll(f"initiative {side}", "1d10", modifiers=mods).result
        if rolls["german"] != rolls["soviet"]:
            break
        sink.emit("initiative_tie", f"initiative tie at {rolls['german']}: re-roll", roll=rolls["german"])
    winner = "german" if rolls["german"] > rolls["soviet"] else "soviet"
    state.initiative = winner
    for side in SIDES:
        state.pending[side].pop("initiative", None)
        state.pending[side].pop("initiative_bonus", None)
    sink.emit(
        "initiative",
        f"{winner} wins initiative ({rolls['german']} german vs {rolls['soviet']} soviet)",
        winner=winner,
        rolls=rolls,
    )
    _start_phase(state, Phase.ARTILLERY, sink)


def _resolve_artillery(state: GameState, sink: Recorder) -> None:
    """R5.1d / R9.3-R9.4: resolve the targeted missions, initiative winner first."""
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


def _end_turn(state: GameState, sink: Recorder) -> None:
    """End Turn (R5.6): counters, Turns of Flight, endurance recovery, envelopment, victory."""
    resolution.end_turn_units(state, sink)
    resolution.envelop_crewless(state, sink)
    resolution.end_turn_events(state, sink)
    state.attacks = {}
    state.artillery_calls = []
    sink.emit(
        "end_turn",
        f"End of turn {state.turn}: German {state.vp['german']} VP, Soviet {state.vp['soviet']} VP",
        turn=state.turn,
        vp=dict(state.vp),
    )
    for ev in victory.end_turn_victory(state):
        sink.add(ev)
