"""How a game ends and what scored (R6.6, R10): :class:`Kill` and :class:`GameResult`.

Shared by every game mode (the hex game's :mod:`hexwar.game.state`, the lines game's
:mod:`hexwar.lines.state`, the network's modes): a module of its own, so a lines game imports
the outcome types without the hex game's state, rule set and line of sight (issue 35: a lines
start imports no hex machinery; ``tests/test_startup_imports.py``). ``hexwar.game.state``
re-exports both names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameResult", "Kill"]


@dataclass(frozen=True)
class Kill:
    """A scoring entry (R6.6, R10): ``scorer`` destroyed or captured card ``uid``.

    Attributes:
        scorer: the side scoring.
        uid: the card instance destroyed or captured.
        kind: ``"destroyed"`` (its cost) or ``"captured"`` (twice its cost).
        points: the victory points scored.
        turn: the turn it happened.
    """

    scorer: str
    uid: str
    kind: str
    points: int
    turn: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "scorer": self.scorer,
            "uid": self.uid,
            "kind": self.kind,
            "points": self.points,
            "turn": self.turn,
        }


@dataclass(frozen=True)
class GameResult:
    """How a game ended (R10).

    Attributes:
        winner: ``"german"``, ``"soviet"`` or ``None`` for a draw / unfinished game.
        reason: ``"points"`` (reached the victory points), ``"overrun"``, ``"objectives"``,
            ``"turn limit"`` (points comparison), ``"stopped"`` (turn cap of a headless run).
        turn: the turn it ended in.
        score: final victory points per side; ``objective_points`` added at the turn limit.
    """

    winner: str | None
    reason: str
    turn: int
    score: dict[str, int]
    objective_points: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "winner": self.winner,
            "reason": self.reason,
            "turn": self.turn,
            "score": dict(self.score),
            "objective_points": dict(self.objective_points),
        }

    def how(self) -> str:
        """How it was won, as the game-over screen's line under the winner: ``"by holding every
        objective at the end of turn 8"`` for a hold victory (R10.2), else ``"by REASON in turn
        N"`` (``"by turn limit in turn 8"``)."""
        if self.reason == "objectives":
            return f"by holding every objective at the end of turn {self.turn}"
        return f"by {self.reason} in turn {self.turn}"

    def summary(self) -> str:
        """The result for a person (the terminal's ``Result:`` line): :meth:`__str__` with a hold
        victory named as one (R10.2) and the objective points that count at the end (R10.2):
        ``"soviet wins by holding every objective at the end of turn 8 (R10.2): german 128, soviet
        118; objective points german 0, soviet 30"``. :meth:`__str__` stays as it was: it is the
        text of the game log's last event, which a save's log hash covers."""
        text = str(self)
        if self.reason == "objectives" and self.winner is not None:
            sc = ", ".join(f"{s} {v}" for s, v in self.score.items())
            text = f"{self.winner} wins {self.how()} (R10.2): {sc}"
        if any(self.objective_points.values()):
            text += "; objective points " + ", ".join(f"{s} {v}" for s, v in self.objective_points.items())
        return text

    def __str__(self) -> str:
        sc = ", ".join(f"{s} {v}" for s, v in self.score.items())
        if self.reason == "stopped":  # an unfinished game: in turn N, so N - 1 turns were played
            return f"no winner yet: stopped after turn {self.turn - 1}: {sc}"
        if self.winner is None:
            return f"draw ({self.reason}) after turn {self.turn}: {sc}"
        return f"{self.winner} wins by {self.reason} in turn {self.turn}: {sc}"
