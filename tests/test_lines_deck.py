"""The hard lines player builds its Reserves deck (000 Standard Game Setup, issue 31): within
the game's limits and the scenario card's restrictions, its commander's units only in the
4-player game, a crew for every unit that needs one (R4.1), from public knowledge only (R12.1),
and the same deck for every seed (R1.2); the standard player keeps the deal."""

from __future__ import annotations

import json
from collections import Counter

from hexwar.cli import main
from hexwar.lines.balance import load_lines_source, play_lines_game
from hexwar.lines.rules import card_id_of, role_of
from hexwar.lines.scenario import deck_problems, default_cards, seat_budget
from hexwar.search.hexdeck import AIR_SHARE, attack_value
from hexwar.search.lines_deck import COPIES, plan_lines_deck, with_hard_decks

CARDS = default_cards()


def test_every_built_deck_is_one_the_game_allows():
    for name in ("lines", "lines-4p", "lines_ponyri", "lines_prokhorovka", "lines_kharkov", "lines_bukrin"):
        _, sc = load_lines_source(name)
        for seat in sc.seats:
            deck = plan_lines_deck(sc, seat)
            assert deck is not None, (name, seat)
            side = seat.split("-")[0]
            role = None if len(sc.seats) == 2 else seat.split("-", 1)[1]
            lo, hi = seat_budget(sc, side)
            errors, warnings = deck_problems(side, list(deck), (lo, hi), role)
            assert errors == [] and warnings == [], (name, seat, errors, warnings)
            units = [c for c in deck if not CARDS.unit(c).is_crew]
            assert max(Counter(units).values()) <= COPIES
            air = sum(CARDS.unit(c).cost for c in units if CARDS.unit(c).unit_type == "aircraft")
            air += sum(CARDS.unit(c).cost for c in deck if CARDS.unit(c).unit_type == "pilot")
            assert air <= AIR_SHARE * hi + 1e-9, (name, seat, air)
            if role is not None:
                assert all(role_of(c) == role for c in units), (name, seat)
            # each unit that needs a crew is followed by one of its kind (R4.1)
            for i, c in enumerate(deck):
                u = CARDS.unit(c)
                if not u.is_crew and u.needs_crew:
                    assert CARDS.unit(deck[i + 1]).unit_type == u.crew, (name, seat, c)
            assert plan_lines_deck(sc, seat) == deck  # a pure function of the scenario card


def test_the_first_card_is_the_best_exchange_rate_of_the_pool():
    """``lines``, the German seat: the Hs 129 B's rate (victory points its attacks take over
    those the Soviet cards take off it, exact odds averaged over the Soviet pool) is the
    pool's best, so it leads the deck, three copies, each with its pilot."""
    _, sc = load_lines_source("lines")
    theirs = sorted({c for c in sc.sides["soviet"].pool if not CARDS.unit(c).is_crew})
    mine = sorted({c for c in sc.sides["german"].pool if not CARDS.unit(c).is_crew})

    def rate(c):
        off = sum(attack_value(c, e) for e in theirs) / len(theirs)
        dfn = sum(attack_value(e, c) for e in theirs) / len(theirs)
        return off / max(dfn, 0.25)

    best = max((c for c in mine if CARDS.unit(c).unit_type != "crew"), key=rate)
    deck = plan_lines_deck(sc, "german")
    assert best == "de_hs129b" and deck[:6] == ("de_hs129b", "de_pilot_regular") * 3


def test_only_hard_seats_build_and_a_given_deck_stays():
    _, sc = load_lines_source("lines")
    assert with_hard_decks(sc, {"german": "normal", "soviet": "standard"}) is sc
    built = with_hard_decks(sc, {"german": "hard", "soviet": "normal"})
    assert set(built.decks) == {"german"} and built.decks["german"] == plan_lines_deck(sc, "german")
    assert sc.decks == {}  # the scenario itself is not changed
    mine = ("de_tiger_i", "de_tank_crew_regular") * 2 + ("de_grenadiers",) * 6
    given = sc.with_decks({"german": mine})
    assert with_hard_decks(given, {"german": "hard"}).decks == {"german": mine}
    _, sc4 = load_lines_source("lines-4p")
    four = with_hard_decks(sc4, {"soviet": "hard"})  # a side names both of its commanders
    assert set(four.decks) == {"soviet-front", "soviet-support"}


def test_a_hard_seat_plays_its_built_deck_and_the_standard_seat_the_deal():
    _, sc = load_lines_source("lines")
    st = play_lines_game(sc, 11, None, {"german": "hard", "soviet": "normal"}, 0)
    held = Counter(card_id_of(c) for c in st.reserves["german"] + st.hand_units["german"])
    assert held == Counter(plan_lines_deck(sc, "german"))
    dealt = sc.new_game(seed=11)
    soviet = Counter(card_id_of(c) for c in st.reserves["soviet"] + st.hand_units["soviet"])
    assert soviet != Counter(plan_lines_deck(sc, "soviet"))
    assert Counter(card_id_of(c) for c in dealt.reserves["german"]) != held


def test_play_lines_saves_the_built_deck_and_replays(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = main(
        ["play", "lines", "--headless", "--ai", "german,soviet", "--ai-level", "german=hard",
         "--seed", "4", "--turns", "1", "--save", "g.json", "--json"]
    )  # fmt: skip
    assert rc == 0, capsys.readouterr().err
    data = json.loads((tmp_path / "g.json").read_text())
    _, sc = load_lines_source("lines")
    assert tuple(data["setup"]["decks"]["german"]) == plan_lines_deck(sc, "german")
    assert "soviet" not in data["setup"]["decks"]
    capsys.readouterr()
    rc = main(["replay", "g.json", "--verify"])
    assert rc == 0 and "replays exactly" in capsys.readouterr().out


def test_a_saves_tampered_deck_is_one_short_problem_each():
    """fresh9b: a save's ``setup.decks`` (a hard seat's built deck, a ``--deck``) edited by hand
    is refused in one short line: 200 cards read "expected a list of unit card ids" (it is
    one), a card of the other side given twice was named twice, and an unknown card id or
    seat of 100,000 characters was echoed whole."""
    import pytest

    from hexwar.errors import HexwarError

    _, sc = load_lines_source("lines")
    deck = list(plan_lines_deck(sc, "soviet"))

    def refusal(decks):
        with pytest.raises(HexwarError) as exc:
            sc.with_setup({"decks": decks})
        return str(exc.value)

    assert refusal({"soviet": deck * 20}) == "decks.soviet: 200 cards; a Reserves deck holds at most 100"
    assert refusal({"soviet": [1, 2]}) == "decks.soviet: expected a list of unit card ids"
    swapped = ["de_tiger_i" if c == "su_su152" else c for c in deck]
    assert refusal({"soviet": swapped}) == "decks.soviet: de_tiger_i is a german card, not soviet"
    long_id = refusal({"soviet": deck + ["x" * 100_000]})
    assert long_id.startswith("decks.soviet: unknown unit card 'xxx") and len(long_id) < 200, len(long_id)
    assert long_id.endswith("... (100000 characters)")
    suffixed = refusal({"soviet": deck + ["de_tiger_i#" + "9" * 100_000]})
    assert len(suffixed) < 250 and suffixed.endswith("is a german card, not soviet"), suffixed[-80:]
    seat = refusal({"s" * 100_000: deck})
    assert len(seat) < 200 and seat.endswith(": not a seat of lines"), seat[-80:]
    assert sc.with_setup({"decks": {"soviet": deck}}).decks == {"soviet": tuple(deck)}


def test_the_built_deck_never_depends_on_the_deck_the_person_was_given():
    """R12.1: a person's Reserves deck is their secret (only its size is seen). The hard seat
    builds from the scenario card alone (the enemy's pool), so a person's ``--deck`` (or one
    built on the start page) never changes it: the same deck against an all-tank and an
    all-infantry German deck as against a dealt one."""
    _, sc = load_lines_source("lines")
    tanks = ("de_tiger_i", "de_tank_crew_regular") * 3
    infantry = ("de_grenadiers",) * 3 + ("de_pioniere",) * 3 + ("de_mg42_team",) * 3
    want = plan_lines_deck(sc, "soviet")
    for mine in (tanks, infantry):
        built = with_hard_decks(sc.with_decks({"german": mine}), {"soviet": "hard"})
        assert built.decks == {"german": mine, "soviet": want}, mine


def test_the_terminal_says_the_hard_computer_builds_its_deck_and_names_no_card(capsys, monkeypatch):
    """fresh9b: the window's start page says "the computer's own deck (hard)"; the terminal game
    said nothing, so a person at the terminal met a built deck with a dealt one unawares. One
    line now says which seats build and how to play a deck of one's own; it names no card
    (R12.1: a deck's size only). A given deck is not called dealt; a normal computer keeps the deal."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", "lines", "--headless", "--ai", "soviet"])
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "soviet (computer, hard): its own Reserves deck, built from the scenario's cards (000 setup); "
        "german: dealt at random, usually weaker: --deck german=FILE plays one you built (hexwar lines deck)"
    )
    assert not any(c in out for c in ("su_il2", "Il-2", "su_su152", "SU-152")), out
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", "lines", "--headless", "--ai", "soviet", "--deck", "german=german_kursk_panzers"])
    first = capsys.readouterr().out.splitlines()[0]
    assert (
        first == "soviet (computer, hard): its own Reserves deck, built from the scenario's cards (000 setup)"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    main(["play", "lines", "--headless", "--ai", "soviet", "--ai-level", "normal"])
    assert "own Reserves deck" not in capsys.readouterr().out
