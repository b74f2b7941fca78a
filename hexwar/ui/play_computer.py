"""The computer's turn on the play screen (issue 34 split of :mod:`hexwar.ui.controller`):
one command per due tick at a watchable pace (:class:`hexwar.ui.pacing.ComputerPacer`), counter
animations run out before the next command, and what the status line says of each command."""

from __future__ import annotations

from typing import Any

from ..game.events import GameEvent
from ..game.state import GameState
from .animation import MoveAnim
from .clock import Clock
from .pacing import ComputerPacer, describe_command

__all__ = ["ComputerTurnMixin"]


class ComputerTurnMixin:
    """The computer-pacing part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _auto_text: Any
    _msg_epoch: int
    _touch: Any
    anim: MoveAnim | None
    clock: Clock
    error: bool
    issue: Any
    message: str
    my_turn: Any
    pacer: ComputerPacer
    say: Any
    state: GameState
    stopped: Any
    version: int
    feed: Any

    @property
    def next_ai_at(self) -> float:
        """Clock time the computer's next command is due."""
        return self.pacer.next_at

    def computer_to_act(self) -> bool:
        """True when a computer player must act now."""
        return self.pacer.to_act(self.state, self.stopped)

    def busy(self) -> bool:
        """True while a counter animation is still running."""
        if self.anim is not None and self.anim.hex_at(self.clock.now()) is None:
            self.anim = None
            self._touch()
        return self.anim is not None

    def update(self) -> bool:
        """Advance animations and, when due, apply the computer's next command.

        Called by the window's timer (and by tests after moving the clock on). Applies at most
        one computer command per call, so its moves are shown step by step.

        Returns:
            True when something on screen changed.
        """
        v0 = self.version
        if self.busy():
            return True  # the animation itself changes the screen
        if self.feed.pausing(self.clock.now()):
            return True  # the rolls are being shown one by one (issue 36): the computer waits
        if self.pacer.due(self.state, self.stopped):
            self.step_computer()
        return self.version != v0

    def step_computer(self) -> list[GameEvent] | None:
        """Apply one command of the computer side to act (its player chooses it)."""
        side = self.state.to_act
        cmd = self.pacer.choose(self.state)
        if cmd is None or side is None:
            return None
        where = (self.state.turn, self.state.phase)
        events = self.issue(cmd)
        self.pacer.acted(cmd)
        if events is not None and not self.error:
            text = f"{side.capitalize()} (computer): {describe_command(self.state, cmd)}"
            if self.my_turn() and (self.state.turn, self.state.phase) != where:
                # the person's new phase starts: its prompt, not the computer's last words (item 5)
                self.say(self._auto_text())
            elif not (self.message and self._msg_epoch == len(self.state.commands)):
                self.say(text)
        return events
