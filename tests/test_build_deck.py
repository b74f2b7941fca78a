"""A side builds its own Reserves deck in setup (000 Standard Game Setup, R4.3; BuildDeck), and
the hard hex player's deck (hexwar/search/hexdeck.py): legal (80-100 points, the pool, at most
3 copies, a crew for each unit that needs one, R4.1, R10.4), the same every time (R1.2),
hidden from the other side (R12.1), replayed from a save (R1.2). The strength it gives is
measured in docs/scenarios.md (``hexwar balance --head-to-head``), never asserted here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hexwar.game import ruleset
from hexwar.game.ai import make_player
from hexwar.game.commands import BuildDeck, ChooseHand
from hexwar.game.save import parse_save, replay, save_data
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.game.state import card_of, check_invariants
from hexwar.game.view import view
from hexwar.search import hexdeck
from hexwar.search.hexgame import HexSearchPlayer

T, P = "de_tank_crew_regular", "de_pilot_regular"
#: a legal German deck of 98 points: 3 Pz IV H with crews, 2 Hs 129 with pilots, 3 Grenadiers
DECK_A = ("de_pz_iv_h", T) * 3 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 3
#: another of 13 cards too (92 points): 3 StuG III G with crews, 2 Ju 87 G with pilots, 3 MG teams
DECK_B = ("de_stug_iii_g", T) * 3 + ("de_ju87g", P) * 2 + ("de_mg42_team",) * 3


@pytest.fixture(scope="module")
def standard():
    return load_scenario(find_scenario("standard"))


def test_a_built_deck_replaces_the_dealt_one_with_fresh_instances(standard):
    """The dealt cards leave the game, the built ones come in numbered from 1; the invariants
    (every card exactly once) hold; the hand is then chosen from the built deck."""
    g = standard.new_game(5)
    dealt = list(g.reserves["german"])
    g.apply(BuildDeck("german", DECK_A))
    assert sorted(g.reserves["german"]) == sorted(
        ["de_pz_iv_h#1", "de_pz_iv_h#2", "de_pz_iv_h#3", f"{T}#1", f"{T}#2", f"{T}#3"]
        + ["de_hs129b#1", "de_hs129b#2", f"{P}#1", f"{P}#2"]
        + ["de_grenadiers#1", "de_grenadiers#2", "de_grenadiers#3"]
    )
    assert not set(dealt) & set(g.all_cards) - set(g.reserves["german"])
    assert check_invariants(g) == []
    g.apply(ChooseHand("german", ("de_pz_iv_h#1", f"{T}#1", "de_grenadiers#1", "de_grenadiers#2")))
    assert g.hand_units["german"] == ["de_pz_iv_h#1", f"{T}#1", "de_grenadiers#1", "de_grenadiers#2"]
    assert check_invariants(g) == []


@pytest.mark.parametrize(
    "deck, why",
    [
        (("de_pz_iv_h", T) * 3 + ("de_grenadiers",) * 2, "costs 61 points; it must cost 80-100"),
        (
            ("de_pz_iv_h", T) * 2 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 4,
            "4 copies of de_grenadiers; at most 3",
        ),
        (DECK_A[:-1] + ("de_pioniere", "de_mg42_team"), "costs 105 points"),
        (
            ("de_pz_iv_h",) * 3 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 3 + (T, T),
            "3 units need a tank crew and the deck has 2",
        ),
        (DECK_A[:-1] + ("de_panther_d",), "not in the scenario's pool"),
        (DECK_A[:-1] + ("su_rifles",), "is a soviet card"),
        (DECK_A[:-1] + ("de_grenadiers#1",), "not a card instance"),
    ],
)
def test_a_deck_outside_the_limits_is_refused_and_changes_nothing(standard, deck, why):
    """000 / R4.3 points, R10.4 copies, R4.1 crews, the pool: refused with the reason, the
    dealt deck kept."""
    g = standard.new_game(5)
    before = list(g.reserves["german"])
    problem = g.check(BuildDeck("german", deck))
    assert problem is not None and why in problem, problem
    assert g.reserves["german"] == before


def test_no_deck_is_built_after_the_hand_or_for_a_fixed_deck(standard):
    """The deck comes before the hand (000), and a scenario's fixed ``reserves`` stay (kharkov)."""
    g = standard.new_game(5)
    g.apply(make_player("normal", "german", 5).choose(g))
    assert g.to_act == "soviet"
    g2 = standard.new_game(5)
    g2.apply(BuildDeck("german", DECK_A))
    g2.apply(ChooseHand("german", tuple(g2.reserves["german"][:4])))
    assert g2.check(BuildDeck("german", DECK_A)) is not None  # not its turn, and its hand is chosen
    k = load_scenario(find_scenario("kharkov")).new_game(5)
    assert "fixed Reserves deck" in (k.check(BuildDeck(k.to_act, DECK_A)) or "")


def test_the_other_side_cannot_tell_which_deck_was_built(standard):
    """R12.1: two games that differ only in the German deck built (same number of cards) give
    the Soviet seat the same view and log, byte for byte; the German seat sees its cards."""
    views = []
    for deck in (DECK_A, DECK_B):
        g = standard.new_game(11)
        g.apply(BuildDeck("german", deck))
        v = view(g, "soviet")
        views.append((v.hash, v.log))
        assert sorted(card_of(c) for c in view(g, "german").data["reserves"]["german"]) == sorted(deck)
    assert views[0] == views[1]


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_the_hard_players_deck_is_legal_and_the_same_every_time(standard, side):
    """hexdeck.plan_deck: passes the game's check, 80-100 points, at most 3 copies, a crew for
    each unit that needs one; a pure function of the scenario (the cache cleared, the same)."""
    deck = hexdeck.plan_deck(standard, side)
    assert deck is not None
    from hexwar.game.actions.build_deck import deck_problem

    assert deck_problem(standard.sides[side], side, deck) is None
    assert 80 <= sum(ruleset.cost(c) for c in deck) <= 100
    units = Counter(c for c in deck if not ruleset.is_crew(c))
    assert max(units.values()) <= 3
    assert all(c in standard.sides[side].pool for c in deck)
    need = Counter(
        ruleset.crew_required(c) for c in deck if ruleset.crew_required(c) not in (None, "infantry")
    )
    have = Counter(ruleset.unit_type(c) for c in deck if ruleset.is_crew(c))
    assert all(have[k] >= n for k, n in need.items())
    hexdeck._TABLES.clear()
    assert hexdeck.plan_deck(standard, side) == deck


def test_the_hard_players_deck_by_hand(standard):
    """The rates that pick it (exact odds, R6): the German Hs 129 B, which the Soviet pool hits
    only with machine guns, rates highest, then the Tiger; a gun that cannot move is scaled by
    its range over the distance between the deploy zones (the PaK 40: 12 of 25 hexes). The deck
    is 3 Hs 129 B with pilots (48 points, under AIR_SHARE's 55) and 2 Tigers with crews: 100."""
    rates = {c: hexdeck.deck_rate(standard, "german", c) for c in hexdeck.exchange_table(standard, "german")}
    best = sorted(rates, key=lambda c: -rates[c])
    assert best[:2] == ["de_hs129b", "de_tiger_i"]
    assert hexdeck.reach(standard, "german", "de_pak40") == pytest.approx(12 / 25)
    assert hexdeck.reach(standard, "german", "de_pz_iv_h") == 1.0
    assert sorted(hexdeck.plan_deck(standard, "german")) == sorted(
        ["de_hs129b", P] * 3 + ["de_tiger_i", T] * 2
    )


def test_the_hard_player_builds_then_chooses_and_the_save_replays(standard):
    """In setup the hard player issues BuildDeck, then a hand from that deck; the normal player
    keeps the deal. A save of the game replays to the same state (R1.2)."""
    g = standard.new_game(3)
    dealt_soviet = sorted(g.reserves["soviet"])
    players = {
        "german": HexSearchPlayer("german", 3, iterations=2),
        "soviet": make_player("normal", "soviet", 3),
    }
    first = players["german"].choose(g)
    assert isinstance(first, BuildDeck)
    assert list(first.cards) == hexdeck.plan_deck(standard, "german")
    g.apply(first)
    second = players["german"].choose(g)
    assert isinstance(second, ChooseHand)
    g.apply(second)
    g.apply(players["soviet"].choose(g))
    assert sorted(g.reserves["soviet"] + g.hand_units["soviet"]) == dealt_soviet
    for _ in range(40):
        if g.over:
            break
        g.apply(players[g.to_act].choose(g))
    again = replay(parse_save(save_data(g)), standard)
    assert again.state_hash() == g.state_hash()
    assert [c.to_json() for c in again.commands][:1] == [first.to_json()]


def test_the_hard_player_keeps_a_fixed_deck():
    """kharkov's decks are fixed: the hard player's first setup command is its hand."""
    k = load_scenario(find_scenario("kharkov")).new_game(5)
    if k.phase != "setup":
        pytest.skip("kharkov fixes both hands")
    assert not isinstance(HexSearchPlayer(k.to_act, 5, iterations=2).choose(k), BuildDeck)


def test_the_hard_players_deck_does_not_read_the_other_sides_deal(standard):
    """R12.1: the deck comes from the scenario file alone: games whose Soviet deals differ (and
    whose German deals differ) get the same German BuildDeck, and the Soviet hard player's
    BuildDeck is the same after different German builds (13 and 12 cards)."""
    firsts, soviet = set(), set()
    for seed, deck in ((3, DECK_A), (7, DECK_B[:-1])):  # Soviet deals of 17 and 14 cards
        g = standard.new_game(seed)
        firsts.add(HexSearchPlayer("german", seed, iterations=2).choose(g))
        g.apply(BuildDeck("german", deck))
        g.apply(ChooseHand("german", tuple(g.reserves["german"][:4])))
        soviet.add(HexSearchPlayer("soviet", seed, iterations=2).choose(g))
    assert len(firsts) == 1 and len(soviet) == 1
    assert isinstance(next(iter(soviet)), BuildDeck)


def test_every_reason_a_deck_is_refused_is_named(standard):
    """``deck_problems`` names them all, in order (pool, points, copies, crews; R4.3, R10.4,
    R4.1); ``deck_problem`` (the engine's refusal) is the first of them."""
    from hexwar.game.actions.build_deck import deck_problem, deck_problems

    ss = standard.sides["german"]
    # 4 Pz IV H (60) + 1 crew (2) + 2 Panthers (off the pool) + 4 Grenadiers
    deck = ("de_pz_iv_h",) * 4 + (T, "de_panther_d", "de_panther_d") + ("de_grenadiers",) * 4
    found = deck_problems(ss, "german", deck)
    total = sum(ruleset.cost(c) for c in deck)
    assert found == [
        "de_panther_d is not in the scenario's pool for german",
        f"the deck costs {total} points; it must cost 80-100 (000 Standard Game Setup)",
        "4 copies of de_grenadiers; at most 3 (R10.4)",
        "4 copies of de_pz_iv_h; at most 3 (R10.4)",
        "6 units need a tank crew and the deck has 1 (R4.1)",
    ]
    assert deck_problem(ss, "german", deck) == found[0]
    assert deck_problems(ss, "german", DECK_A) == [] and deck_problem(ss, "german", DECK_A) is None
    # an id that is no card of the side: the points are not judged (its cost is unknown)
    assert deck_problems(ss, "german", ("su_rifles", "nope")) == [
        deck_problem(ss, "german", ("su_rifles",)),
        deck_problem(ss, "german", ("nope",)),
    ]
