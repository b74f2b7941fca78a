"""``--battles hex`` (R11.2): battles of 1943 fought as the shipped 1943 hex scenarios.

The default run stops each hex game after one turn (a stopped game is drawn: the initiative
holder wins the battle); the slow test plays a whole year of full games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexwar.campaign.ai import make_player
from hexwar.campaign.battles import HexBattles, scaled_scenario_text
from hexwar.campaign.headless import play_war
from hexwar.campaign.options import CampaignOptions
from hexwar.campaign.save import load_campaign, read_campaign_save
from hexwar.campaign.state import new_campaign
from hexwar.cli import main


def _hex_war(tmp_path: Path, turns: int | None) -> tuple[object, Path]:
    st, _ = new_campaign(5, CampaignOptions(battles="hex"))
    save = tmp_path / "war.json"
    ps = {s: make_player("standard", s, 5) for s in ("german", "soviet")}
    run = play_war(st, ps, HexBattles(tmp_path, "war", turns=turns), save, stop_after_year=1943)  # type: ignore[arg-type]
    return run.state, save


def _check_1943(st: object, save: Path, tmp_path: Path) -> None:
    hist = [h for h in st.history if h.year == 1943]  # type: ignore[attr-defined]
    assert len(hist) == 7 and all(h.game == f"war.1943-{h.number}.json" for h in hist)
    assert all(h.game == "" for h in st.history if h.year < 1943)  # type: ignore[attr-defined]  # no 1941/42 scenarios
    names = [h.reason for h in hist]
    assert all("prokhorovka" in r or "ponyri" in r or "kharkov" in r or "dnieper" in r for r in names), names
    data = json.loads(save.read_text())
    assert [g["game"] for g in data["games"]] == [h.game for h in hist]
    for h in hist:
        game = json.loads((tmp_path / h.game).read_text())
        assert game["format"] == "hexwar-save"
    assert main(["replay", str(save), "--verify"]) == 0  # the war and every battle game replay exactly


@pytest.fixture(scope="module")
def short_hex_war(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path, Path]:
    d = tmp_path_factory.mktemp("hexwar_campaign")
    st, save = _hex_war(d, turns=1)
    return st, save, d


def test_a_hex_battle_campaign_year_played_headless_short_games(short_hex_war, capsys):
    st, save, tmp_path = short_hex_war
    _check_1943(st, save, tmp_path)
    assert "7 battle games verified" in capsys.readouterr().out
    assert load_campaign(save).state_hash() == st.state_hash()  # type: ignore[attr-defined]


@pytest.mark.slow
def test_a_hex_battle_campaign_year_played_headless_full_games(tmp_path):
    st, save = _hex_war(tmp_path, turns=None)
    _check_1943(st, save, tmp_path)
    assert any(h.winner is not None and "won the" in h.reason for h in st.history if h.year == 1943)  # type: ignore[attr-defined]


def test_a_changed_battle_game_fails_the_campaign_verification(short_hex_war, tmp_path, capsys):
    import shutil

    _, save0, d = short_hex_war
    for f in d.iterdir():
        shutil.copy(f, tmp_path / f.name)
    save = tmp_path / save0.name
    g = tmp_path / "war.1943-1.json"
    data = json.loads(g.read_text())
    data["seed"] += 1
    g.write_text(json.dumps(data))
    assert main(["replay", str(save), "--verify"]) == 1
    assert "war.1943-1.json" in capsys.readouterr().out
    assert read_campaign_save(save).games[0]["game"] == "war.1943-1.json"


def test_the_weaker_battle_card_side_keeps_fewer_starting_units(tmp_path):
    from hexwar.game.scenario import find_scenario, load_scenario

    base = load_scenario(find_scenario("prokhorovka"))
    n_ger = len(base.sides["german"].units)
    text = scaled_scenario_text(
        base.path, {"german": 2, "soviet": len(base.sides["soviet"].units)}, "prokhorovka"
    )  # type: ignore[arg-type]
    p = tmp_path / "p.toml"
    p.write_text(text)
    sc = load_scenario(p)
    assert len(sc.sides["german"].units) == 2 < n_ger
    assert sc.sides["german"].units == base.sides["german"].units[:2]
    assert sc.sides["soviet"].units == base.sides["soviet"].units


def test_battles_hex_without_a_save_is_refused(capsys):
    assert main(["campaign", "--headless", "--ai", "german,soviet", "--battles", "hex"]) == 2
    assert "give --save FILE" in capsys.readouterr().err
