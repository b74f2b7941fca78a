"""One module per campaign action (Wesnoth's one file per action), in an explicit registry.

Each action module defines ``COMMAND`` (its command class), ``check(state, cmd) -> str | None``
(why it is illegal now, ``None`` when legal; never changes anything), ``apply(state, cmd, out)``
(the change the command itself makes, events appended to ``out``) and ``options(state, side)``
(every legal command of that kind for ``side``, in a fixed order). The automatic steps after
a command are :func:`hexwar.campaign.sequence.advance`'s.
"""

from __future__ import annotations

from types import ModuleType

from ..commands import Command
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

# command kind -> action module, in the order legal_commands lists their options
REGISTRY: dict[str, ModuleType] = {m.COMMAND.kind: m for m in (
    choose_tactics, declare_campaign, pass_campaign, place_battle, place_tactic, swap_event, keep_events,
    battle_result)}


def action_for(cmd: Command) -> ModuleType:
    """The action module of ``cmd``.

    Raises:
        KeyError: for a command with no registered action.
    """
    m = REGISTRY[cmd.kind]
    if not isinstance(cmd, m.COMMAND):
        raise KeyError(cmd.kind)
    return m
