"""Campaign saves, replays, the card data validator and ``hexwar campaign`` (R11.2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexwar.campaign.cards import DATA_DIR, card_help, default_campaign_cards, load_campaign_cards
from hexwar.campaign.save import (
    ReplayError,
    load_campaign,
    read_campaign_save,
    replay_campaign,
    write_campaign_save,
)
from hexwar.cli import main
from hexwar.errors import ValidationError

CARDS = default_campaign_cards()


def _war_save(tmp_path: Path, seed: int = 3, *extra: str) -> Path:
    save = tmp_path / "war.json"
    assert (
        main(
            [
                "campaign",
                "--headless",
                "--ai",
                "german,soviet",
                "--seed",
                str(seed),
                "--save",
                str(save),
                "--json",
                *extra,
            ]
        )
        == 0
    )
    return save


def test_a_computer_war_saves_and_replays_exactly(tmp_path, capsys):
    save = _war_save(tmp_path, 3, "--advanced", "--events", "2", "--event-swap")
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and out["options"] == ["advanced", "event_swap", "events=2"]
    st = load_campaign(save)
    assert st.state_hash() == out["state_hash"] and st.over
    assert main(["replay", str(save), "--verify"]) == 0
    assert "replays exactly" in capsys.readouterr().out
    assert main(["validate", str(save)]) == 0


def test_a_tampered_campaign_save_fails_verification(tmp_path, capsys):
    save = _war_save(tmp_path)
    capsys.readouterr()
    data = json.loads(save.read_text())
    i = next(
        k for k, c in enumerate(data["commands"]) if c["cmd"] == "place_battle_card" and c["side"] == "german"
    )
    j = next(
        k
        for k, c in enumerate(data["commands"])
        if k > i and c["cmd"] == "place_battle_card" and c["side"] == "german"
    )
    data["commands"][i]["card"], data["commands"][j]["card"] = (
        data["commands"][j]["card"],
        data["commands"][i]["card"],
    )
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["replay", str(bad), "--verify"]) == 1
    assert "FAIL" in capsys.readouterr().out
    with pytest.raises(ReplayError):
        replay_campaign(read_campaign_save(bad))


def test_a_war_stopped_after_a_year_continues_from_its_save(tmp_path, capsys):
    save = tmp_path / "war.json"
    assert (
        main(
            [
                "campaign",
                "--headless",
                "--ai",
                "german,soviet",
                "--seed",
                "8",
                "--save",
                str(save),
                "--stop-after",
                "1941",
                "--json",
            ]
        )
        == 0
    )
    part = json.loads(capsys.readouterr().out)
    assert not part["over"] and part["year"] == 1942
    assert main(["campaign", str(save), "--headless", "--ai", "german,soviet", "--json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert whole["over"]
    ref = tmp_path / "ref.json"
    assert (
        main(["campaign", "--headless", "--ai", "german,soviet", "--seed", "8", "--save", str(ref), "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["state_hash"] == whole["state_hash"]  # same war either way


def test_continuing_a_save_refuses_new_options(tmp_path, capsys):
    save = _war_save(tmp_path)
    assert main(["campaign", str(save), "--headless", "--advanced"]) == 2
    assert "keeps its own seed and options" in capsys.readouterr().err


def test_save_refuses_to_overwrite_a_file_that_is_not_a_campaign_save(tmp_path, capsys):
    other = tmp_path / "notes.json"
    other.write_text("{}")
    assert main(["campaign", "--headless", "--ai", "german,soviet", "--save", str(other)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert other.read_text() == "{}"


def test_the_window_without_a_display_says_to_use_headless(capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["campaign"]) == 1
    assert "--headless" in capsys.readouterr().out


def test_hot_seat_hides_both_players_face_down_cards(tmp_path):
    from click.testing import CliRunner

    from hexwar.cli import cli

    res = CliRunner().invoke(
        cli,
        ["campaign", "--headless", "--ai", "none", "--seed", "2", "--stop-after", "1941"],
        input="0\n" * 400,
    )
    assert res.exit_code == 0, res.output
    assert (
        "Pass the terminal to the German player" in res.output
        and "Pass the terminal to the Soviet player" in res.output
    )
    for title in (c.title for c in CARDS.battle.values()):
        assert f"places {title} face down" not in res.output  # R12.1: the log shows "a battle card face down"
    assert "places a battle card face down" in res.output
    assert "P(win)" in res.output  # the exact odds beside every card


def test_terminal_player_against_the_computer_sees_its_own_cards(tmp_path):
    from click.testing import CliRunner

    from hexwar.cli import cli

    res = CliRunner().invoke(
        cli, ["campaign", "--headless", "--seed", "2", "--stop-after", "1941"], input="0\n" * 200
    )
    assert res.exit_code == 0, res.output
    assert "German places" in res.output and "Soviet places a battle card face down" in res.output
    assert "Pass the terminal" not in res.output


def test_lines_battles_are_refused_clearly_until_the_line_game_exists(tmp_path, capsys):
    from hexwar.campaign.battles import lines_available

    if lines_available():
        pytest.skip("hexwar.lines is installed: the lines hook is exercised elsewhere")
    assert (
        main(
            [
                "campaign",
                "--headless",
                "--ai",
                "german,soviet",
                "--battles",
                "lines",
                "--save",
                str(tmp_path / "w.json"),
            ]
        )
        == 2
    )
    assert "hexwar.lines" in capsys.readouterr().err


def test_card_help_text_is_generated_from_the_effects():
    assert card_help(CARDS, "flank_attack") == "Flank Attack (tactic): +3 to your armour battle score"
    assert card_help(CARDS, "ev_general_winter") == (
        "General Winter (event): -1 to the German armour battle score; -1 to the German infantry battle score"
    )
    assert card_help(CARDS, "de_tiger_abteilung") == "schwere Panzer-Abteilung (German armour): strength 7"
    assert card_help(CARDS, "su_uranus").startswith(
        "Operation Uranus (Soviet campaign card, once per war, cannot be countered)"
    )


def test_card_files_report_every_problem_at_once(tmp_path):
    d = tmp_path / "cards"
    shutil.copytree(DATA_DIR, d)
    t = (d / "tactics.toml").read_text()
    t = t.replace('kind = "score", value = 3, arm = "armour"', 'kind = "score", value = 3, arm = "cavalry"')
    t = t.replace('{ kind = "cancel_opponent_tactic" }', '{ kind = "read_minds" }')
    (d / "tactics.toml").write_text(t)
    e = (
        (d / "events.toml")
        .read_text()
        .replace(
            '{ kind = "score", value = 1, side = "soviet", arm = "infantry" }',
            '{ kind = "cancel_opponent_tactic" }',
            1,
        )
    )
    (d / "events.toml").write_text(e)
    b = (
        (d / "battle.toml")
        .read_text()
        .replace(
            "[battle.su_militia]",
            '[battle.su_militia_x]\nside = "soviet"\n'
            'title = "x"\narm = "infantry"\nvalue = 1\n\n[battle.su_militia]',
        )
    )
    (d / "battle.toml").write_text(b)
    with pytest.raises(ValidationError) as ei:
        load_campaign_cards(d)
    text = str(ei.value)
    assert "tactic.flank_attack.effects[0].arm" in text and "cavalry" in text
    assert "tactic.counter_intelligence.effects[0].kind" in text and "read_minds" in text
    assert "not allowed on events cards" in text
    assert "8 battle cards; expected 7" in text
    assert len(ei.value.problems) == 4


def test_every_shipped_campaign_card_file_validates(capsys):
    for f in sorted(DATA_DIR.glob("*.toml")):
        assert main(["validate", str(f)]) == 0, f


def test_write_campaign_save_is_atomic_and_readable(tmp_path):
    from hexwar.campaign.state import new_campaign

    st, _ = new_campaign(1)
    p = tmp_path / "w.json"
    write_campaign_save(st, p)
    assert read_campaign_save(p).seed == 1 and not list(tmp_path.glob(".w.json.*"))
