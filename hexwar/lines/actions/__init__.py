"""Lines actions, one module per command, and :data:`LINES`, the lines game's registry of them
by phase (the hex game's :class:`~hexwar.game.actions.registry.ActionRegistry`).

=================  ==========================================================  ==============
phase              actions, in listing order                                   rules
=================  ==========================================================  ==============
``setup``          choose_hand                                                 000 setup
``commitment``     commit, recrew, move_line, move_crew (classic), use_card,   000 Commitment
                   end_phase
``declaration``    declare, declare_close_assault, use_card, end_phase         R6.1, 000
``resolution``     resolve, use_card (no end_phase)                            R6.2
``draw``           use_card, draw, discard, end_phase                          R5.5
=================  ==========================================================  ==============
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Phase
from . import (
    choose_hand,
    close_assault,
    command_card,
    commit,
    declare,
    discard,
    draw,
    end_phase,
    move_crew,
    move_line,
    recrew,
    resolve,
)
from .registry import Action, ActionRegistry

if TYPE_CHECKING:  # pragma: no cover
    from ..commands import LinesCommand
    from ..state import LinesState

__all__ = ["Action", "ActionRegistry", "LINES"]

_CARD = command_card.ACTION
_END = end_phase.ACTION

LINES: ActionRegistry[LinesState, LinesCommand] = ActionRegistry(
    {
        Phase.SETUP: [choose_hand.ACTION],
        Phase.COMMITMENT: [commit.ACTION, recrew.ACTION, move_line.ACTION, move_crew.ACTION, _CARD, _END],
        Phase.DECLARATION: [declare.ACTION, close_assault.ACTION, _CARD, _END],
        Phase.RESOLUTION: [resolve.ACTION, _CARD],
        Phase.DRAW: [_CARD, draw.ACTION, discard.ACTION, _END],
    }
)
"""The lines game's actions by phase (000 Turn Sequence)."""
