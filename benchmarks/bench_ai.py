"""Computer-player decision time per shipped scenario (target: every decision under 1 s).

Plays standard-vs-standard games (and one standard-vs-random) of every scenario in the
project's ``scenarios/`` folder for a few turns and times each ``choose()`` call, per phase.
Prints a table with the mean, 95th percentile and worst decision, and the worst as a ratio of
the 1-second target (below 1.0 is good). A plain script, no timed assertions::

    python benchmarks/bench_ai.py [--turns 4] [--seeds 2] [SCENARIO ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

import numpy as np

from hexwar.game.ai import make_player
from hexwar.game.scenario import load_scenario
from hexwar.paths import content_dir

TARGET_S = 1.0


def bench(path: str, turns: int, seeds: int) -> tuple[str, dict[str, list[float]], int] | None:
    """Time the decisions of a hex-game scenario; ``None`` for a game on lines (no map: its
    players are timed by bench_lines.py)."""
    sc = load_scenario(path)
    if not hasattr(sc, "battlemap"):
        return None
    by_phase: dict[str, list[float]] = defaultdict(list)
    games = 0
    for seed in range(seeds):
        for pair in (("standard", "standard"), ("standard", "random")):
            g = sc.new_game(seed=seed)
            players = {
                "german": make_player(pair[0], "german", seed),
                "soviet": make_player(pair[1], "soviet", seed),
            }
            while not g.over and g.turn <= turns:
                side = g.to_act
                p = players[side]
                t0 = time.perf_counter()
                cmd = p.choose(g)
                dt = time.perf_counter() - t0
                if p.name == "standard":
                    by_phase[g.phase].append(dt)
                g.apply(cmd)
            games += 1
    return sc.id, by_phase, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario files (default: every shipped scenario)")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args(argv)
    files = args.scenarios or [str(p) for p in sorted(content_dir("scenarios").glob("*.toml"))]
    print(
        f"standard AI decision time, {args.seeds} seed(s) x 2 games, up to {args.turns} turns; target < {TARGET_S:.0f} s"
    )
    head = f"{'scenario':<22} {'phase':<12} {'decisions':>9} {'mean ms':>9} {'p95 ms':>9} {'max ms':>9} {'max/target':>10}"
    print(head)
    print("-" * len(head))
    worst = 0.0
    for f in files:
        timed = bench(f, args.turns, args.seeds)
        if timed is None:
            continue
        sid, by_phase, _ = timed
        alls = [x for v in by_phase.values() for x in v]
        for phase in sorted(by_phase, key=lambda p: -max(by_phase[p])):
            v = np.array(by_phase[phase]) * 1000
            print(
                f"{sid:<22} {phase:<12} {len(v):>9} {v.mean():>9.1f} {np.percentile(v, 95):>9.1f} {v.max():>9.1f} "
                f"{v.max() / 1000 / TARGET_S:>10.3f}"
            )
        a = np.array(alls) * 1000
        print(
            f"{sid:<22} {'(all)':<12} {len(a):>9} {a.mean():>9.1f} {np.percentile(a, 95):>9.1f} {a.max():>9.1f} "
            f"{a.max() / 1000 / TARGET_S:>10.3f}"
        )
        worst = max(worst, a.max() / 1000)
    print(f"\nworst decision: {worst * 1000:.0f} ms = {worst / TARGET_S:.3f} of the target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
