"""``hexwar sim scenario``: what-if games of a scenario's battlefield over turns (issue 23).

The test scenario: a 12 x 10 village; a stone church (DR 14) in F05 holding a German rifle
squad, wooden houses around it (the "village" area), a Soviet rifle squad in F09 that sees
the church across open ground, and Soviet off-board artillery (122 mm, DI 9, hits on 4+).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from hexwar.cli import main
from hexwar.game.commands import EndPhase, TargetArtillery
from hexwar.game.scenario import load_scenario
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.odds import p_two_d10_at_least
from hexwar.sim.scenario import (
    Ignition,
    ScenarioPlan,
    ScenarioSimError,
    load_plan,
    parse_ignite,
    parse_target,
    simulate_scenario,
)
from hexwar.sim.scenario_report import scenario_report, scenario_text

VILLAGE = ["E04", "G04", "E05", "G05", "E06", "G06"]  # wooden houses around the church

SCENARIO = """
format = "hexwar-scenario"
schema_version = 1

[scenario]
id = "test-village"
name = "Village what-if"
map = "village_map.json"
seed = 5
turns = 10
victory_points = 51
events = []

[areas]
village = ["E04..G06"]

[sides.german]
deploy = ["A01:B10"]
reserves = ["de_grenadiers", "de_grenadiers", "de_mg42_team", "de_pioniere", "de_sniper"]
hand = ["de_grenadiers"]

[[sides.german.units]]
card = "de_grenadiers"
hex = "F05"

[sides.soviet]
deploy = ["K01:L10"]
reserves = ["su_rifles", "su_rifles", "su_smg", "su_maxim_team", "su_sniper"]
hand = ["su_rifles"]

[[sides.soviet.units]]
card = "su_rifles"
hex = "F09"

[sides.soviet.artillery]
missions = 3
per_turn = 1
weapon = { name = "122 mm M-30 battery", attack = { infantry = 9, vehicle = 12, gun = 10 }, damage_index = 9 }

[[objectives]]
hex = "F05"
name = "Church"
points = 5
"""


@pytest.fixture(scope="module")
def village(tmp_path_factory):
    d = tmp_path_factory.mktemp("village")
    m = BattleMap.new(12, 10, name="Village")
    m.set_terrain(Hex.from_label("F05"), "stone_building")
    for lab in VILLAGE:
        m.set_terrain(Hex.from_label(lab), "wood_building")
    m.save(d / "village_map.json")
    (d / "village.toml").write_text(SCENARIO)
    return d / "village.toml"


@pytest.fixture(scope="module")
def scen(village):
    return load_scenario(village)


def _se(p: float, n: int) -> float:
    return math.sqrt(p * (1 - p) / n)


def test_areas_and_objectives_are_areas_of_the_scenario(scen):
    from hexwar.game.areas import scenario_areas

    areas = scenario_areas(scen)
    assert [h.label for h in areas["village"]] == [
        "E04",
        "E05",
        "E06",
        "F04",
        "F05",
        "F06",
        "G04",
        "G05",
        "G06",
    ]
    assert [h.label for h in areas["Church"]] == ["F05"]


def test_one_strike_on_the_church_exact_matches_the_hand_worked_case(scen):
    # R9.3: Soviets hit on 4+, so a strike lands on F05 with P = 1/2 (faces 4-6), else it drifts.
    # R8.2-R8.4: AV = 2d6 + DI 9 against DR 14: rubble on AV = 14 (2d6 = 5: 4/36), fire on
    # AV >= 15 (2d6 >= 6: 26/36). R6.3: the squad is hit on 2d10 >= 9 (72/100), no modifiers.
    plan = ScenarioPlan(tuple(parse_target("F05@1", scen)))
    r = simulate_scenario(scen, plan, turns=1, trials=400, seed=3)
    assert r.exact["F05"]["rubble"] == Fraction(1, 2) * Fraction(4, 36)
    assert r.exact["F05"]["burning"] == Fraction(1, 2) * Fraction(26, 36)
    squad = next(u for u in r.units if u.hex == Hex.from_label("F05"))
    assert r.exact[squad.uid]["attacked"] == Fraction(1, 2)
    assert r.exact[squad.uid]["hit"] == pytest.approx(0.5 * p_two_d10_at_least(9)) == pytest.approx(0.36)
    # and the Monte Carlo of the same game is within 3 standard errors of every exact value
    j = r.units.index(squad)
    b = r.buildings.index(Hex.from_label("F05"))
    for est, p in [
        (r.attacked[0, j], 0.5),
        (r.hit[0, j], 0.36),
        (r.destroyed[0, j], float(r.exact[squad.uid]["destroyed"])),
        (r.rubble[0, b], 1 / 36),
        (r.burning[0, b], 13 / 36),
    ]:
        assert abs(est / r.trials - p) <= 3 * _se(p, r.trials) + 1e-9, (est, p)


def test_three_missions_over_three_turns_accumulate(scen):
    plan = ScenarioPlan(tuple(parse_target("soviet:F05@1-3", scen)))
    r = simulate_scenario(scen, plan, turns=3, trials=150, seed=11)
    assert r.fired == [150, 150, 150]
    b = r.buildings.index(Hex.from_label("F05"))
    gone = r.rubble[:, b] + r.burning[:, b]
    assert np.all(np.diff(gone) >= 0) and gone[2] > gone[0]
    j = next(i for i, u in enumerate(r.units) if u.hex == Hex.from_label("F05"))
    for k in ("attacked", "hit", "destroyed"):
        assert np.all(np.diff(getattr(r, k)[:, j]) >= 0)
    assert r.attacked[2, j] > r.attacked[0, j]
    assert not r.exact  # three missions: Monte Carlo only


def test_a_mission_the_game_refuses_is_counted_with_its_reason(scen):
    # F02 is behind the houses and the church, out of the Soviet squad's sight from F09 (R9.2)
    plan = ScenarioPlan(tuple(parse_target("F02@1", scen)))
    r = simulate_scenario(scen, plan, turns=1, trials=5, seed=1)
    assert r.fired == [0] and r.refused[0] == {"no friendly ground unit has LOS to F02 (R9.2)": 5}
    # more missions in one turn than per_turn allows: the second is refused every time (R9.1)
    plan = ScenarioPlan(tuple(parse_target("F05@1,1", scen)))
    r = simulate_scenario(scen, plan, turns=1, trials=5, seed=1)
    assert r.fired == [5, 0] and "R9.1" in next(iter(r.refused[1])) and sum(r.refused[1].values()) == 5


def test_the_sim_is_the_games_own_resolution_over_the_same_seeds(scen):
    plan = ScenarioPlan(tuple(parse_target("F05@1", scen)))
    r = simulate_scenario(scen, plan, turns=1, trials=40, seed=21)
    seeds = [int(s.generate_state(1, dtype=np.uint32)[0]) for s in np.random.SeedSequence(21).spawn(40)]
    squad = next(u.uid for u in r.units if u.hex == Hex.from_label("F05"))
    destroyed = 0
    for s in seeds:
        st = scen.new_game(seed=s)
        while st.phase.value == "setup" if hasattr(st.phase, "value") else st.phase == "setup":
            st.apply(st.legal_commands()[0])
        st.apply(TargetArtillery(side="soviet", hex=Hex.from_label("F05")))
        while st.turn == 1 and str(getattr(st.phase, "value", st.phase)) != "commitment":
            st.apply(EndPhase(side=st.to_act))
        destroyed += squad not in st.units
    j = next(i for i, u in enumerate(r.units) if u.uid == squad)
    assert r.destroyed[0, j] == destroyed


def test_fires_spread_in_the_game_as_the_fire_harness_says(scen):
    # one fire lit before play in E05; after t Begin Turn spreads (R8.4) each house burns with
    # the probability the exact fire DP of hexwar sim fire gives, within 3 standard errors
    from hexwar.sim.exact import exact_fire_on_map

    plan = ScenarioPlan((), (parse_ignite("E05@0", scen),))
    r = simulate_scenario(scen, plan, turns=3, trials=300, seed=4)
    ex = exact_fire_on_map(scen.battlemap, [Hex.from_label("E05")], 3)
    worst = 0.0
    for k, h in enumerate(ex.hexes):
        b = r.buildings.index(h)
        for t in (1, 2, 3):
            p = float(ex.burning[t, k])
            est = r.burning[t - 1, b] / r.trials
            if 0 < p < 1:
                worst = max(worst, abs(est - p) / _se(p, r.trials))
            else:
                assert est == p
    assert worst <= 3.5
    rep = scenario_report(r)
    village = next(a for a in rep["areas"] if a["area"] == "village")
    assert village["buildings"] == 7
    probs = [row["all_burned"]["estimate"] for row in village["by_turn"]]
    assert probs == sorted(probs)


def test_plan_file_and_option_errors_name_what_was_expected(scen, tmp_path):
    p = tmp_path / "plan.toml"
    p.write_text('[[mission]]\nhex = "F05"\nturns = [1, 2]\n\n[[ignite]]\nhex = "E04"\nturn = 1\n')
    plan = load_plan(p, scen)
    assert [(m.hex.label, m.turn) for m in plan.missions] == [("F05", 1), ("F05", 2)]
    assert plan.ignitions == (Ignition(Hex.from_label("E04"), 1),)
    p.write_text('[[mission]]\nhex = "F05"\nturn = "one"\n')
    with pytest.raises(ScenarioSimError, match=r"mission\[0\]\.turns"):
        load_plan(p, scen)
    with pytest.raises(ScenarioSimError, match="german has no off-board artillery"):
        parse_target("german:F05@1", scen)
    with pytest.raises(ScenarioSimError, match="expected turns"):
        parse_target("F05@x", scen)
    with pytest.raises(ScenarioSimError, match="off the 12x10 map"):
        parse_target("Z99@1", scen)
    with pytest.raises(ScenarioSimError, match="holds no building"):
        parse_ignite("A01@0", scen)


def test_cli_answers_the_designers_question_in_one_command(village, capsys, tmp_path):
    csv = tmp_path / "out.csv"
    rc = main(
        [
            "sim",
            "scenario",
            str(village),
            "--target",
            "soviet:F05@1",
            "--turns",
            "1",
            "--trials",
            "60",
            "--seed",
            "2",
            "--json",
            "--csv",
            str(csv),
        ]
    )
    rep = json.loads(capsys.readouterr().out)
    assert rc == 0 and rep["exact_computed"] and rep["missions"][0]["fired"]["estimate"] == 1.0
    church = next(b for b in rep["buildings"] if b["hex"] == "F05")
    assert church["by_turn"][0]["burning"]["exact"] == pytest.approx(13 / 36, abs=1e-6)
    assert csv.read_text().startswith("what,id,turn,measure,estimate")
    assert "Village what-if" in scenario_text(rep)
    rc = main(["sim", "scenario", str(village), "--target", "F05@4", "--turns", "3"])
    assert rc == 2 and "after the last simulated turn 3" in capsys.readouterr().err
    rc = main(["sim", "scenario", str(village), "--turns", "3"])
    assert rc == 2 and "nothing to simulate" in capsys.readouterr().err
    rc = main(["sim", "scenario", str(village), "--ignite", "E05@0", "--area", "nowhere"])
    assert rc == 2 and "no area 'nowhere'" in capsys.readouterr().err


def test_odds_fires_a_scenarios_artillery_weapon_at_a_hex_of_its_map(capsys):
    # Kharkov's Soviet 122 mm battery (AV 9 against infantry, DI 9) on a Panzergrenadier squad
    # (Defense 0, Endurance 8) in N02 (open ground, terrain Defense 0): hit on 2d10 >= 9 (72%),
    # and every hit destroys it: Intensity 1-10 + 9 - 0 >= 10 > 8 (R6.5).
    rc = main(["odds", "Panzergrenadier squad", "--artillery", "kharkov:soviet", "--hex", "N02", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["artillery"]["weapon"] == "122 mm M-30 battery" and out["defense"] == 0
    assert out["outcomes"]["miss"] == pytest.approx(0.28, abs=1e-12)
    assert out["outcomes"]["destroyed"] == pytest.approx(0.72, abs=1e-12)
    # the same squad in a stone building (+3 soft, R6.7) survives a low Intensity
    rc = main(["odds", "Panzergrenadier squad", "--artillery", "skirmish:soviet", "--hex", "N06", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["defense"] == 3 and out["outcomes"]["destroyed"] < 0.72
    assert main(["odds", "Tiger I", "--artillery", "kharkov"]) == 2
    assert "SCENARIO:SIDE" in capsys.readouterr().err
    assert main(["odds", "Tiger I", "1", "T-70", "--hex", "N02"]) == 2
    assert "--hex needs a map" in capsys.readouterr().err


@pytest.mark.parametrize("flag,first", [("--events", "ev_"), ("--command", ""), ("--damage", "dmg")])
def test_cards_lists_events_command_and_damage_cards(flag, first, capsys):
    from hexwar.rules.cards import default_cards

    assert main(["cards", flag, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    cs = default_cards()
    expected = {"--events": cs.events, "--command": cs.command, "--damage": cs.damage}[flag]
    assert [r["id"] for r in rows] == sorted(expected) and all(r["id"].startswith(first) for r in rows)
    assert all(r["help"] for r in rows)
