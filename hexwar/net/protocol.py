"""The hexwar network protocol, version 1: versioned JSON messages over WebSocket (R12.5).

Every frame is one UTF-8 JSON object with a ``"type"``. The messages are typed models
(:mod:`hexwar.formats.protocol_file`: one model per message type, a discriminated union on
``type``); the server reads every client frame through them (:func:`parse_client_message`) and
the client every server frame (:func:`parse_server_message`) before anything reads the
message, and every problem is reported at once with its field path; nothing received is ever
executed. ``hexwar schema protocol`` prints the JSON Schema generated from the same models. The
full description, with examples, is docs/protocol.md.

>>> parse_client_message('{"type": "ping"}')
{'type': 'ping'}
>>> parse_client_message('{"type": "hello", "protocol": 1}')
Traceback (most recent call last):
...
hexwar.net.protocol.ProtocolError: bad_message: hello: a hello takes a seat with "seat" and "token", or watches with "watch": true
>>> try:
...     parse_client_message('{"type": "command", "seq": -1, "command": {"cmd": "end_phase"}, "x": 1}')
... except ProtocolError as exc:
...     print([p.where for p in exc.problems])
['seq', 'command', 'x']
"""

from __future__ import annotations

import json
import re
from typing import Any

import pydantic

from ..errors import HexwarError, Problem
from ..formats.protocol_file import (
    CLIENT_TYPES,
    MODES,
    PROTOCOL_VERSION,
    SERVER_TYPES,
    client_adapter,
    message_problems,
    protocol_schema,
)

__all__ = [
    "PROTOCOL_VERSION",
    "MODES",
    "MAX_MESSAGE_BYTES",
    "CLIENT_TYPES",
    "SERVER_TYPES",
    "ProtocolError",
    "schema",
    "schema_text",
    "parse_client_message",
    "parse_server_message",
    "encode",
    "error",
]

MAX_MESSAGE_BYTES = 64 * 1024  # a client message larger than this gets a "too_big" error
MAX_REPORTED = 10  # problems named in one error reply; the rest are counted (a cost bound too)


class ProtocolError(HexwarError):
    """A message the receiver cannot take; ``code`` is the error reply's code.

    Attributes:
        code: one of the protocol's error codes (``"bad_json"``, ``"bad_message"``, ...).
        message: the reply's text: every problem, ``FIELD: what is wrong``, joined by ``"; "``.
        problems: the problems one by one (``where`` is the field path, ``command.side``).
    """

    def __init__(self, code: str, message: str, problems: list[Problem] | None = None):
        self.code = code
        super().__init__(f"{code}: {message}")
        self.message = message
        self.problems = problems or []


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema as a dict (generated from the models; a new dict each call)."""
    return protocol_schema()


def schema_text() -> str:
    """The protocol's JSON Schema as JSON text (what ``hexwar schema protocol`` prints)."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False) + "\n"


#: a JSON escape of a UTF-16 surrogate; a pair becomes one character, a lone one stays a surrogate
_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _read_json(text: str | bytes, limit: int | None) -> dict[str, Any]:
    """The frame as a JSON object (``bad_message`` for binary frames and other JSON values).

    ``bad_json`` also for a lone surrogate escape (``"\\ud800"``, R12.5): JSON's grammar allows
    it, but it is no character, no model can read it as text and no reply could echo it.
    """
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "binary frames are not part of the protocol; send JSON text")
    if limit is not None and len(text) > limit:
        raise ProtocolError("too_big", f"message of {len(text)} characters; the limit is {limit}")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # the first clause only: Python's 4300-digit message goes on about sys.set_int_max_str_digits
        raise ProtocolError("bad_json", f"not JSON: {str(exc).split(';')[0][:120]}") from None
    if _LONE_SURROGATE_ESCAPE.search(text) is not None:  # an escape of a surrogate: paired?
        try:
            json.dumps(msg, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(
                "bad_json",
                "not JSON text: a \\uD800-\\uDFFF escape that is not half of a surrogate pair "
                "(no character; UTF-8 cannot carry it)",
            ) from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", f'expected a JSON object with a "type", got {type(msg).__name__}')
    return msg


def _refuse(problems: list[Problem]) -> ProtocolError:
    """A ``bad_message`` naming every problem (``FIELD: what``; the count of the rest as is)."""
    text = "; ".join(f"{p.where}: {p.message}" if p.where else p.message for p in problems)
    return ProtocolError("bad_message", text, problems)


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Parse one client frame and check it by its model (:data:`~hexwar.formats.protocol_file.ClientMessage`).

    Args:
        text: the frame (a text frame; binary frames are refused).

    Returns:
        the message as the model read it, a JSON dict (fields the client did not send left out;
        ``command.command`` with the command's own fields).

    Raises:
        ProtocolError: ``too_big`` over :data:`MAX_MESSAGE_BYTES`, ``bad_json`` when not JSON,
            ``bad_message`` naming every field that does not fit (``problems`` lists them).
    """
    msg = _read_json(text, MAX_MESSAGE_BYTES)
    try:
        model = client_adapter().validate_python(msg)
    except pydantic.ValidationError as exc:
        raise _refuse(message_problems(msg, limit=MAX_REPORTED, error=exc)) from None
    return model.model_dump(exclude_unset=True)  # type: ignore[no-any-return]


def parse_server_message(text: str | bytes) -> dict[str, Any]:
    """Parse one server frame and check it by its model (:data:`~hexwar.formats.protocol_file.ServerMessage`).

    Args:
        text: the frame (the server sends text frames of any size the socket allows).

    Returns:
        the message as JSON (as received: a welcome's view is the server's view object).

    Raises:
        ProtocolError: ``bad_json`` or ``bad_message`` naming every field that does not fit.
    """
    msg = _read_json(text, None)
    problems = message_problems(msg, server=True, limit=MAX_REPORTED)
    if problems:
        raise _refuse(problems)
    return msg


def encode(msg: dict[str, Any]) -> str:
    """A server message as compact JSON text (``protocol`` added), always valid UTF-8 (R12.5).

    Text a client sent may come back in a reply (a ``bad_message`` names the field, an
    ``illegal`` the card), and JSON lets a client write a lone surrogate (``"\\ud800"``) that no
    UTF-8 frame can carry: such a message is written with ``\\u`` escapes instead (the same JSON
    to any reader), so the socket never fails on it.

    Args:
        msg: the message without ``protocol`` (any JSON value inside).

    Returns:
        the frame's text.

    >>> encode({"type": "error", "code": "bad_message", "message": "\\ud800: unknown field"})
    '{"protocol":1,"type":"error","code":"bad_message","message":"\\\\ud800: unknown field"}'
    """
    doc = {"protocol": PROTOCOL_VERSION, **msg}
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from a client's own text
            text = json.dumps(doc, separators=(",", ":"))
    return text


def error(code: str, message: str, **extra: Any) -> str:
    """An ``error`` reply."""
    return encode({"type": "error", "code": code, "message": message, **extra})
