"""The hex game's action registry: :class:`Action` and :class:`ActionRegistry` of
:mod:`hexwar.game.action_registry` (the registry every mode builds on), re-exported under the name
the hex game's action modules import. The hex game's table (:data:`hexwar.game.actions.STANDARD`)
names its end-of-phase command, :class:`~hexwar.game.commands.EndPhase`, as the registry's ``end``.
"""

from __future__ import annotations

from ..action_registry import Action, ActionRegistry, Phased, command_name

__all__ = ["Action", "ActionRegistry", "Phased", "command_name"]
