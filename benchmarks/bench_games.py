"""Whole AI-vs-AI games per second on every shipped scenario, against a baseline commit (issue 22).

Plays the same seeded standard-vs-standard games (``hexwar balance``'s game,
:func:`hexwar.balance.play_scenario_game`) with this tree's code and with the code of a
baseline commit (default: main before issue 22's changes), each in fresh processes, and
prints games per CPU second of each, the ratio (target: at least 2x on every scenario) and
whether both gave the same results (winner, reason, turn, score, objective points and
commands of every game: they must, the change is speed only).

The baseline is the ``git archive`` of ``--baseline`` unpacked in a temporary folder and put
first on ``PYTHONPATH``; the two trees take turns scenario by scenario, so a machine shared
with other work slows both alike. CPU seconds of the game process (not the wall clock) are
what is compared: other processes on the cores do not inflate them.

Run: ``python benchmarks/bench_games.py [--games 4] [--baseline REF] [SCENARIO ...]``
(``--quick``: 2 games). Asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: main just before issue 22's changes (the figures "today" are measured on).
BASELINE_REF = "94cea65"
TARGET_RATIO = 2.0
SCENARIOS = ("standard", "kharkov", "prokhorovka", "ponyri", "dnieper", "skirmish")


def worker(names: list[str], games: int, first_seed: int) -> None:
    """Play ``games`` games of each scenario; print one JSON line per scenario."""
    import hexwar
    from hexwar import balance as bal

    ai = {"german": "standard", "soviet": "standard"}
    for name in names:
        _, sc = bal.load_scenario_source(name)
        bal.play_scenario_game(sc, 10_000, None, ai, bal.MAX_TURNS)  # warm imports and caches
        results = []
        c0 = time.process_time()
        for seed in range(first_seed, first_seed + games):
            o = bal.play_scenario_game(sc, seed, None, ai, bal.MAX_TURNS)
            results.append(
                [
                    o.winner,
                    o.reason,
                    o.turn,
                    sorted(o.score.items()),
                    sorted(o.objective_points.items()),
                    o.commands,
                ]
            )
        cpu = time.process_time() - c0
        digest = hashlib.sha256(json.dumps(results).encode()).hexdigest()[:12]
        print(
            json.dumps(
                {
                    "scenario": name,
                    "games": games,
                    "cpu": cpu,
                    "digest": digest,
                    "module": str(Path(hexwar.__file__).parent),
                }
            ),
            flush=True,
        )


def baseline_tree(ref: str, into: Path) -> Path | None:
    """Unpack ``git archive ref`` into ``into``; ``None`` when git or the commit is missing."""
    try:
        data = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", ref], check=True, capture_output=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    path = into / "baseline.tar"
    path.write_bytes(data)
    with tarfile.open(path) as tf:
        tf.extractall(into / "tree", filter="data")
    return into / "tree"


def run(tree: Path, names: list[str], games: int, first_seed: int) -> dict[str, dict]:
    """Run :func:`worker` with ``tree`` first on the import path; results by scenario."""
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--games",
        str(games),
        "--seed",
        str(first_seed),
        *names,
    ]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=tree).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    for r in rows:
        if Path(r["module"]).resolve() != (tree / "hexwar").resolve():
            raise SystemExit(f"the worker imported hexwar from {r['module']}, not from {tree}")
    return {r["scenario"]: r for r in rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help=f"scenario names (default: {', '.join(SCENARIOS)})")
    ap.add_argument(
        "--games", type=int, default=None, help="games per scenario and tree (default 4, quick 2)"
    )
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--baseline", default=BASELINE_REF, help=f"baseline commit (default {BASELINE_REF})")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    names = args.scenarios or list(SCENARIOS)
    games = args.games or (2 if args.quick else 4)
    if args.worker:
        worker(names, games, args.seed)
        return 0
    print(
        f"AI-vs-AI games (standard vs standard), {games} per scenario and tree, seeds {args.seed}.."
        f"{args.seed + games - 1}; CPU seconds of the game process; load average {os.getloadavg()[0]:.1f}"
    )
    with tempfile.TemporaryDirectory(prefix="hexwar-bench-games-") as tmp:
        base = baseline_tree(args.baseline, Path(tmp))
        if base is None:
            print(f"baseline {args.baseline} not available (no git history): only this tree is measured")
        head = f"{'scenario':<13} {'baseline g/s':>12} {'now g/s':>9} {'ratio':>7} {'target':>7} {'same results':>13}"
        print(head)
        print("-" * len(head))
        worst = None
        for name in names:
            now = run(ROOT, [name], games, args.seed)[name]
            g_now = games / now["cpu"]
            if base is None:
                print(f"{name:<13} {'-':>12} {g_now:>9.2f} {'-':>7} {TARGET_RATIO:>6.1f}x {'-':>13}")
                continue
            old = run(base, [name], games, args.seed)[name]
            g_old = games / old["cpu"]
            ratio = g_now / g_old
            worst = ratio if worst is None else min(worst, ratio)
            same = "yes" if old["digest"] == now["digest"] else "NO"
            print(
                f"{name:<13} {g_old:>12.2f} {g_now:>9.2f} {ratio:>6.2f}x {TARGET_RATIO:>6.1f}x {same:>13}",
                flush=True,
            )
        if worst is not None:
            print(
                f"\nworst ratio {worst:.2f}x against the {TARGET_RATIO:.1f}x target (ratio to target "
                f"{worst / TARGET_RATIO:.2f}; at least 1.00 meets it); baseline {args.baseline}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
