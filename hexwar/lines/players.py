"""The computer players of the card game on lines by name (``--ai`` and ``--ai-level``).

:func:`make_lines_player` sits above both kinds of player: the standard one
(:mod:`hexwar.lines.ai`) and the search players built on it (:mod:`hexwar.search.lines`), so
neither module imports the other's factory (no import loop).
"""

from __future__ import annotations

from typing import Any

from ..errors import HexwarError
from ..search.lines import EasyLinesPlayer, LinesSearchPlayer
from .ai import LINES_PLAYER_NAMES, LinesAI, RandomLinesPlayer

__all__ = ["LINES_PLAYER_NAMES", "make_lines_player"]


def make_lines_player(name: str, seat: str, seed: int = 0) -> Any:
    """A computer player for a seat by name: ``"random"``, ``"standard"`` or a level of
    ``--ai-level`` (``"easy"``, ``"normal"`` = standard, ``"hard"``: the search player).

    Raises:
        HexwarError: for another name.
    """
    if name == "random":
        return RandomLinesPlayer(seat, seed)
    if name in ("standard", "normal"):
        return LinesAI(seat, seed)
    if name in ("easy", "hard"):
        return EasyLinesPlayer(seat, seed) if name == "easy" else LinesSearchPlayer(seat, seed)
    raise HexwarError(f"unknown computer player {name!r}; expected one of {LINES_PLAYER_NAMES}")
