"""The exact best response of one side against a random opponent over the rest of a campaign
year (002, R11.2): :class:`RandomSolver`, the solver behind
:meth:`hexwar.campaign.equilibrium.YearGame.random_value` (docs/campaign.md "Against a random
opponent").

Split out of :mod:`hexwar.campaign.equilibrium` (issue 34: no module over 1,000 lines); that
module re-exports it, with :data:`PublicState`, which is defined here, below both. The year game
reaches it through the small :class:`YearRules` protocol, so this module imports nothing above it
(no import loop).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Protocol

from .cards import CampaignCards
from .scoring import Play

__all__ = ["RandomSolver", "PublicState", "YearRules"]

# a public state between battles: German hand, Soviet hand, German tactics, Soviet tactics, wins
# difference (German minus Soviet). Hands and tactic hands are sorted tuples of ids.
PublicState = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], int]


class YearRules(Protocol):
    """What :class:`RandomSolver` reads of a campaign year (R11.2): implemented by
    :class:`hexwar.campaign.equilibrium.YearGame`.

    Attributes:
        cards: the campaign's cards.
        _rep: each battle card id -> the id of its class of interchangeable cards.
        _returns: the tactic card ids that return to the hand (Bluff).
    """

    cards: CampaignCards
    _rep: dict[str, str]
    _returns: set[str]

    def winner(self, g: Play, s: Play) -> int:
        """+1 German, -1 Soviet, 0 a tied battle, for the German play ``g`` and the Soviet ``s``."""
        ...

    def year_value(self, diff: int) -> float:
        """The year card's value (German view) for the final wins difference ``diff``."""
        ...


class RandomSolver:
    """The exact best response of one side against a random opponent over the rest of a year
    (R11.2; the hard player's model of the ``easy`` player, docs/campaign.md "Against a random
    opponent"): :meth:`YearGame.random_value`'s solver.

    A finite-horizon Markov decision problem (expectimax): in each battle the side chooses a
    battle card and a tactic option, the opponent independently a uniformly random battle card
    of its hand (interchangeable cards add up) and a uniformly random option among none and
    its distinct held tactic cards (Bluff, which returns to the hand, stays held); the value is
    the year card's (:meth:`YearGame.year_value`). States are coded as integers: each hand as
    mixed-radix counts of its classes of interchangeable cards, each side's held tactic cards
    as a bit mask, the wins difference. The side's own Bluff is its "none" against a player
    that does not look (no effect, R11.2), so it is not a separate option. About six times
    faster than the tuple-keyed recursion it replaced (the same values, tested against an
    independent enumeration); its memo is cleared when it holds more than :attr:`MEMO_LIMIT`
    states (bounded memory over a long batch of wars).

    Args:
        game: the year (cards, events, initiative).
        side: the side best-responding (``"german"`` or ``"soviet"``).

    Raises:
        ValueError: for an unknown side.
    """

    MEMO_LIMIT = 4_000_000
    """States one solver keeps before its memo is cleared (about 0.5 GB)."""
    TOTAL_LIMIT = 6_000_000
    """States all live solvers of the process keep before every memo is cleared (a batch of
    wars meets about forty year games: bounded memory, about 0.7 GB)."""
    _live: weakref.WeakSet[RandomSolver] = weakref.WeakSet()

    def __init__(self, game: YearRules, side: str):
        if side not in ("german", "soviet"):
            raise ValueError(f"unknown side {side!r}")
        self.game = game
        self.side = side
        self.opp = opp = "soviet" if side == "german" else "german"
        cards = game.cards
        self.sign = 1.0 if side == "german" else -1.0
        tactics = list(cards.tactics)
        self.tindex = {t: i for i, t in enumerate(tactics)}
        self.returns = frozenset(self.tindex[t] for t in game._returns)
        self.cls: dict[str, list[str]] = {}
        self.base: dict[str, list[int]] = {}
        self.radix: dict[str, int] = {}
        self.items: dict[str, list[list[tuple[int, int]]]] = {}
        for s in (side, opp):
            hand = cards.battle_cards(s)
            reps = list(dict.fromkeys(game._rep[b] for b in hand))
            bases: list[int] = []
            acc = 1
            for r in reps:
                bases.append(acc)
                acc *= 1 + sum(1 for b in hand if game._rep[b] == r)
            self.cls[s], self.base[s], self.radix[s] = reps, bases, acc
            ends = bases[1:] + [acc]
            self.items[s] = [
                [(ci, (code % ends[ci]) // b) for ci, b in enumerate(bases) if (code % ends[ci]) // b]
                for code in range(acc)
            ]
        nt = len(tactics)
        self.mask_items = [tuple(i for i in range(nt) if m >> i & 1) for m in range(1 << nt)]
        # who wins, in this side's view: w[my class][my tactic + 1][their class][their tactic + 1]
        opts: list[str | None] = [None, *tactics]
        self.w = [
            [
                [
                    [
                        int(self.sign)
                        * (
                            game.winner(Play(r, t), Play(r2, t2))
                            if side == "german"
                            else game.winner(Play(r2, t2), Play(r, t))
                        )
                        for t2 in opts
                    ]
                    for r2 in self.cls[opp]
                ]
                for t in opts
            ]
            for r in self.cls[side]
        ]
        self.k4 = 16  # the wins difference, -8..7
        self.k3 = self.k4 << nt
        self.k2 = self.k3 * self.radix[opp]
        self.k1 = self.k2 << nt
        self.memo: dict[int, float] = {}
        RandomSolver._live.add(self)
        self.term = {d: self.sign * game.year_value(int(self.sign) * d) for d in range(-8, 9)}

    def _code(self, s: str, hand: Iterable[str]) -> int:
        reps = self.cls[s]
        return sum(self.base[s][reps.index(self.game._rep[b])] for b in hand)

    def value(self, st: PublicState) -> float:
        """The value (German view) of the rest of the year from ``st`` for this side's best
        response to a random opponent.

        Args:
            st: a public state (hands and tactic hands as card ids, the wins difference).
        """
        g_hand, s_hand, g_tac, s_tac, diff = st
        mine, theirs = (g_hand, s_hand) if self.side == "german" else (s_hand, g_hand)
        mt, tt = (g_tac, s_tac) if self.side == "german" else (s_tac, g_tac)
        mmask = 0
        for t in mt:
            if self.tindex[t] not in self.returns:  # its own Bluff is its "none"
                mmask |= 1 << self.tindex[t]
        tmask = 0
        for t in tt:
            tmask |= 1 << self.tindex[t]
        d = diff if self.side == "german" else -diff
        if len(self.memo) > self.MEMO_LIMIT:
            self.memo.clear()
        elif sum(len(x.memo) for x in RandomSolver._live) > self.TOTAL_LIMIT:
            for x in RandomSolver._live:
                x.memo.clear()
        got = self._v(self._code(self.side, mine), self._code(self.opp, theirs), mmask, tmask, d, len(mine))
        return self.sign * got

    def _v(self, mh: int, th: int, mt: int, tt: int, d: int, m: int) -> float:
        """This side's value (its own view) with ``m`` battles left (the expectimax)."""
        memo = self.memo
        key = mh * self.k1 + mt * self.k2 + th * self.k3 + tt * self.k4 + d + 8
        got = memo.get(key)
        if got is not None:
            return got
        if m == 0 or d > m or -d > m:
            v = self.term[d]
            memo[key] = v
            return v
        base_o = self.base[self.opp]
        topts = (-1, *self.mask_items[tt])
        pt = 1.0 / len(topts)
        k3, k4 = self.k3, self.k4
        outs = []
        for c2, cnt in self.items[self.opp][th]:
            th2 = th - base_o[c2]
            p = cnt / m * pt
            for t2 in topts:
                tt2 = tt if (t2 < 0 or t2 in self.returns) else tt & ~(1 << t2)
                outs.append((c2, t2 + 1, p, th2 * k3 + tt2 * k4, th2, tt2))
        base_m = self.base[self.side]
        best = -2.0
        for c, _ in self.items[self.side][mh]:
            mh2 = mh - base_m[c]
            for t in (-1, *self.mask_items[mt]):
                mt2 = mt if t < 0 else mt & ~(1 << t)
                a = mh2 * self.k1 + mt2 * self.k2 + d + 8
                wt = self.w[c][t + 1]
                s = 0.0
                for c2, t21, p, part, th2, tt2 in outs:
                    w = wt[c2][t21]
                    x = memo.get(a + part + w)
                    if x is None:
                        x = self._v(mh2, th2, mt2, tt2, d + w, m - 1)
                    s += p * x
                if s > best:
                    best = s
        memo[key] = best
        return best
