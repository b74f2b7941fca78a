#!/usr/bin/env python3
"""Scenario balance: seeded AI-vs-AI games per scenario, win rates with 95% intervals (R10).

Plays ``--games`` games of each scenario with the ``standard`` computer player on both sides
(:class:`hexwar.game.ai_standard.StandardPlayer`), game ``i`` with seed ``--first-seed + i``,
spread over ``--jobs`` worker processes (default: every core). A game is exactly what
``hexwar play SCENARIO --headless --ai german,soviet --seed N --json`` plays, so any single
result can be re-run and watched with that command.

Counting: every game is a German win, a Soviet win or a draw. A draw is a game with no
winner: equal points at the turn limit (R10.2), both sides reaching the victory points in one
resolution with equal scores (R10.1), or a game still running at the ``--max-turns`` safety
cap (reason ``stopped``; only for scenarios without a turn limit). Win rates are wins divided
by *all* games, draws included, so German + Soviet + draw rates add up to 100%. A game that
raises an exception is counted separately (``errors``), left out of the rates, and its seed
and traceback are written to the JSON file so it can be reported and reproduced.

The interval is the Wilson score interval at 95% (z = 1.96) for a binomial proportion.

Output: a table printed to stdout (Markdown), a JSON file (``--out``, default
``docs/balance.json``) with the table and every game's seed, winner, reason, turn and score,
and with ``--update-docs`` the table between the ``<!-- balance:begin -->`` and
``<!-- balance:end -->`` markers of ``docs/scenarios.md`` (regenerated, never edited by hand).

Usage::

    python tools/balance.py                               # every shipped scenario, 200 games
    python tools/balance.py kharkov ponyri --games 40     # some scenarios, fewer games
    python tools/balance.py --games 200 --update-docs     # the table in docs/scenarios.md
    python tools/balance.py --time 4                      # time 4 games per scenario first
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS_DIR = ROOT / "scenarios"
DOC = ROOT / "docs" / "scenarios.md"
BEGIN, END = "<!-- balance:begin -->", "<!-- balance:end -->"
DEFAULT_ORDER = ("standard", "kharkov", "prokhorovka", "ponyri", "dnieper")  # the table's row order
MAX_TURNS = 60  # safety cap (every shipped turn limit is lower); a game stopped by it is a draw

__all__ = ["GameRecord", "Tally", "wilson", "play_one", "run", "tally", "markdown_table", "update_doc", "main"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (95% for z = 1.96).

    Returns:
        ``(low, high)`` as proportions in [0, 1]; ``(0.0, 1.0)`` when ``n`` is 0.

    >>> lo, hi = wilson(100, 200)
    >>> round(lo, 4), round(hi, 4)
    (0.4314, 0.5686)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1.0 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


@dataclass
class GameRecord:
    """One AI-vs-AI game.

    Attributes:
        scenario: scenario file stem (``"kharkov"``).
        seed: the game's seed.
        winner: ``"german"``, ``"soviet"`` or ``None`` (draw, or error).
        reason: the result's reason (``points``, ``overrun``, ``objectives``, ``turn limit``,
            ``stopped``) or ``error``.
        turn: the turn the game ended in.
        score: victory points per side.
        objective_points: objective points per side at the end (turn-limit comparison).
        commands: commands applied.
        seconds: wall time of the game.
        error: the traceback when the game raised.
    """

    scenario: str
    seed: int
    winner: str | None
    reason: str
    turn: int = 0
    score: dict[str, int] = field(default_factory=dict)
    objective_points: dict[str, int] = field(default_factory=dict)
    commands: int = 0
    seconds: float = 0.0
    error: str = ""


_CACHE: dict[str, Any] = {}


def _scenario(path: str) -> Any:
    from hexwar.game.scenario import load_scenario

    if path not in _CACHE:
        _CACHE[path] = load_scenario(path)
    return _CACHE[path]


def play_one(path: str, seed: int, max_turns: int = MAX_TURNS, ai: str = "standard") -> GameRecord:
    """Play one game of the scenario file ``path`` with seed ``seed``, ``ai`` on both sides.

    Args:
        path: scenario file.
        seed: the game's seed (and the computer players', as ``hexwar play --seed``).
        max_turns: stop after this many complete turns (a game still running then is a
            ``stopped`` draw); above every shipped turn limit by default.
        ai: ``"standard"`` or ``"random"``.

    Never raises for a failing game: the exception's traceback goes into the record.
    """
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play

    stem = Path(path).stem
    t0 = time.perf_counter()
    try:
        sc = _scenario(path)
        players = {s: make_player(ai, s, seed) for s in ("german", "soviet")}
        run_ = play(sc, players, seed=seed, max_turns=max_turns)
        r = run_.result
        return GameRecord(stem, seed, r.winner, r.reason, r.turn, dict(r.score), dict(r.objective_points),
                          run_.commands, time.perf_counter() - t0)
    except Exception:  # noqa: BLE001 - a broken game is data for the report, not a crash
        return GameRecord(stem, seed, None, "error", seconds=time.perf_counter() - t0, error=traceback.format_exc())


def _job(args: tuple[str, int, int, str]) -> GameRecord:
    return play_one(*args)


def run(paths: Sequence[str], games: int, first_seed: int = 1, jobs: int | None = None,
        max_turns: int = MAX_TURNS, ai: str = "standard", progress: bool | None = None) -> list[GameRecord]:
    """Play ``games`` seeded games of each scenario in ``paths`` over ``jobs`` processes.

    Args:
        paths: scenario files.
        games: games per scenario; seeds ``first_seed .. first_seed + games - 1``.
        jobs: worker processes (default ``os.cpu_count()``); 1 runs in this process.
        max_turns: safety cap for scenarios without a turn limit.
        ai: computer player on both sides (``standard`` or ``random``).
        progress: print a progress line to stderr (default: when stderr is a terminal).

    Returns:
        one record per game, ordered by scenario then seed.
    """
    tasks = [(str(p), first_seed + i, max_turns, ai) for p in paths for i in range(games)]
    jobs = jobs or os.cpu_count() or 1
    if progress is None:
        progress = sys.stderr.isatty()
    out: list[GameRecord] = []
    t0 = time.perf_counter()

    def note(rec: GameRecord) -> None:
        out.append(rec)
        if progress:
            el = time.perf_counter() - t0
            sys.stderr.write(f"\r{len(out)}/{len(tasks)} games, {el:.0f} s  ")
            sys.stderr.flush()

    if jobs == 1:
        for t in tasks:
            note(_job(t))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            for rec in ex.map(_job, tasks, chunksize=max(1, min(8, len(tasks) // (jobs * 4) or 1))):
                note(rec)
    if progress:
        sys.stderr.write("\n")
    order = {Path(p).stem: i for i, p in enumerate(paths)}
    out.sort(key=lambda r: (order.get(r.scenario, 0), r.seed))
    return out


@dataclass
class Tally:
    """Win counts of one scenario and their rates (draws count in the denominator)."""

    scenario: str
    games: int
    german: int
    soviet: int
    draws: int
    errors: int
    first_seed: int
    last_seed: int
    mean_turns: float
    mean_seconds: float
    reasons: dict[str, int]

    def rate(self, side: str) -> tuple[float, float, float]:
        """``(rate, low, high)`` of ``side``'s wins (or ``"draw"``) over the finished games."""
        k = {"german": self.german, "soviet": self.soviet, "draw": self.draws}[side]
        n = self.games
        lo, hi = wilson(k, n)
        return (k / n if n else 0.0), lo, hi

    def balanced(self, lo: float = 0.35, hi: float = 0.65) -> bool:
        """True when both sides' win rates lie in ``[lo, hi]`` (the issue's 35%-65% target)."""
        return self.games > 0 and all(lo <= self.rate(s)[0] <= hi for s in ("german", "soviet"))


def tally(records: Sequence[GameRecord]) -> list[Tally]:
    """Per-scenario counts, in the order the scenarios first appear in ``records``."""
    by: dict[str, list[GameRecord]] = {}
    for r in records:
        by.setdefault(r.scenario, []).append(r)
    out = []
    for name, rs in by.items():
        ok = [r for r in rs if r.reason != "error"]
        reasons: dict[str, int] = {}
        for r in ok:
            key = f"{r.winner or 'draw'} {r.reason}"
            reasons[key] = reasons.get(key, 0) + 1
        out.append(Tally(
            name, len(ok), sum(r.winner == "german" for r in ok), sum(r.winner == "soviet" for r in ok),
            sum(r.winner is None for r in ok), len(rs) - len(ok), min(r.seed for r in rs), max(r.seed for r in rs),
            sum(r.turn for r in ok) / len(ok) if ok else 0.0, sum(r.seconds for r in rs) / len(rs),
            dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
        ))
    return out


def _pct(x: tuple[float, float, float]) -> str:
    return f"{100 * x[0]:.1f}% ({100 * x[1]:.1f}-{100 * x[2]:.1f})"


def markdown_table(tallies: Sequence[Tally]) -> str:
    """The win-rate table as Markdown (rates with their 95% Wilson intervals)."""
    lines = [
        "| scenario | games (seeds) | German wins | Soviet wins | draws | mean turns | in 35-65%? | errors |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in tallies:
        lines.append(
            f"| {t.scenario} | {t.games} ({t.first_seed}-{t.last_seed}) | {t.german}: {_pct(t.rate('german'))} | "
            f"{t.soviet}: {_pct(t.rate('soviet'))} | {t.draws}: {100 * t.rate('draw')[0]:.1f}% | {t.mean_turns:.1f} | "
            f"{'yes' if t.balanced() else 'NO'} | {t.errors} |"
        )
    return "\n".join(lines)


def update_doc(doc: Path, block: str) -> None:
    """Replace the text between the balance markers of ``doc`` with ``block`` (atomic write).

    Raises:
        SystemExit: when the markers are missing.
    """
    from hexwar.fileio import atomic_write_text

    text = doc.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{doc}: the markers {BEGIN} and {END} are missing")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    atomic_write_text(doc, f"{head}{BEGIN}\n{block}\n{END}{tail}")


def reasons_text(tallies: Sequence[Tally]) -> str:
    """How the games ended, per scenario: ``"kharkov: german points 116, soviet points 84"``."""
    return "\n".join(f"- {t.scenario}: " + ", ".join(f"{k} {v}" for k, v in t.reasons.items()) for t in tallies)


def source_version() -> str:
    """The git commit of the code measured (``+dirty`` with uncommitted changes), or ``unknown``."""
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "hexwar", "scenarios", "maps"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def to_json_text(payload: dict[str, Any]) -> str:
    """``payload`` as JSON: indented, but one line per game record so the file stays small."""
    games = payload.get("games", [])
    head = {k: v for k, v in payload.items() if k != "games"}
    text = json.dumps(head, indent=1)
    lines = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in games)
    return text[:-2] + ',\n "games": [\n' + lines + "\n ]\n}\n"


def _resolve(names: Sequence[str]) -> list[str]:
    if not names:
        found = {p.stem: p for p in sorted(SCENARIOS_DIR.glob("*.toml"))}
        ordered = [found.pop(n) for n in DEFAULT_ORDER if n in found]
        return [str(p) for p in ordered + [p for n, p in sorted(found.items()) if n != "skirmish"]]
    out = []
    for n in names:
        p = Path(n)
        if not p.is_file():
            p = SCENARIOS_DIR / f"{n}.toml"
        if not p.is_file():
            raise SystemExit(f"balance: scenario {n!r} not found (looked for {n} and {p})")
        out.append(str(p))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry; returns the exit status (1 when a game raised an error)."""
    ap = argparse.ArgumentParser(description="Seeded standard-AI-vs-standard-AI games per scenario: win rates with 95% intervals.")
    ap.add_argument("scenarios", nargs="*", help=f"scenario names or files (default: {', '.join(DEFAULT_ORDER)})")
    ap.add_argument("--games", type=int, default=200, help="games per scenario (default 200)")
    ap.add_argument("--first-seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    ap.add_argument("--max-turns", type=int, default=MAX_TURNS, help=f"cap for scenarios without a turn limit (default {MAX_TURNS})")
    ap.add_argument("--ai", default="standard", choices=("standard", "random"), help="computer player on both sides")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "balance.json", help="JSON results file")
    ap.add_argument("--update-docs", action="store_true", help=f"rewrite the table in {DOC.relative_to(ROOT)}")
    ap.add_argument("--time", type=int, default=0, metavar="N", help="only time N games per scenario (one process) and exit")
    args = ap.parse_args(argv)
    paths = _resolve(args.scenarios)
    if args.time:
        for p in paths:
            recs = run([p], args.time, args.first_seed, jobs=1, max_turns=args.max_turns, ai=args.ai, progress=False)
            secs = [r.seconds for r in recs]
            print(f"{Path(p).stem:12s} {len(recs)} games: mean {sum(secs) / len(secs):.2f} s, max {max(secs):.2f} s, "
                  f"mean turns {sum(r.turn for r in recs) / len(recs):.1f}")
        return 0
    t0 = time.perf_counter()
    records = run(paths, args.games, args.first_seed, args.jobs, args.max_turns, args.ai)
    wall = time.perf_counter() - t0
    tallies = tally(records)
    table = markdown_table(tallies)
    cmd = "python tools/balance.py " + " ".join(
        ([*args.scenarios] if args.scenarios else []) + [f"--games {args.games}"]
        + ([f"--first-seed {args.first_seed}"] if args.first_seed != 1 else [])
        + ([f"--ai {args.ai}"] if args.ai != "standard" else []))
    version = source_version()
    print(table)
    print(reasons_text(tallies))
    print(f"{len(records)} games in {wall:.0f} s on {args.jobs or os.cpu_count()} processes at commit {version}; "
          f"reproduce with: {cmd}")
    errors = [r for r in records if r.reason == "error"]
    for r in errors[:5]:
        print(f"\nERROR {r.scenario} seed {r.seed}: hexwar play scenarios/{r.scenario}.toml --headless "
              f"--ai german,soviet --seed {r.seed} --json\n{r.error}", file=sys.stderr)
    from hexwar.fileio import atomic_write_text

    payload = {
        "command": cmd, "ai": args.ai, "games_per_scenario": args.games, "first_seed": args.first_seed,
        "wall_seconds": round(wall, 1), "jobs": args.jobs or os.cpu_count(), "commit": version,
        "draws": "games with no winner count in the denominator of both win rates",
        "table": [{**asdict(t), "german_rate": t.rate("german"), "soviet_rate": t.rate("soviet"),
                   "draw_rate": t.rate("draw"), "balanced": t.balanced()} for t in tallies],
        "games": [{k: (round(v, 3) if k == "seconds" else v) for k, v in asdict(r).items() if v != "" or k != "error"}
                  for r in records],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out, to_json_text(payload))
    if args.update_docs:
        block = (f"{table}\n\nHow the games ended:\n\n{reasons_text(tallies)}\n\n"
                 f"Reproduce: `{cmd}` ({len(records)} games, {wall:.0f} s on {args.jobs or os.cpu_count()} "
                 f"processes, code at commit {version}; every game's seed and result in `docs/balance.json`).")
        update_doc(DOC, block)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
