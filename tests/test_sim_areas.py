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


AREAS = {"row": tuple(H(x) for x in ("C03", "D03", "D04")), "all": tuple(H(x) for x in ("C03", "D03", "D04", "F03")),
         "field": (H("A01"),)}


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
    rc = main(["sim", "fire", str(chain_file), "--ignite", "C03", "--turns", "2", "--trials", "4000", "--seed", "1",
               "--area", "row=C03..D04", "--area", "lone=F03", "--json", "--csv", str(out_csv)])
    rep = json.loads(capsys.readouterr().out)
    assert rc in (0, None)
    row = next(a for a in rep["areas"] if a["area"] == "row")
    assert row["buildings"] == 3 and row["by_turn"][2]["exact_p_all_burned"] == pytest.approx(49 / 144, abs=1e-6)
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
