"""Scenario-placed battlefield state (R10.3): fires, rubble and wrecks by hex in ``[battlefield]``.

One code path: the scenario loader places them on a copy of the map file's map through the
``BattleMap`` API; every game, render and replay copies that map. Bad placements are reported
by ``hexwar validate`` with the field path and the hex.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.game.scenario import load_scenario, parse_scenario
from hexwar.model.maps import BattleMap

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = (ROOT / "scenarios" / "skirmish.toml").read_text(encoding="utf-8")


def _with(table: str, tmp_path: Path) -> Path:
    p = tmp_path / "bf.toml"
    p.write_text(SKIRMISH.replace("[sides.german]", table + "\n\n[sides.german]", 1), encoding="utf-8")
    return p


def test_kharkov_places_three_fires_four_rubble_hexes_and_four_wrecks_on_the_shipped_map():
    sc = load_scenario(ROOT / "scenarios" / "kharkov.toml")
    bm = sc.battlemap
    assert sorted(bm.label(h) for h in bm.hexes() if bm.has_fire(h)) == ["J12", "Q07", "Z09"]
    assert sorted(
        bm.label(h) for h in bm.hexes() if bm.has_rubble(h) and bm.label(h) in ("Q05", "U05", "M11", "S12")
    ) == ["M11", "Q05", "S12", "U05"]
    assert {
        bm.label(h): list(w) for h, w in bm.wrecks.items() if bm.label(h) in ("P06", "T06", "L04", "P10")
    } == {"P06": ["su-5"], "T06": ["su-3"], "L04": ["de-5"], "P10": ["su-4"]}
    # the map file itself is the ordinary shipped map: nothing burns there
    plain = BattleMap.load(ROOT / "maps" / "kharkov.json")
    assert not any(plain.has_fire(h) for h in plain.hexes())
    assert sc.map_path is not None and sc.map_path.name == "kharkov.json"


def test_a_game_starts_on_the_placed_state_and_does_not_change_the_scenario_map():
    sc = load_scenario(ROOT / "scenarios" / "kharkov.toml")
    g = sc.new_game(seed=3)
    q07 = g.battlemap.hex_at("Q07")
    assert g.battlemap.has_fire(q07) and g.battlemap.fire_turns[g.battlemap.index(q07)] == 0
    g.battlemap.set_fire(q07, False)
    assert sc.battlemap.has_fire(q07)  # the game works on its own copy


def test_placed_state_goes_on_the_named_hexes_of_a_small_scenario(tmp_path):
    p = _with(
        '[battlefield]\nfires = ["N12"]\nrubble = ["I08"]\nwrecks = { A01 = ["de-1", "de-3"] }', tmp_path
    )
    bm = load_scenario(p).battlemap
    assert bm.has_fire(bm.hex_at("N12")) and bm.has_rubble(bm.hex_at("I08"))
    assert bm.wrecks_at(bm.hex_at("A01")) == ["de-1", "de-3"]  # bottom of the stack first (R8.1)
    assert not bm.has_fire(bm.hex_at("I08"))


@pytest.mark.parametrize(
    ("table", "where", "words"),
    [
        ('fires = ["A01"]', "battlefield.fires[0]", ["A01", "fire needs an intact building"]),
        ('rubble = ["N12", "H05"]', "battlefield.rubble[1]", ["H05", "rubble needs a building"]),
        ('rubble = ["N12"]\nfires = ["N12"]', "battlefield.fires[0]", ["N12", "rubble"]),
        (
            'wrecks = { A01 = ["de-1", "tiger-99"] }',
            "battlefield.wrecks.A01[1]",
            ["tiger-99", "unknown wreck"],
        ),
        ('fires = ["ZZ99"]', "battlefield.fires[0]", ["off the map"]),
        ('fires = ["N12", "N12"]', "battlefield.fires[1]", ["already listed"]),
        ('smoke = ["N12"]', "battlefield.smoke", ["unknown field"]),
    ],
)
def test_a_bad_placement_is_reported_with_its_field_and_hex(tmp_path, table, where, words):
    p = _with("[battlefield]\n" + table, tmp_path)
    with pytest.raises(ValidationError) as ei:
        load_scenario(p)
    hits = [pr for pr in ei.value.problems if pr.where == where]
    assert hits, [str(x) for x in ei.value.problems]
    assert all(w in hits[0].message for w in words), str(hits[0])


def test_hexwar_validate_names_the_field_and_hex_of_a_bad_fire(tmp_path, capsys):
    p = _with('[battlefield]\nfires = ["A01"]', tmp_path)
    assert main(["validate", str(p)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert "battlefield.fires[0]" in text and "A01" in text


def test_placed_state_is_part_of_the_scenario_hash():
    a = parse_scenario(SKIRMISH, ROOT / "scenarios" / "skirmish.toml")
    b = parse_scenario(
        SKIRMISH.replace("[sides.german]", '[battlefield]\nfires = ["N12"]\n\n[sides.german]', 1),
        ROOT / "scenarios" / "skirmish.toml",
    )
    assert a.content_hash != b.content_hash
    assert b.battlefield.fires == (b.battlemap.hex_at("N12"),) and not a.battlefield


# -- R10.4: copies of one card in a pool-built deck --------------------------------------------
def test_a_pool_built_deck_holds_at_most_max_copies_of_one_card():
    from hexwar.game.setup import build_budget_deck
    from hexwar.rules.dice import Dice

    # hand-worked: Grenadier squads cost 5; budget 100 holds 20 of them without a limit, 3 with it
    assert build_budget_deck("german", 100, ("de_grenadiers",), Dice(1)) == ["de_grenadiers"] * 20
    assert (
        build_budget_deck("german", 100, ("de_grenadiers",), Dice(1), max_copies=3) == ["de_grenadiers"] * 3
    )
    # a crew is not limited: three Pz IV G (14) each bring a regular crew (2): 48 points
    deck = build_budget_deck("german", 100, ("de_pz_iv_g", "de_tank_crew_regular"), Dice(1), max_copies=3)
    assert deck == ["de_pz_iv_g", "de_tank_crew_regular"] * 3


def test_the_shipped_standard_game_draws_no_more_than_three_copies_of_a_card():
    from collections import Counter

    from hexwar.game import ruleset

    sc = load_scenario(ROOT / "scenarios" / "standard.toml")
    assert {s.max_copies for s in sc.sides.values()} == {3}
    for seed in range(30):
        g = sc.new_game(seed=seed)
        for side in ("german", "soviet"):
            cards = [c.rsplit("#", 1)[0] for c in g.reserves[side] + g.hand_units[side]]
            n = Counter(c for c in cards if not ruleset.is_crew(c))
            assert max(n.values()) <= 3, (seed, side, n.most_common(2))


def test_max_copies_needs_a_budget_deck(tmp_path):
    p = tmp_path / "mc.toml"
    p.write_text(
        SKIRMISH.replace("[sides.german]\n", "[sides.german]\nmax_copies = 3\n", 1), encoding="utf-8"
    )
    with pytest.raises(ValidationError) as ei:
        load_scenario(p)
    assert any(pr.where == "sides.german.max_copies" for pr in ei.value.problems)
