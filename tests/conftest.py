"""Shared test setup: hexwar's user state folder (outputs record, editor recovery) lives in a
per-session temporary folder, never in the real home folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _state_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.getbasetemp() / "state-home"))
