"""The deck builder model: running total, crew warning, save to a deck file that validates."""

from __future__ import annotations

import pytest

from hexwar.errors import HexwarError
from hexwar.lines.deckbuilder import DeckBuilder
from hexwar.lines.scenario import load_deck


def test_the_deck_builder_keeps_a_running_total_warns_about_crews_and_saves_a_valid_deck(tmp_path):
    b = DeckBuilder("soviet", name="Guards")
    ids = [c for c, _ in b.catalogue()]
    assert "su_t34_76" in ids and not any(c.startswith("de_") for c in ids)
    text = dict(b.catalogue())["su_t34_76"]
    assert "76 mm F-34" in text and "cost 13" in text
    for c in (
        "su_t34_76",
        "su_t34_76",
        "su_kv_1s",
        "su_guards",
        "su_guards",
        "su_rifles",
        "su_rifles",
        "su_smg",
        "su_maxim_team",
        "su_zis3",
    ):
        b.add(c)
    assert b.points == 13 + 13 + 16 + 6 + 6 + 4 + 4 + 5 + 5 + 9
    errors, warnings = b.problems()
    assert errors == [] and any("T-34/76" in w and "tank crew" in w for w in warnings)
    assert any("ZiS-3" in w and "artillery crew" in w for w in warnings)
    with pytest.raises(HexwarError, match="not a soviet unit card"):
        b.add("de_tiger_i")
    p = tmp_path / "guards.toml"
    b.save(p)
    side, cards, warns = load_deck(p)
    assert side == "soviet" and list(cards) == b.cards and warns
    b.remove("su_kv_1s")
    b.remove("su_maxim_team")
    with pytest.raises(HexwarError, match="costs 60 points"):
        b.save(tmp_path / "small.toml")
