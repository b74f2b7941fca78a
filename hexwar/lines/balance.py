"""Balance of the line scenarios: seeded AI-vs-AI games, each side's win share and how games
ended, and the table of ``docs/lines.md`` (written by ``hexwar lines balance --write``).

Each game ``i`` uses seed ``seed + i``; :class:`~hexwar.lines.ai.LinesAI` plays every seat.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .players import make_lines_player

__all__ = [
    "BalanceRow",
    "play_ai_game",
    "play_lines_game",
    "balance",
    "balance_table",
    "write_balance",
    "balance_target_text",
    "LINE_SCENARIOS",
    "MARK_BEGIN",
    "MARK_END",
]

LINE_SCENARIOS = ("lines", "lines-4p", "lines_ponyri", "lines_prokhorovka", "lines_kharkov", "lines_bukrin")
MARK_BEGIN = "<!-- lines-balance:begin -->"
MARK_END = "<!-- lines-balance:end -->"


@dataclass
class BalanceRow:
    """One scenario's result over ``games`` games.

    Attributes:
        scenario: scenario id; games: games played; wins: per side (draws under ``None``);
        endings: ``(winner, reason)`` counts; turns: mean turns; seconds: wall time.
    """

    scenario: str
    games: int
    wins: Counter[str | None] = field(default_factory=Counter)
    endings: Counter[tuple[str | None, str]] = field(default_factory=Counter)
    turns: float = 0.0
    seconds: float = 0.0

    def share(self, side: str) -> float:
        """Fraction of games ``side`` won."""
        return self.wins[side] / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "scenario": self.scenario,
            "games": self.games,
            "german": self.share("german"),
            "soviet": self.share("soviet"),
            "draws": self.wins[None] / max(1, self.games),
            "endings": {f"{w or 'draw'} {r}": n for (w, r), n in sorted(self.endings.items(), key=str)},
            "mean_turns": self.turns,
            "seconds": self.seconds,
        }


def play_ai_game(
    scenario: Any, seed: int, names: dict[str, str] | None = None, variants: tuple[str, ...] | None = None
) -> Any:
    """Play one game of ``scenario`` with computer players (default ``standard`` on every seat)."""
    from ..search.lines_deck import with_hard_decks

    who = {s: (names or {}).get(s, "standard") for s in scenario.seats}
    st = with_hard_decks(scenario, who).new_game(seed=seed, variants=variants)  # 000 setup: hard builds
    players = {s: make_lines_player(who[s], s, seed) for s in st.seats}
    while not st.over:
        st.apply(players[st.to_act].choose(st))
    return st


def play_lines_game(
    source: Any, seed: int, variants: tuple[str, ...] | None, ai: dict[str, str], max_turns: int
) -> Any:
    """One seeded game for a balance runner's game-kind registry (``ai``: side -> player name,
    given to every seat of the side); returns ``(winner, reason, turn, score, commands)`` as a
    :class:`hexwar.game.state.GameResult` plus the command count."""
    from ..search.lines_deck import with_hard_decks

    names = {s: ai.get(s.split("-")[0], "standard") for s in source.seats}
    st = with_hard_decks(source, names).new_game(seed=seed, variants=variants)  # 000 setup: hard builds
    players = {s: make_lines_player(names[s], s, seed) for s in st.seats}
    while not st.over and st.turn <= max_turns:
        st.apply(players[st.to_act].choose(st))
    return st


def balance(
    name: str,
    games: int = 200,
    seed: int = 0,
    variants: tuple[str, ...] | None = None,
    levels: dict[str, str] | None = None,
) -> BalanceRow:
    """Play ``games`` AI-vs-AI games of scenario ``name`` (seeds ``seed``..); ``levels``: side ->
    ``--ai-level`` (``easy``/``normal``/``hard``, default ``normal``), given to every seat of the side."""
    from ..game.scenario import load_scenario

    sc = load_scenario(name)
    row = BalanceRow(sc.id, games)
    t = time.perf_counter()
    turns = 0
    from .commands import SEATS_2P, SEATS_4P

    seats = SEATS_2P if getattr(sc, "players", 2) == 2 else SEATS_4P
    names = {s: (levels or {}).get(s.split("-")[0], "normal") for s in seats}
    for i in range(games):
        st = play_ai_game(sc, seed + i, names, variants=variants)
        row.wins[st.result.winner] += 1
        row.endings[(st.result.winner, st.result.reason)] += 1
        turns += st.result.turn
    row.turns = turns / max(1, games)
    row.seconds = time.perf_counter() - t
    return row


def balance_table(rows: list[BalanceRow]) -> str:
    """The Markdown table: scenario, games, German / Soviet / draw shares, endings, mean turns."""
    out = [
        "| scenario | games | German wins | Soviet wins | draws | how games ended | mean turns |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        ends = ", ".join(
            f"{w or 'draw'} by {reason} {n}"
            for (w, reason), n in sorted(r.endings.items(), key=lambda kv: (-kv[1], str(kv[0])))
        )
        out.append(
            # one decimal: whole percents rounded one by one can add up to 101% (issue 33)
            f"| {r.scenario} | {r.games} | {r.share('german'):.1%} | {r.share('soviet'):.1%} | "
            f"{r.wins[None] / max(1, r.games):.1%} | {ends} | {r.turns:.1f} |"
        )
    return "\n".join(out) + "\n"


def balance_target_text(path: str | Path) -> str:
    """The text of the Markdown file whose balance section ``hexwar lines balance --write``
    replaces, checked before any game is played.

    Raises:
        ValidationError: naming the file when it is missing, a folder or unreadable.
        HexwarError: when the file has no balance markers.
    """
    from ..errors import HexwarError
    from ..fileio import read_text

    text = read_text(path, kind="data")
    if MARK_BEGIN not in text or MARK_END not in text:
        raise HexwarError(
            f"{path}: no balance section (expected the markers {MARK_BEGIN!r} ... {MARK_END!r})"
        )
    return text


def write_balance(
    path: str | Path, rows: list[BalanceRow], seed: int, levels: dict[str, str] | None = None
) -> None:
    """Replace the marked balance section of ``path`` (docs/lines.md) with the new table.

    Raises:
        HexwarError: when the file has no balance markers.
    """
    from ..fileio import atomic_write_text

    p = Path(path)
    text = balance_target_text(p)
    head, rest = text.split(MARK_BEGIN, 1)
    _, tail = rest.split(MARK_END, 1)
    body = (
        f"\n{rows[0].games if rows else 0} seeded AI-vs-AI games per scenario (seeds {seed}..), "
        + (
            "the standard computer player on every seat"
            if not levels or set(levels.values()) == {"normal"}
            else "computer levels " + ", ".join(f"{s} {lv}" for s, lv in sorted(levels.items()))
        )
        + ".\n\n"
        + balance_table(rows)
    )
    atomic_write_text(p, head + MARK_BEGIN + body + MARK_END + tail)


# -- the balance runner's game-kind registry (``hexwar balance --kind lines``) ------------------
def load_lines_source(name: str) -> tuple[str, Any]:
    """``(file stem, LinesScenario)`` of a line scenario file or shipped name.

    Raises:
        HexwarError: when it is not found, does not validate, or is not a line scenario.
    """
    from ..errors import HexwarError
    from ..game.scenario import find_scenario, load_scenario

    path = find_scenario(name)
    sc = load_scenario(path)
    if getattr(sc, "mode", "hex") != "lines":
        raise HexwarError(f'{name}: not a line scenario (mode = "lines")')
    return Path(path).stem, sc


def play_lines_outcome(
    source: Any, seed: int, variants: tuple[str, ...] | None, ai: dict[str, str], max_turns: int
) -> Any:
    """One seeded line game as the balance runner's ``Outcome`` (``hexwar.balance``)."""
    from ..balance import Outcome  # type: ignore[import-not-found,unused-ignore]

    st = play_lines_game(source, seed, variants, ai, max_turns)
    r = st.result
    if r is None:
        return Outcome(None, "stopped", st.turn, dict(st.vp), {}, len(st.commands))
    return Outcome(r.winner, r.reason, r.turn, dict(r.score), {}, len(st.commands))
