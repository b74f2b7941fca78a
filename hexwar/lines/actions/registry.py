"""The explicit action registry of the lines game: one :class:`Action` per command.

Each action module defines ``check(state, cmd) -> str | None`` (why it is refused, nothing
changed), ``apply(state, cmd, sink)`` (carry out a checked command) and ``options(state, seat)``
(every legal command of that kind for the seat now), and registers them here with the phases
in which the action exists. The phase machine (:mod:`hexwar.lines.turn`) only looks actions up.
New game modes add actions, not branches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..commands import LinesCommand

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState

__all__ = ["Action", "ACTIONS", "register", "action_for"]


@dataclass(frozen=True)
class Action:
    """One registered action.

    Attributes:
        command: the command class it handles.
        phases: the phases in which it may be issued.
        check: ``(state, cmd) -> reason or None``.
        apply: ``(state, cmd, sink) -> None``.
        options: ``(state, seat) -> iterator of legal commands``.
    """

    command: type[LinesCommand]
    phases: tuple[str, ...]
    check: Callable[[LinesState, Any], str | None]
    apply: Callable[[LinesState, Any, Sink], None]
    options: Callable[[LinesState, str], Iterator[LinesCommand]]


ACTIONS: dict[str, Action] = {}


def register(action: Action) -> Action:
    """Add ``action`` (by its command's name).

    Raises:
        ValueError: when the command name is registered already.
    """
    key = action.command.name
    if key in ACTIONS:
        raise ValueError(f"lines action {key!r} is registered twice")
    ACTIONS[key] = action
    return action


def action_for(cmd: LinesCommand) -> Action | None:
    """The registered action for a command, or ``None``."""
    return ACTIONS.get(cmd.name)
