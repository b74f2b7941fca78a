"""The balance report names scenarios by id and says why a side won (issue 23): the points
each side won by unit type add up to its victory points, and every objective and area has
its holder at the end."""

from __future__ import annotations

from hexwar.balance import GameRecord, load_scenario_source, play_scenario_game, reasons_text, tally


def test_points_by_unit_type_add_up_to_each_sides_score_and_every_objective_and_area_has_a_holder():
    sid, sc = load_scenario_source("skirmish")
    assert sid == sc.id == "skirmish"
    recs = []
    for seed in (11, 12):
        o = play_scenario_game(sc, seed, None, {"german": "standard", "soviet": "standard"}, 60)
        for side in ("german", "soviet"):
            assert sum(o.points_by_type.get(side, {}).values()) == o.score[side], f"seed {seed}"
        names = {ob.name or sc.battlemap.label(ob.hex) for ob in sc.objectives} | set(sc.areas)
        assert set(o.held) == names and set(o.held.values()) <= {"german", "soviet", None}
        recs.append(
            GameRecord(
                "skirmish",
                "default",
                seed,
                seed,
                o.winner,
                o.reason,
                o.turn,
                dict(o.score),
                dict(o.objective_points),
                o.commands,
                points_by_type={k: dict(v) for k, v in o.points_by_type.items()},
                held=dict(o.held),
            )
        )
    (t,) = tally(recs)
    for side in ("german", "soviet"):
        assert sum(t.points_by_type.get(side, {}).values()) == sum(r.score[side] for r in recs)
    assert all(sum(d.values()) == 2 for d in t.held.values())
    text = reasons_text([t])
    assert "points a game by unit type killed" in text and "held at the end (games)" in text
