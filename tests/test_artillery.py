"""Off-board artillery: targeting, accuracy, drift in straight lines, off-map strikes, attacks (R9)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scripted_dice import scripted_dice  # noqa: E402

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap, MapError
from hexwar.rules.artillery import (
    ArtilleryMarkerPlaced,
    ArtilleryMarkerRemoved,
    ArtilleryStrike,
    ArtilleryTargetError,
    ArtilleryUnitAttack,
    TargetUnit,
    drift_landing,
    exact_landing_distribution,
    landing_histogram,
    map_sees,
    resolve_artillery,
    roll_strike,
    sample_strike_faces,
    strike_hits,
    target_artillery,
    target_problem,
)
from hexwar.rules.buildings import BuildingAttack, BuildingResult
from hexwar.rules.dice import Dice
from hexwar.rules.terrain_effects import apply_events
from hexwar.rules.wrecks import WreckPlaced

H = Hex.from_label


def land_one(
    target: str, acc: int, direction: int, hit_on: int = 7, bonus: int = 0, w: int = 12, h: int = 12
):
    t = H(target)
    land = drift_landing(t.offset, [acc], [direction], hit_on, bonus, width=w, height=h)
    hx = Hex(int(land.q[0]), int(land.r[0]))
    return land, hx


# -- seed 003's example (R9.5) --------------------------------------------------------------
def test_soviet_die_of_2_misses_and_drifts_2_hexes_north_on_a_direction_1():
    m = BattleMap.new(10, 10)
    d = scripted_dice(2, 1)
    s = roll_strike(m, "soviet", H("D07"), d)
    assert (s.accuracy_roll, s.hit_on, s.hit, s.drift, s.direction) == (2, 4, False, 2, 1)
    assert s.landing == H("D05") and not s.off_map
    assert H("D07").distance(s.landing) == 2
    assert [r.dice for r in d.log] == ["1d6", "1d6"]
    assert str(s) == "Soviet artillery at D07: accuracy 1d6 = 2 (hits on 4+): misses, drifts 2 hexes N to D05"


@pytest.mark.parametrize(
    "side,face,hit", [("soviet", 3, False), ("soviet", 4, True), ("german", 2, False), ("german", 3, True)]
)
def test_hit_numbers_per_side(side, face, hit):
    m = BattleMap.new(10, 10)
    d = scripted_dice(face, 4)
    s = roll_strike(m, side, H("E05"), d)
    assert s.hit is hit
    assert len(d.log) == (1 if hit else 2)  # the direction die is rolled only on a miss
    assert s.landing == (H("E05") if hit else Hex(H("E05").q, H("E05").r + face))  # direction 4 = S


def test_command_card_bonus_hits_but_drift_uses_the_unmodified_die():
    m = BattleMap.new(10, 10)
    s = roll_strike(m, "soviet", H("E05"), scripted_dice(3), command_card=True)
    assert s.hit and s.landing == H("E05") and "+1 command card" in str(s)
    d = scripted_dice(2, 3)
    s = roll_strike(m, "soviet", H("E05"), d, command_card=True)
    assert not s.hit and s.drift == 2 and d.log[0].result == 3
    assert s.landing == H("E05").neighbor(3).neighbor(3)


def test_scenario_can_change_the_hit_number():
    m = BattleMap.new(10, 10)
    assert roll_strike(m, "german", H("E05"), scripted_dice(5, 1), hit_on=6).hit is False
    assert roll_strike(m, "soviet", H("E05"), scripted_dice(2), hit_on=2).hit is True


# -- straight lines in all six directions (R2.3) --------------------------------------------
# Worked by hand on the printed map: G is an even column, F an odd one (odd-q, odd columns sit
# half a hex lower).
STRAIGHT = {
    ("G06", 1): ["G05", "G04", "G03"],
    ("G06", 2): ["H05", "I05", "J04"],
    ("G06", 3): ["H06", "I07", "J07"],
    ("G06", 4): ["G07", "G08", "G09"],
    ("G06", 5): ["F06", "E07", "D07"],
    ("G06", 6): ["F05", "E05", "D04"],
    ("F06", 1): ["F05", "F04", "F03"],
    ("F06", 2): ["G06", "H05", "I05"],
    ("F06", 3): ["G07", "H07", "I08"],
    ("F06", 4): ["F07", "F08", "F09"],
    ("F06", 5): ["E07", "D07", "C08"],
    ("F06", 6): ["E06", "D05", "C05"],
}


@pytest.mark.parametrize("target,direction", sorted(STRAIGHT))
def test_drift_lands_on_straight_lines_from_odd_and_even_columns(target, direction):
    for dist, want in enumerate(STRAIGHT[(target, direction)], start=1):
        land, hx = land_one(target, dist, direction)
        assert not land.hit[0] and land.drift[0] == dist and land.direction[0] == direction
        assert hx.label == want, f"{target} drift {dist} dir {direction}: {hx.label} != {want}"
        assert H(target).distance(hx) == dist
        line = H(target)
        for _ in range(dist):
            line = line.neighbor(direction)
        assert line == hx
        assert Hex.from_offset(int(land.col[0]), int(land.row[0])) == hx and land.on_map[0]


def test_every_landing_of_every_face_pair_on_a_small_map_agrees_with_hex_geometry():
    w, h = 7, 6
    m = BattleMap.new(w, h)
    targets = list(m.hexes())
    acc, dirf = np.meshgrid(np.arange(1, 7), np.arange(1, 7), indexing="ij")
    acc, dirf = acc.ravel(), dirf.ravel()
    offs = np.array([t.offset for t in targets])
    tgt = np.repeat(offs, 36, axis=0)
    A, D = np.tile(acc, len(targets)), np.tile(dirf, len(targets))
    land = drift_landing(tgt, A, D, 5, width=w, height=h)
    hexes = land.hexes()
    for i, t in enumerate(np.repeat(np.arange(len(targets)), 36)):
        target, a, d = targets[t], int(A[i]), int(D[i])
        want = target
        if a < 5:
            for _ in range(a):
                want = want.neighbor(d)
        assert (hexes[i] is not None) == m.in_bounds(want), (target.label, a, d)
        if hexes[i] is not None:
            assert hexes[i] == want


EDGE_CASES = [  # (target, drift, direction, lands on) on a 10 x 8 map (A..J, rows 1..8); None = off the map
    ("A05", 1, 5, None),
    ("A05", 1, 6, None),
    ("A05", 1, 2, "B04"),
    ("B05", 2, 5, None),
    ("J05", 1, 2, None),
    ("J05", 1, 3, None),
    ("J05", 1, 6, "I05"),
    ("I05", 2, 3, None),
    ("E01", 1, 1, None),
    ("E01", 1, 2, None),
    ("E01", 1, 6, None),
    ("E01", 1, 3, "F01"),
    ("E01", 1, 5, "D01"),
    ("F01", 1, 1, None),
    ("F01", 1, 2, "G01"),
    ("F01", 1, 6, "E01"),
    ("C02", 3, 1, None),
    ("C02", 1, 1, "C01"),
    ("E08", 1, 4, None),
    ("E08", 1, 3, "F08"),
    ("E08", 1, 5, "D08"),
    ("F08", 1, 4, None),
    ("F08", 1, 3, None),
    ("F08", 1, 5, None),
    ("F08", 1, 2, "G08"),
    ("D06", 3, 4, None),
    ("A01", 1, 1, None),
    ("J08", 1, 4, None),
    ("J08", 3, 6, "G07"),
]


@pytest.mark.parametrize("target,dist,direction,want", EDGE_CASES)
def test_strikes_near_every_edge_land_off_the_map(target, dist, direction, want):
    land, hx = land_one(target, dist, direction, w=10, h=8)
    if want is None:
        assert not land.on_map[0] and land.hexes() == [None]
    else:
        assert land.on_map[0] and hx.label == want


def test_off_map_strike_is_logged_as_no_effect_and_attacks_nothing():
    m = BattleMap.new(10, 8)
    m.set_terrain(H("A05"), "wood_building")
    called = []
    events = resolve_artillery(
        m,
        "german",
        H("A05"),
        scripted_dice(2, 5),
        damage_index=5,
        units_at=lambda h: called.append(h) or [],
        attack_unit=lambda *a: [],
    )
    strike = events[0]
    assert isinstance(strike, ArtilleryStrike) and strike.off_map
    assert str(strike).endswith("drifts 2 hexes SW, off the map: no effect")
    assert called == [] and [type(e) for e in events] == [ArtilleryStrike, ArtilleryMarkerRemoved]


def test_bad_faces_are_refused():
    with pytest.raises(ValueError, match="accuracy"):
        drift_landing((3, 3), [7], [1], 4, width=9, height=9)
    with pytest.raises(ValueError, match="direction"):
        drift_landing((3, 3), [2], [0], 4, width=9, height=9)
    land = drift_landing((3, 3), [5], [0], 4, width=9, height=9)  # a hit needs no direction die
    assert land.hit[0] and land.direction[0] == 0
    with pytest.raises(ValueError, match="shape"):
        drift_landing((3, 3, 1), [5], [1], 4, width=9, height=9)


# -- exact distributions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "side,hit_on,p_hit,misses", [("soviet", 4, Fraction(1, 2), 3), ("german", 3, Fraction(2, 3), 2)]
)
def test_exact_landing_distribution_per_side(side, hit_on, p_hit, misses):
    t = H("M12")
    d = exact_landing_distribution(t, hit_on)
    assert d[t] == p_hit
    drift_hexes = {h for h in d if h != t}
    assert len(drift_hexes) == 6 * misses and all(d[h] == Fraction(1, 36) for h in drift_hexes)
    assert {t.distance(h) for h in drift_hexes} == set(range(1, misses + 1))
    assert sum(d.values()) == 1
    bonus = exact_landing_distribution(t, hit_on, bonus=1)
    assert bonus[t] == p_hit + Fraction(1, 6)


def test_exact_distribution_collapses_off_map_landings():
    d = exact_landing_distribution(H("A01"), 4, width=10, height=10)
    # from the corner: N, NE (A is an even column: NE goes up a row), SW and NW are off for
    # each of the 3 miss distances: 4 directions x 3 faces
    assert d[None] == Fraction(12, 36)
    assert sum(d.values()) == 1


@pytest.mark.parametrize(
    "side,hit_on,seed", [("soviet", 4, 5501), ("german", 3, 5502), ("soviet+card", 3, 5503)]
)
def test_one_million_seeded_strikes_match_the_exact_distribution(side, hit_on, seed):
    w, h = 20, 20
    target = H("J10")
    rng = np.random.default_rng(seed)
    n = 1_000_000
    acc, dirf = sample_strike_faces(rng, n)
    land = drift_landing(target.offset, acc, dirf, hit_on, width=w, height=h)
    counts, off = landing_histogram(land, w, h)
    exact = exact_landing_distribution(target, hit_on, width=w, height=h)
    assert off == 0 and None not in exact
    assert counts.sum() == n
    for hx in BattleMap.new(w, h).hexes():
        p = float(exact.get(hx, 0))
        c = counts[hx.offset[1], hx.offset[0]]
        if p == 0:
            assert c == 0, f"seed {seed}: {hx.label} hit {c} times, exact probability 0"
            continue
        se = math.sqrt(p * (1 - p) / n)
        assert abs(c / n - p) <= 3 * se, f"seed {seed} ({side}): {hx.label} {c / n:.6f} vs exact {p:.6f}"


def test_near_an_edge_the_off_map_share_matches_exactly():
    w, h = 10, 10
    target = H("B02")
    seed = 77
    acc, dirf = sample_strike_faces(np.random.default_rng(seed), 400_000)
    land = drift_landing(target.offset, acc, dirf, 4, width=w, height=h)
    _, off = landing_histogram(land, w, h)
    p = float(exact_landing_distribution(target, 4, width=w, height=h)[None])
    assert p > 0
    se = math.sqrt(p * (1 - p) / acc.size)
    assert abs(off / acc.size - p) <= 3 * se, f"seed {seed}: off-map {off / acc.size} vs {p}"


def test_batched_hit_numbers_and_bonus_broadcast():
    hit = strike_hits(np.array([3, 3, 3, 3]), np.array([3, 4, 4, 5]), np.array([0, 0, 1, 1]))
    assert hit.tolist() == [True, False, True, False]
    rng = np.random.default_rng(9)
    n = 500
    acc, dirf = sample_strike_faces(rng, n)
    hit_on = rng.integers(2, 8, n)
    bonus = rng.integers(0, 2, n)
    targets = np.stack([rng.integers(0, 9, n), rng.integers(0, 9, n)], axis=1)
    batch = drift_landing(targets, acc, dirf, hit_on, bonus, width=9, height=9)
    for i in range(n):  # a sweep over hit numbers gives what each strike alone gives
        one = drift_landing(
            targets[i], acc[i : i + 1], dirf[i : i + 1], int(hit_on[i]), int(bonus[i]), width=9, height=9
        )
        for f in ("hit", "drift", "direction", "col", "row", "on_map", "q", "r"):
            assert getattr(batch, f)[i] == getattr(one, f)[0], (i, f)


@pytest.mark.parametrize("seed", range(12))
def test_game_path_uses_the_same_core_as_the_batch(seed):
    m = BattleMap.new(9, 9)
    d = Dice(seed)
    target = H("E05")
    s = roll_strike(m, "soviet", target, d, command_card=bool(seed % 2))
    faces = [r.natural for r in d.log]
    acc = faces[0]
    dirf = faces[1] if len(faces) > 1 else 0
    land = drift_landing(target.offset, [acc], [dirf], 4, seed % 2, width=9, height=9)
    assert (s.hit, s.drift, s.direction, s.off_map) == (
        bool(land.hit[0]),
        int(land.drift[0]),
        int(land.direction[0]),
        not bool(land.on_map[0]),
    )
    assert s.landing == Hex(int(land.q[0]), int(land.r[0]))


# -- targeting (R9.2) ------------------------------------------------------------------------
def test_targeting_needs_a_friendly_ground_unit_with_los():
    m = BattleMap.new(10, 10)
    sees_nothing = lambda a, b: False  # noqa: E731
    sees_near = lambda a, b: a.distance(b) <= 3  # noqa: E731
    assert "no ground unit on the map" in target_problem(m, H("E05"), [], sees_near)
    assert "no friendly ground unit has LOS" in target_problem(m, H("E05"), [H("A01")], sees_nothing)
    assert "off the map" in target_problem(m, H("Z30"), [H("A01")], sees_near)
    with pytest.raises(ArtilleryTargetError, match="LOS"):
        target_artillery(m, "german", H("J10"), [H("A01"), H("B01")], sees_near)
    ev = target_artillery(m, "german", H("E05"), [H("A01"), H("D04")], sees_near)
    assert ev == ArtilleryMarkerPlaced("german", H("E05"), H("D04"))
    v = m.version
    ev.apply(m)
    assert m.artillery_marker == H("E05") and m.version > v
    assert "facing north" in str(ev)
    ArtilleryMarkerRemoved("german").apply(m)
    assert m.artillery_marker is None


def test_targeting_uses_the_map_los_by_default():
    m = BattleMap.new(7, 5)
    for row in range(5):
        m.set_terrain(Hex.from_offset(3, row), "woods")  # a wall of woods down column D
    assert map_sees(m)(H("A03"), H("C03")) and not map_sees(m)(H("A03"), H("G03"))
    assert target_problem(m, H("C03"), [H("A03")]) is None
    with pytest.raises(ArtilleryTargetError, match="no friendly ground unit has LOS to G03"):
        target_artillery(m, "soviet", H("G03"), [H("A03"), H("B02")])
    assert target_artillery(m, "soviet", H("G03"), [H("A03"), H("F01")]).observer == H("F01")


def test_roll_strike_off_map_target_is_an_error():
    with pytest.raises(MapError):
        roll_strike(BattleMap.new(5, 5), "german", H("Z30"), Dice(1))


# -- resolution (R9.4) -----------------------------------------------------------------------
def test_strike_attacks_every_unit_then_the_building_and_units_keep_its_modifier():
    m = BattleMap.new(10, 10)
    m.set_terrain(H("E05"), "stone_building")
    units = [TargetUnit("rifles", "infantry"), TargetUnit("stug", "vehicle"), TargetUnit("ju87", "aircraft")]
    seen = []

    def attack_unit(unit, hx, mod, dice):
        seen.append((unit.id, hx.label, mod))
        return [f"combat: {unit.id}"]

    # accuracy 5 hits (Soviet 4+); building 2d6 = 5 + 5 + DI 4 = 14 = DR: rubble
    d = scripted_dice(5, 5, 5)
    events = resolve_artillery(
        m, "soviet", H("E05"), d, damage_index=4, units_at=lambda h: units, attack_unit=attack_unit
    )
    assert seen == [("rifles", "E05", 3), ("stug", "E05", 2)]  # the stone building's +3 / +2; no aircraft
    assert [type(e).__name__ if not isinstance(e, str) else e for e in events] == [
        "ArtilleryStrike",
        "ArtilleryUnitAttack",
        "combat: rifles",
        "ArtilleryUnitAttack",
        "combat: stug",
        "BuildingAttack",
        "ArtilleryMarkerRemoved",
    ]
    b = events[-2]
    assert isinstance(b, BuildingAttack) and b.result is BuildingResult.RUBBLE and b.av == 14
    assert isinstance(events[1], ArtilleryUnitAttack) and "rifles in E05 (terrain Defense +3)" in str(
        events[1]
    )
    apply_events(m, events)
    assert m.has_rubble(H("E05")) and m.artillery_marker is None
    assert [r.dice for r in d.log] == ["1d6", "2d6"]


def test_a_wreck_left_by_one_unit_protects_the_next():
    m = BattleMap.new(10, 10)
    black = next(w.id for w in m.rules.wrecks.values() if w.applies == "all" and w.modifier == 1)
    units = [TargetUnit("t34", "vehicle"), TargetUnit("rifles", "infantry")]
    mods = []

    def attack_unit(unit, hx, mod, dice):
        mods.append(mod)
        if unit.id == "t34":  # destroyed: the game applies its wreck at once
            ev = WreckPlaced(hx, black, "T-34", "soviet", True, 1, "all")
            ev.apply(m)
            return [ev]
        return []

    resolve_artillery(m, "german", H("C03"), scripted_dice(6), 4, lambda h: units, attack_unit)
    assert mods == [0, 1]


def test_strike_with_drift_attacks_the_landing_hex_not_the_target():
    m = BattleMap.new(10, 10)
    m.set_terrain(H("D05"), "wood_building")
    asked = []
    events = resolve_artillery(
        m,
        "soviet",
        H("D07"),
        scripted_dice(2, 1, 6, 6),
        damage_index=2,
        units_at=lambda h: asked.append(h) or [],
        attack_unit=lambda *a: [],
    )
    assert asked == [H("D05")]
    b = events[1]
    assert (
        isinstance(b, BuildingAttack) and b.hex == H("D05") and b.av == 14 and b.result is BuildingResult.FIRE
    )
    assert b.attacker == "Soviet artillery"


# -- with the real combat engine (hexwar.rules.combat) ---------------------------------------
@pytest.mark.integration
@pytest.mark.parametrize("seed", range(6))
def test_a_strike_through_the_combat_engine(seed):
    from hexwar.rules.cards import Deck, default_cards
    from hexwar.rules.combat import CombatEngine, DamageApplied, DefenseContext
    from hexwar.rules.units import roster

    cards = default_cards()
    units = roster(cards, ("de_grenadiers#1", None), ("de_pz_iv_g#1", "de_tank_crew_regular#1"))
    dice = Dice(seed)
    engine = CombatEngine(
        cards, dice, Deck("damage", [f"dmg{i:02d}#1" for i in range(1, 26)], reshuffle=True), units
    )
    m30 = cards.weapons["m30"]
    m = BattleMap.new(10, 10)
    m.set_terrain(H("E05"), "stone_building")
    targets = [TargetUnit("de_grenadiers#1", "infantry"), TargetUnit("de_pz_iv_g#1", "vehicle")]
    contexts = []

    def attack_unit(unit, hx, mod, d):
        contexts.append((unit.id, mod))
        return engine.fire_weapon(m30, units[unit.id], DefenseContext(terrain=mod), side="soviet")

    events = resolve_artillery(
        m,
        "soviet",
        H("E05"),
        dice,
        m30.damage_index,
        lambda h: targets if h == H("E05") else [],
        attack_unit,
        hit_on=1,
    )  # hit_on 1: always on target
    assert events[0].hit and contexts == [("de_grenadiers#1", 3), ("de_pz_iv_g#1", 2)]
    stone = {"de_grenadiers#1": 3, "de_pz_iv_g#1": 2}  # the stone building's soft / armored modifier
    for e in events:
        if isinstance(e, DamageApplied) and units[e.target].damage_card is None:
            assert e.defense == cards.unit(e.target).defense + stone[e.target], (seed, e)
            assert e.damage_index == m30.damage_index
    assert isinstance(events[-2], BuildingAttack) and isinstance(events[-1], ArtilleryMarkerRemoved)
    assert all(str(e) for e in events)
