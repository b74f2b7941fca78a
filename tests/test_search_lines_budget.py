"""How the hard lines player spends its budget (issue 31: more sampled worlds per candidate; R1.2
seeds, R12.1 views).

Hand arithmetic from the module's constants: ``HARD_ITERATIONS`` 64 rollouts over ``WORLDS`` 16
sampled worlds a candidate = 4 candidates (``MAX_CANDIDATES``); the Resolution Phase gets 64 x 6
// 4 = 96 rollouts = 6 candidates x 16 worlds; the setup 64 x 4 x 18 // (4 x 16) = 72 rollouts =
4 starting hands x 18 worlds (``HAND_WORLDS``).
"""

from __future__ import annotations

import numpy as np
import pytest

import hexwar.search.lines as search_lines
from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.state import Phase
from hexwar.search.lines import LinesSearchGame, LinesSearchPlayer
from tests.test_search_lines import _twin


def _first(name: str, seed: int, want):
    """The seeded standard game at its first decision for which ``want(state)`` holds."""
    g = load_scenario(name).new_game(seed=seed)
    players = {s: LinesAI(s, seed) for s in g.seats}
    while not g.over:
        if want(g):
            return g
        g.apply(players[g.to_act].choose(g))
    raise AssertionError(f"{name} seed {seed}: no such decision")


def _cands(g) -> int:
    return len(LinesSearchGame(0).candidates(g, g.to_act, np.random.default_rng(0)))


@pytest.mark.parametrize(
    ("phase", "least", "visits"),
    [
        (Phase.SETUP, 4, [18, 18, 18, 18]),
        (Phase.DECLARATION, 4, [16, 16, 16, 16]),
        (Phase.RESOLUTION, 6, [16] * 6),
    ],
)
def test_every_searched_candidate_is_played_in_the_same_number_of_worlds(phase, least, visits):
    """Each candidate gets its 16 (setup: 18) sampled worlds, the same worlds for all (paired)."""
    seed = 4
    g = _first("lines", seed, lambda s: s.phase == phase and _cands(s) >= least)
    p = LinesSearchPlayer(g.to_act, seed)
    move = p.choose(g)
    assert g.check(move) is None
    assert p.last.visits[: len(visits)] == visits, f"seed {seed} {phase}: {p.last.visits}"
    assert sum(p.last.visits) == p.last.iterations == sum(visits)


@pytest.mark.parametrize("extra", [0, 1])
def test_the_rollout_stops_at_the_end_of_the_turns_combat_plus_the_horizon(monkeypatch, extra):
    """From a Commitment decision of turn t the rollout plays to the Draw Phase of turn t (with
    ``HORIZON_TURNS`` = 1: of turn t + 1), or to the end of the game."""
    monkeypatch.setattr(search_lines, "HORIZON_TURNS", extra)
    seed = 5
    g = _first("lines", seed, lambda s: s.phase == Phase.COMMITMENT and s.turn == 2)
    game = LinesSearchGame(seed)
    w = search_lines.determinize_lines(g, g.to_act, np.random.default_rng(seed))
    game.rollout(w, g.to_act, g)
    assert w.over or (w.turn, w.phase) == (2 + extra, Phase.DRAW), f"seed {seed}: {w.turn} {w.phase}"


def test_the_hard_player_at_its_full_budget_decides_the_same_when_the_hidden_cards_change():
    """R12.1 at the real budget (the existing test uses a tiny one): the other hands, the decks'
    order and the dice dealt anew give the same command."""
    seed = 11
    g = load_scenario("lines").new_game(seed=seed)
    players = {s: LinesAI(s, seed) for s in g.seats}
    checked = 0
    while not g.over and checked < 6:
        seat = g.to_act
        if g.phase != Phase.DRAW and _cands(g) >= 2:
            twin = _twin(g, seat, len(g.commands))
            a = LinesSearchPlayer(seat, seed).choose(g)
            b = LinesSearchPlayer(seat, seed).choose(twin)
            assert a == b, f"seed {seed}, command {len(g.commands)}: {a} vs {b}"
            checked += 1
        g.apply(players[seat].choose(g))
    assert checked == 6
