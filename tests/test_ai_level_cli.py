"""``--ai-level`` on every command where the computer plays (issue 31): the players it makes,
its errors, the head-to-head balance table. Tiny games only."""

from __future__ import annotations

import json

import pytest

from hexwar.cli import main
from hexwar.cli.game import apply_ai_level
from hexwar.cli.lines import seat_levels
from hexwar.errors import HexwarError

SEATS_4P = ("german-front", "german-support", "soviet-front", "soviet-support")


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_levels_map_standard_sides_and_keep_random_ones():
    both = {"german": "standard", "soviet": "standard"}
    assert apply_ai_level(both, None, ("german", "soviet")) == both  # computers only: normal
    assert apply_ai_level({"soviet": "standard"}, None, ("german", "soviet")) == {
        "soviet": "hard"
    }  # vs a person
    assert apply_ai_level(both, "soviet=easy", ("german", "soviet")) == {
        "german": "standard",
        "soviet": "easy",
    }
    assert apply_ai_level({"german": "random"}, "hard", ("german", "soviet")) == {"german": "random"}
    assert seat_levels({s: "standard" for s in SEATS_4P}, "german=hard", SEATS_4P) == {
        "german-front": "hard",
        "german-support": "hard",
        "soviet-front": "standard",
        "soviet-support": "standard",
    }
    assert (
        seat_levels({s: "standard" for s in SEATS_4P}, "soviet-support=easy", SEATS_4P)["soviet-support"]
        == "easy"
    )
    with pytest.raises(HexwarError, match="unknown level 'expert'"):
        apply_ai_level(both, "expert", ("german", "soviet"))


@pytest.mark.parametrize("scenario", ["lines", "standard"])
def test_play_headless_names_the_levels_it_played(capsys, scenario):
    rc, out, _ = run(
        capsys,
        "play",
        scenario,
        "--headless",
        "--turns",
        "1",
        "--json",
        "--ai-level",
        "german=hard,soviet=easy",
    )
    assert rc == 0
    assert json.loads(out)["players"] == {"german": "hard", "soviet": "easy"}


def test_a_bad_level_is_one_sentence(capsys):
    rc, out, err = run(capsys, "play", "lines", "--headless", "--turns", "1", "--ai-level", "german=genius")
    assert rc != 0 and "unknown level 'genius' for german" in out + err and "Traceback" not in out + err


def test_balance_head_to_head_plays_both_ways_and_reports_intervals(capsys):
    rc, out, _ = run(
        capsys,
        "balance",
        "standard",
        "--games",
        "2",
        "--max-turns",
        "1",
        "--ai-level",
        "german=hard,soviet=normal",
        "--head-to-head",
        "--json",
    )
    assert rc == 0
    data = json.loads(out)
    (row,) = data["head_to_head"]
    assert row["a"] == "hard" and row["b"] == "normal" and row["games"] == {"german": 1, "soviet": 1}
    lo, hi = row["a_rate"][1:]
    assert 0.0 <= lo <= row["a_rate"][0] <= hi <= 1.0
    pairings = sorted(g["variant"] for g in data["games"])
    assert pairings == ["default|german=hard,soviet=normal", "default|german=normal,soviet=hard"]
    assert len({g["seed"] for g in data["games"]}) == 1  # paired seeds


def test_head_to_head_needs_two_levels(capsys):
    rc, out, err = run(capsys, "balance", "standard", "--games", "2", "--ai-level", "hard", "--head-to-head")
    assert rc != 0 and "--head-to-head needs two levels" in out + err


def test_join_takes_a_level_only_for_a_computer_seat(capsys):
    rc, out, err = run(
        capsys, "join", "ws://127.0.0.1:9/g", "--seat", "german", "--token", "t", "--ai-level", "hard"
    )
    assert rc != 0 and "--ai-level is for --ai" in out + err
