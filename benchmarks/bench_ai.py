"""Computer-player decision time per shipped scenario (target: every decision under 1 s).

Plays standard-vs-standard games (and one standard-vs-random) of every scenario in the
project's ``scenarios/`` folder for a few turns and times each ``choose()`` call, per phase.
Prints a table with the mean, 95th percentile and worst decision, and the worst as a ratio of
the 1-second target (below 1.0 is good). A plain script, no timed assertions::

    python benchmarks/bench_ai.py [--turns 4] [--seeds 2] [SCENARIO ...]

``--sizes`` (issue 35) prints instead the cost of an AI-vs-AI turn of the standard game on
generated village maps of 30x20 to 500x500 hexes (``--map generated:1:village:WxH``), each
in a fresh process: CPU seconds per turn (the first turn, which builds per-shape tables,
and the median of the later ones) and the peak memory of the process, with the exponent of
their growth in the map's area (0: the cost does not grow with the map). Targets: a turn on
500x500 under 10 s and 1 GB, and at most 5x the CPU of a turn on 60x40.

``--startup`` (issue 35) prints the CPU seconds of loading each shipped scenario and its map
in a fresh process, the game modules' imports apart (target: under 0.3 s), with hexwar's
bytecode compiled first, as an installed hexwar's is (bench_startup.py and bench_maps.py count
a start the same way): the least of ``STARTUP_RUNS`` fresh processes a scenario, since a shared
machine only ever adds time (one process a scenario made the slowest of 20 scenarios the
noisiest of 20 single draws).
"""

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

import hexwar
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


SIZES = ((30, 20), (60, 40), (120, 80), (240, 160), (500, 500))
SIZE_TURNS = 6
TURN_TARGET_S = 10.0
TURN_TARGET_MB = 1024.0
TURN_RATIO_TARGET = 5.0  # a 500x500 turn against a 60x40 one


def standard_on_generated_map(width: int, height: int) -> tuple[Any, float]:
    """The standard scenario on ``generated:1:village:WIDTHxHEIGHT`` and the CPU seconds the map
    took to generate (shared with bench_games.py's size rows)."""
    from hexwar.game.onmap import scenario_on_map

    sc = load_scenario(str(content_dir("scenarios") / "standard.toml"))
    c0 = time.process_time()
    sc = scenario_on_map(sc, f"generated:1:village:{width}x{height}")
    return sc, time.process_time() - c0


def size_worker(width: int, height: int, turns: int) -> None:
    """Play ``turns`` turns of the standard game on a generated map; print one JSON line."""
    import resource

    sc, gen = standard_on_generated_map(width, height)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    g = sc.new_game(seed=1)
    players = {s: make_player("standard", s, 1) for s in ("german", "soviet")}
    per_turn = []
    commands = 0
    for t in range(1, turns + 1):
        c0 = time.process_time()
        while not g.over and g.turn <= t:
            g.apply(players[g.to_act].choose(g))
            commands += 1
        per_turn.append(time.process_time() - c0)
        if g.over:
            break
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {"gen": gen, "turns": per_turn, "rss_mb": rss, "rss_before_mb": rss0, "commands": commands}
        )
    )


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) against log(x)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum((a - mx) ** 2 for a in lx)


def bench_sizes(turns: int) -> list[str]:
    """The ``--sizes`` table; returns the misses."""
    print(
        f"AI-vs-AI turns of the standard game on generated village maps (seed 1), {turns} turns, "
        f"each size in a fresh process; CPU seconds (load average {os.getloadavg()[0]:.1f})"
    )
    head = (
        f"{'map':>9} {'hexes':>7} {'gen s':>7} {'turn 1 s':>9} {'median s':>9} {'max s':>7} "
        f"{'peak MB':>8} {'cmds':>5}"
    )
    print(head)
    print("-" * len(head))
    rows = {}
    for w, h in SIZES:
        out = subprocess.run(
            [sys.executable, __file__, "--size-worker", f"{w}x{h}", "--turns", str(turns)],
            capture_output=True,
            text=True,
            check=True,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        later = r["turns"][1:] or r["turns"]
        r["median"] = statistics.median(later)
        rows[(w, h)] = r
        print(
            f"{w}x{h:<5} {w * h:>7} {r['gen']:>7.2f} {r['turns'][0]:>9.3f} {r['median']:>9.3f} "
            f"{max(r['turns']):>7.3f} {r['rss_mb']:>8.0f} {r['commands']:>5}",
            flush=True,
        )
    areas = [w * h for w, h in rows]
    e_med = _slope(areas, [r["median"] for r in rows.values()])
    e_first = _slope(areas, [r["turns"][0] for r in rows.values()])
    e_mem = _slope(areas, [r["rss_mb"] for r in rows.values()])
    print(
        f"growth exponent in the area (cost ~ hexes^e): median turn {e_med:.2f}, first turn {e_first:.2f}, "
        f"peak memory {e_mem:.2f}"
    )
    big, ref = rows[(500, 500)], rows[(60, 40)]
    worst = max(big["turns"])
    ratio = big["median"] / max(ref["median"], 1e-9)
    figures = [
        ("slowest 500x500 turn (CPU s)", worst, f"< {TURN_TARGET_S:.0f} s", TURN_TARGET_S / max(worst, 1e-9)),
        (
            "500x500 peak memory (MB)",
            big["rss_mb"],
            f"< {TURN_TARGET_MB:.0f} MB",
            TURN_TARGET_MB / big["rss_mb"],
        ),
        (
            "median turn 500x500 / 60x40 (CPU)",
            ratio,
            f"<= {TURN_RATIO_TARGET:.0f}x",
            TURN_RATIO_TARGET / max(ratio, 1e-9),
        ),
    ]
    misses = []
    for name, value, target, met in figures:
        print(f"FIGURE | {name} | {value:.3g} | {target} | {met:.2f}")
        if met < 1:
            misses.append(name)
    return misses


STARTUP_TARGET_S = 0.3
STARTUP_RUNS = 3  #: fresh processes a scenario; the least is kept (as bench_startup.py's --runs)
_STARTUP_CODE = """
import json, sys, time
c0 = time.process_time()
from hexwar.game.scenario import load_scenario
c1 = time.process_time()
sc = load_scenario(sys.argv[1])
c2 = time.process_time()
print(json.dumps([c1 - c0, c2 - c1]))
"""


def bench_startup() -> list[str]:
    """Issue 35: CPU seconds to load each shipped hex-game scenario and its map in a fresh
    process: the game modules' imports, then the load itself (parse, schema and meaning
    checks, map). Returns the misses."""
    files = [str(p) for p in sorted(content_dir("scenarios").glob("*.toml"))]
    # the bytecode compiled first, as `pip install` does and as bench_startup.py and
    # bench_maps.py do: else this row pays for compiling hexwar's sources at every start on a
    # PYTHONDONTWRITEBYTECODE machine (0.55 s instead of 0.39 s on main 970b588), and its
    # figure depends on whether an earlier script happened to compile the tree
    compileall.compile_dir(os.path.dirname(hexwar.__file__), quiet=1)
    print(
        f"scenario + map load in a fresh process, CPU s, least of {STARTUP_RUNS} "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    print(f"{'scenario':<22} {'imports':>8} {'load':>7} {'total':>7}")
    worst_load = worst_total = 0.0
    for f in files:
        runs = []
        for _ in range(STARTUP_RUNS):
            out = subprocess.run(
                [sys.executable, "-c", _STARTUP_CODE, f], capture_output=True, text=True, check=True
            )
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        imp, load = min(runs, key=sum)
        worst_load, worst_total = max(worst_load, load), max(worst_total, imp + load)
        print(f"{os.path.basename(f):<22} {imp:>8.3f} {load:>7.3f} {imp + load:>7.3f}")
    misses = []
    for name, v in (
        ("slowest scenario + map load, fresh process (CPU s)", worst_load),
        ("slowest game imports + scenario + map load, fresh process (CPU s)", worst_total),
    ):
        met = STARTUP_TARGET_S / max(v, 1e-9)
        print(f"FIGURE | {name} | {v:.3f} | < {STARTUP_TARGET_S} s | {met:.2f}")
        if met < 1:
            misses.append(name)
    return misses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", action="store_true", help="turn cost by map size (issue 35)")
    ap.add_argument("--size-worker", metavar="WxH", help=argparse.SUPPRESS)
    ap.add_argument(
        "--startup", action="store_true", help="scenario + map load CPU in fresh processes (issue 35)"
    )
    ap.add_argument("scenarios", nargs="*", help="scenario files (default: every shipped scenario)")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args(argv)
    if args.size_worker:
        w, h = (int(x) for x in args.size_worker.split("x"))
        size_worker(w, h, args.turns)
        return 0
    if args.startup:
        bench_startup()
        return 0
    if args.sizes:
        bench_sizes(args.turns if args.turns != 4 else SIZE_TURNS)
        return 0
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
    print(
        f"FIGURE | worst AI decision, shipped scenarios (s) | {worst:.3f} | < {TARGET_S:.0f} s | {TARGET_S / max(worst, 1e-9):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
