"""Injectable clocks for the play screen: animation and the computer's pace (issue 7).

The window never reads the time itself: it asks a clock. The real game uses
:class:`RealClock` (``time.monotonic``); tests use :class:`ManualClock` and move time on by
hand, so the computer's step-by-step moves and the counter animations run instantly and
deterministically. Nothing here touches the game's dice (R1.2): the clock only decides *when*
the next command is shown, never *what* it is.

>>> c = ManualClock()
>>> c.now()
0.0
>>> c.advance(1.5)
1.5
>>> Pace().delay_after("move", steps=3)
0.9
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Clock", "RealClock", "ManualClock", "Pace"]


class Clock(Protocol):
    """Anything with ``now() -> float``: monotonic seconds."""

    def now(self) -> float:
        """Monotonic time in seconds."""
        ...  # pragma: no cover


class RealClock:
    """The wall clock (``time.monotonic``) for the real window."""

    def now(self) -> float:
        """Monotonic seconds."""
        return time.monotonic()


class ManualClock:
    """A clock that moves only when told to (tests, screenshots).

    Args:
        start: the initial time in seconds.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.t = float(start)

    def now(self) -> float:
        """The current time in seconds."""
        return self.t

    def advance(self, seconds: float) -> float:
        """Move time on by ``seconds`` (>= 0) and return the new time.

        Raises:
            ValueError: for a negative step.
        """
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self.t += float(seconds)
        return self.t


@dataclass(frozen=True)
class Pace:
    """How long the screen lingers after each kind of computer action (seconds).

    Attributes:
        hex_step: seconds per hex of a moving counter's animation.
        action: after a commitment, declaration, card or artillery call.
        combat: after an attack is resolved (the rolls need reading).
        quick: after an automatic-looking step (ending a phase, drawing, discarding).
    """

    hex_step: float = 0.3
    action: float = 0.7
    combat: float = 1.4
    quick: float = 0.3

    def delay_after(self, command_name: str, steps: int = 0) -> float:
        """Seconds to wait after a command named ``command_name`` (``Command.name``).

        Args:
            command_name: e.g. ``"move"``, ``"resolve"``, ``"end_phase"``.
            steps: hexes moved (for ``"move"``).
        """
        if command_name == "move":
            return round(self.hex_step * max(1, steps), 6)
        if command_name in ("resolve",):
            return self.combat
        if command_name in ("end_phase", "draw", "discard", "choose_hand"):
            return self.quick
        return self.action
