"""``hexwar play --headless`` and ``hexwar replay --verify`` from the command line."""

from __future__ import annotations

import json

import pytest
from game_helpers import DATA

from hexwar.cli import main
from hexwar.cli.game import parse_ai, parse_rules
from hexwar.errors import HexwarError

TINY = str(DATA / "game_tiny.toml")


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_headless_json_gives_result_and_final_scores(capsys):
    rc, out, _ = run(capsys, "play", TINY, "--headless", "--seed", "3", "--json", "--rules", "classic")
    assert rc == 0
    d = json.loads(out)
    assert d["scenario"] == "test-tiny" and d["seed"] == 3 and d["variants"] == ["classic"]
    assert d["players"] == {"german": "standard", "soviet": "standard"}
    r = d["result"]
    assert r["winner"] in ("german", "soviet", None) and r["reason"] in ("points", "overrun", "turn limit")
    assert set(r["score"]) == {"german", "soviet"} and len(d["state_hash"]) == 64
    assert "winner" not in d and "score" not in d  # the result is printed once


def test_headless_prints_a_turn_by_turn_log_with_rolls(capsys):
    rc, out, _ = run(capsys, "play", TINY, "--headless", "--seed", "4", "--ai", "german=random,soviet")
    assert rc == 0
    assert "=== Turn 1 ===" in out and "wins initiative" in out and "roll: initiative german: 1d10" in out
    assert "-- Turn 1: commitment phase" in out
    assert out.rstrip().splitlines()[-1].startswith("Result: ")


def test_same_seed_same_game(capsys):
    _, a, _ = run(capsys, "play", TINY, "--headless", "--seed", "5", "--json")
    _, b, _ = run(capsys, "play", TINY, "--headless", "--seed", "5", "--json")
    da, db = json.loads(a), json.loads(b)
    assert da["state_hash"] == db["state_hash"] and da["commands"] == db["commands"]


def test_turn_cap_stops_the_game_unfinished(capsys):
    rc, out, _ = run(capsys, "play", TINY, "--headless", "--seed", "6", "--turns", "1", "--json")
    d = json.loads(out)
    r = d["result"]
    assert rc == 0 and r["reason"] == "stopped" and r["winner"] is None and r["turn"] == 2
    # the tiny scenario's one objective (E05) is held by nobody or somebody: its points are there
    assert set(r["objective_points"]) == {"german", "soviet"}


def test_save_then_replay_verify(capsys, tmp_path):
    save = tmp_path / "g.json"
    rc, _, _ = run(capsys, "play", TINY, "--headless", "--seed", "7", "--save", str(save), "--json")
    assert rc == 0 and save.exists()
    rc, out, _ = run(capsys, "replay", str(save), "--verify", "--scenario", TINY)
    assert rc == 0 and out.startswith("ok ") and "replays exactly" in out
    d = json.loads(save.read_text())
    d["commands"] = d["commands"][:-3]
    d["final"]["commands"] = len(d["commands"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    rc, out, _ = run(capsys, "replay", str(bad), "--verify", "--scenario", TINY)
    assert rc == 1 and out.startswith("FAIL ") and "differs" in out
    rc, out, _ = run(capsys, "replay", str(bad), "--verify", "--json", "--scenario", TINY)
    assert rc == 1 and json.loads(out)["ok"] is False


def test_bad_options_give_one_clear_error(capsys):
    rc, _, err = run(capsys, "play", TINY, "--headless", "--ai", "romanian")
    assert rc == 2 and "unknown side 'romanian'" in err and "Traceback" not in err
    rc, _, err = run(capsys, "play", TINY, "--headless", "--rules", "quantum")
    assert rc == 2 and "unknown rule variant 'quantum'" in err
    rc, _, err = run(capsys, "play", "no_such_scenario", "--headless")
    assert rc == 2 and "not found" in err


def test_without_a_display_play_offers_headless_in_one_sentence(capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    rc, out, _ = run(capsys, "play", TINY)
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert rc == 1 and len(lines) == 1 and "--headless" in lines[0]


def test_default_scenario_plays(capsys):
    rc, out, _ = run(capsys, "play", "--headless", "--turns", "1", "--json")
    assert rc == 0 and json.loads(out)["scenario"] in ("standard", "skirmish")


def test_option_parsers():
    assert parse_ai("german,soviet") == {"german": "standard", "soviet": "standard"}
    assert parse_ai("soviet=random") == {"soviet": "random"}
    assert parse_ai("none") == {}
    with pytest.raises(HexwarError):
        parse_ai("german=clever")
    assert parse_rules(("classic,burnout", "standard")) == ("classic", "burnout")
    assert parse_rules(()) is None


# -- bad input found by trying hexwar as a new user (see tests/test_robustness.py) ----------------
def test_negative_seed_is_a_usage_error_not_a_traceback(capsys):
    rc, _, err = run(capsys, "play", TINY, "--headless", "--seed", "-1")
    assert rc == 2 and "--seed" in err  # numpy's ValueError used to escape


def test_save_into_a_missing_folder_fails_before_the_game_starts(capsys, tmp_path):
    target = tmp_path / "nowhere" / "g.json"
    rc, out, err = run(capsys, "play", TINY, "--headless", "--seed", "3", "--save", str(target))
    assert rc == 2 and str(target.parent) in err and "does not exist" in err
    assert "Turn 1" not in out  # it used to play a whole turn first, then fail at the autosave


def test_save_never_overwrites_a_file_that_is_not_a_save(capsys, tmp_path):
    precious = tmp_path / "my_scenario.toml"
    precious.write_text(open(TINY).read())
    rc, _, err = run(
        capsys, "play", TINY, "--headless", "--seed", "3", "--turns", "1", "--save", str(precious)
    )
    assert rc == 2 and "not a hexwar save" in err and str(precious) in err
    assert precious.read_text() == open(TINY).read()
    old_save = tmp_path / "old.json"
    rc, _, _ = run(
        capsys, "play", TINY, "--headless", "--seed", "3", "--turns", "1", "--save", str(old_save), "--json"
    )
    rc, _, _ = run(
        capsys, "play", TINY, "--headless", "--seed", "4", "--turns", "1", "--save", str(old_save), "--json"
    )
    assert rc == 0 and json.loads(old_save.read_text())["seed"] == 4  # an old save may be replaced


def test_a_stopped_game_says_how_many_turns_were_played_and_is_no_draw(capsys):
    rc, out, _ = run(capsys, "play", TINY, "--headless", "--seed", "6", "--turns", "1")
    last = out.rstrip().splitlines()[-1]
    assert rc == 0 and "draw" not in last and "after turn 1" in last and "no winner yet" in last


def test_play_a_save_continues_the_game(capsys, tmp_path):
    save = tmp_path / "g.json"
    rc, _, _ = run(
        capsys, "play", TINY, "--headless", "--seed", "7", "--turns", "1", "--save", str(save), "--json"
    )
    assert rc == 0
    rc, out, _ = run(
        capsys, "play", str(save), "--scenario", TINY, "--headless", "--json", "--save", str(save)
    )
    assert rc == 0
    d = json.loads(out)
    full = tmp_path / "full.json"
    rc, out2, _ = run(capsys, "play", TINY, "--headless", "--seed", "7", "--json", "--save", str(full))
    assert d["state_hash"] == json.loads(out2)["state_hash"] and d["seed"] == 7
    rc, out, _ = run(capsys, "replay", str(save), "--verify", "--scenario", TINY)
    assert rc == 0 and "replays exactly" in out
    rc, _, err = run(capsys, "play", str(save), "--scenario", TINY, "--headless", "--seed", "3")
    assert rc == 2 and "--seed" in err


def test_terminal_player_refuses_negative_and_empty_choices(monkeypatch):
    # "-1" used to pick the last command (Python indexing) and an empty line command 0, so a
    # stray Enter fired an artillery mission at the first hex listed
    import click

    from hexwar.cli.game import TerminalPlayer
    from hexwar.game.scenario import load_scenario

    st = load_scenario(TINY).new_game(seed=3)
    st = _NumberedOptions(st)  # numbered options (the setup reads cards instead, setup_choice)
    side = st.to_act
    cmds = st.legal_commands(side)
    answers = iter(["-1", "", str(len(cmds)), " 1 "])
    asked: list[object] = []

    def prompt(text, **kw):
        asked.append(kw.get("default"))
        return next(answers)

    monkeypatch.setattr(click, "prompt", prompt)
    assert TerminalPlayer(side).choose(st) == cmds[1]
    assert asked == [None] * 4


def test_play_names_a_broken_or_foreign_json_file_as_json_not_toml(tmp_path, capsys):
    # a fresh-user find: `play broken.json` used to say "bad TOML"
    from hexwar.cli import main

    broken = tmp_path / "broken.json"
    broken.write_text('{"a": \n')
    assert main(["play", str(broken), "--headless"]) == 2
    err = capsys.readouterr().err
    assert "bad JSON" in err and "line 2 column 1" in err and "TOML" not in err
    other = tmp_path / "list.json"
    other.write_text("[1, 2]\n")
    assert main(["play", str(other), "--headless"]) == 2
    err = capsys.readouterr().err
    assert 'without a "format": "hexwar-save"' in err and "not a saved game" in err


class _NumberedOptions:
    """A game whose side to act has five numbered options (Discard), each its own menu line."""

    def __init__(self, st):
        self.turn, self.phase, self.variants, self.to_act = st.turn, "draw", (), st.to_act

    def legal_commands(self, side):
        from hexwar.game.commands import Discard

        return [Discard(side, f"su_rifles#{i}") for i in range(1, 6)]


def test_replay_names_a_hold_victory(capsys, tmp_path):
    """`hexwar replay --verify` reads a hold victory (R10.2) as the terminal's Result line does
    (it said "german wins by objectives in turn 1", which names neither the holding nor the turn)."""
    import shutil

    text = (DATA / "game_tiny.toml").read_text().replace("victory_points = 30", "victory_points = 300")
    (tmp_path / "hold.toml").write_text(text + '\n[victory.hold]\nside = "german"\nturn = 1\n')
    shutil.copy(DATA / "game_tiny_map.json", tmp_path / "game_tiny_map.json")
    scen, save = str(tmp_path / "hold.toml"), str(tmp_path / "h.json")
    rc, _, _ = run(capsys, "play", scen, "--headless", "--seed", "1", "--save", save, "--json")
    assert rc == 0
    rc, out, _ = run(capsys, "replay", save, "--verify", "--scenario", scen)
    assert rc == 0 and "german wins by holding every objective at the end of turn 1 (R10.2)" in out


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "a" * 300 + ".json", "--verify"],
        ["play", "a" * 300 + ".json", "--headless"],
        ["validate", "a" * 10_000 + ".toml"],
        ["play", "skirmish", "--headless", "--turns", "1", "--save", "a" * 300 + ".json"],
    ],
    ids=["replay", "play-save-file", "validate", "play-save-option"],
)
def test_a_file_name_too_long_for_the_file_system_is_one_line(tmp_path, monkeypatch, capsys, args):
    """A save or scenario name with a part over 255 bytes (the file system's ENAMETOOLONG from
    any command's stat) is one message naming it, clipped, status 2: it was an OSError
    traceback out of ``Path.is_file``."""
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err and len(err) < 200, err[:300]
    assert err.startswith("hexwar: 'aaaa") and err.endswith(
        "characters): cannot be used as a file name (File name too long)\n"
    ), err
