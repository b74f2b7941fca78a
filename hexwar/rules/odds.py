"""Exact pre-attack odds by enumeration over the dice and the Damage deck (R6).

For a declared attack the outcome distribution -- miss, no effect, damaged, Damage card drawn,
destroyed (with the crew's fate and the expected victory points) -- is computed exactly: a
dynamic programme over the target's state (Current Endurance x which Damage card it holds)
through every to-hit roll (2d10, P(sum = s) = (10 - |s - 11|) / 100, R6.3), every Intensity
d10 (R6.5), the natural 18 / 19-20 specials (classic: 2-3 friendly fire, 19-20 destroy, R6.4),
and every Damage card that may be drawn (uniform over the deck's remaining cards, or its
discard pile when a reshuffle is due), including cards that change the target's Defense,
expose it, immobilize it or deal extra d10 damage for the rest of the attack (R6.6).

The numbers of each state come from the engine's own functions
(:func:`~hexwar.rules.combat.effective_defense`, :func:`~hexwar.rules.combat.to_hit_modifiers`,
:func:`~hexwar.rules.combat.damage_card_deltas` -- tested equal to what-if copies of the target
holding each card), so the odds and the engine cannot drift apart; a Monte Carlo test of the
engine holds them together. The dynamic programme is vectorized with numpy and
cached on its plan (a tuple of numbers), so the AI can call it many times per decision.

>>> from hexwar.rules.cards import default_cards
>>> from hexwar.rules.combat import AttackOrders, DefenseContext
>>> from hexwar.rules.units import roster
>>> c = default_cards()
>>> u = roster(c, ("su_t34_76#1", "su_tank_crew_regular#1"), ("de_pz_iv_g#1", "de_tank_crew_regular#1"))
>>> o = attack_odds(c, u["su_t34_76#1"], u["de_pz_iv_g#1"], AttackOrders((0,)), DefenseContext(), units=u)
>>> round(o.miss, 2), round(o.miss + o.no_effect + o.damaged + o.damage_card + o.destroyed, 12)
(0.36, 1.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from .cards import CardSet, Deck, Weapon, card_id_of
from .combat import (
    AttackOrders,
    CombatError,
    DefenseContext,
    attack_problems,
    close_assault_attack_value,
    close_assault_problems,
    effective_defense,
    is_immobilized,
    normalize_variant,
    rate_of_fire,
    to_hit_modifiers,
    weapon_damage_index,
)
from .combat.modifiers import _close_assault_modifiers, _crew_of, _edge_deltas, _is_veteran
from .units import UnitLike

__all__ = [
    "TWO_D10",
    "AttackOdds",
    "attack_odds",
    "attack_odds_variants",
    "close_assault_odds",
    "dice_sum_distribution",
    "hit_probabilities",
    "p_two_d10_at_least",
    "weapon_odds",
]

#: ``TWO_D10[s]`` = P(2d10 = s) = (10 - |s - 11|) / 100 for s = 2..20 (0 elsewhere), R6.3.
TWO_D10 = np.array([0.0, 0.0] + [(10 - abs(s - 11)) / 100 for s in range(2, 21)])
TWO_D10.flags.writeable = False

_FATES = ("none", "survives", "captured", "destroyed")


def p_two_d10_at_least(n: int) -> float:
    """P(2d10 >= n), the chance to hit an attack value ``n`` with no modifiers and no specials.

    >>> p_two_d10_at_least(10), p_two_d10_at_least(2), p_two_d10_at_least(21)
    (0.64, 1.0, 0.0)
    """
    return float(TWO_D10[max(0, min(n, 21)) :].sum())


@lru_cache(maxsize=4096)
def _outcome_probs(
    av: int, modifier: int, classic: bool, specials: tuple[tuple[int, ...], ...]
) -> tuple[float, ...]:
    ff_set, special_set, double_set = specials
    pm = ph = pd = ps = pf = 0.0
    for s in range(2, 21):
        p = float(TWO_D10[s])
        if classic and s in ff_set:
            pf += p
        elif s in special_set:
            ps += p
        elif s + modifier >= av:
            if s in double_set:
                pd += p
            else:
                ph += p
        else:
            pm += p
    return pm, ph, pd, ps, pf


def hit_probabilities(
    cards: CardSet, attack_value: int, modifier: int = 0, variant: str = "standard"
) -> dict[str, float]:
    """One to-hit roll's outcome probabilities (R6.3-R6.4): keys ``miss``, ``hit``, ``double``
    (natural 18), ``special`` (natural 19-20), ``friendly_fire`` (classic natural 2-3).

    >>> from hexwar.rules.cards import default_cards
    >>> p = hit_probabilities(default_cards(), 10)
    >>> round(p["hit"], 2), p["double"], p["special"]
    (0.58, 0.03, 0.03)
    """
    r = cards.rules
    v = _outcome_probs(
        attack_value,
        modifier,
        normalize_variant(variant) == "classic",
        (r.friendly_fire, r.special, r.double_intensity),
    )
    return dict(zip(("miss", "hit", "double", "special", "friendly_fire"), v, strict=True))


@lru_cache(maxsize=16)
def dice_sum_distribution(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact distribution of ``n`` d10s as arrays ``(prob, sum, highest die)`` over the
    distinct ``(sum, highest)`` pairs (the highest die decides a crew's fate after a Close
    Assault or extra damage).

    >>> p, s, m = dice_sum_distribution(1)
    >>> s.tolist(), float(p.sum())
    ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1.0)
    """
    if not 1 <= n <= 8:
        raise ValueError(f"1..8 d10s, not {n}")
    dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, int], float] = {}
        for (s, m), p in dist.items():
            for f in range(1, 11):
                k = (s + f, max(m, f))
                nxt[k] = nxt.get(k, 0.0) + p / 10
        dist = nxt
    keys = sorted(dist)
    out = (np.array([dist[k] for k in keys]), np.array([k[0] for k in keys]), np.array([k[1] for k in keys]))
    for a in out:
        a.flags.writeable = False
    return out


# --------------------------------------------------------------------------------------------
# The result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackOdds:
    """Exact outcome distribution of one declared attack on one target.

    The five outcome probabilities add up to 1:

    Attributes:
        miss: no roll hit the target (friendly fire counts as a miss for it).
        no_effect: hit, but no Endurance lost and no Damage card.
        damaged: Endurance lost, no Damage card drawn during the attack, not destroyed.
        damage_card: a Damage card was drawn during the attack, not destroyed.
        destroyed: destroyed (its cost to the attacker).
        crew_survives, crew_captured, crew_destroyed: parts of ``destroyed`` by the crew's
            fate (all 0 for an uncrewed target).
        friendly_fire: classic: expected number of friendly-fire rolls (hits on the firer's
            own units).
        expected_vp: expected victory points for the attacker (unit + crew, captures 2x).
        expected_damage: expected Endurance lost (a destroyed unit loses all it had).
        endurance: ``endurance[e]`` = P(the target survives with Current Endurance e).
        rolls: to-hit rolls the attack makes at most.
    """

    miss: float
    no_effect: float
    damaged: float
    damage_card: float
    destroyed: float
    crew_survives: float = 0.0
    crew_captured: float = 0.0
    crew_destroyed: float = 0.0
    friendly_fire: float = 0.0
    expected_vp: float = 0.0
    expected_damage: float = 0.0
    endurance: tuple[float, ...] = ()
    rolls: int = 0

    @property
    def hit(self) -> float:
        """P(at least one hit on the target)."""
        return 1.0 - self.miss

    @property
    def outcomes(self) -> dict[str, float]:
        """The five outcome probabilities by name."""
        return {
            "miss": self.miss,
            "no_effect": self.no_effect,
            "damaged": self.damaged,
            "damage_card": self.damage_card,
            "destroyed": self.destroyed,
        }

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of every field."""
        return {
            "outcomes": self.outcomes,
            "crew": {
                "survives": self.crew_survives,
                "captured": self.crew_captured,
                "destroyed": self.crew_destroyed,
            },
            "friendly_fire": self.friendly_fire,
            "expected_vp": self.expected_vp,
            "expected_damage": self.expected_damage,
            "endurance": list(self.endurance),
            "rolls": self.rolls,
        }


# --------------------------------------------------------------------------------------------
# Plans: every number the dynamic programme needs, as a hashable tuple
# --------------------------------------------------------------------------------------------
# state = (defense, to-hit modifier per weapon slot, extra dice on drawing, probability, kind)
#   kind: 0 = no Damage card (may draw), 1 = held before the attack, 2 = drawn in the attack
# roll  = (weapon slot, attack value, damage index, to-hit bonus, intensity bonus, damage dice)


def _composition(cards: CardSet, damage_deck: Deck | Mapping[str, int] | None) -> Counter[str]:
    if damage_deck is None:
        return Counter({d: 1 for d in cards.damage})
    if isinstance(damage_deck, Deck):
        return damage_deck.composition()
    return Counter({card_id_of(k): int(v) for k, v in damage_deck.items() if v > 0})


def _as_set(x: Iterable[int] | str, n: int) -> frozenset[int]:
    return frozenset(range(n)) if x == "all" else frozenset(int(i) for i in x)


def _states(
    cards: CardSet,
    target: UnitLike,
    comp: Counter[str],
    units: Mapping[str, UnitLike],
    weapon_mods: Any,
    defense_of: Any,
    events_in_play: Sequence[str],
) -> tuple[tuple[Any, ...], ...]:
    """Card states of the target: the initial one, then one per distinct signature of the cards
    it may draw (Defense, to-hit modifiers, extra dice: :func:`damage_card_deltas`)."""
    d0, m0 = defense_of(target), tuple(weapon_mods(target))
    states = [(d0, m0, 0, 1.0, 0 if target.damage_card is None else 1)]
    if target.damage_card is None and comp:
        groups = _card_groups(
            cards,
            cards.unit(target.card).unit_type,
            _is_veteran(cards, target, units),
            is_immobilized(cards, target, units, events_in_play),
            tuple(sorted(comp.items())),
        )
        states.extend((d0 + dd, tuple(m + dt for m in m0), x, p, 2) for dd, dt, x, p in groups)
    return tuple(states)


@lru_cache(maxsize=4096)
def _card_groups(
    cards: CardSet, unit_type: str, veteran: bool, immobilized: bool, comp: tuple[tuple[str, int], ...]
) -> tuple[tuple[int, int, int, float], ...]:
    """Damage cards grouped by what they do to the target: ``(dDefense, dTo-hit, extra dice, P)``
    (the per-card numbers are :func:`~hexwar.rules.combat.damage_card_deltas`)."""
    total = sum(n for _, n in comp)
    groups: dict[tuple[int, int, int], float] = {}
    for cid, n in comp:
        sig = _edge_deltas(cards, cid, unit_type, veteran, immobilized)
        groups[sig] = groups.get(sig, 0.0) + n / total
    return tuple((*sig, p) for sig, p in sorted(groups.items()))


def _crew_fates(
    cards: CardSet, target: UnitLike, units: Mapping[str, UnitLike], classic: bool, ctx: DefenseContext
) -> tuple[int, ...]:
    """Fate index (into :data:`_FATES`) per natural die 0..10; index 0 = destroyed outright."""
    crew = _crew_of(units, target)
    if crew is None or crew.endurance <= 0:
        return (0,) * 11
    out = [3]
    for die in range(1, 11):
        f = cards.rules.crew_fate(die)
        if f == "captured" and classic and not ctx.captor_has_ground_unit:
            f = "survives"
        out.append(_FATES.index(f))
    return tuple(out)


#: (plan head, first k rolls) -> (P, dead, no_miss, ff) after those k rolls (issue 22).
_PREFIXES: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_PREFIX_LIMIT = 20_000


def _frozen(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    for a in arrays:
        a.flags.writeable = False
    return arrays


# issue 22: the small arrays of one roll against one card state depend on a few integers (and
# the two hit probabilities), so they are made once and shared (read-only); the solver does the
# same arithmetic on them as when it built them in place, so its numbers stay bit-identical.
@lru_cache(maxsize=4096)
def _hit_arrays(
    ndice: int, b_int: int, di: int, defense: int, ph: float, pdb: float
) -> tuple[np.ndarray, ...]:
    """``(damage, probability, highest die)`` of a hit and a double hit (natural 18, R6.4) of
    ``ndice`` Intensity d10 + ``b_int`` + Damage Index ``di`` - Defense ``defense`` (R6.5)."""
    pd_, sd_, md_ = dice_sum_distribution(ndice)
    raw = sd_ + b_int
    return _frozen(
        np.concatenate([np.maximum(0, raw + di - defense), np.maximum(0, 2 * raw + di - defense)]),
        np.concatenate([ph * pd_, pdb * pd_]),
        np.concatenate([md_, md_]),
    )


@lru_cache(maxsize=1024)
def _face_arrays(ndice: int, fates: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """``(faces, face index, fate)`` of :func:`_hit_arrays`' highest dice (per-face spreads)."""
    f = _hit_arrays(ndice, 0, 0, 0, 0.0, 0.0)[2]
    faces = np.unique(f)
    return _frozen(faces, np.searchsorted(faces, f), np.array(fates)[f])


@lru_cache(maxsize=4096)
def _plain_damage(ndice: int, b_int: int, di: int, defense: int) -> np.ndarray:
    """Damage of a plain hit of ``ndice`` d10 + ``b_int`` + ``di`` - ``defense`` (>= 0, R6.5)."""
    _, sd_, _ = dice_sum_distribution(ndice)
    return _frozen(np.maximum(0, sd_ + b_int + di - defense))[0]


@lru_cache(maxsize=64)
def _fresh(ndice: int) -> tuple[np.ndarray, np.ndarray]:
    """The highest face of ``ndice`` d10 still to be rolled: (probabilities, faces 1..10)."""
    p, _, m = dice_sum_distribution(ndice)
    return _frozen(np.bincount(m, weights=p, minlength=11)[1:11], np.arange(1, 11))  # type: ignore[return-value]


@lru_cache(maxsize=256)
def _extra_fresh(x: int, ndice: int) -> tuple[np.ndarray, ...]:
    """``(damage, probability, fate face)`` of ``x`` extra d10 whose crew fate is the highest
    of ``ndice`` d10 still to be rolled (:func:`_fresh`)."""
    p, s, _ = dice_sum_distribution(x)
    fp, ff = _fresh(ndice)
    k = len(ff)
    return _frozen(np.repeat(s, k), np.repeat(p, k) * np.tile(fp, len(s)), np.tile(ff, len(s)))


class _Solver:
    """The damage arithmetic of one plan of :func:`_solve` (R6.3-R6.6): mass over endurance
    ``0..E`` per card state, spread by damage dice; the dead mass gathered in :attr:`dead` by
    the crew's fate (indices of ``_FATES``)."""

    def __init__(self, E: int, states: Any, fates: Any) -> None:
        self.E = E
        self.states = states
        self.e_idx = np.arange(1, E + 1)
        self.dead = np.zeros(4)
        self.fate_of_die = np.array(fates)
        self.draw_p = np.array([s[3] for s in states])

    def shift(self, v: np.ndarray, d: np.ndarray, p: np.ndarray, f: np.ndarray) -> np.ndarray:
        """Spread mass ``v`` over damage outcomes; dead mass to :attr:`dead`; returns survivors.

        Only the endurance rows holding mass are spread: the others would add exact zeros
        (every weight is >= 0), so leaving them out gives bit-for-bit the same sums, in the
        same order, with smaller arrays (issue 22)."""
        nz = v[1:].nonzero()[0]
        if not nz.size:
            return np.zeros(self.E + 1)
        en = self.e_idx[nz, None] - d[None, :]
        w = (v[1:][nz, None] * p[None, :]).ravel()
        gone = en <= 0
        if gone.any():
            # one bincount each, over every entry in order: the dead go to their fate's bin
            # (the living to a fifth, dropped), the living to their endurance (the dead to
            # bin 0, cleared); each bin sums the same entries in the same order as a bincount
            # of the selected entries would: the same bits, with fewer temporaries (issue 22)
            self.dead[:] += np.bincount(
                np.where(gone, self.fate_of_die[f], 4).ravel(), weights=w, minlength=5
            )[:4]
            out = np.bincount(np.maximum(en, 0).ravel(), weights=w, minlength=self.E + 1)
            out[0] = 0.0
            return out
        return np.bincount(en.ravel(), weights=w, minlength=self.E + 1)

    def special_draws(self, v: np.ndarray, ps: float, ndice: int, b_int: int, di: int) -> np.ndarray:
        """A special hit's mass drawing each card state ``j >= 1`` (R6.6): ``v * (ps *
        draw_p[j])``, the card's extra dice (no Defense; a crew they destroy meets the fate of
        the highest of the ``ndice`` Intensity d10 still to be rolled, :func:`_fresh`, 000 step
        g, rules revision 2), then the hit's plain damage against that state's Defense;
        survivors ``[C - 1, E + 1]``, the dead to :attr:`dead`.

        Issue 35 (fifth session): every state in one pass instead of two :meth:`shift` calls a
        state, with the same bits. Each state's row is the same products as before and every
        bin sums the same entries in the same order (the rows' bins are apart; the entries a
        row leaves out, where the mass is zero, weigh exactly 0.0 and leave a sum's bits as
        they were); the dead mass is added step after step in the order of the loop it
        replaces (extra dice of state 1, its plain damage, state 2, ...) by np.add.accumulate,
        each partial sum the previous one plus the next step."""
        E, states, C = self.E, self.states, len(self.states)
        U = v[None, :] * (ps * self.draw_p[1:])[:, None]
        steps = np.zeros((2 * (C - 1), 4))
        for j in range(1, C):
            x = states[j][2]
            if x:
                u, inc = self.shift_parts(U[j - 1], *_extra_fresh(x, ndice))
                U[j - 1] = u
                if inc is not None:
                    steps[2 * (j - 1)] = inc
        pd_, _, md_ = dice_sum_distribution(ndice)
        d = np.stack([_plain_damage(ndice, b_int, di, states[j][0]) for j in range(1, C)])  # [C-1, L]
        en = self.e_idx[None, :, None] - d[:, None, :]  # [C-1, E, L]
        w = U[:, 1:, None] * pd_[None, None, :]
        gone = en <= 0
        rows = np.arange(C - 1)[:, None, None]
        dead = np.bincount(
            (rows * 5 + np.where(gone, self.fate_of_die[md_][None, None, :], 4)).ravel(),
            weights=w.ravel(),
            minlength=5 * (C - 1),
        ).reshape(C - 1, 5)[:, :4]
        steps[1::2] = dead
        self.dead[:] = np.add.accumulate(np.concatenate([self.dead[None], steps]), axis=0)[-1]
        out = np.bincount(
            (rows * (E + 1) + np.maximum(en, 0)).ravel(), weights=w.ravel(), minlength=(C - 1) * (E + 1)
        ).reshape(C - 1, E + 1)
        out[:, 0] = 0.0
        return out

    def shift_parts(
        self, v: np.ndarray, d: np.ndarray, p: np.ndarray, f: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """:meth:`shift` without touching :attr:`dead`: ``(survivors, dead mass [4] or None)``."""
        nz = v[1:].nonzero()[0]
        if not nz.size:
            return np.zeros(self.E + 1), None
        en = self.e_idx[nz, None] - d[None, :]
        w = (v[1:][nz, None] * p[None, :]).ravel()
        gone = en <= 0
        if gone.any():
            inc = np.bincount(np.where(gone, self.fate_of_die[f], 4).ravel(), weights=w, minlength=5)[:4]
            out = np.bincount(np.maximum(en, 0).ravel(), weights=w, minlength=self.E + 1)
            out[0] = 0.0
            return out, inc
        return np.bincount(en.ravel(), weights=w, minlength=self.E + 1), None

    def by_face(
        self,
        v: np.ndarray,
        d: np.ndarray,
        p: np.ndarray,
        f: np.ndarray,
        faces: np.ndarray,
        k_of: np.ndarray,
        fate: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`shift` of ``v`` for every die face at once: survivors ``[faces, E + 1]``
        and dead mass ``[faces, 4]`` (entry ``i`` of ``d, p`` belongs to face ``k_of[i]``,
        fate ``fate[i]``)."""
        nf = len(faces)
        nz = v[1:].nonzero()[0]
        if not nz.size:
            return np.zeros((nf, self.E + 1)), np.zeros((nf, 4))
        en = self.e_idx[nz, None] - d[None, :]
        w = v[1:][nz, None] * p[None, :]
        gone = en <= 0
        alive = ~gone
        # keys by plain broadcasting (np.broadcast_to costs more than the arithmetic here)
        surv = np.bincount(
            (k_of * (self.E + 1) + en)[alive], weights=w[alive], minlength=nf * (self.E + 1)
        ).reshape(nf, self.E + 1)
        gone_mass = np.bincount(
            (k_of * 4 + fate)[gone.nonzero()[1]], weights=w[gone], minlength=nf * 4
        ).reshape(nf, 4)
        return surv, gone_mass

    def extra_by_face(
        self, low: np.ndarray, j: int, faces: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """The card's extra dice (as :meth:`special_draws` applies them) on each face's mass ``low[k] * draw_p[j]`` with that face as the
        crew's fate, for every face at once: survivors ``[faces, E + 1]`` and dead mass
        ``[faces, 4]`` (``None``: the card has no extra dice, nothing dies)."""
        V = low * self.draw_p[j]
        x = self.states[j][2]
        nf = len(faces)
        if not x:
            return V, None
        p, s, _ = dice_sum_distribution(x)
        ki, ri = V[:, 1:].nonzero()
        if not ki.size:
            return np.zeros((nf, self.E + 1)), np.zeros((nf, 4))
        en = self.e_idx[ri][:, None] - s[None, :]
        w = V[ki, 1 + ri][:, None] * p[None, :]
        gone = en <= 0
        alive = ~gone
        surv = np.bincount(
            (ki[:, None] * (self.E + 1) + en)[alive], weights=w[alive], minlength=nf * (self.E + 1)
        ).reshape(nf, self.E + 1)
        row_key = ki * 4 + self.fate_of_die[faces[ki]]  # per row: its face's block, the fate
        gone_mass = np.bincount(row_key[gone.nonzero()[0]], weights=w[gone], minlength=nf * 4).reshape(nf, 4)
        return surv, gone_mass


@lru_cache(maxsize=8192)
def _solve(plan: tuple[Any, ...]) -> tuple[Any, ...]:
    """Run the dynamic programme of a plan; returns raw numbers (see :func:`_odds_from`)."""
    (full, half, start, fates, classic, specials, states, rolls) = plan
    C = len(states)
    E = full
    P = np.zeros((C, E + 1))
    P[0, start] = 1.0
    sv = _Solver(E, states, fates)
    dead, shift = sv.dead, sv.shift
    fate_of_die = sv.fate_of_die
    can_draw = states[0][4] == 0 and C > 1
    no_miss = 1.0
    ff = 0.0

    # issue 22: resume from the longest prefix of these rolls already solved with this head
    # (a Command-card bonus on roll k leaves rolls 0..k-1 as they were): the loop below is a
    # function of (P, dead, no_miss, ff) and the roll, so resuming gives the same bits.
    head = plan[:7]
    done = 0
    for k in range(len(rolls) - 1, 0, -1):
        hit = _PREFIXES.get((head, rolls[:k]))
        if hit is not None:
            P, dead[:], no_miss, ff = hit[0].copy(), hit[1], hit[2], hit[3]
            done = k
            break
    if len(_PREFIXES) > _PREFIX_LIMIT:
        _PREFIXES.clear()
    for idx in range(done, len(rolls)):
        if idx > done:
            _PREFIXES[(head, rolls[:idx])] = (P.copy(), dead.copy(), no_miss, ff)
        slot, av, di, b_hit, b_int, ndice = rolls[idx]
        Q = np.zeros_like(P)
        pd_, sd_, md_ = dice_sum_distribution(ndice)
        for c in range(C):
            v = P[c]
            mass = v.sum()
            if mass <= 0.0:
                continue
            D, mods, _, _, kind = states[c]
            pm, ph, pdb, ps, pf = _outcome_probs(av, mods[slot] + b_hit, classic, specials)
            if c == 0:
                no_miss *= pm + pf
            Q[c] += (pm + pf) * v
            ff += pf * mass
            d, p, f = _hit_arrays(ndice, b_int, di, D, ph, pdb)
            if kind == 0 and can_draw:
                # the hit's die decides a crew the extra damage kills: per die face, the hit's
                # damage, then the extra dice of the card drawn. Every face's numbers come
                # from one bincount (keyed by face), then are added in the order of faces
                # exactly as face-by-face calls would add them: the same sums, bit for bit.
                faces, k_of, fate_f = _face_arrays(ndice, fates)
                S, Dd = sv.by_face(v, d, p, f, faces, k_of, fate_f)
                low_all = S.copy()
                low_all[:, half + 1 :] = 0.0
                S[:, : half + 1] = 0.0
                extras = [sv.extra_by_face(low_all, j, faces) for j in range(1, C)]
                # face by face: dead += Dd[k], then every card's xd[k]; Q[c] += S[k]; Q[j] +=
                # xs[k]. np.add.accumulate adds rows strictly in order (each partial sum is the
                # previous one plus the next row), and a face without mass has all-zero xs and
                # xd rows, whose additions leave every sum's bits as they were: the same sums
                # as the loop over faces that skipped them (issue 22).
                Q[c] = np.add.accumulate(np.concatenate([Q[c][None], S]), axis=0)[-1]
                xds = [xd for _, xd in extras if xd is not None]
                steps = np.stack([Dd, *xds], axis=1).reshape(-1, 4) if xds else Dd
                dead[:] = np.add.accumulate(np.concatenate([dead[None], steps]), axis=0)[-1]
                for j, (xs, _) in enumerate(extras, start=1):
                    Q[j] = np.add.accumulate(np.concatenate([Q[j][None], xs]), axis=0)[-1]
            else:
                Q[c] += shift(v, d, p, f)
            if ps:
                if classic or kind != 0:
                    dead[fate_of_die[0]] += ps * mass
                elif not can_draw:  # no Damage card to draw: just the hit's damage
                    Q[c] += shift(v, _plain_damage(ndice, b_int, di, D), ps * pd_, md_)
                else:
                    Q[1:] += sv.special_draws(v, ps, ndice, b_int, di)
        P = Q
    return P, dead, no_miss, ff


@lru_cache(maxsize=8192)
def _odds_from(plan: tuple[Any, ...], unit_cost: int, crew_cost: int, capture_multiplier: int) -> AttackOdds:
    full, start = plan[0], plan[2]
    states = plan[6]
    P, dead, no_miss, ff = _solve(plan)
    destroyed = float(dead.sum())
    drawn = float(P[1:].sum()) if states[0][4] == 0 else 0.0
    c0 = P[0]
    damaged = float(c0[:start].sum())
    unchanged = float(c0[start])
    miss = min(no_miss, unchanged)
    surv = P.sum(axis=0)
    exp_damage = float(((start - np.arange(full + 1)) * surv).sum()) + destroyed * start
    exp_vp = (
        destroyed * unit_cost + float(dead[3]) * crew_cost + float(dead[2]) * crew_cost * capture_multiplier
    )
    return AttackOdds(
        miss=miss,
        no_effect=max(0.0, unchanged - miss),
        damaged=damaged,
        damage_card=drawn,
        destroyed=destroyed,
        crew_survives=float(dead[1]),
        crew_captured=float(dead[2]),
        crew_destroyed=float(dead[3]),
        friendly_fire=ff,
        expected_vp=exp_vp,
        expected_damage=exp_damage,
        endurance=tuple(float(x) for x in surv),
        rolls=len(plan[7]),
    )


def _target_numbers(
    cards: CardSet,
    target: UnitLike,
    units: Mapping[str, UnitLike],
    ctx: DefenseContext,
    events_in_play: Sequence[str],
    variant: str,
) -> tuple[int, int, int, tuple[int, ...], bool, Any]:
    card = cards.unit(target.card)
    if target.endurance <= 0:
        raise CombatError(f"{card.name} is destroyed")
    classic = variant == "classic"
    r = cards.rules
    return (
        card.endurance_full,
        card.endurance_half,
        min(target.endurance, card.endurance_full),
        _crew_fates(cards, target, units, classic, ctx),
        classic,
        (r.friendly_fire, r.special, r.double_intensity),
    )


def _costs(cards: CardSet, target: UnitLike, units: Mapping[str, UnitLike]) -> tuple[int, int]:
    crew = _crew_of(units, target)
    crew_cost = cards.unit(crew.card).cost if crew is not None and crew.endurance > 0 else 0
    return cards.unit(target.card).cost, crew_cost


# --------------------------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------------------------


def attack_odds(
    cards: CardSet,
    attacker: UnitLike,
    target: UnitLike,
    orders: AttackOrders,
    ctx: DefenseContext,
    *,
    units: Mapping[str, UnitLike] | None = None,
    events_in_play: Sequence[str] = (),
    variant: str | Iterable[str] = "standard",
    damage_deck: Deck | Mapping[str, int] | None = None,
    bonus_to_hit: Iterable[int] | str = (),
    bonus_intensity: Iterable[int] | str = (),
) -> AttackOdds:
    """Exact odds of a declared attack, before it is rolled (R6).

    Args:
        cards: the card set.
        attacker, target: unit states (not changed).
        orders: weapons (in firing order), indirect fire, Command cards played.
        ctx: the target's :class:`~hexwar.rules.combat.DefenseContext`.
        units: every unit in play by uid (crews are found here); default just these two.
        events_in_play: Event card instances in play.
        variant: ``"standard"`` or ``"classic"`` (or a collection of variant names).
        damage_deck: the Damage deck (its remaining cards, or its discard pile if a reshuffle
            is due), a mapping ``card id -> copies left``, or ``None`` for a full deck.
        bonus_to_hit, bonus_intensity: to-hit roll numbers (0-based over the attack), or
            ``"all"``, on which the attacker will use the Command-card bonus (R1.3).

    Raises:
        CombatError: when the attack is not legal (:func:`~hexwar.rules.combat.attack_problems`).
    """
    return attack_odds_variants(
        cards,
        attacker,
        target,
        orders,
        ctx,
        [(bonus_to_hit, bonus_intensity)],
        units=units,
        events_in_play=events_in_play,
        variant=variant,
        damage_deck=damage_deck,
    )[0]


def attack_odds_variants(
    cards: CardSet,
    attacker: UnitLike,
    target: UnitLike,
    orders: AttackOrders,
    ctx: DefenseContext,
    bonuses: Sequence[tuple[Iterable[int] | str, Iterable[int] | str]],
    *,
    units: Mapping[str, UnitLike] | None = None,
    events_in_play: Sequence[str] = (),
    variant: str | Iterable[str] = "standard",
    damage_deck: Deck | Mapping[str, int] | None = None,
) -> list[AttackOdds]:
    """:func:`attack_odds` of one declared attack under several Command-card bonus choices
    (R1.3), the attack's numbers worked out once (issue 22: the AI rates a +1 on every roll).

    Args:
        bonuses: ``(bonus_to_hit, bonus_intensity)`` pairs as :func:`attack_odds` takes them.
        the rest: as :func:`attack_odds`.

    Returns:
        one :class:`AttackOdds` per pair, in order; each equals ``attack_odds`` with that pair.

    Raises:
        CombatError: when the attack is not legal (:func:`~hexwar.rules.combat.attack_problems`).
    """
    units = dict(units) if units is not None else {attacker.uid: attacker, target.uid: target}
    problems = attack_problems(cards, attacker, target, orders, units, events_in_play)
    if problems:
        raise CombatError("; ".join(problems))
    variant = normalize_variant(variant)
    acard, tcard = cards.unit(attacker.card), cards.unit(target.card)
    weapons = [acard.weapons[i] for i in orders.weapons]
    counts = [rate_of_fire(cards, attacker, w, units, events_in_play, orders.command_cards) for w in weapons]
    n = sum(counts)
    base: list[tuple[int, int, int]] = []
    for slot, (w, cnt) in enumerate(zip(weapons, counts, strict=True)):
        av = w.attack_value(tcard.target_type)
        assert av is not None
        di = weapon_damage_index(cards, attacker, w, units, events_in_play, orders.command_cards)
        base.extend((slot, av, di) for _ in range(cnt))

    def mods(t: UnitLike) -> list[int]:
        m = sum(
            v
            for _, v in to_hit_modifiers(cards, attacker, t, ctx, units, events_in_play, orders.command_cards)
        )
        return [m] * len(weapons)

    def defense(t: UnitLike) -> int:
        return effective_defense(cards, t, ctx, units, events_in_play)[0]

    head = _target_numbers(cards, target, units, ctx, events_in_play, variant)
    states = _states(cards, target, _composition(cards, damage_deck), units, mods, defense, events_in_play)
    costs = _costs(cards, target, units)
    out = []
    for bonus_to_hit, bonus_intensity in bonuses:
        bh, bi = _as_set(bonus_to_hit, n), _as_set(bonus_intensity, n)
        rolls = tuple((slot, av, di, int(k in bh), int(k in bi), 1) for k, (slot, av, di) in enumerate(base))
        out.append(_odds_from((*head, states, rolls), *costs, cards.rules.capture_multiplier))
    return out


def weapon_odds(
    cards: CardSet,
    weapon: Weapon,
    target: UnitLike,
    ctx: DefenseContext,
    *,
    attacker: UnitLike | None = None,
    rolls: int | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
    units: Mapping[str, UnitLike] | None = None,
    events_in_play: Sequence[str] = (),
    variant: str | Iterable[str] = "standard",
    damage_deck: Deck | Mapping[str, int] | None = None,
) -> AttackOdds:
    """Exact odds of one weapon fired at ``target`` as :meth:`CombatEngine.fire_weapon
    <hexwar.rules.combat.CombatEngine.fire_weapon>` fires it (off-board artillery: ``attacker=None``).

    Raises:
        CombatError: when the weapon has no attack value against the target's type.
    """
    units = (
        dict(units)
        if units is not None
        else ({target.uid: target} | ({attacker.uid: attacker} if attacker else {}))
    )
    variant = normalize_variant(variant)
    tcard = cards.unit(target.card)
    av = weapon.attack_value(tcard.target_type)
    if av is None:
        raise CombatError(f"{weapon.name} cannot affect a {tcard.target_type}")
    n = rolls if rolls is not None else rate_of_fire(cards, attacker, weapon, units, events_in_play)
    di = weapon_damage_index(cards, attacker, weapon, units, events_in_play)

    def mods(t: UnitLike) -> list[int]:
        return [
            sum(v for _, v in to_hit_modifiers(cards, attacker, t, ctx, units, events_in_play, (), modifiers))
        ]

    def defense(t: UnitLike) -> int:
        return effective_defense(cards, t, ctx, units, events_in_play)[0]

    head = _target_numbers(cards, target, units, ctx, events_in_play, variant)
    states = _states(cards, target, _composition(cards, damage_deck), units, mods, defense, events_in_play)
    plan = (*head, states, tuple((0, av, di, 0, 0, 1) for _ in range(n)))
    return _odds_from(plan, *_costs(cards, target, units), cards.rules.capture_multiplier)


def close_assault_odds(
    cards: CardSet,
    assaulters: Sequence[UnitLike],
    target: UnitLike,
    ctx: DefenseContext,
    *,
    units: Mapping[str, UnitLike] | None = None,
    events_in_play: Sequence[str] = (),
    variant: str | Iterable[str] = "standard",
    damage_deck: Deck | Mapping[str, int] | None = None,
    command_cards: Sequence[str] = (),
    bonus_to_hit: bool = False,
    bonus_dice: bool = False,
) -> AttackOdds:
    """Exact odds of a Close Assault as :meth:`CombatEngine.close_assault
    <hexwar.rules.combat.CombatEngine.close_assault>` resolves it (000): one to-hit roll, then
    one d10 per assaulting infantry (sum, doubled on 18) - effective Defense.

    Raises:
        CombatError: when fewer than three infantry can assault or the target is no vehicle.
    """
    units = dict(units) if units is not None else {u.uid: u for u in (*assaulters, target)}
    ready, problems = close_assault_problems(cards, assaulters, target, units, events_in_play)
    if problems:
        raise CombatError("; ".join(problems))
    variant = normalize_variant(variant)
    av = close_assault_attack_value(cards, ready)
    assert av is not None

    def mods(t: UnitLike) -> list[int]:
        return [
            sum(
                v
                for _, v in _close_assault_modifiers(
                    cards, ready, t, ctx, units, events_in_play, command_cards
                )
            )
        ]

    def defense(t: UnitLike) -> int:
        return effective_defense(cards, t, ctx, units, events_in_play)[0]

    full, half, start, fates, classic, specials = _target_numbers(
        cards, target, units, ctx, events_in_play, variant
    )
    states = _states(cards, target, _composition(cards, damage_deck), units, mods, defense, events_in_play)
    plan = (
        full,
        half,
        start,
        fates,
        classic,
        specials,
        states,
        ((0, av, 0, int(bonus_to_hit), int(bonus_dice), len(ready)),),
    )
    odds = _odds_from(plan, *_costs(cards, target, units), cards.rules.capture_multiplier)
    return replace(odds, friendly_fire=0.0)  # classic 2-3 is a plain miss in a Close Assault


def clear_cache() -> None:
    """Forget cached plans (for benchmarks)."""
    _solve.cache_clear()
    _PREFIXES.clear()
    _odds_from.cache_clear()
    _card_groups.cache_clear()
    _outcome_probs.cache_clear()


__all__ += ["clear_cache"]
