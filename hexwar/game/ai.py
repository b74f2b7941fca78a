"""Computer players: ``random`` (for fuzzing) and ``standard`` (a sensible opponent).

Both issue the same commands a person would (:mod:`hexwar.game.commands`), chosen from
:meth:`GameState.legal_commands <hexwar.game.state.GameState.legal_commands>` or built and then
checked the same way, so they can never cheat. Each has its own ``numpy`` Generator (seeded
from the game's seed and the side through ``SeedSequence``), separate from the game's dice: an
AI's choices are recorded as commands, so a replay never needs its randomness.

* :class:`RandomPlayer` picks uniformly among the legal commands.
* :class:`StandardPlayer` (see its docstring) commits by need, moves toward objectives and
  cover using LOS and reachable hexes, avoids burning hexes, picks targets by the combat
  engine's exact odds (:mod:`hexwar.rules.odds`), calls artillery on clusters and manages its
  hand. Every decision is bounded in work so it stays under a second on the shipped maps
  (``benchmarks/bench_ai.py``).

:func:`make_player` builds a player by name (``"random"``, ``"standard"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import HexwarError
from .commands import SIDES, Command

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["PLAYER_NAMES", "RandomPlayer", "StandardPlayer", "make_player", "ai_seed"]

PLAYER_NAMES = ("random", "standard")


def ai_seed(seed: int, side: str, name: str) -> np.random.Generator:
    """A Generator for one AI player, derived from the game's seed and the side (R1.2 style)."""
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, SIDES.index(side), PLAYER_NAMES.index(name)])
    return np.random.default_rng(ss)


class RandomPlayer:
    """Chooses uniformly among the legal commands (a fuzzer for the engine).

    Args:
        side: the side it plays.
        seed: seeds its own Generator (see :func:`ai_seed`).
    """

    name = "random"

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = ai_seed(seed, side, self.name)

    def choose(self, state: GameState) -> Command:
        """One legal command, uniformly at random.

        Raises:
            HexwarError: when it is not this side's turn or nothing is legal.
        """
        cmds = state.legal_commands(self.side)
        if not cmds:
            raise HexwarError(f"{self.side}: no legal command (to act: {state.to_act}, phase {state.phase})")
        return cmds[int(self.rng.integers(len(cmds)))]


def make_player(name: str, side: str, seed: int = 0) -> RandomPlayer | StandardPlayer:
    """A computer player by name: ``"random"`` or ``"standard"``.

    Raises:
        HexwarError: for another name.
    """
    if name == "random":
        return RandomPlayer(side, seed)
    if name == "standard":
        return StandardPlayer(side, seed)
    raise HexwarError(f"unknown computer player {name!r}; expected one of {PLAYER_NAMES}")


from .ai_standard import StandardPlayer  # noqa: E402  (the standard player lives in its own module)
