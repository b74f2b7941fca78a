"""Run every hexwar benchmark, print their tables, then every figure against its target.

    python benchmarks/run_all.py            # full runs (several minutes)
    python benchmarks/run_all.py --quick    # short runs of the scripts that support it
    python benchmarks/run_all.py los sim    # only some
    python benchmarks/run_all.py --check    # exit 1 when a figure misses its target

Each script prints its own table with the ratio of each measurement to the target or
baseline its issue names (LOS: issues 3, 22 and 35; odds and AI: issues 4, 6 and 35;
renderer: issue 7; simulation: issue 9; lines: issue 15; balance on Dask: issues 20 and 35;
network play: issue 18; whole games and window frames against main before the change: issue
22; loading a 500x500 map and a game's start-up against main before the typed file models:
issue 34; the hard search players: issue 31). This runner runs them one after another in fresh
processes (with this tree first on
``PYTHONPATH``, so a worktree measures its own code), so one benchmark's caches and GL context
never flatter another's.

Issue 35: a script states a figure with a target on a line ``FIGURE | name | measured |
target | met``, where ``met`` is a ratio that is at least 1 exactly when the target is met
(the same direction for every figure). The runner collects those lines into one summary
table, marks each ``met`` or ``MISS``, lists the misses and the scripts that failed or
state no figure, and with ``--check`` exits non-zero on any miss or failure. The machine's
load average is printed before and after: on a shared machine timings are slower, never
faster.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# name -> (script, extra arguments for --quick)
BENCHMARKS: dict[str, tuple[str, list[str]]] = {
    "los": ("bench_los.py", ["--quick"]),
    "odds": ("bench_odds.py", ["--quick"]),
    "ai": ("bench_ai.py", ["--turns", "2", "--seeds", "1"]),
    "ai-sizes": ("bench_ai.py", []),  # issue 35: turn cost by map size, 30x20 to 500x500
    "startup": ("bench_ai.py", []),  # issue 35: scenario + map load in a fresh process
    # issue 34: `hexwar play --headless` start by phase; the least of 3 fresh processes a scenario
    # even in a quick run (one draw a scenario made the slowest of 20 the noisiest of 20 draws)
    "startup-cli": ("bench_startup.py", ["--runs", "3"]),
    "render": ("bench_render.py", ["--frames", "20", "--samples", "1"]),
    "sim": ("bench_sim.py", ["--quick"]),
    "net": ("bench_net.py", ["--quick"]),
    "lines": ("bench_lines.py", ["--quick"]),
    "balance": ("bench_balance.py", ["--quick"]),
    "campaign": ("bench_campaign.py", ["--quick"]),
    "campaign_hard": ("bench_campaign_hard.py", ["--quick"]),
    "games": ("bench_games.py", ["--quick"]),
    "games-sizes": ("bench_games.py", ["--size-turns", "3"]),  # issue 35: whole games by map size
    "frame": ("bench_frame.py", ["--quick"]),
    "frame-x": ("bench_frame.py", ["--quick"]),  # the same in a real X window (Xvfb)
    "maps": ("bench_maps.py", ["--quick"]),
    "search": ("bench_search.py", ["--quick"]),
}
# name -> arguments of every run (quick or not)
ALWAYS: dict[str, list[str]] = {
    "frame-x": ["--xvfb"],
    "ai-sizes": ["--sizes"],
    "startup": ["--startup"],
    "games-sizes": ["--sizes"],
}
# name -> program it needs; without it the benchmark is skipped, said so
NEEDS: dict[str, str] = {"frame-x": "Xvfb"}


def parse_figure(line: str) -> tuple[str, str, str, float] | None:
    """``(name, measured, target, met)`` of a ``FIGURE | ...`` line, or ``None``.

    >>> parse_figure("FIGURE | one-to-all 100x100 | 8.1M/s | >= 10M/s | 0.81")
    ('one-to-all 100x100', '8.1M/s', '>= 10M/s', 0.81)
    >>> parse_figure("one-to-all | 8M/s") is None
    True
    """
    if not line.startswith("FIGURE |"):
        return None
    parts = [p.strip() for p in line.split("|")]
    if len(parts) < 5:
        return None
    try:
        met = float(parts[-1])
    except ValueError:
        return None
    return " | ".join(parts[1:-3]), parts[-3], parts[-2], met


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks; return 1 if any script failed, or with ``--check`` if any
    figure missed its target."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "names", nargs="*", metavar="NAME", help=f"benchmarks to run: {', '.join(BENCHMARKS)} (default: all)"
    )
    ap.add_argument("--quick", action="store_true", help="short runs")
    ap.add_argument("--check", action="store_true", help="exit 1 when any figure misses its target")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        ap.error(f"unknown benchmark {unknown[0]!r}; expected one of {', '.join(BENCHMARKS)}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    failed: list[str] = []
    silent: list[str] = []
    figures: list[tuple[str, str, str, str, float]] = []
    for name in args.names or list(BENCHMARKS):
        script, quick = BENCHMARKS[name]
        if name in NEEDS and shutil.which(NEEDS[name]) is None:
            print(f"\n=== {name}: skipped ({NEEDS[name]} is not installed)", flush=True)
            continue
        cmd = [sys.executable, str(HERE / script), *ALWAYS.get(name, []), *(quick if args.quick else [])]
        print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert proc.stdout is not None
        found = 0
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            fig = parse_figure(line.strip())
            if fig is not None:
                figures.append((name, *fig))
                found += 1
        rc = proc.wait()
        print(
            f"=== {name}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        if rc:
            failed.append(name)
        elif not found:
            silent.append(name)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "\nEvery figure against its target (met: measured / target in the direction of the target, >= 1 is met)"
    )
    print("benchmark | figure | measured | target | met | ")
    print("--- | --- | --- | --- | --- | ---")
    misses = []
    for bench, fig, measured, target, met in figures:
        ok = met >= 1.0
        print(f"{bench} | {fig} | {measured} | {target} | {met:.2f} | {'met' if ok else 'MISS'}")
        if not ok:
            misses.append(f"{bench}: {fig} ({measured}, target {target}, {met:.2f})")
    print(f"\nmisses ({len(misses)}):" if misses else "\nmisses: none")
    for m in misses:
        print(f"  {m}")
    if silent:
        print(f"scripts that state no FIGURE line (their own tables above): {', '.join(silent)}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    if failed or (args.check and misses):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
