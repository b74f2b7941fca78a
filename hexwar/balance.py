"""Balance: seeded AI-vs-AI games per scenario and rule variant, on one core or a Dask cluster (issue 20).

A balance run plays ``games`` games of every (scenario, variant) with computer players on both
sides and counts, per pair: games, wins per side with 95% Wilson intervals, draws, how the
games ended (points, Overrun, objectives, turn limit), mean and median length in turns, and
errors. Every game is one CSV row with its seed, so any game can be replayed and watched with
``hexwar play SCENARIO --headless --ai german,soviet --seed SEED [--rules VARIANT]``.

Seeds (R1.2): game ``i`` of scenario ``s`` under variant ``v`` has the seed
:func:`game_seed` ``(s, v, i)``, drawn from a :class:`numpy.random.SeedSequence` keyed by the
three. It depends on nothing else - not the process, the worker, the chunk or the order in
which games finish - so one command gives a byte-identical CSV with ``--cluster none``, a local
cluster of any size and a remote scheduler, and ``--seed-start 200`` continues a run of 200
games with new ones instead of repeating them.

Counting: a draw is a game with no winner (equal points at the turn limit, R10.2; equal
scores reached in one resolution, R10.1; or a game still running at the ``max_turns`` safety
cap, reason ``stopped``). Rates are wins over every finished game, draws included. A game that
raises is an ``error`` row with its seed and message, left out of the rates, never dropped.

Game kinds
    What a balance run can play is a registry, :data:`GAME_KINDS`: kind name -> :class:`GameKind`
    (how to load a game source by name, how to play one seeded game of it, and which document
    and JSON file ``--update-docs`` rewrites). ``scenario`` (the hex-map scenarios of
    ``scenarios/``) is built in; the card game on lines and the campaign add their kinds here
    (``lines``, ``campaign``) with their own docs files and markers, and ``hexwar balance --kind
    lines ...`` then runs them on the same machinery (docs/sim.md, "Adding a game kind").
"""

from __future__ import annotations

import hashlib
import importlib
import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import HexwarError

__all__ = [
    "GameKind",
    "GAME_KINDS",
    "game_kind",
    "Outcome",
    "GameSpec",
    "GameRecord",
    "Tally",
    "BalanceRun",
    "game_seed",
    "wilson",
    "play_chunk",
    "plan_games",
    "run_balance",
    "tally",
    "markdown_table",
    "reasons_text",
    "records_csv",
    "update_doc",
    "render_block",
    "MAX_TURNS",
    "CSV_COLUMNS",
]

MAX_TURNS = 60  # safety cap (every shipped turn limit is lower); a game stopped by it is a draw
SECONDS_PER_CHUNK = 3.0  # a chunk is a few seconds of games: scheduling overhead stays small
DEFAULT_GAME_SECONDS = 0.5  # a shipped scenario's game on a quiet core (docs/sim.md measures it)
ROOT = Path(__file__).resolve().parent.parent


# -- game kinds --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """How one game ended, as a game kind's ``play`` function reports it.

    Attributes:
        winner: a side name, or ``None`` for a draw.
        reason: ``points``, ``overrun``, ``objectives``, ``turn limit``, ``stopped``, ...
        turn: the turn it ended in.
        score: victory points per side.
        objective_points: objective points per side (may be empty).
        commands: commands applied.
        points_by_type: side -> unit type of the enemy units it destroyed or captured -> the
            victory points they gave (R10.1; how the points were won).
        held: objective or area name -> the side holding it at the end (``None``: nobody).
    """

    winner: str | None
    reason: str
    turn: int
    score: Mapping[str, int]
    objective_points: Mapping[str, int] = field(default_factory=dict)
    commands: int = 0
    points_by_type: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    held: Mapping[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class GameKind:
    """A kind of game the balance runner can play (the hook for lines and campaign games).

    Attributes:
        name: ``--kind`` value (``scenario``).
        load: ``"module:function"``; ``function(name_or_path) -> (stem, source)``: ``stem``
            names the rows and keys the seeds, ``source`` is the loaded game (it is pickled
            to the workers, so it must be a plain picklable object). Raises HexwarError for a
            name that is not found.
        play: ``"module:function"``; ``function(source, seed, variants, ai, max_turns) ->
            Outcome`` plays one game: ``variants`` is a tuple of rule variants or ``None`` (the
            source's own), ``ai`` maps each side to a computer player name.
        sides: the two sides, in table order.
        doc: the Markdown file whose balance table ``--update-docs`` rewrites (repo-relative).
        marker: the table goes between ``<!-- {marker}:begin -->`` and ``<!-- {marker}:end -->``.
        json: the JSON file of every game written with ``--update-docs`` (repo-relative).
        defaults: the names run when none are given, in table order.
        variants: the rule variants ``--rules`` accepts for this kind.
        replay: how to replay one row: a format string with ``{source}``, ``{seed}``, ``{rules}``.
    """

    name: str
    load: str
    play: str
    sides: tuple[str, str] = ("german", "soviet")
    doc: str = "docs/scenarios.md"
    marker: str = "balance"
    json: str = "docs/balance.json"
    defaults: tuple[str, ...] = ()
    variants: tuple[str, ...] = ("standard", "classic", "burnout")
    replay: str = "hexwar play {source} --headless --ai german,soviet --seed {seed}{rules}"

    def function(self, which: str) -> Callable[..., Any]:
        """The ``load`` or ``play`` function, imported by name (workers import it too)."""
        mod, _, attr = getattr(self, which).partition(":")
        return getattr(importlib.import_module(mod), attr)  # type: ignore[no-any-return]


#: kind name -> GameKind. Colleagues building other game modes add an entry (see the module doc).
GAME_KINDS: dict[str, GameKind] = {
    "scenario": GameKind(
        name="scenario",
        load="hexwar.balance:load_scenario_source",
        play="hexwar.balance:play_scenario_game",
        defaults=(
            "standard",
            "sinyavino",
            "stalingrad",
            "kharkov",
            "kuban",
            "ponyri",
            "teploye",
            "prokhorovka",
            "oboyan",
            "bolkhov",
            "bogodukhov",
            "saur_mogila",
            "dnieper",
        ),
    ),
    # the Spearpoint card game on lines (issue 15): line scenarios, seats played by the standard AI
    "lines": GameKind(
        name="lines",
        load="hexwar.lines.balance:load_lines_source",
        play="hexwar.lines.balance:play_lines_outcome",
        doc="docs/lines.md",
        marker="lines-balance",
        json="docs/lines_balance.json",
        defaults=("lines", "lines-4p", "lines_ponyri", "lines_prokhorovka", "lines_kharkov", "lines_bukrin"),
        variants=("standard", "classic"),
    ),
    # the 1941-1945 campaign (issue 16): NAME is "basic" or rule switches joined by "+"
    "campaign": GameKind(
        name="campaign",
        load="hexwar.campaign.balance:load_campaign_source",
        play="hexwar.campaign.balance:play_campaign_game",
        doc="docs/campaign.md",
        marker="campaign-balance",
        json="docs/campaign_balance.json",
        defaults=("basic", "advanced"),
        variants=("standard",),
        replay="hexwar campaign --headless --ai german,soviet --seed {seed}",
    ),
}


def game_kind(name: str) -> GameKind:
    """The registered :class:`GameKind` ``name``.

    Raises:
        HexwarError: for an unknown kind, naming the known ones.
    """
    try:
        return GAME_KINDS[name]
    except KeyError:
        raise HexwarError(
            f"--kind {name!r}: unknown game kind; expected one of {', '.join(GAME_KINDS)}"
        ) from None


def load_scenario_source(name: str) -> tuple[str, Any]:
    """``(scenario id, Scenario)`` of a scenario file or shipped scenario name (kind ``scenario``):
    rows and seeds are named by the scenario's ``id`` (a shipped scenario's id is its file stem).

    Raises:
        HexwarError: when it is not found or does not validate (the message names the file).
    """
    from .game.scenario import find_scenario, load_scenario

    path = find_scenario(name)
    sc = load_scenario(path)
    return (getattr(sc, "id", "") or Path(path).stem), sc


def play_scenario_game(
    source: Any, seed: int, variants: tuple[str, ...] | None, ai: Mapping[str, str], max_turns: int
) -> Outcome:
    """One headless game of a :class:`~hexwar.game.scenario.Scenario`: exactly ``hexwar play --headless --seed``.

    Raises whatever the engine raises (the runner turns it into an error row).
    """
    from .game.ai import make_player
    from .game.headless import play

    players = {s: make_player(ai[s], s, seed) for s in ("german", "soviet")}
    r = play(source, players, seed=seed, variants=variants, max_turns=max_turns)
    res = r.result
    return Outcome(
        res.winner,
        res.reason,
        res.turn,
        dict(res.score),
        dict(res.objective_points),
        r.commands,
        points_by_type(r.state),
        held_at_end(r.state),
    )


def points_by_type(state: Any) -> dict[str, dict[str, int]]:
    """Side -> unit type -> victory points its kills and captures gave (R10.1), from the game
    state's scoring entries (``state.kills``; a captured unit counts double, as scored)."""
    from .game import ruleset
    from .game.state import card_of

    out: dict[str, dict[str, int]] = {}
    for k in state.kills:
        try:
            utype = ruleset.unit_card(card_of(k.uid)).unit_type
        except HexwarError:
            utype = "unit"
        d = out.setdefault(k.scorer, {})
        d[utype] = d.get(utype, 0) + int(k.points)
    return {s: dict(sorted(d.items())) for s, d in sorted(out.items())}


def held_at_end(state: Any) -> dict[str, str | None]:
    """Objective and area name -> the side holding it when the game ended.

    An objective is held as the game records it (R10.2). An area (the scenario's ``[areas]``)
    is held by the one side with ground units in it (``None`` when both or neither have;
    docs/rules.md).
    """
    from .game import ruleset

    out: dict[str, str | None] = {}
    sc = state.scenario
    for o in sc.objectives:
        out[o.name or state.battlemap.label(o.hex)] = state.objective_holders.get(o.hex)
    for name, hexes in getattr(sc, "areas", {}).items():
        if name in out:
            continue
        hs = set(hexes)
        sides = {
            u.side
            for uid, u in state.units.items()
            if u.hex in hs and not u.aloft and uid not in state.removed and ruleset.is_ground(u.card)
        }
        out[name] = next(iter(sides)) if len(sides) == 1 else None
    return out


# -- seeds and games ---------------------------------------------------------------------------
def game_seed(scenario: str, variant: str, index: int) -> int:
    """The seed of game ``index`` of ``scenario`` under ``variant`` (R1.2), in 0 .. 2**63 - 1.

    The SeedSequence's entropy is the SHA-256 of ``scenario`` and ``variant``; ``index`` is its
    spawn key, so consecutive games get independent streams.

    >>> game_seed("kharkov", "standard", 0) == game_seed("kharkov", "standard", 0)
    True
    >>> len({game_seed("kharkov", v, i) for v in ("standard", "burnout") for i in range(100)})
    200
    """
    if index < 0:
        raise HexwarError(f"game index {index}: expected >= 0")
    digest = hashlib.sha256(f"{scenario}\x00{variant}".encode()).digest()
    ss = np.random.SeedSequence(int.from_bytes(digest, "little"), spawn_key=(int(index),))
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker needs, nothing that depends on where it runs.

    Attributes:
        kind: game kind name.
        scenario: the row name (file stem).
        variant: the variant label (``default`` = the scenario's own, or ``+``-joined variants).
        index: the game's index within its (scenario, variant).
        seed: :func:`game_seed` of the three.
        source: the loaded game (pickled to the worker).
        variants: variants passed to the game, ``None`` for the scenario's own.
        ai: computer player per side.
        max_turns: safety cap in turns.
        source_key: SHA-256 of the pickled source: a worker keeps the first copy it receives
            under this key and plays every later chunk on it, so the source's caches (LOS
            plans of its map) are built once per worker, not once per chunk.
    """

    kind: str
    scenario: str
    variant: str
    index: int
    seed: int
    source: Any
    variants: tuple[str, ...] | None
    ai: tuple[tuple[str, str], ...]
    max_turns: int
    source_key: str = ""


@dataclass
class GameRecord:
    """The result of one game (one CSV row).

    Attributes:
        scenario, variant, index, seed: which game.
        winner: side name or ``None`` (draw or error).
        reason: the result's reason, or ``error``.
        turn: the turn it ended in.
        score: victory points per side.
        objective_points: objective points per side.
        commands: commands applied.
        seconds: wall time of the game (JSON only: the CSV holds nothing that depends on the machine).
        error: ``"ExceptionType: message"`` for an error row.
    """

    scenario: str
    variant: str
    index: int
    seed: int
    winner: str | None
    reason: str
    turn: int = 0
    score: dict[str, int] = field(default_factory=dict)
    objective_points: dict[str, int] = field(default_factory=dict)
    commands: int = 0
    seconds: float = 0.0
    error: str = ""
    points_by_type: dict[str, dict[str, int]] = field(default_factory=dict)
    held: dict[str, str | None] = field(default_factory=dict)


def _error_text(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".replace("\r", " ").replace("\n", " ").strip()
    return text if len(text) <= 500 else text[:497] + "..."


_SOURCES: dict[str, Any] = {}  # source_key -> the first copy of that source this process received
_MAX_SOURCES = 64


def _source(spec: GameSpec) -> Any:
    if not spec.source_key:
        return spec.source
    got = _SOURCES.get(spec.source_key)
    if got is None:
        if len(_SOURCES) >= _MAX_SOURCES:
            _SOURCES.clear()
        got = _SOURCES[spec.source_key] = spec.source
    return got


def play_chunk(specs: list[GameSpec]) -> list[GameRecord]:
    """Play every game of a chunk, in order (runs on a Dask worker or in this process).

    Never raises for a failing game: the exception becomes an ``error`` record with its seed.
    """
    out = []
    plays: dict[str, Callable[..., Outcome]] = {}
    for s in specs:
        t0 = time.perf_counter()
        try:
            if s.kind not in plays:
                plays[s.kind] = game_kind(s.kind).function("play")
            o = plays[s.kind](_source(s), s.seed, s.variants, dict(s.ai), s.max_turns)
            out.append(
                GameRecord(
                    s.scenario,
                    s.variant,
                    s.index,
                    s.seed,
                    o.winner,
                    o.reason,
                    o.turn,
                    dict(o.score),
                    dict(o.objective_points),
                    o.commands,
                    time.perf_counter() - t0,
                    points_by_type={k: dict(v) for k, v in o.points_by_type.items()},
                    held=dict(o.held),
                )
            )
        except Exception as exc:  # noqa: BLE001 - a broken game is data for the report, not a crash
            out.append(
                GameRecord(
                    s.scenario,
                    s.variant,
                    s.index,
                    s.seed,
                    None,
                    "error",
                    seconds=time.perf_counter() - t0,
                    error=_error_text(exc),
                )
            )
    return out


def failed_chunk(specs: list[GameSpec], text: str) -> list[GameRecord]:
    """Error records for every game of a chunk that failed as a whole (its worker kept dying)."""
    return [
        GameRecord(s.scenario, s.variant, s.index, s.seed, None, "error", error=f"chunk failed: {text}")
        for s in specs
    ]


def variant_label(variants: tuple[str, ...] | None) -> str:
    """``default`` for the scenario's own variants, ``standard``, or the variants joined by ``+``."""
    if variants is None:
        return "default"
    return "+".join(variants) or "standard"


def plan_games(
    kind: GameKind,
    sources: Sequence[tuple[str, Any]],
    variants: Sequence[tuple[str, ...] | None],
    games: int,
    seed_start: int,
    ai: Mapping[str, str],
    max_turns: int,
) -> list[GameSpec]:
    """Every game of a run, ordered by scenario, variant, index (the CSV's order).

    Args:
        kind: the game kind.
        sources: ``(stem, loaded source)`` per scenario.
        variants: the variant sets to run (``None``: the scenario's own).
        games: games per (scenario, variant).
        seed_start: index of the first game (``--seed-start``).
        ai: computer player per side.
        max_turns: safety cap.
    """
    import pickle

    ai_t = tuple(sorted(ai.items()))
    keys = [hashlib.sha256(pickle.dumps(src, protocol=5)).hexdigest() for _, src in sources]
    return [
        GameSpec(
            kind.name,
            stem,
            variant_label(v),
            i,
            game_seed(stem, variant_label(v), i),
            src,
            v,
            ai_t,
            max_turns,
            key,
        )
        for (stem, src), key in zip(sources, keys, strict=True)
        for v in variants
        for i in range(seed_start, seed_start + games)
    ]


# -- the run -----------------------------------------------------------------------------------
@dataclass
class BalanceRun:
    """A finished (or interrupted) balance run.

    Attributes:
        records: one per finished game, in plan order.
        planned: games planned.
        interrupted: Ctrl+C stopped it.
        seconds: wall time.
        where: ``none``, ``local`` or the scheduler address.
        workers: workers used.
        chunk: games in the longest chunk.
    """

    records: list[GameRecord]
    planned: int
    interrupted: bool
    seconds: float
    where: str
    workers: int
    chunk: int


def run_balance(
    specs: Sequence[GameSpec],
    *,
    cluster: str = "none",
    workers: int = 1,
    chunk: int | None = None,
    quiet: bool = False,
    on_chunk: Callable[[int, list[Any], Any], None] | None = None,
) -> BalanceRun:
    """Play ``specs`` in chunks on ``cluster`` (see :func:`hexwar.cluster.run_chunks`).

    Args:
        specs: from :func:`plan_games`.
        cluster: ``none``, ``local`` or a scheduler address.
        workers: worker processes of a local cluster.
        chunk: games per chunk (default: chunks of falling size, :func:`hexwar.cluster.guided`,
            the longest about :data:`SECONDS_PER_CHUNK` seconds of games, the last ones
            single games, so the workers finish together).
        quiet: no progress bar.
        on_chunk: called after every finished chunk (tests kill a worker from here).

    Returns:
        a :class:`BalanceRun` with every finished game in plan order.
    """
    from .cluster import chunked, guided, run_chunks

    if chunk is None:
        chunks = guided(list(specs), workers, max(1, round(SECONDS_PER_CHUNK / DEFAULT_GAME_SECONDS)))
    else:
        chunks = chunked(list(specs), chunk)
    chunk = max((len(c) for c in chunks), default=1)
    run = run_chunks(
        play_chunk,
        chunks,
        cluster=cluster,
        workers=workers,
        quiet=quiet,
        desc="balance",
        unit="games",
        on_failure=failed_chunk,
        on_chunk=on_chunk,
    )
    return BalanceRun(run.ordered(), len(specs), run.interrupted, run.seconds, run.where, run.workers, chunk)


# -- counting ----------------------------------------------------------------------------------
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
class Tally:
    """Counts of one (scenario, variant); rates are over finished games, draws included.

    Attributes:
        scenario, variant: the row.
        games: finished games (errors excluded).
        wins: wins per side.
        draws: games without a winner.
        errors: error rows.
        first_index, last_index: the game indices covered.
        mean_turns, median_turns: game length in turns over finished games.
        reasons: ``"german points"`` -> count, most common first.
        ended: reason -> count (``points``, ``overrun``, ``objectives``, ``turn limit``, ...).
        sides: the two sides.
        points_by_type: side -> unit type -> victory points won from kills of that type, summed
            over the finished games (R10.1; how the points were won).
        held: objective or area name -> holder at the end (a side or ``nobody``) -> games.
    """

    scenario: str
    variant: str
    games: int
    wins: dict[str, int]
    draws: int
    errors: int
    first_index: int
    last_index: int
    mean_turns: float
    median_turns: float
    reasons: dict[str, int]
    ended: dict[str, int]
    sides: tuple[str, str] = ("german", "soviet")
    points_by_type: dict[str, dict[str, int]] = field(default_factory=dict)
    held: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The row label: ``kharkov``, or ``kharkov (burnout)`` for another variant."""
        return self.scenario if self.variant == "default" else f"{self.scenario} ({self.variant})"

    def rate(self, side: str) -> tuple[float, float, float]:
        """``(rate, low, high)`` of ``side``'s wins (or ``"draw"``) over the finished games."""
        k = self.draws if side == "draw" else self.wins.get(side, 0)
        lo, hi = wilson(k, self.games)
        return (k / self.games if self.games else 0.0), lo, hi

    def balanced(self, lo: float = 0.35, hi: float = 0.65) -> bool:
        """True when both sides' win rates lie in ``[lo, hi]`` (the 35%-65% target)."""
        return self.games > 0 and all(lo <= self.rate(s)[0] <= hi for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict with the rates and intervals."""
        d = asdict(self)
        d["sides"] = list(self.sides)
        for s in self.sides:
            d[s] = self.wins.get(s, 0)
            d[f"{s}_rate"] = list(self.rate(s))
        d["draw_rate"] = list(self.rate("draw"))
        d["balanced"] = self.balanced()
        return d


def tally(records: Sequence[GameRecord], sides: tuple[str, str] = ("german", "soviet")) -> list[Tally]:
    """Per (scenario, variant) counts, in the order they first appear in ``records``."""
    by: dict[tuple[str, str], list[GameRecord]] = {}
    for r in records:
        by.setdefault((r.scenario, r.variant), []).append(r)
    out = []
    for (name, variant), rs in by.items():
        ok = [r for r in rs if r.reason != "error"]
        reasons: dict[str, int] = {}
        ended: dict[str, int] = {}
        for r in ok:
            key = f"{r.winner or 'draw'} {r.reason}"
            reasons[key] = reasons.get(key, 0) + 1
            ended[r.reason] = ended.get(r.reason, 0) + 1
        turns = [r.turn for r in ok]
        pbt: dict[str, dict[str, int]] = {}
        held: dict[str, dict[str, int]] = {}
        for r in ok:
            for side, d in r.points_by_type.items():
                for utype, pts in d.items():
                    pbt.setdefault(side, {})[utype] = pbt.setdefault(side, {}).get(utype, 0) + pts
            for place, holder in r.held.items():
                h = held.setdefault(place, {})
                h[holder or "nobody"] = h.get(holder or "nobody", 0) + 1
        out.append(
            Tally(
                name,
                variant,
                len(ok),
                {s: sum(r.winner == s for r in ok) for s in sides},
                sum(r.winner is None for r in ok),
                len(rs) - len(ok),
                min(r.index for r in rs),
                max(r.index for r in rs),
                sum(turns) / len(turns) if turns else 0.0,
                float(statistics.median(turns)) if turns else 0.0,
                dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
                dict(sorted(ended.items(), key=lambda kv: (-kv[1], kv[0]))),
                sides,
                {
                    sd: dict(sorted(d.items(), key=lambda kv: (-kv[1], kv[0])))
                    for sd, d in sorted(pbt.items())
                },
                held,
            )
        )
    return out


def _pct(x: tuple[float, float, float]) -> str:
    return f"{100 * x[0]:.1f}% ({100 * x[1]:.1f}-{100 * x[2]:.1f})"


def markdown_table(tallies: Sequence[Tally]) -> str:
    """The balance table as Markdown: wins with 95% Wilson intervals, draws, lengths, how games ended."""
    sides = tallies[0].sides if tallies else ("german", "soviet")
    a, b = (s.capitalize() for s in sides)
    lines = [
        f"| scenario | games (game numbers) | {a} wins | {b} wins | draws | ended by | mean / median turns "
        "| in 35-65%? | errors |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for t in tallies:
        ended = ", ".join(f"{k} {v}" for k, v in t.ended.items()) or "-"
        lines.append(
            f"| {t.name} | {t.games} (#{t.first_index}-{t.last_index}) | {t.wins[sides[0]]}: {_pct(t.rate(sides[0]))} | "
            f"{t.wins[sides[1]]}: {_pct(t.rate(sides[1]))} | {t.draws}: {100 * t.rate('draw')[0]:.1f}% | {ended} | "
            f"{t.mean_turns:.1f} / {t.median_turns:g} | {'yes' if t.balanced() else 'NO'} | {t.errors} |"
        )
    return "\n".join(lines)


def reasons_text(tallies: Sequence[Tally]) -> str:
    """How the games ended, per row: ``"- kharkov: german points 116, soviet points 84"``."""
    lines = []
    for t in tallies:
        lines.append(
            f"- {t.name}: " + (", ".join(f"{k} {v}" for k, v in t.reasons.items()) or "no finished games")
        )
        if t.games and t.points_by_type:
            won = "; ".join(
                f"{side} " + ", ".join(f"{u} {p / t.games:.1f}" for u, p in d.items())
                for side, d in t.points_by_type.items()
            )
            lines.append(f"  - points a game by unit type killed: {won}")
        if t.games and t.held:
            held = "; ".join(
                f"{place} " + ", ".join(f"{who} {n}" for who, n in sorted(d.items(), key=lambda kv: -kv[1]))
                for place, d in t.held.items()
            )
            lines.append(f"  - held at the end (games): {held}")
    return "\n".join(lines)


CSV_COLUMNS = (
    "scenario",
    "variant",
    "game",
    "seed",
    "winner",
    "reason",
    "turn",
    "score_{a}",
    "score_{b}",
    "objectives_{a}",
    "objectives_{b}",
    "commands",
    "error",
)


def records_csv(records: Sequence[GameRecord], sides: tuple[str, str] = ("german", "soviet")) -> str:
    """One CSV row per game, in the given order; nothing machine-dependent (no times), so the
    same command gives the same bytes wherever it ran."""
    import csv
    import io

    a, b = sides
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([c.format(a=a, b=b) for c in CSV_COLUMNS])
    for r in records:
        w.writerow(
            [
                r.scenario,
                r.variant,
                r.index,
                r.seed,
                r.winner or "",
                r.reason,
                r.turn,
                r.score.get(a, ""),
                r.score.get(b, ""),
                r.objective_points.get(a, ""),
                r.objective_points.get(b, ""),
                r.commands,
                r.error,
            ]
        )
    return buf.getvalue()


def render_block(table: str, reasons: str, footer: str) -> str:
    """The generated text between a kind's markers: table, how games ended, how to reproduce."""
    return f"{table}\n\nHow the games ended:\n\n{reasons}\n\n{footer}"


def update_doc(doc: Path, block: str, marker: str = "balance") -> None:
    """Replace the text between ``<!-- {marker}:begin -->`` and ``<!-- {marker}:end -->`` of ``doc`` (atomic write).

    Raises:
        HexwarError: when the file or the markers are missing (nothing is written).
    """
    from .fileio import atomic_write_text

    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError as exc:
        raise HexwarError(f"--update-docs: cannot read {doc}: {exc.strerror or exc}") from None
    if begin not in text or end not in text:
        raise HexwarError(f"--update-docs: {doc} has no {begin} ... {end} markers to write the table between")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    atomic_write_text(doc, f"{head}{begin}\n{block}\n{end}{tail}")
