"""The hard lines player and the search framework (issue 31; R12.1 views, R1.2 seeds, 000 setup).

Cheap by design: tiny budgets, a few short games. The strength figures are in docs/lines.md
(``hexwar lines balance --ai-level ...``), never asserted here.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from hexwar.errors import HexwarError
from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.commands import Draw
from hexwar.lines.players import make_lines_player
from hexwar.lines.view import seat_view
from hexwar.search.core import determinized_search, search_rng
from hexwar.search.lines import (
    EasyLinesPlayer,
    LinesSearchGame,
    LinesSearchPlayer,
    determinize_lines,
    every_hand,
)


def _twin(g, seat, seed):
    """The same game with everything ``seat`` cannot see dealt differently: the other seats'
    hands and Reserves decks swapped around within each seat, the Command deck and the other
    hands' Command cards reshuffled, the Damage deck and the seat's own Reserves order
    reshuffled, the dice reseeded."""
    t = copy.deepcopy(g, {id(g.scenario): g.scenario})
    rng = np.random.default_rng(seed)
    others = [s for s in t.seats if s != seat]
    for o in others:
        pool = t.hand_units[o] + t.reserves[o]
        rng.shuffle(pool)
        n = len(t.hand_units[o])
        t.hand_units[o], t.reserves[o] = pool[:n], pool[n:]
    pool = [c for o in others for c in t.hand_commands[o]] + t.command_deck
    rng.shuffle(pool)
    at = 0
    for o in others:
        n = len(t.hand_commands[o])
        t.hand_commands[o] = pool[at : at + n]
        at += n
    t.command_deck = pool[at:]
    rng.shuffle(t.damage_deck)
    rng.shuffle(t.reserves[seat])
    t.dice.rng = np.random.default_rng(seed + 1)
    return t


@pytest.mark.parametrize("name", ["lines", "lines-4p"])
def test_every_determinized_game_shows_the_seat_the_same_view(name):
    """EXAMPLES 2 (open_spiel's assertion): each sample has the searching seat's view (R12.1),
    and the samples really differ from the game in what the seat cannot see."""
    sc = load_scenario(name)
    g = sc.new_game(seed=4)
    players = {s: LinesAI(s, 4) for s in g.seats}
    rng = np.random.default_rng(0)
    differ = checked = 0
    while not g.over and len(g.commands) < 160:
        seat = g.to_act
        w = determinize_lines(g, seat, rng)
        assert seat_view(w, seat) == seat_view(g, seat), f"{name} seed 4, command {len(g.commands)}"
        others = [s for s in g.seats if s != seat]
        differ += any(w.hand_units[o] != g.hand_units[o] for o in others) or w.command_deck != g.command_deck
        checked += 1
        w.apply(players[seat].choose(w))  # the sample plays on without touching the game
        g.apply(players[seat].choose(g))
    assert checked >= 60 and differ >= checked // 2


def test_the_hard_player_decides_the_same_when_every_hidden_card_is_dealt_differently():
    """R12.1: the hard player's decisions depend on its view only: the other hands, the decks'
    order and the dice dealt anew (the same cards unseen) give the same command each time."""
    sc = load_scenario("lines")
    g = sc.new_game(seed=11)
    players = {s: LinesAI(s, 11) for s in g.seats}
    checked = 0
    while not g.over and len(g.commands) < 120:
        seat = g.to_act
        if len(g.legal_commands(seat)) > 1 and len(g.commands) % 3 == 0:
            twin = _twin(g, seat, len(g.commands))
            assert twin.hand_units != g.hand_units or twin.command_deck != g.command_deck
            a = LinesSearchPlayer(seat, 11, iterations=4).choose(g)
            b = LinesSearchPlayer(seat, 11, iterations=4).choose(twin)
            assert a == b, f"seed 11, command {len(g.commands)}: {a} vs {b}"
            checked += 1
        g.apply(players[seat].choose(g))
    assert checked >= 10


def test_every_hand_counts_copies_and_is_never_cut():
    """000 setup: two copies of a card are a legal hand; 4 kinds (a x2, b, c, d x3) choose 2:
    the multisets aa ab ac ad bc bd cd dd = 8 (bb and cc need a second copy)."""
    res = ["a#1", "a#2", "b#1", "c#1", "d#1", "d#2", "d#3"]
    hands = every_hand(res, 2)
    assert len(hands) == 8 and ("a#1", "a#2") in hands and ("d#1", "d#2") in hands
    assert ("b#1", "b#1") not in hands and len(set(hands)) == 8
    # a real deck: more hands than the rules' listing (distinct kinds, cut at 200)
    g = load_scenario("lines").new_game(seed=2)
    seat = g.to_act
    listed = g.legal_commands(seat)
    mine = every_hand(g.reserves[seat], 4)
    assert len(mine) > len(listed)
    assert all(g.check(type(listed[0])(seat, h)) is None for h in mine)


def test_the_hard_players_starting_hand_is_the_best_fieldable_one_of_every_hand():
    g = load_scenario("lines").new_game(seed=3)
    seat = g.to_act
    cands = LinesSearchGame(3).candidates(g, seat, np.random.default_rng(0))
    best = max(LinesAI._fieldable(list(h)) for h in every_hand(g.reserves[seat], 4))
    assert LinesAI._fieldable(list(cands[0].cards)) == best


@pytest.mark.parametrize("maker", [LinesAI, lambda s, seed: LinesSearchPlayer(s, seed, 3)])
def test_no_player_draws_more_from_the_reserves_deck_than_it_holds(maker):
    """Issue 31: the player drew from an empty Reserves deck."""
    for seed in (1, 2):
        g = load_scenario("lines").new_game(seed=seed)
        players = {s: maker(s, seed) for s in g.seats}
        while not g.over:
            c = players[g.to_act].choose(g)
            if isinstance(c, Draw):
                assert c.extra.count("reserves") <= len(g.reserves[c.seat]), f"seed {seed}: {c}"
            g.apply(c)


def test_the_same_seed_gives_the_same_hard_game():
    """R1.2: the search's generator comes from the seed, the seat and the command count."""
    sc = load_scenario("lines")
    hashes = []
    for _ in range(2):
        g = sc.new_game(seed=5)
        players = {s: LinesSearchPlayer(s, 5, 4) if s == "german" else LinesAI(s, 5) for s in g.seats}
        while not g.over and g.turn <= 3:
            g.apply(players[g.to_act].choose(g))
        hashes.append(g.state_hash())
    assert hashes[0] == hashes[1]


def test_the_search_compares_candidates_on_the_same_worlds_and_spends_its_budget():
    g = load_scenario("lines").new_game(seed=6)
    game = LinesSearchGame(6)
    while g.phase != "declaration" or len(g.legal_commands()) < 3:
        g.apply(LinesAI(g.to_act, 6).choose(g))
    seat = g.to_act
    move, stats = determinized_search(game, g, seat, 9, search_rng(6, 0, len(g.commands)))
    tried = [v for v in stats.visits if v]
    assert len(tried) == 3 and tried == [3, 3, 3] == stats.visits[:3]  # budget 9: 3 candidates x 3 worlds
    assert g.check(move) is None


def test_levels_by_name_and_bad_budget():
    assert isinstance(make_lines_player("hard", "german", 1), LinesSearchPlayer)
    assert isinstance(make_lines_player("easy", "soviet", 1), EasyLinesPlayer)
    assert isinstance(make_lines_player("normal", "soviet", 1), LinesAI)
    with pytest.raises(HexwarError, match="iterations"):
        LinesSearchPlayer("german", 0, -1)
    with pytest.raises(HexwarError, match="unknown computer player"):
        make_lines_player("expert", "german")
