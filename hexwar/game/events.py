"""Game events: what happened when a command was applied (DESIGN: commands -> events).

Every change to a game is the result of a command; :meth:`GameState.apply
<hexwar.game.state.GameState.apply>` returns the list of :class:`Event` it caused, in order,
including one ``"roll"`` event for every die rolled (R1.2) at the moment it was rolled. The game
log is the concatenation of these lists; :func:`log_lines` renders it as JSON lines, byte for
byte identical for the same scenario, seed and commands.

>>> e = Event("move", "T-34/76 #1 moves D07 -> D05 (2 MP)", {"unit": "su-t34-76#1"})
>>> e.to_json()["kind"]
'move'
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Event", "log_lines"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a game.

    Attributes:
        kind: a short machine-readable name, e.g. ``"roll"``, ``"commit"``, ``"move"``,
            ``"hit"``, ``"destroyed"``, ``"phase"``, ``"initiative"``, ``"victory"``.
        text: one readable line for the turn-by-turn log (hex labels, card names).
        data: JSON-ready details (unit instance ids, hex labels, numbers). For ``"roll"``
            events it is :meth:`hexwar.rules.dice.Roll.to_json`.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict ``{"kind", "text", "data"}``."""
        return {"kind": self.kind, "text": self.text, "data": self.data}

    def __str__(self) -> str:
        return self.text


def log_lines(events: Iterable[Event]) -> str:
    """The events as JSON lines (sorted keys, one event per line, trailing newline)."""
    return "".join(json.dumps(e.to_json(), sort_keys=True, ensure_ascii=False) + "\n" for e in events)
