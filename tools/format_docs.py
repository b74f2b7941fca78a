#!/usr/bin/env python3
"""The field references of docs/maps-format.md and docs/scenarios-format.md, generated from the models.

Each file kind is declared once, as typed models (:mod:`hexwar.model.map_file`,
:mod:`hexwar.formats.scenario_file`); this tool writes their field tables - every field path,
its type and range, whether it is required or its default, and its description (the same text
a problem report says it "expected") - from the models' JSON Schema, between
``<!-- fields:begin -->`` and ``<!-- fields:end -->``. The prose around it (what a field means
in play, the rules of the file) stays hand-written. ``tests/test_file_models.py`` checks the
tables are current.

Usage::

    python tools/format_docs.py            # rewrite the tables
    python tools/format_docs.py --check    # exit 1 when one is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- fields:begin -->", "<!-- fields:end -->"


def _docs() -> dict[Path, tuple[str, dict[str, Any]]]:
    """Document -> (kind, the kind's JSON Schema)."""
    sys.path.insert(0, str(ROOT))
    from hexwar.formats.scenario_file import scenario_schema
    from hexwar.model.map_file import map_schema

    return {
        ROOT / "docs" / "maps-format.md": ("map", map_schema()),
        ROOT / "docs" / "scenarios-format.md": ("scenario", scenario_schema()),
    }


def _resolve(root: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str):
        node = {**root["$defs"][ref.rsplit("/", 1)[-1]], **{k: v for k, v in node.items() if k != "$ref"}}
    any_of = node.get("anyOf")
    if isinstance(any_of, list):
        real = [x for x in any_of if x.get("type") != "null"]
        if len(real) == 1:
            node = {**_resolve(root, real[0]), **{k: v for k, v in node.items() if k != "anyOf"}}
    return node


def _type(root: dict[str, Any], n: dict[str, Any]) -> str:
    """A short type and range: ``integer 1..500``, ``text /^[0-9]*$/``, ``list of text``."""
    if "const" in n:
        return f"`{json.dumps(n['const'])}`"
    if "enum" in n:
        return " / ".join(f"`{json.dumps(v)}`" for v in n["enum"])
    t = n.get("type")
    if t == "integer":
        lo, hi = n.get("minimum"), n.get("maximum")
        return "integer" + (
            f" {lo}..{hi}" if lo is not None and hi is not None else f" >= {lo}" if lo is not None else ""
        )
    if t == "string":
        pat = n.get("pattern")
        return "text" + (f" `{pat}`" if pat else "") + (" (1+ characters)" if n.get("minLength") == 1 else "")
    if t == "boolean":
        return "true / false"
    if t == "array":
        items = _resolve(root, n.get("items", {}))
        least = f", at least {n['minItems']}" if n.get("minItems") else ""
        inner = "table" if items.get("type") == "object" else _type(root, items)
        return f"list of {inner}{least}"
    if t == "object":
        return "table"
    return "any"


def rows(root: dict[str, Any], node: dict[str, Any], prefix: str = "") -> list[str]:
    """Markdown table rows of ``node``'s fields, depth first."""
    out = []
    node = _resolve(root, node)
    required = set(node.get("required", []))
    for name, sub in node.get("properties", {}).items():
        sub = _resolve(root, sub)
        path = f"{prefix}{name}"
        need = (
            "required"
            if name in required
            else f"`{json.dumps(sub['default'])}`"
            if sub.get("default") is not None
            else "-"
        )
        desc = (sub.get("description") or "").replace("|", "\\|").replace("\n", " ")
        typ = _type(root, sub).replace("|", "\\|")
        out.append(f"| `{path}` | {typ} | {need} | {desc} |")
        if sub.get("type") == "object" and "properties" in sub:
            out += rows(root, sub, path + ".")
        elif sub.get("type") == "object" and isinstance(sub.get("additionalProperties"), dict):
            key = sub.get("propertyNames", {}).get("description", "KEY")
            out += rows(root, sub["additionalProperties"], f"{path}.<{key}>.")
        elif sub.get("type") == "array":
            items = _resolve(root, sub.get("items", {}))
            if items.get("type") == "object":
                out += rows(root, items, f"{path}[].")
    return out


def section(kind: str, schema: dict[str, Any]) -> str:
    """The generated Markdown between the markers."""
    return "\n".join(
        [
            BEGIN,
            "",
            f"Every field of the {kind} file, generated from its typed model by `python tools/format_docs.py`",
            f"(the same model `hexwar schema {kind}` prints and every load checks first; the descriptions are",
            'the "expected ..." of the problem reports):',
            "",
            "| field | type | required / default | description |",
            "|---|---|---|---|",
            *rows(schema, schema),
            "",
            END,
        ]
    )


def render(text: str, kind: str, schema: dict[str, Any]) -> str:
    """``text`` with its generated section replaced (appended under a heading when missing)."""
    new = section(kind, schema)
    if BEGIN in text and END in text:
        a, b = text.index(BEGIN), text.index(END) + len(END)
        return text[:a] + new + text[b:]
    return text.rstrip("\n") + "\n\n## Field reference (generated)\n\n" + new + "\n"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the tables, or with ``--check`` exit 1 when one is stale."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a document is stale")
    args = ap.parse_args(argv)
    stale = []
    for doc, (kind, schema) in _docs().items():
        text = doc.read_text(encoding="utf-8")
        new = render(text, kind, schema)
        if new != text:
            stale.append(doc)
            if not args.check:
                doc.write_text(new, encoding="utf-8")
    if args.check and stale:
        print(
            "stale: "
            + ", ".join(str(p.relative_to(ROOT)) for p in stale)
            + ": run python tools/format_docs.py"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
