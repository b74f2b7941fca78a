"""Whole AI-vs-AI games per second on every shipped scenario, against a baseline commit (issue 22).

Plays seeded standard-vs-standard games (``hexwar balance``'s game,
:func:`hexwar.balance.play_scenario_game`, i.e. ``hexwar play --headless --seed``) with this tree's
code and with the code of other commits, each in fresh processes, and prints two tables.

1. **Speed against the baseline** (``--baseline``, default 94cea65: main before issue 22's
   changes, the "today" of the target "at least 2x today's games per second"). Since that commit
   the standard AI plays for objectives on purpose (issue 21) and the shipped scenarios were
   retuned, so the two trees' games on today's files are different games (other lengths, other
   winners). To compare identical work as far as possible, BOTH trees play the baseline tree's own
   scenario files (the six it shipped; today's code reads them) with the same seeds. What is
   compared is CPU seconds of the game process (not the wall clock), the fastest of ``--rounds``
   alternating runs of each tree (the same seeded games each run: on a machine shared with
   other work the same games vary 10-30% in CPU time, and the fastest run is the one least
   slowed by cache and core contention), and it is shown two ways: games per CPU second, and commands per CPU second
   (every command is one AI decision and its resolution, so this normalises away the game
   lengths that the AI change moved). The target is met when BOTH ratios are at least 2.

2. **Same results** (``--same-as``, default the merge base of HEAD and ``main``: main's code
   without this branch's changes). Both trees play this tree's scenario files (every shipped
   hex-game scenario, the 1943 ones too) with the same seeds; "same results" means equal digests
   of winner, reason, turn, score, objective points and command count of every game (the
   command log and state hashes are pinned by tests/test_seeded_games.py). The speed ratio there
   is against main's code and only informative (main already holds part of issue 22's work).
   When the merge base is HEAD itself (run on main) the check compares the code with itself and
   is skipped.

The trees take turns scenario by scenario, so a machine shared with other work slows both alike.
Another tree is the ``git archive`` of its commit unpacked in a temporary folder and put first
on ``PYTHONPATH`` (the worker checks where it imported hexwar from).

3. **By map size** (``--sizes``, issue 35): one whole game of the standard scenario on generated
   village maps of 30x20, 60x40, 120x80, 240x160 and 500x500 hexes
   (``--map generated:1:village:WxH``, the balance harness's game, at most ``--size-turns``
   turns), each size in a fresh process: CPU seconds per turn (the game loop with rules, fog
   and both computer players), peak memory, and the exponent of their growth in the number of
   hexes; figures against issue 35's targets (a 500x500 turn under 10 s and 1 GB, at most 5x a
   60x40 turn).

Run: ``python benchmarks/bench_games.py [--games 4] [--baseline REF] [--same-as REF] [SCENARIO ...]``
(``--quick``: 2 games; ``--no-same``: the speed table only). Asserts nothing.
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
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: main just before issue 22's changes (the figures "today" are measured on).
BASELINE_REF = "94cea65"
TARGET_RATIO = 2.0
#: the hex-game scenarios the baseline shipped (its scenarios/ folder less the lines games)
SCENARIOS = ("standard", "kharkov", "prokhorovka", "ponyri", "dnieper", "skirmish")


def worker(paths: list[str], games: int, first_seed: int) -> None:
    """Play ``games`` games of each scenario file; print one JSON line per scenario."""
    import hexwar
    from hexwar import balance as bal

    ai = {"german": "standard", "soviet": "standard"}
    for path in paths:
        _, sc = bal.load_scenario_source(path)
        bal.play_scenario_game(sc, 10_000, None, ai, bal.MAX_TURNS)  # warm imports and caches
        results = []
        commands = turns = 0
        c0 = time.process_time()
        for seed in range(first_seed, first_seed + games):
            o = bal.play_scenario_game(sc, seed, None, ai, bal.MAX_TURNS)
            commands += o.commands
            turns += o.turn
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
                    "scenario": Path(path).stem,
                    "games": games,
                    "cpu": cpu,
                    "commands": commands,
                    "turns": turns,
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
    into.mkdir(parents=True, exist_ok=True)
    path = into / "baseline.tar"
    path.write_bytes(data)
    with tarfile.open(path) as tf:
        tf.extractall(into / "tree", filter="data")
    path.unlink()
    return into / "tree"


def git_out(*args: str) -> str | None:
    """Stripped stdout of ``git -C ROOT ARGS``; ``None`` when git fails."""
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def hex_scenarios(tree: Path) -> list[str]:
    """Stems of the hex-game scenarios shipped in ``tree/scenarios`` (files not of ``mode = "lines"``)."""
    out = []
    for p in sorted((tree / "scenarios").glob("*.toml")):
        try:
            mode = tomllib.loads(p.read_text()).get("mode", "hex")
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if mode != "lines":
            out.append(p.stem)
    return out


def run(tree: Path, files: list[Path], games: int, first_seed: int) -> dict[str, dict]:
    """Run :func:`worker` on ``files`` with ``tree`` first on the import path; results by scenario."""
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        "--games",
        str(games),
        "--seed",
        str(first_seed),
        *(str(f) for f in files),
    ]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, cwd=tree).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    for r in rows:
        if Path(r["module"]).resolve() != (tree / "hexwar").resolve():
            raise SystemExit(f"the worker imported hexwar from {r['module']}, not from {tree}")
    return {r["scenario"]: r for r in rows}


def best_of(rounds: int, a: Callable[[], dict], b: Callable[[], dict]) -> tuple[dict, dict]:
    """Run ``a`` and ``b`` alternately ``rounds`` times; the run of each with the least CPU
    (the same seeded games each time, so the fastest is the one least slowed by other work)."""
    ra: dict | None = None
    rb: dict | None = None
    for _ in range(rounds):
        x, y = a(), b()
        if x["digest"] != (ra or x)["digest"] or y["digest"] != (rb or y)["digest"]:
            raise SystemExit("the same seeded games gave different results in two runs")
        ra = x if ra is None or x["cpu"] < ra["cpu"] else ra
        rb = y if rb is None or y["cpu"] < rb["cpu"] else rb
    assert ra is not None and rb is not None
    return ra, rb


def speed_table(base: Path, ref: str, names: list[str], games: int, seed: int, rounds: int) -> None:
    """Table 1: both trees play the baseline tree's scenario files (identical work)."""
    print(
        f"\n1. speed against {ref}: both trees play {ref}'s own scenario files, seeds {seed}..{seed + games - 1}, "
        f"fastest of {rounds} alternating runs each"
    )
    head = (
        f"{'scenario':<12} {'base g/s':>8} {'now g/s':>8} {'ratio':>6} | {'base cmd/s':>10} "
        f"{'now cmd/s':>9} {'ratio':>6} | {'cmds/game base/now':>18} | {'target':>6}"
    )
    print(head)
    print("-" * len(head))
    worst_g = worst_c = None
    for name in names:
        f = base / "scenarios" / f"{name}.toml"
        if not f.is_file():
            print(f"{name:<12} (not shipped by {ref})")
            continue
        now, old = best_of(
            rounds, lambda: run(ROOT, [f], games, seed)[name], lambda: run(base, [f], games, seed)[name]
        )
        rg = old["cpu"] / now["cpu"]  # games per CPU s: same number of games on both sides
        rc = (now["commands"] / now["cpu"]) / (old["commands"] / old["cpu"])
        worst_g = rg if worst_g is None else min(worst_g, rg)
        worst_c = rc if worst_c is None else min(worst_c, rc)
        print(
            f"{name:<12} {games / old['cpu']:>8.2f} {games / now['cpu']:>8.2f} {rg:>5.2f}x | "
            f"{old['commands'] / old['cpu']:>10.0f} {now['commands'] / now['cpu']:>9.0f} {rc:>5.2f}x | "
            f"{old['commands'] / games:>8.0f} /{now['commands'] / games:>8.0f} | {TARGET_RATIO:>5.1f}x",
            flush=True,
        )
    if worst_g is not None and worst_c is not None:
        worst = min(worst_g, worst_c)
        print(
            f"worst ratio {worst_g:.2f}x in games per CPU s, {worst_c:.2f}x in commands per CPU s, against "
            f"the {TARGET_RATIO:.1f}x target (ratio to target {worst / TARGET_RATIO:.2f}; at least 1.00 "
            f"meets it); baseline {ref}"
        )
        print(
            f"FIGURE | whole games vs {ref}, worst of games and commands per CPU s | {worst:.2f}x | "
            f">= {TARGET_RATIO:.0f}x | {worst / TARGET_RATIO:.2f}"
        )


def same_table(ref_tree: Path, ref: str, names: list[str], games: int, seed: int) -> None:
    """Table 2: both trees play this tree's scenario files; results must be equal."""
    print(
        f"\n2. same results as {ref} (main's code without this branch): both trees play this tree's "
        f"scenario files, seeds {seed}..{seed + games - 1}"
    )
    head = (
        f"{'scenario':<12} {'ref g/s':>8} {'now g/s':>8} {'ratio':>6} {'cmds/game':>9} {'same results':>13}"
    )
    print(head)
    print("-" * len(head))
    differ = []
    for name in names:
        f = ROOT / "scenarios" / f"{name}.toml"
        now = run(ROOT, [f], games, seed)[name]
        try:
            old = run(ref_tree, [f], games, seed)[name]
        except subprocess.CalledProcessError:
            print(f"{name:<12} {'-':>8} {games / now['cpu']:>8.2f} {'-':>6} (the {ref} code cannot play it)")
            continue
        same = old["digest"] == now["digest"]
        if not same:
            differ.append(name)
        print(
            f"{name:<12} {games / old['cpu']:>8.2f} {games / now['cpu']:>8.2f} {old['cpu'] / now['cpu']:>5.2f}x "
            f"{now['commands'] / games:>9.0f} {'yes' if same else 'NO':>13}",
            flush=True,
        )
    print(f"results differ on: {', '.join(differ)}" if differ else f"same results as {ref} on every scenario")


def main(argv: list[str] | None = None) -> int:
    """Print both tables (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="*", help="scenario names (default: every shipped hex-game scenario)")
    ap.add_argument(
        "--games", type=int, default=None, help="games per scenario and tree (default 4, quick 2)"
    )
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--baseline", default=BASELINE_REF, help=f"baseline commit (default {BASELINE_REF})")
    ap.add_argument(
        "--same-as", default=None, help="commit whose results must be equal (default: merge base with main)"
    )
    ap.add_argument("--no-same", action="store_true", help="skip the same-results table")
    ap.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="alternating runs per tree in table 1, fastest kept (default 3, quick 2)",
    )
    ap.add_argument("--sizes", action="store_true", help="whole games by map size only (issue 35)")
    ap.add_argument("--size-turns", type=int, default=6, help="turn limit of each --sizes game (default 6)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--size-worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.size_worker:
        w, h = (int(x) for x in args.size_worker.split("x"))
        size_worker(w, h, args.size_turns)
        return 0
    if args.sizes:
        return 1 if bench_sizes(args.size_turns) else 0
    games = args.games or (2 if args.quick else 4)
    rounds = max(1, args.rounds or (2 if args.quick else 3))
    if args.worker:
        worker(args.scenarios, games, args.seed)
        return 0
    print(
        f"AI-vs-AI games (standard vs standard), {games} per scenario and tree; CPU seconds of the "
        f"game process; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min)"
    )
    with tempfile.TemporaryDirectory(prefix="hexwar-bench-games-") as tmp:
        base = baseline_tree(args.baseline, Path(tmp) / "base")
        if base is None:
            print(f"baseline {args.baseline} not available (no git history): table 1 skipped")
        else:
            names = [n for n in (args.scenarios or SCENARIOS)]
            speed_table(base, args.baseline, names, games, args.seed, rounds)
        if args.no_same:
            return 0
        ref = args.same_as or git_out("merge-base", "HEAD", "main")
        head = git_out("rev-parse", "HEAD")
        if ref is None:
            print("\n2. same results: no git history or no main branch; skipped")
            return 0
        ref_sha = git_out("rev-parse", ref)
        if ref_sha == head and args.same_as is None:
            print(f"\n2. same results: the merge base with main is HEAD ({ref[:9]}); nothing to compare")
            return 0
        ref_tree = baseline_tree(ref, Path(tmp) / "ref")
        if ref_tree is None:
            print(f"\n2. same results: commit {ref} not available; skipped")
            return 0
        names = args.scenarios or hex_scenarios(ROOT)
        same_table(ref_tree, (ref_sha or ref)[:9], names, games, args.seed)
    return 0


def size_worker(width: int, height: int, max_turns: int) -> None:
    """One balance-harness game of the standard scenario on a generated map; one JSON line."""
    import resource

    from bench_ai import standard_on_generated_map  # imports hexwar: only in this worker

    from hexwar import balance as bal

    sc, gen = standard_on_generated_map(width, height)
    ai = {"german": "standard", "soviet": "standard"}
    c0 = time.process_time()
    o = bal.play_scenario_game(sc, 1, None, ai, max_turns)
    cpu = time.process_time() - c0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    turns = min(o.turn, max_turns)  # a game stopped by the cap reports the turn after it
    print(json.dumps({"gen": gen, "cpu": cpu, "turns": turns, "commands": o.commands, "rss_mb": rss}))


def _slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log(y) against log(x): the growth exponent."""
    import math
    import statistics

    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum((a - mx) ** 2 for a in lx)


def bench_sizes(max_turns: int) -> list[str]:
    """The ``--sizes`` table and its FIGURE lines; returns the misses."""
    from bench_ai import SIZES, TURN_RATIO_TARGET, TURN_TARGET_MB, TURN_TARGET_S  # the same sizes and targets

    print(
        f"Whole AI-vs-AI games of the standard scenario on generated village maps (seed 1, at most "
        f"{max_turns} turns), each size in a fresh process; CPU seconds (load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    head = f"{'map':>9} {'hexes':>7} {'gen s':>7} {'turns':>5} {'game s':>8} {'s/turn':>8} {'peak MB':>8} {'cmds':>5}"
    print(head)
    print("-" * len(head))
    rows = {}
    for w, h in SIZES:
        out = subprocess.run(
            [sys.executable, __file__, "--size-worker", f"{w}x{h}", "--size-turns", str(max_turns)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        r["per_turn"] = r["cpu"] / max(r["turns"], 1)
        rows[(w, h)] = r
        print(
            f"{w}x{h:<5} {w * h:>7} {r['gen']:>7.2f} {r['turns']:>5} {r['cpu']:>8.2f} {r['per_turn']:>8.3f} "
            f"{r['rss_mb']:>8.0f} {r['commands']:>5}",
            flush=True,
        )
    areas = [w * h for w, h in rows]
    e_turn = _slope(areas, [r["per_turn"] for r in rows.values()])
    e_mem = _slope(areas, [r["rss_mb"] for r in rows.values()])
    print(f"growth exponent in the area (cost ~ hexes^e): CPU per turn {e_turn:.2f}, peak memory {e_mem:.2f}")
    big, ref = rows[(500, 500)], rows[(60, 40)]
    ratio = big["per_turn"] / max(ref["per_turn"], 1e-9)
    figures = [
        (
            "game turn on 500x500 (CPU s per turn)",
            big["per_turn"],
            f"< {TURN_TARGET_S:.0f} s",
            TURN_TARGET_S / max(big["per_turn"], 1e-9),
        ),
        (
            "game on 500x500, peak memory (MB)",
            big["rss_mb"],
            f"< {TURN_TARGET_MB:.0f} MB",
            TURN_TARGET_MB / big["rss_mb"],
        ),
        (
            "game turn 500x500 / 60x40 (CPU per turn)",
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


if __name__ == "__main__":
    sys.exit(main())
