"""The ``hard`` computer player of the hex game (issue 31; R10.2 victory, R12.1 views).

Built on :func:`hexwar.search.core.determinized_search` with this mode's parts:

* **setup** (000 Standard Game Setup, R4.3): where the scenario gives the side a point budget
  (the standard game), it builds its own Reserves deck (:func:`hexwar.search.hexdeck.plan_deck`:
  the exact-odds exchange rate of each card against the enemy's pool, on the map) with a
  :class:`~hexwar.game.commands.BuildDeck` command instead of playing the random deal, then
  takes the standard player's hand from it; a fixed deck (kharkov, prokhorovka...) is played as
  dealt, as before.
* **determinizer** (:func:`determinize_hex`): the side's view (:func:`hexwar.game.view.view`)
  rebuilt as a state (:func:`hexwar.game.view.state_from_view`), then its unknown parts dealt:
  the enemy's hand (as many unit and Command cards as the view counts) and Reserves deck from
  the enemy's cards the side has not seen (the scenario's deck, which is public, minus every
  card the view shows), the Command deck from the Command cards not seen, the own Reserves deck
  and the Damage deck reshuffled, fresh dice. Enemy units the side does not see are not on the
  sample's map (their cards may be dealt into the enemy's hand or deck): the side plans
  against what it has seen. The pools are sorted before the deal, so a sample depends on the
  view and the generator only: replacing every hidden enemy unit changes no decision
  (tests/test_search_hex.py).
* **moves**: the standard player's command first (:class:`hexwar.game.ai.StandardPlayer`
  deciding on the view), then alternatives: for a move, the same unit's other reachable hexes
  best-first by the standard player's hex scores (which weigh objectives to take and hold,
  cover, exposure and engagement, R10.2); for a commitment, ending the phase and every other
  unit card in hand on its best deploy hex (R5.2); in the other phases, ending the phase and
  the other legal commands of the same kind; at most :data:`MAX_CANDIDATES`.
* **rollout**: standard players on both sides (the opponent's policy, as the search expects
  it to answer) until this turn's attacks are all declared, the start of its Resolution phase.
* **leaf**: the attacks still to resolve count by their exact odds
  (:func:`pending_attack_value`) instead of sampled dice, so a rollout carries no combat-dice
  noise; with nothing hidden or random left, two sampled worlds agree and the search stops
  sampling (``settle``).
* **evaluation** (:func:`hex_evaluation`): victory points plus the objective points each side
  holds (they decide the game at the turn limit, R10.2) weighted up as the limit nears, a hold
  victory's objectives for its side, and a share of the cost-weighted Endurance on the map;
  a finished game counts :data:`WIN_BONUS`. Near the turn limit (its last two turns) the points
  are bent toward the outcome (:func:`finish_value`): the final comparison's margin counts
  through a ``tanh``, and in a hold victory's turn holding every objective counts as the win
  (R10.2), so the player goes for the objectives that turn the result rather than for points.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..game import movement as mv
from ..game import ruleset, targeting
from ..game.actions import commit as commit_action
from ..game.ai_standard import StandardPlayer
from ..game.commands import SIDES, BuildDeck, Command, Commit, EndPhase, Move
from ..game.events import Recorder
from ..game.setup import RollLog
from ..game.state import GameState, Phase, card_of, other_side
from ..game.victory import objective_points
from ..game.view import state_from_view, view
from ..rules.dice import Dice
from .core import SearchStats, determinized_search, search_rng

__all__ = [
    "HARD_HEX_ITERATIONS",
    "MAX_CANDIDATES",
    "WIN_BONUS",
    "HexSearchGame",
    "HexSearchPlayer",
    "EasyHexPlayer",
    "determinize_hex",
    "hex_evaluation",
    "pending_attack_value",
    "pending_gains",
    "finish_value",
]

HARD_HEX_ITERATIONS = 12
"""Rollouts per decision of the hex ``hard`` level (``benchmarks/bench_search.py`` measures
the decision time it gives)."""
MAX_CANDIDATES = 6
WIN_BONUS = 100.0
SEARCH_PHASES = (Phase.ARTILLERY, Phase.COMMITMENT, Phase.MOVEMENT, Phase.DECLARATION)
"""Phases whose decisions are searched; the others (hands, resolution order, draws) are the
standard player's."""
MATERIAL_WEIGHT = 0.2
ROLLOUT_CAP = 600
VOID_SHARE = 0.0
"""Share of the other side's attacks resolved before a given one (R6.2), in :func:`pending_gains`;
``RACE_WEIGHT``/``RACE_SCALE``: :func:`finish_value`'s victory-point race. Both off: 0.5 and 0.3
won 6 of 12 paired standard games where off won 8 (docs/scenarios.md)."""
RACE_WEIGHT = 0.0
RACE_SCALE = 4.0
LIMIT_WEIGHT = 0.6
LIMIT_SCALE = 6.0
""":func:`finish_value`'s turn-limit comparison: weight (of :data:`WIN_BONUS`) and scale (points)."""
HORIZON_TURNS = 0
"""Turns on whose declarations an artillery, commitment or movement rollout stops (0: this
turn's). 1 cost 2-3 times the CPU and won 6 of 12 paired standard games where 0 won 8."""

_DECKS: dict[tuple[str, tuple[str, ...]], dict[str, list[str]]] = {}


def _public_decks(state: GameState) -> dict[str, list[str]]:
    """Every card instance of each side's deck and of the Command deck, as the scenario deals
    them (public knowledge: the scenario file), from a fresh game of it (cached)."""
    sc = state.scenario
    key = (sc.content_hash, tuple(state.variants))
    hit = _DECKS.get(key)
    if hit is None:
        g = sc.new_game(sc.seed, variants=tuple(state.variants))
        hit = {}
        for s in SIDES:
            hit[s] = sorted(
                set(g.reserves[s]) | set(g.hand_units[s]) | {u for u, x in g.units.items() if x.owner == s}
            )
        hit["command"] = sorted(
            set(g.command_deck) | {c for s in SIDES for c in g.hand_commands[s]} | set(g.command_discard)
        )
        if len(_DECKS) > 64:
            _DECKS.clear()
        _DECKS[key] = hit
    return hit


def _seen_cards(w: GameState) -> set[str]:
    seen: set[str] = set(w.units) | set(w.removed) | set(w.command_discard) | set(w.events_in_play)
    for s in SIDES:
        seen |= set(w.hand_units[s]) | set(w.hand_commands[s])
        seen |= {c for c in w.reserves[s] if "#" in c and not c.startswith("hidden")}
    for u in w.units.values():
        seen |= set(u.command_cards)
    for a in w.attacks.values():
        seen |= set(a.command_cards)
    return seen


def _deal(pool: list[str], sizes: list[int], rng: np.random.Generator, tag: str) -> list[list[str]]:
    cards_ = sorted(pool)
    order = rng.permutation(len(cards_))
    shuffled = [cards_[i] for i in order]
    need = sum(n for n in sizes if n < 10**9)
    k = 0
    while len(shuffled) < need and cards_:  # a deck the scenario deals by seed: copies stand in
        shuffled.append(f"{cards_[k % len(cards_)].split('#')[0]}#{900 + k}_{tag}")
        k += 1
    out, at = [], 0
    for n in sizes:
        out.append(shuffled[at : at + n])
        at += n
    return out


def determinize_hex(
    state: GameState, side: str, rng: np.random.Generator, data: dict[str, Any] | None = None
) -> GameState:
    """A full game built from ``side``'s view of ``state`` (see the module docstring; R12.1).

    Args:
        state: the live game (read only through ``view(state, side)``; not changed).
        side: ``"german"`` or ``"soviet"``.
        rng: the search's Generator (R1.2).
        data: the view's data, when the caller has it already.

    Returns:
        A new :class:`GameState` to apply commands to (its own map, recorder and dice), taking
        no undo points (``undoable`` false: a sample is never taken back, R12.3; undo points are
        read only by ``Undo``, so play is unchanged and the copies are saved).

    Raises:
        HexwarError: for an unknown side.
    """
    if side not in SIDES:
        raise HexwarError(f"unknown side {side!r}; expected german or soviet")
    if data is None:
        data = view(state, side).data
    w = state_from_view(data, state.scenario)
    enemy = other_side(side)
    decks = _public_decks(state)
    seen = _seen_cards(w)
    sizes = data["hand_sizes"][enemy]
    n_res = int(data["decks"]["reserves"][enemy])
    hand, res = _deal([c for c in decks[enemy] if c not in seen], [int(sizes["units"]), n_res], rng, enemy)
    w.hand_units[enemy], w.reserves[enemy] = hand, res
    (w.reserves[side],) = _deal(w.reserves[side], [len(w.reserves[side])], rng, side)
    (cmds,) = _deal([c for c in decks["command"] if c not in seen], [10**9], rng, "command")
    is_event = ruleset.cards().is_event
    hc = [c for c in cmds if not is_event(c)][: int(sizes["commands"])]  # Events never stay in a hand
    deck = [c for c in cmds if c not in set(hc)][: int(data["decks"]["command"])]
    w.hand_commands[enemy], w.command_deck = hc, deck
    (w.damage_deck,) = _deal(w.damage_deck, [len(w.damage_deck)], rng, "damage")
    rec: Recorder[Any] = Recorder(w.battlemap)
    dice = Dice(int(rng.integers(0, 2**63 - 1)))
    dice.log = RollLog(rec)
    w.recorder = rec
    w.dice = dice
    w.seed = 0
    # the count of commands so far is public (the view shows it; R12.4 caps it): keep it
    w.commands = [None] * int(data["commands"])  # type: ignore[list-item]
    w.cache.pop("view_side", None)
    w.cache.pop("view_commands", None)
    w.undoable = False  # nobody takes a command back in a sample: no undo points (R12.3, issue 31)
    return w


def hex_evaluation(state: GameState, side: str) -> float:
    """The worth of ``state`` to ``side`` in victory points (see the module docstring).

    Args:
        state: a (sampled) game.
        side: the side judging.

    Returns:
        Own minus enemy: victory points, objective points times an urgency (1 far from the turn
        limit, up to 3 in the last turn; R10.2), a hold victory's objectives held (R10.2),
        ``MATERIAL_WEIGHT`` x cost x Endurance / Full of units on the map; plus or minus
        :data:`WIN_BONUS` for a finished game.
    """
    enemy = other_side(side)
    v = float(state.vp[side] - state.vp[enemy])
    if state.result is not None:
        w = state.result.winner
        op = state.result.objective_points or {}
        v += float(op.get(side, 0) - op.get(enemy, 0))
        return v + (WIN_BONUS if w == side else -WIN_BONUS if w == enemy else 0.0)
    sc = state.scenario
    limit = getattr(sc, "turns", None)
    left = None if not limit else max(1, int(limit) - state.turn + 1)
    urgency = 1.0 if left is None or left > 5 else 1.0 + 2.0 / left
    op = objective_points(state)
    v += urgency * float(op.get(side, 0) - op.get(enemy, 0))
    hold = sc.hold
    if hold is not None and sc.objectives:
        held = sum(1 for o in sc.objectives if state.objective_holders.get(o.hex) == hold.side)
        frac = held / len(sc.objectives)
        bonus = 20.0 * frac * frac * (1.0 if hold.turn - state.turn > 3 else 2.0)
        v += bonus if hold.side == side else -bonus
    mat = {side: 0.0, enemy: 0.0}
    for uid, u in state.units.items():
        if u.hex is None or u.side not in mat:
            continue
        try:
            cost = ruleset.cost(card_of(uid))
            full = ruleset.unit_card(card_of(uid)).endurance_full
        except HexwarError:
            continue
        mat[u.side] += cost * u.endurance / max(1, full)
    return v + MATERIAL_WEIGHT * (mat[side] - mat[enemy])


def pending_gains(state: GameState) -> dict[str, float]:
    """Per side, the expected worth of its declared, unresolved attacks of ``state`` (R6, R7),
    by the exact odds (:func:`hexwar.rules.odds.attack_odds`, close assaults by
    :func:`~hexwar.rules.odds.close_assault_odds`): each attack's expected victory points plus
    the material it is expected to take off (``MATERIAL_WEIGHT`` x cost x expected Endurance
    lost / Full).

    Two corrections for the order of resolution:

    * attacks on one target are taken best first, each discounted by the chance that the ones
      before it destroyed the target already (as if independent: a target dies once);
    * an attack is void when its attacker dies first (R6.2): each counts ``1 - VOID_SHARE x P``
      of its worth, ``P`` the chance the other side's attacks on its attacker destroy it.

    Args:
        state: a (sampled) game, usually at the start of its Resolution phase.

    Returns:
        ``{"german": points, "soviet": points}`` (0.0 with nothing pending).
    """
    from ..game.resolution import defense_context
    from ..rules.odds import close_assault_odds

    players: dict[str, StandardPlayer] = {}
    # (side, attackers, target, P(target destroyed), expected VP, material taken)
    rated: list[tuple[str, tuple[str, ...], str, float, float, float]] = []
    for a in state.attacks.values():
        if a.resolved or not a.target or a.side not in SIDES:
            continue
        t = state.units.get(a.target)
        if t is None or any(x not in state.units for x in a.attackers):  # (aircraft aloft count)
            continue
        atk = [state.units[x] for x in a.attackers]
        try:
            if a.close_assault:
                o = close_assault_odds(
                    ruleset.cards(),
                    atk,
                    t,
                    defense_context(state, a.target, 0, a.side),
                    units=state.units,
                    events_in_play=state.events_in_play,
                    variant=state.variants,
                )
            else:
                p = players.get(a.side) or players.setdefault(a.side, StandardPlayer(a.side, 0))
                o = p._odds(state, atk[0], a.target, a.at_crew, a.weapons, a.hindrance, a.indirect)
        except Exception:  # noqa: BLE001 - the odds refuse only what the engine would void
            continue
        try:
            full = max(1, ruleset.unit_card(card_of(a.target)).endurance_full)
            dmg = ruleset.cost(card_of(a.target)) * min(1.0, float(o.expected_damage) / full)
        except HexwarError:
            dmg = 0.0
        rated.append((a.side, tuple(a.attackers), a.target, float(o.destroyed), float(o.expected_vp), dmg))
    survive: dict[str, float] = {}  # unit -> chance it outlives every attack on it (independent)
    for _, _, tid, p_dead, _, _ in rated:
        survive[tid] = survive.get(tid, 1.0) * (1.0 - p_dead)
    per_target: dict[str, list[tuple[str, float, float, float, float]]] = {}
    for s_, attackers, tid, p_dead, vp, dmg in rated:
        live = 1.0
        for x in attackers:
            live *= 1.0 - VOID_SHARE * (1.0 - survive.get(x, 1.0))
        per_target.setdefault(tid, []).append((s_, live, p_dead, vp, dmg))
    out = {s: 0.0 for s in SIDES}
    for hits in per_target.values():
        alive = 1.0
        for s_, live, p_dead, vp, dmg in sorted(hits, key=lambda h: -h[3]):
            out[s_] += alive * live * (vp + MATERIAL_WEIGHT * dmg)  # a target already dead gives nothing
            alive *= 1.0 - live * p_dead
    return out


def pending_attack_value(state: GameState, side: str) -> float:
    """The expected worth to ``side`` of the declared, unresolved attacks of ``state``:
    :func:`pending_gains` of ``side`` minus the enemy's, in victory points (R6, R7).

    Args:
        state: a (sampled) game, usually at the start of its Resolution phase.
        side: the side judging.
    """
    g = pending_gains(state)
    return g[side] - g[other_side(side)]


def finish_value(state: GameState, side: str, expected: dict[str, float] | None = None) -> float:
    """How close ``state`` is to a win for ``side``, beyond the points (R10.1, R10.2): points are
    linear, a game is won or lost; this term bends them toward the outcome where it is near.

    * **Victory points** (R10.1): per side, ``RACE_WEIGHT x WIN_BONUS x sigmoid((vp + expected
      - target) / RACE_SCALE)``, ``expected`` its pending attacks' worth: reaching the
      scenario's victory points ends the game at once.
    * **Turn limit** (R10.2), in the last two turns: the final comparison's margin ``m`` (victory
      points plus expected, plus objective points held now) counts ``LIMIT_WEIGHT x WIN_BONUS x
      tanh(m / LIMIT_SCALE)`` in the last turn and half that, over twice the scale, in the one
      before; in the hold turn of a hold victory, holding every objective counts as the win
      itself (the objectives' holders do not change after the Movement phase).

    Args:
        state: a (sampled) game that is not over (an ended one counts :data:`WIN_BONUS` in
            :func:`hex_evaluation`).
        side: the side judging.
        expected: per side, the pending attacks' worth (:func:`pending_gains`; none: 0).

    Returns:
        Own minus enemy, in victory points (0.0 for a finished game).
    """
    if state.result is not None:
        return 0.0
    enemy = other_side(side)
    exp = expected or {}
    sc = state.scenario
    target = float(getattr(sc, "victory_points", 0) or 0)
    v = 0.0
    if target > 0:
        for s, sign in ((side, 1.0), (enemy, -1.0)):
            x = (float(state.vp[s]) + exp.get(s, 0.0) - target) / RACE_SCALE
            v += sign * RACE_WEIGHT * WIN_BONUS / (1.0 + math.exp(-max(-50.0, min(50.0, x))))
    limit = getattr(sc, "turns", None)
    if limit:
        left = int(limit) - state.turn + 1
        hold = sc.hold
        if hold is not None and sc.objectives and hold.turn == state.turn:
            if all(state.objective_holders.get(o.hex) == hold.side for o in sc.objectives):
                return v + (LIMIT_WEIGHT * WIN_BONUS if hold.side == side else -LIMIT_WEIGHT * WIN_BONUS)
        if left in (1, 2):
            op = objective_points(state)
            m = float(state.vp[side] - state.vp[enemy]) + exp.get(side, 0.0) - exp.get(enemy, 0.0)
            m += float(op.get(side, 0) - op.get(enemy, 0))
            w, scale = (LIMIT_WEIGHT, LIMIT_SCALE) if left == 1 else (LIMIT_WEIGHT / 2, 2 * LIMIT_SCALE)
            v += w * WIN_BONUS * math.tanh(m / scale)
    return v


class HexSearchGame:
    """The hex mode's :class:`~hexwar.search.core.SearchGame` (see the module docstring).

    Args:
        inner: the searching side's standard player (its first candidate).
        seed: the rollout players' seed.
        horizon: turns on whose declarations end the rollout of an artillery, commitment or
            movement decision (:data:`HORIZON_TURNS`; 0: this turn's, as for a declaration).
    """

    def __init__(self, inner: StandardPlayer, seed: int = 0, horizon: int = HORIZON_TURNS):
        self.inner = inner
        self.seed = seed
        self.horizon = horizon
        self._data: dict[str, Any] | None = None
        self._memos: dict[Any, Any] = {}  # one decision's shared targeting memos (issue 31)

    def candidates(self, state: GameState, seat: str, rng: np.random.Generator) -> list[Command]:
        """The standard player's command on the view, then alternatives (module docstring)."""
        self._data = view(state, seat).data
        self._memos = {}  # the sample worlds of this decision share them (one scenario, variants)
        w = state_from_view(self._data, state.scenario)
        first = self.inner.choose(w)
        out: list[Command] = [first]
        if w.phase not in SEARCH_PHASES:
            return out
        if isinstance(first, Move):
            u = w.units[first.unit]
            reach = mv.unit_reach(w, first.unit)
            if reach is not None and u.hex is not None:
                try:
                    scores = self.inner._hex_scores(w, u.card, u.hex)
                except Exception:  # pragma: no cover - the standard player's internals changed
                    scores = None
                dest = first.path[-1]
                hexes = [h for h in reach.destinations() if h != dest and h != u.hex]
                if scores is not None:
                    hexes.sort(key=lambda h: (-float(scores[h.offset[1], h.offset[0]]), h.offset))
                for h in hexes[: MAX_CANDIDATES - 1]:
                    out.append(Move(seat, first.unit, reach.path(h)))
            return out
        if isinstance(first, Commit) or (w.phase == Phase.COMMITMENT and isinstance(first, EndPhase)):
            return out + self._commit_alternatives(w, seat, first)
        legal = w.legal_commands(seat)
        end = EndPhase(seat)
        if not isinstance(first, EndPhase) and end in legal:
            out.append(end)
        same = [c for c in legal if type(c) is type(first) and c != first]
        key = getattr(first, "unit", None)
        same.sort(key=lambda c: (getattr(c, "unit", None) != key,))
        out += same[: MAX_CANDIDATES - len(out)]
        return out

    def _commit_alternatives(self, w: GameState, seat: str, first: Command) -> list[Command]:
        """Other commitments than the standard player's (R5.2): ending the phase, and for each
        other unit card in hand (dearest first) its best deploy hex by the standard player's hex
        scores; so the search weighs *which* unit to bring in, and whether to bring one."""
        out: list[Command] = []
        end = EndPhase(seat)
        if not isinstance(first, EndPhase) and w.check(end) is None:
            out.append(end)
        firsts: dict[str, Commit] = {}
        deploy = w.scenario.sides[seat].deploy
        for cid, inst, crew, carry in commit_action.card_groups(w, seat):
            if cid in firsts or (isinstance(first, Commit) and card_of(first.unit) == cid):
                continue
            if ruleset.is_aircraft(cid):
                cmd = Commit(seat, inst, None, crew, carry)
            else:
                pos, cols, rows = commit_action.open_hexes(w, seat, cid, carry)
                if not pos.size:
                    continue
                r0, c0 = int(rows.min()), int(cols.min())
                win = (r0, int(rows.max()) + 1, c0, int(cols.max()) + 1)
                try:
                    sc = self.inner._hex_scores(w, cid, None, win)
                except Exception:  # pragma: no cover - the standard player's internals changed
                    continue
                vals = sc[rows - r0, cols - c0]
                k = int(np.argmax(vals))
                cmd = Commit(seat, inst, deploy[int(pos[k])], crew, carry)
            if w.check(cmd) is None:
                firsts[cid] = cmd
        alts = sorted(firsts.values(), key=lambda c: (-ruleset.cost(card_of(c.unit)), c.unit))
        return (out + alts)[: MAX_CANDIDATES - 1]

    def determinize(self, state: GameState, seat: str, rng: np.random.Generator) -> GameState:
        """:func:`determinize_hex` (the view computed once per decision); the worlds of one
        decision share their targeting memos (:func:`hexwar.game.targeting.share_memos`)."""
        w = determinize_hex(state, seat, rng, copy.deepcopy(self._data) if self._data else None)
        targeting.share_memos(w, self._memos)
        return w

    def legal(self, state: GameState, move: Command) -> bool:
        """The engine's own check."""
        return state.check(move) is None

    def apply(self, state: GameState, move: Command) -> None:
        """The engine's own apply."""
        state.apply(move)

    def rollout(self, state: GameState, seat: str, start: GameState) -> None:
        """Standard players on both sides until the attacks of the horizon's turn are all
        declared (the start of its Resolution phase): this turn's for a declaration, and
        :attr:`horizon` turns on for an artillery, commitment or movement decision, whose worth
        shows when the enemy answers (the turns between are played out with the sample's dice).
        The last attacks' dice are left to :func:`pending_gains`' exact odds."""
        t = start.turn + (0 if start.phase == Phase.DECLARATION else self.horizon)
        players = {s: StandardPlayer(s, self.seed) for s in SIDES}
        for _ in range(ROLLOUT_CAP):
            if (
                state.over
                or state.turn > t
                or (state.turn == t and state.phase in (Phase.RESOLUTION, Phase.DRAW))
            ):
                return
            actor = state.to_act
            if actor is None:
                return
            state.apply(players[actor].choose(state))

    def evaluate(self, state: GameState, seat: str) -> float:
        """:func:`hex_evaluation`, :func:`pending_gains` (own minus enemy), :func:`finish_value`."""
        v = hex_evaluation(state, seat)
        if state.result is not None:
            return v
        gains = pending_gains(state) if state.attacks else {}
        if gains:
            v += gains[seat] - gains[other_side(seat)]
        return v + finish_value(state, seat, gains)


class HexSearchPlayer:
    """The ``hard`` hex player: determinized search over the standard player (module docstring).

    It decides from its side's view only (R12.1), like :class:`hexwar.game.view.ViewPlayer`.

    Args:
        side: the side it plays.
        seed: the game's seed (the search's generator comes from it, the side and the command
            count: one seed, one game, R1.2).
        iterations: rollouts per searched decision (:data:`HARD_HEX_ITERATIONS`).

    Class attribute ``builds_deck`` (True): in a point-budget scenario, build the Reserves deck
    (module docstring) rather than keep the deal.

    Class attributes (the search's knobs, :func:`~hexwar.search.core.determinized_search`):
    ``min_worlds`` (2: so the budget tries 6 candidates), ``margin`` (0.1 victory points),
    ``confidence`` (0.5 standard errors), ``settle`` (True).

    Attributes:
        last: the :class:`~hexwar.search.core.SearchStats` of the last decision.
    """

    name = "hard"
    undoes = False
    builds_deck = True
    min_worlds = 2
    margin = 0.1
    confidence = 0.5
    settle = True

    def __init__(self, side: str, seed: int = 0, iterations: int = HARD_HEX_ITERATIONS):
        if side not in SIDES:
            raise HexwarError(f"unknown side {side!r}; expected german or soviet")
        if iterations < 0:
            raise HexwarError(f"search iterations must be >= 0, got {iterations}")
        self.side = side
        self.seed = int(seed)
        self.iterations = iterations
        self.inner = StandardPlayer(side, seed)
        self.game = HexSearchGame(self.inner, seed)
        self.last = SearchStats()

    def choose(self, state: GameState) -> Command:
        """The next command for :attr:`side` (legal in its view).

        Raises:
            HexwarError: when it is not this side's turn.
        """
        if state.to_act != self.side:
            raise HexwarError(f"{self.side} asked to act, but it is {state.to_act}'s turn")
        if state.phase == Phase.SETUP and self.builds_deck:
            built = self._build_deck(state)
            if built is not None:
                return built
        step = int(state.cache.get("view_commands", len(state.commands)))  # a view's state: its count
        rng = search_rng(self.seed, SIDES.index(self.side), step, salt=32)
        move, self.last = determinized_search(
            self.game,
            state,
            self.side,
            self.iterations,
            rng,
            min_worlds=self.min_worlds,
            margin=self.margin,
            confidence=self.confidence,
            settle=self.settle,
        )
        return move  # type: ignore[no-any-return]

    def _build_deck(self, state: GameState) -> Command | None:
        """In setup, before the hand: a :class:`~hexwar.game.commands.BuildDeck` of the deck
        :func:`hexwar.search.hexdeck.plan_deck` plans, unless the side's Reserves deck (from
        its view, R12.1) already is that deck or it may not build one (000, R4.3)."""
        from .hexdeck import plan_deck

        ss = state.scenario.sides[self.side]
        if ss.budget is None or ss.reserves or ss.hand or self.side in state.done:
            return None
        deck = plan_deck(state.scenario, self.side)
        if deck is None:
            return None
        mine = view(state, self.side).data["reserves"][self.side]
        if sorted(deck) == sorted(card_of(c) for c in mine):
            return None
        cmd = BuildDeck(self.side, tuple(deck))
        return cmd if state.check(cmd) is None else None

    def fallback(self) -> Command:
        """What to do when the full game refuses the chosen command (it hit something unseen)."""
        return EndPhase(self.side)


class EasyHexPlayer:
    """The ``easy`` hex player for learners: the standard player, except that a quarter of its
    choices (from its own seeded generator) are a uniformly random legal command.

    Args:
        side: the side it plays.
        seed: the game's seed.
    """

    name = "easy"
    undoes = False
    MISTAKES = 0.25

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.inner = StandardPlayer(side, seed)
        self.rng = np.random.default_rng(
            np.random.SeedSequence([int(seed) & 0xFFFFFFFF, SIDES.index(side), 77])
        )

    def choose(self, state: GameState) -> Command:
        """The standard player's command or, with probability :attr:`MISTAKES`, a random legal one.

        Raises:
            HexwarError: when it is not this side's turn.
        """
        cmd = self.inner.choose(state)
        if self.rng.random() < self.MISTAKES:
            legal = state.legal_commands(self.side)
            if legal:
                return legal[int(self.rng.integers(len(legal)))]
        return cmd
