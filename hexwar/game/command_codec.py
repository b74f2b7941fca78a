"""Commands as data, for every game mode: the refusal error, and the JSON codec of command
dataclasses (R11.1: a command round-trips through JSON; nothing read is ever executed).

The hex game's commands (:mod:`hexwar.game.commands`) and the lines game's
(:mod:`hexwar.lines.commands`) are frozen dataclasses with a ``name``; both build theirs from
JSON with :func:`dataclass_command_from_json`, which checks every field against the class's
annotations, and both refuse with :class:`IllegalCommand`. A module of its own, so a lines game
imports the codec without the hex game's commands (issue 35: a lines start imports no hex
machinery; ``tests/test_startup_imports.py``). ``hexwar.game.commands`` re-exports every name.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import HexwarError, clip
from ..model.hexgrid import Hex, HexLabelError

__all__ = [
    "DRAW_SOURCES",
    "IllegalCommand",
    "CommandFormatError",
    "dataclass_command_from_json",
    "field_problem",
]


#: the decks a Draw command of either game names (R5.5: the two extra cards come from either)
DRAW_SOURCES = ("command", "reserves")


class IllegalCommand(HexwarError):
    """A command the rules do not allow now; the game is unchanged.

    Attributes:
        command: the refused command (any mode's command dataclass), or ``None``.
        reason: why, in one sentence naming the unit, hex or card (also ``str(exc)``).
    """

    def __init__(self, command: Any, reason: str):
        self.command = command
        self.reason = reason
        super().__init__(reason)


class CommandFormatError(HexwarError):
    """A command read from JSON (a save file) is malformed; the message names the field."""


def _to_json_value(v: Any) -> Any:
    if isinstance(v, Hex):
        return v.label
    if isinstance(v, tuple):
        return [_to_json_value(x) for x in v]
    return v


def _type_ok(tp: Any, v: Any) -> bool:
    """Whether ``v`` has the declared field type ``tp`` (bool is not an int here)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(a, v) for a in args)
    if tp is type(None):
        return v is None
    if origin is tuple:
        return isinstance(v, tuple) and all(_type_ok(args[0], x) for x in v)
    if tp is int:
        return isinstance(v, int) and not isinstance(v, bool)
    return isinstance(v, tp)


_HINTS: dict[type, dict[str, Any]] = {}


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in args)
    if origin is tuple:
        return f"a tuple of {_type_name(args[0])}"
    return {str: "text", int: "an integer", bool: "True or False", Hex: "a Hex", type(None): "None"}.get(
        tp, str(tp)
    )


def field_problem(cmd: Any) -> str | None:
    """Why ``cmd``'s fields do not have their declared types (a label where a :class:`Hex` is
    expected, ``True`` as a weapon index...), or ``None``. Commands built from JSON always
    pass (:func:`command_from_json` converts); this guards commands built in Python.

    >>> from hexwar.game.commands import Move
    >>> field_problem(Move("german", "de_grenadiers#1", ("D07",)))
    "move.path: expected a tuple of a Hex, got ('D07',)"
    """
    if cmd is _LAST_OK[0]:  # the same (frozen) command checked again: a player's check, then apply
        return None
    cls = type(cmd)
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = {f.name: typing.get_type_hints(cls)[f.name] for f in dataclasses.fields(cls)}
    for fname, tp in hints.items():
        v = getattr(cmd, fname)
        if not _type_ok(tp, v):
            return f"{cmd.name}.{fname}: expected {_type_name(tp)}, got {clip(v)}"[:300]
    if cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        _LAST_OK[0] = cmd
    return None


#: the last command whose fields passed :func:`field_problem` (issue 22: checked twice a command)
_LAST_OK: list[Any] = [None]


def _from_json_value(tp: Any, v: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if v is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _from_json_value(inner[0], v, where)
    if tp is Hex:
        if not isinstance(v, str):
            raise CommandFormatError(f"{where}: expected a hex label like 'D07', got {clip(v)}")
        try:
            return Hex.from_label(v)
        except HexLabelError as exc:
            raise CommandFormatError(f"{where}: {exc}") from None
    if origin is tuple:
        if not isinstance(v, list):
            raise CommandFormatError(f"{where}: expected a list, got {clip(v)}")
        if len(v) > 64:
            raise CommandFormatError(f"{where}: list of {len(v)} items is too long")
        return tuple(_from_json_value(args[0], x, f"{where}[{i}]") for i, x in enumerate(v))
    if tp is bool:
        if not isinstance(v, bool):
            raise CommandFormatError(f"{where}: expected true or false, got {clip(v)}")
        return v
    if tp is int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise CommandFormatError(f"{where}: expected an integer, got {clip(v)}")
        return v
    if tp is str:
        if not isinstance(v, str) or len(v) > 200:
            raise CommandFormatError(f"{where}: expected text, got {clip(v)}")
        return v
    raise CommandFormatError(f"{where}: unsupported field type {tp!r}")  # pragma: no cover


def dataclass_command_from_json(
    data: Any,
    types_: Mapping[str, type[Any]],
    where: str,
    owner: str,
    owners: Sequence[str],
    kind: str = "command",
) -> Any:
    """Build a command dataclass from its JSON form: ``data["cmd"]`` names its class in
    ``types_``, every field is checked against the class's annotations, and the ``owner`` field
    (``side`` in the hex game, ``seat`` on lines) must be one of ``owners``. Shared by the hex
    game's and the lines game's :func:`command_from_json` (nothing read is ever executed).

    Args:
        data: the decoded JSON object.
        types_: command name -> command dataclass.
        where: prefix for error messages (e.g. ``"commands[12]"``).
        owner, owners: the field naming who acts and its allowed values.
        kind: what the message calls an unknown ``cmd`` (``"command"``, ``"lines command"``).

    Raises:
        CommandFormatError: naming the field when anything is missing, unknown or mistyped.
    """
    if not isinstance(data, dict):
        raise CommandFormatError(f'{where}: expected an object with a "cmd" field')
    name = data.get("cmd")
    cls = types_.get(name) if isinstance(name, str) else None
    if cls is None:
        raise CommandFormatError(
            f"{where}.cmd: unknown {kind} {clip(name)}; expected one of {sorted(types_)}"
        )
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for k in data:
        if k != "cmd" and k not in fields:
            raise CommandFormatError(f"{where}.{k}: unknown field for {name}; expected {sorted(fields)}")
    kwargs: dict[str, Any] = {}
    for fname, f in fields.items():
        if fname not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CommandFormatError(f"{where}.{fname}: missing")
            continue
        kwargs[fname] = _from_json_value(hints[fname], data[fname], f"{where}.{fname}")
    if kwargs.get(owner) not in owners:
        raise CommandFormatError(
            f"{where}.{owner}: expected one of {tuple(owners)}, got {clip(data.get(owner))}"
        )
    return cls(**kwargs)
