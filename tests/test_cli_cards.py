"""``hexwar cards``: the unit-card list (R4.1) that hexwar odds and scenario files refer to."""

from __future__ import annotations

import json

from hexwar.cli import main
from hexwar.rules.cards import default_cards


def test_lists_every_non_crew_card_of_a_side_with_its_numbers(capsys):
    assert main(["cards", "--side", "soviet", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    cs = default_cards()
    assert [r["id"] for r in rows] == [u.id for u in cs.side_units("soviet", crews=False)]
    t34 = next(r for r in rows if r["name"] == "T-34/76 (1943)")
    card = cs.unit(t34["id"])
    assert (t34["defense"], t34["endurance"], t34["cost"]) == (
        card.defense,
        [card.endurance_full, card.endurance_half],
        card.cost,
    )


def test_one_card_by_name_prints_its_generated_help(capsys):
    assert main(["cards", "Tiger I"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "de_tiger_i  Tiger I (german)"
    assert "8.8 cm KwK 36" in out


def test_unknown_card_is_one_sentence(capsys):
    assert main(["cards", "zzz"]) == 2
    assert capsys.readouterr().err == "hexwar: no unit card matches 'zzz'\n"
