"""The lines game's actions use the action registry every mode builds on
(:mod:`hexwar.game.action_registry`, without the hex game's actions):
an :class:`Action` is one command's ``check`` / ``apply`` / ``options``, an
:class:`ActionRegistry` maps each phase to its actions in listing order. The lines mode builds
its own registry (:data:`hexwar.lines.actions.LINES`) of its own actions: new game modes add
actions, not branches.
"""

from __future__ import annotations

from ...game.action_registry import Action, ActionRegistry

__all__ = ["Action", "ActionRegistry"]
