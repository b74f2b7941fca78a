"""Shared test setup.

* hexwar's user state folder (outputs record, editor recovery) lives in a per-session temporary
  folder, never in the real home folder.
* The suite runs the same with or without a display attached (issue 36): unless
  ``HEXWAR_TEST_DISPLAY=1`` asks for real windows, the display variables are removed for the
  whole session and ``HEXWAR_HEADLESS=1`` is set, so every window a test opens (in this process
  or in a child process) is a hidden headless EGL surface and no test can open a real window on
  the desktop and wait for a user.
"""

from __future__ import annotations

import os

import pytest

#: Set to 1 to let window tests use the real display (the default is headless everywhere).
TEST_DISPLAY_ENV = "HEXWAR_TEST_DISPLAY"

if os.environ.get(TEST_DISPLAY_ENV, "").strip().lower() not in ("1", "true", "yes", "on"):
    for _name in ("DISPLAY", "WAYLAND_DISPLAY"):
        os.environ.pop(_name, None)
    os.environ["HEXWAR_HEADLESS"] = "1"


@pytest.fixture(autouse=True)
def _state_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.getbasetemp() / "state-home"))
