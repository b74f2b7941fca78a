"""Head-to-head balance runs between two computer levels (issue 31): ``hexwar balance
--ai-level german=A,soviet=B --head-to-head``.

Half the games are played with A as the Germans and B as the Soviets, the other half with the
sides swapped, on the same seeds (game ``i`` of each half has the seed of game ``i`` of an
ordinary balance run, :func:`hexwar.balance.game_seed`: paired, so the map, the decks and the
dice stream do not favour one level). The games run through the ordinary balance machinery
(:func:`hexwar.balance.run_balance`, on a Dask LocalCluster with ``--workers 2``); each game's
record carries the pairing in its variant label (``default|german=hard,soviet=normal``).

The table gives, per scenario, how often level A won as each side and in all, with 95% Wilson
intervals (:func:`hexwar.balance.wilson`), draws, the median length, and how often the
objectives decided the game (R10.2): a hold victory (reason ``objectives``), or objective points
that changed the winner at the turn limit (the side ahead on victory points alone lost or drew).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..balance import GameKind, GameRecord, GameSpec, plan_games, wilson

__all__ = [
    "Versus",
    "plan_head_to_head",
    "versus_tally",
    "versus_table",
    "objective_decision",
    "objective_text",
]

SIDES = ("german", "soviet")


def plan_head_to_head(
    kind: GameKind,
    sources: Sequence[tuple[str, Any]],
    variants: Sequence[tuple[str, ...] | None],
    games: int,
    seed_start: int,
    levels: Mapping[str, str],
    max_turns: int,
) -> list[GameSpec]:
    """The games of a head-to-head run: ``games`` per scenario and variant, half as given in
    ``levels`` (``{"german": A, "soviet": B}``), half swapped, on paired seeds.

    Args:
        kind, sources, variants, seed_start, max_turns: as :func:`hexwar.balance.plan_games`.
        games: games per scenario and variant in all (an odd count gives the given pairing the
            extra game).
        levels: side -> level (``easy``, ``normal``, ``hard``).

    Returns:
        The specs, the given pairing first; seeds as an ordinary run's games ``seed_start..``.
    """
    a, b = levels["german"], levels["soviet"]
    first = (games + 1) // 2
    out: list[GameSpec] = []
    for pairing, n in (({"german": a, "soviet": b}, first), ({"german": b, "soviet": a}, games - first)):
        if n <= 0:
            continue
        for s in plan_games(kind, sources, variants, n, seed_start, pairing, max_turns):
            label = f"{s.variant}|german={pairing['german']},soviet={pairing['soviet']}"
            out.append(
                GameSpec(
                    s.kind,
                    s.scenario,
                    label,
                    s.index,
                    s.seed,
                    s.source,
                    s.variants,
                    s.ai,
                    s.max_turns,
                    s.source_key,
                )
            )
    return out


def objective_decision(r: GameRecord) -> str | None:
    """How the objectives decided game ``r`` (R10.2): ``"hold"`` for a hold victory,
    ``"points"`` when objective points changed the winner at the turn limit, else ``None``."""
    if r.reason == "objectives":
        return "hold"
    if r.reason in ("turn limit", "draw") and r.objective_points:
        g, s = r.score.get("german", 0), r.score.get("soviet", 0)
        by_vp = "german" if g > s else "soviet" if s > g else None
        if by_vp != r.winner:
            return "points"
    return None


@dataclass
class Versus:
    """One scenario's head-to-head counts of level ``a`` against level ``b``.

    Attributes:
        scenario: row name (with the variant when not the scenario's own).
        a, b: the levels.
        games: finished games per side of ``a`` (``{"german": n, "soviet": n}``).
        wins: ``a``'s wins per side it played.
        draws: games with no winner.
        errors: error games (left out of the rates).
        median_turns: median length of the finished games.
        hold, points: games a hold victory decided / objective points changed the winner.
    """

    scenario: str
    a: str
    b: str
    games: dict[str, int]
    wins: dict[str, int]
    draws: int
    errors: int
    median_turns: float
    hold: int
    points: int

    @property
    def total(self) -> int:
        """Finished games."""
        return sum(self.games.values())

    def rate(self, side: str | None = None) -> tuple[float, float, float]:
        """``(rate, low, high)``: ``a``'s wins as ``side`` (``None``: in all), 95% Wilson interval."""
        k = sum(self.wins.values()) if side is None else self.wins[side]
        n = self.total if side is None else self.games[side]
        lo, hi = wilson(k, n)
        return (k / n if n else 0.0), lo, hi

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: counts, rates with intervals, objective decisions."""
        return {
            "scenario": self.scenario,
            "a": self.a,
            "b": self.b,
            "games": dict(self.games),
            "wins": dict(self.wins),
            "draws": self.draws,
            "errors": self.errors,
            "a_rate": list(self.rate()),
            "a_rate_german": list(self.rate("german")),
            "a_rate_soviet": list(self.rate("soviet")),
            "median_turns": self.median_turns,
            "hold_victories": self.hold,
            "objective_points_decided": self.points,
        }


def versus_tally(records: Sequence[GameRecord], a: str, b: str) -> list[Versus]:
    """Per scenario (and variant), level ``a``'s results against ``b`` (in first-seen order)."""
    by: dict[str, list[GameRecord]] = {}
    for r in records:
        base, _, pairing = r.variant.partition("|")
        name = r.scenario if base == "default" else f"{r.scenario} ({base})"
        by.setdefault(name, []).append(r)
    out = []
    for name, rs in by.items():
        games = {s: 0 for s in SIDES}
        wins = {s: 0 for s in SIDES}
        ok = [r for r in rs if r.reason != "error"]
        for r in ok:
            pairs = dict(x.split("=", 1) for x in r.variant.partition("|")[2].split(","))
            side_a = "german" if pairs.get("german") == a else "soviet"
            if a == b:
                side_a = "german"
            games[side_a] += 1
            wins[side_a] += r.winner == side_a
        decided = [objective_decision(r) for r in ok]
        out.append(
            Versus(
                name,
                a,
                b,
                games,
                wins,
                sum(r.winner is None for r in ok),
                len(rs) - len(ok),
                float(statistics.median([r.turn for r in ok])) if ok else 0.0,
                decided.count("hold"),
                decided.count("points"),
            )
        )
    return out


def _pct(x: tuple[float, float, float]) -> str:
    return f"{100 * x[0]:.0f}% ({100 * x[1]:.0f}-{100 * x[2]:.0f})"


def versus_table(rows: Sequence[Versus]) -> str:
    """The head-to-head table as Markdown (wins of the first level, 95% Wilson intervals)."""
    if not rows:
        return ""
    a, b = rows[0].a, rows[0].b
    lines = [
        f"| scenario | games | {a} wins as German | {a} wins as Soviet | {a} wins in all | draws "
        "| median turns | hold victories | objective points decided |",
        "|---|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        n = max(1, r.total)
        lines.append(
            f"| {r.scenario} | {r.total} | {r.wins['german']}/{r.games['german']}: {_pct(r.rate('german'))} | "
            f"{r.wins['soviet']}/{r.games['soviet']}: {_pct(r.rate('soviet'))} | "
            f"{sum(r.wins.values())}/{r.total}: {_pct(r.rate())} | {r.draws} | {r.median_turns:g} | "
            f"{r.hold} ({100 * r.hold / n:.0f}%) | {r.points} ({100 * r.points / n:.0f}%) |"
        )
    return "\n".join(lines) + f"\n\n{a} against {b}; games split evenly between the sides on paired seeds.\n"


def objective_text(records: Sequence[GameRecord]) -> str:
    """Per scenario, how often the objectives decided (R10.2), both kinds: ``"- kharkov: 40 games;
    hold victory 3 (8%), objective points changed the winner 12 (30%); objectives decided 15 (38%)"``."""
    by: dict[str, list[GameRecord]] = {}
    for r in records:
        if r.reason != "error":
            base = r.variant.partition("|")[0]
            by.setdefault(r.scenario if base == "default" else f"{r.scenario} ({base})", []).append(r)
    lines = []
    for name, rs in by.items():
        d = [objective_decision(r) for r in rs]
        h, p, n = d.count("hold"), d.count("points"), len(rs)
        lines.append(
            f"- {name}: {n} games; hold victory {h} ({100 * h / n:.0f}%), objective points changed the "
            f"winner {p} ({100 * p / n:.0f}%); objectives decided {h + p} ({100 * (h + p) / n:.0f}%)"
        )
    return "\n".join(lines)
