"""Computer players for the campaign (R11.2): a random player and the standard one.

Both see only what :meth:`CampaignState.view` allows: the public state, their own hidden
cards, and the exact odds of :mod:`hexwar.campaign.odds` (never the opponent's face-down
cards). Their randomness is their own generator, seeded from the war's seed and their side, so
the war's generator (R1.2) is never touched by a player.

The standard player (``"standard"``):

- chooses the tactic cards with the most score swing first (``_TACTIC_PREFERENCE``);
- places the battle card and tactic card that maximise P(win this battle) (exact odds) minus
  the value of keeping a tactic card for a later battle, which shrinks as the year runs out and
  vanishes once the year is decided (four wins or four losses of seven) and promotion is safe;
- declares a campaign card when it raises P(win) the most it can this year, and always before
  its chances to use it run out;
- swaps an event card after a win when the pile's expected card favours it more than the
  card in play.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from fractions import Fraction
from math import comb
from typing import Protocol

import numpy as np

from .commands import (
    UMPIRE,
    ChooseTactics,
    Command,
    DeclareCampaignCard,
    KeepEvents,
    PassCampaignCard,
    PlaceBattleCard,
    PlaceTacticCard,
    SwapEvent,
)
from .odds import opponent_options, outcome_odds
from .scoring import Play, other
from .state import CampaignState

__all__ = [
    "CampaignPlayer",
    "RandomPlayer",
    "StandardPlayer",
    "EquilibriumPlayer",
    "make_player",
    "PLAYER_NAMES",
    "LEVEL_PLAYERS",
    "standard_tactics",
]

PLAYER_NAMES = ("standard", "random", "equilibrium")
LEVEL_PLAYERS = {"easy": "random", "normal": "standard", "hard": "equilibrium"}
"""``--ai-level`` (hexwar/cli/ai_level.py) -> campaign player: easy = random legal commands,
normal = the standard heuristic player, hard = the equilibrium player (the default)."""
# tactic cards by how much they are worth to a player who times them (most first)
_TACTIC_PREFERENCE = (
    "flank_attack",
    "artillery_barrage",
    "fighting_withdrawal",
    "counter_intelligence",
    "bluff",
)


def standard_tactics(tactics: Iterable[str], n: int) -> tuple[str, ...]:
    """The ``n`` tactic cards the standard player chooses at the start of a year (R11.2): the
    most score swing first (``_TACTIC_PREFERENCE``), then the others in card order.

    Args:
        tactics: every tactic card id of the card set, in card order.
        n: how many the rank allows (``CampaignState.tactic_allowance``).
    """
    tactics = list(tactics)
    pick = tuple(t for t in _TACTIC_PREFERENCE if t in tactics)[:n]
    if len(pick) < n:
        pick = pick + tuple(t for t in tactics if t not in pick)[: n - len(pick)]
    return pick


class CampaignPlayer(Protocol):
    """Anything that picks a command for its side in a war."""

    name: str
    side: str

    def choose(self, st: CampaignState) -> Command:
        """One legal command for ``self.side`` (which :meth:`CampaignState.pending` lists)."""
        ...  # pragma: no cover


def _seed(seed: int, side: str) -> np.random.Generator:
    return np.random.default_rng([seed, 0 if side == "german" else 1, 2002])


class RandomPlayer:
    """Picks uniformly among its legal commands (its own generator)."""

    name = "random"

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = _seed(seed, side)

    def choose(self, st: CampaignState) -> Command:
        """A uniformly random legal command of this side.

        Raises:
            ValueError: when the side has nothing to do.
        """
        cmds = st.legal_commands(self.side)
        if not cmds:
            raise ValueError(f"{self.side} has nothing to do in the {st.phase} phase")
        return cmds[int(self.rng.integers(len(cmds)))]


class StandardPlayer:
    """The standard computer player (see the module text); deterministic given the state."""

    name = "standard"

    def __init__(self, side: str, seed: int = 0, keep_weight: float = 3.0):
        self.side = side
        self.keep_weight = keep_weight

    # -- helpers ------------------------------------------------------------------------------
    def _year_open(self, st: CampaignState) -> bool:
        n = st.cards.rules.battles_per_year
        me, opp = self.side, other(self.side)
        played = st.battle - 1
        lost = played - st.wins[me] - sum(1 for h in st.history if h.year == st.year and h.winner is None)
        majority = n // 2 + 1
        return st.wins[me] < majority and lost < majority and st.wins[opp] < majority

    def _keep_value(self, st: CampaignState) -> float:
        """What keeping one tactic card for later is worth, in P(win) of this battle."""
        if not self._year_open(st):
            return 0.0
        left = st.cards.rules.battles_per_year - st.battle  # battles after this one
        held = len(st.tactics_hand[self.side])
        if left <= 0 or held == 0:
            return 0.0
        return self.keep_weight * min(1.0, left / (held * 2.0)) * 0.35

    def _best_play(self, st: CampaignState) -> tuple[str, str | None]:
        me = self.side
        opp_b, opp_t = opponent_options(st, me)
        ev = tuple(st.events_in_play)
        slot = st.slots[me]
        mine: list[str] = [slot] if slot is not None else list(st.hands[me])
        tacts: list[str | None] = [None] + [t for t in st.tactics_hand[me]]
        keep = self._keep_value(st)
        best: tuple[float, int, str, str | None] | None = None
        weakest = {b: -st.cards.battle[b].value for b in mine}  # ties: spend the weaker card
        for b in mine:
            for t in tacts:
                pw, ps = outcome_odds(
                    st.cards, me, Play(b, t), opp_b, opp_t, ev, st.initiative, st.campaign_declared
                )  # type: ignore[arg-type]
                p = float(2 * pw + ps - 1)  # the margin: my wins minus theirs, a stalemate counts 0
                cost = 0.0 if t is None or t == "bluff" else keep
                v = p - cost + (0.001 if t == "bluff" else 0.0)
                key = (v, weakest[b], b, t)  # type: ignore[assignment]
                if best is None or key[:2] > best[:2]:
                    best = key  # type: ignore[assignment]
        assert best is not None
        return best[2], best[3]

    # -- the decision ---------------------------------------------------------------------------
    def choose(self, st: CampaignState) -> Command:
        """The standard player's command for the current phase.

        Raises:
            ValueError: when the side has nothing to do.
        """
        me = self.side
        if st.phase == "choose_tactics":
            return ChooseTactics(me, standard_tactics(st.cards.tactics, st.tactic_allowance(me)))
        if st.phase == "campaign":
            return self._campaign(st)
        if st.phase == "place":
            b, t = self._best_play(st)
            if st.slots[me] is None:
                return PlaceBattleCard(me, b)
            return PlaceTacticCard(me, t)
        if st.phase == "swap":
            return self._swap(st)
        cmds = st.legal_commands(me)
        if not cmds:
            raise ValueError(f"{me} has nothing to do in the {st.phase} phase")
        return cmds[0]

    def _campaign(self, st: CampaignState) -> Command:
        me = self.side
        opp_b, opp_t = opponent_options(st, me)
        ev = tuple(st.events_in_play)
        base = max(
            float(outcome_odds(st.cards, me, Play(b, None), opp_b, opp_t, ev, st.initiative)[0])
            for b in st.hands[me]
        )
        best: tuple[float, str] | None = None
        for c in st.campaign_unused[me]:
            p = max(
                float(outcome_odds(st.cards, me, Play(b, None), opp_b, opp_t, ev, st.initiative, (me, c))[0])
                for b in st.hands[me]
            )
            if best is None or p - base > best[0]:
                best = (p - base, c)
        if best is None or not self._year_open(st):
            return PassCampaignCard(me)
        # battles left in the war in which this side is asked (at most): spread the cards out
        years_left = len(st.years_aside)
        left = years_left * st.cards.rules.battles_per_year + (st.cards.rules.battles_per_year - st.battle)
        unused = len(st.campaign_unused[me])
        threshold = 0.34 if left > 3 * unused else 0.0
        return DeclareCampaignCard(me, best[1]) if best[0] >= threshold else PassCampaignCard(me)

    def _swap(self, st: CampaignState) -> Command:
        me = self.side

        # how an event card shifts the score difference in this side's favour, averaged over
        # both hands' battle cards (a year-long effect)
        def edge(ev: str) -> Fraction:
            total = Fraction(0)
            for e in st.cards.events[ev].effects:
                for sd in ("german", "soviet"):
                    hand = st.cards.battle_cards(sd)
                    hits = sum(1 for b in hand if e.applies(sd, st.cards.battle[b].arm))
                    sign = 1 if sd == me else -1
                    total += Fraction(sign * e.value * hits, len(hand))
            return total

        if not st.event_pile:
            return KeepEvents(me)
        new = st.event_pile[0]  # the top card is hidden, but its average is the pile's
        pile_edge = sum((edge(e) for e in st.event_pile), Fraction(0)) / len(st.event_pile)
        del new
        worst = min(st.events_in_play, key=edge)
        if edge(worst) < pile_edge - Fraction(1, 4):
            return SwapEvent(me, worst)
        return KeepEvents(me)


class EquilibriumPlayer:
    """The equilibrium ("hard") player (issue 30, R11.2): in each battle it plays its minimax
    (Nash) mix of the battle's matrix game over the rest of the year
    (:func:`hexwar.campaign.equilibrium.position`, Shapley's backward induction), conditioned
    on what it sees, and samples its play from that mix with a generator seeded from the war's
    seed, its side and the battle (R1.2; the war's own generator is not touched, so a save's
    commands replay exactly, and a war continued from its save goes on as it would have). It
    draws the battle card and the tactic option together and places both; campaign cards and
    event swaps are chosen as the standard player does (documented in docs/campaign.md: not
    solved).

    Among the equilibrium mixes of a battle it plays the one that earns most against a random
    opponent (:func:`~hexwar.campaign.equilibrium.best_maximin`: a second linear program that
    keeps the game's value, so the mix is exactly as unexploitable). The tactic cards of a year
    are chosen against a random opponent
    (:func:`~hexwar.campaign.equilibrium.tactics_vs_random`) in the first year and once the
    opponent is taken for random, at ranks allowing at most :attr:`TACTICS_UP_TO` cards;
    otherwise as the standard player does.

    The exploitative element (docs/campaign.md "Against a random opponent"): it weighs how
    likely the opponent's revealed choices were under three models: the equilibrium reply it
    assumed, a uniformly random play (the ``easy`` player) and the standard player's play
    (``normal``, computed from the public state as that player would), starting from equal
    odds: every battle's revealed play, and the opponent's tactic cards of each year once they
    are public (the standard set, or any set alike). While the posterior of "random" stays
    below :attr:`EXPLOIT_AT` it plays the equilibrium mix above; above it, it plays the best
    response to the mixture of "random" and "equilibrium" in the battle's game, the rest of
    the year valued against a random opponent (:func:`~hexwar.campaign.equilibrium.random_payoffs`:
    exactly up to :data:`~hexwar.campaign.equilibrium.EXPLOIT_BUDGET`, beyond it with the
    opponent's tactic cards left out of the later battles). An opponent that plays the
    equilibrium or the standard player never moves the posterior there (its plays are
    explained by its own model); one that plays at random does within a few battles, or at
    once when it chooses other tactic cards than the standard ones.
    """

    name = "equilibrium"
    EXPLOIT_AT = 0.95
    """The posterior probability of a random opponent above which it best-responds."""
    TACTICS_UP_TO = 2
    """The largest rank allowance at which the tactic cards are chosen against a random
    opponent (a few seconds per year game; above, the choice of three or four of five cards is
    the standard player's, and solving it would cost ten to twenty seconds a year game)."""
    TACTICS_FIRST_YEAR = True
    """Choose the first year's tactic cards against a random opponent (nothing is known yet)."""
    FLOOR = 0.005
    """The least probability the equilibrium model gives any play: equilibria need not be unique,
    so a play outside the mix it assumed is evidence, not proof, of a careless opponent."""

    def __init__(self, side: str, seed: int = 0, exploit: bool = True):
        self.side = side
        self.seed = seed
        self.exploit = exploit
        self._standard = StandardPlayer(side, seed)
        self._plan: tuple[int, int, str, str | None] | None = None
        # (year, battle) -> ({(actual battle card, tactic): (P equilibrium, P random)}, the
        # standard player's play as (class representative, tactic), card -> representative)
        self._models: dict[
            tuple[int, int],
            tuple[
                dict[tuple[str, str | None], tuple[float, float]],
                tuple[str | None, str | None],
                dict[str, str],
            ],
        ] = {}
        self._choices_seen: set[int] = set()
        self.last_mix: np.ndarray | None = None
        """The mix over ``position(st, side).mine`` of its last battle (before the best
        response to a random opponent, if it played one)."""
        self.log_like = np.zeros(3)
        """Log-likelihoods of the opponent's revealed plays under equilibrium, random, standard."""

    @property
    def p_random(self) -> float:
        """The posterior probability that the opponent plays at random (equal priors)."""
        z = self.log_like - self.log_like.max()
        w = np.exp(z)
        return float(w[1] / w.sum())

    def _observe_choice(self, st: CampaignState) -> None:
        """Weigh the opponent's choice of tactic cards for this year (public once both have
        chosen, R11.2), once a year: the standard player (and this player) choose
        :func:`standard_tactics`, the random player any of the ``C(cards, n)`` sets alike (the
        other models give any other set :attr:`FLOOR`). Nothing to weigh when the rank allows
        every card."""
        opp = other(self.side)
        # while choosing, the opponent's choice is not public yet (R11.2, R12.1)
        if st.phase == "choose_tactics" or st.year in self._choices_seen or not st.tactics_chosen[opp]:
            return
        self._choices_seen.add(st.year)
        chosen = set(st.tactics_hand[opp]) | set(st.tactics_discard[opp])
        shown = st.tactic_slots[opp]
        if shown is not None:  # the face-down card is one of the public set
            chosen.add(shown)
        n, total = len(chosen), len(st.cards.tactics)
        if n == 0 or n >= total:
            return
        p_std = 1.0 if chosen == set(standard_tactics(st.cards.tactics, n)) else self.FLOOR
        self.log_like += np.log([p_std, 1.0 / comb(total, n), p_std])

    def _observe(self, st: CampaignState) -> None:
        opp = other(self.side)
        self._observe_choice(st)
        for h in st.history:
            got = self._models.pop((h.year, h.number), None)
            if got is None:
                continue
            model, standard, rep = got
            play = (getattr(h, opp), getattr(h, f"{opp}_tactic"))
            pe, pr = model.get(play, (0.0, 0.0))
            # interchangeable cards (one class, :class:`~hexwar.campaign.equilibrium.YearGame`)
            # count as the same play: which of them the standard player lists first is no evidence
            ps = 1.0 if (rep.get(play[0]), play[1]) == standard else 0.0
            self.log_like += np.log(np.maximum([pe, pr, ps], [self.FLOOR, 1e-12, self.FLOOR]))

    def _random_model(self, st: CampaignState, pos) -> tuple[np.ndarray, dict[str, int], list[str]]:
        """The random player's spread over ``pos.theirs`` (what the opponent can still do given
        what it visibly did), the number of its cards behind each representative, its hand."""
        from .equilibrium import year_game

        opp = other(self.side)
        game = year_game(st.cards, tuple(st.events_in_play), st.initiative, pos.exact)
        slot = st.slots[opp]
        hand: list[str] = list(st.hands[opp]) + ([slot] if slot is not None else [])
        shown = st.tactic_slots[opp]
        held = list(dict.fromkeys(list(st.tactics_hand[opp]) + ([shown] if shown is not None else [])))
        if not st.tactic_decided[opp]:
            topts: list[str | None] = [None, *held]
        else:
            topts = [None] if shown is None else list(held)
        mult: dict[str, int] = {}
        for b in hand:
            mult[game._rep[b]] = mult.get(game._rep[b], 0) + 1
        u = np.array(
            [mult.get(b, 0) / len(hand) * (1.0 / len(topts) if t in topts else 0.0) for b, t in pos.theirs]
        )
        return u, mult, hand

    def _remember(self, st: CampaignState, pos, i: int) -> None:
        """Keep the three models of the opponent's play in this battle, given this side's play
        ``pos.mine[i]``, to weigh them once the battle is revealed (:meth:`_observe`)."""
        from .equilibrium import year_game

        game = year_game(st.cards, tuple(st.events_in_play), st.initiative, pos.exact)
        u, mult, hand = self._random_model(st, pos)
        y = pos.y[i]
        model: dict[tuple[str, str | None], tuple[float, float]] = {}
        for j, (rb, t) in enumerate(pos.theirs):
            n = mult.get(rb, 0)
            for b in hand:
                if n and game._rep[b] == rb:
                    model[(b, t)] = (float(y[j]) / n, float(u[j]) / n)
        sb, stt = self._standard_play(st)
        self._models[(st.year, st.battle)] = (model, (game._rep.get(sb), stt), game._rep)

    def _standard_play(self, st: CampaignState) -> tuple[str, str | None]:
        """What the standard player would have placed for the opponent in this battle: computed
        from public information only (both hands and tactic hands are public between battles,
        R11.2), as it was when the opponent decided (a card it placed face down goes back to
        its hand for this; the standard player's choice does not depend on this side's visible
        placement)."""
        opp = other(self.side)
        view = copy.copy(st)
        view.hands = {s: list(h) for s, h in st.hands.items()}
        view.tactics_hand = {s: list(h) for s, h in st.tactics_hand.items()}
        view.slots = dict(st.slots)
        view.tactic_slots = dict(st.tactic_slots)
        view.tactic_decided = dict(st.tactic_decided)
        if view.slots[opp] is not None:
            view.hands[opp].append(view.slots[opp])  # type: ignore[arg-type]
            view.slots[opp] = None
        if view.tactic_slots[opp] is not None:
            view.tactics_hand[opp].append(view.tactic_slots[opp])  # type: ignore[arg-type]
            view.tactic_slots[opp] = None
        # sorted: the order of the lists must not tell which card lies face down (R12.1)
        view.hands[opp].sort()
        view.tactics_hand[opp].sort()
        view.tactic_decided[opp] = False
        return StandardPlayer(opp)._best_play(view)

    def plan(self, st: CampaignState) -> tuple[str, str | None]:
        """The ``(battle card, tactic or None)`` this player plays in the battle being placed
        (drawn once per battle from the equilibrium mix, or the best response to the opponent
        model once the opponent looks random).

        Raises:
            ValueError: outside the ``place`` phase.
        """
        from .equilibrium import position

        me = self.side
        p = self._plan
        slot = st.slots[me]
        if p is not None and p[:2] == (st.year, st.battle) and (slot is None or slot == p[2]):
            return p[2], p[3]
        self._observe(st)
        pos = position(st, me)
        # one draw per battle from a generator seeded by the war's seed, the side and the battle:
        # the same state gives the same play, also after a war continues from its save (R1.2)
        rng = np.random.default_rng([self.seed, 0 if me == "german" else 1, 3030, st.year, st.battle])
        u = float(rng.random())
        mix = pos.x
        vs_random: np.ndarray = pos.payoff
        uni = np.ones(len(pos.theirs)) / len(pos.theirs)
        if self.exploit:
            # among the equilibrium (maximin) mixes, the one best against a random opponent:
            # as unexploitable as pos.x, and it earns more from a careless opponent from the
            # first battle on, before the opponent model has seen anything
            from .equilibrium import EXPLOIT_BUDGET, best_maximin, random_payoffs

            uni = self._random_model(st, pos)[0]
            exploiting = self.p_random >= self.EXPLOIT_AT
            got = random_payoffs(st, pos, EXPLOIT_BUDGET if exploiting else None, proxy=exploiting)
            if got is not None:
                vs_random = got
            cls = None
            if pos.leads:
                cls = np.unique([0 if t is None else 1 for _, t in pos.mine], return_inverse=True)[1]
            better = best_maximin(pos.payoff, cls, pos.value, vs_random @ uni)
            if better is not None:
                mix = better
        self.last_mix = mix
        cum = np.cumsum(mix)
        i = min(int(np.searchsorted(cum, u * cum[-1], side="right")), len(pos.mine) - 1)
        pr = self.p_random
        if self.exploit and pr >= self.EXPLOIT_AT:
            # the best response to the posterior mixture of the two models: against "random",
            # the rest of the year against a random opponent where small enough, else the
            # equilibrium value of the rest of the year
            best = None
            for k in range(len(pos.mine)):
                v = pr * float(vs_random[k] @ uni) + (1 - pr) * float(pos.payoff[k] @ pos.y[k])
                if best is None or v > best[0] + 1e-12:
                    best = (v, k)
            assert best is not None
            i = best[1]
        if self.exploit:
            self._remember(st, pos, i)
        b, t = pos.mine[i]
        if st.tactic_decided[me]:
            t = st.tactic_slots[me]
        self._plan = (st.year, st.battle, slot or b, t)
        return slot or b, t

    def choose(self, st: CampaignState) -> Command:
        """The equilibrium player's command for the current phase.

        Raises:
            ValueError: when the side has nothing to do.
        """
        if st.phase == "place":
            b, t = self.plan(st)
            if st.slots[self.side] is None:
                return PlaceBattleCard(self.side, b)
            return PlaceTacticCard(self.side, t)
        if st.phase == "choose_tactics" and self.exploit and self._tactics_vs_random(st):
            from .equilibrium import tactics_vs_random

            me = self.side
            n, n_opp = st.tactic_allowance(me), st.tactic_allowance(other(me))
            return ChooseTactics(
                me, tactics_vs_random(st.cards, tuple(st.events_in_play), st.initiative, me, n, n_opp)
            )
        return self._standard.choose(st)

    def _tactics_vs_random(self, st: CampaignState) -> bool:
        """Whether this year's tactic cards are chosen against a random opponent
        (:func:`~hexwar.campaign.equilibrium.tactics_vs_random`): at ranks allowing at most
        :attr:`TACTICS_UP_TO` cards, once the opponent is taken for random
        (:attr:`EXPLOIT_AT`), and in the first year, before anything is known
        (:attr:`TACTICS_FIRST_YEAR`)."""
        self._observe(st)
        if st.tactic_allowance(self.side) > self.TACTICS_UP_TO:
            return False
        first = st.year == st.cards.years[0].year
        return self.p_random >= self.EXPLOIT_AT or (first and self.TACTICS_FIRST_YEAR)


def make_player(name: str, side: str, seed: int = 0) -> CampaignPlayer:
    """A computer player by name (``"standard"``, ``"random"`` or ``"equilibrium"``) or by
    ``--ai-level`` name (``"easy"``, ``"normal"``, ``"hard"``: :data:`LEVEL_PLAYERS`).

    Raises:
        ValueError: for an unknown name or side.
    """
    if side not in ("german", "soviet") or side == UMPIRE:
        raise ValueError(f"unknown side {side!r}")
    name = LEVEL_PLAYERS.get(name, name)
    if name == "standard":
        return StandardPlayer(side, seed)
    if name == "equilibrium":
        return EquilibriumPlayer(side, seed)
    if name == "random":
        return RandomPlayer(side, seed)
    raise ValueError(f"unknown campaign player {name!r}; expected one of {PLAYER_NAMES}")
