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


def test_card_scores_scale_the_lower_sides_line_forces(tmp_path):
    """docs/campaign.md "Battles on the map": in a line battle the side with the lower campaign
    battle score (3 against 8 here) keeps round(n * 3 / 8) of its starting units and that share
    of its Reserves budget and minimum; the other side is unchanged, and the scaled scenario
    still sets up a game. Prokhorovka's Soviet: 2 units -> round(0.75) = 1; budget 100 -> 38
    (round(37.5), to even); minimum 85 -> round(31.875) = 32."""
    import tomllib
    from pathlib import Path

    from hexwar.campaign.battles import LINES_SCENARIOS, scaled_lines_text
    from hexwar.game.scenario import find_scenario, load_scenario

    base = Path(find_scenario("lines_prokhorovka"))
    text = scaled_lines_text(base, {"soviet": (3, 8)})
    got = tomllib.loads(text)["sides"]
    before = tomllib.loads(base.read_text())["sides"]
    assert (
        len(got["soviet"]["units"]) == 1 and got["soviet"]["budget"] == 38 and got["soviet"]["minimum"] == 32
    )
    assert got["german"] == before["german"]
    for name in LINES_SCENARIOS[1943]:  # the weakest a side can be still builds its decks
        for side in ("german", "soviet"):
            p = tmp_path / f"{name}-{side}.toml"
            p.write_text(scaled_lines_text(Path(find_scenario(name)), {side: (0, 9)}))
            gs = load_scenario(p).new_game(seed=1)
            assert gs.seats
