"""The dice log of a game (R1.2), in a module of its own so that a game of another mode (the
lines game, R11) takes it without importing the hex game's set-up and turn machinery (issue 35:
a game's start under 0.3 s of CPU). :mod:`hexwar.game.setup` re-exports it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rules.dice import Roll

if TYPE_CHECKING:  # pragma: no cover
    from .events import Recorder

__all__ = ["RollLog"]


class RollLog(list[Roll]):
    """The dice log of a game: a list of rolls that also reports each roll as it is made.

    Args:
        recorder: the game's :class:`~hexwar.game.events.Recorder`, given once when the game is
            built; it records each roll as an event while a command is applied, so the game
            log shows every roll (R1.2) in the order it was rolled.
    """

    def __init__(self, recorder: Recorder[Any] | None = None):
        super().__init__()
        self.recorder = recorder

    def append(self, roll: Roll) -> None:
        """Record ``roll`` and report it to the game's recorder."""
        super().append(roll)
        if self.recorder is not None:
            self.recorder.roll(roll)
