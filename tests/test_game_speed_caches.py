"""Issue 22's remembered answers are never stale: at every decision of whole AI-vs-AI games each
cached answer equals the one computed on a fresh copy of the position (an empty ``state.cache``
and a copy of the map, so neither the game's caches nor the LOS engine's per-map state are
reused).

What is remembered past a single command, and under which key:

* LOS arrays (R3) under the map's LOS content (:func:`hexwar.model.los.los_content_key`), so an
  artillery marker (R9.2) or a fire outside a building keeps them;
* weapon checks and legal targets (R6.1, R7) under every unit's fields, the Events in play, the
  turn and the LOS content (:func:`hexwar.game.targeting.targeting_key`);
* a unit's reach (R5.3) under everything :func:`hexwar.game.movement.reachable` is given;
* the standard player's threat maps under the enemy units, the posture and the objectives;
* ``can_stand`` of the commit listing per map version (R5.2);
* the odds of one attack under several Command-card bonus choices (R1.3, R6).
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from hexwar.game import movement, ruleset, targeting
from hexwar.game.ai import make_player
from hexwar.game.scenario import load_scenario
from hexwar.model.hexgrid import Hex
from hexwar.model.los import los_content_key, visibility_with_hindrances
from hexwar.model.maps import BattleMap
from hexwar.rules.cards import default_cards
from hexwar.rules.combat import AttackOrders, DefenseContext
from hexwar.rules.odds import attack_odds, attack_odds_variants
from hexwar.rules.units import roster

DATA = Path(__file__).parent / "data"


def _fresh(st):
    """A shallow copy of the position with nothing remembered: empty cache, a copy of the map."""
    f = copy.copy(st)
    f.cache = {}
    f.battlemap = st.battlemap.copy()
    return f


def _same_threats(a: dict, b: dict) -> bool:
    keys = ("exposure", "take", "hold", "burning_objective")
    if any(not np.array_equal(a[k], b[k]) for k in keys):
        return False
    if a["objective_hexes"] != b["objective_hexes"]:
        return False
    return (
        len(a["sight"]) == len(b["sight"])
        and all(
            x[:4] == y[:4] and np.array_equal(x[4], y[4]) and np.array_equal(x[5], y[5])
            for x, y in zip(a["sight"], b["sight"], strict=True)
        )
        and [e.uid for e in a["enemies"]] == [e.uid for e in b["enemies"]]
    )


@pytest.mark.parametrize(
    "name,seed", [("legacy_e9c3826/kharkov.toml", 3), ("games_d8650e7/stalingrad.toml", 5)]
)
def test_remembered_answers_equal_fresh_ones_at_every_decision_of_whole_games(name, seed):
    sc = load_scenario(DATA / name)
    st = sc.new_game(seed=seed)
    players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
    decisions = targets = reaches = 0
    while not st.over and st.turn <= 4:
        side = st.to_act
        where = f"seed {seed} turn {st.turn} {st.phase}"
        f = _fresh(st)
        assert st.legal_commands(side) == f.legal_commands(side), where
        units = sorted(st.units)
        for h in sorted({u.hex for u in st.units.values() if u.hex is not None}):
            a, b = ruleset.los_arrays(st, h), ruleset.los_arrays(f, h)
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]), f"{where} LOS from {h.label}"
        if st.phase == "declaration":
            for uid in units:
                got = targeting.legal_targets(st, side, uid)
                assert got == targeting.legal_targets(f, side, uid), f"{where} {uid}"
                for tid, at_crew, _ in got:
                    for w in range(2):
                        assert targeting.weapon_problem(st, uid, tid, w, at_crew) == targeting.weapon_problem(
                            f, uid, tid, w, at_crew
                        ), f"{where} {uid} -> {tid}"
                        targets += 1
        if st.phase == "movement":
            for uid in units:
                r, g = movement.unit_reach(st, uid), movement.unit_reach(f, uid)
                assert (r is None) == (g is None), f"{where} {uid}"
                if r is not None:
                    assert r.cost == g.cost and np.array_equal(r.predecessors, g.predecessors), (
                        f"{where} {uid}"
                    )
                    reaches += 1
        for s, p in players.items():
            assert _same_threats(p._threat_arrays(st), p._threat_arrays(f)), f"{where} threats of {s}"
        st.apply(players[side].choose(st))
        decisions += 1
    assert decisions > 60 and targets > 0 and reaches > 0


def test_an_artillery_marker_keeps_the_los_content_and_a_burning_building_changes_it():
    m = BattleMap.new(8, 6, fill="clear")
    m.set_terrain(Hex.from_offset(3, 2), "stone_building")
    before = los_content_key(m)
    m.artillery_marker = Hex.from_offset(5, 4)  # R9.2: a marker puts nothing in the way
    m.version += 1
    assert los_content_key(m) == before
    m.set_fire(Hex.from_offset(3, 2), True)  # R8.4: a burning building blocks at every level
    assert los_content_key(m) != before
    viewer, beyond = Hex.from_offset(1, 2), Hex.from_offset(5, 2)
    status, _ = visibility_with_hindrances(m, viewer)
    assert status[m.index(beyond)] == 2  # BLOCKED behind the fire


def test_a_game_cache_of_los_arrays_follows_a_change_of_the_maps_los_content():
    sc = load_scenario(DATA / "legacy_e9c3826/skirmish.toml")
    st = sc.new_game(seed=1)
    bm = st.battlemap
    building = next(
        Hex.from_offset(c, r)
        for r in range(bm.height)
        for c in range(bm.width)
        if bm.terrain_at(Hex.from_offset(c, r)).is_building
    )
    viewer = next(
        h
        for h in building.within(2)
        if bm.in_bounds(h) and not bm.terrain_at(h).is_building and h != building
    )
    old = ruleset.los_arrays(st, viewer)
    bm.artillery_marker = building
    bm.version += 1
    assert ruleset.los_arrays(st, viewer) is old  # same LOS content: the same arrays
    bm.set_fire(building, True)
    new = ruleset.los_arrays(st, viewer)
    fresh = visibility_with_hindrances(bm.copy(), viewer)
    assert np.array_equal(new[0], fresh[0]) and np.array_equal(new[1], fresh[1])


def test_odds_under_several_bonus_choices_equal_one_attack_odds_call_each():
    c = default_cards()
    u = roster(c, ("su_t34_76#1", "su_tank_crew_regular#1"), ("de_pz_iv_g#1", "de_tank_crew_regular#1"))
    a, t = u["su_t34_76#1"], u["de_pz_iv_g#1"]
    orders = AttackOrders((0,))
    choices = [((), ()), ((0,), ()), ((), (0,)), ("all", "all")]
    got = attack_odds_variants(c, a, t, orders, DefenseContext(), choices, units=u)
    want = [
        attack_odds(c, a, t, orders, DefenseContext(), units=u, bonus_to_hit=h, bonus_intensity=i)
        for h, i in choices
    ]
    assert got == want
    assert got[1].hit > got[0].hit  # R1.3: +1 on the to-hit roll


@pytest.mark.parametrize(
    "name,seed", [("legacy_e9c3826/kharkov.toml", 4), ("games_d8650e7/stalingrad.toml", 6)]
)
def test_the_commitment_listing_is_every_commit_that_check_allows_in_the_same_order(name, seed):
    # issue 22: the listing tests only the terrain and the room per hex once the unit's cards
    # passed; brute force asks check() (R5.2) for every card, crew or rider, and hex of the zone
    from hexwar.game.actions import commit
    from hexwar.game.commands import Commit

    sc = load_scenario(DATA / name)
    st = sc.new_game(seed=seed)
    players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
    compared = listed = stacked = 0

    def compare(st, side):
        firsts, crews, infantry = commit.hand_crews(st, side)
        brute = []
        for _cid, inst in sorted(firsts.items()):
            pairs = [(None, None)] + [(c, None) for cs in crews.values() for c in cs]
            pairs += [(None, i) for i in infantry if i != inst]
            for crew, carry in pairs:
                for h in (None, *st.scenario.sides[side].deploy):
                    cmd = Commit(side, inst, h, crew, carry)
                    if commit.check(st, cmd) is None:
                        brute.append(cmd)
        got = list(commit.options(st, side))
        key = lambda c: (sorted(firsts).index(card_of_unit(c.unit)),)  # noqa: E731
        assert sorted(got, key=key) == got  # card by card, as the brute force
        assert sorted(map(repr, got)) == sorted(map(repr, brute)), f"seed {seed} turn {st.turn}"
        return got

    while not st.over and st.turn <= 3:
        side = st.to_act
        if st.phase == "commitment":
            listed += len(compare(st, side))
            compared += 1
            # two of the side's units moved onto its first deploy hex: room for one more there,
            # so a halftrack with its rider (two ground units) may not go there (R5.2)
            g = copy.deepcopy(_fresh(st))  # nothing remembered (the cache holds generators)
            own = [u for u in g.units.values() if u.side == side and u.hex is not None and u.crewing is None]
            own = [u for u in own if not u.aloft and ruleset.is_ground(u.card)][:2]
            if len(own) == 2:
                h = g.scenario.sides[side].deploy[0]
                for u in own:
                    u.hex = h
                    if u.crew is not None:
                        g.units[u.crew].hex = h
                foe = next(
                    (
                        u
                        for u in g.units.values()
                        if u.side != side and u.hex is not None and u.crewing is None
                    ),
                    None,
                )
                h2 = g.scenario.sides[side].deploy[1]
                if foe is not None and h2 != h:  # an enemy in the zone: nobody commits there
                    foe.hex = h2
                    if foe.crew is not None:
                        g.units[foe.crew].hex = h2
                got = compare(g, side)
                assert foe is None or not [c for c in got if c.hex == h2]
                riders = [c for c in got if c.hex == h and c.carry is not None]
                alone = [c for c in got if c.hex == h and c.carry is None]
                assert not riders
                stacked += bool(alone)
        st.apply(players[side].choose(st))
    assert compared > 3 and listed > 20 and stacked > 0


def card_of_unit(inst: str) -> str:
    """The card id of a unit instance (``"de_pz4#2"`` -> ``"de_pz4"``)."""
    from hexwar.game.state import card_of

    return card_of(inst)
