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

from typing import Any

from ..errors import HexwarError
from ..search.hexgame import EasyHexPlayer, HexSearchPlayer
from .ai_base import PLAYER_NAMES, RandomPlayer, ai_seed
from .ai_standard import StandardPlayer

__all__ = ["PLAYER_NAMES", "LEVEL_NAMES", "RandomPlayer", "StandardPlayer", "make_player", "ai_seed"]


LEVEL_NAMES = ("easy", "normal", "hard")
"""The ``--ai-level`` levels :func:`make_player` also takes (issue 31): ``easy``
(:class:`hexwar.search.hexgame.EasyHexPlayer`), ``normal`` (``standard``), ``hard`` (the search
player :class:`hexwar.search.hexgame.HexSearchPlayer`)."""


def make_player(name: str, side: str, seed: int = 0) -> Any:
    """A computer player by name: ``"random"``, ``"standard"`` or a level (:data:`LEVEL_NAMES`).

    Raises:
        HexwarError: for another name.
    """
    if name == "random":
        return RandomPlayer(side, seed)
    if name in ("standard", "normal"):
        return StandardPlayer(side, seed)
    if name in ("easy", "hard"):
        return EasyHexPlayer(side, seed) if name == "easy" else HexSearchPlayer(side, seed)
    raise HexwarError(f"unknown computer player {name!r}; expected one of {PLAYER_NAMES + LEVEL_NAMES}")
