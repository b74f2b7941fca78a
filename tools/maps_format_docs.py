#!/usr/bin/env python3
"""The terrain-code table of ``docs/maps-format.md``, generated from the terrain data.

Every code, movement cost, LOS effect, height, Defense modifier and DR in the table is read from
``hexwar/data/terrain.toml`` through :func:`hexwar.model.terrain.default_terrain`, and the wreck
counters from the same rules data, so the document cannot drift from the rules (DESIGN: numbers
live in one data file). The text between ``<!-- terrain:begin -->`` and ``<!-- terrain:end -->``
is replaced; the rest of the document is prose. ``tests/test_maps.py`` checks it is current.

Usage::

    python tools/maps_format_docs.py            # rewrite the table
    python tools/maps_format_docs.py --check    # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "maps-format.md"
BEGIN, END = "<!-- terrain:begin -->", "<!-- terrain:end -->"


def _cost(v: float) -> str:
    return "-" if math.isinf(v) else (str(int(v)) if float(v).is_integer() else str(v))


def section() -> str:
    """The generated Markdown between the markers."""
    sys.path.insert(0, str(ROOT))
    from hexwar.model.terrain import default_terrain

    rules = default_terrain()
    lines = [
        BEGIN,
        "",
        "| code | key | name | LOS (R3.5) | height | move foot / tracked / wheeled (R5.3) | "
        "Defense soft / armored (R6.7) | DR (R8.2) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in rules.types:
        mv = " / ".join(_cost(t.move.get(k, math.inf)) for k in ("foot", "tracked", "wheeled"))
        code = "`" + t.code + "`"
        lines.append(
            f"| {code} | `{t.key}` | {t.name} | {t.los} | {t.height} | {mv} | "
            f"{t.defense_soft:+d} / {t.defense_armored:+d} | {t.dr if t.dr is not None else ''} |"
        )
    lines += [
        "",
        "`-`: the class may not enter. Wreck counters (`features.HEX.wrecks`, R8.1):",
        "",
        "| id | nationality | LOS symbol | Defense modifier |",
        "|---|---|---|---|",
    ]
    for w in sorted(rules.wrecks.values(), key=lambda w: w.id):
        mod = (
            f"{w.modifier:+d} ({'all ground units' if w.applies == 'all' else 'soft units only'})"
            if w.modifier
            else ""
        )
        lines.append(f"| `{w.id}` | {w.nationality} | {'yes' if w.los else 'no'} | {mod} |")
    lines += ["", END]
    return "\n".join(lines)


def render(text: str) -> str:
    """``text`` with the generated section replaced (or appended when the markers are missing)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + section() + tail
    return text.rstrip("\n") + "\n\n" + section() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/maps-format.md is stale")
    args = ap.parse_args(argv)
    old = DOC.read_text(encoding="utf-8")
    new = render(old)
    if args.check:
        if new != old:
            print(f"{DOC.relative_to(ROOT)} is stale: run python tools/maps_format_docs.py", file=sys.stderr)
            return 1
        return 0
    if new != old:
        DOC.write_text(new, encoding="utf-8")
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
