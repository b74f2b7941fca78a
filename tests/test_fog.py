"""Views and fog of war (R12.1, R12.2): what each side may see, and that it never sees more.

Fog tests use the bare test scenario with the ``fog`` variant and units placed by hand
(tests/game_helpers.py); LOS facts are taken from :mod:`hexwar.model.los` and asserted first, so a
map change cannot make a test pass vacuously.
"""

from __future__ import annotations

import copy
import json

import pytest
from game_helpers import advance_to, place, scenario
from test_game_commands import refused
from test_game_targeting import find_pair

from hexwar.game.ai import make_player
from hexwar.game.commands import Declare, Move, TargetArtillery
from hexwar.game.scenario import find_scenario, load_scenario, parse_scenario
from hexwar.game.state import Phase, UnitState
from hexwar.game.view import (
    ViewPlayer,
    apply_delta,
    json_delta,
    seen_mask,
    seen_units,
    state_from_view,
    view,
    view_hash,
)
from hexwar.model.los import line_of_sight


@pytest.fixture
def fog():
    g = scenario("game_empty").new_game(seed=1, variants=("fog",))
    place(g, "de_grenadiers", "A07")  # decoys, as in the targeting tests
    place(g, "su_rifles", "A08")
    return g


def hidden_pair(g, dist=3):
    """Hexes (a, b), ``dist`` or more apart, with a German unit in a and a Soviet unit in b unseen by
    each other and by the decoys (A07 German, A08 Soviet): every LOS involved is blocked."""
    bm = g.battlemap
    ga, sa = bm.hex_at("A07"), bm.hex_at("A08")

    def ok(a, b, los):
        return (
            (a.distance(b) >= dist if dist > 2 else a.distance(b) == dist)
            and los.status == "blocked"
            and not line_of_sight(bm, ga, b).visible
            and not line_of_sight(bm, sa, a).visible
        )

    return find_pair(bm, ok, avoid=("A07", "A08"))


def uids(v):
    return {u["uid"] for u in v.data["units"]}


def test_an_enemy_ground_unit_is_seen_only_while_a_friendly_ground_unit_has_los(fog):
    a, b = hidden_pair(fog)
    g = place(fog, "de_grenadiers", a)
    s = place(fog, "su_rifles", b)
    assert s.uid not in uids(view(fog, "german")) and g.uid not in uids(view(fog, "soviet"))  # R3.1 symmetry
    # a German ground unit with LOS (clear or hindered) to b spots it
    c = next(
        h.label
        for h in fog.battlemap.hexes()
        if h.label not in (a, b)
        and h.distance(fog.battlemap.hex_at(b)) >= 2
        and not line_of_sight(fog.battlemap, fog.battlemap.hex_at("A08"), h).visible
        and line_of_sight(fog.battlemap, h, fog.battlemap.hex_at(b)).visible
        and not fog.units_at(h)
    )
    place(fog, "de_sniper", c)
    assert s.uid in uids(view(fog, "german"))
    assert bool(seen_mask(fog, "german")[fog.battlemap.hex_at(b).offset[::-1]])


def test_adjacent_units_are_always_seen_and_aircraft_aloft_by_both(fog):
    g = place(fog, "de_grenadiers", "E04")
    s = place(fog, "su_rifles", "E05")
    plane = place(fog, "su_il2", None, crew="su_pilot_green")
    assert s.uid in seen_units(fog, "german") and g.uid in seen_units(fog, "soviet")
    assert plane.uid in uids(view(fog, "german")) and plane.uid in uids(view(fog, None))


def test_crews_and_aircraft_do_not_spot(fog):
    a, b = hidden_pair(fog)
    place(fog, "de_ju87g", None, crew="de_pilot_regular")
    s = place(fog, "su_rifles", b)
    place(fog, "de_grenadiers", a)
    assert s.uid not in seen_units(fog, "german")


def test_direct_fire_needs_the_target_seen_with_the_same_words_as_for_no_unit(fog):
    a, b = hidden_pair(fog)
    plane = place(fog, "de_ju87g", None, crew="de_pilot_regular")  # R7.4: aircraft attack any ground unit...
    place(fog, "de_grenadiers", a)
    s = place(fog, "su_rifles", b)
    advance_to(fog, Phase.DECLARATION, "german")
    refused(fog, Declare("german", plane.uid, s.uid, (0,)), "sees no unit", "R12.2")  # ...that is seen
    refused(fog, Declare("german", plane.uid, "su_rifles#99", (0,)), "sees no unit")  # nothing told apart
    assert all(
        t != s.uid
        for t, _, _ in __import__("hexwar.game.targeting", fromlist=["x"]).legal_targets(
            fog, "german", plane.uid
        )
    )


def test_a_close_assault_on_an_unseen_unit_is_refused_in_the_words_of_one_not_in_play(fog):
    # R12.1/R12.2: before, the refusal read the hidden unit ("T-34/76 ... is not adjacent to
    # K12", "7.5 cm PaK 40 is not a vehicle"): a seat learned an unseen unit's hex and kind by
    # naming it in a close assault the rules refuse anyway
    from hexwar.game.commands import DeclareCloseAssault

    a, b = hidden_pair(fog)
    grens = [place(fog, "de_grenadiers", a).uid for _ in range(3)]
    tank = place(fog, "su_t34_76", b, crew="su_tank_crew_green")
    gun = place(fog, "su_45mm", b)
    advance_to(fog, Phase.DECLARATION, "german")
    assert {tank.uid, gun.uid}.isdisjoint(seen_units(fog, "german"))
    reasons = {
        uid: fog.check(DeclareCloseAssault("german", tuple(grens), uid)).replace(uid, "TARGET")
        for uid in (tank.uid, gun.uid, "su_t34_76#99")
    }
    assert set(reasons.values()) == {"german sees no unit TARGET (R12.2: a target must be seen)"}, reasons
    refused(fog, DeclareCloseAssault("german", tuple(grens), tank.uid), "sees no unit", "R12.2")


def test_without_fog_aircraft_attack_unseen_ground_units(fog):
    g = scenario("game_empty").new_game(seed=1)
    place(g, "de_grenadiers", "A07")
    place(g, "su_rifles", "A08")
    plane = place(g, "de_ju87g", None, crew="de_pilot_regular")
    s = place(g, "su_rifles", "J02")
    advance_to(g, Phase.DECLARATION, "german")
    g.apply(Declare("german", plane.uid, s.uid, (0,)))


def test_indirect_fire_keeps_its_observer_rule_under_fog(fog):
    gun = place(fog, "su_m30", "J02", crew="su_artillery_crew_regular")
    t = place(fog, "de_grenadiers", "F06")
    assert line_of_sight(fog.battlemap, gun.hex, t.hex).status == "blocked"
    obs = place(fog, "su_sniper", "F07")  # R7.3: the observer sees it, so it is seen (R12.2)
    assert t.uid in seen_units(fog, "soviet") and obs.hex.distance(t.hex) == 1
    advance_to(fog, Phase.DECLARATION, "soviet")
    fog.apply(Declare("soviet", gun.uid, t.uid, (0,)))
    assert max(fog.attacks.values(), key=lambda a: a.number).indirect


def test_artillery_may_target_any_hex_in_los_whether_or_not_units_are_seen():
    g = scenario("game_small").new_game(seed=7, variants=("fog",))
    advance_to(g, Phase.ARTILLERY, "german")
    obs = [u.hex for u in g.units_of("german") if u.hex is not None and u.crewing is None]
    empty = next(
        h
        for h in g.battlemap.hexes()
        if not g.units_at(h) and h.distance(obs[0]) >= 3 and line_of_sight(g.battlemap, obs[0], h).visible
    )  # R9.2: an empty hex in LOS
    evs = g.apply(TargetArtillery("german", empty, None))
    assert [e.data["target"] for e in evs if e.kind == "artillery_marker_placed"] == [empty.label]


def test_a_unit_that_leaves_sight_leaves_a_last_known_marker_with_the_turn_seen():
    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(5, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    found = None
    for _ in range(600):
        if g.over:
            break
        before = {s: seen_units(g, s) for s in ("german", "soviet")}
        hexes = {uid: u.hex for uid, u in g.units.items()}
        g.apply(players[g.to_act].choose(g))
        for s in ("german", "soviet"):
            for uid, (lab, turn, card) in g.last_seen.get(s, {}).items():
                if uid in before[s] and uid not in seen_units(g, s) and uid in g.units:
                    found = (s, uid, lab, turn, card, hexes[uid])
        if found:
            break
    assert found, "no enemy unit left sight in 600 commands"
    s, uid, lab, turn, card, h = found
    assert lab == h.label and turn == g.turn and card == uid.rsplit("#", 1)[0]
    v = view(g, s)
    assert uid not in uids(v)
    assert {"uid": uid, "card": card, "side": g.units[uid].side, "hex": lab, "turn": turn} in v.data[
        "last_known"
    ]


def test_a_move_into_an_unseen_enemy_stops_in_the_hex_before(fog):
    a, b = hidden_pair(fog, 2)
    m = place(fog, "de_grenadiers", a)
    s = place(fog, "su_rifles", b)
    assert s.uid not in seen_units(fog, "german")
    advance_to(fog, Phase.MOVEMENT, "german")
    ha, hb = fog.battlemap.hex_at(a), fog.battlemap.hex_at(b)
    mid = next(h for h in fog.battlemap.neighbors(ha) if h.distance(hb) == 1 and not fog.units_at(h))
    plan = state_from_view(view(fog, "german").data, fog.scenario)
    assert plan.check(Move("german", m.uid, (mid, hb))) is None or "movement points" in plan.check(
        Move("german", m.uid, (mid, hb))
    )
    if plan.check(Move("german", m.uid, (mid, hb))) is not None:
        pytest.skip("the path costs more than the unit's movement points on this map")
    assert fog.check(Move("german", m.uid, (mid, hb))) is None  # checked against what it sees
    evs = fog.apply(Move("german", m.uid, (mid, hb)))
    assert m.hex == mid and any("unseen enemy unit bars the way" in e.text for e in evs)
    assert s.uid in seen_units(fog, "german")  # adjacent now


def test_a_view_never_holds_the_other_hand_the_seed_or_any_deck_order():
    g = load_scenario(find_scenario("skirmish")).new_game(11)
    for _ in range(30):
        g.apply(make_player("standard", g.to_act, 1).choose(g))
    v = view(g, "german")
    text = json.dumps(v.data) + json.dumps(v.log)
    for c in g.hand_units["soviet"] + g.hand_commands["soviet"]:
        assert f'"{c}"' not in text or any(
            c in json.dumps(e) for e in v.log if e["kind"] in ("discard", "commit")
        )
    assert v.data["reserves"] == {"german": sorted(g.reserves["german"])}  # contents, never the order
    assert v.data["decks"]["command"] == len(g.command_deck) and "command_deck" not in v.data
    setup = next(e for e in v.log if e["kind"] == "setup")
    assert "seed" not in setup["data"] and f"seed {g.seed}" not in setup["text"]  # it decides every die
    assert "seed" not in v.data and all(
        "faces" not in e["data"] for e in v.log if e["data"].get("dice") == "shuffle"
    )
    assert v.data["hands"]["german"]["units"] == g.hand_units["german"]
    assert v.data["hand_sizes"]["soviet"] == {
        "units": len(g.hand_units["soviet"]),
        "commands": len(g.hand_commands["soviet"]),
    }
    hand_events = [e for e in v.log if e["kind"] == "hand" and e["data"]["side"] == "soviet"]
    assert hand_events and all(isinstance(e["data"]["cards"], int) for e in hand_events)


def test_the_spectator_sees_only_what_both_sides_see():
    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(5, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    for _ in range(150):
        if g.over:
            break
        g.apply(players[g.to_act].choose(g))
        vg, vs, vw = view(g, "german"), view(g, "soviet"), view(g, None)
        assert uids(vw) == uids(vg) & uids(vs)
        assert vw.data["hands"] == {} and vw.data["reserves"] == {} and vw.data["pending"] == {}
        assert len(vw.log) <= min(len(vg.log), len(vs.log))
    assert uids(vg) != uids(vs)  # fog is really on: the two sides see different things


def test_the_log_a_side_sees_omits_what_it_could_not_see_and_the_save_keeps_all(tmp_path):
    from hexwar.game.save import load_game, write_save

    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(5, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    for _ in range(200):
        if g.over:
            break
        g.apply(players[g.to_act].choose(g))
    vg = view(g, "german")
    hidden = [
        e
        for e in g.log
        if e.kind == "move"
        and g.units.get(e.data["unit"])
        and g.units[e.data["unit"]].side == "soviet"
        and e.text not in {x["text"] for x in vg.log}
    ]
    assert hidden, "the German log shows every Soviet move: fog hides nothing"
    write_save(g, tmp_path / "s.json")
    again = load_game(tmp_path / "s.json")
    assert [e.text for e in again.log] == [e.text for e in g.log] and again.state_hash() == g.state_hash()
    assert view(again, "german").data == vg.data and view(again, "german").log == vg.log


def _hard(side, seed):
    from hexwar.search.hexgame import HexSearchPlayer

    return HexSearchPlayer(side, seed, iterations=4)  # a tiny budget: 2 candidates x 2 worlds


@pytest.mark.parametrize(
    "level, maker, wanted",
    [("standard", lambda s, seed: make_player("standard", s, seed), 10), ("hard", _hard, 4)],
)
def test_the_computer_player_decides_the_same_when_every_hidden_enemy_unit_is_replaced(level, maker, wanted):
    """R12.2: under fog the computer decides only from its view: swap every hidden enemy unit
    for another card on another unseen hex and each decision stays the same; for the hard
    (search) player too (issue 31), whose samples are built from the view."""
    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(9, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    checked = 0
    for n in range(300):
        if g.over:
            break
        side = g.to_act
        enemy = "soviet" if side == "german" else "german"
        hidden = [
            uid
            for uid, u in g.units.items()
            if u.side == enemy and uid not in seen_units(g, side) and u.crewing is None and u.hex is not None
        ]
        if hidden and n % 5 == 0:
            twin = copy.deepcopy(g, {id(g.scenario): g.scenario})
            mask = seen_mask(g, side)
            free = [
                h for h in g.battlemap.hexes() if not mask[h.offset[1], h.offset[0]] and not g.units_at(h)
            ]
            other = "de_tiger_i" if enemy == "german" else "su_kv_1s"
            for k, uid in enumerate(sorted(hidden)):
                u = twin.units.pop(uid)
                if u.crew:
                    twin.units.pop(u.crew)
                h = free[(7 * k + n) % len(free)]
                twin.units[f"{other}#{90 + k}"] = UnitState(f"{other}#{90 + k}", enemy, enemy, h, endurance=5)
            twin.cache.clear()
            assert view(twin, side).data == view(g, side).data
            a = ViewPlayer(maker(side, 3)).choose(g)
            b = ViewPlayer(maker(side, 3)).choose(twin)
            assert a == b, f"{level}, command {n}: {a} vs {b}"
            if level == "hard":
                import numpy as np

                from hexwar.search.hexgame import determinize_hex

                a, b = maker(side, 3).choose(g), maker(side, 3).choose(twin)  # unwrapped: its own view
                assert a == b, f"{level} (unwrapped), command {n}: {a} vs {b}"
                wa = determinize_hex(g, side, np.random.default_rng(n))
                wb = determinize_hex(twin, side, np.random.default_rng(n))
                assert wa.state_hash() == wb.state_hash(), f"command {n}: the samples differ"
            checked += 1
            if checked >= wanted:
                break
        g.apply(players[side].choose(g))
    assert checked >= wanted


def test_the_state_rebuilt_from_a_view_lists_the_same_legal_commands_without_fog():
    sc = load_scenario(find_scenario("skirmish"))
    g = sc.new_game(5)
    p = {s: make_player("standard", s, 1) for s in ("german", "soviet")}
    for _ in range(120):
        s = g.to_act
        rebuilt = state_from_view(view(g, s).data, sc)
        assert [str(c) for c in rebuilt.legal_commands(s)] == [str(c) for c in g.legal_commands(s)]
        g.apply(p[s].choose(g))


def test_view_deltas_rebuild_the_next_view_exactly():
    sc = load_scenario(find_scenario("skirmish"))
    g = sc.new_game(2, variants=("fog",))
    p = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    old = view(g, "soviet").data
    for _ in range(80):
        g.apply(p[g.to_act].choose(g))
        new = view(g, "soviet").data
        got = apply_delta(old, json.loads(json.dumps(json_delta(old, new))))
        assert got == new and view_hash(got) == view_hash(new)
        old = new


def test_scenario_option_fog_true_is_the_fog_variant():
    text = (
        load_scenario(find_scenario("skirmish"))
        .path.read_text()
        .replace("[scenario]\n", "[scenario]\nfog = true\n", 1)
    )
    sc = parse_scenario(text, find_scenario("skirmish"))
    assert "fog" in sc.variants and "fog" in sc.new_game(1).variants
