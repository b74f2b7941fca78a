"""Victory (R10): points, Overrun, objectives held, turn limit with a points comparison.

* :func:`check_points` runs after every resolution (an attack, an artillery mission, fire
  damage): a side at or above the scenario's victory points (51 by default) wins at once
  (R10.1).
* :func:`end_turn_victory` runs at End Turn (R5.6): Overrun counts (R10.1), the scenario's
  objective-holding condition and its turn limit (R10.2).
* :func:`enter_hex` keeps objective holders up to date: the last ground unit to enter an
  objective hex holds it for its side (R10.2).

Points comparison at the turn limit (docs/rules.md): victory points plus the points of the
objectives each side holds; the higher total wins, equal totals draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import limits, ruleset
from .commands import SIDES
from .event_kinds import ObjectiveEvent, ObjectivesEvent, OverrunEvent, VictoryEvent
from .events import Event
from .limits import HARD_TURN_CAP
from .state import GameResult, Phase, other_side

if TYPE_CHECKING:  # pragma: no cover
    from ..model.hexgrid import Hex
    from .state import GameState

__all__ = [
    "OVERRUN_TURNS",
    "check_points",
    "end_turn_victory",
    "enter_hex",
    "objective_points",
    "finish",
    "overrunning",
    "HARD_TURN_CAP",
    "command_cap",
    "conditions",
    "hold_sentence",
    "objective_note",
]

OVERRUN_TURNS = 3  # R10.1: three consecutive End Turns

#: How a side is named in a sentence about winning.
_PEOPLE = {"german": "the Germans", "soviet": "the Soviets"}


def hold_sentence(state: GameState) -> str | None:
    """The scenario's hold victory in words (R10.2): ``"the Soviets win outright holding all 3
    objectives at the end of turn 8 (R10.2)"``; ``None`` when it has none."""
    hold = state.scenario.hold
    if hold is None:
        return None
    n = len(state.scenario.objectives)
    what = "the objective" if n == 1 else f"all {n} objectives"
    who = _PEOPLE.get(hold.side, hold.side)
    return f"{who} win outright holding {what} at the end of turn {hold.turn} (R10.2)"


def conditions(state: GameState) -> list[str]:
    """What wins this game, in sentences for a person (shown before play starts): the victory
    points and Overrun (R10.1), the hold victory if the scenario has one (R10.2), the points
    comparison at the turn limit, and every objective with its points and holder (R10.2).

    Args:
        state: the game (its scenario and the objectives' holders now).

    Returns:
        one sentence a line, e.g. ``["Win at once with 150 victory points, or by an Overrun
        (every enemy ground unit gone for 3 End Turns) (R10.1).", "Hold victory: the Soviets win
        outright holding all 3 objectives at the end of turn 8 (R10.2).", ...]``.
    """
    sc = state.scenario
    over = (
        f", or by an Overrun (every enemy ground unit gone for {OVERRUN_TURNS} End Turns)"
        if sc.overrun
        else ""
    )
    out = [f"Win at once with {sc.victory_points} victory points{over} (R10.1)."]
    hold = hold_sentence(state)
    if hold is not None:
        out.append(f"Hold victory: {hold}.")
    if sc.turns:
        plus = " plus the points of the objectives each side holds" if sc.objectives else ""
        out.append(
            f"After turn {sc.turns}: victory points{plus}; the higher total wins, equal totals draw (R10.2)."
        )
    if sc.objectives:
        objs = "; ".join(
            f"{state.hex_label(o.hex)}{' ' + o.name if o.name else ''} ({o.points} points, held by "
            f"{state.objective_holders.get(o.hex, o.holder) or 'nobody'})"
            for o in sc.objectives
        )
        out.append(f"Objectives (the last ground unit to enter holds one): {objs}.")
    return out


def objective_note(state: GameState, h: Hex) -> str | None:
    """The objective in ``h`` for a hover text or ``inspect``: ``"Objective Samodurovka: 5
    points, held by soviet; the Soviets win outright holding all 3 objectives at the end of
    turn 8 (R10.2)"``; ``None`` when ``h`` is no objective."""
    obj = next((o for o in state.scenario.objectives if o.hex == h), None)
    if obj is None:
        return None
    holder = state.objective_holders.get(h, obj.holder)
    name = f" {obj.name}" if obj.name else ""
    held = f"held by {holder}" if holder else "held by nobody"
    hold = hold_sentence(state)
    tail = f"; {hold}" if hold is not None else " (R10.2)"
    return f"Objective{name}: {obj.points} points, {held}{tail}"


def finish(
    state: GameState, winner: str | None, reason: str, objective_points: dict[str, int] | None = None
) -> Event:
    """End the game (R10): set :attr:`GameState.result`, phase ``OVER``; return the event."""
    state.result = GameResult(winner, reason, state.turn, dict(state.vp), dict(objective_points or {}))
    state.phase = Phase.OVER
    state.to_act = None
    return VictoryEvent(f"Game over: {state.result}", state.result.to_json())


def check_points(state: GameState) -> Event | None:
    """R10.1: a side with at least the scenario's victory points wins at once.

    Returns:
        the victory event, or ``None`` when nobody has enough (or the game is already over).
    """
    if state.result is not None:
        return None
    target = state.scenario.victory_points
    reached = [s for s in SIDES if state.vp[s] >= target]
    if not reached:
        return None
    if len(reached) == 2:  # only possible when one resolution scores for both sides
        best = max(SIDES, key=lambda s: state.vp[s])
        winner = best if state.vp[best] != state.vp[other_side(best)] else None
        return finish(state, winner, "points")
    return finish(state, reached[0], "points")


def enter_hex(state: GameState, side: str, h: Hex) -> Event | None:
    """A ground unit of ``side`` entered ``h``: it takes the objective there, if any (R10.2)."""
    if h in state.objective_holders and state.objective_holders[h] != side:
        state.objective_holders[h] = side
        obj = next(o for o in state.scenario.objectives if o.hex == h)
        name = f" ({obj.name})" if obj.name else ""
        return ObjectiveEvent(
            f"{side} takes objective {state.hex_label(h)}{name}", {"hex": state.hex_label(h), "side": side}
        )
    return None


def objective_points(state: GameState) -> dict[str, int]:
    """Objective points each side holds now (R10.2)."""
    out = {s: 0 for s in SIDES}
    for o in state.scenario.objectives:
        holder = state.objective_holders.get(o.hex)
        if holder in out:
            out[holder] += o.points
    return out


def overrunning(state: GameState, side: str) -> bool:
    """R10.1: every enemy ground unit is gone from the map and ``side`` has one there.

    Ground units are units on a hex that are not crews riding another unit; crewless
    captured pieces count for whoever controls them.
    """
    mine = theirs = False
    for u in state.units.values():
        if u.aloft or u.hex is None or u.crewing is not None or not ruleset.is_ground(u.card):
            continue
        if u.side == side:
            mine = True
        else:
            theirs = True
    return mine and not theirs


def end_turn_victory(state: GameState) -> list[Event]:
    """Victory checks of End Turn (R5.6, R10): Overrun counts, objectives, turn limit.

    Updates :attr:`GameState.overrun` and may end the game.
    """
    out: list[Event] = []
    if state.scenario.overrun:
        for s in SIDES:
            if overrunning(state, s):
                state.overrun[s] += 1
                out.append(
                    OverrunEvent(
                        f"{s} overruns the enemy: {state.overrun[s]} of {OVERRUN_TURNS} turns",
                        {"side": s, "count": state.overrun[s]},
                    )
                )
            else:
                state.overrun[s] = 0
        winners = [s for s in SIDES if state.overrun[s] >= OVERRUN_TURNS]
        if winners:
            out.append(finish(state, winners[0], "overrun"))
            return out
    hold = state.scenario.hold
    if hold is not None and state.turn == hold.turn:
        if all(state.objective_holders.get(o.hex) == hold.side for o in state.scenario.objectives):
            out.append(finish(state, hold.side, "objectives", objective_points(state)))
            return out
        out.append(
            ObjectivesEvent(
                f"{hold.side} does not hold every objective at the end of turn {hold.turn}",
                {"side": hold.side},
            )
        )
    if state.scenario.turns and state.turn >= state.scenario.turns:
        op = objective_points(state)
        tot = {s: state.vp[s] + op[s] for s in SIDES}
        g, s_ = tot["german"], tot["soviet"]
        winner = "german" if g > s_ else "soviet" if s_ > g else None
        out.append(finish(state, winner, "turn limit", op))
        return out
    if state.turn >= HARD_TURN_CAP:
        op = objective_points(state)
        ev = finish(state, None, "turn cap", op)
        out.append(
            VictoryEvent(
                f"Turn {state.turn} is the hard turn cap ({HARD_TURN_CAP} turns, R12.4): the game "
                f"ends as a draw. {ev.text}",
                ev.data,
            )
        )
    return out


def command_cap(state: GameState) -> Event | None:
    """R12.4: a game whose command log reaches :data:`hexwar.game.limits.MAX_GAME_COMMANDS`
    ends as a draw (reason ``"command cap"``), so no save grows past what the loader accepts.

    Returns:
        the victory event, or ``None`` while the log is shorter (or the game is over).
    """
    cap = limits.MAX_GAME_COMMANDS
    if state.result is not None or len(state.commands) < cap:
        return None
    ev = finish(state, None, "command cap", objective_points(state))
    return VictoryEvent(f"{cap:,} commands played: the game ends as a draw (R12.4). {ev.text}", ev.data)
