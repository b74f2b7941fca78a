"""Counter animations of the play screen (display only: the game has already moved)."""

from __future__ import annotations

from dataclasses import dataclass

from ..model.hexgrid import Hex

__all__ = ["MoveAnim"]


@dataclass
class MoveAnim:
    """A counter sliding along its path, one hex per ``step`` seconds (display only).

    Attributes:
        uid: the moving unit.
        path: the hexes it enters, in order (the start first).
        start: clock time the animation began.
        step: seconds per hex.
    """

    uid: str
    path: tuple[Hex, ...]
    start: float
    step: float

    def hex_at(self, t: float) -> Hex | None:
        """The hex shown at time ``t``; ``None`` once the animation is over."""
        k = int((t - self.start) / self.step) if self.step > 0 else len(self.path)
        if k >= len(self.path) - 1:
            return None
        return self.path[max(0, k)]
