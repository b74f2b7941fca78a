"""The shared ``--ai-level`` parser (issues 30 and 31)."""

import pytest

from hexwar.cli.ai_level import AI_LEVELS, parse_ai_level
from hexwar.errors import HexwarError

SIDES = ("german", "soviet")


def test_one_level_sets_every_side():
    assert parse_ai_level("easy", SIDES, "hard") == {"german": "easy", "soviet": "easy"}


def test_per_side_levels_and_default_for_the_rest():
    assert parse_ai_level("german=hard,soviet=normal", SIDES, "easy") == {
        "german": "hard",
        "soviet": "normal",
    }
    assert parse_ai_level("soviet=easy", SIDES, "hard") == {"german": "hard", "soviet": "easy"}
    assert parse_ai_level(None, SIDES, "normal") == {"german": "normal", "soviet": "normal"}


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("brutal", "unknown level 'brutal'"),
        ("italian=hard", "unknown side 'italian'"),
        ("german=hard,german=easy", "named twice"),
        ("german=", "is not SIDE=LEVEL"),
        ("german=godlike", "unknown level 'godlike' for german"),
    ],
)
def test_bad_specs_name_what_is_wrong(spec, words):
    with pytest.raises(HexwarError, match=words):
        parse_ai_level(spec, SIDES, "normal")


def test_levels_are_the_issue_names():
    assert AI_LEVELS == ("easy", "normal", "hard")
