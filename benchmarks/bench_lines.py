"""Lines game (issue 15, R11.1): AI-vs-AI line games per second, and the computer player's
decision time (target: every decision under 1 s). A plain script, no timed assertions::

    python benchmarks/bench_lines.py            # 40 games per scenario
    python benchmarks/bench_lines.py --quick    # 8 games

Prints figure, baseline, target and ratio per row, like the other benchmarks. Baseline: the
first measurement on the 2-core development machine (this issue); target: at least 5 standard
2-player games per second (fast enough for the 200-game balance runs of docs/lines.md) and every
decision under 1 s.
"""

from __future__ import annotations

import argparse
import sys
import time

BASELINE_GAMES_S = {"lines": 9.0, "lines-4p": 3.5}
TARGET_GAMES_S = {"lines": 5.0, "lines-4p": 2.0}
TARGET_DECISION_S = 1.0


def bench(name: str, games: int) -> tuple[float, float, int]:
    """(games per second, worst decision seconds, commands) for ``games`` AI-vs-AI games."""
    from hexwar.game.scenario import load_scenario
    from hexwar.lines.ai import LinesAI

    sc = load_scenario(name)
    worst = 0.0
    cmds = 0
    t0 = time.perf_counter()
    for i in range(games):
        st = sc.new_game(seed=i)
        players = {s: LinesAI(s, i) for s in st.seats}
        while not st.over:
            t = time.perf_counter()
            c = players[st.to_act].choose(st)
            worst = max(worst, time.perf_counter() - t)
            st.apply(c)
            cmds += 1
    return games / (time.perf_counter() - t0), worst, cmds


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="8 games per scenario")
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args(argv)
    n = 8 if args.quick else args.games
    head = f"{'measurement':<34} {'figure':>10} {'baseline':>10} {'target':>10} {'ratio':>8}"
    print(f"lines: AI-vs-AI games, {n} per scenario")
    print(head)
    print("-" * len(head))
    for name in ("lines", "lines-4p"):
        gps, worst, cmds = bench(name, n)
        print(
            f"{name + ' games / s':<34} {gps:>10.2f} {BASELINE_GAMES_S[name]:>10.2f} {TARGET_GAMES_S[name]:>10.2f} "
            f"{gps / TARGET_GAMES_S[name]:>8.2f}"
        )
        print(
            f"FIGURE | {name} AI-vs-AI games per s | {gps:.2f} | >= {TARGET_GAMES_S[name]:g} | {gps / TARGET_GAMES_S[name]:.2f}"
        )
        print(
            f"FIGURE | {name} worst decision (s) | {worst:.3f} | < {TARGET_DECISION_S:g} s | "
            f"{TARGET_DECISION_S / max(worst, 1e-9):.2f}"
        )
        print(
            f"{name + ' worst decision s':<34} {worst:>10.3f} {'':>10} {TARGET_DECISION_S:>10.2f} "
            f"{worst / TARGET_DECISION_S:>8.3f}"
        )
        print(f"{name + ' commands / game':<34} {cmds / n:>10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
