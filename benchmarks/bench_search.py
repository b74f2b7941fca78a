"""The hard (search) computer players (issue 31): decision time and whole-game time. A plain
script, no timed assertions::

    python benchmarks/bench_search.py            # every shipped hex scenario, 3 turns; lines
    python benchmarks/bench_search.py --quick    # 3 hex scenarios, 2 turns; 1 line game each
    python benchmarks/bench_search.py --lines    # the line games only (3 games each)
    python benchmarks/bench_search.py --game kuban --seed 2   # one hex game, CPU s only

Decision time: the hard player against the normal (standard) one, every hard decision timed,
on each scenario: median (target under 1 s) and 95th percentile (target under 3 s), with the
ratio target / figure (met at >= 1). Whole-game time: one seeded game of ``hard`` against
``hard`` beside ``normal`` against ``normal`` (today's players), per mode.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from hexwar.balance import GAME_KINDS  # the twelve 1943 scenarios and standard, one list)

HEX_SCENARIOS = GAME_KINDS["scenario"].defaults
QUICK_HEX = ("standard", "kharkov", "prokhorovka")
TARGET_MEDIAN_S = 1.0
TARGET_P95_S = 3.0


HEX_CPU: list[float] = []
"""CPU seconds of the hex decisions :func:`hex_decisions` timed (``time.process_time``): on a
machine shared with other work the wall time counts their work too."""


def hex_decisions(name: str, turns: int, seed: int = 1) -> list[float]:
    """Seconds of every hard decision in ``turns`` turns of hard (German) against normal (their
    CPU seconds are added to :data:`HEX_CPU`)."""
    from hexwar.game.ai import make_player
    from hexwar.game.scenario import find_scenario, load_scenario

    g = load_scenario(find_scenario(name)).new_game(seed)
    p = {"german": make_player("hard", "german", seed), "soviet": make_player("normal", "soviet", seed)}
    out = []
    while not g.over and g.turn <= turns:
        side = g.to_act
        t, cpu = time.perf_counter(), time.process_time()
        c = p[side].choose(g)
        if side == "german":
            out.append(time.perf_counter() - t)
            HEX_CPU.append(time.process_time() - cpu)
        g.apply(c)
    return out


def lines_decisions(name: str, games: int) -> list[float]:
    """CPU seconds of every hard decision in ``games`` games of hard (German seats) against
    normal (processor time of this process: on a shared, loaded machine the wall clock counts
    the other processes' turns too)."""
    from hexwar.game.scenario import load_scenario
    from hexwar.lines.players import make_lines_player
    from hexwar.search.lines_deck import with_hard_decks

    sc = load_scenario(name)
    levels = {s: "hard" if s.startswith("german") else "normal" for s in sc.seats}
    sc = with_hard_decks(sc, levels)  # as the game does: the hard seats play their own decks
    out = []
    for i in range(games):
        st = sc.new_game(seed=i)
        p = {s: make_lines_player(levels[s], s, i) for s in st.seats}
        while not st.over:
            s = st.to_act
            t = time.process_time()
            c = p[s].choose(st)
            if s.startswith("german"):
                out.append(time.process_time() - t)
            st.apply(c)
    return out


def whole_game(mode: str, name: str, level: str, seed: int = 2, cpu: bool = False) -> float:
    """Seconds of one game with ``level`` on every side or seat (``cpu``: this process's CPU
    seconds, ``time.process_time``, instead of the wall clock)."""
    clock = time.process_time if cpu else time.perf_counter
    t = clock()
    if mode == "hex":
        from hexwar.game.ai import make_player
        from hexwar.game.scenario import find_scenario, load_scenario

        g = load_scenario(find_scenario(name)).new_game(seed)
        p = {s: make_player(level, s, seed) for s in ("german", "soviet")}
        while not g.over:
            g.apply(p[g.to_act].choose(g))
    else:
        from hexwar.game.scenario import load_scenario
        from hexwar.lines.players import make_lines_player
        from hexwar.search.lines_deck import with_hard_decks

        sc = load_scenario(name)
        st = with_hard_decks(sc, dict.fromkeys(sc.seats, level)).new_game(seed=seed)
        q = {s: make_lines_player(level, s, seed) for s in st.seats}
        while not st.over:
            st.apply(q[st.to_act].choose(st))
    return clock() - t


def row(label: str, figure: float, target: float) -> str:
    """One table row: figure, target and ratio target / figure (>= 1 meets it)."""
    ratio = target / figure if figure > 0 else float("inf")
    return f"{label:<40} {figure:>10.3f} {target:>10.3f} {ratio:>8.2f}"


def lines_rows(games: int) -> list[float]:
    """Print the line games' decision rows (per scenario and both together, with their FIGURE
    lines) and return every timed decision."""
    every: list[float] = []
    for name in ("lines", "lines-4p"):
        d = lines_decisions(name, games)
        every += d
        print(row(f"{name} median", float(np.median(d)), TARGET_MEDIAN_S))
        print(row(f"{name} p95", float(np.percentile(d, 95)), TARGET_P95_S))
    med, p95 = float(np.median(every)), float(np.percentile(every, 95))
    print(
        f"FIGURE | hard lines decision median | {med:.3f} s | < {TARGET_MEDIAN_S} s | {TARGET_MEDIAN_S / med:.2f}"
    )
    print(f"FIGURE | hard lines decision p95 | {p95:.3f} s | < {TARGET_P95_S} s | {TARGET_P95_S / p95:.2f}")
    return every


def lines_whole_games() -> None:
    """Print the whole-game rows of the line games (CPU seconds): normal against normal beside
    hard against hard."""
    for name in ("lines", "lines-4p"):
        t = time.process_time()
        whole_game("lines", name, "normal")
        a = time.process_time() - t
        whole_game("lines", name, "hard")
        b = time.process_time() - t - a
        print(f"{'lines ' + name + ', both sides (CPU s)':<40} {a:>10.2f} {b:>10.2f} {b / a:>8.1f}")


def main(argv: list[str] | None = None) -> int:
    """Print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 hex scenarios, 2 turns, 1 line game each")
    ap.add_argument("--turns", type=int, default=3, help="hex turns timed per scenario")
    ap.add_argument("--games", type=int, default=3, help="line games timed per scenario")
    ap.add_argument("--lines", action="store_true", help="the line games only (no hex scenario)")
    ap.add_argument(
        "--game",
        metavar="SCENARIO",
        help="only one whole hex game of SCENARIO, normal and hard, in CPU s (issue 31: kuban)",
    )
    ap.add_argument("--seed", type=int, default=2, help="the --game's seed")
    args = ap.parse_args(argv)
    if args.game:
        a = whole_game("hex", args.game, "normal", args.seed, cpu=True)
        b = whole_game("hex", args.game, "hard", args.seed, cpu=True)
        print(f"{'whole game (CPU s)':<40} {'normal':>10} {'hard':>10} {'x':>8}")
        print(
            f"{'hex ' + args.game + ' seed ' + str(args.seed) + ', both sides':<40} {a:>10.2f} {b:>10.2f} {b / a:>8.1f}"
        )
        return 0
    if args.lines:
        head = f"{'hard decision (s)':<40} {'figure':>10} {'target':>10} {'ratio':>8}"
        print(f"search: hard lines player's decisions against normal, CPU s ({args.games} games each)")
        print(head + "\n" + "-" * len(head))
        lines_rows(args.games)
        print(f"\n{'whole game (s)':<40} {'normal':>10} {'hard':>10} {'x':>8}")
        lines_whole_games()
        return 0
    scen = QUICK_HEX if args.quick else HEX_SCENARIOS
    turns = 2 if args.quick else args.turns
    games = 1 if args.quick else args.games
    head = f"{'hard decision (s)':<40} {'figure':>10} {'target':>10} {'ratio':>8}"
    print(f"search: hard player's decisions against normal ({turns} hex turns, {games} line games)")
    print(head)
    print("-" * len(head))
    every: list[float] = []
    for name in scen:
        d = hex_decisions(name, turns)
        every += d
        print(row(f"{name} median", float(np.median(d)), TARGET_MEDIAN_S))
        print(row(f"{name} p95", float(np.percentile(d, 95)), TARGET_P95_S))
    every += lines_rows(games)
    if HEX_CPU:  # the hex decisions' own CPU time (the wall time above counts a shared machine's load)
        print(row("hex scenarios median, CPU s", float(np.median(HEX_CPU)), TARGET_MEDIAN_S))
        print(row("hex scenarios p95, CPU s", float(np.percentile(HEX_CPU, 95)), TARGET_P95_S))
    med, p95 = float(np.median(every)), float(np.percentile(every, 95))
    print(row("all scenarios median", med, TARGET_MEDIAN_S))
    print(row("all scenarios p95", p95, TARGET_P95_S))
    # the runner's summary lines (benchmarks/run_all.py): met >= 1 exactly when the target is met
    print(
        f"FIGURE | hard decision median | {med:.3f} s | < {TARGET_MEDIAN_S} s | {TARGET_MEDIAN_S / med:.2f}"
    )
    print(f"FIGURE | hard decision p95 | {p95:.3f} s | < {TARGET_P95_S} s | {TARGET_P95_S / p95:.2f}")
    print()
    head2 = f"{'whole game (s)':<40} {'normal':>10} {'hard':>10} {'x':>8}"
    print(head2)
    print("-" * len(head2))
    for mode, name in (("hex", "standard"),):
        a = whole_game(mode, name, "normal")
        b = whole_game(mode, name, "hard")
        print(f"{mode + ' ' + name + ', both sides':<40} {a:>10.2f} {b:>10.2f} {b / a:>8.1f}")
    lines_whole_games()
    return 0


if __name__ == "__main__":
    sys.exit(main())
