"""The ``standard`` computer player (placeholder until the odds module is wired)."""
from __future__ import annotations

from .commands import Command, EndPhase


class StandardPlayer:
    """Temporary."""

    name = "standard"

    def __init__(self, side: str, seed: int = 0):
        self.side = side

    def choose(self, state) -> Command:  # type: ignore[no-untyped-def]
        cmds = state.legal_commands(self.side)
        return cmds[0] if not any(isinstance(c, EndPhase) for c in cmds) else next(c for c in cmds if isinstance(c, EndPhase))
