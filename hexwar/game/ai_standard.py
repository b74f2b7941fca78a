"""The ``standard`` computer player: a sensible opponent built on the same commands and rules.

It decides one command at a time, phase by phase, from what the rules modules say:

* **setup**: a hand it can field: its most valuable units with the crews they need, then
  infantry.
* **artillery** (R5.1d, R9): for every hex its observers see near enemy units, the expected
  victory points of a mission there over the *exact* landing distribution
  (:func:`hexwar.rules.artillery.exact_landing_distribution`) and the combat engine's exact
  odds per unit (:func:`hexwar.rules.odds.weapon_odds`), friendly units counted against;
  fires at the best cluster when it is worth at least :data:`ARTILLERY_MIN_VP`.
* **commitment** (R5.2) by need: while its strength on the map (card costs) trails the
  enemy's plus a margin, or it has fewer than :data:`MIN_ON_MAP` ground units, it commits its
  most valuable fieldable unit (with crew / carried infantry) into the deploy hex closest to
  the objectives and the enemy with the best cover, never into fire; aircraft go up when the
  enemy has ground units. It recrews crewless guns and plays lasting Command cards (Hull Down,
  Foxholes, repairs) where they help.
* **movement** (R5.3): for each unit, every reachable hex is scored with whole-map arrays:
  closeness to objectives it does not hold, enemies it could then fire at (LOS and weapon
  range), exposure to enemy fire, terrain cover for its defense class (R6.7), no burning hex
  (R8.4) except an objective it does not hold; rear-line units keep out of enemy sight.
* **objectives** (R10.2, :meth:`StandardPlayer.posture`): standing on an objective it does not
  hold is worth its points (it takes it, burning or not); a unit on an objective it holds
  stays there; both weigh more as the turn limit nears (the *urgency*). When the side leads on
  victory points plus objective points, exposure weighs more and engagement less: it does not
  give the enemy victory points that could turn the comparison it is winning.
* **declaration** (R6.1, R7): every legal attacker-target pair with its best weapon choice is
  rated by the exact odds (:func:`hexwar.rules.odds.attack_odds`: expected victory points);
  attacks are assigned greedily, discounting targets already likely destroyed; close assaults
  by odds too; attack Command cards go on the most valuable attacks.
* **resolution** (R6.2): most valuable attack first; a spare Command card buys +1 (R1.3).
* **draw** (R5.5): units when short of fieldable units, Command cards otherwise; discards the
  least useful cards.

Work per decision is bounded (one odds evaluation per attacker-target pair, vectorized map
scores), so each decision takes well under a second on the shipped maps
(``benchmarks/bench_ai.py`` measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.los import BLOCKED, los_content_key, near_window, visibility_near
from ..rules.artillery import exact_landing_distribution
from ..rules.cards import Deck, EffectKind
from ..rules.combat import AttackOrders
from ..rules.odds import attack_odds, close_assault_odds, weapon_odds
from ..rules.terrain_effects import default_effects, defense_class, terrain_defense_array
from . import movement as mv
from . import ruleset, special, targeting
from .actions import commit as commit_action
from .actions import draw as draw_action
from .ai_base import BONUS_MIN_GAIN, ai_seed, best_bonus_roll, fire_check_gain
from .commands import (
    ChooseHand,
    Command,
    Commit,
    Declare,
    DeclareCloseAssault,
    Discard,
    Draw,
    EndPhase,
    Move,
    Recrew,
    Resolve,
    TargetArtillery,
    UseCommandCard,
)
from .resolution import _artillery_weapon, defense_context
from .state import (
    HAND_LIMIT_COMMAND,
    HAND_LIMIT_UNITS,
    SHARED_MEMOS,
    STACKING_LIMIT,
    Phase,
    card_of,
    other_side,
)
from .turn import legal_of
from .victory import objective_points

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, UnitState

__all__ = [
    "StandardPlayer",
    "Posture",
    "ARTILLERY_MIN_VP",
    "MIN_ON_MAP",
    "COMMIT_MARGIN",
    "BONUS_MIN_GAIN",
    "best_bonus_roll",
    "fire_check_gain",
]

ARTILLERY_MIN_VP = 1.0  # expected victory points a mission must promise
MIN_ON_MAP = 3  # ground units it wants on the map at least
COMMIT_MARGIN = 12  # card-cost points of strength it wants over the enemy on the map


TAKE_BONUS = 8.0  # score for standing on an objective it does not hold, plus TAKE_PER_POINT per point
TAKE_PER_POINT = 0.5
HOLD_BONUS = 2.0  # score for staying on an objective it holds, plus HOLD_PER_POINT per point
HOLD_PER_POINT = 0.25
FIRE_PENALTY = 100.0  # a burning hex (R8.4) that is not an objective to take
MINE_PENALTY_FOOT = 1.5  # a minefield hex (R10.5) for infantry: it stops there
MINE_PENALTY_VEHICLE = 5.0  # for a vehicle: it stops and is immobilized on 1-2
FIRE_OBJECTIVE_PENALTY = 3.0  # a burning objective it does not hold: a fire damage check risked


class Posture:
    """How the standard player weighs objectives against fire at one moment (R10.2).

    Attributes:
        turns_left: turns still to play including this one (``None``: no turn limit).
        lead: own victory points plus objective points minus the enemy's (points).
        urgency: 1.0 without a turn limit or far from it, rising to 3.0 in the last turn
            (``1 + 2 / turns_left``, only counted from 5 turns out).
        cautious: the side leads and the turn limit is at most 3 turns off: exposure weighs
            double and engagement half, so it does not hand the enemy points.
    """

    def __init__(self, turns_left: int | None, lead: int):
        self.turns_left = turns_left
        self.lead = lead
        self.urgency = 1.0 if turns_left is None or turns_left > 5 else 1.0 + 2.0 / max(turns_left, 1)
        self.cautious = lead > 0 and turns_left is not None and turns_left <= 3


def distance_grid(h: Hex, height: int, width: int) -> np.ndarray:
    """``int [H, W]``: hex distance from ``h`` to every hex of a map (R2.1)."""
    return _distance_window(h, 0, height, 0, width)


def _distance_window(h: Hex, r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
    """``int [r1 - r0, c1 - c0]``: hex distance (R2.1) from ``h`` to every hex of the rows
    ``r0:r1`` and columns ``c0:c1`` (:func:`distance_grid` of that window)."""
    q = np.arange(c0, c1)[None, :]
    r = np.arange(r0, r1)[:, None] - (q - (q & 1)) // 2
    dq = q - h.q
    dr = r - h.r
    return np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))


def _nearest_distance(hexes: Sequence[Hex], r0: int, r1: int, c0: int, c1: int) -> np.ndarray:
    """``int [r1 - r0, c1 - c0]``: hex distance (R2.1) from the nearest of ``hexes`` (at least
    one) to every hex of the window: the element-wise minimum of their
    :func:`_distance_window`, the same integers, broadcast over the hexes (a few hexes a
    pass, at most about :data:`_NEAREST_CELLS` window cells at once: a deploy zone of a
    500x500 map keeps its memory) instead of one window a hex."""
    q = np.arange(c0, c1)[None, :]
    r = np.arange(r0, r1)[:, None] - (q - (q & 1)) // 2
    hq = np.array([h.q for h in hexes])[:, None, None]
    hr = np.array([h.r for h in hexes])[:, None, None]
    step = max(1, _NEAREST_CELLS // max(1, q.size * r.shape[0]))
    out = None
    for i in range(0, len(hexes), step):
        dq = q[None] - hq[i : i + step]
        dr = r[None] - hr[i : i + step]
        d = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)).min(axis=0)
        out = d if out is None else np.minimum(out, d)
    assert out is not None
    return out


_NEAREST_CELLS = 1 << 18  # window cells x hexes of one pass of :func:`_nearest_distance`


_MAX_RANGE: dict[int, int] = {}
_SIGHT_MEMO = 256  # windows of enemy sight remembered per LOS content (about 7 KB each)


def _max_weapon_range() -> int:
    """The longest weapon range (hexes) of any unit card: a radius past which no unit's
    engagement term (:meth:`StandardPlayer._hex_scores`) looks (issue 35)."""
    cards = ruleset.cards()
    hit = _MAX_RANGE.get(id(cards))
    if hit is None:
        hit = max(
            (w.range for cid in cards.units for w in ruleset.weapons(cid) if w.range),
            default=1,
        )
        _MAX_RANGE.clear()
        _MAX_RANGE[id(cards)] = hit
    return hit


def _near_sight(
    state: GameState, h: Hex, radius: int, content: bytes
) -> tuple[int, int, int, int, np.ndarray]:
    """``(r0, r1, c0, c1, vis)``: ``bool`` visibility (R3) from ``h`` of a window holding every
    hex within ``radius`` (``False`` beyond it).

    A window covering most of the map is the whole map's :func:`ruleset.los_arrays` (shared
    with targeting); a smaller one is :func:`hexwar.model.los.visibility_near`, remembered in
    ``state.cache`` under the map's LOS content, up to :data:`_SIGHT_MEMO` windows (issue 35)."""
    bm = state.battlemap
    r0, r1, c0, c1 = near_window(bm.height, bm.width, h, radius)
    if (r1 - r0) * (c1 - c0) * 2 > bm.height * bm.width:
        status, _ = ruleset.los_arrays(state, h)
        return 0, bm.height, 0, bm.width, status != BLOCKED
    memo = state.cache.get("ai_sight")
    if memo is None or memo[0] is not content or len(memo[1]) >= _SIGHT_MEMO:
        memo = state.cache["ai_sight"] = (content, {})  # a new LOS content forgets them all
    windows: dict[tuple[Hex, int], tuple[int, int, int, int, np.ndarray]] = memo[1]
    hit = windows.get((h, radius))
    if hit is None:
        (r0, r1, c0, c1), status, _ = visibility_near(bm, h, radius)
        hit = windows[(h, radius)] = (r0, r1, c0, c1, status != BLOCKED)
    return hit


def _defense_array(state: GameState, cls: str) -> np.ndarray:
    """:func:`terrain_defense_array` of the game's map for defense class ``cls``, remembered
    per map version (read-only)."""
    bm = state.battlemap
    key = ("ai_defense", cls)
    hit = state.cache.get(key)
    if hit is None or hit[0] is not bm or hit[1] != bm.version:
        hit = state.cache[key] = (bm, bm.version, terrain_defense_array(bm, cls))
    return hit[2]  # type: ignore[no-any-return]


def card_priority(cid: str) -> float:
    """How much the standard player wants to keep a Command card (higher = keep)."""
    c = ruleset.command_card(cid)
    w = {
        EffectKind.ATTACK: 2.0,
        EffectKind.DAMAGE_INDEX: 1.2,
        EffectKind.RATE_OF_FIRE: 2.5,
        EffectKind.DEFENSE: 2.5,
        EffectKind.REMOVE_DAMAGE_CARD: 2.0,
        EffectKind.COMMIT_FROM_RESERVES: 1.5,
        EffectKind.DRAW: 1.5,
        EffectKind.INITIATIVE: 0.5,
        EffectKind.ARTILLERY_ACCURACY: 0.8,
        EffectKind.TURNS_OF_FLIGHT: 0.5,
        EffectKind.CLOSE_ASSAULT: 0.5,
    }
    base = sum(w.get(e.kind, 0.5) * max(1, abs(e.value)) for e in c.effects)
    return base + (1.0 if c.duration == "permanent" else 0.0)


class StandardPlayer:
    """A sensible opponent (see the module docstring).

    Args:
        side: the side it plays.
        seed: seeds its own Generator (ties are broken by it, deterministically).
    """

    name = "standard"
    undoes = False  # never issues Undo (R12.3): headless runs take no undo points

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = ai_seed(seed, side, self.name)
        self._queue: list[Command] = []
        self._queue_key: tuple[Any, ...] | None = None
        self._moved: set[str] = set()
        self._moved_key: tuple[Any, ...] | None = None
        self._value: dict[tuple[int, str], float] = {}  # (turn, attacker) -> expected VP

    # -- entry point ---------------------------------------------------------------------
    def choose(self, state: GameState) -> Command:
        """The next command for ``state.to_act`` (always legal).

        Raises:
            HexwarError: when it is not this side's turn.
        """
        if state.to_act != self.side:
            raise HexwarError(f"{self.side} asked to act, but it is {state.to_act}'s turn")
        if self._queue_key == (state.turn, state.phase):
            while self._queue:
                c = self._queue.pop(0)
                if state.check(c) is None:
                    return c
        handler = {
            Phase.SETUP: self._setup,
            Phase.ARTILLERY: self._artillery,
            Phase.COMMITMENT: self._commitment,
            Phase.MOVEMENT: self._movement,
            Phase.DECLARATION: self._declaration,
            Phase.RESOLUTION: self._resolution,
            Phase.DRAW: self._draw,
        }.get(state.phase)
        cmd = handler(state) if handler else None
        if cmd is not None and state.check(cmd) is None:
            return cmd
        end = EndPhase(self.side)
        if state.check(end) is None:
            return end
        cmds = state.legal_commands(self.side)
        if not cmds:
            raise HexwarError(f"{self.side}: no legal command in the {state.phase} phase")
        return cmds[0]

    def _plan(self, state: GameState, cmds: list[Command]) -> Command | None:
        self._queue_key = (state.turn, state.phase)
        self._queue = list(cmds[1:])
        return cmds[0] if cmds else None

    # -- setup ------------------------------------------------------------------------------
    def _setup(self, state: GameState) -> Command | None:
        ss = state.scenario.sides[self.side]
        want = min(ss.hand_size, len(state.reserves[self.side]))
        pool = list(state.reserves[self.side])
        units = sorted((c for c in pool if not ruleset.is_crew(c)), key=lambda c: (-ruleset.cost(c), c))
        crews = [c for c in pool if ruleset.is_crew(c)]
        hand: list[str] = []
        for u in units:
            if len(hand) >= want:
                break
            req = ruleset.crew_required(u)
            if req is None:
                continue
            room = want - len(hand)
            if req == "infantry":
                inf = next((x for x in units if ruleset.is_infantry(x) and x not in hand and x != u), None)
                if inf is not None and room >= 2:
                    hand += [u, inf]
            else:
                crew = next(
                    (
                        c
                        for c in sorted(crews, key=lambda c: (-ruleset.cost(c), c))
                        if c not in hand and ruleset.crew_fits(u, c)
                    ),
                    None,
                )
                if crew is not None and room >= 2 and not ruleset.is_aircraft(u):
                    hand += [u, crew]
        for u in units:
            if len(hand) >= want:
                break
            if ruleset.crew_required(u) is None and u not in hand:
                hand.append(u)
        for c in pool:
            if len(hand) >= want:
                break
            if c not in hand:
                hand.append(c)
        return ChooseHand(self.side, tuple(hand[:want]))

    # -- shared map knowledge ------------------------------------------------------------------
    def _ground(self, state: GameState, side: str) -> list[UnitState]:
        return [
            u
            for _, u in sorted(state.units.items())
            if u.side == side
            and u.hex is not None
            and not u.aloft
            and u.crewing is None
            and ruleset.is_ground(u.card)
        ]

    def _threat_arrays(self, state: GameState) -> dict[str, Any]:
        """Arrays about the enemy: what each enemy unit sees near it, and the exposure map.

        Per enemy ground unit, ``"sight"`` holds ``(r0, r1, c0, c1, vis)``: ``bool`` visibility
        (R3) of the window ``[r0:r1, c0:c1]`` that holds every hex within the larger of its own
        reach and any own weapon range (:func:`_near_sight`; issue 35: on a 500x500 map a
        window of about 86x83 hexes, not the whole map), hexes beyond that radius ``False``.
        ``"exposure"`` is ``float [H, W]``: per hex, the sum over enemies that see it within
        their reach of ``1 + card cost / 10``.

        Cached in ``state.cache`` under everything they are computed from (issue 22): the
        map's LOS content (:func:`hexwar.model.los.los_content_key`), the enemy ground units
        (id, card, hex), the posture (turns left, lead), and the holder and fire of each
        objective; so the player's own moves and commitments, which move none of these,
        reuse them. Games given one memo dict (:func:`hexwar.game.targeting.share_memos`: a
        search's worlds of one decision, one scenario) share them by that key less the map
        object's identity, each with its own ``"enemies"`` (issue 31)."""
        bm = state.battlemap
        enemies = self._ground(state, other_side(self.side))
        posture = self.posture(state)
        objs = state.scenario.objectives
        content = los_content_key(bm)
        key = (
            "ai_threat",
            self.side,
            id(bm),
            content,
            tuple((e.uid, e.card, e.hex) for e in enemies),
            posture.turns_left,
            posture.lead,
            tuple(state.objective_holders.get(o.hex) for o in objs),
            tuple(bool(bm.fire[o.hex.offset[1], o.hex.offset[0]]) for o in objs),
        )
        hit = state.cache.get("ai_threat_" + self.side)
        if hit is not None and hit[0] == key:
            return hit[1]  # type: ignore[no-any-return]
        shared = state.cache.get(SHARED_MEMOS)  # the search's worlds of one decision (issue 31)
        skey = key[:2] + key[3:]  # all but id(bm): its LOS content is in the key
        got = None if shared is None else shared.get(skey)
        if got is not None:
            out = dict(got, enemies=enemies)  # this game's own unit objects
            state.cache["ai_threat_" + self.side] = (key, out)
            return out
        sight = []
        exposure = np.zeros((bm.height, bm.width))
        for e in enemies:
            assert e.hex is not None
            ws = [
                w for w in ruleset.weapons(e.card) if w.attack_value("vehicle") or w.attack_value("infantry")
            ]
            rr = max((w.range or 99 for w in ws), default=0)
            r0, r1, c0, c1, vis = _near_sight(state, e.hex, max(rr, _max_weapon_range()), content)
            d = _distance_window(e.hex, r0, r1, c0, c1)
            sight.append((r0, r1, c0, c1, vis, d))
            # adding 0.0 outside the window changes nothing: the whole-map sum of issue 22
            exposure[r0:r1, c0:c1] += (vis & (d <= rr)) * (1.0 + ruleset.cost(e.card) / 10.0)
        out = {
            "enemies": enemies,
            "sight": sight,
            "exposure": exposure,
            "objective_hexes": self._objective_hexes(state),
            "posture": posture,
            "to_take": any(
                state.objective_holders.get(o.hex) != self.side for o in state.scenario.objectives
            ),
            "key": skey,  # what they are computed from (less the map object): _hex_scores' memo
        }
        out["take"], out["hold"], out["burning_objective"] = self._objective_bonus(state, posture)
        state.cache["ai_threat_" + self.side] = (key, out)
        if shared is not None:
            shared[skey] = out
        return out

    def posture(self, state: GameState) -> Posture:
        """The side's :class:`Posture` now: turns left to the scenario's limit and its lead on
        victory points plus objective points (the turn-limit comparison, R10.2)."""
        me, en = self.side, other_side(self.side)
        op = objective_points(state)
        lead = state.vp[me] + op[me] - state.vp[en] - op[en]
        turns = state.scenario.turns
        return Posture(turns - state.turn + 1 if turns else None, lead)

    def _objective_bonus(
        self, state: GameState, posture: Posture
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``float [H, W]`` take and hold bonuses and ``bool [H, W]`` burning objectives to take."""
        bm = state.battlemap
        take = np.zeros((bm.height, bm.width))
        hold = np.zeros((bm.height, bm.width))
        burning = np.zeros((bm.height, bm.width), dtype=bool)
        for o in state.scenario.objectives:
            col, row = o.hex.offset
            if state.objective_holders.get(o.hex) == self.side:
                hold[row, col] = (HOLD_BONUS + HOLD_PER_POINT * o.points) * posture.urgency
            else:
                take[row, col] = (TAKE_BONUS + TAKE_PER_POINT * o.points) * posture.urgency
                burning[row, col] = bool(bm.fire[row, col])
        return take, hold, burning

    def _objective_hexes(self, state: GameState) -> tuple[Hex, ...] | None:
        """The objectives it does not hold (all of them when it holds every one), or ``None``
        when the scenario has none: what the pull towards objectives measures distance to."""
        objs = [o.hex for o in state.scenario.objectives if state.objective_holders.get(o.hex) != self.side]
        if not objs:
            objs = [o.hex for o in state.scenario.objectives]
        return tuple(objs) or None

    def _hex_scores(
        self, state: GameState, cid: str, here: Hex | None, win: tuple[int, int, int, int] | None = None
    ) -> np.ndarray:
        """``float [r1 - r0, c1 - c0]``: how good each hex of the window ``win = (r0, r1, c0,
        c1)`` (default: the whole map; cut to the map) is for a unit of card ``cid`` (higher
        is better); a new array each call.

        Issue 35: only the window the caller rates (a unit's reach, a deploy zone) is worked
        out; every term is per hex, so a hex's score is the same whatever window holds it.
        Issue 31: remembered under everything :meth:`_fresh_scores` reads: the threat maps
        (their key), the card, the hex, the window and the window's terrain Defense and fire;
        shared between a search decision's worlds with the threat maps."""
        bm = state.battlemap
        t = self._threat_arrays(state)
        r0, r1, c0, c1 = win if win is not None else (0, bm.height, 0, bm.width)
        r0, r1, c0, c1 = max(0, r0), min(bm.height, r1), max(0, c0), min(bm.width, c1)  # on the map
        sl = (slice(r0, r1), slice(c0, c1))
        cls = defense_class(ruleset.unit_type(cid))
        key = (cid, here, (r0, r1, c0, c1), _defense_array(state, cls)[sl].tobytes(), bm.fire[sl].tobytes())
        shared = state.cache.get(SHARED_MEMOS)
        if shared is not None:
            memo = shared.setdefault(("ai_scores", t["key"]), {})
        else:
            hit = state.cache.get("ai_scores_" + self.side)
            if hit is None or hit[0] is not t:  # new threat maps: a new memo
                hit = state.cache["ai_scores_" + self.side] = (t, {})
            memo = hit[1]
        scores = memo.get(key)
        if scores is None:
            scores = memo[key] = self._fresh_scores(state, cid, here, (r0, r1, c0, c1), t)
        return scores.copy()  # type: ignore[no-any-return]

    def _fresh_scores(
        self, state: GameState, cid: str, here: Hex | None, win: tuple[int, int, int, int], t: dict[str, Any]
    ) -> np.ndarray:
        """:meth:`_hex_scores` worked out afresh, for its window already cut to the map and its
        threat maps ``t``."""
        bm = state.battlemap
        r0, r1, c0, c1 = win
        sl = (slice(r0, r1), slice(c0, c1))
        cls = defense_class(ruleset.unit_type(cid))
        score = _defense_array(state, cls)[sl].astype(float) * 1.5
        posture: Posture = t["posture"]
        # no burning building (R8.4), except an objective to take: entering it takes it (R10.2)
        burning_obj = t["burning_objective"][sl]
        score[bm.fire[sl] & ~burning_obj] -= FIRE_PENALTY
        score[burning_obj] -= FIRE_OBJECTIVE_PENALTY
        mines = state.scenario.battlefield.mines
        if mines and cid not in special.ENGINEERS:  # R10.5: a minefield stops the unit, may immobilize it
            cost = MINE_PENALTY_FOOT if ruleset.is_infantry(cid) else MINE_PENALTY_VEHICLE
            for h in mines:
                col, row = h.offset
                if r0 <= row < r1 and c0 <= col < c1:
                    score[row - r0, col - c0] -= cost
        line = ruleset.line(cid)
        ws = ruleset.weapons(cid)
        rng = max((w.range for w in ws if w.range), default=1)
        caution = 2.0 if posture.cautious else 1.0
        if line == "rear":
            score -= t["exposure"][sl] * 3.0
        else:
            score -= t["exposure"][sl] * 0.6 * caution
            if t["enemies"]:
                engage = np.zeros_like(score)
                for er0, er1, ec0, ec1, v, d in t["sight"]:
                    # the enemy's window and this one overlap in [a0:a1, b0:b1]
                    a0, a1, b0, b1 = max(r0, er0), min(r1, er1), max(c0, ec0), min(c1, ec1)
                    if a0 < a1 and b0 < b1:
                        engage[a0 - r0 : a1 - r0, b0 - c0 : b1 - c0] += (v & (d <= rng))[
                            a0 - er0 : a1 - er0, b0 - ec0 : b1 - ec0
                        ]
                nearest = _nearest_distance([e.hex for e in t["enemies"]], r0, r1, c0, c1)
                score += np.minimum(engage, 3) * 2.0 / caution
                score -= np.maximum(nearest - rng, 0) * 0.8 / caution
        objs = t["objective_hexes"]
        if objs is not None:
            w_obj = 0.4 if line == "rear" else 1.2
            if t["to_take"]:  # the pull towards objectives to take grows as the turn limit nears
                w_obj *= 1.0 + 0.5 * (posture.urgency - 1.0)
            dist = _nearest_distance(objs, r0, r1, c0, c1)
            score -= dist * w_obj
            if line != "rear":
                score += t["take"][sl]
                if here is not None and ruleset.is_ground(cid):
                    col, row = here.offset
                    if r0 <= row < r1 and c0 <= col < c1:
                        score[row - r0, col - c0] += t["hold"][row, col]  # stay on an objective it holds
        if here is not None:
            col, row = here.offset
            if r0 <= row < r1 and c0 <= col < c1:
                score[row - r0, col - c0] += 0.5  # a little inertia
        return score

    # -- artillery (R5.1d, R9) -----------------------------------------------------------------
    def _artillery(self, state: GameState) -> Command | None:
        side = self.side
        art = state.scenario.sides[side].artillery
        cmds = [c for c in state.legal_commands(side) if isinstance(c, TargetArtillery)]
        if art is None or not cmds:
            return self._play_cards(state, "begin_turn")
        legal = {c.hex for c in cmds}
        weapon = _artillery_weapon(side, art.weapon)
        hit_on = art.hit_on if art.hit_on is not None else default_effects().side_hit_on(side)
        hit_on -= state.pending[side].get("artillery_accuracy", 0)
        value_at: dict[Hex, float] = {}
        for u in state.units.values():
            if u.hex is None or u.aloft or u.crewing is not None:
                continue
            if weapon.attack_value(ruleset.target_type(u.uid)) is None:
                continue
            ctx = defense_context(state, u.uid, 0, side)
            try:
                o = weapon_odds(
                    ruleset.cards(),
                    weapon,
                    u,
                    ctx,
                    units=state.units,
                    events_in_play=state.events_in_play,
                    variant=state.variants,
                )
            except Exception:  # pragma: no cover - defensive: odds refuse what combat refuses
                continue
            sign = 1.0 if u.side != side else -1.2
            value_at[u.hex] = value_at.get(u.hex, 0.0) + sign * (
                o.expected_vp if sign > 0 else ruleset.cost(u.uid) * o.destroyed
            )
        cands: set[Hex] = set()
        for h, v in value_at.items():
            if v > 0:
                cands.update(x for x in h.within(1) if x in legal)
        best, best_v = None, ARTILLERY_MIN_VP
        for h in sorted(cands, key=lambda x: x.offset):
            dist = exact_landing_distribution(h, hit_on, 0, state.battlemap.width, state.battlemap.height)
            ev = sum(float(p) * value_at.get(x, 0.0) for x, p in dist.items() if x is not None)
            if ev > best_v:
                best, best_v = h, ev
        if best is None:
            return self._play_cards(state, "begin_turn")
        plan: list[Command] = []
        fo = next(
            (
                c
                for c in state.hand_commands[side]
                if any(e.kind == EffectKind.ARTILLERY_ACCURACY for e in ruleset.command_card(c).effects)
            ),
            None,
        )
        if fo is not None:
            plan.append(UseCommandCard(side, fo))
        plan.append(TargetArtillery(side, best))
        return self._plan(state, plan)

    # -- commitment (R5.2) ---------------------------------------------------------------------
    def _strength(self, state: GameState, side: str) -> int:
        return sum(ruleset.cost(u.card) for u in self._ground(state, side))

    def _commitment(self, state: GameState) -> Command | None:
        # Issue 35: the same choice as rating every legal Recrew / Commit / card command, read
        # per action (turn.legal_of) and, for ground units, per card group over the deploy
        # zone as arrays (commit.open_hexes): no listing of 25,000 commitments on a 500x500 map.
        side = self.side
        recrew = legal_of(state, side, Recrew)
        if recrew:
            return recrew[0]
        mine = self._ground(state, side)
        enemy_ground = self._ground(state, other_side(side))
        need = (
            self._strength(state, other_side(side)) + COMMIT_MARGIN - self._strength(state, side) > 0
            or len(mine) < MIN_ON_MAP
        )
        air: list[Commit] = []
        ground: list[tuple[str, str | None, str | None, np.ndarray, np.ndarray, np.ndarray]] = []
        for cid, inst, crew, carry in commit_action.card_groups(state, side):
            if ruleset.is_aircraft(cid):
                cmd = Commit(side, inst, None, crew, carry)
                if commit_action.check(state, cmd) is None:
                    air.append(cmd)
                continue
            pos, cols, rows = commit_action.open_hexes(state, side, cid, carry)
            if pos.size:
                ground.append((inst, crew, carry, pos, cols, rows))
        if air and enemy_ground:
            return max(air, key=lambda c: (ruleset.cost(c.unit), c.unit))
        if ground and need:
            best_unit = max({g[0] for g in ground}, key=lambda u: (ruleset.cost(u), u))
            mine_g = [g for g in ground if g[0] == best_unit]
            r0 = min(int(g[5].min()) for g in mine_g)
            c0 = min(int(g[4].min()) for g in mine_g)
            win = (r0, max(int(g[5].max()) for g in mine_g) + 1, c0, max(int(g[4].max()) for g in mine_g) + 1)
            scores = self._hex_scores(state, card_of(best_unit), None, win)
            deploy = state.scenario.sides[side].deploy
            # the maximum of (score + 0.01 * crew cost, crew, hex label) over the unit's
            # commands, the first of equal ones (Python's max over the listing's order)
            best: tuple[float, str, str] | None = None
            best_cmd: Commit | None = None
            for inst, crew, carry, pos, cols, rows in mine_g:
                crew_q = ruleset.cost(crew) if crew else 0
                vals = scores[rows - r0, cols - c0] + 0.01 * crew_q
                top = vals.max()
                tied = pos[vals == top]
                h = max((deploy[k] for k in tied.tolist()), key=lambda x: x.label)
                key = (float(top), crew or "", h.label)
                if best is None or key > best:
                    best, best_cmd = key, Commit(side, inst, h, crew, carry)
            return best_cmd
        return self._play_cards(state, "commitment", legal_of(state, side, UseCommandCard))

    def _play_cards(self, state: GameState, phase: str, legal: list[Command] | None = None) -> Command | None:
        """A Command card worth playing now, by simple rules of thumb."""
        side = self.side
        legal = legal if legal is not None else state.legal_commands(side)
        uses = [c for c in legal if isinstance(c, UseCommandCard)]
        for c in uses:
            card = ruleset.command_card(c.card)
            kinds = {e.kind for e in card.effects}
            if card.duration == "attack":
                continue  # planned with the declarations
            if EffectKind.REMOVE_DAMAGE_CARD in kinds:
                return c
            if EffectKind.DEFENSE in kinds and card.duration == "permanent":
                return c
            if EffectKind.COMMIT_FROM_RESERVES in kinds and len(state.hand_units[side]) < 2:
                return c
            if EffectKind.TURNS_OF_FLIGHT in kinds and c.unit and state.units[c.unit].flight_turns <= 1:
                return c
            if EffectKind.DRAW in kinds and len(state.hand_commands[side]) <= 3:
                return c
            if EffectKind.INITIATIVE in kinds and len(state.hand_commands[side]) >= 4:
                return c
            if EffectKind.DEFENSE in kinds and card.duration == "turn" and phase == "combat" and c.unit:
                u = state.units[c.unit]
                if (
                    u.hex is not None
                    and self._threat_arrays(state)["exposure"][state.battlemap.index(u.hex)] > 0
                ):
                    return c
        return None

    # -- movement (R5.3) ---------------------------------------------------------------------
    def _movement(self, state: GameState) -> Command | None:
        side = self.side
        if self._moved_key != (state.turn, side):
            self._moved_key = (state.turn, side)
            self._moved = set()
        for uid, u in sorted(state.units.items()):
            if u.side != side or uid in self._moved or u.crewing is not None or u.hex is None:
                continue
            self._moved.add(uid)
            reach = mv.unit_reach(state, uid)
            if reach is None or not reach.destinations():
                continue
            hexes = reach.hexes()
            offs = np.array([h.offset for h in hexes], dtype=np.int64)
            r0, c0 = int(offs[:, 1].min()), int(offs[:, 0].min())
            win = (r0, int(offs[:, 1].max()) + 1, c0, int(offs[:, 0].max()) + 1)
            scores = self._hex_scores(state, u.card, u.hex, win)  # the reach's window (issue 35)
            take = self._threat_arrays(state)["take"]
            # R10.2: moving through an objective takes it too, so a path over one earns its bonus
            takes = (
                set()
                if ruleset.line(u.card) == "rear"
                else {h for h in reach.destinations() if take[h.offset[1], h.offset[0]] > 0}
            )
            best, best_s = u.hex, None
            for h in hexes:
                col, row = h.offset
                s = float(scores[row - r0, col - c0])
                if takes and h != u.hex:
                    s += sum(float(take[x.offset[1], x.offset[0]]) for x in reach.path(h)[:-1] if x in takes)
                if best_s is None or s > best_s + 1e-9:
                    best, best_s = h, s
            if best != u.hex:
                return Move(side, uid, reach.path(best))
        return None

    # -- declaration (R6.1, R7) ----------------------------------------------------------------
    def _odds(
        self,
        state: GameState,
        attacker: UnitState,
        tid: str,
        at_crew: bool,
        ws: tuple[int, ...],
        hindrance: int,
        indirect: bool,
    ) -> Any:

        t = state.units[tid]
        tgt_uid = t.crew if at_crew and t.crew else tid
        ctx = defense_context(state, tgt_uid, hindrance, self.side)
        # remembered (issue 31) under what attack_odds reads: every unit's fields and the Events
        # (targeting_key), the variants and the Damage cards (their ids are all it reads), and
        # the question with the target's defense context (the map's part)
        memo = targeting.content_memo(
            state,
            "ai_odds",
            (state.variants, tuple(sorted(state.damage_deck)), tuple(sorted(state.damage_discard))),
        )
        key = (attacker.uid, tgt_uid, ws, indirect, ctx)
        hit = memo.get(key)
        if hit is not None:
            return hit
        deck = Deck("damage", list(state.damage_deck), list(state.damage_discard), reshuffle=True)
        hit = memo[key] = attack_odds(
            ruleset.cards(),
            attacker,
            state.units[tgt_uid],
            AttackOrders(ws, indirect),
            ctx,
            units=state.units,
            events_in_play=state.events_in_play,
            variant=state.variants,
            damage_deck=deck,
        )
        return hit

    def _declaration(self, state: GameState) -> Command | None:
        side = self.side
        cands: list[tuple[float, Any, str, float]] = []  # (value, command, target, p_destroy)
        for uid in sorted(state.units):
            u = state.units[uid]
            if u.side != side or targeting.attacker_problem(state, side, uid) is not None:
                continue
            for tid, at_crew, ok in targeting.legal_targets(state, side, uid):
                best = None
                # firing every legal weapon (up to two) is never worse than fewer, except a bomb
                # kept for a better target: rate the pair, and the single non-bomb weapons.
                ws_all = tuple(ok[:2])
                bombs = {w for w in ok if ruleset.weapons(u.card)[w].bomb}
                choices = [ws_all] + ([(w,) for w in ok if w not in bombs] if bombs & set(ws_all) else [])
                for ws in choices:
                    cmd: Any = Declare(side, uid, tid, ws, at_crew)
                    if targeting.declare_problem(state, cmd):
                        continue
                    modes, hind = [], 0
                    for w in ws:
                        _, mode, h = targeting.weapon_problem(state, uid, tid, w, at_crew)
                        modes.append(mode)
                        hind = max(hind, h)
                    try:
                        o = self._odds(state, u, tid, at_crew, ws, hind, targeting.FireMode.INDIRECT in modes)
                    except Exception:  # pragma: no cover - odds refuse only what the checks refuse
                        continue
                    v = o.expected_vp + 0.05 * o.expected_damage
                    if best is None or v > best[0]:
                        best = (v, cmd, tid, o.destroyed)
                if best is not None and best[0] > 0:
                    cands.append(best)
        # the close assaults of targeting.declaration_options, in its order (issue 31: without
        # listing every other declaration first)
        for ca in targeting.close_assault_options(state, side):
            try:
                o = close_assault_odds(
                    ruleset.cards(),
                    [state.units[x] for x in ca.attackers],
                    state.units[ca.target],
                    defense_context(state, ca.target, 0, side),
                    units=state.units,
                    events_in_play=state.events_in_play,
                    variant=state.variants,
                )
            except Exception:  # pragma: no cover
                continue
            cands.append((o.expected_vp * 0.9, ca, ca.target, o.destroyed))
        # greedy assignment: each unit fires once; value discounted by P(target already dead)
        alive: dict[str, float] = {}
        used: set[str] = set()
        plan: list[Command] = []
        values: list[float] = []
        text = {id(c[1]): str(c[1]) for c in cands}  # each command's text once (ties go by it)
        remaining = sorted(cands, key=lambda x: (-x[0], text[id(x[1])]))
        while remaining:
            scored = []
            for v, cmd, tid, pd in remaining:
                attackers = cmd.attackers if isinstance(cmd, DeclareCloseAssault) else (cmd.attacker,)
                if any(a in used for a in attackers):
                    continue
                scored.append((v * alive.get(tid, 1.0), v, cmd, tid, pd))
            if not scored:
                break
            # the first of the best (a stable sort's first): the same pick as sorting them all
            sv, v, cmd, tid, pd = min(scored, key=lambda x: (-x[0], text[id(x[2])]))
            if sv <= 0.02:
                break
            attackers = cmd.attackers if isinstance(cmd, DeclareCloseAssault) else (cmd.attacker,)
            used.update(attackers)
            alive[tid] = alive.get(tid, 1.0) * (1.0 - pd)
            plan.append(cmd)
            values.append(sv)
            remaining = [r for r in remaining if r[1] is not cmd]
        for c, v in zip(plan, values, strict=True):
            first = c.attackers[0] if isinstance(c, DeclareCloseAssault) else getattr(c, "attacker", "")
            self._value[(state.turn, first)] = v
        if plan:
            return self._plan(state, plan)
        return self._attack_cards(state) or self._play_cards(state, "combat")

    def _attack_cards(self, state: GameState) -> Command | None:
        """Attack Command cards on the side's most valuable open attacks."""
        uses = [
            c
            for c in state.legal_commands(self.side)
            if isinstance(c, UseCommandCard) and ruleset.command_card(c.card).duration == "attack"
        ]
        if not uses:
            return None

        def worth(c: UseCommandCard) -> float:
            for a in state.attacks.values():
                if c.unit in a.attackers and not a.resolved:
                    return self._value.get((state.turn, a.attackers[0]), 1.0) - 0.01 * len(a.command_cards)
            return 0.0

        best = max(uses, key=lambda c: (worth(c), c.card, c.unit or ""))
        return best if worth(best) >= 1.0 else None

    # -- resolution (R6.2) ---------------------------------------------------------------------
    def _resolution(self, state: GameState) -> Command | None:
        side = self.side
        mine = [a for _, a in sorted(state.attacks.items()) if a.side == side and not a.resolved]
        if not mine:
            return None

        def value(a: Any) -> float:
            v = self._value.get((state.turn, a.attackers[0]))
            if v is None:
                t = state.units.get(a.target)
                v = float(ruleset.cost(t.card)) / 4 if t else 0.0
            return v

        cards = self._attack_cards(state)
        if cards is not None:
            return cards
        a = max(mine, key=lambda x: (value(x), -x.number))
        hand = state.hand_commands[side]
        if hand:
            roll = best_bonus_roll(state, a, self._min_gain(state))
            if roll is not None:
                card = min(hand, key=lambda c: (card_priority(c), c))
                return Resolve(side, a.number, bonus_rolls=(roll,), bonus_cards=(card,))
        return Resolve(side, a.number)

    def _min_gain(self, state: GameState) -> float:
        """R1.3: what a card's +1 must be worth now (cheaper when the hand is full)."""
        full = len(state.hand_commands[self.side]) >= HAND_LIMIT_COMMAND - 1
        return BONUS_MIN_GAIN / 2 if full else BONUS_MIN_GAIN

    # -- draw (R5.5) -----------------------------------------------------------------------------
    def _with_bonuses(self, state: GameState, cmd: Draw) -> Draw:
        """R1.3 before the draw: a card on each fire damage check worth it (:func:`fire_check_gain`),
        one on the next initiative roll when the hand would overflow its limit anyway (R5.5)."""
        hand = sorted(state.hand_commands[self.side], key=lambda c: (card_priority(c), c))
        units: list[str] = []
        cards: list[str] = []
        for uid in draw_action.fire_bonus_units(state, self.side):
            if len(cards) < len(hand) and fire_check_gain(state, uid) >= self._min_gain(state):
                units.append(uid)
                cards.append(hand[len(cards)])
        left = hand[len(cards) :]
        init = (
            left[0]
            if len(left) >= HAND_LIMIT_COMMAND - 1 and not state.pending[self.side].get("initiative_bonus")
            else None
        )
        return Draw(
            cmd.side, cmd.extra, initiative_card=init, fire_units=tuple(units), fire_cards=tuple(cards)
        )

    def _fieldable(self, state: GameState) -> int:
        hand = state.hand_units[self.side]
        crews = [c for c in hand if ruleset.is_crew(c)]
        n = 0
        for c in hand:
            if ruleset.is_crew(c):
                continue
            req = ruleset.crew_required(c)
            if req is None or req == "infantry" or any(ruleset.crew_fits(c, x) for x in crews):
                n += 1
        return n

    def _draw(self, state: GameState) -> Command | None:
        side = self.side
        if side not in state.drawn:
            card = self._play_cards(state, "draw")
            if card is not None:
                return card
            legal = [c for c in state.legal_commands(side) if isinstance(c, Draw)]
            if not legal:
                return None
            n = len(legal[0].extra)
            want_units = self._fieldable(state) < 2 and state.reserves[side]
            k_units = (
                n if want_units and len(state.hand_commands[side]) >= 2 else (n // 2 if want_units else 0)
            )
            if len(state.hand_commands[side]) >= HAND_LIMIT_COMMAND - 1:
                k_units = max(k_units, n - 1) if state.reserves[side] else 0
            extra = tuple(["command"] * (n - k_units) + ["reserves"] * k_units)
            cmd = self._with_bonuses(state, Draw(side, extra))
            if state.check(cmd) is None:
                return cmd
            return legal[0]
        if len(state.hand_commands[side]) > HAND_LIMIT_COMMAND:
            worst = min(state.hand_commands[side], key=lambda c: (card_priority(c), c))
            return Discard(side, worst)
        if len(state.hand_units[side]) > HAND_LIMIT_UNITS:
            hand = state.hand_units[side]

            def keep(c: str) -> tuple[float, str]:
                if ruleset.is_crew(c):
                    useful = any(ruleset.crew_fits(x, c) for x in hand if not ruleset.is_crew(x))
                    return (ruleset.cost(c) if useful else -1.0, c)
                return (float(ruleset.cost(c)), c)

            return Discard(side, min(hand, key=keep))
        return None


_ = STACKING_LIMIT  # re-exported for tests of the deploy choice
