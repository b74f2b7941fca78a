"""``Draw`` (R5.5): one Command card, then two cards from chosen sources."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import ruleset
from ..commands import DRAW_SOURCES, Draw
from ..events import Recorder
from .command_card import event_drawn
from .common import draw_possible, extra_draws
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options", "draw_command"]


def check(state: GameState, cmd: Draw) -> str | None:
    """Once per turn, with exactly as many sources as extra cards are due (R5.5)."""
    if cmd.side in state.drawn:
        return "you have drawn already this turn"
    extra = extra_draws(state, cmd.side)
    if len(cmd.extra) != extra:
        return f"choose {extra} sources for the extra cards, each 'command' or 'reserves' (R5.5)"
    for s in cmd.extra:
        if s not in DRAW_SOURCES:
            return f"unknown draw source {s!r}; expected one of {DRAW_SOURCES}"
    return None


def draw_command(state: GameState, side: str, rec: Recorder) -> str | None:
    """Draw Command cards until one is not an Event (Events apply at once, R5.5); the card kept."""
    while state.command_deck:
        c = state.command_deck.pop(0)
        if ruleset.is_event(c):
            state.events_in_play.append(c)
            rec.emit("event_card", f"{side} draws the Event {ruleset.card_name(c)}: it applies to both sides "
                                   f"({ruleset.command_card(c).help_text()})", card=c, side=side)
            event_drawn(state, c, rec)
            continue
        state.hand_commands[side].append(c)
        return c
    return None


def apply(state: GameState, cmd: Draw, rec: Recorder) -> None:
    """Draw the Command card and the extra cards from their sources."""
    side = cmd.side
    got: list[str] = []
    if draw_command(state, side, rec):
        got.append("Command")
    for src in cmd.extra:
        if src == "command":
            if draw_command(state, side, rec):
                got.append("Command")
        elif state.reserves[side]:
            state.hand_units[side].append(state.reserves[side].pop(0))
            got.append("unit")
    state.drawn.add(side)
    state.pending[side].pop("draw", None)
    rec.emit("draw", f"{side} draws {len(got)} cards ({', '.join(got) or 'none left'}): hand "
                     f"{len(state.hand_commands[side])} Command, {len(state.hand_units[side])} unit",
             side=side, sources=list(cmd.extra), drawn=got)


def options(state: GameState, side: str) -> Iterator[Draw]:
    """Each distinct split of the extra cards between the sources that still have cards."""
    if side in state.drawn or not draw_possible(state, side):
        return
    n = extra_draws(state, side)
    srcs = [s for s in DRAW_SOURCES if (state.command_deck if s == "command" else state.reserves[side])] or list(DRAW_SOURCES)
    seen = set()
    for k in range(n + 1):  # k cards from the first source, the rest from the second
        combo = tuple([srcs[0]] * k + [srcs[-1]] * (n - k))
        key = tuple(sorted(combo))
        if key not in seen:
            seen.add(key)
            yield Draw(side, combo)


ACTION = Action(Draw, check, apply, options)
