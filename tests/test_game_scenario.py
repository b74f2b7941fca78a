"""Scenario files: schema, collect-all-errors validation, map paths, decks and setup (R10.2, R11.3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from game_helpers import DATA, H, scenario

from hexwar.errors import ValidationError
from hexwar.game import ruleset
from hexwar.game.scenario import load_scenario, parse_scenario, parse_zone, validate_scenario_file
from hexwar.game.setup import build_budget_deck
from hexwar.game.state import Phase, check_invariants
from hexwar.model.hexgrid import HexLabelError
from hexwar.paths import content_dir
from hexwar.rules.dice import Dice
from hexwar.validate import validate_file

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = """
[scenario]
id = "mini"
name = "Mini"
map = "game_tiny_map.json"
turns = 5
override_reserves = true
[sides.german]
deploy = ["A01:B02"]
reserves = ["de_grenadiers"]
[sides.soviet]
deploy = ["J01"]
reserves = ["su_rifles"]
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    shutil.copy(DATA / "game_tiny_map.json", tmp_path / "game_tiny_map.json")
    p = tmp_path / name
    p.write_text(text)
    return p


def test_zone_rectangle_covers_columns_and_rows_in_offset_order():
    assert [h.label for h in parse_zone("B02:C03")] == ["B02", "B03", "C02", "C03"]
    assert [h.label for h in parse_zone("D07")] == ["D07"]
    with pytest.raises(HexLabelError):
        parse_zone("C03:B02")


def test_test_scenarios_load_with_their_fields():
    sc = scenario("game_small")
    assert sc.id == "test-small" and sc.turns == 6 and sc.victory_points == 40
    assert sc.battlemap.width == 14 and sc.battlemap.height == 10
    assert H("A01") in sc.sides["german"].deploy and H("B10") in sc.sides["german"].deploy
    assert len(sc.sides["german"].deploy) == 20
    assert sc.sides["german"].units[0].card == "de_pak40" and sc.sides["german"].units[0].hex == H("C05")
    assert (
        sc.sides["soviet"].artillery.missions == 1 and sc.sides["soviet"].artillery.weapon.damage_index == 9
    )
    assert [o.hex.label for o in sc.objectives] == ["G05"] and sc.objectives[0].points == 10
    assert sc.events == ("ev_panzer_aces",)
    assert len(sc.content_hash) == 64


def test_every_shipped_scenario_validates():
    files = sorted(content_dir("scenarios").glob("*.toml"))
    assert any(f.stem == "skirmish" for f in files)
    for f in files:
        assert validate_file(str(f)) == "hexwar-scenario"
        sc = load_scenario(f)
        g = sc.new_game()
        if getattr(g, "mode", "hex") == "lines":  # R11.1: line scenarios have their own invariants
            from hexwar.lines.state import check_invariants as lines_invariants

            assert not lines_invariants(g), f
        else:
            assert not check_invariants(g), f


def test_validator_is_registered_for_scenarios():
    assert validate_file(str(DATA / "game_small.toml")) == "hexwar-scenario"


def test_minimal_scenario_loads(tmp_path):
    sc = load_scenario(write(tmp_path, MINIMAL))
    assert sc.victory_points == 51 and sc.overrun and not sc.guns_move  # R10.1 defaults
    assert sc.sides["soviet"].deploy == (H("J01"),)


def test_broken_scenario_lists_every_problem_at_once(tmp_path):
    text = """
[scenario]
id = "broken"
name = "Broken"
map = "no_such_map.json"
rules = ["classic", "quantum"]
events = ["ev_not_an_event"]
[sides.german]
deploy = ["A01:Z40"]
reserves = ["de_grenadiers", "de_king_tiger"]
[sides.soviet]
deploy = ["J01"]
reserves = ["su_rifles", "de_grenadiers"]
[[objectives]]
hex = "Q99"
"""
    with pytest.raises(ValidationError) as exc:
        validate_scenario_file(str(write(tmp_path, text)))
    msgs = [f"{p.where}: {p.message}" for p in exc.value.problems]
    text_all = "\n".join(msgs)
    assert "scenario.map" in text_all and "not found" in text_all  # missing map
    assert "scenario.rules[1]" in text_all and "quantum" in text_all  # unknown variant
    assert "scenario.events[0]" in text_all and "ev_not_an_event" in text_all  # unknown Event
    assert "sides.german.reserves[1]" in text_all and "de_king_tiger" in text_all  # unknown card
    assert "sides.soviet.reserves[1]" in text_all and "german card" in text_all  # wrong side
    assert len(exc.value.problems) >= 5
    for p in exc.value.problems:
        assert p.file.endswith("s.toml")


def test_deploy_zone_and_objective_off_the_map_are_reported(tmp_path):
    text = (
        MINIMAL.replace('deploy = ["A01:B02"]', 'deploy = ["A01:B12", "Z01"]')
        + '[[objectives]]\nhex = "K09"\n'
    )
    with pytest.raises(ValidationError) as exc:
        load_scenario(write(tmp_path, text))
    wheres = [p.where for p in exc.value.problems]
    assert "sides.german.deploy[0]" in wheres and "sides.german.deploy[1]" in wheres
    assert "objectives[0].hex" in wheres
    assert any("off the map" in p.message and "10 x 8" in p.message for p in exc.value.problems)


def test_bad_toml_is_one_clear_problem(tmp_path):
    with pytest.raises(ValidationError) as exc:
        load_scenario(write(tmp_path, "[scenario\nid = 1"))
    assert len(exc.value.problems) == 1 and "bad TOML" in exc.value.problems[0].message


def test_map_path_may_not_escape_the_scenario_folder_or_maps(tmp_path):
    inner = tmp_path / "campaign"
    inner.mkdir()
    shutil.copy(DATA / "game_tiny_map.json", tmp_path / "outside.json")
    for ref in ("../outside.json", str(tmp_path / "outside.json"), "../../../../../etc/passwd"):
        p = inner / "s.toml"
        p.write_text(MINIMAL.replace('map = "game_tiny_map.json"', f'map = "{ref}"'))
        with pytest.raises(ValidationError) as exc:
            load_scenario(p)
        assert any("outside the project's maps/ folder" in x.message for x in exc.value.problems), ref


def test_map_by_shipped_name_and_by_subfolder_path(tmp_path):
    sc = parse_scenario(
        MINIMAL.replace('map = "game_tiny_map.json"', 'map = "steppe_village"'), tmp_path / "x.toml"
    )
    assert sc.battlemap.width == 30
    (tmp_path / "maps").mkdir()
    shutil.copy(DATA / "game_tiny_map.json", tmp_path / "maps" / "t.json")
    p = tmp_path / "s.toml"
    p.write_text(MINIMAL.replace('map = "game_tiny_map.json"', 'map = "maps/t.json"'))
    assert load_scenario(p).battlemap.width == 10


def test_starting_units_need_their_crews_and_the_stacking_limit(tmp_path):
    text = (
        MINIMAL
        + """
[[sides.german.units]]
card = "de_pz_iv_g"
hex = "C03"
[[sides.german.units]]
card = "de_grenadiers"
hex = "C03"
crew = "de_tank_crew_regular"
[[sides.german.units]]
card = "de_grenadiers"
hex = "C03"
[[sides.german.units]]
card = "de_grenadiers"
hex = "C03"
"""
    )
    with pytest.raises(ValidationError) as exc:
        load_scenario(write(tmp_path, text))
    msgs = "\n".join(str(p) for p in exc.value.problems)
    assert "needs a tank crew card" in msgs
    assert "takes no crew card" in msgs
    assert "stacking limit is 3" in msgs


def test_budget_deck_stays_within_budget_and_brings_crews():
    for seed in range(5):
        deck = build_budget_deck("soviet", 90, (), Dice(seed))
        total = sum(ruleset.cost(c) for c in deck)
        assert 80 <= total <= 90
        for c in deck:
            req = ruleset.crew_required(c)
            if req not in (None, "infantry"):
                assert any(ruleset.crew_fits(c, x) for x in deck), c
    pool = ("su_rifles", "su_t70", "su_tank_crew_green")
    deck = build_budget_deck("soviet", 80, pool, Dice(3))
    assert set(deck) <= set(pool) and sum(ruleset.cost(c) for c in deck) <= 80
    assert deck.count("su_t70") <= deck.count("su_tank_crew_green")
    assert build_budget_deck("soviet", 90, (), Dice(7)) == build_budget_deck("soviet", 90, (), Dice(7))


def test_new_game_deals_hands_places_units_and_builds_every_deck():
    g = scenario("game_small").new_game(seed=4)
    assert g.phase == Phase.SETUP and g.to_act == "soviet"  # the German hand is fixed
    assert sorted(c.split("#")[0] for c in g.hand_units["german"]) == sorted(
        ["de_grenadiers", "de_pz_iv_g", "de_tank_crew_regular", "de_sdkfz_251"]
    )
    pak = g.units["de_pak40#1"]
    assert pak.hex == H("C05") and g.units[pak.crew].crewing == "de_pak40#1"
    assert len(g.command_deck) == 51 and len(g.damage_deck) == 25  # 50 + one Event (R4.3)
    assert not check_invariants(g)


def test_the_documented_example_is_a_valid_scenario(tmp_path):
    doc = (ROOT / "docs" / "scenarios-format.md").read_text()
    example = doc.split("## A full example", 1)[1].split("```toml", 1)[1].split("```", 1)[0]
    p = tmp_path / "example.toml"
    p.write_text(example)
    sc = load_scenario(p)
    assert sc.id == "kursk-north" and sc.variants == ("classic",) and sc.sides["soviet"].budget == 90
    assert sc.hold is not None and sc.hold.turn == 8
    g = sc.new_game()
    assert not check_invariants(g)


def test_a_bad_artillery_value_is_one_problem_not_also_missing(tmp_path):
    # found by trying hexwar as a new user: `missions = -2` also reported "missing"
    art = (
        "[sides.german.artillery]\nmissions = -2\n"
        'weapon = { name = "b", attack = { infantry = 9 }, damage_index = "big" }\n'
    )
    with pytest.raises(ValidationError) as exc:
        load_scenario(write(tmp_path, MINIMAL.replace("[sides.soviet]", art + "[sides.soviet]")))
    msgs = [f"{p.where}: {p.message}" for p in exc.value.problems]
    assert [m for m in msgs if m.startswith("sides.german.artillery.missions")] == [
        "sides.german.artillery.missions: expected an integer 0..100, got -2"
    ]
    assert len([m for m in msgs if "damage_index" in m]) == 1 and not any("missing" in m for m in msgs)


def test_problem_texts_read_as_english(tmp_path):
    text = MINIMAL.replace('deploy = ["J01"]', 'deploy = ["Z01"]')
    with pytest.raises(ValidationError) as exc:
        load_scenario(write(tmp_path, text))
    assert any("(1 hex, e.g. Z01)" in p.message for p in exc.value.problems)
    assert (
        ruleset.crew_problem("de_pak40", "de_tank_crew_regular#1")
        == "Panzer crew (regular) is not an artillery crew"
    )
