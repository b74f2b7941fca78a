"""One module per campaign action (Wesnoth's one file per action), in an explicit registry.

Each action module defines ``COMMAND`` (its command class), ``check(state, cmd) -> str | None``
(why it is illegal now, ``None`` when legal; never changes anything), ``apply(state, cmd, out)``
(the change the command itself makes, events appended to ``out``), ``options(state, side)``
(every legal command of that kind for ``side``, in a fixed order) and ``ACTION``, the
:class:`hexwar.game.actions.registry.Action` of the hex game's registry (the same machinery:
the campaign is a rule set over it, DESIGN). :data:`REGISTRY` maps each campaign phase to its
actions in listing order; the automatic steps after a command are
:func:`hexwar.campaign.sequence.advance`'s.

=================  ====================================  ==========================
phase              actions, in listing order              002
=================  ====================================  ==========================
``choose_tactics`` choose_tactics                         Rules .2 (start of a year)
``campaign``       declare_campaign, pass_campaign        Rules .3
``place``          place_battle, place_tactic             Rules .2
``battle``         battle_result                          (``--battles hex|lines``)
``swap``           keep_events, swap_event                advanced option 3
=================  ====================================  ==========================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...game.action_registry import Action, ActionRegistry
from ..commands import Command

if TYPE_CHECKING:  # pragma: no cover
    from ..state import CampaignState
from . import (
    battle_result,
    choose_tactics,
    declare_campaign,
    keep_events,
    pass_campaign,
    place_battle,
    place_tactic,
    swap_event,
)

__all__ = ["REGISTRY", "action_for"]

REGISTRY: ActionRegistry[CampaignState, Command] = ActionRegistry(
    {
        "choose_tactics": [choose_tactics.ACTION],
        "campaign": [declare_campaign.ACTION, pass_campaign.ACTION],
        "place": [place_battle.ACTION, place_tactic.ACTION],
        "battle": [battle_result.ACTION],
        "swap": [keep_events.ACTION, swap_event.ACTION],
    }
)
"""The campaign's actions by phase (002)."""

_ALL: dict[type, Action[CampaignState, Command]] = {
    a.command: a for acts in REGISTRY.table.values() for a in acts
}


def action_for(phase: str, cmd: Command) -> Action[CampaignState, Command] | None:
    """The action of ``cmd`` in ``phase``, or ``None`` when that command is not allowed then."""
    return REGISTRY.action(phase, type(cmd))


def any_action(cmd: Command) -> Action[CampaignState, Command] | None:
    """The action of ``cmd`` in whatever phase it belongs to (to explain a refusal)."""
    return _ALL.get(type(cmd))
