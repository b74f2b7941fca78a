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

__all__ = ["ACTION", "check", "apply", "options", "draw_command", "bonus_problem", "fire_bonus_units"]


def fire_bonus_units(state: GameState, side: str) -> list[str]:
    """``side``'s ground units that take a fire damage check at the next Begin Turn (R5.1b,
    R8.5): in a hex burning now, unless variant ``burnout`` puts that fire out first (R8.6)."""
    bm = state.battlemap
    out = []
    for uid, u in sorted(state.units.items()):
        if u.side != side or u.hex is None or u.aloft or u.crewing is not None or not bm.in_bounds(u.hex):
            continue
        i = bm.index(u.hex)
        if bm.fire[i] and not ("burnout" in state.variants and bm.fire_turns[i] >= 3):
            out.append(uid)
    return out


def bonus_problem(state: GameState, cmd: Draw) -> str | None:
    """Why the R1.3 bonuses set aside with a draw are not allowed, or ``None``: the cards are
    distinct Command cards in hand, one per roll; the fire units will take a check."""
    side = cmd.side
    cards = ([cmd.initiative_card] if cmd.initiative_card is not None else []) + list(cmd.fire_cards)
    if len(cmd.fire_units) != len(cmd.fire_cards):
        return "give one Command card for each unit whose fire damage check you lower (R1.3)"
    if len(set(cards)) != len(cards):
        return "each Command card buys one bonus (R1.3)"
    for c in cards:
        if c not in state.hand_commands[side]:
            return f"Command card {c} is not in your hand (R1.3 bonus)"
    if cmd.initiative_card is not None and state.pending[side].get("initiative_bonus"):
        return "you already have a Command card on the next initiative roll (R1.3: one per roll)"
    if len(set(cmd.fire_units)) != len(cmd.fire_units):
        return "one Command card per fire damage check (R1.3)"
    if cmd.fire_units:
        ok = set(fire_bonus_units(state, side))
        for uid in cmd.fire_units:
            if uid not in ok:
                return f"{uid} is not a unit of yours that takes a fire damage check next turn (R8.5)"
    return None


def check(state: GameState, cmd: Draw) -> str | None:
    """Once per turn, with exactly as many sources as extra cards are due (R5.5); the R1.3
    bonuses for the next Begin Turn (:func:`bonus_problem`)."""
    if cmd.side in state.drawn:
        return "you have drawn already this turn"
    bad = bonus_problem(state, cmd)
    if bad is not None:
        return bad
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
            rec.emit(
                "event_card",
                f"{side} draws the Event {ruleset.card_name(c)}: it applies to both sides "
                f"({ruleset.command_card(c).help_text()})",
                card=c,
                side=side,
            )
            event_drawn(state, c, rec)
            continue
        state.hand_commands[side].append(c)
        return c
    return None


def apply(state: GameState, cmd: Draw, rec: Recorder) -> None:
    """Draw the Command card and the extra cards from their sources."""
    side = cmd.side
    for card, what, key in (
        [(cmd.initiative_card, "its initiative roll next turn (+1)", "initiative_bonus")]
        if cmd.initiative_card is not None
        else []
    ) + [
        (c, f"the fire damage check of {ruleset.card_name(u)} ({u}) next turn (-1)", f"fire_damage:{u}")
        for u, c in zip(cmd.fire_units, cmd.fire_cards, strict=True)
    ]:
        state.hand_commands[side].remove(card)
        state.command_discard.append(card)
        state.pending[side][key] = 1
        rec.emit(
            "roll_bonus",
            f"{side} discards {ruleset.card_name(card)} for {what} (R1.3)",
            side=side,
            card=card,
            roll=key,
        )
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
    rec.emit(
        "draw",
        f"{side} draws {len(got)} cards ({', '.join(got) or 'none left'}): hand "
        f"{len(state.hand_commands[side])} Command, {len(state.hand_units[side])} unit",
        side=side,
        sources=list(cmd.extra),
        drawn=got,
    )


def options(state: GameState, side: str) -> Iterator[Draw]:
    """Each distinct split of the extra cards between the sources that still have cards; then
    the first split with the first Command card in hand set aside for the next initiative
    roll, and for each fire damage check the side's units will take (R1.3)."""
    if side in state.drawn or not draw_possible(state, side):
        return
    n = extra_draws(state, side)
    srcs = [
        s for s in DRAW_SOURCES if (state.command_deck if s == "command" else state.reserves[side])
    ] or list(DRAW_SOURCES)
    seen = set()
    for k in range(n + 1):  # k cards from the first source, the rest from the second
        combo = tuple([srcs[0]] * k + [srcs[-1]] * (n - k))
        key = tuple(sorted(combo))
        if key not in seen:
            seen.add(key)
            yield Draw(side, combo)
    hand = state.hand_commands[side]
    if not hand or not seen:
        return
    first = tuple([srcs[-1]] * n)  # the first split listed above
    if not state.pending[side].get("initiative_bonus"):
        yield Draw(side, first, initiative_card=hand[0])
    for uid in fire_bonus_units(state, side):
        yield Draw(side, first, fire_units=(uid,), fire_cards=(hand[0],))


ACTION = Action(Draw, check, apply, options)
