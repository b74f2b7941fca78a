"""Speed of the exact pre-attack odds (R6) for the computer player, printed as a table.

Rows: the exact odds with an empty plan cache (first call for a situation), the exact odds on
a cache hit (the same situation asked again, as an AI does many times per decision), and the
approach a user would write instead: a Monte Carlo of 1,000 attacks through the combat
engine (about +-1.5 percentage points of precision, and still not exact). Ratios are against
the uncached exact odds.

    python benchmarks/bench_odds.py [--quick]
"""

from __future__ import annotations

import sys
import time

from hexwar.rules.cards import Deck, default_cards
from hexwar.rules.combat import AttackOrders, CombatEngine, DefenseContext
from hexwar.rules.dice import Dice
from hexwar.rules.odds import attack_odds, clear_cache
from hexwar.rules.units import roster

CARDS = default_cards()
PAIRS = [
    (
        "T-34/76 F-34 -> Pz IV G",
        ("su_t34_76#1", "su_tank_crew_regular#1"),
        ("de_pz_iv_g#1", "de_tank_crew_regular#1"),
        (0,),
    ),
    (
        "Tiger 88 -> T-34/76",
        ("de_tiger_i#1", "de_tank_crew_veteran#1"),
        ("su_t34_76#1", "su_tank_crew_regular#1"),
        (0,),
    ),
    ("MG 42 HMG (3x) -> rifles", ("de_mg42_team#1", None), ("su_rifles#1", None), (0,)),
    (
        "Il-2 bomb + cannon (3 rolls) -> Pz III M",
        ("su_il2#1", "su_pilot_regular#1"),
        ("de_pz_iii_m#1", "de_tank_crew_regular#1"),
        (0, 1),
    ),
    ("SMG squad (4 rolls) -> Grenadiers", ("su_smg#1", None), ("de_grenadiers#1", None), (0, 1)),
]


def timeit(fn, min_time: float) -> float:
    """Seconds per call, repeating until ``min_time`` has passed."""
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return dt / n


def main(quick: bool = False) -> None:
    min_time = 0.2 if quick else 1.0
    mc_trials = 200 if quick else 1000
    rows = []
    for name, a, t, weapons in PAIRS:
        u = roster(CARDS, a, t)
        att, tgt = u[a[0]], u[t[0]]
        orders, ctx = AttackOrders(weapons), DefenseContext(terrain=1)

        def exact():
            return attack_odds(CARDS, att, tgt, orders, ctx, units=u)

        def uncached():
            clear_cache()
            return exact()

        dice = Dice(1)
        ids = [f"{d}#1" for d in sorted(CARDS.damage)]

        def monte_carlo():
            for _ in range(mc_trials):
                v = roster(CARDS, a, t)
                deck = Deck("damage", list(ids), reshuffle=True)
                dice.shuffle("deck", deck.cards)
                CombatEngine(CARDS, dice, deck, v).resolve_attack(v[a[0]], v[t[0]], orders, ctx)
            dice.log.clear()

        t_unc = timeit(uncached, min_time)
        exact()
        t_hit = timeit(exact, min_time)
        t_mc = timeit(monte_carlo, min_time) * (1000 / mc_trials)
        rows.append((name, t_unc, t_hit, t_mc))
    print(
        f"{'attack':44s} {'exact, uncached':>16s} {'exact, cached':>14s} {'MC 1000 trials':>15s} "
        f"{'cached/uncached':>16s} {'MC/uncached':>12s}"
    )
    for name, t_unc, t_hit, t_mc in rows:
        print(
            f"{name:44s} {t_unc * 1e3:13.2f} ms {t_hit * 1e6:11.1f} us {t_mc * 1e3:12.1f} ms "
            f"{t_unc / t_hit:15.0f}x {t_mc / t_unc:11.0f}x"
        )
    # the one comparison this script makes, as a FIGURE line: the exact odds (uncached) beside
    # the Monte Carlo a user would write instead (1,000 trials, still not exact), slowest pair
    worst = min(t_mc / t_unc for _, t_unc, _, t_mc in rows)
    print(
        f"FIGURE | odds: exact (uncached) vs a 1,000-trial Monte Carlo, slowest pair | {worst:.0f}x faster | >= 1x | {worst:.2f}"
    )
    per_s = 1 / (sum(r[1] for r in rows) / len(rows))
    print(
        f"\nuncached exact odds: {per_s:,.0f} attacks per second; cached: "
        f"{1 / (sum(r[2] for r in rows) / len(rows)):,.0f} per second"
    )


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
