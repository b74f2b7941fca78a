"""What every computer player shares: the player names, the per-player seeded Generator and
the random player (a fuzzer for the engine). :mod:`hexwar.game.ai` is the public face."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import HexwarError
from .commands import SIDES, Command

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["PLAYER_NAMES", "RandomPlayer", "ai_seed"]

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
