#!/usr/bin/env python3
"""The German's ceiling against the random campaign player (issue 30, R11.2): an upper bound.

How often can *any* German win a basic war (002, battles by the cards) against the random
(``easy``) Soviet player? Every year is claimed (the tied-year rule), so the German wins the war
exactly when it wins 3 of the 5 years. Each seed fixes the five years' event card and
initiative (the event pile is shuffled at the set-up, the 1943 year cards are drawn next by the
war's generator, R1.2: neither depends on the play). The bound:

- **A year**, ``B(year, k)``: the German's chance of winning the year with its exact best
  response to the random player (:meth:`YearGame.random_value`, the year's Markov decision
  problem), maximised over the German's tactic cards and averaged over the random Soviet's
  ``C(5, k)`` equally likely sets of ``k`` cards (the random player chooses its set without
  looking). 1941: exactly one card a side. 1942: the German's best two cards, the Soviet at
  one or two. 1943-1945: the German holds all four cards with an effect (it may hold at most
  3, 4, 5: more cards never hurt a maximiser, and its own Bluff does nothing against a player
  that does not look), the Soviet none (``--kmax 0``, the default: a random Soviet's tactic
  card never gives the German a better battle than no card, checked here over every battle,
  while its battle cards stay uniformly random, so by induction over the battles left the
  year is worth at least as much to the German as against the real Soviet).
- **The Soviet's rank in 1942**: a side that wins a year has won at least 3 battles of it (at
  most two battles a year end without a winner: one Fighting Withdrawal a side), so it is
  promoted; the Soviet therefore holds at least ``1 + b`` cards after winning ``b`` years, and
  at most ``1 + years played``. A year is bounded by ``U(year, b) = max B(year, k)`` over
  those ``k``. (``--kmax K`` uses the Soviet sets of ``1 .. K`` cards from 1943 too, tighter
  but only valid if ``B`` falls with ``k`` beyond ``K``, as it does wherever computed.)
- **A war**: ``W(year, a, b) = U * W(next, a + 1, b) + (1 - U) * W(next, a, b + 1)``, 1 at
  three German years, 0 at three Soviet years. Whatever the German does, its chance of
  winning a year given the war so far is at most ``U(year, b)``, and ``W`` grows with ``U``,
  so ``W(1941, 0, 0)`` bounds the war.

Prints each seed's five years' bounds and its war bound, then the mean over the seeds (the
ceiling of the German's war-win rate over those seeds) and, both ways with every Soviet war
won, the bound on hard-vs-easy. The year tables are cached in ``--cache`` (JSON). Run:

    python tools/campaign_ceiling.py --seeds 100 [--workers 2] [--quiet]
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
    German a better battle than no card (the premise of the card-less relaxation). Raises
    AssertionError."""
    for gb, sb in itertools.product(CARDS.battle_cards("german"), CARDS.battle_cards("soviet")):
        for gt in (None, *TACTICS):
            w0 = _w(Play(gb, gt), Play(sb, None), event, initiative)
            for stt in TACTICS:
                assert _w(Play(gb, gt), Play(sb, stt), event, initiative) <= w0, (gb, gt, sb, stt, event)


def _w(g: Play, s: Play, event: str, initiative: str) -> int:
    oc = resolve_battle(CARDS, {"german": g, "soviet": s}, (event,), initiative)
    return 1 if oc.winner == "german" else -1 if oc.winner == "soviet" else 0


def year_table(job: tuple[str, str, int, int]) -> tuple[tuple[str, str, int, int], list[float]]:
    """``B(year, k)`` (see the module text) for (event, initiative, year index 0..4, kmax):
    ``k = 1`` in 1941, ``k = 1, 2`` in 1942; from 1943 ``k = 0`` (a Soviet without tactic
    cards) when ``kmax`` is 0, else ``k = 1 .. kmax`` (up to the year's largest rank)."""
    from hexwar.campaign.equilibrium import RandomSolver

    event, initiative, i, kmax = job
    RandomSolver.MEMO_LIMIT = RandomSolver.TOTAL_LIMIT = 20_000_000  # one memo for the year's Soviet sets
    g = YearGame(CARDS, (event,), initiative)
    gh, sh = CARDS.battle_cards("german"), CARDS.battle_cards("soviet")
    effect = tuple(t for t in TACTICS if t != "bluff")
    if i == 0:
        german_sets = [(t,) for t in effect]
    elif i == 1:
        german_sets = list(itertools.combinations(effect, 2))
    else:
        german_sets = [effect]
    if i == 0:
        ks = [1]
    elif i == 1:
        ks = [1, 2]
    elif kmax == 0:
        ks = [0]
        check_tactics_never_hurt_their_player(event, initiative)
    else:
        ks = list(range(1, min(kmax, 1 + i) + 1))
    out = []
    for k in ks:
        soviet_sets = list(itertools.combinations(TACTICS, k))
        best = max(
            sum((g.random_value(g.key(gh, sh, gt, st, 0), "german") + 1) / 2 for st in soviet_sets)
            / len(soviet_sets)
            for gt in german_sets
        )
        out.append(best)
    return job, out


def war_bound(us: list[list[float]]) -> float:
    """``W(1941, 0, 0)`` of the module text; ``us[i][b]`` is ``U(year i, b)``."""

    def w(i: int, a: int, b: int) -> float:
        if a >= 3:
            return 1.0
        if b >= 3 or i >= len(us):
            return 0.0
        u = us[i][b]
        return u * w(i + 1, a + 1, b) + (1 - u) * w(i + 1, a, b + 1)

    return w(0, 0, 0)


def main(argv: list[str] | None = None) -> int:
    """Print the per-seed bounds and their mean; returns 0."""
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=300)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--kmax", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--cache", default="")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    scheds = {seed: schedule(seed) for seed in range(a.first, a.first + a.seeds)}
    tables: dict[tuple[str, str, int, int], list[float]] = {}
    if a.cache and Path(a.cache).exists():
        for row in json.loads(Path(a.cache).read_text()):
            if row[1]:
                tables[tuple(row[0])] = row[1]  # type: ignore[index]
    jobs = sorted(
        {(ev, ini, i, a.kmax) for s in scheds.values() for i, (ev, ini) in enumerate(s)} - set(tables)
    )
    # the same table serves 1943-45 once the German holds all its cards: solve it once
    key = {j: (j[0], j[1], min(j[2], 2), j[3]) if a.kmax <= 3 else j for j in jobs}
    todo = sorted(set(key.values()) - set(tables))
    if a.workers > 1:
        with ProcessPoolExecutor(a.workers) as ex:
            got = dict(ex.map(year_table, todo))
    else:
        got = {}
        for j in todo:
            got.update([year_table(j)])
            if not a.quiet:
                print(f"  table {j}: " + " ".join(f"{p:.4f}" for p in got[j]), flush=True)
    for j in jobs:
        g = got.get(key[j]) or tables[key[j]]
        tables[j] = g
    tables.update(got)
    if a.cache:
        from hexwar.fileio import atomic_write_bytes

        atomic_write_bytes(a.cache, json.dumps([[list(k), v] for k, v in sorted(tables.items())]).encode())
    wars = []
    for seed, s in scheds.items():
        us = []
        for i, (ev, ini) in enumerate(s):
            b_k = tables[(ev, ini, i, a.kmax)]
            us.append([max(b_k[min(b, len(b_k) - 1) :]) for b in range(3)])
        wars.append(war_bound(us))
        if not a.quiet:
            print(
                f"seed {seed:3d}: years " + " ".join(f"{u[0]:.3f}" for u in us) + f"  war <= {wars[-1]:.3f}"
            )
    mean = sum(wars) / len(wars)
    print(
        f"German against the random player, seeds {a.first}..{a.first + a.seeds - 1}: war-win rate "
        f"<= {mean:.4f} ({'1943-45 against a Soviet without tactic cards' if a.kmax == 0 else f'1943-45: the Soviet sets of up to {a.kmax} cards'}); both ways, with every Soviet "
        f"war won: <= {(1 + mean) / 2:.4f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
