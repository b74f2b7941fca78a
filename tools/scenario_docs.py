#!/usr/bin/env python3
"""The scenario sections of ``docs/scenarios.md``, generated from the scenario files.

Every number in those sections - turn limit, victory points, forces, card costs, artillery
profiles, objectives - is read from ``scenarios/*.toml`` and the card data through
:func:`hexwar.game.scenario.load_scenario` and :mod:`hexwar.game.ruleset`, so the document
cannot drift from the files (DESIGN: numbers live in one data file). The generated text
replaces whatever stands between ``<!-- scenarios:begin -->`` and ``<!-- scenarios:end -->``;
the rest of the document (introduction, the balance table written by ``tools/balance.py``)
is left alone. ``tests/test_scenarios.py`` checks the sections are up to date.

Usage::

    python tools/scenario_docs.py            # rewrite the sections
    python tools/scenario_docs.py --check    # exit 1 when they are stale
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "scenarios.md"
SCENARIOS = (
    "standard",
    "sinyavino",
    "stalingrad",
    "kharkov",
    "kuban",
    "ponyri",
    "teploye",
    "prokhorovka",
    "oboyan",
    "bolkhov",
    "bogodukhov",
    "saur_mogila",
    "dnieper",
)  # the documented ones, in order of 1943
BEGIN, END = "<!-- scenarios:begin -->", "<!-- scenarios:end -->"

__all__ = ["SCENARIOS", "section", "sections", "render_doc", "main"]


def _cards(ids: Sequence[str]) -> str:
    """``"2x Rifle squad (4), T-34/76 (1942) (13)"``: names with cost, repeats counted, file order."""
    from hexwar.game import ruleset

    counts = Counter(ids)
    out = []
    for cid in dict.fromkeys(ids):
        n = counts[cid]
        out.append(
            f"{n}x {ruleset.card_name(cid)} ({ruleset.cost(cid)})"
            if n > 1
            else f"{ruleset.card_name(cid)} ({ruleset.cost(cid)})"
        )
    return ", ".join(out)


def _zone(hexes: Sequence[Any]) -> str:
    """A deploy zone as the bounding rectangle of its hexes, with the hex count."""
    cols = [h.offset[0] for h in hexes]
    rows = [h.offset[1] for h in hexes]
    from hexwar.model.hexgrid import Hex

    a = Hex.from_offset(min(cols), min(rows)).label
    b = Hex.from_offset(max(cols), max(rows)).label
    return f"{a}:{b} ({len(hexes)} hexes)"


def section(name: str) -> str:
    """The Markdown section of scenario ``name`` (a file stem in ``scenarios/``)."""
    from hexwar.game import ruleset
    from hexwar.game.scenario import load_scenario
    from hexwar.rules.terrain_effects import default_effects

    sc = load_scenario(ROOT / "scenarios" / f"{name}.toml")
    bm = sc.battlemap
    lines = [
        f"## {sc.name}",
        "",
        f"![{sc.name}]({name}.png)",
        "",
        f"`hexwar play {name}` - map `{sc.map_path.relative_to(ROOT) if sc.map_path else '?'}` "
        f"({bm.width} x {bm.height} hexes), default seed {sc.seed}.",
        "",
    ]
    lines += [ln for ln in sc.description.strip().splitlines()] + [""]
    scored = "victory points plus objective points" if sc.objectives else "victory points"
    limit = f"{sc.turns} turns, then {scored} (equal: a draw)" if sc.turns else "no turn limit"
    rules = ", ".join(sc.variants) or "standard"
    events = ", ".join(ruleset.command_card(e).title for e in sc.events) or "none"
    lines += [
        "| | |",
        "|---|---|",
        f"| victory | {sc.victory_points} victory points at once{', or Overrun' if sc.overrun else ''}; {limit} |",
        f"| rules | {rules}{'; guns may move' if sc.guns_move else ''} |",
        f"| Events in the Command deck | {events} |",
    ]
    if sc.objectives:
        objs = "; ".join(
            f"{o.hex.label} {o.name} ({o.points} pts{', ' + o.holder if o.holder else ''})"
            for o in sc.objectives
        )
        lines.append(f"| objectives (points, holder at start) | {objs} |")
    special = []
    if sc.ground != "dry":
        special.append(f"{sc.ground} (R10.7)")
    if sc.night:
        special.append(
            f"night in turn{'s' if len(sc.night) > 1 else ''} {', '.join(map(str, sc.night))} (R10.6)"
        )
    bf = sc.battlefield
    if bf.mines:
        special.append(
            "minefields "
            + ", ".join(sorted((h.label for h in bf.mines), key=lambda x: (len(x), x)))
            + " (R10.5)"
        )
    if bf.crossings:
        special.append("river crossings " + ", ".join(h.label for h in bf.crossings) + " (R10.8)")
    placed = []
    if bf.fires:
        placed.append(f"{len(bf.fires)} fires")
    if bf.rubble:
        placed.append(f"{len(bf.rubble)} rubble hexes")
    if bf.wrecks:
        placed.append(f"{len(bf.wrecks)} wrecks")
    if placed:
        special.append("placed at the start: " + ", ".join(placed) + " (R10.3)")
    if special:
        lines.append(f"| special rules | {'; '.join(special)} |")
    if sc.hold is not None:
        lines.append(
            f"| hold victory | {sc.hold.side} wins at the end of turn {sc.hold.turn} holding every objective |"
        )
    for side in ("german", "soviet"):
        ss = sc.sides[side]
        title = side.capitalize()
        lines.append(f"| {title} deploy zone | {_zone(ss.deploy)} |")
        if ss.units:
            fixed = "; ".join(
                f"{su.hex.label if su.hex else 'aloft'} {ruleset.card_name(su.card)}"
                + (f" + {ruleset.card_name(su.crew)}" if su.crew else "")
                for su in ss.units
            )
            lines.append(f"| {title} starting units | {fixed} |")
        if ss.reserves:
            pts = sum(ruleset.cost(c) for c in ss.reserves)
            lines.append(f"| {title} Reserves deck ({pts} pts) | {_cards(ss.reserves)} |")
        else:
            pool = _cards(ss.pool) if ss.pool else f"every {side} card"
            lines.append(f"| {title} Reserves deck | drawn at random up to {ss.budget} points from: {pool} |")
        extra = []
        if ss.hand:
            extra.append("hand: " + _cards(ss.hand))
        if ss.initiative:
            extra.append(f"initiative {ss.initiative:+d}")
        if extra:
            lines.append(f"| {title} setup | {'; '.join(extra)} |")
        if ss.artillery is not None:
            a = ss.artillery
            hit = a.hit_on if a.hit_on is not None else default_effects().side_hit_on(side)
            att = ", ".join(f"{k} {v}" for k, v in a.weapon.attack.items())
            lines.append(
                f"| {title} artillery | {a.missions} missions, {a.per_turn} a turn, hit on {hit}+: "
                f"{a.weapon.name} ({att}; DI {a.weapon.damage_index}) |"
            )
    return "\n".join(lines) + "\n"


def sections(names: Sequence[str] = SCENARIOS) -> str:
    """Every documented scenario's section, in order."""
    return "\n".join(section(n) for n in names)


def render_doc(text: str, names: Sequence[str] = SCENARIOS) -> str:
    """``text`` with the generated sections between the markers.

    Raises:
        ValueError: when the markers are missing.
    """
    if BEGIN not in text or END not in text:
        raise ValueError(f"the markers {BEGIN} and {END} are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{sections(names)}{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry; returns the exit status."""
    ap = argparse.ArgumentParser(
        description="Write the scenario sections of docs/scenarios.md from the scenario files."
    )
    ap.add_argument("--check", action="store_true", help="exit 1 when the sections are stale; write nothing")
    args = ap.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    try:
        new = render_doc(text)
    except ValueError as exc:
        print(f"scenario_docs: {DOC}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if new != text:
            print(f"stale: {DOC.relative_to(ROOT)}; run python tools/scenario_docs.py")
            return 1
        print("ok: docs/scenarios.md is up to date")
        return 0
    from hexwar.fileio import atomic_write_text

    atomic_write_text(DOC, new)
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
