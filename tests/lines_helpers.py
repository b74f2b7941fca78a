"""Helpers for the lines-game tests: small in-memory scenarios, scripted dice, acting in turn."""

from __future__ import annotations

import numpy as np

from hexwar.lines.commands import EndPhase, LinesCommand
from hexwar.lines.scenario import LinesScenario, LinesSide, StartingUnit
from hexwar.lines.state import LinesState


def game(
    german: tuple[str, ...] = (),
    soviet: tuple[str, ...] = (),
    *,
    g_units: tuple[StartingUnit, ...] = (),
    s_units: tuple[StartingUnit, ...] = (),
    players: int = 2,
    seed: int = 3,
    variants: tuple[str, ...] = (),
    vp: int | None = None,
    decks: dict[str, tuple[str, ...]] | None = None,
) -> LinesState:
    """A game whose Reserves decks are ``german`` / ``soviet`` (all in hand at the start) with
    the given starting units; turn 1, Commitment, initiative rolled."""
    sides = {
        "german": LinesSide(reserves=german, hand=german, units=g_units),
        "soviet": LinesSide(reserves=soviet, hand=soviet, units=s_units),
    }
    sc = LinesScenario(
        "test",
        "test game",
        sides,
        seed=seed,
        players=players,
        victory_points=vp or (51 if players == 2 else 76),
        variants=variants,
    )
    sc = sc.with_decks(decks if decks is not None else {"german": german, "soviet": soviet})
    return sc.new_game()


def act(state: LinesState, cmd: LinesCommand) -> list:
    """End the phase for the seats before ``cmd.seat`` (same phase), then apply ``cmd``."""
    phase = state.phase
    while state.to_act != cmd.seat:
        assert state.phase == phase, f"{cmd.seat} never got to act in {phase}"
        state.apply(EndPhase(state.to_act))
    return state.apply(cmd)


def end_until(state: LinesState, phase: str, turn: int | None = None, limit: int = 200) -> None:
    """End phases (resolving nothing) until ``phase`` (of ``turn``) is reached."""
    for _ in range(limit):
        if state.phase == phase and (turn is None or state.turn == turn):
            return
        cmds = state.legal_commands()
        ends = [c for c in cmds if c.name == "end_phase"]
        draws = [c for c in cmds if c.name == "draw"]
        discards = [c for c in cmds if c.name == "discard"]
        resolves = [c for c in cmds if c.name == "resolve" and c.bonus is None]
        state.apply((ends or draws or discards or resolves)[0])
    raise AssertionError(f"{phase} never reached")


class ScriptedThenRandom:
    """A dice generator that hands out scripted faces first, then falls back to a real one."""

    def __init__(self, faces, rng: np.random.Generator):
        self.faces = list(faces)
        self.rng = rng

    def integers(self, low, high=None, size=None, dtype=None):
        n = 1 if size is None else int(np.prod(size))
        if len(self.faces) >= n:
            out = [self.faces.pop(0) for _ in range(n)]
            assert all(low <= f < high for f in out), f"scripted faces {out} outside {low}..{high - 1}"
            return out[0] if size is None else np.array(out).reshape(size)
        assert not self.faces, f"scripted faces {self.faces} do not fit a roll of {n} dice"
        return self.rng.integers(low, high, size=size)

    def permutation(self, n):
        return self.rng.permutation(n)


def script(state: LinesState, *faces: int) -> ScriptedThenRandom:
    """The next rolls of ``state`` are ``faces`` (then its own generator goes on)."""
    s = ScriptedThenRandom(faces, state.dice.rng)
    state.dice.rng = s  # type: ignore[assignment]
    return s
