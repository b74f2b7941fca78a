"""Run every hexwar benchmark and print their tables (speed targets live here, never in tests).

    python benchmarks/run_all.py            # full runs (several minutes)
    python benchmarks/run_all.py --quick    # short runs of the scripts that support it
    python benchmarks/run_all.py los sim    # only some

Each script prints its own table with the ratio of each measurement to the target or
baseline its issue names (LOS: issue 3; odds and AI: issues 4 and 6; renderer: issue 7;
simulation: issue 9; lines: issue 15; balance on Dask: issue 20; network play: issue 18; whole games and window frames against
main before the change: issue 22). This runner only runs them one after another in fresh processes, so
one benchmark's caches and GL context never flatter another's, and reports any that failed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (script, extra arguments for --quick)
BENCHMARKS: dict[str, tuple[str, list[str]]] = {
    "los": ("bench_los.py", ["--quick"]),
    "odds": ("bench_odds.py", ["--quick"]),
    "ai": ("bench_ai.py", ["--turns", "2", "--seeds", "1"]),
    "render": ("bench_render.py", ["--frames", "20", "--samples", "1"]),
    "sim": ("bench_sim.py", ["--quick"]),
    "net": ("bench_net.py", ["--quick"]),
    "lines": ("bench_lines.py", ["--quick"]),
    "balance": ("bench_balance.py", ["--quick"]),
    "campaign": ("bench_campaign.py", ["--quick"]),
    "campaign_hard": ("bench_campaign_hard.py", ["--quick"]),
    "games": ("bench_games.py", ["--quick"]),
    "frame": ("bench_frame.py", ["--quick"]),
    "frame-x": ("bench_frame.py", ["--quick"]),  # the same in a real X window (Xvfb)
}
# name -> arguments of every run (quick or not)
ALWAYS: dict[str, list[str]] = {"frame-x": ["--xvfb"]}
# name -> program it needs; without it the benchmark is skipped, said so
NEEDS: dict[str, str] = {"frame-x": "Xvfb"}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks; return 1 if any script failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "names", nargs="*", metavar="NAME", help=f"benchmarks to run: {', '.join(BENCHMARKS)} (default: all)"
    )
    ap.add_argument("--quick", action="store_true", help="short runs")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        ap.error(f"unknown benchmark {unknown[0]!r}; expected one of {', '.join(BENCHMARKS)}")
    failed = []
    for name in args.names or list(BENCHMARKS):
        script, quick = BENCHMARKS[name]
        if name in NEEDS and shutil.which(NEEDS[name]) is None:
            print(f"\n=== {name}: skipped ({NEEDS[name]} is not installed)", flush=True)
            continue
        cmd = [sys.executable, str(HERE / script), *ALWAYS.get(name, []), *(quick if args.quick else [])]
        print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.call(cmd)
        print(
            f"=== {name}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        if rc:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
