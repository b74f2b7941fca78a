"""Key and modifier codes the toolkit understands.

They equal pyglet's (``pyglet.window.key``; a test checks), defined here so the toolkit's
logic imports no pyglet and runs in tests without a window.
"""

from __future__ import annotations

__all__ = [
    "TAB", "ENTER", "RETURN", "ESCAPE", "BACKSPACE", "DELETE", "SPACE", "LEFT", "RIGHT", "UP", "DOWN",
    "HOME", "END", "PAGEUP", "PAGEDOWN", "MOD_SHIFT", "MOD_CTRL", "MOUSE_LEFT", "MOUSE_RIGHT",
]  # fmt: skip

TAB = 0xFF09
ENTER = 0xFF0D
RETURN = ENTER
ESCAPE = 0xFF1B
BACKSPACE = 0xFF08
DELETE = 0xFFFF
SPACE = 0x020
HOME = 0xFF50
LEFT = 0xFF51
UP = 0xFF52
RIGHT = 0xFF53
DOWN = 0xFF54
PAGEUP = 0xFF55
PAGEDOWN = 0xFF56
END = 0xFF57
MOD_SHIFT = 1 << 0
MOD_CTRL = 1 << 1
MOUSE_LEFT = 1
MOUSE_RIGHT = 4
