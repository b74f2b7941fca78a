"""Shared set-up of the headless play-window tests: pyglet over EGL (the importing test module
is skipped when this machine has none), a hidden :class:`~hexwar.ui.play_window.PlayWindow`
on a manual clock, and key presses dispatched as the window would receive them."""

from __future__ import annotations

from typing import Any

import pytest

from hexwar.render import backend

try:
    backend.configure(True)
    from pyglet.window import key

    from hexwar.ui.play_window import PlayWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)

from hexwar.ui.clock import ManualClock  # noqa: E402

__all__ = ["PlayWindow", "key", "press", "window_for"]


def window_for(
    state: Any, ai: dict[str, Any] | None = None, size: tuple[int, int] = (1200, 800), **kw: Any
) -> PlayWindow:
    """A hidden play window of ``state`` (``size`` in pixels), nothing scheduled, a manual clock."""
    return PlayWindow(
        state,
        ai=ai if ai is not None else {},
        width=size[0],
        height=size[1],
        visible=False,
        schedule=False,
        clock=ManualClock(),
        **kw,
    )


def press(win: PlayWindow, sym: int, mods: int = 0) -> None:
    """A key press (pyglet key symbol, modifier bits) dispatched to the window."""
    win.dispatch_event("on_key_press", sym, mods)
