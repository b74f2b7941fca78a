"""The shared search framework of the ``hard`` computer players (issue 31; DESIGN, computer players).

Determinized search at the root of one information set (Cowling, Powley and Whitehouse 2012,
*Information Set Monte Carlo Tree Search*, its one-level form; perfect-information Monte Carlo
as in Skat programs): every iteration

1. samples a full state that fits what the searching seat has seen (:meth:`SearchGame.determinize`:
   the mode's determinizer; hidden cards reshuffled among the zones the seat cannot see, the
   dice reseeded, so the sample's ``view(seat)`` equals the real one),
2. plays every root candidate in that same world (common random numbers; progressive widening:
   the candidates come ordered by the mode's heuristic player and the budget decides how many
   of the first ones are tried),
3. applies it with the engine's own ``apply`` (the dice of the sample are the chance model:
   every roll follows the exact rule distributions),
4. plays on with the mode's heuristic player as the rollout policy to a horizon the mode names,
5. scores the end state with the mode's evaluation (points, from the seat's side).

The budget is a number of iterations, never a clock, and every random choice goes through one
``numpy`` Generator seeded from the game's seed, the seat and the number of commands so far
(R1.2): one seed always gives the same move, so a save replays exactly. A mode adds only its
:class:`SearchGame` (move generator, determinizer, rollout policy, horizon, evaluation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

__all__ = ["SearchGame", "SearchStats", "search_rng", "determinized_search", "halving_search"]


class SearchGame(Protocol):
    """What one game mode gives the search (each method is pure apart from ``apply``/``rollout``).

    ``state`` is the mode's live state class; ``seat`` the searching seat or side.
    """

    def candidates(self, state: Any, seat: str, rng: np.random.Generator) -> list[Any]:
        """The root moves to consider, best-first by the mode's heuristic (at least one)."""
        ...

    def determinize(self, state: Any, seat: str, rng: np.random.Generator) -> Any:
        """A fresh full state that ``seat`` cannot tell from ``state`` (same view, R12.1), with
        every hidden part sampled from ``rng``; changing it never changes ``state``."""
        ...

    def legal(self, state: Any, move: Any) -> bool:
        """Whether ``move`` is legal in (determinized) ``state``."""
        ...

    def apply(self, state: Any, move: Any) -> None:
        """Carry ``move`` out with the engine's own command application."""
        ...

    def rollout(self, state: Any, seat: str, start: Any) -> None:
        """Play on with the heuristic players up to the mode's horizon (``start``: the root
        state, for horizons relative to it)."""
        ...

    def evaluate(self, state: Any, seat: str) -> float:
        """The end state's worth to ``seat``'s side, in victory points (higher is better)."""
        ...


@dataclass
class SearchStats:
    """What one search did (for tests, benchmarks and the ``--explain`` texts).

    Attributes:
        iterations: iterations run (the budget, unless there was only one candidate).
        visits: per candidate index, how often it was tried.
        means: per candidate index, its mean evaluation.
        chosen: index of the chosen candidate in the candidate list.
    """

    iterations: int = 0
    visits: list[int] = field(default_factory=list)
    means: list[float] = field(default_factory=list)
    chosen: int = 0


def search_rng(seed: int, seat_index: int, step: int, salt: int = 31) -> np.random.Generator:
    """The search's Generator for one decision (R1.2): from the game's ``seed``, the seat's index,
    the number of commands played so far (``step``) and a per-mode ``salt``; so the same decision
    in the same game always searches the same way, whichever player object makes it."""
    return np.random.default_rng(
        np.random.SeedSequence([int(seed) & 0xFFFFFFFF, int(seat_index), int(step), int(salt)])
    )


def _play_world(
    game: Any, state: Any, seat: str, cands: list[Any], k: int, world_seed: int, stats: SearchStats
) -> float | None:
    """Candidate ``k`` played in the world ``world_seed`` samples from ``seat``'s view (R12.1):
    applied, rolled out and scored by ``game``; ``None`` when that world refuses it. Counts the
    visit in ``stats``. Every candidate of a decision meets the same worlds (same seeds)."""
    world = game.determinize(state, seat, np.random.default_rng(world_seed))
    if not game.legal(world, cands[k]):
        return None
    game.apply(world, cands[k])
    game.rollout(world, seat, state)
    stats.visits[k] += 1
    stats.iterations += 1
    return game.evaluate(world, seat)  # type: ignore[no-any-return]


def determinized_search(
    game: SearchGame,
    state: Any,
    seat: str,
    iterations: int,
    rng: np.random.Generator,
    min_worlds: int = 3,
    margin: float = 0.5,
    confidence: float = 1.0,
    settle: bool = False,
) -> tuple[Any, SearchStats]:
    """The root move the search prefers for ``seat`` in ``state`` (see the module docstring).

    The budget is spent as ``worlds x candidates`` rollouts: each sampled world (one
    determinization with its own dice) is played out once after *every* candidate, so the
    candidates are compared on the same hidden cards and the same dice (common random numbers:
    the noise of a few samples cancels between candidates). Progressive widening: with budget
    ``B`` only the heuristic's first ``max(2, B // min_worlds)`` candidates are tried, so each
    gets at least ``min_worlds`` worlds.

    Args:
        game: the mode's :class:`SearchGame`.
        state: the live state (read through ``game.determinize`` only: never changed).
        seat: the searching seat.
        iterations: the budget in rollouts (>= 0; below 2, or a single candidate: the
            heuristic's first candidate without search).
        rng: the decision's Generator (:func:`search_rng`).
        min_worlds: sampled worlds each tried candidate gets at least.
        margin: points by which another candidate must beat the heuristic's first to be chosen
            instead: the mean of its paired differences (same worlds) less ``confidence``
            standard errors must exceed it (a guard against the noise of small budgets: the
            search leaves the heuristic only where the samples agree).
        confidence: standard errors of the paired differences taken off their mean.
        settle: stop sampling worlds once two worlds gave every candidate the same value (the
            outcome did not depend on the sample: nothing hidden or random mattered, so more
            worlds would repeat it); the budget is then not spent, which keeps such decisions
            fast. Off by default (additive: the lines mode keeps its behaviour).

    Returns:
        ``(move, stats)``.

    Raises:
        ValueError: when ``game.candidates`` gives no move.
    """
    cands = game.candidates(state, seat, rng)
    if not cands:
        raise ValueError(f"{seat}: the search has no candidate move")
    n = min(len(cands), max(2, iterations // max(1, min_worlds)))
    stats = SearchStats(0, [0] * len(cands), [-math.inf] * len(cands), 0)
    if len(cands) == 1 or iterations < 2:
        return cands[0], stats
    worlds = max(1, iterations // n)
    values: list[list[float | None]] = [[None] * worlds for _ in range(n)]
    for j in range(worlds):
        world_seed = int(rng.integers(0, 2**63 - 1))
        for k in range(n):
            values[k][j] = _play_world(game, state, seat, cands, k, world_seed, stats)
        if (
            settle
            and j >= 1
            and all(
                v[0] is not None and all(x is not None and abs(x - v[0]) < 1e-9 for x in v[: j + 1])
                for v in values
            )
        ):
            for v in values:  # the worlds not sampled would repeat the same value
                del v[j + 1 :]
            break
    for k in range(n):
        got = [v for v in values[k] if v is not None]
        if got:
            stats.means[k] = sum(got) / len(got)
    best, best_gain = 0, 0.0
    for k in range(1, n):
        diffs = [a - b for a, b in zip(values[k], values[0], strict=True) if a is not None and b is not None]
        if len(diffs) < 2:
            continue
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        low = mean - confidence * sd / math.sqrt(len(diffs))
        if low > margin and mean > best_gain:
            best, best_gain = k, mean
    stats.chosen = best
    return cands[best], stats


def halving_search(
    game: SearchGame,
    state: Any,
    seat: str,
    iterations: int,
    rng: np.random.Generator,
    confidence: float = 1.0,
    margin: float = 0.5,
) -> tuple[Any, SearchStats]:
    """Sequential halving over the root candidates (Karnin, Koren and Somekh 2013), with common
    random numbers: a measured-but-off variant of :func:`determinized_search` for wide candidate
    lists (issue 31; docs/lines.md, "Tried in the seventh session").

    The budget is split evenly over ``ceil(log2(n))`` rounds; in each round every candidate still
    in play is played in the same fresh sampled worlds (world ``j`` is the same determinization
    and dice for every candidate), then the half with the lowest mean paired gain over the
    heuristic's first candidate is dropped (the first candidate itself always stays: it is what
    the others are measured against). At the end the best other survivor replaces the first only
    when its paired gain over every world both were played in, less ``confidence`` standard
    errors, exceeds ``margin`` (as in :func:`determinized_search`).

    Args:
        game: the mode's :class:`SearchGame`.
        state: the live state (never changed).
        seat: the searching seat.
        iterations: the budget in rollouts (>= 0; below 2, or one candidate: no search).
        rng: the decision's Generator (:func:`search_rng`, R1.2).
        confidence: standard errors taken off the final paired gain.
        margin: points the final paired gain must exceed.

    Returns:
        ``(move, stats)``; ``stats.visits[k]`` counts candidate ``k``'s worlds.

    Raises:
        ValueError: when ``game.candidates`` gives no move.
    """
    cands = game.candidates(state, seat, rng)
    if not cands:
        raise ValueError(f"{seat}: the search has no candidate move")
    n = len(cands)
    stats = SearchStats(0, [0] * n, [-math.inf] * n, 0)
    if n == 1 or iterations < 2:
        return cands[0], stats
    rounds = max(1, math.ceil(math.log2(n)))
    values: list[dict[int, float]] = [{} for _ in range(n)]
    alive = list(range(n))
    j0 = 0

    def gain(k: int) -> list[float]:
        return [values[k][j] - values[0][j] for j in values[k] if j in values[0]]

    for r in range(rounds):
        worlds = max(1, iterations // rounds // len(alive))
        for j in range(j0, j0 + worlds):
            world_seed = int(rng.integers(0, 2**63 - 1))
            for k in alive:
                v = _play_world(game, state, seat, cands, k, world_seed, stats)
                if v is not None:
                    values[k][j] = v
        j0 += worlds
        if r < rounds - 1 and len(alive) > 2:
            others = sorted(
                (k for k in alive if k != 0),
                key=lambda k: (-(sum(gain(k)) / max(1, len(gain(k)))) if gain(k) else math.inf, k),
            )
            alive = [0, *others[: max(1, (len(alive) + 1) // 2 - 1)]]
    for k in range(n):
        if values[k]:
            stats.means[k] = sum(values[k].values()) / len(values[k])
    best, best_gain = 0, 0.0
    for k in alive[1:]:
        diffs = gain(k)
        if len(diffs) < 2:
            continue
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        if mean - confidence * sd / math.sqrt(len(diffs)) > margin and mean > best_gain:
            best, best_gain = k, mean
    stats.chosen = best
    return cands[best], stats
