"""``Undo`` (R12.3): take back the side's own Commit, Move or Declare of the current phase.

Wesnoth's rule: a player may take back what they did until a die is rolled or hidden
information is revealed. The turn sequence calls :func:`before` and :func:`after` around every
command; a Commit, Move or Declare whose application rolled nothing, revealed no card (no
draw, deal or Event card) and stayed in the same turn and phase leaves an :class:`UndoPoint`
(the state as it was before it) on :attr:`GameState.undo_points
<hexwar.game.state.GameState.undo_points>`. Any other command, a roll or a phase change
clears the points. ``Undo`` restores the newest point of its side and records an ``undo``
event; it is a command in the log, so a replay applies the undone command and then the undo
and reaches the same state (the points are rebuilt by the replay, never saved).

Rule choices (docs/rules.md): with the ``fog`` variant (R12.2) a Move can bring enemy units
into view, so moves under fog are not undoable; a Move or Commit that changed the map (a towed
wreck, an objective taken) is undoable and the map is restored too.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...model.hexgrid import Hex
from ..commands import Command, Commit, Declare, Move, Undo
from ..events import GameEvent, Recorder, RollEvent
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = [
    "ACTION",
    "UNDOABLE",
    "REVEALING_EVENTS",
    "UndoPoint",
    "check",
    "apply",
    "before",
    "after",
    "position_copy",
]

#: The command kinds a player may take back (R12.3).
UNDOABLE: tuple[type[Command], ...] = (Commit, Move, Declare)

#: Event kinds that reveal hidden information (cards seen for the first time).
REVEALING_EVENTS = frozenset({"draw", "deal", "reserves", "hand", "event_card"})

# GameState fields that are not the position (definitions, logs, caches, the dice).
_NOT_POSITION = frozenset(
    {
        "scenario",
        "battlemap",
        "dice",
        "variants",
        "seed",
        "all_cards",
        "commands",
        "log",
        "checkpoints",
        "log_sides",  # who saw each logged event: the log is not taken back, nor is that
        "log_cuts",
        "cache",
        "engine",
        "recorder",
        "undo_points",
        "undoable",
    }
)


@dataclass
class UndoPoint:
    """The position before one undoable command.

    Attributes:
        command: the command it takes back.
        turn, phase: where it was issued (an undo is refused once either moved on).
        fields: deep copies of the state's position fields (units, hands, decks, attacks...).
        battlemap: a copy of the map (its overlays: wrecks, rubble, fire, marker).
    """

    command: Command
    turn: int
    phase: str
    fields: dict[str, Any]
    battlemap: Any


def _position_names(state: GameState) -> list[str]:
    return [f.name for f in dataclasses.fields(state) if f.name not in _NOT_POSITION]


# -- copying the position (the hot path: an undo point is taken before every Commit, Move and
# Declare, so copying is most of an AI-vs-AI game's cost if done with copy.deepcopy) ---------

_IMMUTABLE: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes, complex, Hex})
_DATACLASS_FIELDS: dict[type, tuple[str, ...]] = {}
_FROZEN: set[type] = set()  # frozen dataclass types seen


def _copy_dataclass(v: Any) -> Any:
    cls = type(v)
    names = _DATACLASS_FIELDS.get(cls)
    if names is None:
        names = _DATACLASS_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(v))
        if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            _FROZEN.add(cls)
    if cls in _FROZEN and all(type(getattr(v, n)) in _IMMUTABLE for n in names):
        return v  # a frozen dataclass of immutable values is a value itself (a Kill, an event)
    if hasattr(v, "__dict__"):  # the same class without calling __init__ or __post_init__
        out = object.__new__(cls)
        d = v.__dict__.copy()
        for n, x in d.items():  # straight from the instance dict (no getattr per field)
            if type(x) not in _IMMUTABLE:
                d[n] = position_copy(x)  # a value of an existing key: the dict keeps its size
        for n in names:
            if n not in d:  # pragma: no cover - a field kept outside the instance dict
                x = getattr(v, n)
                d[n] = x if type(x) in _IMMUTABLE else position_copy(x)
        out.__dict__.update(d)
        return out
    out = copy.copy(v)
    for n in names:
        x = getattr(v, n)
        if type(x) not in _IMMUTABLE:
            object.__setattr__(out, n, position_copy(x))  # frozen dataclasses too
    return out


def position_copy(value: Any) -> Any:
    """A copy of ``value`` equal to ``copy.deepcopy(value)`` for the values a game position holds.

    Strings, numbers, ``None`` and :class:`~hexwar.model.hexgrid.Hex` are kept (immutable);
    lists, dicts, sets and tuples are rebuilt with copied items; dataclasses (``UnitState``,
    ``Attack``, ``Kill``, ``GameResult``) are copied field by field (a frozen one holding
    only immutable values is kept: it is a value, issue 22); anything else goes to
    :func:`copy.deepcopy`. About 5x faster than ``copy.deepcopy`` on a game's position (issue
    22); like a separate ``deepcopy`` per value, it does not keep objects shared between values.

    Args:
        value: a position field of a :class:`~hexwar.game.state.GameState` (any object).

    Returns:
        the copy (the same object for immutable values).
    """
    t = type(value)
    if t in _IMMUTABLE:
        return value
    if t is dict:
        return {k: (x if type(x) in _IMMUTABLE else position_copy(x)) for k, x in value.items()}
    if t is list:
        return [x if type(x) in _IMMUTABLE else position_copy(x) for x in value]
    if t is tuple:
        if all(type(x) in _IMMUTABLE for x in value):
            return value
        return tuple(position_copy(x) for x in value)
    if t is set:
        return {position_copy(x) for x in value}
    if t is frozenset and all(type(x) in _IMMUTABLE for x in value):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _copy_dataclass(value)
    return copy.deepcopy(value)


def before(state: GameState, cmd: Command) -> UndoPoint | None:
    """The undo point of ``cmd`` if it is of an undoable kind (taken before it is applied);
    ``None`` also when the game takes no undo points (``state.undoable`` false)."""
    if not state.undoable or not isinstance(cmd, UNDOABLE):
        return None
    if isinstance(cmd, Move) and "fog" in state.variants:
        return None
    fields = {n: position_copy(getattr(state, n)) for n in _position_names(state)}
    return UndoPoint(cmd, state.turn, state.phase, fields, state.battlemap.copy())


def after(
    state: GameState, cmd: Command, point: UndoPoint | None, events: list[GameEvent], rolls_before: int
) -> None:
    """Keep ``point`` when ``cmd`` rolled nothing, revealed nothing and stayed in its phase;
    otherwise (and after any command that is not undoable) clear every undo point (R12.3)."""
    if isinstance(cmd, Undo):
        return
    clean = (
        point is not None
        and len(state.dice.log) == rolls_before
        and state.turn == point.turn
        and state.phase == point.phase
        and not any(isinstance(e, RollEvent) or e.kind in REVEALING_EVENTS for e in events)
    )
    if not clean:
        state.undo_points.clear()
        return
    assert point is not None
    if state.undo_points and state.undo_points[-1].command.side != cmd.side:
        state.undo_points.clear()
    state.undo_points.append(point)


def check(state: GameState, cmd: Undo) -> str | None:
    """Only the side's own last Commit, Move or Declare of this phase, before any die is
    rolled or hidden information revealed (R12.3)."""
    pts = state.undo_points
    if not pts:
        return (
            "nothing to undo: only your Commit, Move and Declare commands of this phase can be taken back, "
            "until a die is rolled or a card revealed (R12.3)"
        )
    top = pts[-1]
    if top.command.side != cmd.side:
        return f"nothing to undo: the last command was the {top.command.side}'s (R12.3)"
    if top.turn != state.turn or top.phase != state.phase:
        return "nothing to undo: the phase has moved on (R12.3)"
    return None


def _restore_map(live: Any, saved: Any) -> None:
    for a in ("terrain", "level", "road", "rubble", "fire", "fire_turns"):
        getattr(live, a)[...] = getattr(saved, a)
    live.wrecks = {h: list(s) for h, s in saved.wrecks.items()}
    live.artillery_marker = saved.artillery_marker
    live.version += 1


def apply(state: GameState, cmd: Undo, rec: Recorder) -> None:
    """Restore the position before the side's last undoable command and log ``undo``."""
    point = state.undo_points.pop()
    for name, value in point.fields.items():
        setattr(state, name, position_copy(value))
    if point.battlemap is not None:
        _restore_map(state.battlemap, point.battlemap)
    rec.emit(
        "undo",
        f"{cmd.side} takes back: {point.command} (R12.3)",
        side=cmd.side,
        undone=point.command.to_json(),
    )


ACTION = Action(Undo, check, apply)
