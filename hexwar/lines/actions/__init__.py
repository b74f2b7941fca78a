"""Lines actions, one module per command (see :mod:`.registry`). Importing this package
registers them all."""

from . import (  # noqa: F401  (each module registers its action)
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
from .registry import ACTIONS, Action, action_for, register

__all__ = ["ACTIONS", "Action", "action_for", "register"]
