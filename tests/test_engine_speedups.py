"""Issue 22's engine speed-ups change no result: the fast paths against the code they replace.

* Undo points (R12.3) copy the position with :func:`hexwar.game.actions.undo.position_copy`
  instead of ``copy.deepcopy``: over whole games every position field's copy equals the
  deepcopy and shares no mutable object with the live state.
* The odds solver (R6, :func:`hexwar.rules.odds._solve`) skips endurance rows without mass:
  on every plan a whole game solves it gives bit-for-bit the numbers of the solver on main
  before the change (copied below as the reference).
* Together: the balance CSV of fixed seeds is byte-identical with the fast paths and with the
  reference ones (same winners, reasons, turns, scores and command counts).
Speed itself is measured in ``benchmarks/bench_games.py``, never asserted here.
"""

from __future__ import annotations

import copy
import dataclasses
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from hexwar import balance as bal
from hexwar.game.actions import undo
from hexwar.game.ai import make_player
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.rules import odds
from hexwar.rules.odds import _outcome_probs, dice_sum_distribution


def reference_solve(plan: tuple[Any, ...]) -> tuple[Any, ...]:
    """hexwar.rules.odds._solve as it was on main 94cea65, before issue 22 (the reference)."""
    (full, half, start, fates, classic, specials, states, rolls) = plan
    C = len(states)
    E = full
    P = np.zeros((C, E + 1))
    P[0, start] = 1.0
    dead = np.zeros(4)
    fate_of_die = np.array(fates)
    can_draw = states[0][4] == 0 and C > 1
    draw_p = np.array([s[3] for s in states])
    no_miss = 1.0
    ff = 0.0
    e_idx = np.arange(1, E + 1)

    def shift(v: np.ndarray, d: np.ndarray, p: np.ndarray, f: np.ndarray) -> np.ndarray:
        """Spread mass ``v`` over damage outcomes; dead mass to ``dead``; returns survivors."""
        en = e_idx[:, None] - d[None, :]
        w = v[1:, None] * p[None, :]
        gone = en <= 0
        if gone.any():
            dead[:] += np.bincount(
                fate_of_die[np.broadcast_to(f, en.shape)[gone]], weights=w[gone], minlength=4
            )
        alive = ~gone
        return np.bincount(en[alive], weights=w[alive], minlength=E + 1)

    def extra_then(v: np.ndarray, j: int, fate: Any) -> np.ndarray:
        """Mass drawing card state ``j``: apply its extra damage dice (no Defense). A crew whose
        unit they destroy meets the fate of the destroying attack's Intensity die (000 step g,
        rules revision 2): ``fate`` is that die's face, or ``(probabilities, faces)`` of a die
        still to be rolled (a natural 19-20 draws the card before the hit's Intensity)."""
        x = states[j][2]
        if not x:
            return v
        p, s, m = dice_sum_distribution(x)
        if isinstance(fate, int):
            return shift(v, s, p, np.full_like(m, fate))
        fp, ff = fate
        k = len(ff)
        return shift(v, np.repeat(s, k), np.repeat(p, k) * np.tile(fp, len(s)), np.tile(ff, len(s)))

    def draw(v: np.ndarray, out: np.ndarray, fate: Any) -> None:
        """Mass that must draw a Damage card now: split over the card states."""
        for j in range(1, C):
            out[j] += extra_then(v * draw_p[j], j, fate)

    def fresh(ndice: int) -> tuple[np.ndarray, np.ndarray]:
        """The highest face of ``ndice`` d10 still to be rolled: (probabilities, faces 1..10)."""
        p, _, m = dice_sum_distribution(ndice)
        return np.bincount(m, weights=p, minlength=11)[1:11], np.arange(1, 11)

    for slot, av, di, b_hit, b_int, ndice in rolls:
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
            raw = sd_ + b_int
            d = np.concatenate([np.maximum(0, raw + di - D), np.maximum(0, 2 * raw + di - D)])
            p = np.concatenate([ph * pd_, pdb * pd_])
            f = np.concatenate([md_, md_])
            if kind == 0 and can_draw:
                for die in np.unique(f):  # the hit's die decides a crew the extra damage kills
                    sel = f == die
                    surv = shift(v, d[sel], p[sel], f[sel])
                    low = surv.copy()
                    low[half + 1 :] = 0.0
                    surv[: half + 1] = 0.0
                    Q[c] += surv
                    draw(low, Q, int(die))
            else:
                Q[c] += shift(v, d, p, f)
            if ps:
                if classic or kind != 0:
                    dead[fate_of_die[0]] += ps * mass
                elif not can_draw:  # no Damage card to draw: just the hit's damage
                    Q[c] += shift(v, np.maximum(0, raw + di - D), ps * pd_, md_)
                else:
                    for j in range(1, C):
                        u = extra_then(v * (ps * draw_p[j]), j, fresh(ndice))
                        Dj = states[j][0]
                        Q[j] += shift(u, np.maximum(0, raw + di - Dj), pd_, md_)
        P = Q
    return P, dead, no_miss, ff


def _mutables(x: Any, out: list[Any]) -> None:
    """Every mutable container or dataclass instance reachable from ``x``."""
    if isinstance(x, (list, dict, set)):
        out.append(x)
        items = x.items() if isinstance(x, dict) else ((None, v) for v in x)
        for k, v in items:
            _mutables(k, out)
            _mutables(v, out)
    elif isinstance(x, tuple | frozenset):
        for v in x:
            _mutables(v, out)
    elif dataclasses.is_dataclass(x) and not isinstance(x, type):
        if not type(x).__dataclass_params__.frozen:
            out.append(x)
        for f in dataclasses.fields(x):
            _mutables(getattr(x, f.name), out)


def _games(name: str, seeds: range, every: int = 1):
    """States along AI-vs-AI games of scenario ``name`` (every ``every``-th command)."""
    sc = load_scenario(find_scenario(name))
    for seed in seeds:
        st = sc.new_game(seed=seed)
        players = {s: make_player("standard", s, seed) for s in ("german", "soviet")}
        n = 0
        while not st.over and st.turn <= 4:
            if n % every == 0:
                yield st
            st.apply(players[st.to_act].choose(st))
            n += 1


@pytest.mark.parametrize("name", ["standard", "prokhorovka"])
def test_undo_point_copy_equals_deepcopy_and_shares_nothing_mutable(name):
    checked = 0
    for st in _games(name, range(1), every=2):
        for field in undo._position_names(st):
            live = getattr(st, field)
            fast, deep = undo.position_copy(live), copy.deepcopy(live)
            assert fast == deep, f"seed {st.seed} turn {st.turn}: field {field} differs from its deepcopy"
            assert type(fast) is type(live)
            mine: list[Any] = []
            theirs: list[Any] = []
            _mutables(fast, mine)
            _mutables(live, theirs)
            shared = {id(a) for a in mine} & {id(b) for b in theirs}
            assert not shared, f"seed {st.seed}: field {field} shares a mutable object with the live state"
            checked += 1
    assert checked > 500


def test_position_copy_of_nested_values_is_deep():
    units = {"u#1": undo.UndoPoint(None, 1, "movement", {"a": [1, [2, 3]]}, None)}  # a mutable dataclass
    c = undo.position_copy(units)
    c["u#1"].fields["a"][1].append(4)
    assert units["u#1"].fields["a"] == [1, [2, 3]]
    assert undo.position_copy(({"x"}, frozenset({"y"}), "s", 3)) == ({"x"}, frozenset({"y"}), "s", 3)


def test_fast_odds_solver_is_bit_identical_to_the_reference_on_a_whole_games_plans():
    plans: list[tuple[Any, ...]] = []
    real = odds._solve.__wrapped__

    def recording(plan):
        plans.append(plan)
        return real(plan)

    odds._odds_from.cache_clear()
    mp = pytest.MonkeyPatch()
    mp.setattr(odds, "_solve", recording)
    try:
        for _ in _games("skirmish", range(1), every=10**9):
            pass
        for _ in _games("kharkov", range(1), every=10**9):
            pass
    finally:
        mp.undo()
        odds._odds_from.cache_clear()
    assert len(plans) > 100
    for plan in plans:
        P, dead, no_miss, ff = real(plan)
        rP, rdead, rno_miss, rff = reference_solve(plan)
        assert P.tobytes() == rP.tobytes() and dead.tobytes() == rdead.tobytes(), plan
        assert (no_miss, ff) == (rno_miss, rff)


def test_balance_csv_for_fixed_seeds_is_unchanged_by_the_speedups(monkeypatch):
    kind = bal.game_kind("scenario")
    sources = [bal.load_scenario_source(s) for s in ("standard", "kharkov")]
    specs = bal.plan_games(
        kind, sources, [None], 1, 0, {"german": "standard", "soviet": "standard"}, bal.MAX_TURNS
    )
    fast = bal.records_csv(bal.run_balance(specs, quiet=True).records)
    odds._odds_from.cache_clear()
    monkeypatch.setattr(undo, "position_copy", copy.deepcopy)
    monkeypatch.setattr(odds, "_solve", lru_cache(maxsize=8192)(reference_solve))
    try:
        slow = bal.records_csv(bal.run_balance(specs, quiet=True).records)
    finally:
        odds._odds_from.cache_clear()
    assert fast.count("\n") == 3
    assert fast == slow


# -- issue 22, round 2: the shared listing of a position and the resumed odds solver -------------
def _fresh_listing(st, side):
    """The registry's listing computed from scratch (what turn.py did before the shared listing)."""
    from hexwar.game import turn

    eng = turn._engine(st)
    if st.result is not None or side != st.to_act:
        return []
    return list(eng.registry.options(st, side))


def _fresh_can_act(st, side):
    from hexwar.game import turn

    return next(turn._engine(st).registry.options(st, side, include_end=False), None) is not None


@pytest.mark.parametrize(
    "name,kind,variants",
    [
        ("skirmish", "random", None),
        ("standard", "random", None),
        ("kharkov", "standard", None),
        ("skirmish", "random", ("fog",)),
    ],
)
def test_shared_listing_and_can_act_equal_a_fresh_listing_at_every_decision(name, kind, variants):
    """Turn sequence (R5): the listing shared by ``_advance``'s check and the player is, at every
    decision of whole games, exactly the listing computed from scratch, for both sides; so are
    the remembered legal targets and weapon checks of the declaration phase."""
    from hexwar.game import targeting, turn

    sc = load_scenario(find_scenario(name))
    decisions = checks = 0
    for seed in range(2 if kind == "random" else 1):
        st = sc.new_game(seed=seed, variants=variants)
        players = {s: make_player(kind, s, seed) for s in ("german", "soviet")}
        while not st.over and st.turn <= 3:
            side = st.to_act
            # the order matters: can_act first pulls one command, the listing then the rest
            assert turn.can_act(st, side) == _fresh_can_act(st, side), (
                f"seed {seed} turn {st.turn} {st.phase}"
            )
            assert st.legal_commands(side) == _fresh_listing(st, side), (
                f"seed {seed} turn {st.turn} {st.phase}"
            )
            other = "soviet" if side == "german" else "german"
            assert turn.can_act(st, other) == _fresh_can_act(st, other), (
                f"seed {seed} turn {st.turn} {st.phase}"
            )
            assert st.legal_commands(other) == []
            if st.phase == "declaration":  # the position memo of targeting (R6.1, R7)
                for uid in sorted(st.units):
                    memo = targeting.legal_targets(st, side, uid)
                    assert memo == targeting._legal_targets(st, side, uid), f"seed {seed} {uid}"
                    for tid, at_crew, _ in memo:
                        for w in range(2):
                            assert targeting.weapon_problem(
                                st, uid, tid, w, at_crew
                            ) == targeting._weapon_problem(st, uid, tid, w, at_crew)
                            checks += 1
            st.apply(players[side].choose(st))
            decisions += 1
    assert decisions > 40
    assert checks > 0 or kind == "random"  # the standard players fight within three turns


def test_shared_listing_follows_a_command_and_is_not_used_under_fog():
    """A Move changes the position, so the next listing is computed anew (R5.3); under fog of
    war (R12.2) nothing is shared."""
    from hexwar.game import turn

    sc = load_scenario(find_scenario("skirmish"))
    st = sc.new_game(seed=3)
    players = {s: make_player("standard", s, 3) for s in ("german", "soviet")}
    while st.phase != "movement":
        st.apply(players[st.to_act].choose(st))
    before = st.legal_commands()
    assert turn._engine(st)._listing(st, st.to_act) is st.cache["listing"][1]
    move = next(c for c in before if type(c).__name__ == "Move")
    st.apply(move)
    after = st.legal_commands()
    assert after == _fresh_listing(st, st.to_act)
    assert after != before
    fog = sc.new_game(seed=3, variants=("fog",))
    assert turn._engine(fog)._listing(fog, fog.to_act) is None


def test_odds_solver_resumed_from_a_solved_prefix_gives_the_same_bits():
    """R6 odds: a plan solved after a plan sharing its first rolls (a Command-card bonus on a later
    roll, R1.3) equals the same plan solved from scratch and the reference solver, bit for bit."""
    plans: list[tuple[Any, ...]] = []
    real = odds._solve.__wrapped__

    def recording(plan):
        plans.append(plan)
        return real(plan)

    odds.clear_cache()
    mp = pytest.MonkeyPatch()
    mp.setattr(odds, "_solve", recording)
    try:
        for name in ("standard", "kharkov"):
            for _ in _games(name, range(1), every=10**9):
                pass
    finally:
        mp.undo()
    multi = [p for p in plans if len(p[7]) >= 2]
    assert len(multi) >= 5
    resumed = 0
    for plan in multi:
        head, rolls = plan[:7], plan[7]
        odds._PREFIXES.clear()
        cold = real(plan)
        # a sibling plan: the same first roll, a bonus to hit on the last one
        last = rolls[-1]
        sibling = (*head, (*rolls[:-1], (*last[:3], 1 - last[3], *last[4:])))
        odds._PREFIXES.clear()
        real(sibling)
        assert (head, rolls[:1]) in odds._PREFIXES
        warm = real(plan)
        ref = reference_solve(plan)
        for a, b, c in zip(cold, warm, ref, strict=True):
            assert np.asarray(a).tobytes() == np.asarray(b).tobytes() == np.asarray(c).tobytes(), plan
        resumed += 1
    odds.clear_cache()
    assert resumed == len(multi)


def test_remembered_landing_distribution_equals_a_fresh_one_and_is_a_new_dict():
    """R9.3: the remembered exact landing distribution is the one computed afresh (same hexes,
    same Fractions, same order); a caller changing its dict does not change the next answer."""
    from fractions import Fraction

    from hexwar.model.hexgrid import Hex
    from hexwar.rules import artillery

    for target, hit_on, bonus in [
        (Hex(0, 0), 4, 0),
        (Hex.from_offset(3, 5), 6, 1),
        (Hex.from_offset(0, 0), 5, 0),
    ]:
        fresh = dict(artillery._landing_items.__wrapped__(target, hit_on, bonus, 12, 10))
        first = artillery.exact_landing_distribution(target, hit_on, bonus, 12, 10)
        assert list(first.items()) == list(fresh.items())
        assert sum(first.values()) == 1
        first[target] = Fraction(0)
        again = artillery.exact_landing_distribution(target, hit_on, bonus, 12, 10)
        assert again is not first and list(again.items()) == list(fresh.items())
