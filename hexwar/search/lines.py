"""The ``hard`` computer player of the card game on lines (issue 31; R11.1, R12.1).

Its Reserves deck it builds before the game, as the rulebook's players do (000 Standard Game
Setup; :func:`hexwar.search.lines_deck.plan_lines_deck`: cards by exchange rate over the enemy's
pool, from the scenario card only), where the deck would otherwise be dealt at random. Its
decisions are built on :func:`hexwar.search.core.determinized_search` with this mode's parts:

* **determinizer** (:func:`determinize_lines`): a copy of the game in which every card the seat
  cannot see is dealt again from the same pool: each other seat's hand and Reserves deck are
  one pool per seat (its deck minus what is on the table, in the discards or out of the game,
  which the view shows), the other hands' Command cards and the Command deck one pool, the
  Damage deck reshuffled, the seat's own Reserves deck reshuffled (it knows the contents, never
  the order); the dice reseeded. The pools are sorted before the deal, so the sample depends on
  what the seat has seen and on the generator only, never on where the hidden cards really are.
  The seat's own hand, the table, the score and the log stay: ``seat_view(sample, seat)`` equals
  ``seat_view(state, seat)`` (tests/test_search_lines.py checks it after every command). In the
  classic rules (001), other seats' commitments not yet revealed are unknown: the sample drops
  them (their cards go out of that sample), a known simplification. A state rebuilt from a
  network view (``hexwar join --ai``) names unseen cards only as placeholders, so there is no
  pool to deal from: the player then decides as the standard player does (a known limit).
* **moves**: the starting hand over *every* legal hand, copies of a card included (multisets of
  card kinds): the best :data:`HAND_CANDIDATES` by the fieldable value, the standard player's
  hand among them, each played in :data:`HAND_WORLDS` worlds over :data:`SETUP_TURNS` turns.
  In play the standard player's choice comes first and only what a one-turn score can tell
  apart is searched: which attack to declare (by exact expected victory points,
  :func:`hexwar.lines.odds.declare_odds`; the phase is not ended while an attack is left to
  declare), which attack to resolve and whether to spend a Command card's +1
  (:data:`RESOLUTION_CANDIDATES`), the line and crew of the unit being committed and the
  Command cards to play instead (every fieldable unit is fielded: holding one back only looks
  good over a one-turn horizon). Draws are not searched (their worth lies past the horizon):
  :func:`fieldable_draw` takes Reserves cards while the hand lacks units it can field, and never
  names more cards from the Reserves deck or the Command deck than it holds. (A searched draw,
  :data:`SEARCH_DRAWS`, is kept as a measured-but-off variant; so is :data:`DECL_WIDE`, every
  unit's best declaration on each target by sequential halving at twice the budget.)
* **rollout**: the standard player (:class:`hexwar.lines.ai.LinesAI`) on every seat, to the end
  of this turn's combat (from the setup: of turn :data:`SETUP_TURNS`). (:data:`HARD_POLICY`,
  a measured-but-off variant, gives the searching side :class:`HardLinesAI` instead, for its
  first choice and its rollouts.)
* **choice**: each candidate is played in the same :data:`WORLDS` sampled worlds; another than
  the standard player's choice is taken only when its paired gain clears :data:`CONFIDENCE`
  standard errors (the dice's noise must not decide).
* **evaluation**: victory points (a win or loss counts :data:`WIN_BONUS`), plus a share of the
  cost-weighted Endurance on the table (units in hand at full value), the Command cards in
  hand and the Overrun count (R10.1); optionally (:data:`THREAT_WEIGHT`, off) the next turn's
  threat balance (:func:`threat`), and (:data:`LUCK_ADJUST`, off) less the luck of the
  resolved attacks (:func:`expected_resolution_vp`).
"""

from __future__ import annotations

import copy
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..game.setup import RollLog
from ..game.view import HIDDEN_CARD
from ..lines.actions.choose_hand import hand_size
from ..lines.ai import LinesAI
from ..lines.commands import (
    SEATS_2P,
    SEATS_4P,
    ChooseHand,
    Commit,
    Declare,
    DeclareCloseAssault,
    Draw,
    EndPhase,
    LinesCommand,
    Recrew,
    Resolve,
    UseCommandCard,
    side_of_seat,
)
from ..lines.odds import declare_odds
from ..lines.rules import card
from ..lines.state import LinesState, Phase, other_side
from ..rules.combat import CombatError
from ..rules.dice import Dice
from .core import SearchStats, determinized_search, halving_search, search_rng
from .lines_policy import EasyLinesPlayer, HardLinesAI
from .lines_values import expected_resolution_vp, fieldable_draw, sane_draw, threat

__all__ = [
    "HARD_ITERATIONS",
    "MAX_CANDIDATES",
    "HAND_CANDIDATES",
    "WIN_BONUS",
    "LinesSearchPlayer",
    "LinesSearchGame",
    "EasyLinesPlayer",
    "determinize_lines",
    "every_hand",
    "fieldable_draw",
    "threat",
    "expected_resolution_vp",
]

HARD_ITERATIONS = 64
"""Iterations per decision of the ``hard`` level (the budget; ``benchmarks/bench_search.py``
measures the decision time it gives)."""
MAX_CANDIDATES = 4
"""Root moves considered at most per decision (after the heuristic's ordering)."""
RESOLUTION_CANDIDATES = 6
"""Root moves searched in the Resolution Phase (which attack to resolve, with or without a
Command card's +1): its rollouts are short, so it gets this many candidates at the same worlds
each."""
HAND_CANDIDATES = 4
"""Starting hands searched (the best by fieldable value among every legal hand)."""
HAND_WORLDS = 18
"""Sampled worlds each starting hand is played in."""
HAND_CONFIDENCE = 0.5
"""Standard errors a starting hand must clear over the first (hands have no standard choice
to protect: the first is only the best by fieldable value)."""
SETUP_TURNS = 2
"""Turns a starting hand is played on (to the end of that turn's combat) before it is scored."""
WORLDS = 16
"""Sampled worlds each searched candidate is played in at least (``HARD_ITERATIONS // WORLDS``
candidates are searched: the fewer, the less the dice's noise decides)."""
CONFIDENCE = 1.0
"""Standard errors of the paired differences an alternative must clear to replace the standard
player's choice (with 16 worlds the standard error is small enough that one standard error
keeps false switches on pure noise rare; 1.5 with 6 worlds left the standard choice almost
always in place: issue 31's measurements)."""
HORIZON_TURNS = 0
"""Turns the rollouts play past the end of this turn's combat (0: the evaluation scores the end
of this turn's combat; each further turn costs a turn's rollout and adds a turn's dice noise)."""
WIN_BONUS = 100.0
"""Points a won (lost) game adds (takes) in the evaluation."""
TABLE_WEIGHT = 0.3
OVERRUN_WEIGHT = 6.0
CARD_WEIGHT = 1.0  # points a Command card in hand is worth
THREAT_WEIGHT = 0.0
"""Share of the next turn's threat balance (:func:`threat`, own minus enemy) added to the
evaluation. 0 (off) in the shipped player: 0.5 was measured and did no better (docs/lines.md,
"Tried in the fifth session")."""
SEARCH_DRAWS = False
"""Whether the Draw Phase's mix of sources is searched (every mix the decks can give, the
counted draw of :func:`fieldable_draw` first and kept unless another clears
:data:`CONFIDENCE`), with rollouts to the end of the next turn's combat. Off in the shipped
player: measured, it did no better (docs/lines.md, "Tried in the fifth session")."""
DECL_WIDE = False
"""Whether a Declaration Phase decision searches wider (issue 31, seventh session): the
standard player's declaration and the best of every unit's (one weapon choice per target, by
the standard player's own odds-and-damage value with the targets its side has already
declared on discounted), up to :data:`DECL_CANDIDATES`, by sequential halving
(:func:`hexwar.search.core.halving_search`) with :data:`DECL_BUDGET` times the budget. Off in
the shipped player: measured, it did no better (docs/lines.md, "Tried in the seventh
session")."""
DECL_CANDIDATES = 8
"""Declarations searched at most with :data:`DECL_WIDE` (the standard player's among them)."""
DECL_BUDGET = 2
"""Multiple of the decision budget a Declaration Phase decision gets with :data:`DECL_WIDE`."""
LUCK_ADJUST = False
"""Whether a rollout's score takes off the luck of its resolved attacks (issue 31, seventh
session): for each attack resolved after the root move (the root move's own, when it is one),
the victory points it scored less its exact expected victory points at that moment
(:func:`hexwar.lines.odds.declare_odds`), own side minus the enemy's. The expected value of
that sum is zero whatever the players do (each term's expectation given the state before the
roll is zero), so the scores' mean is unchanged, while the dice's share of their spread, the
noise that decides between candidates, shrinks. Off in the shipped player: measured, it did no
better (docs/lines.md, "Tried in the seventh session")."""
ROLLOUT_CAP = 400  # commands per rollout at most (a safety net; a turn is about 25)


HARD_POLICY = False
"""Whether the search's own side plays :class:`HardLinesAI` (the choice searched first, kept
unless an alternative clears :data:`CONFIDENCE`, and that side's rollout policy) instead of the
standard player; the other side is always the standard player in the rollouts (the ``normal``
level it is measured against). Off in the shipped player: measured, it did no better
(docs/lines.md, "Tried in the sixth session")."""


def _clone(state: LinesState) -> LinesState:
    """A deep copy sharing the scenario, with the last 40 log lines (all a view shows) and a
    copy of the command list; the dice are replaced by the caller."""
    memo: dict[int, Any] = {
        id(state.scenario): state.scenario,
        id(state.log): list(state.log[-40:]),
        id(state.commands): list(state.commands),
        id(state.checkpoints): list(state.checkpoints),
        id(state.dice): None,
    }
    return copy.deepcopy(state, memo)


def _deal(pool: list[str], sizes: list[int], rng: np.random.Generator) -> list[list[str]]:
    cards_ = sorted(pool)
    order = rng.permutation(len(cards_))
    shuffled = [cards_[i] for i in order]
    out, at = [], 0
    for n in sizes:
        out.append(shuffled[at : at + n])
        at += n
    return out


def determinize_lines(state: LinesState, seat: str, rng: np.random.Generator) -> LinesState:
    """A full game ``seat`` cannot tell from ``state`` (see the module docstring; R12.1).

    Args:
        state: the live game (not changed).
        seat: the seat whose information set is sampled.
        rng: the search's Generator (R1.2).

    Returns:
        A new :class:`LinesState` with the hidden cards dealt again and fresh dice; applying
        commands to it never touches ``state``.

    Raises:
        HexwarError: when ``seat`` does not play in ``state``.
    """
    if seat not in state.seats:
        raise HexwarError(f"no seat {seat!r} in this game (seats: {', '.join(state.seats)})")
    w = _clone(state)
    others = [s for s in w.seats if s != seat]
    if w.hidden:  # 001: other seats' unrevealed commitments are not known
        keep = []
        for cmd in w.hidden:
            if cmd.seat == seat:
                keep.append(cmd)
                continue
            for c in (getattr(cmd, "unit", None), getattr(cmd, "crew", None), getattr(cmd, "infantry", None)):
                if c:
                    w.removed.append(c)
        w.hidden = keep
    for o in others:
        n_hand = len(w.hand_units[o])
        hand, res = _deal(w.hand_units[o] + w.reserves[o], [n_hand, len(w.reserves[o])], rng)
        w.hand_units[o], w.reserves[o] = hand, res
    (w.reserves[seat],) = _deal(w.reserves[seat], [len(w.reserves[seat])], rng)
    sizes = [len(w.hand_commands[o]) for o in others] + [len(w.command_deck)]
    dealt = _deal([c for o in others for c in w.hand_commands[o]] + w.command_deck, sizes, rng)
    for o, got in zip(others, dealt, strict=False):
        w.hand_commands[o] = got
    w.command_deck = dealt[-1]
    (w.damage_deck,) = _deal(w.damage_deck, [len(w.damage_deck)], rng)
    dice = Dice(int(rng.integers(0, 2**63 - 1)))
    dice.log = RollLog(w.recorder)
    w.dice = dice
    return w


def every_hand(reserves: list[str], n: int) -> list[tuple[str, ...]]:
    """Every legal starting hand of ``n`` cards from ``reserves`` (000 setup), copies of a card
    kind included: one hand per multiset of kinds, naming the lowest-sorted instances.

    Args:
        reserves: the seat's Reserves deck (card instances ``kind#k``).
        n: the hand size.

    Returns:
        Hands as sorted tuples of instances, in a fixed order (no cut: issue 31).
    """
    by_kind: dict[str, list[str]] = {}
    for c in sorted(reserves):
        by_kind.setdefault(c.rsplit("#", 1)[0], []).append(c)
    kinds = sorted(by_kind)
    if len(reserves) <= n:
        return [tuple(sorted(reserves))]
    out = []
    for combo in combinations_with_replacement(kinds, n):
        need = Counter(combo)
        if any(need[k] > len(by_kind[k]) for k in need):
            continue
        out.append(tuple(sorted(c for k, m in need.items() for c in by_kind[k][:m])))
    return out


class LinesSearchGame:
    """The lines mode's :class:`~hexwar.search.core.SearchGame` (see the module docstring).

    Args:
        seed: the game's seed (the rollout players' seed).
        side: the searching side (``"german"`` / ``"soviet"``): its seats play
            :class:`HardLinesAI` when :data:`HARD_POLICY` is on; ``None``: every seat the
            standard player.
    """

    def __init__(self, seed: int = 0, side: str | None = None):
        self.seed = seed
        self.side = side
        self._players: dict[str, LinesAI] = {}

    def _player(self, seat: str) -> LinesAI:
        p = self._players.get(seat)
        if p is None:
            own = self.side is not None and side_of_seat(seat) == self.side
            p = self._players[seat] = (
                HardLinesAI(seat, self.seed) if own and HARD_POLICY else LinesAI(seat, self.seed)
            )
        return p

    # -- moves ---------------------------------------------------------------------------
    def candidates(self, state: LinesState, seat: str, rng: np.random.Generator) -> list[LinesCommand]:
        """Root moves, best-first (read from one sample, never from the hidden cards)."""
        w = determinize_lines(state, seat, rng)
        if w.phase == Phase.SETUP:
            hands = every_hand(w.reserves[seat], hand_size(w, seat))
            hands.sort(key=lambda h: (-LinesAI._fieldable(list(h)), h))
            hand_moves: list[LinesCommand] = [ChooseHand(seat, h) for h in hands[:HAND_CANDIDATES]]
            std = self._player(seat).choose(w)  # the standard player's hand is tried as well
            if isinstance(std, ChooseHand) and all(
                sorted(std.cards) != sorted(getattr(c, "cards", ())) for c in hand_moves
            ):
                hand_moves[-1] = std
            return hand_moves
        legal = [c for c in w.legal_commands(seat) if self._sane(w, c)] or w.legal_commands(seat)
        first = self._player(seat).choose(w)
        if w.phase == Phase.DRAW:
            # what a draw is worth shows only turns later, past the horizon: no rollouts are
            # spent on it; the draw counts the units the hand can field (fieldable_draw)
            pick = fieldable_draw(w, seat, legal)
            if pick is None or not SEARCH_DRAWS:
                return [pick or first]
            others = [c for c in legal if isinstance(c, Draw) and c != pick]  # legal: sane draws only
            return [pick, *others]
        if w.phase == Phase.COMMITMENT and isinstance(first, (Commit, Recrew)):
            # every unit that can be fielded is fielded (ending the phase earlier only looks
            # good over a one-turn horizon: a unit in hand cannot be hit), so the order of the
            # commitments hardly matters: searched are the line and the crew of the unit the
            # standard player fields now, and the Command cards it could play instead
            unit = first.unit
            mine: list[LinesCommand] = [
                c
                for c in legal
                if c != first
                and ((isinstance(c, (Commit, Recrew)) and c.unit == unit) or isinstance(c, UseCommandCard))
            ]
            return [first, *mine][:MAX_CANDIDATES]
        if w.phase == Phase.DECLARATION and any(isinstance(c, (Declare, DeclareCloseAssault)) for c in legal):
            # a declaration costs nothing: the phase is not ended while an attack is left
            legal = [c for c in legal if not isinstance(c, EndPhase)]
            if DECL_WIDE:
                return self.wide_declarations(w, seat, first, legal)
        rest: list[LinesCommand] = [c for c in legal if c != first]
        decls = [c for c in rest if isinstance(c, Declare)]
        if decls:
            ev = {c: self._ev(w, c) for c in decls}
            rest = sorted(decls, key=lambda c: -ev[c]) + [c for c in rest if not isinstance(c, Declare)]
        cap = RESOLUTION_CANDIDATES if w.phase == Phase.RESOLUTION else MAX_CANDIDATES
        out: list[LinesCommand] = [first, *rest][:cap]
        if not any(isinstance(c, EndPhase) for c in out):
            ends = [c for c in rest if isinstance(c, EndPhase)]
            if ends and len(out) > 1:
                out[-1] = ends[0]
        return out

    def wide_declarations(
        self, state: LinesState, seat: str, first: LinesCommand, legal: list[LinesCommand]
    ) -> list[LinesCommand]:
        """The Declaration Phase's candidates with :data:`DECL_WIDE` (R6.1): ``first`` (the
        standard player's choice), then every unit's best declaration on each other target it
        may declare on (the weapon choice the standard player values most; the standard choice's
        unit and target only with its own weapons), ranked by that value
        (:meth:`hexwar.lines.ai.LinesAI._ev`: exact odds and damage, a target already declared
        on by this side discounted by the chance those attacks destroy it), at most
        :data:`DECL_CANDIDATES` in all; Close Assaults only as the standard player's choice.

        Args:
            state: a sample of the game (its Declaration Phase, ``seat`` to act).
            seat: the declaring seat.
            first: the standard player's command.
            legal: the legal commands (the phase's end removed).

        Returns:
            Distinct commands, ``first`` first.
        """
        side = side_of_seat(seat)
        doomed: dict[str, float] = {}
        for a in state.attacks.values():
            if side_of_seat(a.seat) == side and not a.close_assault:
                try:
                    o = declare_odds(state, a.attackers[0], a.target, a.weapons, a.at_crew)
                except (CombatError, KeyError):
                    continue
                doomed[a.target] = doomed.get(a.target, 0.0) + o.destroyed
        std = self._player(seat)
        best: dict[tuple[str, str, bool], tuple[float, Declare]] = {}
        taken = (first.unit, first.target, bool(first.at_crew)) if isinstance(first, Declare) else None
        for c in legal:
            if not isinstance(c, Declare):
                continue
            key = (c.unit, c.target, bool(c.at_crew))
            if key == taken:  # the standard choice's unit on its target: only its own weapons
                continue
            v = std._ev(state, c, doomed)
            if key not in best or v > best[key][0]:
                best[key] = (v, c)
        ranked = sorted(best.values(), key=lambda vc: (-vc[0], vc[1].unit, vc[1].target))
        out: list[LinesCommand] = [first, *(c for _v, c in ranked)]
        return out[:DECL_CANDIDATES]

    _sane = staticmethod(sane_draw)

    @staticmethod
    def _ev(state: LinesState, cmd: Declare) -> float:
        try:
            return declare_odds(state, cmd.unit, cmd.target, cmd.weapons, cmd.at_crew).expected_vp
        except Exception:  # the odds refuse only what combat refuses
            return -1.0

    def determinize(self, state: LinesState, seat: str, rng: np.random.Generator) -> LinesState:
        """:func:`determinize_lines`."""
        return determinize_lines(state, seat, rng)

    def legal(self, state: LinesState, move: LinesCommand) -> bool:
        """The engine's own check."""
        return state.check(move) is None

    def apply(self, state: LinesState, move: LinesCommand) -> None:
        """The engine's own apply (the root move of a rollout: :data:`LUCK_ADJUST`'s count
        starts again here)."""
        self.luck = {"german": 0.0, "soviet": 0.0}
        self._step(state, move)

    def _step(self, state: LinesState, cmd: LinesCommand) -> None:
        """Apply ``cmd``; with :data:`LUCK_ADJUST`, a resolved attack's victory points less its
        expected victory points are added to :attr:`luck` of its side (:func:`expected_resolution_vp`)."""
        if not LUCK_ADJUST or not isinstance(cmd, Resolve):
            state.apply(cmd)
            return
        side = side_of_seat(cmd.seat)
        expected = expected_resolution_vp(state, cmd)
        before = state.vp[side]
        state.apply(cmd)
        if expected is not None:
            self.luck[side] += state.vp[side] - before - expected

    def rollout(self, state: LinesState, seat: str, start: LinesState) -> None:
        """Standard players on every seat to the end of this turn's combat (from a Draw Phase
        or the setup: the end of the next turn's combat)."""
        t = start.turn + (1 if start.phase == Phase.DRAW else 0) + HORIZON_TURNS
        if start.phase == Phase.SETUP:  # a starting hand shows its worth over several turns
            t = start.turn + SETUP_TURNS - 1
        for _ in range(ROLLOUT_CAP):
            if state.over or state.turn > t or (state.turn == t and state.phase == Phase.DRAW):
                return
            actor = state.to_act
            assert actor is not None
            self._step(state, self._player(actor).choose(state))

    def evaluate(self, state: LinesState, seat: str) -> float:
        """Victory points of ``seat``'s side minus the enemy's, plus a won or lost game, the
        cost-weighted Endurance on the table (units in hand at full Endurance) and the Overrun
        count (R10.1)."""
        side = side_of_seat(seat)
        enemy = other_side(side)
        v = float(state.vp[side] - state.vp[enemy])
        if state.result is not None:
            w = state.result.winner
            v -= self._luck_of(side, enemy)
            return v + (WIN_BONUS if w == side else -WIN_BONUS if w == enemy else 0.0)
        table = {side: 0.0, enemy: 0.0}
        for u in state.units.values():
            c = card(u.uid)
            table[u.side] += c.cost * u.endurance / max(1, c.endurance_full)
        for s in state.seats:  # units in hand are worth as much as fresh ones on the table
            for h in state.hand_units[s]:
                table[side_of_seat(s)] += card(h).cost
        for s in state.seats:  # a Command card in hand: a later +1 or effect (issue 31)
            table[side_of_seat(s)] += CARD_WEIGHT * len(state.hand_commands[s]) / TABLE_WEIGHT
        v += TABLE_WEIGHT * (table[side] - table[enemy])
        v += OVERRUN_WEIGHT * (state.overrun[side] - state.overrun[enemy])
        if THREAT_WEIGHT:
            v += THREAT_WEIGHT * (threat(state, side) - threat(state, enemy))
        return v - self._luck_of(side, enemy)

    def _luck_of(self, side: str, enemy: str) -> float:
        if not LUCK_ADJUST:
            return 0.0
        luck = getattr(self, "luck", None) or {}
        return float(luck.get(side, 0.0) - luck.get(enemy, 0.0))


class LinesSearchPlayer:
    """The ``hard`` lines player: determinized search over the standard player (module docstring).

    Args:
        seat: the seat it plays.
        seed: the game's seed (R1.2: the search's generator is derived from it, the seat and
            the number of commands so far, so the same game gives the same moves).
        iterations: the budget per decision (:data:`HARD_ITERATIONS`).

    Attributes:
        last: the :class:`~hexwar.search.core.SearchStats` of the last decision.
    """

    name = "hard"

    def __init__(self, seat: str, seed: int = 0, iterations: int | None = None):
        if iterations is None:
            iterations = HARD_ITERATIONS
        if iterations < 0:
            raise HexwarError(f"search iterations must be >= 0, got {iterations}")
        self.seat = seat
        self.side = seat
        self.seed = int(seed)
        self.iterations = iterations
        self.game = LinesSearchGame(seed, side_of_seat(seat))
        self.last = SearchStats()

    def choose(self, state: LinesState) -> LinesCommand:
        """The next command for :attr:`seat`, from its information set only (R12.1).

        Raises:
            HexwarError: when it is not this seat's turn or nothing is legal.
        """
        if state.to_act != self.seat:
            raise HexwarError(f"{self.seat}: not its turn (to act: {state.to_act})")
        legal = state.legal_commands(self.seat)
        if not legal:
            raise HexwarError(f"{self.seat}: no legal command in {state.phase}")
        seats = SEATS_2P + SEATS_4P
        rng = search_rng(self.seed, seats.index(self.seat), len(state.commands))
        if len(legal) == 1:
            return legal[0]
        if any(c.startswith(HIDDEN_CARD) for c in state.command_deck) or any(
            c.startswith(HIDDEN_CARD) for s in state.seats for c in state.reserves[s]
        ):  # a state rebuilt from a network view: the unseen cards are not known even as a pool
            return self.game._player(self.seat).choose(state)
        budget = self.iterations
        if state.phase == Phase.RESOLUTION:  # short rollouts: the order of the attacks gets more
            budget = self.iterations * RESOLUTION_CANDIDATES // MAX_CANDIDATES
        elif state.phase == Phase.SETUP:  # one decision a game, and the one that weighs most
            budget = self.iterations * HAND_CANDIDATES * HAND_WORLDS // (MAX_CANDIDATES * WORLDS)
        if DECL_WIDE and state.phase == Phase.DECLARATION:
            move, self.last = halving_search(
                self.game, state, self.seat, budget * DECL_BUDGET, rng, confidence=CONFIDENCE
            )
        else:
            move, self.last = determinized_search(
                self.game,
                state,
                self.seat,
                budget,
                rng,
                min_worlds=HAND_WORLDS if state.phase == Phase.SETUP else WORLDS,
                confidence=HAND_CONFIDENCE if state.phase == Phase.SETUP else CONFIDENCE,
            )
        if state.check(move) is not None:  # pragma: no cover - candidates come from the legal list
            return legal[0]
        return move  # type: ignore[no-any-return]
