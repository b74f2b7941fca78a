"""The protocol's frame check as it was before the typed models, kept as a test oracle.

tests/test_net_protocol_models.py compares it with today's
:func:`hexwar.net.protocol.parse_client_message` (the models of
:mod:`hexwar.formats.protocol_file`) on the protocol fuzz corpora (issue 34). The code is a
frozen copy of ``parse_client_message`` of hexwar/net/protocol.py before the models, with the
hand-written schema it read (tests/data/legacy_schemas/protocol.schema.json). Do not change it:
it is the "before" of the comparison.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hexwar.net.protocol import ProtocolError

MAX_MESSAGE_BYTES = 64 * 1024
CLIENT_TYPES = ("hello", "command", "sync", "ping", "list", "create")
SCHEMA = Path(__file__).parent / "data" / "legacy_schemas" / "protocol.schema.json"
_HINTS = {"hello": 'a hello takes a seat with "seat" and "token", or watches with "watch": true'}


@cache
def schema() -> dict[str, Any]:
    """The hand-written protocol schema."""
    return json.loads(SCHEMA.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    s = schema()
    return Draft202012Validator({"$defs": s["$defs"], "$ref": f"#/$defs/{kind}"})


def old_parse_client_message(text: str | bytes) -> dict[str, Any]:
    """The old check: the message, or ProtocolError naming the first field that does not fit."""
    if isinstance(text, bytes):
        raise ProtocolError("bad_message", "binary frames are not part of the protocol; send JSON text")
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_big", f"message of {len(text)} characters; the limit is {MAX_MESSAGE_BYTES}")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as exc:
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
    return msg  # type: ignore[no-any-return]
