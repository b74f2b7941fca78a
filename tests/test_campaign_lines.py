"""``--battles lines`` (R11.1 x R11.2): battles of 1943 fought as line games (issue 15).

Skipped where the line game (``hexwar.lines``) is not installed; the refusal itself is tested
in test_campaign_save.py.
"""

from __future__ import annotations

import json

import pytest

from hexwar.cli import main

pytest.importorskip("hexwar.lines.ai")


def test_a_lines_battle_campaign_year_played_headless(tmp_path, capsys):
    save = tmp_path / "w.json"
    assert (
        main(
            [
                "campaign",
                "--headless",
                "--ai",
                "german,soviet",
                "--seed",
                "3",
                "--battles",
                "lines",
                "--battle-turns",
                "1",
                "--save",
                str(save),
                "--stop-after",
                "1943",
                "--json",
            ]
        )
        == 0
    )
    capsys.readouterr()
    data = json.loads(save.read_text())
    games = [g["game"] for g in data["games"]]
    assert games == [f"w.1943-{n}.json" for n in range(1, 8)]
    for g in games:
        assert json.loads((tmp_path / g).read_text())["format"] == "hexwar-save"
    assert main(["replay", str(save), "--verify"]) == 0
    assert "7 battle games verified" in capsys.readouterr().out
