"""Resize to a typed size with an anchor (the editor's Resize dialog, as in Wesnoth's editor).

The user types the new width and height in hexes and picks one of nine anchors: where the
old content stays (``"top-left"`` keeps it in the top-left corner and adds or trims columns
on the right and rows at the bottom; ``"centre"`` shares the change between both sides).
:func:`anchor_margins` turns that into the columns and rows added (positive) or trimmed
(negative) on each side for :func:`hexwar.editor.tools.resized_map`.

Columns on the left move by an *even* number only: in odd-q offset layout (R2.2) an odd shift
turns the low columns into high ones, which :func:`~hexwar.editor.tools.resized_map` answers by
adding a row, so a typed size would not be kept. A right or centred anchor with an odd change of
width therefore puts the odd column on the right, and the plan says so.

The content keeps its hex references: deploy zones (R5.2), objectives and starting units
(R10.2) and the scenario's ``[areas]`` move with their hexes (:func:`resize_plan`). A resize
that would push any of them off the map is refused with a message naming what would be lost,
never done silently.

>>> from hexwar.model.maps import BattleMap
>>> m = BattleMap.new(10, 8)
>>> anchor_margins(m, 14, 8, "right"), anchor_margins(m, 13, 8, "right")
((4, 0, 0, 0), (2, 1, 0, 0))
>>> anchor_margins(m, 10, 12, "centre"), anchor_margins(m, 6, 6, "bottom-left")
((0, 0, 2, 2), (0, -4, -2, 0))
>>> anchor_margins(m, 13, 8, "centre"), anchor_margins(m, 7, 8, "right")
((2, 1, 0, 0), (-2, -1, 0, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.hexgrid import Hex
from ..model.maps import MAX_MAP_SIDE, BattleMap, MapError

__all__ = ["ANCHORS", "ResizePlan", "anchor_margins", "resize_plan"]

#: The nine anchors, row by row as the dialog shows them.
ANCHORS = ("top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right")


def _fractions(anchor: str) -> tuple[float, float]:
    """``(share of the width change on the left, share of the height change on top)``."""
    if anchor not in ANCHORS:
        raise MapError(f"resize anchor: expected one of {', '.join(ANCHORS)}, got {anchor!r}")
    i = ANCHORS.index(anchor)
    col, row = i % 3, i // 3
    return (col / 2, row / 2)


def _half_away(v: float) -> int:
    """``v`` rounded to the nearest integer, halves away from zero."""
    return int(v + 0.5) if v >= 0 else -int(-v + 0.5)


def anchor_margins(m: BattleMap, width: int, height: int, anchor: str) -> tuple[int, int, int, int]:
    """``(left, right, top, bottom)`` columns/rows to add (positive) or trim (negative) so ``m``
    becomes ``width`` x ``height`` hexes with its content at ``anchor``.

    ``left`` is always even (module notes: the odd-q stagger); the remainder goes right.

    Raises:
        MapError: an unknown anchor, or a size outside 1..500 hexes.
    """
    for what, v in (("width", width), ("height", height)):
        if not 1 <= v <= MAX_MAP_SIDE:
            raise MapError(f"resize {what}: expected 1..{MAX_MAP_SIDE} hexes, got {v}")
    fx, fy = _fractions(anchor)
    dw, dh = width - m.width, height - m.height
    left = 2 * _half_away(dw * fx / 2)
    even = abs(dw) - abs(dw) % 2  # the most columns the left side may take: never more than dw,
    left = max(-even, min(even, left))  # so growing never trims the right, shrinking never adds
    top = _half_away(dh * fy)
    return (left, dw - left, top, dh - top)


@dataclass(frozen=True)
class ResizePlan:
    """What a resize to a typed size will do, for the dialog to show before it is applied.

    Attributes:
        width, height: the new size (hexes).
        margins: ``(left, right, top, bottom)`` from :func:`anchor_margins`.
        translation: the axial move of every old hex (:func:`~hexwar.editor.tools.resize_translation`).
        summary: one line saying what moves where.
        lost: what would fall off the map (deploy zones, objectives, units, areas); a plan with
            anything lost is refused.
    """

    width: int
    height: int
    margins: tuple[int, int, int, int]
    translation: Hex
    summary: str
    lost: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when nothing the scenario or map refers to would fall off."""
        return not self.lost


def _side_words(n: int, one: str, many: str) -> str:
    return f"{abs(n)} {one if abs(n) == 1 else many}"


def resize_plan(m: BattleMap, scenario: Any, width: int, height: int, anchor: str) -> ResizePlan:
    """Plan resizing ``m`` (and ``scenario``, a draft or ``None``) to ``width`` x ``height``.

    Raises:
        MapError: an unknown anchor or a size outside 1..500 (the dialog shows the message).
    """
    from .tools import resize_translation

    left, right, top, bottom = anchor_margins(m, width, height, anchor)
    t = resize_translation(left, top)
    parts = []
    for n, words in (
        (left, ("column on the left", "columns on the left")),
        (right, ("column on the right", "columns on the right")),
        (top, ("row at the top", "rows at the top")),
        (bottom, ("row at the bottom", "rows at the bottom")),
    ):
        if n:
            parts.append(("adds " if n > 0 else "trims ") + _side_words(n, *words))
    if not parts:
        summary = f"{width} × {height}: the size it has"
    else:
        summary = f"{m.width} × {m.height} → {width} × {height} anchored {anchor}: " + ", ".join(parts)
        fx, _ = _fractions(anchor)
        dw = width - m.width
        if fx > 0 and dw % 2:
            summary += " (columns shift in pairs to keep the hex stagger)"

    def gone(hexes: Any) -> list[Hex]:
        out = []
        for h in hexes:
            c, r = (h + t).offset
            if not (0 <= c < width and 0 <= r < height):
                out.append(h)
        return out

    lost: list[str] = []

    def note(what: str, hexes: list[Hex]) -> None:
        if hexes:
            labels = ", ".join(m.label(h) for h in sorted(hexes, key=lambda h: h.offset)[:3])
            more = f" and {len(hexes) - 3} more" if len(hexes) > 3 else ""
            lost.append(f"{what} {labels}{more}")

    if scenario is not None:
        from .scenario_draft import SIDES

        for side in SIDES:
            note(f"{side} deploy zone", gone(scenario.deploy_of(side)))
        note("objective", gone(o.hex for o in scenario.objectives))
        note("starting unit in", gone(u.hex for u in scenario.units if u.hex is not None))
        for name, hexes in scenario_areas(scenario, m).items():
            note(f"area {name!r}", gone(hexes))
    for side, hs in sorted(m.deploy.items()):
        note(f"map's {side} deploy marker", gone(hs))
    note("map objective marker", gone(o.hex for o in m.objectives))
    return ResizePlan(width, height, (left, right, top, bottom), t, summary, tuple(lost))


def scenario_areas(scenario: Any, m: BattleMap) -> dict[str, tuple[Hex, ...]]:
    """The scenario's ``[areas]`` as hexes (read by the game's own parser; broken ones empty)."""
    from ..game.areas import parse_area_hexes

    return {
        name: parse_area_hexes(specs, m, f"areas.{name}", lambda w, e: None)
        for name, specs in scenario.areas().items()
    }


def moved_scenario(scenario: Any, old: BattleMap, new: BattleMap, t: Hex) -> Any:
    """``scenario`` with every hex moved by ``t``: deploy zones, objectives, units and areas."""
    from .scenario_draft import zone_specs

    sc = scenario.translated(t, new)
    for name, hexes in scenario_areas(scenario, old).items():
        if hexes:
            specs = [z.replace(":", "..") for z in zone_specs(h + t for h in hexes)]
            sc = sc.with_rest(("areas", name), specs)
    return sc
