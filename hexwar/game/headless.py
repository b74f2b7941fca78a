"""Play a whole game without a window: players choose commands, the engine applies them.

:func:`play` is the loop the CLI (``hexwar play --headless``), the tests and the benchmarks use::

    state = scenario.new_game(seed=7)
    while not state.over:
        side = state.to_act
        cmd = players[side].choose(state)      # an AI, or a person at the terminal
        events = state.apply(cmd)               # the only way the game changes

The window (``hexwar.ui``) runs the same loop, taking a person's commands from the mouse.

:func:`format_event` renders events as the readable turn-by-turn log (rolls indented).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import HexwarError
from .commands import SIDES, Command
from .events import GameEvent
from .save import Autosaver, write_save
from .scenario import Scenario
from .state import GameResult, GameState
from .victory import objective_points

__all__ = ["Player", "HeadlessRun", "play", "format_event", "readable", "result_of", "MAX_COMMANDS_PER_TURN"]

MAX_COMMANDS_PER_TURN = 5000  # a safety net against a player that never ends a phase


class Player(Protocol):
    """Anything that picks a command for its side: the AIs of :mod:`hexwar.game.ai`, a person.

    A player may also have ``undoes = False``, saying it never issues ``Undo`` (R12.3): while
    every player of a :func:`play` run says so, the game takes no undo points (the computer
    players; without the attribute a player is taken to want them, as a person does).
    """

    name: str

    def choose(self, state: GameState) -> Command:
        """Return one command for ``state.to_act`` (normally one of ``state.legal_commands()``)."""
        ...  # pragma: no cover


@dataclass
class HeadlessRun:
    """The outcome of :func:`play`.

    Attributes:
        state: the final game state.
        result: the game's result, or a ``"stopped"`` result when the turn cap ended the run.
        commands: commands applied.
        decisions: per side, the number of decisions and the total seconds its player took.
    """

    state: GameState
    result: GameResult
    commands: int
    decisions: dict[str, list[float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready summary: the result (winner, reason, turn, score and objective points, once),
        commands, state hash, decision times per side."""
        st = self.state
        return {
            "scenario": st.scenario.id,
            "seed": st.seed,
            "variants": list(st.variants),
            "result": self.result.to_json(),
            "commands": self.commands,
            "state_hash": st.state_hash(),
            "decision_seconds": {
                s: {"count": len(v), "mean": (sum(v) / len(v)) if v else 0.0, "max": max(v, default=0.0)}
                for s, v in self.decisions.items()
            },
        }


def result_of(state: GameState) -> GameResult:
    """The game's result, or a ``"stopped"`` result (no winner) for an unfinished game, with the
    objective points each side holds at that moment (R10.2)."""
    if state.result is not None:
        return state.result
    held = objective_points(state) if state.scenario.objectives else {}
    return GameResult(None, "stopped", state.turn, dict(state.vp), held)


# Rolls made while the engine applies a result, shown just before the event they decide
# (roll purpose prefix -> that event's kind) instead of ahead of the attack that caused them.
_ROLL_BEFORE = {"wreck counter": "wreck_placed"}


def readable(events: list[GameEvent]) -> list[GameEvent]:
    """The events worth showing in the readable log: every event except dice rolls already
    shown inside a later event of the same batch (a to-hit roll inside its ``to_hit`` event,
    an Intensity roll inside its ``damage`` event). A roll that decides a later event (the
    wreck counter of a destroyed vehicle) is moved to just before it. The JSON log keeps them
    all, in the order they happened."""
    out: list[GameEvent] = []
    held: dict[int, list[GameEvent]] = {}
    for i, e in enumerate(events):
        for r in held.pop(i, ()):
            out.append(r)
        if e.kind == "roll":
            purpose = str(e.data.get("purpose", ""))
            later = events[i + 1 :]
            if any(purpose and purpose in x.text for x in later if x.kind != "roll"):
                continue
            if any(x.data.get("roll") == e.data for x in later if x.kind != "roll"):
                continue
            kind = next((k for p, k in _ROLL_BEFORE.items() if purpose.startswith(p)), None)
            j = next((i + 1 + n for n, x in enumerate(later) if x.kind == kind), None) if kind else None
            if j is not None:
                held.setdefault(j, []).append(e)
                continue
        out.append(e)
    return out


def format_event(e: GameEvent) -> str:
    """One line of the readable log: rolls and minor steps indented under their action."""
    if e.kind == "begin_turn":
        return f"\n{e.text}"
    if e.kind == "phase":
        return f"-- {e.text}"
    if e.kind == "roll":
        return f"      roll: {e.text}"
    return f"   {e.text}"


def play(
    scenario: Scenario,
    players: Mapping[str, Player],
    seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    max_turns: int | None = None,
    save_path: str | os.PathLike[str] | None = None,
    on_events: Callable[[GameState, list[GameEvent]], None] | None = None,
    state: GameState | None = None,
) -> HeadlessRun:
    """Play ``scenario`` to its end (or to the end of turn ``max_turns``).

    Args:
        scenario: the scenario.
        players: a :class:`Player` for each side.
        seed: the game's seed (default the scenario's).
        variants: rule variants (default the scenario's).
        max_turns: stop once this many turns are complete (the game itself is unchanged:
            a save of it replays to the same unfinished state).
        save_path: autosave here after every End Turn and at the end (atomic writes).
        on_events: called after every command with the state and its events (logging).
        state: continue this game instead of starting a new one.

    Returns:
        a :class:`HeadlessRun`.

    Raises:
        HexwarError: when a player keeps issuing commands without the game moving on.
    """
    seats = tuple(getattr(scenario, "seats", SIDES))  # R11.1: a lines game has 2 or 4 seats
    missing = [s for s in seats if s not in players]
    if missing:
        raise HexwarError(f"no player for {', '.join(missing)}")
    st = state if state is not None else scenario.new_game(seed=seed, variants=variants)
    if not hasattr(st, "undoable"):  # a game on lines takes no undo points at all
        return _play(st, players, seats, max_turns, save_path, on_events)
    keep_undo = st.undoable
    st.undoable = any(getattr(players[s], "undoes", True) for s in seats)  # issue 22, R12.3
    try:
        return _play(st, players, seats, max_turns, save_path, on_events)
    finally:
        st.undoable = keep_undo


def _play(
    st: Any,
    players: Mapping[str, Player],
    seats: tuple[str, ...],
    max_turns: int | None,
    save_path: str | os.PathLike[str] | None,
    on_events: Callable[[GameState, list[GameEvent]], None] | None,
) -> HeadlessRun:
    """:func:`play`'s loop on the game ``st``."""
    import time

    names = {s: players[s].name for s in seats}
    saver = Autosaver(save_path, names) if save_path else None
    if on_events is not None and st.log and not st.commands:
        on_events(st, list(st.log))
    decisions: dict[str, list[float]] = {s: [] for s in seats}
    n = 0
    per_turn = 0
    turn = st.turn
    while not st.over:
        if max_turns is not None and st.turn > max_turns:
            break
        side = st.to_act
        assert side is not None
        t0 = time.perf_counter()
        try:
            cmd = players[side].choose(st)
        except BaseException:  # q, Ctrl+C, end of input, a player's error: the turn so far is kept
            if saver is not None:  # choose() changes nothing, so the save replays to this state
                try:
                    write_save(st, saver.path, names)
                finally:
                    saver.close()
            raise
        fallback = getattr(players[side], "fallback", None)
        if fallback is not None and st.check(cmd) is not None:  # a view player hit something unseen (R12.2)
            cmd = fallback()
        decisions[side].append(time.perf_counter() - t0)
        events = st.apply(cmd)
        n += 1
        if on_events is not None:
            on_events(st, events)
        if saver is not None:
            saver.after(st, events)
        if st.turn != turn:
            turn, per_turn = st.turn, 0
        per_turn += 1
        if per_turn > MAX_COMMANDS_PER_TURN:
            raise HexwarError(
                f"turn {st.turn}: over {MAX_COMMANDS_PER_TURN} commands without reaching End Turn; "
                f"the players never end the {st.phase} phase"
            )
    if saver is not None:
        try:
            write_save(st, saver.path, names)
        finally:
            saver.close()
    return HeadlessRun(st, result_of(st), n, decisions)
