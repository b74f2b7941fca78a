"""The action registry of every game mode: which command may be issued in which phase, and what it
does.

An :class:`Action` is one command's rules: its ``check`` (why it is refused now, or ``None``),
its ``apply`` (carry it out, recording events) and its ``options`` (every legal instance now,
for the AI players, the terminal game and the play screen). An :class:`ActionRegistry` maps
each phase to its actions in the order their options are listed. The turn sequence
(:mod:`hexwar.game.turn`) dispatches through a registry, never by name; a new game mode builds
its own registry (:meth:`ActionRegistry.with_actions`) instead of adding branches.

This module knows no mode's commands: the hex game's registry (:mod:`hexwar.game.actions`) names
its end-of-phase command with ``end``, the lines game and the campaign build theirs from here, so a
lines start imports none of the hex game's actions (issue 35, ``tests/test_startup_imports.py``).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast

__all__ = ["Action", "ActionRegistry", "Phased", "command_name"]


class Phased(Protocol):
    """What a registry needs of a game state: the phase it is in (a key of the registry's table)."""

    @property
    def phase(self) -> str:
        """The current phase's name."""
        ...


S = TypeVar("S", bound=Phased, contravariant=True)
"""The game state an action reads (the hex game's GameState, the lines mode's LinesState, ...)."""
C = TypeVar("C", covariant=True)
"""The commands an action handles (a mode's own command base class)."""


@dataclass(frozen=True)
class Action(Generic[S, C]):
    """One command's rules, generic over the game state ``S`` and command type ``C`` of its mode
    (a hex game action is an ``Action[GameState, Command]``, a lines one an
    ``Action[LinesState, LinesCommand]``).

    Attributes:
        command: the command class it handles (e.g. :class:`~hexwar.game.commands.Move`).
        check: ``check(state, cmd)``: why ``cmd`` is refused now (one sentence naming the
            unit, hex or card), or ``None`` when legal. Changes nothing, rolls nothing.
        apply: ``apply(state, cmd, sink)``: carry out a checked command, recording its
            events in the mode's sink (a :class:`~hexwar.game.events.Recorder` in the hex and
            lines games, the campaign's event list); rolls are recorded by the dice themselves.
        options: ``options(state, side)``: every legal command of this kind now, in a fixed
            order; ``None`` when the action lists none (EndPhase is listed by the registry).
        merge_key: when set, the options of consecutive actions with a key are merged by it
            (stable), e.g. movement lists every option of one unit before the next unit's.
    """

    command: type[C]
    check: Callable[[S, Any], str | None]
    apply: Callable[[S, Any, Any], None]
    options: Callable[[S, str], Iterable[C]] | None = None
    merge_key: Callable[[Any], Any] | None = None


def command_name(cls: type[Any]) -> str:
    """A command class's name for messages: its ``name`` (hex game, lines) or ``kind`` (campaign)."""
    return str(getattr(cls, "name", None) or getattr(cls, "kind", None) or cls.__name__)


S2 = TypeVar("S2", bound=Phased)
C2 = TypeVar("C2")


class ActionRegistry(Generic[S2, C2]):
    """Phase -> the actions allowed in it, in listing order (R5 turn sequence), generic over the
    game state and command type of its mode (see :class:`Action`).

    Args:
        table: phase name -> sequence of :class:`Action` (at most one per command class).
        end: the mode's end-of-phase command class, built as ``end(side)`` and listed last by
            :meth:`options` when its action allows it (the hex game's ``EndPhase``); ``None``
            (lines, campaign): an end command is listed by its action's own ``options``, if any.

    Raises:
        ValueError: when a phase lists two actions for the same command class.
    """

    def __init__(self, table: Mapping[str, Sequence[Action[S2, C2]]], end: type[Any] | None = None):
        self.end = end
        self.table: dict[str, tuple[Action[S2, C2], ...]] = {p: tuple(acts) for p, acts in table.items()}
        self._index: dict[tuple[str, type[Any]], Action[S2, C2]] = {}
        for p, acts in self.table.items():
            for a in acts:
                if (p, a.command) in self._index:
                    raise ValueError(f"phase {p!r} lists two actions for {a.command.__name__}")
                self._index[(p, a.command)] = a

    def with_actions(self, extra: Mapping[str, Sequence[Action[S2, C2]]]) -> ActionRegistry[S2, C2]:
        """A new registry: this one plus ``extra`` actions appended to their phases (new phases
        allowed); an action for a command class a phase already has replaces it in place."""
        table = {p: list(acts) for p, acts in self.table.items()}
        for p, acts in extra.items():
            row = table.setdefault(p, [])
            for a in acts:
                same = [i for i, b in enumerate(row) if b.command is a.command]
                if same:
                    row[same[0]] = a
                else:
                    row.append(a)
        return ActionRegistry(table, end=self.end)

    def action(self, phase: str, cls: type[Any]) -> Action[S2, C2] | None:
        """The action handling ``cls`` in ``phase``, or ``None`` when not allowed there."""
        return self._index.get((phase, cls))

    def allowed(self, phase: str) -> list[str]:
        """The command names allowed in ``phase``, sorted (for refusal messages)."""
        return sorted(command_name(a.command) for a in self.table.get(phase, ()))

    def options(self, state: S2, side: str, include_end: bool = True) -> Iterator[C2]:
        """Every legal command of ``side`` in the current phase, in the registry's order;
        the registry's ``end`` command last when allowed and ``include_end``."""
        acts = self.table.get(state.phase, ())
        i = 0
        while i < len(acts):
            a = acts[i]
            if (self.end is not None and a.command is self.end) or a.options is None:
                i += 1
                continue
            if a.merge_key is not None:
                group = [a]
                while (
                    i + 1 < len(acts)
                    and acts[i + 1].merge_key is not None
                    and acts[i + 1].options is not None
                ):
                    i += 1
                    group.append(acts[i])
                key = a.merge_key
                yield from heapq.merge(
                    *(g.options(state, side) for g in group if g.options is not None), key=key
                )
            else:
                yield from a.options(state, side)
            i += 1
        if include_end and self.end is not None:
            end = self._index.get((state.phase, self.end))
            if end is not None and end.check(state, self.end(side)) is None:
                yield cast(C2, self.end(side))
