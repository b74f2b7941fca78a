"""Equilibrium play of a campaign year (002, R11.2): Shapley's backward induction over public states.

A year of the card game (``battles="cards"``) is a zero-sum stochastic game with simultaneous
moves. Everything between battles is public (R12.1): both sides' battle cards still in hand
(every card played was revealed), both sides' tactic cards still in hand (public once both have
chosen, docs/rules.md), the event cards, the initiative and how many battles each side has won.
In each battle both sides choose at once a battle card and a tactic option (none or one held
card); :func:`~hexwar.campaign.scoring.resolve_battle` decides the battle, and the year goes on in
the next public state. Shapley's method solves it from the last battle backwards: the value of a
state is the value of the matrix game whose cells are the values of the states that follow, one
small linear program per state (the maximin form of Nashpy's ``minimax``, solved with
``scipy.optimize.linprog(method="highs")``), memoised per public state.

The payoff (German view; the Soviet's is its negative) is the year card: ``+1`` when the German
wins more battles of the year, ``-1`` when the Soviet does; a tied year goes to the initiative
holder (hexwar's ``tied_year`` rule; ``0`` under 002's unclaimed card). Promotions are
not valued separately: the year's winner has won at least two battles and is promoted anyway; a
loser with two wins is promoted too, whatever it plays, so the promotion only rarely depends on
a decision (a documented simplification: the value is "the value of the year", not of the war).

Exact and approximated variants (docs/campaign.md): the basic game (one event card, no campaign
cards, no swaps) is solved exactly where the rest of the year is small enough
(:func:`subgame_size` within :data:`EXACT_BUDGET`: the last four or five battles); before that (and for every other variant) the stage game of the *current* battle is solved with
the exact value of the rest of the year replaced by :func:`approx_value`, a cheap estimate from
independent battles. How much an opponent could gain against that is measured (not assumed) by
:func:`best_response_gain` and written into docs/campaign.md.

Card identity: two battle cards of a side with the same final value after the events and the
same arm class for the tactic cards (armour, infantry, other) are interchangeable; the public
state keeps one representative id for each, which makes the state space smaller without changing
any value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.optimize import linprog

from .cards import CampaignCards, CampaignEffectKind
from .random_solver import PublicState, RandomSolver
from .scoring import Play, resolve_battle

if TYPE_CHECKING:
    from .state import CampaignState

__all__ = [
    "YearGame",
    "Stage",
    "solve_matrix_game",
    "year_game",
    "PublicState",
    "EXACT_BUDGET",
    "subgame_size",
    "is_exact",
    "approx_value",
    "best_maximin",
    "RANDOM_BUDGET",
    "EXPLOIT_BUDGET",
    "random_payoffs",
    "RandomSolver",
    "tactics_vs_random",
]

K = CampaignEffectKind

# PublicState (a public state between battles: German hand, Soviet hand, German tactics, Soviet
# tactics, wins difference German minus Soviet; sorted tuples of ids) lives in .random_solver,
# below this module, and is re-exported here.


def solve_matrix_game(a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Solve the zero-sum matrix game ``a`` (row player maximises).

    The Nashpy maximin form: maximise ``v`` subject to ``a.T @ x >= v``, ``sum(x) == 1``,
    ``x >= 0``; the column player's strategy is read from the duals of the same program.
    A pure saddle point is returned without a linear program.

    Args:
        a: payoff matrix, shape ``(m, n)``, finite floats.

    Returns:
        ``(value, x, y)``: the game's value, the row mix (shape ``(m,)``) and the column mix
        (shape ``(n,)``), each summing to one.

    Raises:
        ValueError: for an empty matrix or when the linear program fails.
    """
    m, n = a.shape
    if m == 0 or n == 0:
        raise ValueError("a matrix game needs at least one row and one column")
    row_min = a.min(axis=1)
    col_max = a.max(axis=0)
    i = int(np.argmax(row_min))
    j = int(np.argmin(col_max))
    if row_min[i] >= col_max[j] - 1e-12:  # a pure saddle point
        x = np.zeros(m)
        y = np.zeros(n)
        x[i] = 1.0
        y[j] = 1.0
        return float(a[i, j]), x, y
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0, None)] * m + [(None, None)]
    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=b_ub,
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if res.status != 0:
        raise ValueError(f"the matrix game's linear program failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    x /= x.sum()
    y = np.clip(-np.asarray(res.ineqlin.marginals), 0.0, None)
    if y.sum() <= 0:
        y = np.ones(n)
    y /= y.sum()
    # the value as the row mix guarantees it (exact up to the solver's tolerance)
    return float((x @ a).min()), x, y


def solve_leader_game(a: np.ndarray, classes: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Solve a battle in which the follower sees the leader's visible class before choosing.

    The leader (rows, maximising) places first; what the follower then sees is the row's
    class (here: whether a tactic card lies face down or none was placed, R11.2), not the row.
    The follower best-responds per class, so the leader's value is
    ``sum_c min_j sum_{i in c} x_i a_ij``, maximised by one linear program (the maximin form
    of :func:`solve_matrix_game` with one value variable per class). The follower's
    strategy for class ``c`` is read from the duals of that class's constraints (each sums to
    one). With one class this is :func:`solve_matrix_game`. Bluff gets its value here: a card
    with no effect that puts the leader in the "tactic" class.

    Args:
        a: payoff matrix ``(m, n)`` for the leader.
        classes: ``(m,)`` integers ``0 .. k-1``: each row's visible class.

    Returns:
        ``(value, x, ys)``: the value, the leader's mix ``(m,)`` and the follower's mixes
        ``(k, n)``, row ``c`` the reply to class ``c``.

    Raises:
        ValueError: for an empty matrix, mismatched classes or a failed linear program.
    """
    m, n = a.shape
    if len(classes) != m:
        raise ValueError(f"{len(classes)} classes for {m} rows")
    k = int(classes.max()) + 1 if m else 0
    if k <= 1:
        v, x, y = solve_matrix_game(a)
        return v, x, y[None, :]
    row_min = a.min(axis=1)
    col_max = a.max(axis=0)
    i0 = int(np.argmax(row_min))
    if row_min[i0] >= col_max.min() - 1e-12:  # a pure saddle point: nothing to hide
        x = np.zeros(m)
        x[i0] = 1.0
        ys = np.zeros((k, n))
        for c in range(k):
            ys[c, int(np.argmin(col_max))] = 1.0
        return float(row_min[i0]), x, ys
    c_obj = np.concatenate([np.zeros(m), -np.ones(k)])
    a_ub = np.zeros((k * n, m + k))
    for c in range(k):
        rows = classes == c
        a_ub[c * n : (c + 1) * n, :m] = -(a * rows[:, None]).T
        a_ub[c * n : (c + 1) * n, m + c] = 1.0
    a_eq = np.concatenate([np.ones(m), np.zeros(k)])[None, :]
    res = linprog(
        c_obj,
        A_ub=a_ub,
        b_ub=np.zeros(k * n),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)] * k,
        method="highs",
    )
    if res.status != 0:
        raise ValueError(f"the leader game's linear program failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    x /= x.sum()
    ys = np.clip(-np.asarray(res.ineqlin.marginals).reshape(k, n), 0.0, None)
    for c in range(k):
        t = ys[c].sum()
        ys[c] = ys[c] / t if t > 0 else np.ones(n) / n
    return leader_value(a, classes, x), x, ys


def leader_value(a: np.ndarray, classes: np.ndarray, x: np.ndarray) -> float:
    """What the leader's mix ``x`` guarantees when the follower sees its class:
    ``sum_c min_j sum_{i in c} x_i a_ij``."""
    total = 0.0
    for c in np.unique(classes):
        rows = classes == c
        total += float((x[rows] @ a[rows]).min())
    return total


def best_maximin(
    a: np.ndarray, classes: np.ndarray | None, value: float, gain: np.ndarray, slack: float = 1e-10
) -> np.ndarray | None:
    """Among the maximin (equilibrium) mixes of a battle's game, the one with the most ``gain``.

    A second linear program after :func:`solve_matrix_game` / :func:`solve_leader_game`:
    maximise ``gain @ x`` subject to ``x`` still guaranteeing ``value`` (``a.T @ x >= value``
    for a matrix game; ``sum_c z_c >= value`` with ``z_c <= (x_c @ a_c)_j`` for every column
    ``j`` when the follower sees the row's class ``c``), ``sum(x) == 1``, ``x >= 0``. The
    guarantee is then checked again on the mix found (the solver's tolerance is ``1e-10``);
    a mix that guarantees less than ``value - slack`` is rejected. Used by the hard player to
    pick, among equally unexploitable mixes, the one that earns most against a careless
    (random) opponent (docs/campaign.md "Against a random opponent"; R11.2): the
    exploitability of the mix stays that of the equilibrium.

    Args:
        a: the leader's payoff matrix ``(m, n)``.
        classes: ``(m,)`` visible class of each row (``0 .. k-1``) when the follower sees it,
            or ``None`` for a simultaneous (matrix) game.
        value: the game's value (what the first solve's mix guarantees).
        gain: ``(m,)`` what each row earns against the opponent model to favour.
        slack: how far below ``value`` the mix found may guarantee.

    Returns:
        the mix ``(m,)`` summing to one, or ``None`` when the program fails or its mix
        guarantees less than ``value - slack`` (the caller keeps its first mix).
    """
    m, n = a.shape
    if m == 0 or n == 0 or len(gain) != m:
        raise ValueError(f"a ({m}, {n}) game with {len(gain)} gains")
    k = 1 if classes is None else int(classes.max()) + 1
    cls = np.zeros(m, dtype=np.int64) if classes is None else classes
    # variables: x (m), z (k, free); minimise -gain @ x
    c_obj = np.concatenate([-np.asarray(gain, dtype=float), np.zeros(k)])
    a_ub = np.zeros((k * n + 1, m + k))
    for c in range(k):
        rows = cls == c
        a_ub[c * n : (c + 1) * n, :m] = -(a * rows[:, None]).T
        a_ub[c * n : (c + 1) * n, m + c] = 1.0
    a_ub[-1, m:] = -1.0
    b_ub = np.zeros(k * n + 1)
    b_ub[-1] = -value
    a_eq = np.concatenate([np.ones(m), np.zeros(k)])[None, :]
    res = linprog(
        c_obj,
        A_ub=a_ub,
        b_ub=b_ub,
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)] * k,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:
        return None
    x = np.clip(res.x[:m], 0.0, None)
    if x.sum() <= 0:
        return None
    x /= x.sum()
    guaranteed = float((x @ a).min()) if classes is None else leader_value(a, cls, x)
    return x if guaranteed >= value - slack else None


@dataclass(frozen=True)
class Stage:
    """One battle's matrix game at a public state.

    Attributes:
        rows: the German plays ``(battle card id, tactic id or None)``.
        cols: the Soviet plays.
        payoff: ``(len(rows), len(cols))`` values of the year after each pair (German view).
        winner: the same shape: ``+1`` German wins the battle, ``-1`` Soviet, ``0`` nobody.
        value: the stage game's value (German view).
        x: the German (leader's) equilibrium mix over ``rows``.
        y: ``(2, len(cols))``: the Soviet (follower's) equilibrium mix over ``cols`` after
            seeing no tactic card (row 0) or a face-down tactic card (row 1).
        classes: ``(len(rows),)``: 0 for the German rows without a tactic card, 1 with one.
    """

    rows: tuple[tuple[str, str | None], ...]
    cols: tuple[tuple[str, str | None], ...]
    payoff: np.ndarray
    winner: np.ndarray
    value: float
    x: np.ndarray
    y: np.ndarray
    classes: np.ndarray


class YearGame:
    """The rest of one year as a stochastic game (see the module text).

    Args:
        cards: the card definitions.
        events: the event card ids in play (fixed for the year in the basic game).
        initiative: the side holding the initiative card.
        exact: solve every later battle exactly (``True``) or estimate the rest of the year with
            :func:`approx_value` after the current battle (``False``).
    """

    def __init__(self, cards: CampaignCards, events: tuple[str, ...], initiative: str, exact: bool = True):
        self.cards = cards
        self.events = tuple(events)
        self.initiative = initiative
        self.exact = exact
        self._values: dict[PublicState, float] = {}
        self._stages: dict[PublicState, Stage] = {}
        self._winner: dict[tuple[str, str | None, str, str | None], int] = {}
        self._rep: dict[str, str] = {}
        self._returns = {t for t, c in cards.tactics.items() if c.has(K.RETURNS_TO_HAND)}
        for side in ("german", "soviet"):
            seen: dict[tuple[int, str], str] = {}
            for b in cards.battle_cards(side):
                key = self._card_class(side, b)
                self._rep[b] = seen.setdefault(key, b)
        self.lps = 0
        self._random_values: dict[str, RandomSolver] = {}
        self._approx: dict[tuple, tuple[float, float]] = {}
        self._matrix: tuple[dict[str, dict[tuple[str, str | None], int]], np.ndarray, np.ndarray] | None = (
            None
        )
        self.tie = 0.0
        if cards.rules.tied_year == "initiative":
            self.tie = 1.0 if initiative == "german" else -1.0

    def year_value(self, diff: int) -> float:
        """The year card's value (German view) for a year ending with ``diff`` = German minus
        Soviet battles won: ``+1``/``-1`` for the side with more, and for a tie :attr:`tie`
        (the initiative holder's card under hexwar's ``tied_year`` rule, ``0`` under 002's)."""
        return 1.0 if diff > 0 else -1.0 if diff < 0 else self.tie

    # -- cards ---------------------------------------------------------------------------------
    def _card_class(self, side: str, b: str) -> tuple[int, str]:
        card = self.cards.battle[b]
        out = resolve_battle(
            self.cards,
            {side: Play(b), ("soviet" if side == "german" else "german"): Play(_any_card(self.cards, side))},
            self.events,
            self.initiative,
        )
        arm_class = card.arm if card.arm in ("armour", "infantry") else "other"
        return out.scores[side], arm_class

    def canonical(self, hand: Iterable[str]) -> tuple[str, ...]:
        """A hand with every card replaced by its class representative, sorted."""
        return tuple(sorted(self._rep[b] for b in hand))

    def key(
        self,
        g_hand: Iterable[str],
        s_hand: Iterable[str],
        g_tac: Iterable[str],
        s_tac: Iterable[str],
        diff: int,
    ) -> PublicState:
        """The memo key of a public state (see :data:`PublicState`)."""
        return (
            self.canonical(g_hand),
            self.canonical(s_hand),
            tuple(sorted(g_tac)),
            tuple(sorted(s_tac)),
            diff,
        )

    def winner(self, g: Play, s: Play) -> int:
        """``+1`` / ``-1`` / ``0``: who wins a battle of these plays (German view)."""
        k = (g.battle, g.tactic, s.battle, s.tactic)
        w = self._winner.get(k)
        if w is None:
            oc = resolve_battle(self.cards, {"german": g, "soviet": s}, self.events, self.initiative)
            w = 1 if oc.winner == "german" else -1 if oc.winner == "soviet" else 0
            self._winner[k] = w
        return w

    def win_matrix(self) -> tuple[dict[str, dict[tuple[str, str | None], int]], np.ndarray, np.ndarray]:
        """Every battle of the year at once: an index of each side's plays (representative
        battle card, tactic or None) and two 0/1 matrices (German plays x Soviet plays): the
        German wins, the Soviet wins. Built once per year game."""
        if self._matrix is None:
            opts: list[str | None] = [None, *self.cards.tactics]
            index = {
                side: {
                    (b, t): k
                    for k, (b, t) in enumerate(
                        (b, t)
                        for b in dict.fromkeys(self._rep[x] for x in self.cards.battle_cards(side))
                        for t in opts
                    )
                }
                for side in ("german", "soviet")
            }
            w = np.zeros((len(index["german"]), len(index["soviet"])), dtype=np.int8)
            for (gb, gt), i in index["german"].items():
                for (sb, stt), j in index["soviet"].items():
                    w[i, j] = self.winner(Play(gb, gt), Play(sb, stt))
            self._matrix = (index, (w > 0).astype(float), (w < 0).astype(float))
        return self._matrix

    # -- plays ---------------------------------------------------------------------------------
    @staticmethod
    def plays(hand: tuple[str, ...], tactics: tuple[str, ...]) -> tuple[tuple[str, str | None], ...]:
        """Every distinct ``(battle card, tactic or None)`` of a hand (representatives)."""
        opts: list[str | None] = [None, *dict.fromkeys(tactics)]
        return tuple((b, t) for b in dict.fromkeys(hand) for t in opts)

    def _after(self, hand: tuple[str, ...], tac: tuple[str, ...], play: tuple[str, str | None]):
        b, t = play
        h = list(hand)
        h.remove(b)
        tl = list(tac)
        if t is not None and t not in self._returns:
            tl.remove(t)
        return tuple(h), tuple(tl)

    # -- values ----------------------------------------------------------------------------------
    def value(self, st: PublicState) -> float:
        """The value of the rest of the year from ``st`` (German view), memoised."""
        v = self._values.get(st)
        if v is not None:
            return v
        g_hand, s_hand, g_tac, s_tac, diff = st
        left = len(g_hand)
        if left == 0 or abs(diff) > left or not s_hand:
            v = self.year_value(diff)
        else:
            v = self.stage(st).value
        self._values[st] = v
        return v

    def stage(self, st: PublicState) -> Stage:
        """The matrix game of the next battle at ``st``, solved (memoised).

        Raises:
            ValueError: for a state without a battle to fight.
        """
        got = self._stages.get(st)
        if got is not None:
            return got
        g_hand, s_hand, g_tac, s_tac, diff = st
        if not g_hand or not s_hand:
            raise ValueError("no battle left in this year")
        rows = self.plays(g_hand, g_tac)
        cols = self.plays(s_hand, s_tac)
        g_next = [self._after(g_hand, g_tac, r) for r in rows]
        s_next = [self._after(s_hand, s_tac, c) for c in cols]
        win = np.empty((len(rows), len(cols)), dtype=np.int8)
        pay = np.empty((len(rows), len(cols)))
        for i, r in enumerate(rows):
            gp = Play(r[0], r[1])
            gh, gt = g_next[i]
            for j, c in enumerate(cols):
                w = self.winner(gp, Play(c[0], c[1]))
                win[i, j] = w
                sh, stt = s_next[j]
                if self.exact:
                    pay[i, j] = self.value((gh, sh, gt, stt, diff + w))
                else:
                    pay[i, j] = approx_value(self, (gh, sh, gt, stt, diff + w))
        classes = np.array([0 if t is None else 1 for _, t in rows], dtype=np.int64)
        v, x, ys = solve_leader_game(pay, classes)
        if ys.shape[0] == 1:
            ys = np.vstack([ys, ys])
        self.lps += 1
        s = Stage(rows, cols, pay, win, v, x, ys, classes)
        self._stages[st] = s
        return s

    # -- against a random opponent (the exploitative element of the hard player) ---------------
    def random_value(self, st: PublicState, side: str) -> float:
        """The value of the rest of the year from ``st`` (German view) when ``side`` plays its
        best response and the other side plays at random in every battle (a uniformly random
        battle card, then a uniformly random tactic option: none or a held card, as the
        ``easy`` player does), memoised. A one-player decision problem (expectimax): no linear
        program; solved by :class:`RandomSolver` (integer-coded states, one memo per side of
        the year game).

        Raises:
            ValueError: for an unknown side.
        """
        if side not in ("german", "soviet"):
            raise ValueError(f"unknown side {side!r}")
        solver = self._random_values.get(side)
        if solver is None:
            solver = self._random_values[side] = RandomSolver(self, side)
        return solver.value(st)

    @staticmethod
    def random_weights(
        hand: tuple[str, ...], tactics: tuple[str, ...], plays: tuple[tuple[str, str | None], ...]
    ) -> np.ndarray:
        """How a random player spreads over ``plays`` (:meth:`plays` of ``hand``, ``tactics``):
        a battle card uniformly over the hand (interchangeable cards add up), then none or one
        of the held tactic cards uniformly; shape ``(len(plays),)``, sums to one."""
        n_t = 1 + len(dict.fromkeys(tactics))
        return np.array([hand.count(b) / len(hand) / n_t for b, _ in plays])


def _any_card(cards: CampaignCards, side: str) -> str:
    return cards.battle_cards("soviet" if side == "german" else "german")[0]


def approx_value(game: YearGame, st: PublicState) -> float:
    """A cheap estimate of the rest of the year (German view) used where it is not solved
    exactly: the remaining battles as independent, each between a uniformly random pair of the
    remaining battle cards, each side adding a uniformly random one of its tactic cards (Bluff
    aside) with probability ``min(1, cards / battles left)``; the year's sign from the resulting
    distribution of the wins difference.

    Args:
        game: the year.
        st: the public state.
    """
    g_hand, s_hand, g_tac, s_tac, diff = st
    left = len(g_hand)
    if left == 0 or abs(diff) > left:
        return game.year_value(diff)

    def options(tac: tuple[str, ...]) -> list[tuple[str | None, float]]:
        use = [t for t in tac if t not in game._returns]
        if not use:
            return [(None, 1.0)]
        q = min(1.0, len(use) / left)
        return [(None, 1.0 - q)] + [(t, q / len(use)) for t in use]

    pq = game._approx.get(st[:4])
    if pq is None:
        pq = game._approx[st[:4]] = _battle_odds(game, g_hand, s_hand, g_tac, s_tac, options)
    pw, pl = pq
    dist = {diff: 1.0}
    for _ in range(left):
        nxt: dict[int, float] = {}
        for d, p in dist.items():
            nxt[d + 1] = nxt.get(d + 1, 0.0) + p * pw
            nxt[d - 1] = nxt.get(d - 1, 0.0) + p * pl
            nxt[d] = nxt.get(d, 0.0) + p * (1 - pw - pl)
        dist = nxt
    return sum(p * game.year_value(d) for d, p in dist.items())


def _battle_odds(game: YearGame, g_hand, s_hand, g_tac, s_tac, options) -> tuple[float, float]:
    """P(German wins), P(Soviet wins) of one battle of :func:`approx_value`'s model: a weighted
    sum over :meth:`YearGame.win_matrix`."""
    index, plus, minus = game.win_matrix()
    wg = np.zeros(len(index["german"]))
    ws = np.zeros(len(index["soviet"]))
    for w, hand, opts, side in (
        (wg, g_hand, options(g_tac), "german"),
        (ws, s_hand, options(s_tac), "soviet"),
    ):
        ix = index[side]
        for b in hand:
            for t, q in opts:
                w[ix[(b, t)]] += q
    n = len(g_hand) * len(s_hand)
    return float(wg @ plus @ ws) / n, float(wg @ minus @ ws) / n


_GAMES: dict[tuple[int, tuple[str, ...], str, bool], tuple[CampaignCards, YearGame]] = {}


def year_game(cards: CampaignCards, events: tuple[str, ...], initiative: str, exact: bool = True) -> YearGame:
    """A shared :class:`YearGame` per (cards, events, initiative, exact): its memo of solved
    public states carries over between the decisions of a year and between wars."""
    key = (id(cards), tuple(events), initiative, exact)
    got = _GAMES.get(key)
    if got is None or got[0] is not cards:
        if len(_GAMES) > 400:  # a year game per (events, initiative): about 40 in the basic game
            _GAMES.clear()
        got = (cards, YearGame(cards, tuple(events), initiative, exact))
        _GAMES[key] = got
    return got[1]


def subgame_size(st: PublicState) -> int:
    """An upper estimate of the number of public states below ``st`` (the exactness budget):
    ``C(2m, m) * 2**tg * 2**ts`` for ``m`` battles left and ``tg``/``ts`` tactic cards that are
    used up (Bluff returns to the hand, so it does not count)."""
    g_hand, _, g_tac, s_tac, _ = st
    m = len(g_hand)
    tg = sum(1 for t in g_tac if t != "bluff")
    ts = sum(1 for t in s_tac if t != "bluff")
    return math.comb(2 * m, m) * 2**tg * 2**ts


EXACT_BUDGET = 1200
"""The largest :func:`subgame_size` solved exactly: the last five battles of a year with one tactic
card a side (1,008) or the last four with two (1,120); measured at most about 1 s per solve on
this machine, once per year (memoised), so the median decision stays in milliseconds."""

APPROX_GAIN_BOUND = 1.0
"""The documented bound on what an exact best response gains, in the value of the year (range
2), against an approximated decision: measured over seeded basic wars where the exact value can
still be solved for the check (at most 0.774 over seeds 0..9; earlier decisions, with
larger subgames, unmeasured) (docs/campaign.md, tests/test_campaign_equilibrium.py)."""


def is_exact(st: PublicState, variant_exact: bool = True) -> bool:
    """Whether the rest of the year from ``st`` is solved exactly: the variant allows it (the
    basic game: fixed events, no campaign cards) and :func:`subgame_size` is within
    :data:`EXACT_BUDGET`."""
    return variant_exact and subgame_size(st) <= EXACT_BUDGET


def variant_exact(options: object) -> bool:
    """Whether a variant is solved exactly where small (:func:`is_exact`): one event card, no
    campaign cards, no event swaps, battles decided by the cards. Every other variant uses the
    approximation of the module text at every battle."""
    return (
        getattr(options, "events", 1) == 1
        and not getattr(options, "uses_campaign_cards", False)
        and not getattr(options, "event_swap", False)
    )


def public_state(st: CampaignState) -> PublicState:
    """The public state of the battle being placed in a :class:`~hexwar.campaign.state.CampaignState`
    (cards already placed face down this battle count as still in hand).

    Raises:
        ValueError: outside the ``place``/``campaign`` phases.
    """
    if st.phase not in ("place", "campaign"):
        raise ValueError(f"no battle is being placed in the {st.phase} phase")
    hands = {}
    tacs = {}
    for side in ("german", "soviet"):
        h = list(st.hands[side])
        slot, tslot = st.slots[side], st.tactic_slots[side]
        if slot is not None:
            h.append(slot)
        t = list(st.tactics_hand[side])
        if tslot is not None:
            t.append(tslot)
        hands[side], tacs[side] = h, t
    diff = st.wins["german"] - st.wins["soviet"]
    return (
        tuple(hands["german"]),
        tuple(hands["soviet"]),
        tuple(tacs["german"]),
        tuple(tacs["soviet"]),
        diff,
    )


@dataclass(frozen=True)
class Position:
    """One side's battle game at a decision, restricted to what that side can see.

    Attributes:
        side: the side deciding.
        leads: whether it places before the opponent has decided (then the opponent is
            modelled as seeing whether a tactic card lies face down, :func:`solve_leader_game`);
            otherwise the opponent's visible choice restricts its plays.
        mine: its plays ``(battle card id, tactic or None)`` still open (its own placements fix
            them); actual card ids, one per class of interchangeable cards.
        theirs: the opponent's plays consistent with what it visibly did (battle card: any it
            has not revealed; tactic: none if it visibly chose none, a held card if it placed one
            face down, either while undecided); representative card ids.
        payoff: ``(len(mine), len(theirs))`` values of the year for ``side``.
        win: the same shape: ``1`` when ``side`` wins the battle, ``-1`` loses, ``0`` nobody.
        value: the game's value for ``side``.
        x: ``side``'s equilibrium mix over ``mine``.
        y: ``(len(mine), len(theirs))``: the opponent's equilibrium reply to each of ``side``'s
            plays (it depends only on the play's visible class when ``side`` leads).
        exact: whether the payoffs are exact values of the year (else :func:`approx_value`).
        rep: every battle card ``side`` may still place -> the card of ``mine`` standing for
            it (interchangeable cards share one).
    """

    side: str
    leads: bool
    mine: tuple[tuple[str, str | None], ...]
    theirs: tuple[tuple[str, str | None], ...]
    payoff: np.ndarray
    win: np.ndarray
    value: float
    x: np.ndarray
    y: np.ndarray
    exact: bool
    rep: dict[str, str]


def position(st: CampaignState, side: str, exact: bool | None = None) -> Position:
    """The equilibrium of the battle being placed, for ``side`` (see :class:`Position`).

    Conditioned on everything ``side`` can see (R12.1, R11.2): both hands, both tactic hands,
    the events, the initiative, the wins so far, its own placements and the opponent's visible
    placement (a face-down tactic card, none, or not yet decided). The opponent's battle card,
    face down, is any it has not revealed. The rest of the year is valued by
    :class:`YearGame` (the German placing first in later battles, as the command loop asks).

    Args:
        st: the war (``place`` or ``campaign`` phase).
        side: ``"german"`` or ``"soviet"``.
        exact: ``None`` (the player's rule, :func:`is_exact`), or force the rest of the year to
            be solved exactly (``True``; slow for a large subgame: the exploitability check of
            the approximation uses it) or estimated (``False``).

    Raises:
        ValueError: outside the ``place``/``campaign`` phases, or for an unknown side.
    """
    if side not in ("german", "soviet"):
        raise ValueError(f"unknown side {side!r}")
    key0 = public_state(st)
    ex = is_exact(key0, variant_exact(st.options)) if exact is None else exact
    game = year_game(st.cards, tuple(st.events_in_play), st.initiative, ex)
    key = game.key(*key0[:4], key0[4])
    stage = game.stage(key)
    opp = "soviet" if side == "german" else "german"
    my_rows = stage.rows if side == "german" else stage.cols
    their_cols = stage.cols if side == "german" else stage.rows
    pay = stage.payoff if side == "german" else -stage.payoff.T
    win = stage.winner if side == "german" else -stage.winner.T
    my_slot = st.slots[side]
    my_tac_done = st.tactic_decided[side]
    my_tac = st.tactic_slots[side]
    their_done = st.tactic_decided[opp]
    their_tac = st.tactic_slots[opp]
    ri = [
        i
        for i, (b, t) in enumerate(my_rows)
        if (my_slot is None or game._rep[my_slot] == b) and (not my_tac_done or t == my_tac)
    ]
    ci = [j for j, (_, t) in enumerate(their_cols) if not their_done or ((t is None) == (their_tac is None))]
    sub = pay[np.ix_(ri, ci)]
    leads = not their_done
    if leads:
        classes = np.array([0 if my_rows[i][1] is None else 1 for i in ri], dtype=np.int64)
        k = np.unique(classes, return_inverse=True)[1]
        v, x, ys = solve_leader_game(sub, k.astype(np.int64))
        y = ys[k]
    else:
        v, x, yy = solve_matrix_game(sub)
        y = np.tile(yy, (len(ri), 1))
    hand = ([my_slot] if my_slot is not None else []) + list(st.hands[side])
    actual: dict[str, str] = {}
    for b in hand:
        actual.setdefault(game._rep[b], b)
    mine = tuple((actual[my_rows[i][0]], my_rows[i][1]) for i in ri)
    rep = {b: actual[game._rep[b]] for b in hand}
    return Position(
        side, leads, mine, tuple(their_cols[j] for j in ci), sub, win[np.ix_(ri, ci)], v, x, y, ex, rep
    )


RANDOM_BUDGET = 4000
"""The largest :func:`subgame_size` for which :func:`random_payoffs` solves the rest of the year
against a random opponent (measured: about 2 s for 13,728 at the start of a year, so a fraction
of a second here; once per year game, then memoised; the 600-war tables need it cheap)."""

EXPLOIT_BUDGET = 150_000
"""The largest :func:`subgame_size` :func:`random_payoffs` solves once the hard player takes its
opponent for random (:attr:`~hexwar.campaign.ai.EquilibriumPlayer.EXPLOIT_AT`): the whole year
with up to three German tactic cards against one (:class:`RandomSolver`: a few seconds once per
year, then memoised), from the second or third battle with four against four (the whole year
there: about a minute); before that, :func:`random_payoffs`' proxy."""


def random_payoffs(
    st: CampaignState, pos: Position, budget: int | None = None, proxy: bool = False
) -> np.ndarray | None:
    """The values of the year for ``pos.side`` after each cell of ``pos`` (its play, the
    opponent's play) when ``pos.side`` then plays its best response to an opponent playing at
    random for the rest of the year (:meth:`YearGame.random_value`); ``None`` when the rest of the
    year is larger than ``budget`` (with ``proxy``: unless it fits once the opponent's tactic
    cards are left out of the rest of the year after this battle; the values are then those of
    an opponent without tactic cards after this battle, an optimistic estimate that still ranks
    this side's hands and tactic cards for later).

    Args:
        st: the war at the decision (``place`` phase).
        pos: :func:`position` of the side deciding.
        budget: the largest :func:`subgame_size` solved (``None``: :data:`RANDOM_BUDGET`; the
            hard player passes :data:`EXPLOIT_BUDGET` once it takes the opponent for random).
        proxy: beyond ``budget``, estimate as above instead of returning ``None``.

    Returns:
        shape ``(len(pos.mine), len(pos.theirs))``, values in ``[-1, 1]`` for ``pos.side``.
    """
    key0 = public_state(st)
    limit = RANDOM_BUDGET if budget is None else budget
    drop = None  # the side whose tactic cards the rest of the year leaves out (the proxy)
    if subgame_size(key0) > limit:
        g_h, s_h, g_t, s_t, d0 = key0
        lean = (g_h, s_h, (), s_t, d0) if pos.side == "soviet" else (g_h, s_h, g_t, (), d0)
        if not proxy or subgame_size(lean) > limit:
            return None
        drop = "german" if pos.side == "soviet" else "soviet"
    game = year_game(st.cards, tuple(st.events_in_play), st.initiative, True)  # one memo per year
    g_hand, s_hand, g_tac, s_tac, diff = game.key(*key0[:4], key0[4])
    sign = 1.0 if pos.side == "german" else -1.0
    out = np.empty((len(pos.mine), len(pos.theirs)))
    for i, (b, t) in enumerate(pos.mine):
        mine = (game._rep[b], t)
        for j, theirs in enumerate(pos.theirs):
            g, so = (mine, theirs) if pos.side == "german" else (theirs, mine)
            gh, gt = game._after(g_hand, g_tac, g)
            sh, stt = game._after(s_hand, s_tac, so)
            if drop == "german":
                gt = ()
            elif drop == "soviet":
                stt = ()
            w = game.winner(Play(g[0], g[1]), Play(so[0], so[1]))
            out[i, j] = sign * game.random_value((gh, sh, gt, stt, diff + w), pos.side)
    return out


_TACTIC_CHOICE: dict[tuple, tuple[str, ...]] = {}
EXACT_TACTIC_SETS = 0
"""Up to this many opponent cards :func:`tactics_vs_random` averages over the opponent's sets;
above, it values the year against an opponent holding none (0: always the proxy, which keeps
the choice at one or two seconds a year game)."""


def tactics_vs_random(
    cards: CampaignCards, events: tuple[str, ...], initiative: str, side: str, n: int, n_opp: int
) -> tuple[str, ...]:
    """The ``n`` tactic cards with which ``side`` does best for the year against an opponent
    playing at random (R11.2, docs/campaign.md "Against a random opponent"): for each set, the
    value of the year's exact best response to a random opponent from the year's first battle
    (:meth:`YearGame.random_value`), averaged over the opponent's ``C(cards, n_opp)`` equally
    likely sets when ``n_opp`` is at most :data:`EXACT_TACTIC_SETS`, else against an opponent
    holding no tactic card (a proxy that keeps the choice at a second or two: the random
    opponent plays its cards blindly, and the ranking of one's own sets hardly depends on it). Memoised per (cards, events, initiative, side, n,
    n_opp); the year games it solves are not kept.

    Args:
        cards: the card definitions; ``events``: the event cards in play; ``initiative``: its
            holder; ``side``: the side choosing; ``n``, ``n_opp``: how many cards each side's
            rank allows.

    Returns:
        ``n`` tactic card ids in card order (every card when ``n`` allows all).

    Raises:
        ValueError: for an unknown side or ``n`` below 1.
    """
    from itertools import combinations

    if side not in ("german", "soviet"):
        raise ValueError(f"unknown side {side!r}")
    tactics = tuple(cards.tactics)
    if n < 1:
        raise ValueError(f"a rank allows at least one tactic card, got {n}")
    if n >= len(tactics):
        return tactics
    n_opp = min(n_opp, len(tactics)) if n_opp <= EXACT_TACTIC_SETS else -1  # -1: the proxy
    key = (id(cards), tuple(events), initiative, side, n, n_opp)
    got = _TACTIC_CHOICE.get(key)
    if got is not None:
        return got
    game = YearGame(cards, tuple(events), initiative)
    gh, sh = cards.battle_cards("german"), cards.battle_cards("soviet")
    theirs = list(combinations(tactics, n_opp)) if n_opp >= 0 else [()]
    sign = 1.0 if side == "german" else -1.0
    best: tuple[float, tuple[str, ...]] | None = None
    for mine in combinations(tactics, n):
        total = 0.0
        for t in theirs:
            gt, stt = (mine, t) if side == "german" else (t, mine)
            total += sign * game.random_value(game.key(gh, sh, gt, stt, 0), side)
        v = total / len(theirs)
        if best is None or v > best[0] + 1e-12:
            best = (v, mine)
    assert best is not None
    if len(_TACTIC_CHOICE) > 2000:
        _TACTIC_CHOICE.clear()
    _TACTIC_CHOICE[key] = best[1]
    return best[1]
