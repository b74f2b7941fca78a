"""Choosing between a real window and headless (EGL) rendering, before pyglet's GL loads.

pyglet decides at the moment ``pyglet.gl`` is first imported whether windows are real
(X11/Wayland/Cocoa/Win32) or headless EGL surfaces (``pyglet.options['headless']``); importing
``pyglet.gl`` with no display and ``headless`` unset creates a "shadow window" and crashes.
So every hexwar module that touches GL calls :func:`ensure_configured` *before* importing
``pyglet.gl``, ``pyglet.graphics``, ``pyglet.window`` or ``pyglet.text``; the command line
calls :func:`configure` first with the user's ``--headless`` choice.

This module itself imports only the ``pyglet`` package object (no GL), so importing it never
opens anything.

>>> display_available({"DISPLAY": ":0"}, platform="linux")
True
>>> display_available({}, platform="linux")
False
>>> display_available({}, platform="darwin")
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from ..errors import HexwarError

__all__ = [
    "NO_DISPLAY_MESSAGE",
    "NoDisplayError",
    "configure",
    "display_available",
    "ensure_configured",
    "gl_loaded",
    "is_headless",
    "require_display",
]

#: The one sentence ``hexwar play`` / ``hexwar edit`` print when a window cannot open.
NO_DISPLAY_MESSAGE = "no display available; use --headless"

#: Environment switch that forces headless rendering (``HEXWAR_HEADLESS=1``), e.g. in CI.
HEADLESS_ENV = "HEXWAR_HEADLESS"


class NoDisplayError(HexwarError):
    """A window was asked for where no display exists (or pyglet already went headless).

    Its message is one sentence for the user (:data:`NO_DISPLAY_MESSAGE` plus context).
    """


def display_available(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """True when a windowing system is reachable, judged without touching GL.

    On Linux and the BSDs a display exists when ``DISPLAY`` (X11) or ``WAYLAND_DISPLAY``
    is set and non-empty; Windows and macOS always have one for a desktop session.

    Args:
        environ: environment to inspect (default ``os.environ``).
        platform: ``sys.platform`` value to assume (default the running one).
    """
    env = os.environ if environ is None else environ
    plat = sys.platform if platform is None else platform
    if plat.startswith(("win", "cygwin", "darwin")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def gl_loaded() -> bool:
    """True once ``pyglet.gl`` has been imported (after that the mode cannot change)."""
    return "pyglet.gl" in sys.modules


def _env_forces_headless(environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    return env.get(HEADLESS_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def configure(headless: bool | None = None) -> bool:
    """Decide headless vs windowed before GL loads; return True when headless.

    Args:
        headless: ``True`` forces headless EGL rendering; ``False`` asks for real windows;
            ``None`` (auto) goes headless when ``HEXWAR_HEADLESS=1`` or no display is
            available (:func:`display_available`), and keeps the mode already chosen once
            pyglet's GL is loaded.

    Raises:
        NoDisplayError: ``headless=False`` but no display exists, or pyglet's GL was
            already loaded in the other mode (the choice can no longer change).
    """
    import pyglet

    if headless is None and gl_loaded():
        return bool(pyglet.options["headless"])  # auto: keep whatever this process already chose
    if headless is None:
        want = _env_forces_headless() or not display_available()
    else:
        want = bool(headless)
    if not want and not display_available():
        raise NoDisplayError(NO_DISPLAY_MESSAGE)
    if gl_loaded():
        current = bool(pyglet.options["headless"])
        if current != want:
            if want:
                raise NoDisplayError(
                    "pyglet already opened a display in this process; headless rendering is no longer possible"
                )
            raise NoDisplayError(
                NO_DISPLAY_MESSAGE + " (pyglet was already started headless in this process)"
            )
        return current
    pyglet.options["headless"] = want
    if want:
        # no shadow window needed: hexwar creates its own hidden headless window/context
        pyglet.options["shadow_window"] = False
    return want


def ensure_configured() -> bool:
    """Configure automatically unless already decided; return True when headless.

    Called at the top of every hexwar module that imports pyglet's GL parts.
    """
    import pyglet

    if gl_loaded():
        return bool(pyglet.options["headless"])
    if pyglet.options["headless"]:
        return True
    return configure(None)


def is_headless() -> bool:
    """True when pyglet is (or will be) headless in this process."""
    import pyglet

    return bool(pyglet.options["headless"])


def require_display() -> None:
    """Check that a real window can open; for ``hexwar play`` / ``hexwar edit``.

    Raises:
        NoDisplayError: with the sentence ``"no display available; use --headless"``.
    """
    if not display_available() or (gl_loaded() and is_headless()):
        raise NoDisplayError(NO_DISPLAY_MESSAGE)
