"""Named areas in ``hexwar sim fire`` and sweeps over targets, ignition hexes and scenario fields
with per-hex and per-area outputs (issue 23).

The small map: wooden houses (DR 13, R8.4) in C03, D03 and D04 on an 8 x 6 map, a lone house in
F03. C03 touches D03 only, D03 touches D04: a chain. A fire spreads to an intact neighbour on
2d6 + 6 >= 13, i.e. 2d6 >= 7, p = 21/36 = 7/12 per burning neighbour per Begin Turn (R8.4).
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction

import pytest

from hexwar.cli import main
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.sim.exact import exact_fire_on_map
from hexwar.sim.fire import simulate_fire

P = Fraction(7, 12)
H = Hex.from_label


def chain_map() -> BattleMap:
    m = BattleMap.new(8, 6, name="Chain")
    for lab in ("C03", "D03", "D04", "F03"):
        m.set_terrain(H(lab), "wood_building")
    return m


@pytest.fixture(scope="module")
def chain_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("chain") / "chain.json"
    chain_map().save(p)
    return p


AREAS = {
    "row": tuple(H(x) for x in ("C03", "D03", "D04")),
    "all": tuple(H(x) for x in ("C03", "D03", "D04", "F03")),
    "field": (H("A01"),),
}


def test_p_all_of_an_area_burned_is_the_hand_worked_chain():
    # by turn 1 D04 cannot burn (the fire needs D03 first); by turn 2 both spreads must succeed:
    # p^2; by turn 3: D03 at turn 1 then D04 at turn 2 or 3, or D03 only at turn 2 then D04 at 3:
    # p (1 - (1-p)^2) + (1-p) p p. F03 touches no other house: "all" never burns down.
    ex = exact_fire_on_map(chain_map(), [H("C03")], 3, areas=AREAS)
    hand = [0, 0, P * P, P * (1 - (1 - P) ** 2) + (1 - P) * P * P]
    assert [round(float(x), 12) for x in ex.area_all[:, 0]] == [0.0] + [round(float(x), 12) for x in hand[1:]]
    assert list(ex.area_all[:, 1]) == [0.0] * 4 and list(ex.area_all[:, 2]) == [0.0] * 4
    assert ex.area_burned[1, 0] == pytest.approx(float(1 + P))  # C03 and D03 with p
    r = simulate_fire(chain_map(), [H("C03")], 3, trials=20_000, seed=5, areas=AREAS)
    assert list(r.area_buildings) == [3, 4, 0]
    n = r.trials
    for t in range(4):
        p = float(hand[t])
        se = math.sqrt(p * (1 - p) / n)
        assert abs(r.area_all[t, 0] / n - p) <= 3 * se + 1e-12, (t, r.area_all[t, 0], p)
        assert r.area_all[t, 1] == 0 and r.area_all[t, 2] == 0
    # without burnout a fire never goes out: burning = burned
    assert (r.area_burning == r.area_burned).all()


def test_sim_fire_reports_areas_of_the_cli_and_of_a_scenario(capsys, chain_file, tmp_path):
    out_csv = tmp_path / "fire.csv"
    rc = main(
        [
            "sim",
            "fire",
            str(chain_file),
            "--ignite",
            "C03",
            "--turns",
            "2",
            "--trials",
            "4000",
            "--seed",
            "1",
            "--area",
            "row=C03..D04",
            "--area",
            "lone=F03",
            "--json",
            "--csv",
            str(out_csv),
        ]
    )
    rep = json.loads(capsys.readouterr().out)
    assert rc in (0, None)
    row = next(a for a in rep["areas"] if a["area"] == "row")
    assert row["buildings"] == 3 and row["by_turn"][2]["exact_p_all_burned"] == pytest.approx(
        49 / 144, abs=1e-6
    )
    lo, hi = row["by_turn"][2]["p_all_burned_ci95"]
    assert lo <= row["by_turn"][2]["p_all_burned"] <= hi
    lone = next(a for a in rep["areas"] if a["area"] == "lone")
    assert lone["by_turn"][2]["p_all_burned"] == 0.0 and lone["buildings"] == 1
    rows = [r for r in csv.DictReader(io.StringIO(out_csv.read_text())) if r["area"]]
    assert [(r["area"], r["turn"]) for r in rows] == [(a, str(t)) for a in ("row", "lone") for t in range(3)]
    # a scenario's [areas] and objectives are scored by default
    rc = main(["sim", "fire", "skirmish", "--ignite", "N06", "--turns", "2", "--trials", "200", "--json"])
    names = [a["area"] for a in json.loads(capsys.readouterr().out)["areas"]]
    assert rc in (0, None) and names[0] == "village" and "Stone church" in names
    assert main(["sim", "fire", "skirmish", "--ignite", "N06", "--turns", "2", "--area", "nowhere"]) == 2
    assert "no such area; the scenario has:" in capsys.readouterr().err
    assert main(["sim", "fire", str(chain_file), "--ignite", "C03", "--turns", "2", "--area", "x=Z99"]) == 2
    assert "--area x[0]" in capsys.readouterr().err


# -- sweeps over places, with per-hex and per-area outputs -----------------------------------------
def _rows(capsys, *args):
    rc = main(["sim", "sweep", *args])
    out = capsys.readouterr().out
    assert rc in (0, None), out
    return list(csv.DictReader(io.StringIO(out)))


def test_sweep_fire_varies_the_ignition_hex_with_per_hex_and_per_area_columns(capsys, chain_file):
    rows = _rows(
        capsys,
        "fire",
        str(chain_file),
        "--turns",
        "2",
        "--vary",
        "ignite=C03..F04",
        "--seeds",
        "0",
        "--trials",
        "3000",
        "--hex",
        "D04",
        "--area",
        "row=C03..D04",
    )
    # the range C03..F04 (columns C-F, rows 3-4) keeps its building hexes, column by column
    assert [r["ignite"] for r in rows] == ["C03", "D03", "D04", "F03"]
    by = {r["ignite"]: r for r in rows}
    p = float(P)
    # from C03, D04 burns by turn 2 only after D03 at turn 1: p^2; so does the whole row
    assert float(by["C03"]["D04:p_burned_by_exact"]) == pytest.approx(p * p, abs=1e-6)
    assert float(by["C03"]["row:p_all_burned_exact"]) == pytest.approx(p * p, abs=1e-6)
    # from D03 (the middle), C03 and D04 each get two tries: (1 - (1-p)^2)^2 for the row
    q = 1 - (1 - p) ** 2
    assert float(by["D03"]["row:p_all_burned_exact"]) == pytest.approx(q * q, abs=1e-6)
    assert float(by["D03"]["row:expected_burned_exact"]) == pytest.approx(1 + 2 * q, abs=1e-6)
    # the lone house F03 reaches no house of the row
    assert float(by["F03"]["row:expected_burned"]) == 0.0 and float(by["F03"]["D04:p_burned_by"]) == 0.0
    for r in rows:  # Monte Carlo within 3 standard errors of the exact values
        for mc, ex in (
            ("row:p_all_burned", "row:p_all_burned_exact"),
            ("D04:p_burned_by", "D04:p_burned_by_exact"),
        ):
            e = float(r[ex])
            assert abs(float(r[mc]) - e) <= 3 * math.sqrt(e * (1 - e) / 3000) + 1e-9, (r["ignite"], mc)


def test_sweep_artillery_varies_the_target_with_per_hex_and_per_area_columns(capsys, chain_file):
    from hexwar.rules.cards import default_cards

    di = default_cards().weapons["m30"].damage_index  # the Soviet default profile on a bare map
    rc = main(
        [
            "sim",
            "sweep",
            "artillery",
            str(chain_file),
            "--side",
            "soviet",
            "--vary",
            "target=C03,A01",
            "--seeds",
            "0",
            "--trials",
            "4000",
            "--hex",
            "C03",
            "--area",
            "row=C03..D04",
            "--json",
        ]
    )
    js = json.loads(capsys.readouterr().out)
    assert rc in (0, None) and [r["target"] for r in js] == ["C03", "A01"]
    c03 = js[0]["hexes"]["C03"]
    # R9.3: Soviets hit on 4+: the strike stays on C03 with P = 1/2; a drifted strike lands at
    # least one hex away. R8.2-R8.4 on the house (DR 13): fire on 2d6 + DI >= 14, rubble on = 13.
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    fire = Fraction(sum(1 for s in two_d6 if s + di >= 14), 36)
    rubble = Fraction(sum(1 for s in two_d6 if s + di == 13), 36)
    assert c03["strikes_exact"] == 0.5
    assert c03["p_burning_exact"] == pytest.approx(float(fire / 2), abs=1e-6)
    assert c03["p_rubble_exact"] == pytest.approx(float(rubble / 2), abs=1e-6)
    assert abs(c03["p_burning"] - float(fire / 2)) <= 3 * math.sqrt(
        float(fire / 2) * (1 - float(fire / 2)) / 4000
    )
    row = js[0]["areas"]["row"]
    assert row["buildings"] == 3 and row["p_all_gone"] == 0.0  # one strike reaches one house
    assert js[0]["p_target_exact"] == 0.5 and js[1]["hexes"]["C03"]["strikes_exact"] < 0.05


def test_sweep_scenario_varies_a_field_and_the_target(capsys, tmp_path):
    from tests.test_sim_scenario import SCENARIO, VILLAGE

    m = BattleMap.new(12, 10, name="Village")
    m.set_terrain(H("F05"), "stone_building")
    for lab in VILLAGE:
        m.set_terrain(H(lab), "wood_building")
    m.save(tmp_path / "village_map.json")
    (tmp_path / "village.toml").write_text(SCENARIO)
    rc = main(
        [
            "sim",
            "sweep",
            "scenario",
            str(tmp_path / "village.toml"),
            "--target",
            "soviet:F05@1",
            "--turns",
            "1",
            "--vary",
            "sides.soviet.artillery.hit_on=3..4",
            "--vary",
            "target=F05,F02",
            "--trials",
            "150",
            "--seeds",
            "0",
            "--hex",
            "F05",
            "--area",
            "village",
        ]
    )
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rc in (0, None)
    assert [(r["sides.soviet.artillery.hit_on"], r["target"]) for r in rows] == [
        ("3", "F05"),
        ("3", "F02"),
        ("4", "F05"),
        ("4", "F02"),
    ]
    # R9.3: hit on 3+ keeps the strike on the church with P = 4/6, on 4+ with 3/6; R8.3: rubble
    # on AV = DR: 2d6 + 9 = 14, 2d6 = 5 (4/36)
    for r, land in ((rows[0], Fraction(4, 6)), (rows[2], Fraction(3, 6))):
        ex = float(land * Fraction(4, 36))
        assert float(r["F05:p_rubble_exact"]) == pytest.approx(ex, abs=1e-6)
        assert abs(float(r["F05:p_rubble"]) - ex) <= 3 * math.sqrt(ex * (1 - ex) / 150) + 1e-9
        assert r["fired"] == "1.0" and int(r["village:buildings"]) == 7
    # F02 is out of the Soviet squad's sight (R9.2): never fired, so no exact value and no harm
    assert (
        rows[1]["fired"] == "0.0" and rows[1]["F05:p_rubble"] == "0.0" and rows[1]["F05:p_rubble_exact"] == ""
    )
    # a field the scenario has not got is named with the ones it has
    rc = main(
        [
            "sim",
            "sweep",
            "scenario",
            str(tmp_path / "village.toml"),
            "--target",
            "F05@1",
            "--turns",
            "1",
            "--vary",
            "sides.german.artillery.missions=1..2",
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "'german' has no off-board artillery" in err and "objectives.Church.points" in err


def test_scenario_with_sets_exactly_the_field_it_names():
    from hexwar.game.scenario import load_scenario
    from hexwar.sim.scenario import ScenarioSimError, scenario_with

    sc = load_scenario("skirmish")
    name = sc.objectives[0].name
    a = scenario_with(sc, f"objectives.{name}.points", 17)
    assert a.objectives[0].points == 17 and a.objectives[1:] == sc.objectives[1:]
    b = scenario_with(sc, "sides.soviet.artillery.damage_index", 12)
    assert b.sides["soviet"].artillery.weapon.damage_index == 12 and b.sides["german"] == sc.sides["german"]
    assert scenario_with(sc, "scenario.victory_points", 40).victory_points == 40
    with pytest.raises(ScenarioSimError, match=r"expected a whole number 1\.\.7"):
        scenario_with(sc, "sides.soviet.artillery.hit_on", 9)
    with pytest.raises(ScenarioSimError, match="no objective 'Nowhere'"):
        scenario_with(sc, "objectives.Nowhere.points", 3)


# -- who holds an area at the end (docs/rules.md, R10.2 and hexwar's own) --------------------------
def test_an_area_is_held_by_the_only_side_with_ground_units_in_it(tmp_path):
    from hexwar.balance import held_at_end
    from hexwar.game.scenario import load_scenario
    from tests.test_sim_scenario import SCENARIO, VILLAGE

    m = BattleMap.new(12, 10, name="Village")
    m.set_terrain(H("F05"), "stone_building")
    for lab in VILLAGE:
        m.set_terrain(H(lab), "wood_building")
    m.save(tmp_path / "village_map.json")
    text = SCENARIO.replace('village = ["E04..G06"]', 'village = ["E04..G06"]\nfarm = ["J02"]')
    text = text.replace('name = "Church"\npoints = 5', 'name = "Church"\npoints = 5\nholder = "soviet"')
    (tmp_path / "v.toml").write_text(text)
    st = load_scenario(tmp_path / "v.toml").new_game(seed=1)
    german = next(u for u in st.units.values() if u.hex == H("F05"))
    soviet = next(u for u in st.units.values() if u.hex == H("F09"))
    # the German squad stands in the village (E04..G06), nobody in the farm; the Church
    # objective keeps its starting holder until a ground unit enters it (R10.2)
    assert held_at_end(st) == {"Church": "soviet", "village": "german", "farm": None}
    soviet.hex = H("G06")  # both sides in the village: nobody holds it
    assert held_at_end(st)["village"] is None
    st.removed.append(german.uid)  # the German squad destroyed: the Soviet one alone holds it
    assert held_at_end(st)["village"] == "soviet"
    soviet.hex = H("J02")
    assert held_at_end(st)["farm"] == "soviet" and held_at_end(st)["village"] is None
