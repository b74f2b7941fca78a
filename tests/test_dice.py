"""The dice service (R1): exact 2d10 distribution, d10 faces 1..10, d6, logging, Command-card bonus."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.rules.dice import COMMAND_CARD_BONUS, Dice, DiceSpecError, parse_dice
from hexwar.rules.odds import TWO_D10, p_two_d10_at_least

SEED = 1943
N = 60_000


def exact_2d10(s: int) -> float:
    """P(2d10 = s) = (10 - |s - 11|) / 100 for s in 2..20 (R6.3)."""
    return (10 - abs(s - 11)) / 100 if 2 <= s <= 20 else 0.0


def test_exact_2d10_formula_is_the_convolution_of_two_d10():
    conv = np.convolve(np.full(10, 0.1), np.full(10, 0.1))  # sums 2..20
    for s in range(2, 21):
        assert math.isclose(conv[s - 2], exact_2d10(s))
        assert math.isclose(TWO_D10[s], exact_2d10(s))
    assert math.isclose(sum(exact_2d10(s) for s in range(2, 21)), 1.0)


def test_2d10_sums_match_the_exact_distribution():
    """All 19 sums at once: a chi-square goodness-of-fit test (18 degrees of freedom, p = 0.001:
    42.31) and each sum within 4 standard errors (3 SE on each of 19 sums would fail about one
    seed in twenty by chance alone)."""
    d = Dice(SEED)
    sums = np.array([d.roll("test", "2d10").natural for _ in range(N)])
    chi2 = 0.0
    for s in range(2, 21):
        p = exact_2d10(s)
        f = float(np.mean(sums == s))
        se = math.sqrt(p * (1 - p) / N)
        chi2 += (f - p) ** 2 * N / p
        assert abs(f - p) <= 4 * se, (
            f"seed {SEED}: P(2d10 = {s}) = {f:.4f}, exact {p:.4f} (4 SE {4 * se:.4f})"
        )
    assert chi2 < 42.31, f"seed {SEED}: chi-square {chi2:.1f} over 19 sums"


@pytest.mark.parametrize("attack_value", [2, 7, 10, 11, 14, 18, 20])
def test_2d10_hit_probabilities_match_the_exact_distribution(attack_value):
    exact = sum(exact_2d10(s) for s in range(attack_value, 21))
    assert math.isclose(p_two_d10_at_least(attack_value), exact)
    d = Dice(SEED + attack_value)
    hits = sum(d.roll("to hit", "2d10").result >= attack_value for _ in range(N // 4))
    f = hits / (N // 4)
    se = math.sqrt(max(0.0, exact * (1 - exact)) / (N // 4))
    assert abs(f - exact) <= 3 * se + 1e-12, f"seed {SEED + attack_value}: hit {f:.4f} vs exact {exact:.4f}"


def test_d10_never_shows_0_and_shows_every_face_1_to_10():
    d = Dice(SEED)
    faces = [d.d10("test") for _ in range(5000)] + [f for _ in range(2000) for f in d.roll("t", "2d10").faces]
    assert min(faces) == 1 and max(faces) == 10 and 0 not in faces
    assert set(faces) == set(range(1, 11))
    counts = np.bincount(faces, minlength=11)[1:]
    p, n = 0.1, len(faces)
    assert np.all(np.abs(counts / n - p) <= 3 * math.sqrt(p * (1 - p) / n))


def test_d6_range_and_uniformity():
    d = Dice(SEED)
    faces = [d.d6("test") for _ in range(6000)]
    assert set(faces) == set(range(1, 7))
    counts = np.bincount(faces, minlength=7)[1:]
    p = 1 / 6
    assert np.all(np.abs(counts / 6000 - p) <= 3 * math.sqrt(p * (1 - p) / 6000))
    r = d.roll("spread", "2d6", modifiers=[("fire", 6)])
    assert 2 <= r.natural <= 12 and r.result == r.natural + 6


def test_every_roll_is_logged_with_purpose_dice_faces_modifiers_result():
    d = Dice(5)
    r = d.roll("to hit: T-34 -> Tiger", "2d10", modifiers=[("veteran crew", 1), ("1 hindrance", -1)])
    d.d6("artillery accuracy")
    items = ["a", "b", "c"]
    d.shuffle("shuffle deck", items)
    d.choice("pick", ["x", "y"])
    assert len(d.log) == 4 and d.log[0] is r
    assert (r.purpose, r.dice, len(r.faces), r.modifiers) == (
        "to hit: T-34 -> Tiger",
        "2d10",
        2,
        (("veteran crew", 1), ("1 hindrance", -1)),
    )
    assert r.natural == sum(r.faces) and r.result == r.natural
    assert [x.dice for x in d.log] == ["2d10", "1d6", "shuffle", "choice of 2"]
    j = json.loads(json.dumps(r.to_json()))
    assert j == {
        "purpose": r.purpose,
        "dice": "2d10",
        "faces": list(r.faces),
        "modifiers": [["veteran crew", 1], ["1 hindrance", -1]],
        "natural": r.natural,
        "result": r.result,
    }
    assert str(r).startswith("to hit: T-34 -> Tiger: 2d10 [")


def test_same_seed_same_rolls():
    a, b = Dice(99), Dice(99)
    for d in (a, b):
        for _ in range(50):
            d.roll("x", "2d10")
            d.d6("y")
    assert [r.to_json() for r in a.log] == [r.to_json() for r in b.log]
    assert [r.faces for r in Dice(100).log] != [r.faces for r in a.log]


def test_command_card_bonus_is_an_explicit_logged_plus_one():
    d = Dice(3)
    plain = Dice(3).roll("to hit", "2d10")
    r = d.roll("to hit", "2d10", command_card=True)
    assert r.faces == plain.faces
    assert r.modifiers == (COMMAND_CARD_BONUS,) == (("command card", 1),)
    assert r.result == r.natural + 1
    # at most one per roll: the choice is a flag, not a count
    r2 = Dice(3).roll("to hit", "2d10", modifiers=[("green crew", -1)], command_card=True)
    assert [m for m in r2.modifiers if m[0] == "command card"] == [("command card", 1)]
    assert r2.result == r2.natural


def test_command_card_bonus_reaches_the_combat_log():
    from hexwar.rules.cards import Deck, default_cards
    from hexwar.rules.combat import AttackOrders, CombatEngine, DefenseContext, bonus_on
    from hexwar.rules.units import roster

    cards = default_cards()
    u = roster(cards, ("su_t34_76#1", "su_tank_crew_regular#1"), ("de_pz_iv_g#1", "de_tank_crew_regular#1"))
    d = Dice(11)
    eng = CombatEngine(cards, d, Deck("damage", ["dmg05#1"], reshuffle=True), u)
    ev = eng.resolve_attack(
        u["su_t34_76#1"], u["de_pz_iv_g#1"], AttackOrders((0,)), DefenseContext(), bonus=bonus_on(to_hit=[0])
    )
    to_hit = [e for e in ev if e.kind == "to_hit"][0]
    assert to_hit.roll.modifiers == (("command card", 1),) and to_hit.roll is d.log[0]


_GOOD = {f"{n}d{s}" for n in range(1, 100) for s in (6, 10)}


@given(st.text(max_size=8))
def test_bad_dice_expressions_are_refused(spec):
    if spec.strip().lower() in _GOOD:
        return
    with pytest.raises(DiceSpecError):
        parse_dice(spec)


def test_only_d6_and_d10_exist():
    assert parse_dice("3D10") == (3, 10)
    for bad in ("1d20", "0d6", "d6", "2d", "2x10"):
        with pytest.raises(DiceSpecError, match="d6 or d10"):
            parse_dice(bad)
