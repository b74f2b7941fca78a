"""A person builds their Reserves deck in the hex game's standard game (000 Standard Game Setup,
R4.3) as the ``hard`` computer player does: the play screen's deck builder page
(:mod:`hexwar.ui.play_deck` over :class:`hexwar.ui.deck_builder.DeckPage`), driven headless
through the controller and the widget toolkit's Screen events (typing, Enter, keys, clicks), as
a person would. No GL: the window test is tests/test_play_deck_window.py.

The page's limits are the game's own (:func:`hexwar.game.actions.build_deck.deck_limits`,
:func:`~hexwar.game.actions.build_deck.deck_problem`: 80-100 points, the scenario's pool, at most
3 copies R10.4, a crew for each unit that needs one R4.1); confirming issues exactly the
:class:`~hexwar.game.commands.BuildDeck` of the deck shown, through the controller's one command
path, so the save replays it (R1.2); in hot-seat the other side's deck is never on the page
(R12.1).
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_lines_deck_ui import _click, _type  # the same click and typing as the card game's page

from hexwar.game import ruleset
from hexwar.game.actions.build_deck import deck_problem
from hexwar.game.commands import BuildDeck, ChooseHand
from hexwar.game.save import parse_save, replay, save_data
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.game.state import card_of
from hexwar.render.mesh import TexMesh
from hexwar.ui.clock import ManualClock
from hexwar.ui.controller import PlayController
from hexwar.ui.widgets import MonoMeasure, Painter, Screen, keys

SEED = 5
T, P = "de_tank_crew_regular", "de_pilot_regular"
#: a legal German deck of 98 points (the one tests/test_build_deck.py builds): 3 Pz IV H with
#: crews, 2 Hs 129 B with pilots, 3 Grenadiers
DECK_A = ("de_pz_iv_h", T) * 3 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 3


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure and draws nothing (the painter's GL-free contract)."""

    def text(self, *a, **k):
        return TexMesh.empty()


M = FakeAtlas(0.5)


@pytest.fixture(scope="module")
def standard():
    return load_scenario(find_scenario("standard"))


def _texts(screen) -> str:
    p = Painter(M)
    screen.paint(p)
    return "\n".join(p.texts)


def _add(screen, card_id, times=1):
    for _ in range(times):
        _type(screen, "cards search", card_id)
        screen.key_press(keys.ENTER)


def _open(ctl):
    page = ctl.open_deck()
    assert page is not None
    screen = Screen(page, M)
    screen.layout(1400, 900)
    screen.set_focus(page.search.field)
    return page, screen


def _empty(page, screen):
    """Take every card out with Ctrl+Z, as a person would."""
    for _ in range(len(page.builder.cards)):
        screen.key_press(ord("z"), keys.MOD_CTRL)
    assert page.builder.cards == []


def test_the_setup_offers_build_deck_and_keep_the_dealt_deck(standard):
    """A point-budget side to act in setup: the prompt says its deck was dealt and offers both
    answers; Keep the dealt deck (K) issues nothing and leads to the hand; a fixed-deck scenario
    (kharkov) asks nothing."""
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    assert g.to_act == "german" and ctl.deck_question()
    pts = sum(ruleset.cost(card_of(c)) for c in g.reserves["german"])
    assert (
        f"Your Reserves deck was dealt at random ({len(g.reserves['german'])} cards, {pts} points; a deck is "
        "80-100 points, 000 Standard Game Setup)" in ctl.prompt()
    )
    assert [(a.label, a.key, a.primary) for a in ctl.actions()] == [
        ("Build deck", "D", True),
        ("Keep the dealt deck", "K", False),
    ]
    ctl.keep_dealt_deck()
    assert not ctl.deck_question() and g.commands == []
    assert [a.label for a in ctl.actions()] == ["Keep hand (0/4)", "Pick next card", "Change deck"]
    k = load_scenario(find_scenario("kharkov")).new_game(SEED)
    kc = PlayController(k, ai={}, clock=ManualClock())
    assert not kc.deck_question() and not kc.deck_buildable()


def test_the_page_adds_and_takes_out_cards_with_a_live_total_and_the_games_limits(standard):
    """The page starts from the dealt deck; Ctrl+Z and clicks take cards out, typing + Enter
    adds; the total and the limits are the scenario's (80-100); a 4th copy is refused (R10.4);
    cards outside the pool are not offered; crews missing are listed (R4.1)."""
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, screen = _open(ctl)
    assert sorted(page.builder.cards) == sorted(card_of(c) for c in g.reserves["german"])
    texts = _texts(screen)
    assert (
        "Build a Reserves deck for the German side (000 setup): 80-100 points, at most 3 of a unit card"
        in texts
    )
    assert {c for c, _, _ in page.search.entries} == set(standard.sides["german"].pool)
    assert "de_panther_d" not in {c for c, _, _ in page.search.entries}  # not in the pool
    _empty(page, screen)
    assert "Points: 0  (limits 80-100: 80 more needed)" in _texts(screen)
    _add(screen, "de_pz_iv_h", 3)
    assert page.builder.cards == ["de_pz_iv_h"] * 3 and page.builder.points == 45
    _add(screen, "de_pz_iv_h")  # a fourth copy
    assert page.builder.cards == ["de_pz_iv_h"] * 3
    assert page.status == "at most 3 copies of Pz.Kpfw. IV Ausf. H (R10.4)" and not page.status_ok
    texts = _texts(screen)
    assert "Points: 45  (limits 80-100: 35 more needed)" in texts
    assert "the deck costs 45 points; it must cost 80-100 (000 Standard Game Setup)" in texts
    assert "Crew rule: 3 units need a tank crew and the deck has 0 (R4.1)" in texts
    for c in (T, T, "de_hs129b", P, "de_hs129b", P, "de_grenadiers", "de_grenadiers", "de_grenadiers"):
        _add(screen, c)
    assert page.builder.points == 96
    # a click on the first deck row takes that card out (a Pz IV H): 81 points, crews 3 of 2
    deck = screen.root.find("deck")
    screen.mouse_press(deck.rect.x + 20, deck.rect.y1 - deck.row_h / 2)
    assert page.builder.points == 81 and Counter(page.builder.cards)["de_pz_iv_h"] == 2
    assert "Points: 81  (limits 80-100: within the limits)" in _texts(screen)


def test_an_illegal_deck_cannot_be_confirmed_and_shows_deck_problems_reason(standard):
    """Within the points but a tank crew short: "Use this deck" is refused with exactly
    deck_problem's reason; no command is issued, the dealt deck stays, the page stays open."""
    g = standard.new_game(SEED)
    dealt = list(g.reserves["german"])
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, screen = _open(ctl)
    _empty(page, screen)
    short = DECK_A[:1] + DECK_A[2:]  # DECK_A less one tank crew: 96 points, 3 Pz IV H, 2 crews
    for c in short:
        _add(screen, c)
    why = deck_problem(standard.sides["german"], "german", list(short))
    assert why == "3 units need a tank crew and the deck has 2 (R4.1)"
    assert why in _texts(screen)
    _click(screen, "use deck")
    assert page.status == f"not yet: {why}" and not page.status_ok
    assert g.commands == [] and g.reserves["german"] == dealt and ctl.deck_page is page


def test_confirming_issues_exactly_the_build_deck_shown_and_the_save_replays_it(standard):
    """ "Use this deck" issues BuildDeck(german, the cards in page order) through the controller;
    the page closes, the hand row is the built deck, and the game (with the hand chosen) saved
    and replayed gives the same state hash (R1.2) as the same commands applied directly."""
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, screen = _open(ctl)
    _empty(page, screen)
    for c in DECK_A:
        _add(screen, c)
    assert page.legal
    _click(screen, "use deck")
    assert g.commands == [BuildDeck("german", DECK_A)]
    assert ctl.deck_page is None and not ctl.deck_question()
    assert ctl.message == "Your Reserves deck: 13 cards, 98 points. Now pick your starting hand."
    assert sorted(card_of(c) for c in ctl.hand()[0]) == sorted(DECK_A)
    for c in ("de_pz_iv_h#1", f"{T}#1", "de_hs129b#1", f"{P}#1"):
        ctl.pick_card(c)
    ctl.confirm_hand()
    assert g.commands[-1] == ChooseHand("german", ("de_pz_iv_h#1", f"{T}#1", "de_hs129b#1", f"{P}#1"))
    direct = standard.new_game(SEED)
    for cmd in g.commands:
        direct.apply(cmd)
    again = replay(parse_save(save_data(g)), standard)
    assert again.state_hash() == direct.state_hash() == g.state_hash()


def test_esc_goes_back_keeping_the_deck_and_the_deck_can_be_changed_until_the_hand(standard):
    g = standard.new_game(SEED)
    dealt = list(g.reserves["german"])
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, screen = _open(ctl)
    screen.key_press(ord("z"), keys.MOD_CTRL)
    screen.key_press(keys.ESCAPE)
    assert ctl.deck_page is None and g.reserves["german"] == dealt and g.commands == []
    assert ctl.message.startswith("Your Reserves deck stays as it was (")
    assert "Change deck" in [a.label for a in ctl.actions()]
    page, screen = _open(ctl)  # opens again on the deck as it is
    assert sorted(page.builder.cards) == sorted(card_of(c) for c in dealt)


def test_a_deck_file_opens_from_the_working_folder_only(standard, tmp_path, monkeypatch):
    """Ctrl+O reads the deck file named in the file field: inside the working folder its cards
    replace the deck; a path outside it (``..``) or a card outside the scenario's pool is
    refused with the file named, the deck unchanged."""
    from hexwar.lines.deckbuilder import DeckBuilder

    work = tmp_path / "work"
    (work / "decks").mkdir(parents=True)
    monkeypatch.chdir(work)
    DeckBuilder("german", cards=list(DECK_A), name="Panzer IV group").save(work / "decks" / "pz.toml")
    DeckBuilder("german", cards=list(DECK_A)).save(tmp_path / "outside.toml")
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, screen = _open(ctl)
    before = list(page.builder.cards)
    _type(screen, "deck file", "../outside.toml")
    screen.key_press(ord("o"), keys.MOD_CTRL)
    assert not page.status_ok and "outside the folders deck files are opened from" in page.status
    assert "'../outside.toml'" in page.status and page.builder.cards == before
    _type(screen, "deck file", "decks/pz.toml")
    screen.key_press(ord("o"), keys.MOD_CTRL)
    assert page.status_ok and page.builder.cards == list(DECK_A) and page.builder.name == "Panzer IV group"
    _click(screen, "use deck")
    assert g.commands == [BuildDeck("german", DECK_A)]


def test_hot_seat_each_person_builds_in_turn_and_never_sees_the_other_deck(standard):
    """Two people: the German builds and keeps a hand; the screen then waits for the hand-over
    (no page can open); after it the Soviet page holds Soviet cards only, none of the German
    deck's names, and the German deck's log line is a count."""
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    page, screen = _open(ctl)
    _empty(page, screen)
    for c in DECK_A:
        _add(screen, c)
    _click(screen, "use deck")
    ctl.hand_pick = list(g.reserves["german"][:4])
    ctl.crew_warned = True
    ctl.confirm_hand()
    assert g.to_act == "soviet" and ctl.pass_to == "soviet"
    assert not ctl.deck_buildable() and ctl.open_deck() is None and ctl.deck_page is None
    ctl.confirm_pass()
    assert ctl.deck_question()
    page, screen = _open(ctl)
    texts = _texts(screen)
    assert "Build a Reserves deck for the Soviet side" in texts
    assert all(c.startswith("su_") for c in page.builder.cards)
    german_names = {ruleset.card_name(c) for c in DECK_A}
    assert not any(n in texts for n in german_names), german_names
    from hexwar.game.view import seat_events

    shown = [e.text for e in seat_events(g, list(g.log), "soviet") if e.kind == "deck"]
    assert shown == ["german builds its Reserves deck of 13 cards"]


def test_a_deck_given_with_deck_is_issued_when_its_side_first_acts(standard):
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock(), decks={"german": DECK_A})
    assert g.commands == [BuildDeck("german", DECK_A)]
    assert not ctl.deck_question() and ctl.deck_buildable()
    assert (
        ctl.message == "Your deck file is your Reserves deck (13 cards, 98 points): pick your starting hand."
    )


def test_the_hot_seat_log_shows_what_both_players_may_read_only(standard):
    """The fresh-user pass of the sixth session: two people at one screen (hot-seat) read one
    log, so it is the spectator's (R12.1, :func:`hexwar.game.view.seat_events` with no side):
    not the seed, not either side's pool draws, not the points of the deck a side builds; the
    build itself is said, with its size only. One person's log is still their side's view."""
    g = standard.new_game(5)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    assert ctl.hot_seat
    assert deck_problem(standard.sides["german"], "german", DECK_A) is None
    ctl.issue(BuildDeck("german", DECK_A))
    assert g.commands == [BuildDeck("german", DECK_A)]
    text = "\n".join(line.text for line in ctl.log)
    assert "seed 5" not in text and "seed hidden" in text, text
    assert "from the pool" not in text, text  # neither side's Reserves deck deal
    built = [x for x in text.splitlines() if "builds its Reserves deck" in x]
    assert built and all("german" in x and "points" not in x for x in built), built
    one = PlayController(standard.new_game(5), ai={"soviet": object()}, clock=ManualClock())
    own = "\n".join(line.text for line in one.log)
    assert "seed 5" not in own and "soviet Reserves deck card from the pool" not in own, own


def test_the_page_saves_only_inside_the_working_folder_where_it_opens_again(standard, tmp_path, monkeypatch):
    """The fresh-user pass of the sixth session: Ctrl+S wrote ``../../tmp/x.toml`` and any absolute
    path, which Ctrl+O and ``--deck`` then refused to open. The page now saves inside the working
    folder only, and says why otherwise; a file saved there opens again."""
    work = tmp_path / "work"
    (work / "decks").mkdir(parents=True)
    monkeypatch.chdir(work)
    g = standard.new_game(SEED)
    ctl = PlayController(g, ai={"soviet": object()}, clock=ManualClock())
    page, _ = _open(ctl)
    page.builder.cards = list(DECK_A)
    for bad in ("../outside.toml", str(tmp_path / "abs.toml"), "a" * 300 + ".toml"):
        page.path_field.text = bad
        assert not page.save(), bad
        assert not page.status_ok and ("outside the working folder" in page.status or "cannot" in page.status)
    assert not (tmp_path / "outside.toml").exists() and not (tmp_path / "abs.toml").exists()
    page.path_field.text = "decks/mine.toml"
    assert page.save(), page.status
    page.builder.cards = []
    assert page.open_file(), page.status
    assert page.builder.cards == list(DECK_A)


def test_the_points_line_is_red_only_when_the_points_are_wrong(standard):
    """The fresh-user pass of the sixth session: "Points: 87 (limits 80-100: within the limits)"
    was drawn in red when only the crew rule (R4.1) failed, reading as if the points were wrong.
    Red now means the points (000 setup: 80-100); a deck within them with a crew missing reads
    plain, with the crew reason below it; a legal deck reads green."""
    from hexwar.ui.widgets import theme as T

    g = standard.new_game(SEED)
    page, _ = _open(PlayController(g, ai={"soviet": object()}, clock=ManualClock()))
    no_pilot = [c for c in DECK_A if c != P]  # 98 - 2 pilots' 4 = 94 points, two aircraft crewless
    cases = [
        (list(DECK_A), T.GOOD),  # 98 points, crews for all
        (no_pilot, T.TEXT),
        (list(DECK_A) + ["de_tiger_i"], T.ERROR),  # 122 points, over the budget
    ]
    for cards, colour in cases:
        page.builder.cards = cards
        page.refresh()
        assert page.total.colour == colour, (page.total.text, page.errors.text)
    page.builder.cards = no_pilot
    page.refresh()
    assert "within the limits" in page.total.text and "need a pilot" in page.warnings.text + page.errors.text
