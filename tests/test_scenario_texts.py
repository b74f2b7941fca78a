"""Shipped scenarios speak to players, not to the source index: no bare rulebook seed number.

The rulebooks are cited in code and comments by their seed number (``000`` = Spearpoint 1943
Eastern Front, ``001``..``003``: RULES.md). A player does not know them: the card-game start
screen of ``hexwar play lines`` opened with "000's Standard Game: no map, ...".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexwar.game.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.toml"))
SEED_ID = re.compile(r"(?<![\w.,-])00[0-3](?![\w.,-])")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_player_facing_texts_name_no_rulebook_seed(path):
    sc = load_scenario(str(path))
    texts = {"name": sc.name, "description": sc.description or ""}
    for i, rule in enumerate(getattr(sc, "special_rules", None) or ()):  # card game on lines
        texts[f"special_rules[{i}]"] = str(rule)
    for field, text in texts.items():
        m = SEED_ID.search(text)
        assert m is None, f"{path.name}: scenario.{field} names rulebook seed {m.group()!r}: {text[:80]!r}"


def test_the_pattern_finds_a_seed_and_not_a_number():
    assert SEED_ID.search("000's Standard Game")
    assert SEED_ID.search("as written in 003 (R9)")
    assert not SEED_ID.search("1,000 points, 2000 games, A003 or 0.001")
