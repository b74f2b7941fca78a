"""Hard limits that make every game end (R12.4) and keep every save loadable.

* :data:`HARD_TURN_CAP`: at the End Turn of this turn any game still going ends as a draw with
  the logged reason ``"turn cap"``; a scenario's ``turns`` may be at most this.
* :data:`MAX_GAME_COMMANDS`: a game whose command log reaches this length ends as a draw
  (``"command cap"``); the save loader accepts logs up to exactly this length, and at the
  largest command seen (under 1 KB of JSON) such a save stays under the save file limit
  (:data:`hexwar.fileio.LIMITS`).
"""

from __future__ import annotations

__all__ = ["HARD_TURN_CAP", "MAX_GAME_COMMANDS"]

HARD_TURN_CAP = 200
MAX_GAME_COMMANDS = 60_000
