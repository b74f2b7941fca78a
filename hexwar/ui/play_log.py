"""The play controller's log and status line (issue 34 split of :mod:`hexwar.ui.controller`):
every event recorded into the :class:`~hexwar.ui.log_view.LogView` (the person's side's view only,
R12.1, R12.2), phases that ended by themselves announced as such, and the status line's message
that goes stale once the game moves on."""

from __future__ import annotations

from typing import Any

from ..game.state import GameState
from ..game.view import seat_events
from ..model.hexgrid import Hex
from .guidance import AutoEnds
from .log_view import LogLine, LogView, StrikeView

__all__ = ["PlayLogMixin"]


class PlayLogMixin:
    """The log and status-line part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _msg_epoch: int
    auto_ends: AutoEnds
    card_cursor: int | None
    error: bool
    hover_card: str | None
    humans: tuple[str, ...]
    is_human: Any
    last_auto: list[Any]
    log_view: LogView
    message: str
    prompt: Any
    state: GameState
    version: int

    @property
    def log(self) -> list[LogLine]:
        """Every log line so far (rolls included): :attr:`LogView.log`."""
        return self.log_view.log

    @property
    def damage_cards(self) -> list[LogLine]:
        """Damage cards drawn, newest last (R6.6)."""
        return self.log_view.damage_cards

    @property
    def strike(self) -> StrikeView | None:
        """The last artillery strike (R9.3)."""
        return self.log_view.strike

    @property
    def last_attack(self) -> tuple[Hex, Hex, str] | None:
        """``(attacker hex, target hex, side)`` of the attack resolved last."""
        return self.log_view.last_attack

    def _record(self, events: Any) -> None:
        evs = list(events)
        st = self.state
        if len(self.humans) in (1, 2) and evs and st.log and evs[-1] is st.log[-1]:
            # R12.1, R12.2: one person reads their side's view; two (hot-seat) share the screen,
            # so the log is what both may read (the spectator's): no seed, no pool draws, no decks
            evs = seat_events(st, evs, self.humans[0] if len(self.humans) == 1 else None)
        # phases the turn sequence ended for a side with nothing to do, announced as such (item 5)
        # (the person's sides only: the computer's passes would drown the log), each in its place:
        # before the event that closed the phase, not after the whole batch (newuser2)
        if any(e.kind in ("phase", "begin_turn") for e in evs):  # a new phase: the hand card cursor
            self.card_cursor = None  # and the card it showed give the side panel back (newuser2)
            self.hover_card = None
        self.last_auto = []
        chunk: list[Any] = []
        for e in evs:
            autos = [a for a in self.auto_ends.feed([e]) if self.is_human(a.side)]
            if autos:
                if chunk:
                    self.log_view.record(chunk, st)
                    chunk = []
                self._log_auto_ends(autos)
                self.last_auto += autos
            chunk.append(e)
        if chunk:
            self.log_view.record(chunk, st)

    def _log_auto_ends(self, autos: list[Any]) -> None:
        runs: dict[tuple[int, str], list[str]] = {}
        for a in autos:
            runs.setdefault((a.turn, a.side), []).append(a.phase)
        for (turn, side), phases in runs.items():
            names = ", ".join(dict.fromkeys(phases))
            self.log_view.log.append(
                LogLine(
                    f"{side.capitalize()}: {names} phase{'s' if len(set(phases)) > 1 else ''} "
                    "ended automatically (nothing to do)",
                    "auto_end",
                    turn,
                )
            )

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the status line (``error``: a refusal, drawn in red) until the game
        moves on: the next command makes it stale (:meth:`status`)."""
        self.message = text
        self.error = error
        self._msg_epoch = len(self.state.commands)
        self.version += 1

    def _auto_text(self) -> str:
        """The status line for the phases just ended automatically for the person's sides."""
        if not self.last_auto:
            return ""
        sides = dict.fromkeys(a.side for a in self.last_auto)
        parts = []
        for side in sides:
            phases = ", ".join(dict.fromkeys(a.phase for a in self.last_auto if a.side == side))
            parts.append(f"{side.capitalize()}: {phases} ended automatically (nothing to do)")
        return "; ".join(parts) + ". " + self.prompt()

    def status(self) -> tuple[str, bool]:
        """``(text, error)`` of the status line: the last message while no command was applied
        since it was said, else what to do now (:meth:`prompt`); stale lines never stay (item 5)."""
        if self.message and self._msg_epoch == len(self.state.commands):
            return self.message, self.error
        return self.prompt(), False

    def _touch(self) -> None:
        self.version += 1
