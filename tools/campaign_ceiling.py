#!/usr/bin/env python3
"""The German's ceiling against the random campaign player (issue 30, R11.2): an upper bound.

How often can *any* German win a basic war (002, battles by the cards) against the random
(``easy``) Soviet player? Every year is claimed (the tied-year rule), so the German wins the war
exactly when it wins 3 of the 5 years. For each seed (its event cards and its 1943 initiative
draw are fixed by the seed, R1.2) this script bounds the German's chance of winning each year,
whatever happened before, and combines the five bounds by the first-to-3 rule:

- 1941, exact: both sides hold one tactic card (Corporal). The German chooses its card, the
  random Soviet any of the five alike; then the German plays the exact best response to a
  random opponent for the whole year (:meth:`YearGame.random_value`, the year's Markov
  decision problem, no linear program). The bound is ``max over the German's card of the mean
  over the Soviet's card`` of ``P(win the year)``.
- 1942-1945, upper bounds: the German holds at most ``1 + years played`` tactic cards (one
  promotion a year) and chooses the best such set; the Soviet is given *no* tactic card. Both
  relaxations can only help the German: a maximiser never loses by holding more cards (it may
  leave them unplayed), and a random Soviet's tactic card never lowers its own battle (checked
  here over every battle of every event: the German's result with the Soviet playing a card is
  never better than with the Soviet playing none), while its battle cards stay uniformly random.
  By induction over the battles left, the year's value is then no smaller than against the
  real random Soviet, for any ranks.
- A war: P(at least 3 of 5 years) with independent years at those probabilities bounds the
  probability for any German policy (each year's conditional chance is at most its bound).

Prints each seed's bound, then the mean over the seeds (the ceiling of the German's war-win
rate in a head-to-head over those seeds) and the bound on hard-vs-easy both ways when the
hard player wins every war as the Soviet. Run:

    python tools/campaign_ceiling.py --seeds 300 [--workers 2] [--quiet]
"""

from __future__ import annotations

import argparse
import itertools
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexwar.campaign.cards import default_campaign_cards  # noqa: E402
from hexwar.campaign.equilibrium import YearGame  # noqa: E402
from hexwar.campaign.scoring import Play, resolve_battle  # noqa: E402

CARDS = default_campaign_cards()
TACTICS = tuple(CARDS.tactics)


def schedule(seed: int) -> list[tuple[str, str]]:
    """The five years' (event card, initiative holder) of a seeded basic war: the event pile is
    shuffled once at the set-up and the 1943 year cards are drawn next by the war's generator,
    so neither depends on the play (checked: two pairs of random players reach the same)."""
    from hexwar.campaign.ai import RandomPlayer
    from hexwar.campaign.state import new_campaign

    got = []
    for k in (1, 2):
        st, _ = new_campaign(seed)
        ps = {s: RandomPlayer(s, seed * 7 + k) for s in ("german", "soviet")}
        years: list[tuple[str, str]] = [(st.events_in_play[0], st.initiative)]
        while st.year < 1943:
            st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
        years.append((st.events_discard[-1], CARDS.year(1942).initiative))
        years.append((st.events_in_play[0], st.initiative))
        years += [(st.event_pile[i], CARDS.year(y).initiative) for i, y in enumerate((1944, 1945))]
        got.append(years)
    assert got[0] == got[1], (seed, got)
    return got[0]


def check_tactics_never_hurt_their_player(event: str, initiative: str) -> None:
    """Every German play against every Soviet battle card: a Soviet tactic card never gives the
    German a better battle than no card (the premise of the relaxation). Raises AssertionError."""
    for gb, sb in itertools.product(CARDS.battle_cards("german"), CARDS.battle_cards("soviet")):
        for gt in (None, *TACTICS):
            w0 = _w(Play(gb, gt), Play(sb, None), event, initiative)
            for stt in TACTICS:
                assert _w(Play(gb, gt), Play(sb, stt), event, initiative) <= w0, (gb, gt, sb, stt, event)


def _w(g: Play, s: Play, event: str, initiative: str) -> int:
    oc = resolve_battle(CARDS, {"german": g, "soviet": s}, (event,), initiative)
    return 1 if oc.winner == "german" else -1 if oc.winner == "soviet" else 0


def year_bound(job: tuple[str, str, int]) -> tuple[tuple[str, str, int], float]:
    """P(the German wins the year) bound for (event, initiative, year index 0..4)."""
    event, initiative, i = job
    check_tactics_never_hurt_their_player(event, initiative)
    g = YearGame(CARDS, (event,), initiative)
    gh, sh = CARDS.battle_cards("german"), CARDS.battle_cards("soviet")

    def p(gt: tuple[str, ...], st: tuple[str, ...]) -> float:
        return (g.random_value(g.key(gh, sh, gt, st, 0), "german") + 1) / 2

    if i == 0:  # 1941: exact at one card a side
        best = max(sum(p((t,), (s,)) for s in TACTICS) / len(TACTICS) for t in TACTICS)
    else:
        n = min(len(TACTICS), 1 + i)
        best = max(p(gt, ()) for gt in itertools.combinations(TACTICS, n))
    return job, best


def war_bound(ps: list[float]) -> float:
    """P(at least 3 of 5 independent years won) for the years' probabilities ``ps``."""
    total = 0.0
    for won in itertools.product((0, 1), repeat=len(ps)):
        if sum(won) >= 3:
            q = 1.0
            for w, p in zip(won, ps, strict=True):
                q *= p if w else 1 - p
            total += q
    return total


def main(argv: list[str] | None = None) -> int:
    """Print the per-seed bounds and their mean; returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    scheds = {seed: schedule(seed) for seed in range(a.seeds)}
    jobs = sorted({(ev, ini, i) for s in scheds.values() for i, (ev, ini) in enumerate(s)})
    if a.workers > 1:
        with ProcessPoolExecutor(a.workers) as ex:
            bounds = dict(ex.map(year_bound, jobs))
    else:
        bounds = dict(map(year_bound, jobs))
    wars = []
    for seed, s in scheds.items():
        ps = [bounds[(ev, ini, i)] for i, (ev, ini) in enumerate(s)]
        wars.append(war_bound(ps))
        if not a.quiet:
            print(f"seed {seed:3d}: years " + " ".join(f"{p:.3f}" for p in ps) + f"  war <= {wars[-1]:.3f}")
    mean = sum(wars) / len(wars)
    print(
        f"German against the random player, seeds 0..{a.seeds - 1}: war-win rate <= {mean:.4f} "
        f"(1941 exact; 1942-45 upper bounds); both ways, with every Soviet war won: "
        f"<= {(1 + mean) / 2:.4f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
