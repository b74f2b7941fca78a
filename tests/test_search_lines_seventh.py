"""The hard lines player's seventh-session variants (issue 31), off in the shipped player
(measured, neither did better: docs/lines.md, "Tried in the seventh session"): sequential
halving over wider Declaration Phase candidates (``DECL_WIDE``,
:func:`hexwar.search.core.halving_search`; R6.1) and a rollout score that takes off the luck of
the resolved attacks (``LUCK_ADJUST``, :func:`hexwar.search.lines.expected_resolution_vp`; R6
odds, R6.2 void attacks, R1.3 the +1).

Cheap: a toy search game with known values, one constructed Resolution Phase, a few seeded
decisions and one short hard game at a tiny budget.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_search_lines_budget import _first  # the seeded game at its first such decision
from test_search_lines_policy import PZ, RIFLES, T34, _resolution

import hexwar.search.lines as search_lines
from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.commands import Declare, Resolve
from hexwar.lines.odds import declare_odds
from hexwar.lines.state import Phase
from hexwar.search.core import halving_search
from hexwar.search.lines import LinesSearchGame, LinesSearchPlayer, expected_resolution_vp

SHIPPED = "c62268667baf7df6e445efad66ca0967d50602856349dbf4aef5de4c3c9d453f"


class _Toy:
    """A search game whose candidate ``k`` scores ``offset[k]`` plus a large noise drawn from
    the world (the same for every candidate of a world: what common random numbers pair off)."""

    def __init__(self, offsets):
        self.offsets = offsets
        self.played: list[tuple[int, float]] = []

    def candidates(self, state, seat, rng):
        return list(range(len(self.offsets)))

    def determinize(self, state, seat, rng):
        return {"noise": float(rng.normal(0.0, 100.0))}

    def legal(self, state, move):
        return True

    def apply(self, state, move):
        state["move"] = move

    def rollout(self, state, seat, start):
        pass

    def evaluate(self, state, seat):
        self.played.append((state["move"], state["noise"]))
        return state["noise"] + self.offsets[state["move"]]


def test_halving_plays_every_survivor_in_the_same_worlds_and_halves_the_field():
    """8 candidates, budget 96: 3 rounds of 32 rollouts; 8 x 4 worlds, then the first and the
    best 3 others x 8 more, then the first and the best other x 16 more. A gain of 1 point
    under a noise of 100 is found exactly, because every candidate meets the same worlds."""
    toy = _Toy([0, 0, 0, 1.0, 0, 0, 0, 0])
    move, stats = halving_search(toy, None, "german", 96, np.random.default_rng(5))
    assert move == 3 and stats.chosen == 3
    assert stats.visits[0] == stats.visits[3] == 4 + 8 + 16
    assert sorted(stats.visits) == [4, 4, 4, 4, 12, 12, 28, 28]
    assert stats.iterations == sum(stats.visits) == 96
    worlds: dict[int, set[float]] = {}
    for k, noise in toy.played:
        worlds.setdefault(k, set()).add(noise)
    assert worlds[3] == worlds[0]  # the survivor met exactly the first candidate's worlds


def test_halving_keeps_the_first_candidate_when_no_gain_clears_the_margin():
    """No candidate is better (all offsets 0, or a gain under the 0.5 margin): the first stays."""
    for offsets in ([0.0] * 5, [0, 0.4, 0.3, 0, 0]):
        move, stats = halving_search(_Toy(offsets), None, "german", 60, np.random.default_rng(1))
        assert move == 0 and stats.chosen == 0, offsets
    move, stats = halving_search(_Toy([0.0]), None, "german", 60, np.random.default_rng(1))
    assert move == 0 and stats.iterations == 0


def _at_declaration(name: str, seed: int, least: int):
    return _first(
        name,
        seed,
        lambda s: (
            s.phase == Phase.DECLARATION
            and len({(c.unit, c.target) for c in s.legal_commands(s.to_act) if isinstance(c, Declare)})
            >= least
        ),
    )


@pytest.mark.parametrize(("name", "seed"), [("lines", 4), ("lines-4p", 1)])
def test_wide_declarations_put_the_standard_choice_first_then_one_per_target_by_value(
    monkeypatch, name, seed
):
    """R6.1: the standard player's declaration first, then at most one declaration per unit and
    target (the weapons the standard player values most), best value first, every one legal."""
    monkeypatch.setattr(search_lines, "DECL_WIDE", True)
    g = _at_declaration(name, seed, 4)
    seat = g.to_act
    game = LinesSearchGame(seed, seat.split("-")[0])
    cands = game.candidates(g, seat, np.random.default_rng(0))
    assert cands[0] == LinesAI(seat, seed).choose(g)
    assert 4 <= len(cands) <= search_lines.DECL_CANDIDATES
    assert len(set(cands)) == len(cands) and all(g.check(c) is None for c in cands)
    rest = cands[1:]
    keys = [(c.unit, c.target, c.at_crew) for c in rest]
    assert len(set(keys)) == len(keys)
    assert (cands[0].unit, cands[0].target, cands[0].at_crew) not in keys
    std = LinesAI(seat, seed)
    doomed: dict[str, float] = {}
    for a in g.attacks.values():
        if a.seat.split("-")[0] == seat.split("-")[0] and not a.close_assault:
            doomed[a.target] = (
                doomed.get(a.target, 0.0) + declare_odds(g, a.attackers[0], a.target, a.weapons).destroyed
            )
    values = [std._ev(g, c, doomed) for c in rest]
    assert values == sorted(values, reverse=True)
    for c, v in zip(rest, values, strict=True):  # the weapons valued most on that target
        same = [
            d
            for d in g.legal_commands(seat)
            if isinstance(d, Declare) and (d.unit, d.target) == (c.unit, c.target)
        ]
        assert v == max(std._ev(g, d, doomed) for d in same)
    monkeypatch.setattr(search_lines, "DECL_WIDE", False)
    assert len(game.candidates(g, seat, np.random.default_rng(0))) <= search_lines.MAX_CANDIDATES


def test_the_expected_points_of_a_resolution_are_its_exact_odds():
    """R6: the attack's own odds as it stands; R1.3: with the Command card's +1 when the Resolve
    names one; R6.2: 0 for a void attack."""
    st = _resolution(soviet_declares=True)
    on_t34 = declare_odds(st, PZ, T34, (0,))
    on_t34_bonus = declare_odds(st, PZ, T34, (0,), bonus=True)
    assert on_t34_bonus.expected_vp > on_t34.expected_vp
    assert expected_resolution_vp(st, Resolve("german", 1, None)) == on_t34.expected_vp
    card = st.hand_commands["german"][0]
    assert expected_resolution_vp(st, Resolve("german", 1, card)) == on_t34_bonus.expected_vp
    assert expected_resolution_vp(st, Resolve("german", 9, None)) is None  # no such attack
    del st.units[RIFLES]
    st.lines["soviet"]["front"].remove(RIFLES)
    assert expected_resolution_vp(st, Resolve("german", 2, None)) == 0.0


def test_the_luck_of_the_resolved_attacks_averages_out():
    """The points a resolution scores, less its expected points, average 0 over the dice (the
    adjustment leaves the scores' mean alone): attack 1 of the constructed phase, 400 seeds,
    within 4 standard errors; and the adjusted score is the raw one less the luck."""
    base = _resolution(soviet_declares=True)
    cmd = Resolve("german", 1, None)
    e = expected_resolution_vp(base, cmd)
    got = []
    for seed in range(400):
        st = search_lines.determinize_lines(base, "german", np.random.default_rng(seed))
        before = st.vp["german"]
        st.apply(cmd)
        got.append(st.vp["german"] - before - e)
    mean = float(np.mean(got))
    se = float(np.std(got, ddof=1)) / np.sqrt(len(got))
    assert se > 0 and abs(mean) < 4 * se, (mean, se)


def test_the_luck_adjusted_score_is_the_raw_score_less_the_luck(monkeypatch):
    """``evaluate`` with ``LUCK_ADJUST``: the raw evaluation less (own luck - enemy luck), the
    luck counted from the root move on."""
    base = _resolution(soviet_declares=True)
    game = LinesSearchGame(3, "german")
    st = search_lines.determinize_lines(base, "german", np.random.default_rng(2))
    monkeypatch.setattr(search_lines, "LUCK_ADJUST", True)
    cmd = Resolve("german", 1, None)
    e = expected_resolution_vp(st, cmd)
    before = st.vp["german"]
    game.apply(st, cmd)
    luck = st.vp["german"] - before - e
    assert game.luck == {"german": luck, "soviet": 0.0}
    adjusted = game.evaluate(st, "german")
    monkeypatch.setattr(search_lines, "LUCK_ADJUST", False)
    assert adjusted == game.evaluate(st, "german") - luck


def test_the_shipped_hard_player_is_unchanged_and_the_variants_are_one_game_a_seed(monkeypatch):
    """Both switches are off in the shipped player (its short seeded game as at commit e8342a9);
    switched on, the game is still one per seed (R1.2) and differs somewhere."""

    def play():
        g = load_scenario("lines").new_game(seed=5)
        players = {s: LinesSearchPlayer(s, 5, 8) if s == "soviet" else LinesAI(s, 5) for s in g.seats}
        while not g.over and g.turn <= 3:
            g.apply(players[g.to_act].choose(g))
        return g.state_hash()

    assert search_lines.DECL_WIDE is False and search_lines.LUCK_ADJUST is False
    assert play() == SHIPPED
    for flag in ("DECL_WIDE", "LUCK_ADJUST"):
        monkeypatch.setattr(search_lines, flag, True)
        a, b = play(), play()
        assert a == b and a != SHIPPED, flag
        monkeypatch.setattr(search_lines, flag, False)
