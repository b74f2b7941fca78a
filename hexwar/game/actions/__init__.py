"""The actions of the standard game: one module per command (check, apply, legal options).

:data:`STANDARD` is the registry of the standard game (R5): for each phase, the actions allowed
in it, in the order their legal options are listed. The turn sequence
(:mod:`hexwar.game.turn`) dispatches every command through the game's registry
(:attr:`GameState.actions <hexwar.game.state.GameState.actions>`); a new game mode builds its
own with :meth:`ActionRegistry.with_actions` and adds actions, not branches.

=====================  ===========================================  ===================
phase                  actions, in listing order                     rules
=====================  ===========================================  ===================
``setup``              choose_hand, build_deck (listed: none)        000 setup, R4.3
``artillery``          artillery, command_card, end_phase            R5.1d, R9.2
``commitment``         commit, recrew, move_crew, command_card,      R5.2, 001, R12.3
                       end_phase, undo
``movement``           drop tow, move, tow (merged by unit),         R5.3, R8.1, R12.3
                       command_card, end_phase, undo
``declaration``        declare, close_assault, building_attack,      R6.1, R6.6, R8.2,
                       command_card, end_phase, undo                 R12.3
``resolution``         resolve, command_card (no end_phase)          R6.2
``draw``               command_card, draw, discard, end_phase        R5.5
=====================  ===========================================  ===================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..commands import EndPhase
from ..state import Phase
from . import (
    artillery,
    build_deck,
    building_attack,
    choose_hand,
    close_assault,
    command_card,
    commit,
    declare,
    discard,
    draw,
    end_phase,
    move,
    move_crew,
    recrew,
    resolve,
    tow,
    undo,
)
from .registry import Action, ActionRegistry

if TYPE_CHECKING:  # pragma: no cover
    from ..commands import Command
    from ..state import GameState

__all__ = ["Action", "ActionRegistry", "STANDARD"]

_CARD = command_card.ACTION
_END = end_phase.ACTION
_UNDO = undo.ACTION

STANDARD: ActionRegistry[GameState, Command] = ActionRegistry(
    {
        Phase.SETUP: [choose_hand.ACTION, build_deck.ACTION],
        Phase.ARTILLERY: [artillery.ACTION, _CARD, _END],
        Phase.COMMITMENT: [commit.ACTION, recrew.ACTION, move_crew.ACTION, _CARD, _END, _UNDO],
        Phase.MOVEMENT: [tow.DROP_ACTION, move.ACTION, tow.ACTION, _CARD, _END, _UNDO],
        Phase.DECLARATION: [declare.ACTION, close_assault.ACTION, building_attack.ACTION, _CARD, _END, _UNDO],
        Phase.RESOLUTION: [resolve.ACTION, _CARD],
        Phase.DRAW: [_CARD, draw.ACTION, discard.ACTION, _END],
    },
    end=EndPhase,
)
"""The standard game's actions by phase (R5)."""
