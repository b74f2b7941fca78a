"""One computer level's own balance section, kept from every game it played (issue 31).

``hexwar balance SCENARIO... --ai-level hard --update-docs`` writes the games of a level played
against itself into the kind's document between ``<!-- level-hard:begin -->`` and
``<!-- level-hard:end -->``, and every game (seed and result) into a JSON file beside the
standard players' one (``docs/balance.json`` -> ``docs/balance-hard.json``).

A run of a few scenarios replaces those scenarios' games and keeps every other scenario's from
the runs before, so a designer who retunes two scenarios replays forty games of each, not four
hundred and eighty. Every game is seeded (R1.2), so a scenario whose file and code did not change
plays the same games again; the section's footer names each run, its command, its commit and the
scenarios whose rows it wrote, so a row can always be traced and reproduced.

The section is always rendered from the kept games (never edited in place): the table and the
"how the games ended" lines of :mod:`hexwar.balance`, how the objectives decided (R10.2,
:func:`hexwar.search.versus.objective_text`) and the summary of issue 31's figures
(:func:`objective_summary`).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import HexwarError

__all__ = [
    "level_json_path",
    "merge_level_games",
    "objective_summary",
    "render_level_section",
    "write_level_docs",
]

#: issue 31's figures for two players of one level: the share of games the objectives decide,
#: the band each side's 95% interval must overlap, the shortest median length.
DECIDED_SHARE = 0.30
BAND = (0.35, 0.65)
MIN_MEDIAN_TURNS = 5


def level_json_path(json_rel: str, level: str) -> str:
    """The level's JSON file beside the kind's: ``docs/balance.json`` -> ``docs/balance-hard.json``.

    Args:
        json_rel: the kind's JSON file (repo-relative, ``GameKind.json``).
        level: ``easy`` or ``hard`` (the standard level writes the kind's own file).
    """
    p = Path(json_rel)
    return str(p.with_name(f"{p.stem}-{level}{p.suffix}"))


def _key(g: dict[str, Any]) -> tuple[str, str]:
    return (str(g["scenario"]), str(g.get("variant", "default")))


def merge_level_games(
    old: dict[str, Any] | None, games: list[dict[str, Any]], run: dict[str, Any]
) -> dict[str, Any]:
    """The level's kept games after a new run: the run's (scenario, variant) rows replace the old.

    Args:
        old: the level's JSON file as read (``{"runs": [...], "games": [...]}``), or ``None``.
        games: the new run's games, one dict a game (``GameRecord`` fields; ``--json``'s games).
        run: the new run: ``command``, ``commit``, ``wall_seconds``, ``on`` (where it ran).

    Returns:
        ``{"level", "runs", "games"}``: games in the old row order, rows new to the file after
        them; each run lists the ``rows`` it still holds (a run with none left is dropped).
    """
    played = {_key(g) for g in games}
    old_games = [g for g in (old or {}).get("games", []) if _key(g) not in played]
    order: list[tuple[str, str]] = []
    for g in [*(old or {}).get("games", []), *games]:
        if _key(g) not in order:
            order.append(_key(g))
    rank = {k: i for i, k in enumerate(order)}
    merged = sorted([*old_games, *games], key=lambda g: (rank[_key(g)], int(g.get("index", 0))))
    runs = []
    for r in (old or {}).get("runs", []):
        rows = [row for row in r.get("rows", []) if tuple(row) not in played]
        if rows:
            runs.append({**r, "rows": rows})
    new_rows = [list(k) for k in order if k in played]
    runs.append({**run, "games": len(games), "rows": new_rows})
    return {"level": run.get("level", (old or {}).get("level", "")), "runs": runs, "games": merged}


def _in_band(k: int, n: int) -> bool:
    from .versus import wilson

    lo, hi = wilson(k, n)
    return hi >= BAND[0] and lo <= BAND[1]


def objective_summary(records: Sequence[Any]) -> str:
    """Issue 31's figures over the rows of ``records`` (``GameRecord``; errors left out):
    objectives deciding (a hold victory or objective points changing the winner, R10.2) in at
    least 30% of games, hold victories, median length, each side's 95% interval against 35-65%.

    Returns:
        one sentence, e.g. ``"Over 12 scenarios (480 games): the objectives decided at least 30%
        of games in 8; a hold victory came in 9; median length at least 5 turns in 12; both
        sides' 95% intervals overlap 35-65% in 12 (German wins 227/480, 47%)."``
    """
    from .versus import objective_decision

    by: dict[tuple[str, str], list[Any]] = {}
    for r in records:
        if r.reason != "error":
            by.setdefault((r.scenario, r.variant), []).append(r)
    decided = holds = long_enough = balanced = 0
    for rs in by.values():
        kinds = [objective_decision(r) for r in rs]
        decided += (kinds.count("hold") + kinds.count("points")) >= DECIDED_SHARE * len(rs)
        holds += "hold" in kinds
        long_enough += statistics.median(r.turn for r in rs) >= MIN_MEDIAN_TURNS
        n = len(rs)
        balanced += _in_band(sum(r.winner == "german" for r in rs), n) and _in_band(
            sum(r.winner == "soviet" for r in rs), n
        )
    total = sum(len(rs) for rs in by.values())
    german = sum(r.winner == "german" for rs in by.values() for r in rs)
    share = f"{100 * german / total:.0f}%" if total else "-"
    return (
        f"Over {len(by)} scenario{'' if len(by) == 1 else 's'} ({total} games): the objectives decided at least "
        f"{100 * DECIDED_SHARE:.0f}% of games in {decided}; a hold victory came in {holds}; median "
        f"length at least {MIN_MEDIAN_TURNS} turns in {long_enough}; both sides' 95% intervals "
        f"overlap {100 * BAND[0]:.0f}-{100 * BAND[1]:.0f}% in {balanced} (German wins {german}/{total}, {share})."
    )


def _records(games: list[dict[str, Any]]) -> list[Any]:
    from ..balance import GameRecord

    fields = set(GameRecord.__dataclass_fields__)
    return [GameRecord(**{k: v for k, v in g.items() if k in fields}) for g in games]


def render_level_section(kept: dict[str, Any], sides: tuple[str, str], scenario_kind: bool) -> str:
    """The text between a level's markers, rendered from its kept games (:func:`merge_level_games`).

    Args:
        kept: ``{"runs", "games"}``.
        sides: the kind's two sides.
        scenario_kind: hex scenarios (objectives and issue 31's summary are written) or not.
    """
    from .. import balance as bal
    from .versus import objective_text

    records = _records(kept["games"])
    tallies = bal.tally(records, sides)
    reasons = bal.reasons_text(tallies)
    if scenario_kind:
        reasons += "\n\nObjectives decided (R10.2):\n" + objective_text(records)
        reasons += "\n\n" + objective_summary(records)
    runs = kept["runs"]
    parts = []
    for r in runs:
        rows = ", ".join(
            name if variant == "default" else f"{name} ({variant})" for name, variant in r["rows"]
        )
        where = f"; rows: {rows}" if len(runs) > 1 else ""
        parts.append(
            f"`{r['command']}` ({r['games']} games, {r['wall_seconds']:.0f} s on {r['on']}, code at commit "
            f"{r['commit']}{where})"
        )
    lead = "Reproduce: " if len(runs) == 1 else "Reproduce (each row from the run that played it): "
    footer = lead + "; ".join(parts) + "; `--json` prints every game's seed and result."
    return bal.render_block(bal.markdown_table(tallies), reasons, footer)


#: the largest count, turn, score or seconds a kept game or run may carry: far above any real
#: game, and small enough that the section's means and formats never overflow
_MAX_NUMBER = 10**9


def _number_problem(value: Any, *, integer: bool) -> str | None:
    """Why ``value`` is no count or figure of a kept game or run (``None`` when it is one)."""
    from ..errors import clip

    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        return f"expected {'an integer' if integer else 'a number'}, got {clip(value, 40)}"
    if not -_MAX_NUMBER <= value <= _MAX_NUMBER:  # false for nan too; never a float of a huge int
        return f"expected a number within +-{_MAX_NUMBER}, got {clip(value, 40)}"
    return None


def _games_file_problem(old: Any) -> str | None:
    """The first thing in a level's games file (as read) that :func:`merge_level_games` and
    :func:`render_level_section` cannot use, as ``FIELD: what is wrong``; ``None`` when it is
    one this command wrote: ``runs`` of ``{command, commit, on: text, wall_seconds: number,
    games: count, rows: [[scenario, variant], ...]}`` and ``games`` of ``GameRecord`` fields
    (``scenario``, ``index``, ``seed``, ``winner``, ``reason`` required; numbers finite and
    within +-10**9 but the seed)."""
    from ..errors import clip

    if not (
        isinstance(old, dict) and isinstance(old.get("games"), list) and isinstance(old.get("runs"), list)
    ):
        return "no 'runs' and 'games' lists"
    for i, r in enumerate(old["runs"]):
        if not isinstance(r, dict):
            return f"runs[{i}]: expected an object, got {clip(r, 40)}"
        for k in ("command", "commit", "on"):
            if not isinstance(r.get(k), str):
                return f"runs[{i}].{k}: expected text, got {clip(r.get(k), 40)}"
        for k, integer in (("wall_seconds", False), ("games", True)):
            why = _number_problem(r.get(k), integer=integer)
            if why:
                return f"runs[{i}].{k}: {why}"
        rows = r.get("rows")
        if not isinstance(rows, list) or not all(
            isinstance(row, list) and len(row) == 2 and all(isinstance(x, str) for x in row) for row in rows
        ):
            return f"runs[{i}].rows: expected a list of [scenario, variant] pairs, got {clip(rows, 60)}"
    for i, g in enumerate(old["games"]):
        if not isinstance(g, dict):
            return f"games[{i}]: expected an object, got {clip(g, 40)}"
        for k in ("scenario", "reason"):
            if not isinstance(g.get(k), str):
                return f"games[{i}].{k}: expected text, got {clip(g.get(k), 40)}"
        if not isinstance(g.get("variant", "default"), str):
            return f"games[{i}].variant: expected text, got {clip(g.get('variant'), 40)}"
        if not (g.get("winner") is None or isinstance(g.get("winner"), str)) or "winner" not in g:
            return f"games[{i}].winner: expected a side or null, got {clip(g.get('winner'), 40)}"
        seed = g.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            return f"games[{i}].seed: expected a seed 0..2**64-1, got {clip(seed, 40)}"
        for k, integer, need in (("index", True, True), ("turn", True, False), ("commands", True, False)):
            if k in g or need:
                why = _number_problem(g.get(k), integer=integer)
                if why:
                    return f"games[{i}].{k}: {why}"
        if "seconds" in g and (why := _number_problem(g["seconds"], integer=False)):
            return f"games[{i}].seconds: {why}"
        for k in ("score", "objective_points"):
            d = g.get(k, {})
            if not isinstance(d, dict):
                return f"games[{i}].{k}: expected {{side: points}}, got {clip(d, 40)}"
            for side, v in d.items():
                if why := _number_problem(v, integer=False):
                    return f"games[{i}].{k}.{side}: {why}"
        pbt = g.get("points_by_type", {})
        if not isinstance(pbt, dict) or not all(isinstance(d, dict) for d in pbt.values()):
            return f"games[{i}].points_by_type: expected {{side: {{unit type: points}}}}, got {clip(pbt, 40)}"
        for side, d in pbt.items():
            for t, v in d.items():
                if why := _number_problem(v, integer=False):
                    return f"games[{i}].points_by_type.{side}.{t}: {why}"
        if not isinstance(g.get("held", {}), dict) or not isinstance(g.get("error", ""), str):
            return f"games[{i}]: 'held' must be an object and 'error' text"
    return None


def write_level_docs(
    root: Path,
    doc_rel: str,
    json_rel: str,
    level: str,
    games: list[dict[str, Any]],
    run: dict[str, Any],
    *,
    sides: tuple[str, str],
    scenario_kind: bool,
) -> tuple[str, str]:
    """Merge a level run into its JSON file and rewrite its section of ``doc_rel`` (both atomic).

    Args:
        root: the source checkout.
        doc_rel, json_rel: the kind's document and JSON file (repo-relative).
        level: the level both sides played.
        games: the run's games; run: its ``command``, ``commit``, ``wall_seconds``, ``on``.

    Returns:
        the two files written (repo-relative).

    Raises:
        HexwarError: the level's JSON file is not one this command wrote (any field the merge
            or the section reads of the wrong type, or a number past +-10**9), or a file cannot be
            read or written (nothing is written then).
    """
    from .. import balance as bal
    from ..fileio import atomic_write_text

    path = root / level_json_path(json_rel, level)
    old = None
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise HexwarError(f"--update-docs: cannot read {path}: {exc}") from None
        why = _games_file_problem(old)
        if why is not None:  # every field the merge and the section read, so nothing half-done
            raise HexwarError(
                f"--update-docs: {path} is not a level's games file as this command writes it: "
                f"{why}; nothing was written (restore it, e.g. with git checkout)"
            )
    kept = merge_level_games(old, games, {**run, "level": level})
    section = render_level_section(kept, sides, scenario_kind)
    bal.update_doc(root / doc_rel, section, f"level-{level}")
    head = json.dumps({"level": level, "runs": kept["runs"]}, indent=1)
    lines = ",\n".join("  " + json.dumps(g, separators=(",", ":")) for g in kept["games"])
    atomic_write_text(path, head[:-2] + ',\n "games": [\n' + lines + "\n ]\n}\n")
    return doc_rel, level_json_path(json_rel, level)
