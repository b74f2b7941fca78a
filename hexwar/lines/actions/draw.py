"""Draw Phase (R5.5; 000): one Command card (an Event applies at once and another is drawn),
then any two more cards from the common Command deck and/or the seat's own Reserves deck,
chosen before looking. Draw effects of Events and Command cards change the two."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...game.command_codec import DRAW_SOURCES
from ...rules.cards import EffectKind
from ..commands import Draw, side_of_seat
from ..events import Drew, EventDrawn, TakenFromReserves
from ..rules import active_effect_total, cards, name
from ..state import SIDES
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def extra_draws(state: LinesState, seat: str) -> int:
    """Two, plus Draw effects (never below 0)."""
    return max(
        0,
        2
        + active_effect_total(state, side_of_seat(seat), EffectKind.DRAW)
        + state.pending.get(seat, {}).get("draw", 0),
    )


def possible(state: LinesState, seat: str) -> bool:
    """There is anything left to draw."""
    return bool(state.command_deck or state.reserves[seat])


def check(state: LinesState, cmd: Draw) -> str | None:
    """Once per turn, with the right number of sources."""
    if cmd.seat in state.drawn:
        return "you have drawn already this turn"
    n = extra_draws(state, cmd.seat)
    if len(cmd.extra) != n:
        return f"choose {n} sources for the extra cards, each 'command' or 'reserves' (R5.5)"
    for s in cmd.extra:
        if s not in DRAW_SOURCES:
            return f"unknown draw source {s!r}; expected one of {DRAW_SOURCES}"
    return None


def event_drawn(state: LinesState, seat: str, inst: str, sink: Sink) -> None:
    """An Event is in play for every player (000); instant parts apply now."""
    ev = cards().command_or_event(inst)
    state.events_in_play.append(inst)
    turns = getattr(ev, "turns", None)
    state.event_turns[inst] = state.turn + turns if turns is not None else -1
    sink.add(EventDrawn(f"{seat} draws the Event {ev.title}: {ev.help_text()}", seat, inst))
    for e in ev.effects:
        if e.kind == EffectKind.COMMIT_FROM_RESERVES:
            for side in [e.side] if e.side else list(SIDES):
                for s in state.seats_of(side):
                    for _ in range(e.value):
                        if state.reserves[s]:
                            x = state.reserves[s].pop(0)
                            state.hand_units[s].append(x)
                            sink.add(TakenFromReserves(f"{s} takes {name(x)} from the Reserves deck", s, x))


def draw_command(state: LinesState, seat: str, sink: Sink) -> str | None:
    """Draw Command cards until one is not an Event."""
    while state.command_deck:
        c = state.command_deck.pop(0)
        if cards().is_event(c):
            event_drawn(state, seat, c, sink)
            continue
        state.hand_commands[seat].append(c)
        return c
    return None


def apply(state: LinesState, cmd: Draw, sink: Sink) -> None:
    """Draw."""
    got: list[str] = []
    if draw_command(state, cmd.seat, sink):
        got.append("command")
    for src in cmd.extra:
        if src == "command":
            if draw_command(state, cmd.seat, sink):
                got.append("command")
        elif state.reserves[cmd.seat]:
            state.hand_units[cmd.seat].append(state.reserves[cmd.seat].pop(0))
            got.append("unit")
    state.drawn.add(cmd.seat)
    state.pending.get(cmd.seat, {}).pop("draw", None)
    sink.add(
        Drew(
            f"{cmd.seat} draws {len(got)} cards ({', '.join(got) or 'none left'}): hand "
            f"{len(state.hand_commands[cmd.seat])} Command, {len(state.hand_units[cmd.seat])} unit",
            cmd.seat,
            tuple(cmd.extra),
            tuple(got),
        )
    )


def options(state: LinesState, seat: str) -> Iterator[Draw]:
    """Each mix of sources (k from the Command deck, the rest from the Reserves)."""
    if seat in state.drawn or not possible(state, seat):
        return
    n = extra_draws(state, seat)
    for k in range(n, -1, -1):
        yield Draw(seat, tuple(["command"] * k + ["reserves"] * (n - k)))


ACTION = Action(Draw, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
