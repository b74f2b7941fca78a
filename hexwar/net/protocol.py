"""The hexwar network protocol, version 1: versioned JSON messages over WebSocket (R12.5).

Every frame is one UTF-8 JSON object with a ``"type"``. Client messages are checked against
the JSON Schema shipped as package data (``hexwar/formats/schemas/protocol.schema.json``, printed
by ``hexwar schema protocol`` where that command exists) with the ``jsonschema`` library before
anything reads them; nothing received is ever executed. The full description, with examples,
is docs/protocol.md.

>>> parse_client_message('{"type": "ping"}')
{'type': 'ping'}
>>> parse_client_message('{"type": "hello", "protocol": 1}')
Traceback (most recent call last):
...
hexwar.net.protocol.ProtocolError: bad_message: hello: a hello takes a seat with "seat" and "token", or watches with "watch": true
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..errors import HexwarError

__all__ = [
    "PROTOCOL_VERSION",
    "MODES",
    "MAX_MESSAGE_BYTES",
    "CLIENT_TYPES",
    "ProtocolError",
    "schema",
    "schema_text",
    "parse_client_message",
    "encode",
    "error",
]

PROTOCOL_VERSION = 1
MODES = ("hex", "lines", "campaign")  # R11: the protocol carries the game mode
MAX_MESSAGE_BYTES = 64 * 1024  # a client message larger than this gets a "too_big" error
CLIENT_TYPES = ("hello", "command", "sync", "ping", "list", "create")


class ProtocolError(HexwarError):
    """A client message the server cannot take; ``code`` is the error reply's code.

    Attributes:
        code: one of the schema's error codes (``"bad_json"``, ``"bad_message"``, ...).
    """

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(f"{code}: {message}")
        self.message = message


def schema_text() -> str:
    """The protocol's JSON Schema, as shipped (package data)."""
    return (
        resources.files("hexwar").joinpath("formats/schemas/protocol.schema.json").read_text(encoding="utf-8")
    )


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema as a dict (loaded once)."""
    return json.loads(schema_text())  # type: ignore[no-any-return]


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    s = schema()
    return Draft202012Validator({"$defs": s["$defs"], "$ref": f"#/$defs/{kind}"})


_HINTS = {"hello": 'a hello takes a seat with "seat" and "token", or watches with "watch": true'}


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Parse and validate one client frame.

    Args:
        text: the frame (a text frame; binary frames are refused).

    Returns:
        the message dict, valid against the schema.

    Raises:
        ProtocolError: ``too_big`` over :data:`MAX_MESSAGE_BYTES`, ``bad_json`` when not
            JSON, ``bad_message`` (naming the field) when it does not fit the schema.
    """
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "binary frames are not part of the protocol; send JSON text")
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"message of {len(text)} characters; the limit is {MAX_MESSAGE_BYTES}")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # the first clause only: Python's 4300-digit message goes on about sys.set_int_max_str_digits
        raise ProtocolError("bad_json", f"not JSON: {str(exc).split(';')[0][:120]}") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", f'expected a JSON object with a "type", got {type(msg).__name__}')
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "bad_message", f"type: expected one of {list(CLIENT_TYPES)}, got {str(kind)[:40]!r}"
        )
    try:
        errors = sorted(_validator(kind).iter_errors(msg), key=lambda e: list(e.path))
    except RecursionError:
        raise ProtocolError("bad_message", "message nested too deeply") from None
    if errors:
        e = errors[0]
        where = ".".join(str(p) for p in e.path) or kind
        hint = _HINTS.get(kind) if not e.path else None
        raise ProtocolError("bad_message", f"{where}: {hint or e.message[:200]}")
    return msg


def encode(msg: dict[str, Any]) -> str:
    """A server message as compact JSON text (``protocol`` added)."""
    return json.dumps({"protocol": PROTOCOL_VERSION, **msg}, separators=(",", ":"), ensure_ascii=False)


def error(code: str, message: str, **extra: Any) -> str:
    """An ``error`` reply."""
    return encode({"type": "error", "code": code, "message": message, **extra})
