"""The play screen's layout (issue 34 split of :mod:`hexwar.ui.panels`): the panel sizes, the
rectangles of the map, top bar, side panel and hand panel for a window size, the window-side
switches the panels show, and the keyboard shortcut list of the help overlay."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .widgets import Painter
from .widgets.theme import LINE, PANEL, SIDE_UI

__all__ = [
    "ARMS_CARD_W",
    "HAND_CARD_W",
    "HAND_H",
    "Layout",
    "MSG_H",
    "MIN_CARD_W",
    "PANEL_SOLID",
    "SHORTCUTS",
    "SIDE_W",
    "ScreenFlags",
    "TOP_H",
    "layout",
    "side_chip",
]

TOP_H = 48.0
HAND_H = 196.0
SIDE_W = 380.0
MSG_H = 44.0  # the status line and the End phase line above the hand
PANEL_SOLID = (PANEL[0], PANEL[1], PANEL[2], 255)  # the map never shows through the panels (item 9)
#: Hand cards are drawn as cards (issue 36, :mod:`hexwar.ui.card_face`): at most this wide, and
#: narrower than :data:`MIN_CARD_W` they scroll instead of shrinking (the header's icons,
#: Defense and cost leave the title too little room below it).
HAND_CARD_W = 176.0
MIN_CARD_W = 128.0
#: The width from which a hand card shows its Armament table (:mod:`hexwar.ui.card_face`).
ARMS_CARD_W = 168.0


#: The keyboard shortcuts of the play screen (shown by the help overlay, H or F1; the same
#: list is in docs/play.md). Every order can be given without the mouse (issue 17 item 3).
SHORTCUTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Orders",
        (
            ("Left click", "select, move, target"),
            ("Right click", "select (cycles a stack)"),
            ("Space or E", "end the phase"),
            ("Enter", "the highlighted button"),
            ("R", "resolve the next attack"),
            ("B", "resolve with +1 (R1.3)"),
            ("1, 2", "toggle weapons"),
            ("P", "play the picked card"),
            ("Delete", "discard the picked card"),
            ("Esc", "cancel"),
            ("Ctrl+Z", "undo (before any die)"),
            ("D / K", "setup: build / keep deck"),
        ),
    ),
    (
        "Keyboard play",
        (
            ("Arrow keys", "move the hex cursor"),
            ("G", "act / aim at the cursor"),
            ("S", "select at the cursor"),
            ("Tab", "next unit (aloft too)"),
            ("T", "next target, free first"),
            ("[ and ]", "card cursor in the hand"),
            ("C", "pick it; again: the next"),
            ("Window title", "the hex, in plain text"),
        ),
    ),
    (
        "View",
        (
            ("Wheel", "zoom at the mouse"),
            ("+ / -", "zoom at the hex cursor"),
            ("Right drag", "pan the map"),
            ("Shift+arrows", "pan the map"),
            ("F or Home", "fit the map"),
            ("L", "hex labels on / off"),
            ("PgUp / PgDn", "scroll the log"),
            ("H or F1", "this help"),
            ("Ctrl+Q", "quit (asks; autosaved)"),
            ("Ctrl+R", "replay viewer, luck"),
        ),
    ),
)


@dataclass(frozen=True)
class Layout:
    """Screen rectangles ``(x0, y0, x1, y1)`` in points.

    Attributes:
        map: the map area.
        top: the top bar.
        side: the right-hand panel (unit, odds, artillery, log).
        hand: the bottom panel (hint, hand, actions).
    """

    map: tuple[float, float, float, float]
    top: tuple[float, float, float, float]
    side: tuple[float, float, float, float]
    hand: tuple[float, float, float, float]


def layout(width: float, height: float) -> Layout:
    """The screen layout for a window of ``width`` x ``height`` points (narrow windows shrink
    the side panel and the hand panel, never below a usable size)."""
    side_w = min(SIDE_W, max(260.0, width * 0.3))
    hand_h = min(HAND_H, max(172.0, height * 0.24))
    top_h = TOP_H
    W, H = float(width), float(height)
    return Layout(
        map=(0.0, hand_h, max(1.0, W - side_w), max(hand_h + 1.0, H - top_h)),
        top=(0.0, H - top_h, W, H),
        side=(max(1.0, W - side_w), 0.0, W, H - top_h),
        hand=(0.0, 0.0, max(1.0, W - side_w), hand_h),
    )


@dataclass
class ScreenFlags:
    """Window-side switches the panels show.

    Attributes:
        show_help: the shortcut overlay is open.
        show_labels: hex labels are on.
        log_scroll: log lines scrolled up from the newest.
        tooltip: show the hover tooltip.
        extra: other switches; ``extra["quit_confirm"]`` holds the open quit question
            ``(title, lines)`` of :meth:`hexwar.ui.window_base.WindowBehaviour.question`.
    """

    show_help: bool = False
    show_labels: bool = True
    log_scroll: int = 0
    tooltip: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def side_chip(p: Painter, x: float, y: float, side: str, r: float = 6.0, z: int = 0) -> None:
    """A small circle in ``side``'s colour at ``(x, y)`` (points), radius ``r``, level ``z``."""
    p.circle(x, y, r + 1.2, LINE, z)
    p.circle(x, y, r, SIDE_UI[side], z)
