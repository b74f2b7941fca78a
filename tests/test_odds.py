"""Exact pre-attack odds (R6): hand-worked cases, Monte Carlo of the engine, properties, CLI."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwar.cli import main
from hexwar.rules.cards import Deck, default_cards
from hexwar.rules.combat import (
    AttackOrders,
    CombatEngine,
    CombatError,
    DefenseContext,
    bonus_on,
    damage_card_deltas,
    damage_card_extra_dice,
    effective_defense,
    legal_weapons,
    to_hit_modifiers,
    with_damage_card,
)
from hexwar.rules.dice import Dice
from hexwar.rules.odds import (
    attack_odds,
    close_assault_odds,
    dice_sum_distribution,
    hit_probabilities,
    weapon_odds,
)
from hexwar.rules.units import roster

CARDS = default_cards()
T34, PZ4 = "su_t34_76#1", "de_pz_iv_g#1"


def duel(endurance=None, card=None):
    u = roster(CARDS, (T34, "su_tank_crew_regular#1"), (PZ4, "de_tank_crew_regular#1"))
    if endurance is not None:
        u[PZ4].endurance = endurance
    if card is not None:
        u[PZ4].damage_card = card
    return u


def approx(**kw):
    return {k: pytest.approx(v, abs=1e-12) for k, v in kw.items()}


# -- hand-worked exact values ------------------------------------------------------------------


def test_one_roll_probabilities():
    p = hit_probabilities(CARDS, 10)  # P(2d10 >= 10) = 0.64, of which 18: 0.03, 19-20: 0.03
    assert p == approx(miss=0.36, hit=0.58, double=0.03, special=0.03, friendly_fire=0.0)
    p = hit_probabilities(CARDS, 10, variant="classic")  # 2: 0.01, 3: 0.02 are friendly fire
    assert p == approx(miss=0.33, hit=0.58, double=0.03, special=0.03, friendly_fire=0.03)
    assert hit_probabilities(CARDS, 19)["double"] == 0.0  # a natural 18 that misses
    assert hit_probabilities(CARDS, 19, modifier=1)["double"] == pytest.approx(0.03)
    assert hit_probabilities(CARDS, 25)["special"] == pytest.approx(0.03)  # 19-20 always hit


def test_dice_sum_distribution():
    p, s, m = dice_sum_distribution(3)
    assert p.sum() == pytest.approx(1.0)
    assert float((p * s).sum()) == pytest.approx(16.5)
    assert float(p[m == 10].sum()) == pytest.approx(1 - 0.9**3)
    assert float(p[s == 30].sum()) == pytest.approx(0.001)


def test_target_holding_a_damage_card_worked_by_hand():
    """T-34 F-34 (10, DI 7) at a Pz IV G (Defense 6) down to 7 and holding Optics Damaged.

    hit 0.58: damage i+1, destroyed for i >= 6 (0.29), else damaged (0.29);
    18 (0.03): damage 2i+1, destroyed for i >= 3 (0.024), else damaged (0.006);
    19-20 (0.03): it has a card: destroyed with its crew.
    Crew: i=6 captured, 7-10 destroyed; doubled i=3 survives, 4-6 captured, 7-10 destroyed.
    """
    u = duel(endurance=7, card="dmg05#1")
    o = attack_odds(CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u)
    assert o.outcomes == approx(miss=0.36, no_effect=0.0, damaged=0.296, damage_card=0.0, destroyed=0.344)
    assert (o.crew_survives, o.crew_captured, o.crew_destroyed) == pytest.approx((0.003, 0.067, 0.274))
    assert o.expected_vp == pytest.approx(0.344 * 14 + 0.274 * 2 + 0.067 * 4)
    assert o.expected_damage == pytest.approx(0.344 * 7 + 0.058 * (2 + 3 + 4 + 5 + 6) + 0.003 * (3 + 5))


def test_one_card_deck_worked_by_hand():
    """Fresh Pz IV G (14 / 7), the deck holds only Optics Damaged (no Defense change).

    hit: i=1..5 damaged (e 12..8), i=6..10 card; 18: i=1,2 damaged, 3..6 card, 7..10 destroyed;
    19-20: card, then i+1 damage (never below 3).
    """
    u = duel()
    o = attack_odds(
        CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u, damage_deck={"dmg05": 1}
    )
    assert o.outcomes == approx(miss=0.36, no_effect=0.0, damaged=0.296, damage_card=0.332, destroyed=0.012)
    assert o.crew_destroyed == pytest.approx(0.012)


def test_extra_damage_card_worked_by_hand():
    """The deck holds only Ammunition Fire (1d10 extra damage on drawing).

    hit i=6..10 leaves 7..3: the extra d10 destroys with P = 0.4..0.8 (sum 3.0 x 0.058);
    18 i=3..6 leaves 7,5,3,1: P = 0.4, 0.6, 0.8, 1 (sum 2.8 x 0.003), i=7..10 destroyed;
    19-20: extra x then Intensity i: destroyed when x + i >= 13 (36 of 100).
    """
    u = duel()
    o = attack_odds(
        CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u, damage_deck={"dmg03": 1}
    )
    destroyed = 0.058 * 3.0 + 0.003 * 2.8 + 0.012 + 0.03 * 0.36
    card = 0.058 * 2.0 + 0.003 * 1.2 + 0.03 * 0.64
    assert o.outcomes == approx(
        miss=0.36, no_effect=0.0, damaged=0.296, damage_card=card, destroyed=destroyed
    )


def test_no_effect_when_damage_cannot_exceed_defense():
    # Kar 98k (DI 2) at a gun crew (Defense 0) is deadly; at a Ferdinand it cannot fire at all
    u = roster(CARDS, ("de_pzb39_team#1", None), ("su_kv_1s#1", "su_tank_crew_regular#1"))
    # PzB 39: 14 vs vehicles, DI 4; KV-1S Defense 7 +2 terrain: damage = max(0, i + 4 - 9) > 0 only for i >= 6
    o = attack_odds(
        CARDS,
        u["de_pzb39_team#1"],
        u["su_kv_1s#1"],
        AttackOrders((0,)),
        DefenseContext(terrain=2),
        units=u,
        damage_deck={"dmg05": 1},
    )
    p = hit_probabilities(CARDS, 14)
    no_dmg = p["hit"] * 0.5 + p["double"] * 0.2  # i <= 5 (hit), 2i <= 5 (18)
    assert o.no_effect == pytest.approx(no_dmg)
    assert o.miss == pytest.approx(p["miss"])


def test_odds_leave_the_units_unchanged_and_are_cached():
    u = duel()
    before = {k: v.to_json() for k, v in u.items()}
    a = attack_odds(CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u)
    b = attack_odds(CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u)
    assert a == b and {k: v.to_json() for k, v in u.items()} == before
    with pytest.raises(CombatError, match="bullets"):
        attack_odds(CARDS, u[PZ4], u[T34], AttackOrders((1,)), DefenseContext(), units=u)


@pytest.mark.parametrize(
    "setup",
    ["vehicle", "veteran vehicle", "vehicle on rubble", "hull down", "aircraft", "infantry", "crew", "gun"],
)
def test_damage_card_deltas_equal_what_if_copies(setup):
    """The odds' cached per-card deltas equal the engine's numbers for a copy holding the card."""
    u = roster(
        CARDS,
        ("su_t34_76#1", "su_tank_crew_regular#1"),
        ("de_pz_iv_g#1", "de_tank_crew_regular#1"),
        ("de_tiger_i#1", "de_tank_crew_veteran#1"),
        ("de_ju87g#1", "de_pilot_regular#1"),
        ("de_grenadiers#1", None),
        ("de_pak40#1", "de_artillery_crew_veteran#1"),
        ("de_mg42_team#1", None),
    )
    target = {
        "vehicle": "de_pz_iv_g#1",
        "veteran vehicle": "de_tiger_i#1",
        "vehicle on rubble": "de_pz_iv_g#1",
        "hull down": "de_pz_iv_g#1",
        "aircraft": "de_ju87g#1",
        "infantry": "de_grenadiers#1",
        "crew": "de_artillery_crew_veteran#1",
        "gun": "de_pak40#1",
    }[setup]
    t = u[target]
    t.immobilized = setup == "vehicle on rubble"
    if setup == "hull down":
        t.command_cards.append("hull_down#1")
    attacker = u["su_t34_76#1"]
    ctx = DefenseContext(terrain=1, hindrances=1)
    d0 = effective_defense(CARDS, t, ctx, u)[0]
    m0 = sum(v for _, v in to_hit_modifiers(CARDS, attacker, t, ctx, u))
    for cid in sorted(CARDS.damage):
        hyp = with_damage_card(CARDS, t, f"{cid}#1")
        want = (
            effective_defense(CARDS, hyp, ctx, u)[0] - d0,
            sum(v for _, v in to_hit_modifiers(CARDS, attacker, hyp, ctx, u)) - m0,
            damage_card_extra_dice(CARDS, t, cid, u),
        )
        assert damage_card_deltas(CARDS, t, cid, u) == want, (setup, cid)


# -- Monte Carlo of the engine against the exact odds ---------------------------------------------


@dataclass(frozen=True)
class Pair:
    name: str
    attackers: tuple[tuple[str, str | None], ...]
    target: tuple[str, str | None]
    orders: AttackOrders | None  # None: close assault by all attackers
    ctx: DefenseContext = DefenseContext()
    variant: str = "standard"
    deck: tuple[str, ...] = tuple(sorted(CARDS.damage))
    bonus: bool = False
    friendly: bool = False
    trials: int = 10_000
    seed: int = 0


PAIRS = [
    Pair(
        "Tiger (veteran) 88 at T-34 in brush",
        (("de_tiger_i#1", "de_tank_crew_veteran#1"),),
        (T34, "su_tank_crew_regular#1"),
        AttackOrders((0,)),
        DefenseContext(terrain=1),
        seed=101,
    ),
    Pair(
        "T-34 (green) at Pz IV G, hindered, classic with friendly fire",
        ((T34, "su_tank_crew_green#1"),),
        (PZ4, "de_tank_crew_regular#1"),
        AttackOrders((0,)),
        DefenseContext(hindrances=1),
        variant="classic",
        friendly=True,
        seed=102,
    ),
    Pair(
        "MG 42 HMG team (3x) at rifles in woods",
        (("de_mg42_team#1", None),),
        ("su_rifles#1", None),
        AttackOrders((0,)),
        DefenseContext(terrain=2),
        seed=103,
    ),
    Pair(
        "Il-2 (veteran) bomb + cannon at Pz III M (green), classic, no German ground unit",
        (("su_il2#1", "su_pilot_veteran#1"),),
        ("de_pz_iii_m#1", "de_tank_crew_green#1"),
        AttackOrders((0, 1)),
        DefenseContext(captor_has_ground_unit=False),
        variant="classic",
        seed=104,
    ),
    Pair(
        "SMG squad + Veteran NCO, Command-card bonus on every roll, at Grenadiers on a road",
        (("su_smg#1", None),),
        ("de_grenadiers#1", None),
        AttackOrders((0, 1), command_cards=("veteran_nco#1",)),
        DefenseContext(terrain=-1),
        bonus=True,
        trials=6_000,
        seed=105,
    ),
    Pair(
        "2 cm Flak (3x) at Sd.Kfz. 222, five-card deck of Defense-lowering and extra-damage cards",
        (("de_flak38#1", "de_artillery_crew_regular#1"),),
        ("su_ba64#1", "su_tank_crew_regular#1"),
        AttackOrders((0,)),
        deck=("dmg01", "dmg03", "dmg05", "dmg23", "dmg08"),
        seed=106,
    ),
    Pair(
        "Close assault: 2 rifle squads + PTRD team at Pz III M",
        (("su_rifles#1", None), ("su_rifles#2", None), ("su_ptrd_team#1", None)),
        ("de_pz_iii_m#1", "de_tank_crew_regular#1"),
        None,
        trials=8_000,
        seed=107,
    ),
]


def _exact(pair: Pair, units):
    att = [units[a] for a, _ in pair.attackers]
    tgt = units[pair.target[0]]
    deck = {c: 1 for c in pair.deck}
    if pair.orders is None:
        return close_assault_odds(
            CARDS, att, tgt, pair.ctx, units=units, variant=pair.variant, damage_deck=deck
        )
    return attack_odds(
        CARDS,
        att[0],
        tgt,
        pair.orders,
        pair.ctx,
        units=units,
        variant=pair.variant,
        damage_deck=deck,
        bonus_to_hit="all" if pair.bonus else (),
    )


def _units(pair: Pair):
    specs = list(pair.attackers) + [pair.target]
    if pair.friendly:
        specs.append(("su_rifles#9", None))
    return roster(CARDS, *specs)


def run_monte_carlo(pair: Pair, trials: int):
    """Play the attack ``trials`` times through the engine with the real seeded Dice."""
    dice = Dice(pair.seed)
    outcome = dict.fromkeys(("miss", "no_effect", "damaged", "damage_card", "destroyed"), 0)
    crew = dict.fromkeys(("survives", "captured", "destroyed"), 0)
    vp = np.zeros(trials)
    ff = np.zeros(trials)
    bonus = bonus_on(to_hit="all") if pair.bonus else None
    for k in range(trials):
        units = _units(pair)
        tgt = units[pair.target[0]]
        start = tgt.endurance
        deck = Deck("damage", [f"{c}#1" for c in pair.deck], reshuffle=True)
        dice.shuffle("damage deck", deck.cards)
        eng = CombatEngine(CARDS, dice, deck, units, variant=pair.variant)
        if pair.orders is None:
            ev = eng.close_assault([units[a] for a, _ in pair.attackers], tgt, pair.ctx)
        else:
            victim = units.get("su_rifles#9")

            def opponent_picks(attacker, weapon, index, victim=victim):
                return victim, DefenseContext()

            ev = eng.resolve_attack(
                units[pair.attackers[0][0]],
                tgt,
                pair.orders,
                pair.ctx,
                bonus=bonus,
                friendly_fire=opponent_picks if pair.friendly else None,
            )
        mine = [e for e in ev if getattr(e, "target", None) == tgt.uid or getattr(e, "unit", None) == tgt.uid]
        if tgt.endurance <= 0:
            outcome["destroyed"] += 1
        elif any(e.kind == "damage_card" for e in mine):
            outcome["damage_card"] += 1
        elif tgt.endurance < start:
            outcome["damaged"] += 1
        elif any(e.kind == "to_hit" and e.outcome in ("hit", "double", "special") for e in mine):
            outcome["no_effect"] += 1
        else:
            outcome["miss"] += 1
        for e in ev:
            if e.kind == "crew_fate":
                crew[e.fate] += 1
            if e.kind in ("destroyed", "crew_fate") and e.scorer == units[pair.attackers[0][0]].side:
                vp[k] += e.victory_points
        ff[k] = sum(e.kind == "friendly_fire" for e in ev)
        if k % 2000 == 0:
            dice.log.clear()
    return outcome, crew, vp, ff


def _check_against_exact(pair: Pair, trials: int) -> None:
    units = _units(pair)
    exact = _exact(pair, units)
    outcome, crew, vp, ff = run_monte_carlo(pair, trials)
    checks = [(k, outcome[k] / trials, v) for k, v in exact.outcomes.items()]
    checks += [(f"crew {k}", crew[k] / trials, getattr(exact, f"crew_{k}")) for k in crew]
    for name, f, p in checks:
        se = math.sqrt(p * (1 - p) / trials)
        assert abs(f - p) <= 3 * se + 1e-12, (
            f"{pair.name} (seed {pair.seed}, {trials} trials): {name} {f:.4f} vs exact {p:.4f}, 3 SE = {3 * se:.4f}"
        )
    for name, sample, mean in (
        ("victory points", vp, exact.expected_vp),
        ("friendly-fire rolls", ff, exact.friendly_fire),
    ):
        se = sample.std(ddof=1) / math.sqrt(trials)
        assert abs(sample.mean() - mean) <= 3 * se + 1e-12, (
            f"{pair.name} (seed {pair.seed}): mean {name} {sample.mean():.4f} vs exact {mean:.4f}, 3 SE = {3 * se:.4f}"
        )


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name.split(",")[0])
def test_engine_monte_carlo_agrees_with_exact_odds(pair):
    """64,000 seeded trials in all (1e5 per pair under ``-m slow``): each outcome, crew fate, the
    mean victory points and friendly-fire count within 3 standard errors of the exact odds."""
    _check_against_exact(pair, pair.trials)


@pytest.mark.slow
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.name.split(",")[0])
def test_engine_monte_carlo_agrees_with_exact_odds_1e5_each(pair):
    _check_against_exact(pair, 100_000)


def test_off_board_artillery_odds_match_the_engine():
    u = roster(CARDS, ("de_grenadiers#1", None))
    w = CARDS.weapons["m30"]
    exact = weapon_odds(CARDS, w, u["de_grenadiers#1"], DefenseContext(terrain=3), units=u)
    dice, n, dead = Dice(7), 6000, 0
    for _ in range(n):
        v = roster(CARDS, ("de_grenadiers#1", None))
        deck = Deck("damage", [f"{c}#1" for c in sorted(CARDS.damage)], reshuffle=True)
        dice.shuffle("deck", deck.cards)
        CombatEngine(CARDS, dice, deck, v).fire_weapon(
            w, v["de_grenadiers#1"], DefenseContext(terrain=3), side="soviet"
        )
        dead += v["de_grenadiers#1"].endurance <= 0
    se = math.sqrt(exact.destroyed * (1 - exact.destroyed) / n)
    assert abs(dead / n - exact.destroyed) <= 3 * se, "seed 7"


# -- properties over the whole card set ------------------------------------------------------------

GROUND = sorted(u.id for u in CARDS.units.values() if not u.is_crew)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    st.sampled_from(GROUND),
    st.sampled_from(GROUND),
    st.integers(-2, 4),
    st.integers(0, 2),
    st.sampled_from(["standard", "classic"]),
    st.data(),
)
def test_odds_are_a_distribution_and_move_the_right_way(a_id, t_id, terrain, hind, variant, data):
    a, t = CARDS.unit(a_id), CARDS.unit(t_id)
    if a.side == t.side:
        t_id = next(
            u for u in GROUND if CARDS.unit(u).side != a.side and CARDS.unit(u).unit_type == t.unit_type
        )
        t = CARDS.unit(t_id)
    specs = [
        (f"{a.id}#1", f"{CARDS.crew_card(a.side, a.crew).id}#1" if a.needs_crew else None),
        (f"{t.id}#1", f"{CARDS.crew_card(t.side, t.crew).id}#2" if t.needs_crew else None),
    ]
    u = roster(CARDS, *specs)
    att, tgt = u[specs[0][0]], u[specs[1][0]]
    ws = legal_weapons(CARDS, att, tgt, u)
    if not ws:
        return
    weapons = tuple(data.draw(st.lists(st.sampled_from(ws), min_size=1, max_size=2, unique=True)))
    ctx = DefenseContext(terrain=terrain, hindrances=hind)
    o = attack_odds(CARDS, att, tgt, AttackOrders(weapons), ctx, units=u, variant=variant)
    vals = list(o.outcomes.values())
    assert all(-1e-12 <= v <= 1 + 1e-12 for v in vals)
    assert sum(vals) == pytest.approx(1.0, abs=1e-9)
    assert sum(o.endurance) + o.destroyed == pytest.approx(1.0, abs=1e-9)
    if t.needs_crew:
        assert o.crew_survives + o.crew_captured + o.crew_destroyed == pytest.approx(o.destroyed, abs=1e-9)
    # the Command-card bonus never helps the target; better cover never hurts it
    plus = attack_odds(
        CARDS, att, tgt, AttackOrders(weapons), ctx, units=u, variant=variant, bonus_to_hit="all"
    )
    assert plus.miss <= o.miss + 1e-12
    cover = attack_odds(
        CARDS,
        att,
        tgt,
        AttackOrders(weapons),
        DefenseContext(terrain=terrain + 2, hindrances=hind),
        units=u,
        variant=variant,
    )
    assert cover.destroyed <= o.destroyed + 1e-12 and cover.expected_damage <= o.expected_damage + 1e-9


# -- the command line -------------------------------------------------------------------------------


def test_cli_odds_text_and_json(capsys):
    assert main(["odds", "su_t34_76", "1", "de_pz_iv_g", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    u = duel()
    exact = attack_odds(CARDS, u[T34], u[PZ4], AttackOrders((0,)), DefenseContext(), units=u)
    assert d["outcomes"] == pytest.approx(exact.outcomes)
    assert d["weapons"] == [{"weapon": "76 mm F-34", "rolls": 1, "attack_value": 10, "damage_index": 7}]
    assert (
        main(
            [
                "odds",
                "Tiger I",
                "8.8",
                "T-70",
                "--defense-mod",
                "2",
                "--hindrances",
                "1",
                "--crew",
                "veteran",
                "--variant",
                "classic",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "needs 8" in out and "Defense 5" in out and "veteran crew +1" in out and "destroyed" in out
    assert main(["odds", "de_grenadiers", "1+2", "su_rifles", "--endurance", "7", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["target_endurance"] == 7 and len(d["weapons"]) == 2
    assert d["defense"] == 0 and d["outcomes"]["damage_card"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["de_tiger_i", "2", "su_t34_76"], "bullets"),
        (["de_tiger_i", "7", "su_t34_76"], "no weapon 7"),
        (["Matilda", "1", "su_t34_76"], "no unit card"),
        (["T-34", "1", "de_tiger_i"], "several"),
        (["de_tiger_i", "1", "su_t34_76", "--endurance", "40"], "Endurance 1..14"),
        # found by trying hexwar as a new user: an OverflowError traceback, a message naming an
        # instance id "nope#1", and an empty name listing all 70 cards
        (["de_tiger_i", "1", "su_t34_76", "--defense-mod", "99999999999999999999999"], "--defense-mod"),
        (["de_tiger_i", "1", "su_t34_76", "--card", "nope"], "unknown Command card 'nope'"),
        (["", "1", "su_t34_76"], "empty unit name"),
    ],
)
def test_cli_odds_errors_are_one_clear_line(capsys, args, message):
    assert main(["odds", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
