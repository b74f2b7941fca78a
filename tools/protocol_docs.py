#!/usr/bin/env python3
"""The message reference of docs/protocol.md, generated from the protocol's typed models.

The protocol's messages are declared once, as models (:mod:`hexwar.formats.protocol_file`: one
per message type, each mode's commands and view keys); this tool writes from their JSON Schema
(the one ``hexwar schema protocol`` prints) every message with its fields - type, required or
not, and the description a problem report says it "expected" - between
``<!-- messages:begin -->`` and ``<!-- messages:end -->``, and each mode's commands between
``<!-- commands:begin -->`` and ``<!-- commands:end -->``. The prose around them stays
hand-written. ``tests/test_net_protocol_models.py`` checks the reference is current.

Usage::

    python tools/protocol_docs.py            # rewrite the reference
    python tools/protocol_docs.py --check    # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
MARKERS = {
    "messages": ("<!-- messages:begin -->", "<!-- messages:end -->"),
    "commands": ("<!-- commands:begin -->", "<!-- commands:end -->"),
}


def _format_docs() -> Any:
    """tools/format_docs.py (the field rows and types of the file formats' references)."""
    spec = importlib.util.spec_from_file_location("format_docs", Path(__file__).with_name("format_docs.py"))
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _schema() -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from hexwar.formats.protocol_file import protocol_schema

    return protocol_schema()


def _text(desc: str) -> str:
    return " ".join(desc.replace("``", "`").split())


def _message(fd: Any, root: dict[str, Any], name: str, title: str) -> list[str]:
    node = root["$defs"][name]
    server = name.startswith("server_")  # every server message has "protocol": 1; said once above
    rows = [
        r
        for r in fd.rows(root, node)
        if not r.startswith(("| `type` ", "| `protocol` " if server else "| `type` "))
    ]
    out = [f"#### `{title}`", "", _text(node.get("description", "")), ""]
    if rows:
        out += ["| field | type | required / default | description |", "|---|---|---|---|", *rows, ""]
    else:
        out += ["No fields but `type`.", ""]
    return out


def messages(root: dict[str, Any]) -> list[str]:
    """The generated Markdown of every message (client, then server)."""
    fd = _format_docs()
    from hexwar.formats.protocol_file import CLIENT_TYPES, SERVER_TYPES

    out = [
        "Generated from the models (`hexwar/formats/protocol_file.py`) by `python tools/protocol_docs.py`:",
        "the same models `hexwar schema protocol` prints as JSON Schema and every frame is read through",
        '(the descriptions are the "expected ..." of the `bad_message` replies). Every message has',
        '`"type"`; every server message also `"protocol": 1`.',
        "",
        "### Client to server",
        "",
    ]
    for t in CLIENT_TYPES:
        out += _message(fd, root, t, t)
    out += ["### Server to client", ""]
    for t in SERVER_TYPES:
        out += _message(fd, root, f"server_{t}", t)
    return out


def commands(root: dict[str, Any]) -> list[str]:
    """The generated Markdown of each mode's commands and view keys."""
    from hexwar.formats.protocol_file import COMMAND_FIELDS, MODE_COMMANDS, MODE_VIEWS

    fd = _format_docs()
    out = [
        "Generated from the models by `python tools/protocol_docs.py` (`hexwar schema protocol`:",
        "`$defs.MODE_command`, `$defs.MODE_view`). Fields marked * may be left out.",
        "",
    ]
    for mode, cmds in MODE_COMMANDS.items():
        seat = COMMAND_FIELDS[mode][0]
        out += [f"`{mode}` (the seat as `{seat}`):", "", "| cmd | fields | when |", "|---|---|---|"]
        for cmd, model in cmds.items():
            node = root["$defs"][model.__name__]
            need = set(node.get("required", ()))
            fields = []
            for name, sub in node["properties"].items():
                if name in ("cmd", seat):
                    continue
                desc = _text(fd._resolve(root, sub).get("description", "")).replace("|", "\\|")
                fields.append(f"`{name}`{'' if name in need else '*'}: {desc}")
            when = _text(node["description"]).split(": ", 1)[1].rstrip(".")
            out.append(f"| `{cmd}` | {'; '.join(fields) or '-'} | {when} |")
        keys = ", ".join(f"`{k}`" for k in MODE_VIEWS[mode].model_fields)
        out += ["", f"Keys of every `{mode}` view: {keys}.", ""]
    return out


def render(text: str, root: dict[str, Any]) -> str:
    """``text`` with both generated sections replaced.

    Raises:
        SystemExit: when a pair of markers is missing (the sections are placed by hand once).
    """
    for part, (begin, end) in MARKERS.items():
        if begin not in text or end not in text:
            raise SystemExit(f"{DOC}: the {begin} ... {end} markers are missing")
        body = messages(root) if part == "messages" else commands(root)
        a, b = text.index(begin), text.index(end) + len(end)
        text = text[:a] + "\n".join([begin, "", *body, end]) + text[b:]
    return text


def main(argv: list[str] | None = None) -> int:
    """Rewrite the reference, or with ``--check`` exit 1 when it is stale."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/protocol.md is stale")
    args = ap.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    new = render(text, _schema())
    if new == text:
        return 0
    if args.check:
        print("stale: docs/protocol.md: run python tools/protocol_docs.py")
        return 1
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
