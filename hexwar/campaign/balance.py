"""The campaign's balance table: seeded wars between computer players (R11.2 targets).

:func:`balance` plays ``n`` wars with the standard player on both sides (war ``i`` uses seed
``seed + i``) and ``n_random`` wars of the standard player against the random player (sides
alternating), and returns the counts; :func:`balance_markdown` renders them as the table that
``hexwar campaign --balance N`` writes into docs/campaign.md between the
``<!-- campaign-balance -->`` markers (:func:`write_balance_docs`). Other tools (``hexwar
balance``) may call :func:`balance` directly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError
from ..fileio import atomic_write_text, read_text
from .ai import make_player
from .cards import SIDES
from .options import CampaignOptions
from .state import new_campaign

__all__ = [
    "BalanceResult",
    "play_one",
    "balance",
    "balance_markdown",
    "write_balance_docs",
    "MARK_BEGIN",
    "MARK_END",
    "HeadToHead",
    "head_to_head",
    "head_to_head_markdown",
    "write_head_to_head_docs",
    "ending_of",
    "ENDINGS",
    "h2h_markers",
]

ENDINGS = ("first to 3 years", "after 1945: more year cards", "after 1945: more battles won", "drawn war")
"""How a war ends (002: "the first player to win any 3 years wins the war"; the other three are
hexwar's rule for a war that reaches the end of 1945 without it, docs/rules.md)."""


def ending_of(reason: str, winner: str | None) -> str:
    """Which of :data:`ENDINGS` a war's ``result_reason`` is."""
    if reason.startswith("first to"):
        return ENDINGS[0]
    if "more year cards" in reason:
        return ENDINGS[1]
    if "more battles won" in reason:
        return ENDINGS[2]
    return ENDINGS[3]


@dataclass
class HeadToHead:
    """Wars between two ``--ai-level`` players, each playing each side ``n`` times.

    Attributes:
        levels: ``(a, b)``: the levels compared (``a`` is German in the first ``n`` wars).
        n: wars each way (seeds ``seed .. seed+n-1`` both ways).
        wins: wins by level (``"draw"`` for drawn wars); ``by_side``: wins of ``a`` as German
            and as Soviet; ``endings``: wars per :data:`ENDINGS`; ``median_decision`` and
            ``max_decision``: CPU seconds of the hard (equilibrium) player's decisions, if any.
    """

    levels: tuple[str, str]
    n: int
    seed: int
    options: CampaignOptions
    wins: dict[str, int] = field(default_factory=dict)
    by_side: dict[str, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)
    median_decision: float = 0.0
    max_decision: float = 0.0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "levels": list(self.levels),
            "wars_each_way": self.n,
            "seed": self.seed,
            "options": self.options.names(),
            "wins": self.wins,
            "wins_of_first_by_side": self.by_side,
            "endings": self.endings,
            "median_decision_ms": round(self.median_decision * 1000, 3),
            "max_decision_ms": round(self.max_decision * 1000, 1),
            "seconds": round(self.seconds, 1),
        }


def _h2h_war(job: tuple[str, str, int, CampaignOptions]) -> tuple[str | None, str, list[float]]:
    """One war of :func:`head_to_head`: ``(winner side or None, ending, CPU seconds of the
    equilibrium player's decisions)``. A top-level function so worker processes can run it."""
    g, so, seed, opts = job
    st, _ = new_campaign(seed, opts)
    ps = {"german": make_player(g, "german", seed), "soviet": make_player(so, "soviet", seed)}
    times: list[float] = []
    while not st.over:
        side = st.to_act
        c0 = time.process_time()
        cmd = ps[side].choose(st)  # type: ignore[index]
        if ps[side].name == "equilibrium":  # type: ignore[index]
            times.append(time.process_time() - c0)
        st.apply(cmd)
    return st.winner, ending_of(st.result_reason, st.winner), times


def head_to_head(
    levels: tuple[str, str],
    n: int,
    seed: int = 0,
    options: CampaignOptions | None = None,
    progress: Any = None,
    workers: int = 1,
) -> HeadToHead:
    """Play ``n`` seeded wars with ``levels[0]`` German against ``levels[1]`` Soviet, then the
    same ``n`` seeds with the sides swapped (one pass when both levels are the same).

    Args:
        levels: two ``--ai-level`` names (``easy``/``normal``/``hard``) or player names.
        n: wars each way (>= 1).
        seed: the first war's seed.
        options: rule options (default: 002's basic game; battles by the cards).
        progress: called with ``(done, total)`` now and then.
        workers: processes playing wars at once (each war depends only on its seed and
            levels, so the table is the same for any number; the decision times are CPU times).

    Raises:
        HexwarError: for ``n < 1``, ``workers < 1`` or battles not decided by the cards.
    """
    import statistics

    opts = options or CampaignOptions()
    if n < 1:
        raise HexwarError(f"--balance: expected at least 1 war, got {n}")
    if workers < 1:
        raise HexwarError(f"--workers: expected at least 1, got {workers}")
    if opts.battles != "cards":
        raise HexwarError("--balance plays the card battles of 002; leave out --battles")
    a, b = levels
    ways = [(a, b)] if a == b else [(a, b), (b, a)]
    res = HeadToHead(
        (a, b), n, seed, opts, {a: 0, b: 0, "draw": 0}, {"german": 0, "soviet": 0}, dict.fromkeys(ENDINGS, 0)
    )
    jobs = [(g, so, seed + i, opts) for g, so in ways for i in range(n)]
    times: list[float] = []
    t0 = time.perf_counter()
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool: Any = ProcessPoolExecutor(max_workers=workers)
        results: Any = pool.map(_h2h_war, jobs, chunksize=4)
    else:
        pool = None
        results = map(_h2h_war, jobs)
    try:
        for done, ((g, so, _, _), (w, ending, ts)) in enumerate(zip(jobs, results, strict=True), 1):
            times += ts
            lvl = None if w is None else (g if w == "german" else so)
            res.wins[lvl or "draw"] += 1
            if w is not None and lvl == a and a != b:
                res.by_side[w] += 1
            res.endings[ending] += 1
            if progress is not None and done % 25 == 0:
                progress(done, len(jobs))
    finally:
        if pool is not None:
            pool.shutdown()
    if times:
        res.median_decision = statistics.median(times)
        res.max_decision = max(times)
    res.seconds = time.perf_counter() - t0
    return res


def head_to_head_markdown(results: list[HeadToHead]) -> str:
    """The head-to-head table and the endings table as Markdown."""
    lines = [
        "| German-Soviet levels | wars | first level wins | second level wins | drawn | first level as German / Soviet "
        "| median decision of hard (CPU) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        a, b = r.levels
        total = sum(r.wins.values())
        ways = "each way" if a != b else ""
        lines.append(
            f"| {a} vs {b} | {r.n} {ways} (seeds {r.seed}..{r.seed + r.n - 1}) | {r.wins[a]}/{total} = "
            f"{r.wins[a] / total:.1%} | {r.wins[b] if a != b else '-'} | {r.wins['draw']} "
            f"| {r.by_side['german']} / {r.by_side['soviet']} | {r.median_decision * 1000:.2f} ms |"
        )
    lines += ["", "| how the wars ended | " + " | ".join(ENDINGS) + " |", "|---|" + "---:|" * len(ENDINGS)]
    for r in results:
        total = sum(r.endings.values())
        lines.append(
            f"| {r.levels[0]} vs {r.levels[1]} | "
            + " | ".join(f"{r.endings[e]} ({r.endings[e] / total:.1%})" for e in ENDINGS)
            + " |"
        )
    return "\n".join(lines) + "\n"


def write_head_to_head_docs(path: str | Path, results: list[HeadToHead], command: str) -> None:
    """Replace the text between the head-to-head markers of ``path`` for this pair of levels
    (``<!-- campaign-head-to-head hard-normal:begin -->`` ... ``:end -->``), atomically; other
    pairs' tables stay as they are.

    Raises:
        HexwarError: when the file or its markers are missing.
    """
    a, b = results[0].levels
    begin, end = h2h_markers(a, b)
    body = f"\n_Written by `{command}`._\n\n" + head_to_head_markdown(results) + "\n"
    _replace_between(path, begin, end, body)


def h2h_markers(a: str, b: str) -> tuple[str, str]:
    """The docs markers of the head-to-head table of levels ``a`` and ``b``."""
    return f"<!-- campaign-head-to-head {a}-{b}:begin -->", f"<!-- campaign-head-to-head {a}-{b}:end -->"


def _replace_between(path: str | Path, begin: str, end: str, body: str) -> None:
    p = Path(path)
    text = read_text(p)
    if begin not in text or end not in text:
        raise HexwarError(f"{p}: no {begin} ... {end} markers to write the table between")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    atomic_write_text(p, head + begin + body + end + tail)


MARK_BEGIN = "<!-- campaign-balance:begin -->"
MARK_END = "<!-- campaign-balance:end -->"


@dataclass
class BalanceResult:
    """Counts of a balance run.

    Attributes:
        wars: wars played standard vs standard; ``wins`` per side and ``"draw"``.
        vs_random: wars of standard vs random; ``vs_random_wins`` by player name and ``"draw"``.
        years: mean years per war (standard vs standard).
        max_decision: the slowest decision of either player, in CPU seconds.
    """

    options: CampaignOptions
    seed: int
    wars: int
    wins: dict[str, int] = field(default_factory=dict)
    vs_random: int = 0
    vs_random_wins: dict[str, int] = field(default_factory=dict)
    years: float = 0.0
    max_decision: float = 0.0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "options": self.options.names(),
            "seed": self.seed,
            "wars": self.wars,
            "wins": self.wins,
            "vs_random": self.vs_random,
            "vs_random_wins": self.vs_random_wins,
            "years": self.years,
            "max_decision_ms": round(self.max_decision * 1000, 2),
            "seconds": round(self.seconds, 1),
        }


def play_one(seed: int, players: dict[str, str], options: CampaignOptions) -> tuple[str | None, int, float]:
    """Play one war by computer players; return ``(winner, years played, slowest decision in CPU s)``."""
    st, _ = new_campaign(seed, options)
    ps = {s: make_player(players[s], s, seed) for s in SIDES}
    slow = 0.0
    while not st.over:
        side = st.to_act
        t0 = time.process_time()  # CPU seconds: a shared machine's load does not count
        cmd = ps[side].choose(st)  # type: ignore[index]
        slow = max(slow, time.process_time() - t0)
        st.apply(cmd)
    return st.winner, len(st.checkpoints), slow


def balance(
    n: int,
    seed: int = 0,
    options: CampaignOptions | None = None,
    n_random: int | None = None,
    progress: Any = None,
) -> BalanceResult:
    """Play the balance wars (see the module text).

    Args:
        n: standard-vs-standard wars (>= 1).
        seed: the first war's seed.
        options: rule options (default: 002's basic game).
        n_random: standard-vs-random wars (default ``n // 2``).
        progress: called with ``(done, total)`` now and then.

    Raises:
        HexwarError: for ``n < 1``; ``options.battles`` other than ``cards`` (the balance
            table is of the card game).
    """
    opts = options or CampaignOptions()
    if n < 1:
        raise HexwarError(f"--balance: expected at least 1 war, got {n}")
    if opts.battles != "cards":
        raise HexwarError("--balance plays the card battles of 002; leave out --battles")
    nr = n // 2 if n_random is None else n_random
    t0 = time.perf_counter()
    res = BalanceResult(
        opts, seed, n, {"german": 0, "soviet": 0, "draw": 0}, nr, {"standard": 0, "random": 0, "draw": 0}
    )
    years = 0
    for i in range(n):
        w, y, slow = play_one(seed + i, {"german": "standard", "soviet": "standard"}, opts)
        res.wins[w or "draw"] += 1
        years += y
        res.max_decision = max(res.max_decision, slow)
        if progress is not None and i % 50 == 0:
            progress(i, n + nr)
    for i in range(nr):
        names = (
            {"german": "standard", "soviet": "random"}
            if i % 2 == 0
            else {"german": "random", "soviet": "standard"}
        )
        w, _, slow = play_one(seed + n + i, names, opts)
        res.vs_random_wins[names[w] if w else "draw"] += 1
        res.max_decision = max(res.max_decision, slow)
    res.years = years / n
    res.seconds = time.perf_counter() - t0
    return res


def balance_markdown(results: list[BalanceResult]) -> str:
    """The balance table as Markdown (one row per options set)."""
    lines = [
        "| options | wars | German wins | Soviet wins | drawn wars | mean years | standard vs random "
        "| slowest decision (CPU) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        n = r.wars
        vr = r.vs_random
        std = r.vs_random_wins.get("standard", 0)
        lines.append(
            f"| {', '.join(r.options.names()) or 'basic (002)'} | {n} (seeds {r.seed}..{r.seed + n - 1}) "
            f"| {r.wins['german'] / n:.1%} | {r.wins['soviet'] / n:.1%} | {r.wins['draw'] / n:.1%} | {r.years:.2f} "
            f"| {std}/{vr} = {std / vr:.1%} | {r.max_decision * 1000:.1f} ms |"
            if vr
            else f"| {', '.join(r.options.names()) or 'basic (002)'} | {n} | {r.wins['german'] / n:.1%} "
            f"| {r.wins['soviet'] / n:.1%} | {r.wins['draw'] / n:.1%} | {r.years:.2f} | - | {r.max_decision * 1000:.1f} ms |"
        )
    return "\n".join(lines) + "\n"


def write_balance_docs(path: str | Path, results: list[BalanceResult], command: str) -> None:
    """Replace the text between the balance markers of ``path`` with the table (atomic write).

    Raises:
        HexwarError: when the file or its markers are missing.
    """
    p = Path(path)
    text = read_text(p)
    if MARK_BEGIN not in text or MARK_END not in text:
        raise HexwarError(f"{p}: no {MARK_BEGIN} ... {MARK_END} markers to write the balance table between")
    head, rest = text.split(MARK_BEGIN, 1)
    _, tail = rest.split(MARK_END, 1)
    body = f"\n_Written by `{command}`._\n\n" + balance_markdown(results) + "\n"
    atomic_write_text(p, head + MARK_BEGIN + body + MARK_END + tail)


# -- the hook for ``hexwar balance`` (hexwar.balance.GAME_KINDS, branch dask-perf) ------------
def load_campaign_source(name: str) -> tuple[str, CampaignOptions]:
    """``hexwar balance --kind campaign NAME``: ``NAME`` is ``basic`` or rule switches joined by
    ``+`` (``advanced+events=2+event_swap``); returns ``(stem, options)``.

    Raises:
        HexwarError: naming an unknown switch.
    """
    from .options import SWITCHES

    kw: dict[str, Any] = {}
    if name not in ("", "basic"):
        for part in name.split("+"):
            key, _, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if key in SWITCHES and not value:
                kw[key] = True
            elif key == "events" and value in ("1", "2"):
                kw["events"] = int(value)
            else:
                raise HexwarError(
                    f"campaign options {name!r}: unknown switch {part!r}; expected 'basic' or "
                    f"{', '.join(SWITCHES)}, events=1|2 joined by '+'"
                )
    return (name or "basic"), CampaignOptions(**kw)


def play_campaign_game(
    source: CampaignOptions, seed: int, variants: Any, ai: dict[str, str], max_turns: int
) -> Any:
    """``hexwar balance``'s ``play`` for the campaign: one seeded war by computer players
    (``ai``: side -> ``standard`` / ``random``); returns a :class:`hexwar.balance.Outcome`
    (``turn`` is the number of years played, ``score`` the year cards won)."""
    from ..balance import Outcome  # type: ignore[import-not-found, unused-ignore]

    st, _ = new_campaign(seed, source)
    ps = {s: make_player(ai.get(s, "standard"), s, seed) for s in SIDES}
    n = 0
    while not st.over:
        st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
        n += 1
    return Outcome(
        st.winner,
        st.result_reason.split(" (")[0],
        len(st.checkpoints),
        {s: len(st.year_cards[s]) for s in SIDES},
        {},
        n,
    )
