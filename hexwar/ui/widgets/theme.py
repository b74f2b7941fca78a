"""The toolkit's colours (RGBA 0-255), shared by the play screen, the editor and new screens."""

from __future__ import annotations

__all__ = [
    "Colour",
    "BG",
    "PANEL",
    "SECTION",
    "BUTTON",
    "BUTTON_HOVER",
    "BUTTON_DISABLED",
    "ACTIVE",
    "ACTIVE_HOVER",
    "TEXT",
    "DIM",
    "FAINT",
    "DARK",
    "ERROR",
    "GOOD",
    "ROLL",
    "LINE",
    "PARCHMENT",
    "PARCHMENT_EDGE",
    "FIELD",
    "FOCUS",
    "SIDE_UI",
    "TARGET_TEXT",
    "HINDERED_TEXT",
    "CLEAR_TEXT",
]

Colour = tuple[int, int, int, int]

BG: Colour = (30, 32, 36, 255)
PANEL: Colour = (41, 44, 49, 250)
SECTION: Colour = (51, 55, 61, 255)
BUTTON: Colour = (63, 68, 76, 255)
BUTTON_HOVER: Colour = (82, 88, 98, 255)
BUTTON_DISABLED: Colour = (52, 55, 60, 255)
ACTIVE: Colour = (219, 168, 64, 255)
ACTIVE_HOVER: Colour = (236, 190, 92, 255)
TEXT: Colour = (232, 230, 220, 255)
DIM: Colour = (158, 158, 148, 255)
FAINT: Colour = (112, 114, 108, 255)
DARK: Colour = (28, 26, 22, 255)
ERROR: Colour = (240, 104, 88, 255)
GOOD: Colour = (128, 198, 112, 255)
ROLL: Colour = (226, 196, 126, 255)
LINE: Colour = (18, 19, 21, 255)
PARCHMENT: Colour = (236, 226, 196, 255)
PARCHMENT_EDGE: Colour = (150, 128, 86, 255)
FIELD: Colour = (24, 25, 28, 255)
FOCUS: Colour = (120, 180, 255, 255)
#: Side colours of UI chips (not the counters: those come from the looks file).
SIDE_UI: dict[str, Colour] = {"german": (96, 124, 170, 255), "soviet": (200, 70, 60, 255)}
#: Tooltip state lines (legal target, LOS hindered, LOS clear / move here): apart from each
#: other under simulated deuteranopia, protanopia and tritanopia (tests/test_play_ux.py).
TARGET_TEXT: Colour = (255, 110, 130, 255)
HINDERED_TEXT: Colour = (255, 200, 60, 255)
CLEAR_TEXT: Colour = (110, 190, 255, 255)
