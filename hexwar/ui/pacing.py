"""The computer players' pace on the play screen: one command per due tick, the screen
lingering after each (:class:`hexwar.ui.clock.Pace`), and what the status line says of it."""

from __future__ import annotations

from typing import Any

from ..game import ruleset
from ..game.commands import (
    ChooseHand,
    Command,
    Commit,
    Declare,
    Discard,
    Draw,
    EndPhase,
    Move,
    Resolve,
    TargetArtillery,
    UseCommandCard,
)
from ..game.state import GameState, Phase
from .clock import Clock, Pace

__all__ = ["ComputerPacer", "describe_command"]


class ComputerPacer:
    """Decides when a computer side acts next and asks its player for the command.

    Args:
        ai: computer players by side (objects with ``choose(state) -> Command``).
        clock: the time source (seconds).
        pace: how long the screen lingers after each computer action.

    Attributes:
        next_at: clock time the next computer command is due.
    """

    def __init__(self, ai: dict[str, Any], clock: Clock, pace: Pace) -> None:
        self.ai, self.clock, self.pace = ai, clock, pace
        self.next_at = clock.now()

    def to_act(self, state: GameState, stopped: bool = False) -> bool:
        """True when a computer player must act now (ignoring the pace)."""
        return not state.over and not stopped and state.to_act is not None and state.to_act in self.ai

    def due(self, state: GameState, stopped: bool = False) -> bool:
        """True when a computer player must act and its pause is over."""
        return self.to_act(state, stopped) and self.clock.now() >= self.next_at

    def choose(self, state: GameState) -> Command | None:
        """The command the side to act's computer player chooses (``None``: not a computer's turn)."""
        side = state.to_act
        if side is None or side not in self.ai or state.over:
            return None
        return self.ai[side].choose(state)  # type: ignore[no-any-return]

    def acted(self, cmd: Command) -> None:
        """``cmd`` was issued: the next one waits :meth:`Pace.delay_after` seconds."""
        steps = len(cmd.path) if isinstance(cmd, Move) else 0
        self.next_at = self.clock.now() + self.pace.delay_after(cmd.name, steps)


def describe_command(st: GameState, cmd: Command) -> str:
    """A short readable account of a computer player's command (hidden choices stay hidden)."""
    if isinstance(cmd, Move):
        return f"moves {ruleset.card_name(cmd.unit)} to {st.hex_label(cmd.path[-1])}"
    if isinstance(cmd, Commit):
        where = st.hex_label(cmd.hex) if cmd.hex is not None else "aloft"
        return f"commits {ruleset.card_name(cmd.unit)} into {where}"
    if isinstance(cmd, Declare):
        return f"{ruleset.card_name(cmd.attacker)} will fire at {ruleset.card_name(cmd.target)}"
    if isinstance(cmd, Resolve):
        return f"resolves attack {cmd.attack}"
    if isinstance(cmd, EndPhase):
        return f"ends the {st.phase if st.phase != Phase.OVER else ''} phase".replace("  ", " ")
    if isinstance(cmd, TargetArtillery):
        return f"calls artillery on {st.hex_label(cmd.hex)}"
    if isinstance(cmd, ChooseHand):
        return "chooses its starting hand"  # which cards stays hidden
    if isinstance(cmd, Draw):
        return "draws its cards"
    if isinstance(cmd, UseCommandCard):
        return f"plays {ruleset.card_name(cmd.card)}"
    if isinstance(cmd, Discard):
        return f"discards {ruleset.card_name(cmd.card)}"
    return cmd.name.replace("_", " ")
