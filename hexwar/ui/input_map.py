"""Input mapping of the play screen: keys and mouse buttons -> named intents.

The window looks an event up here and runs the intent's handler; what an intent does is the
window's and the controller's business, which keys mean it is this table's (and the help
overlay's, :data:`hexwar.ui.panels.SHORTCUTS`). Key codes equal pyglet's
(``pyglet.window.key``; a test checks), so this module imports no pyglet.
"""

from __future__ import annotations

from .widgets import keys as K

__all__ = ["PLAY_KEYS", "play_intent", "mouse_intent"]

_A = {c: ord(c.lower()) for c in "BCDEFGHKLPQRST"}
_NUM_ENTER, _NUM_1, _NUM_2 = 0xFF8D, 0xFFB1, 0xFFB2
_PLUS, _EQUAL, _MINUS, _NUM_ADD, _NUM_SUBTRACT, _F1 = 0x2B, 0x3D, 0x2D, 0xFFAB, 0xFFAD, 0xFFBE
_BRACKETLEFT, _BRACKETRIGHT = 0x5B, 0x5D

#: key code -> intent (modifiers other than Ctrl are ignored).
PLAY_KEYS: dict[int, str] = {
    K.ESCAPE: "cancel",
    K.SPACE: "end_phase",
    _A["E"]: "end_phase",
    K.ENTER: "confirm",
    _NUM_ENTER: "confirm",
    _A["R"]: "resolve",
    ord("1"): "weapon_1",
    _NUM_1: "weapon_1",
    ord("2"): "weapon_2",
    _NUM_2: "weapon_2",
    _A["P"]: "play_card",
    K.DELETE: "discard_card",
    K.BACKSPACE: "discard_card",
    K.TAB: "next_unit",
    _A["H"]: "help",
    _F1: "help",
    _A["L"]: "labels",
    _A["F"]: "fit",
    K.HOME: "fit",
    _PLUS: "zoom_in",
    _EQUAL: "zoom_in",
    _NUM_ADD: "zoom_in",
    _MINUS: "zoom_out",
    _NUM_SUBTRACT: "zoom_out",
    K.LEFT: "cursor_left",
    K.RIGHT: "cursor_right",
    K.UP: "cursor_up",
    K.DOWN: "cursor_down",
    _A["G"]: "act_here",
    _A["S"]: "select_here",
    _A["T"]: "next_target",
    _A["C"]: "pick_card",
    _A["B"]: "bonus",
    _A["D"]: "build_deck",
    _A["K"]: "keep_deck",
    _BRACKETLEFT: "card_prev",
    _BRACKETRIGHT: "card_next",
    K.PAGEUP: "log_older",
    K.PAGEDOWN: "log_newer",
    _A["Q"]: "quit_if_over",
}

_MOD_COMMAND = 1 << 6  # pyglet.window.key.MOD_COMMAND (macOS Cmd)


def play_intent(symbol: int, modifiers: int = 0) -> str | None:
    """The intent of a key press on the play screen (``None``: not a shortcut).

    Ctrl+Q (Cmd+Q) is ``quit``, Ctrl+Z ``undo`` (R12.3), Ctrl+R ``replay`` (the replay viewer
    of the game so far, issue 36); any other Ctrl combination is not a shortcut. The arrow keys move the hex cursor; with Shift they pan the map.
    """
    if modifiers & (K.MOD_CTRL | _MOD_COMMAND):
        return {_A["Q"]: "quit", ord("z"): "undo", _A["R"]: "replay"}.get(symbol)
    if modifiers & K.MOD_SHIFT and symbol in _PAN:
        return _PAN[symbol]
    return PLAY_KEYS.get(symbol)


_PAN = {K.LEFT: "pan_left", K.RIGHT: "pan_right", K.UP: "pan_up", K.DOWN: "pan_down"}


def mouse_intent(button: int) -> str:
    """The intent of a click on the map: left ``act`` (select / move / target / commit),
    right ``select`` (select only, cycling a stack), other buttons ``pan``."""
    return {K.MOUSE_LEFT: "act", K.MOUSE_RIGHT: "select"}.get(button, "pan")
