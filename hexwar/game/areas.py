"""Named areas of a scenario: "the village", "the bridgehead" (docs/rules.md, hexwar's own).

A scenario may name groups of hexes in an ``[areas]`` table, for the designer's questions
(``hexwar sim scenario``, ``sim fire``, the balance report: who held which area at the end)::

    [areas]
    village = ["F05", "F06", "G05..H07"]   # single hexes and offset rectangles
    church = ["G06"]

A range ``A..B`` is every hex whose column lies between the columns of ``A`` and ``B`` and whose
row lies between their rows (offset coordinates, R2.2), both ends included. Objectives are areas
too: :func:`scenario_areas` adds one area per objective, named after the objective (its name, or
its hex label) unless an area of that name exists.

>>> from hexwar.model.maps import BattleMap
>>> m = BattleMap.new(10, 10)
>>> [h.label for h in parse_area_hexes(["B02..C03", "E05"], m, "areas.x", lambda w, e: None)]
['B02', 'B03', 'C02', 'C03', 'E05']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap

__all__ = ["MAX_AREAS", "parse_area_hexes", "parse_areas", "scenario_areas"]

MAX_AREAS = 64  #: at most this many named areas in one scenario
_NAME_MAX = 40


def parse_area_hexes(
    items: Any, battlemap: BattleMap, where: str, bad: Callable[[str, str], None]
) -> tuple[Hex, ...]:
    """Parse one area's hex list: labels (``"D07"``) and ranges (``"B02..C05"``).

    Args:
        items: the TOML value, expected a list of strings.
        battlemap: the scenario's map (every hex must lie on it).
        where: the field path for messages (``"areas.village"``).
        bad: ``bad(field_path, expected)`` collects a problem (nothing is raised).

    Returns:
        the area's hexes, sorted by column then row, without repeats (empty when broken).
    """
    if not isinstance(items, list) or not items:
        bad(where, 'expected a non-empty list of hex labels or ranges such as "B02..C05"')
        return ()
    out: set[Hex] = set()
    for i, it in enumerate(items):
        w = f"{where}[{i}]"
        if not isinstance(it, str):
            bad(w, f'expected a hex label or a range "A..B", got {str(it)[:40]!r}')
            continue
        ends = it.split("..")
        if len(ends) > 2:
            bad(w, f'expected one hex label or one range "A..B", got {it[:40]!r}')
            continue
        try:
            hs = [Hex.from_label(e.strip()) for e in ends]
        except HexLabelError as exc:
            bad(w, str(exc))
            continue
        off = [h.offset for h in hs]
        c0, c1 = sorted((off[0][0], off[-1][0]))
        r0, r1 = sorted((off[0][1], off[-1][1]))
        if (c1 - c0 + 1) * (r1 - r0 + 1) > battlemap.width * battlemap.height:
            bad(w, f"range {it[:40]!r} is larger than the map")
            continue
        for c in range(c0, c1 + 1):
            for r in range(r0, r1 + 1):
                h = Hex.from_offset(c, r)
                if not battlemap.in_bounds(h):
                    bad(w, f"{h.label} is off the {battlemap.width}x{battlemap.height} map")
                    break
                out.add(h)
            else:
                continue
            break
    return tuple(sorted(out, key=lambda h: h.offset))


def parse_areas(
    table: dict[str, list[str]] | None, battlemap: BattleMap, bad: Callable[[str, str], None]
) -> dict[str, tuple[Hex, ...]]:
    """Parse a scenario's ``[areas]`` table (name -> hex list), collecting every problem.

    Args:
        table: the table as the scenario's model read it (names of 1 to 40 characters, at most
            :data:`MAX_AREAS` of them, lists of labels and ranges: checked by
            :class:`hexwar.formats.scenario_file.ScenarioFile`), or ``None``.
        battlemap: the scenario's map (every hex must lie on it).
        bad: ``bad(field_path, expected)`` collects a problem.

    Raises nothing: problems go to ``bad(field_path, expected)``.
    """
    out: dict[str, tuple[Hex, ...]] = {}
    for name, items in (table or {}).items():
        if not name.strip():
            bad(f"areas.{name}", f"an area name of 1 to {_NAME_MAX} characters")
            continue
        hexes = parse_area_hexes(items, battlemap, f"areas.{name}", bad)
        if hexes:
            out[name] = hexes
    return out


def scenario_areas(scenario: Any, names: Sequence[str] | None = None) -> dict[str, tuple[Hex, ...]]:
    """A scenario's named areas plus one area per objective (docs/rules.md).

    Args:
        scenario: a :class:`~hexwar.game.scenario.Scenario` (its ``areas`` and ``objectives``).
        names: keep only these areas, in this order.

    Raises:
        KeyError: naming an area the scenario does not have, with the ones it has.
    """
    areas: dict[str, tuple[Hex, ...]] = dict(getattr(scenario, "areas", {}) or {})
    for o in getattr(scenario, "objectives", ()):
        nm = o.name or o.hex.label
        areas.setdefault(nm, (o.hex,))
    if names is None:
        return areas
    missing = [n for n in names if n not in areas]
    if missing:
        raise KeyError(
            f"no area {missing[0]!r} in this scenario; it has: {', '.join(sorted(areas)) or 'none'}"
        )
    return {n: areas[n] for n in names}
