"""The phase machine of the lines game (000 Turn Sequence; 4-player: 000 Variants).

Setup (each seat takes 4 unit cards; 3 Command cards dealt) -> per turn: Begin Turn (a lost
Frontline is replaced by the Rear Line; initiative 1d10, ties re-rolled) -> Commitment ->
Combat (Declaration, then alternating Resolution) -> Draw -> End Turn (counters, Turns of
Flight, recovery through :func:`hexwar.rules.combat.end_turn`; envelopment; Overrun; limits).

In every phase the initiative winner acts first, then the other player. 4-player: the Support
Commanders roll initiative and act first in each phase, then the Frontline Commanders (who roll
their own); a turn ends when all four have done every phase. Resolution passes the choice of
attack round the seats in that order (a seat with nothing left is skipped).

This module only sequences phases and looks actions up in :data:`hexwar.lines.actions.ACTIONS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.cards import EffectKind
from .actions import LINES
from .actions.commit import carry_out
from .commands import Commit, EndPhase, IllegalLinesCommand, LinesCommand, Resolve, side_of_seat
from .events import (
    CommitmentRevealed,
    EventEnded,
    InitiativeWon,
    LineCollapsed,
    OverrunCount,
    PhaseBegan,
    TurnBegan,
    TurnEnded,
)
from .rules import (
    OVERRUN_TURNS,
    Sink,
    active_effect_total,
    apply_combat_events,
    cards,
    envelop,
    fighting,
    finish,
)
from .state import SIDES, LinesState, Phase, other_side

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = ["apply_command", "check_command", "legal_commands", "begin_play"]


def _problem(state: LinesState, cmd: LinesCommand) -> str | None:
    if state.result is not None:
        return "the game is over"
    if cmd.seat not in state.seats:
        return f"no seat {cmd.seat!r} in this game (seats: {', '.join(state.seats)})"
    if cmd.seat != state.to_act:
        return f"it is {state.to_act}'s turn to act, not {cmd.seat}'s"
    act = LINES.action(state.phase, type(cmd))
    if act is None:
        return (
            f"{cmd.name} is not allowed in the {state.phase} phase "
            f"(allowed: {', '.join(LINES.allowed(state.phase))})"
        )
    return act.check(state, cmd) or None


def check_command(state: LinesState, cmd: LinesCommand) -> str | None:
    """Why ``cmd`` would be refused now, or ``None`` (nothing changes)."""
    return _problem(state, cmd)


def apply_command(state: LinesState, cmd: LinesCommand) -> list:
    """Check and apply ``cmd``, then run the automatic steps up to the next decision.

    Raises:
        IllegalLinesCommand: with the reason; nothing changed.
    """
    p = _problem(state, cmd)
    if p:
        raise IllegalLinesCommand(cmd, p)
    act = LINES.action(state.phase, type(cmd))
    assert act is not None
    rec = state.recorder
    rec.begin()
    try:
        state.commands.append(cmd)
        act.apply(state, cmd, rec)
        ended = _advance(state, rec)
    finally:
        events = rec.take()
        state.log.extend(events)
    if ended:
        state.checkpoints.append(
            (state.turn - (0 if state.result else 1), len(state.commands), state.state_hash())
        )
    return events


def legal_commands(state: LinesState, seat: str | None = None) -> list[LinesCommand]:
    """Every legal command of ``seat`` (default :attr:`to_act`) now, in a fixed order."""
    seat = seat or state.to_act
    if seat is None or seat != state.to_act or state.result is not None:
        return []
    return list(LINES.options(state, seat))


def begin_play(state: LinesState, sink: Sink) -> None:
    """After setup: seats that must choose a hand act first; else turn 1 begins (the setup's
    events are in the open recorder ``sink``)."""
    state.phase = Phase.SETUP
    state.order = list(state.seats)
    _advance(state, sink)


# -- sequencing ----------------------------------------------------------------------------
def _next_seat(state: LinesState) -> str | None:
    for s in state.order:
        if s not in state.done:
            return s
    return None


def _advance(state: LinesState, sink: Sink) -> bool:
    """Run automatic steps until someone must decide; True when an End Turn happened."""
    ended = False
    while state.result is None:
        if state.phase == Phase.RESOLUTION:
            nxt = _next_resolver(state)
            if nxt is not None:
                state.resolve_turn = state.to_act = nxt
                return ended
            state.resolve_turn = None
            _start_phase(state, Phase.DRAW, sink)
            continue
        nxt = _next_seat(state)
        if nxt is not None:
            state.to_act = nxt
            return ended
        if state.phase == Phase.SETUP:
            _deal(state, sink)
            _begin_turn(state, sink)
        elif state.phase == Phase.COMMITMENT:
            _reveal(state, sink)
            _start_phase(state, Phase.DECLARATION, sink)
        elif state.phase == Phase.DECLARATION:
            state.resolve_turn = None
            _start_phase(state, Phase.RESOLUTION, sink)
        elif state.phase == Phase.DRAW:
            _end_turn(state, sink)
            ended = True
            if state.result is None:
                state.turn += 1
                _begin_turn(state, sink)
    state.to_act = None
    return ended


def _next_resolver(state: LinesState) -> str | None:
    """R6.2: the choice alternates, initiative winner first; skip seats with nothing left."""
    left = {a.seat for a in state.attacks.values() if not a.resolved}
    if not left:
        return None
    order = state.order
    if state.resolve_turn is None:
        start = 0
    else:
        start = (order.index(state.resolve_turn) + 1) % len(order)
    for k in range(len(order)):
        s = order[(start + k) % len(order)]
        if s in left:
            return s
    return None


def _start_phase(state: LinesState, phase: str, sink: Sink) -> None:
    state.phase = phase
    state.done = set()
    if phase == Phase.DRAW:
        state.drawn = set()
    if phase == Phase.COMMITMENT:
        state.moved = set()
    sink.add(PhaseBegan(f"{phase.capitalize()} phase: {', '.join(state.order)}", phase, tuple(state.order)))


def _deal(state: LinesState, sink: Sink) -> None:
    """000 setup: 3 Command cards each; an Event drawn now is shuffled back and another drawn."""
    n = cards().rules.hand_command
    for seat in state.seats:
        while len(state.hand_commands[seat]) < n and state.command_deck:
            c = state.command_deck.pop(0)
            if cards().is_event(c):
                state.command_deck.append(c)
                state.dice.shuffle("Event drawn at setup: reshuffle the Command deck", state.command_deck)
                continue
            state.hand_commands[seat].append(c)


def _roll_initiative(state: LinesState, seats: list[str], group: str, sink: Sink) -> list[str]:
    """1d10 each + modifiers (scenario, Events, Command cards), ties re-rolled; winner first."""
    for _ in range(100):
        rolls = {}
        for seat in seats:
            side = side_of_seat(seat)
            mods = []
            bonus = state.scenario.initiative_bonus(side)
            if bonus:
                mods.append(("scenario", bonus))
            ev = active_effect_total(state, side, EffectKind.INITIATIVE)
            if ev:
                mods.append(("events", ev))
            cm = state.pending.get(seat, {}).get("initiative", 0)
            if cm:
                mods.append(("command card", cm))
            rolls[seat] = state.dice.roll(f"initiative {seat}", "1d10", modifiers=mods).result
        if rolls[seats[0]] != rolls[seats[1]]:
            break
    for seat in seats:
        state.pending.get(seat, {}).pop("initiative", None)
    ordered = sorted(seats, key=lambda s: -rolls[s])
    sink.add(
        InitiativeWon(
            f"{ordered[0]} wins initiative ({' vs '.join(f'{s} {rolls[s]}' for s in seats)})",
            group,
            ordered[0],
            tuple((s, rolls[s]) for s in seats),
        )
    )
    return ordered


def _begin_turn(state: LinesState, sink: Sink) -> None:
    sink.add(TurnBegan(f"=== Turn {state.turn} ===", state.turn))
    state.attacks = {}
    state.resolve_turn = None
    for side in SIDES:  # 000: the Rear Line becomes the Frontline at the start of the next turn
        if side in state.collapse:
            state.collapse.discard(side)
            if not state.lines[side]["front"] and state.lines[side]["rear"]:
                moved = list(state.lines[side]["rear"])
                state.lines[side]["front"].extend(moved)
                state.lines[side]["rear"] = []
                for uid in moved:
                    state.units[uid].line = "front"
                sink.add(
                    LineCollapsed(
                        f"the {side} Frontline is lost: its Rear Line becomes the Frontline (000)",
                        side,
                        tuple(moved),
                    )
                )
    if state.two_player:
        state.order = _roll_initiative(state, list(state.seats), "players", sink)
    else:
        sup = _roll_initiative(state, [s for s in state.seats if s.endswith("support")], "support", sink)
        fr = _roll_initiative(state, [s for s in state.seats if s.endswith("front")], "front", sink)
        state.order = sup + fr
    _start_phase(state, Phase.COMMITMENT, sink)


def _reveal(state: LinesState, sink: Sink) -> None:
    """Classic (001): the set-aside units are revealed and placed together."""
    if not state.hidden:
        return
    hidden, state.hidden = state.hidden, []
    sink.add(CommitmentRevealed(f"commitments revealed: {len(hidden)} (001)", len(hidden)))
    for cmd in hidden:
        assert isinstance(cmd, Commit)
        for x in (cmd.unit, cmd.crew, cmd.infantry):
            if x is not None:
                state.hand_units[cmd.seat].append(x)
        carry_out(state, cmd, sink)


def _end_turn(state: LinesState, sink: Sink) -> None:
    """000 End Turn, then the End Turn victory checks (R10.1, scenario conditions)."""
    from ..rules import combat

    apply_combat_events(state, combat.end_turn(cards(), state.units), sink)
    for c in list(state.events_in_play):
        last = state.event_turns.get(c, -1)
        if 0 <= last <= state.turn:
            state.events_in_play.remove(c)
            del state.event_turns[c]
            state.command_discard.append(c)
            sink.add(EventEnded(f"the Event {cards().command_or_event(c).title} ends", c))
    envelop(state, sink)
    for side in SIDES:
        if not state.lines[side]["front"] and state.lines[side]["rear"]:
            state.collapse.add(side)
    sink.add(TurnEnded(f"End of turn {state.turn}", state.turn))
    if state.scenario.overrun:
        for s in SIDES:
            enemy = other_side(s)
            if not state.ground_units(enemy) and any(fighting(u) for u in state.on_line(s, "front")):
                state.overrun[s] += 1
                sink.add(
                    OverrunCount(
                        f"{s} overruns the enemy: {state.overrun[s]} of {OVERRUN_TURNS} turns",
                        s,
                        state.overrun[s],
                    )
                )
            else:
                state.overrun[s] = 0
        winners = [s for s in SIDES if state.overrun[s] >= OVERRUN_TURNS]
        if winners:
            finish(state, sink, winners[0], "overrun")
            return
    state.scenario.end_turn_victory(state, sink)


def end_phase(seat: str) -> EndPhase:
    """Convenience for tests and players."""
    return EndPhase(seat)


def resolve(seat: str, number: int, bonus: str | None = None) -> Resolve:
    """Convenience for tests and players."""
    return Resolve(seat, number, bonus)
