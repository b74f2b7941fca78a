"""The deck builder's window page and the lines start page, driven headless through the widget
toolkit's Screen events alone (typing, Enter, clicks), as a person would (000 setup, R11.1)."""

from __future__ import annotations

import json

import pytest

from hexwar.cli import main
from hexwar.game.scenario import load_scenario
from hexwar.lines.deckbuilder import DeckBuilder
from hexwar.lines.scenario import load_deck
from hexwar.render.mesh import TexMesh
from hexwar.ui.deck_builder import DeckPage
from hexwar.ui.lines_start import LinesStart
from hexwar.ui.widgets import MonoMeasure, Painter, Screen, keys


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure and draws nothing (the painter's GL-free contract)."""

    def text(self, *a, **k):
        return TexMesh.empty()


M = FakeAtlas(0.5)


def _paint(screen):
    p = Painter(M)
    screen.paint(p)
    return p


def _click(screen, tip):
    e = screen.top.find(tip)
    assert e is not None, f"no element {tip!r}"
    x, y = e.rect.x + e.rect.w / 2, e.rect.y + e.rect.h / 2
    screen.mouse_press(x, y)
    screen.mouse_release(x, y)


def _type(screen, field_tip, text):
    _click(screen, field_tip)
    f = screen.focus
    assert f is not None and f.tip == field_tip
    for _ in range(len(f.text)):
        screen.text_motion(keys.BACKSPACE)
    screen.text(text)


def _add(screen, query):
    _type(screen, "cards search", query)
    screen.key_press(keys.ENTER)


def test_a_legal_deck_built_through_the_window_page_saves_validates_and_plays(tmp_path, capsys, monkeypatch):
    page = DeckPage(DeckBuilder("german"), path=str(tmp_path / "x.toml"))
    screen = Screen(page, M)
    screen.layout(1280, 860)
    # the full card text of the chosen card is on the page, with the running total at 0
    _type(screen, "cards search", "de_tiger_i")
    texts = "\n".join(_paint(screen).texts)
    assert "Tiger I (german vehicle, frontline), cost 24" in texts
    assert (
        "1. 8.8 cm KwK 36 L/56: inf 10, veh 8, gun 9; DI 10; range 14" in texts
    )  # its weapon line, from the card data
    assert "Points: 0  (limits 80-100: 80 more needed)" in texts
    screen.key_press(keys.ENTER)  # Tiger I, 20 pts
    texts = "\n".join(_paint(screen).texts)
    assert "Points: 24  (limits 80-100: 56 more needed)" in texts
    assert "Crew warning: Tiger I needs tank crew but the deck has none (000 tip)" in texts
    # Save is refused below the limits, with the reason on the page
    _click(screen, "save")
    assert not (tmp_path / "x.toml").exists()
    assert "costs 24 points; expected 80..100" in page.status
    for q in (
        "panzer crew veteran",
        "de_pz_iv_h",
        "panzer crew regular",
        "de_stug_iii_g",
        "panzer crew regular",
        "panzergrenadier",
        "grenadier squad",
        "pioneer",
        "hmg team",
    ):
        _add(screen, q)
    costs = {
        "de_tiger_i": 24,
        "de_tank_crew_veteran": 3,
        "de_pz_iv_h": 15,
        "de_tank_crew_regular": 2,
        "de_stug_iii_g": 13,
        "de_panzergrenadiers": 6,
        "de_grenadiers": 5,
        "de_pioniere": 7,
        "de_mg42_team": 5,
    }  # the cards' costs (hexwar cards)
    assert page.builder.cards == [
        "de_tiger_i",
        "de_tank_crew_veteran",
        "de_pz_iv_h",
        "de_tank_crew_regular",
        "de_stug_iii_g",
        "de_tank_crew_regular",
        "de_panzergrenadiers",
        "de_grenadiers",
        "de_pioniere",
        "de_mg42_team",
    ]
    assert sum(costs[c] for c in page.builder.cards) == 24 + 3 + 15 + 2 + 13 + 2 + 6 + 5 + 7 + 5 == 82
    texts = "\n".join(_paint(screen).texts)
    assert "Points: 82  (limits 80-100: within the limits)" in texts
    assert "Crew warning" not in texts
    # a click on a deck row takes that card out; Ctrl+Z takes out the last one; add them back
    deck = screen.root.find("deck")
    screen.mouse_press(deck.rect.x + 20, deck.rect.y1 - deck.row_h / 2)  # the first row: Tiger I
    assert page.builder.cards[0] == "de_tank_crew_veteran" and page.builder.points == 82 - 24
    screen.key_press(ord("z"), keys.MOD_CTRL)
    assert page.builder.cards[-1] == "de_pioniere" and page.builder.points == 82 - 24 - 5
    assert "Points: 53  (limits 80-100: 27 more needed)" in "\n".join(_paint(screen).texts)
    _add(screen, "de_tiger_i")
    _add(screen, "hmg team")
    assert page.builder.points == 82
    _type(screen, "deck name", "Kursk 'Zitadelle' group")
    path = tmp_path / "decks" / "mine.toml"
    path.parent.mkdir()
    _type(screen, "deck file", str(path))
    screen.key_press(ord("s"), keys.MOD_CTRL)
    assert page.saved_to == str(path), page.status
    assert page.status == f"saved 10 cards (82 pts) to {path}"
    assert any(t.startswith("saved 10 cards (82 pts) to") for t in _paint(screen).texts)
    side, cards, warnings = load_deck(path)
    assert side == "german" and list(cards) == page.builder.cards and warnings == []
    assert "Kursk 'Zitadelle' group" in path.read_text()
    capsys.readouterr()
    assert main(["validate", str(path)]) == 0
    assert f"ok   {path} (hexwar-deck)" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # --deck opens files from the working folder or the shipped decks/
    assert (
        main(
            [
                "play",
                "lines",
                "--deck",
                f"german={path}",
                "--headless",
                "--ai",
                "german,soviet",
                "--seed",
                "4",
                "--json",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)
    assert res["mode"] == "lines" and res["result"]["winner"] in ("german", "soviet")


def test_saving_never_overwrites_a_file_that_is_not_a_deck(tmp_path):
    other = tmp_path / "notes.toml"
    other.write_text("my notes\n")
    b = DeckBuilder(
        "soviet",
        cards=[
            "su_kv_1s",
            "su_tank_crew_regular",
            "su_t34_76",
            "su_tank_crew_regular",
            "su_guards",
            "su_guards",
            "su_rifles",
            "su_rifles",
            "su_smg",
            "su_maxim_team",
            "su_zis3",
            "su_artillery_crew_regular",
            "su_sniper",
            "su_sniper",
        ],
    )
    assert b.points >= 80
    page = DeckPage(b, path=str(other))
    screen = Screen(page, M)
    screen.layout(1280, 860)
    _click(screen, "save")
    assert "is not a hexwar deck file; not overwritten" in page.status
    assert other.read_text() == "my notes\n"


def test_the_4_player_deck_builder_offers_only_the_commanders_cards_within_75_points():
    sc = load_scenario("lines-4p")
    start = LinesStart(sc, {"soviet-front": "standard", "soviet-support": "standard"}, M, seed=3)
    texts = "\n".join(_paint(start.screen).texts)
    assert "german-front (you): drawn at random within 60-75 points" in texts
    assert "soviet-support (computer): drawn at random within 60-75 points" in texts
    page = start.build("german-support")
    ids = [k for k, _, _ in page.search.entries]
    assert "de_ju87g" in ids and "de_lefh18" in ids and "de_tiger_i" not in ids and "de_grenadiers" not in ids
    lo, hi = page.builder.budget
    assert hi == 75
    assert f"limits {lo}-75" in "\n".join(_paint(start.screen).texts)


def test_the_deck_builder_is_reached_from_the_start_page_and_the_game_uses_the_deck():
    sc = load_scenario("lines")
    started = []
    start = LinesStart(sc, {"soviet": "standard"}, M, seed=11, on_start=started.append)
    screen = start.screen
    texts = "\n".join(_paint(screen).texts)
    assert "german (you): drawn at random within 80-100 points" in texts
    assert "soviet (computer): drawn at random within 80-100 points" in texts
    assert "Now: Enter starts the game" in texts
    screen.key_press(ord("1"))  # the german seat's deck builder
    assert start.page == "deck"
    screen = start.screen
    for q in (
        "de_tiger_i",
        "panzer crew veteran",
        "de_pz_iv_h",
        "panzer crew regular",
        "de_stug_iii_g",
        "panzer crew regular",
        "panzergrenadier",
        "grenadier squad",
        "pioneer",
        "hmg team",
    ):
        _add(screen, q)
    _click(screen, "use deck")
    assert start.page == "start"
    screen = start.screen
    texts = "\n".join(_paint(screen).texts)
    assert "german (you): my german deck: 10 cards, 82 points" in texts
    screen.key_press(keys.ENTER)
    assert len(started) == 1
    st = started[0]
    mine = sorted(c.split("#")[0] for c in st.reserves["german"] + st.hand_units["german"])
    assert mine == sorted(
        [
            "de_tiger_i",
            "de_tank_crew_veteran",
            "de_pz_iv_h",
            "de_tank_crew_regular",
            "de_stug_iii_g",
            "de_tank_crew_regular",
            "de_panzergrenadiers",
            "de_grenadiers",
            "de_pioniere",
            "de_mg42_team",
        ]
    )
    assert st.scenario.setup_json()["decks"]["german"][0] == "de_tiger_i"  # kept in the save (setup.decks)


def test_a_scenario_cards_reserves_restrictions_hold_in_the_deck_builder_and_for_a_deck_file(
    tmp_path, capsys, monkeypatch
):
    sc = load_scenario("lines_prokhorovka")  # 000-style card: no towed guns in either Reserves deck
    start = LinesStart(sc, {"soviet": "standard"}, M, seed=3)
    page = start.build("german")
    ids = [k for k, _, _ in page.search.entries]
    assert "de_tiger_i" in ids and "de_pak40" not in ids and "de_lefh18" not in ids
    b = DeckBuilder(
        "german",
        budget=(75, 90),
        cards=["de_pak40", "de_artillery_crew_regular"]
        + ["de_tiger_i", "de_tank_crew_regular"] * 2
        + ["de_grenadiers"] * 3,
    )
    assert b.points == 9 + 2 + 2 * (24 + 2) + 3 * 5 == 78
    with_rules = DeckBuilder(b.side, b.budget, cards=list(b.cards), restrictions=sc.sides["german"])
    assert with_rules.problems()[0] == ["7.5 cm PaK 40: no gun units in this scenario's Reserves"]
    path = tmp_path / "guns.toml"
    b.save(path)  # a legal standard-game deck
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)  # --deck opens files from the working folder or the shipped decks/
    assert (
        main(["play", "lines_prokhorovka", "--headless", "--deck", f"german={path}", "--ai", "german,soviet"])
        != 0
    )
    assert "no gun units in this scenario's Reserves" in capsys.readouterr().err


def test_the_deck_builder_search_ranks_by_name():
    """Issue 36: "tank crew" + Enter added an 8.8 cm Flak 36 (its card text mentions both)."""
    from hexwar.lines.deckbuilder import DeckBuilder
    from hexwar.rules.cards import default_cards
    from hexwar.ui.deck_builder import DeckPage

    page = DeckPage(DeckBuilder("german"), "d.toml")
    page.search.query("tank crew")
    kinds = [default_cards().unit(k).unit_type for k, _, _ in page.search.matches]
    assert kinds[:3] == ["tank_crew"] * 3 and "gun" in kinds[3:], kinds  # the Panzer crews, then the rest
    page.search.pick()
    assert page.builder.cards and default_cards().unit(page.builder.cards[-1]).unit_type == "tank_crew"


def test_typing_tank_crew_and_enter_adds_a_tank_crew_and_the_chosen_card_is_drawn_as_a_card():
    """Issue 36 in the window's own events: the search field typed, Enter adds the first row
    (a tank crew, not the 8.8 cm Flak 36), and the chosen card shows as its card (card_face)."""
    from hexwar.rules.cards import default_cards

    page = DeckPage(DeckBuilder("german"), "d.toml")
    screen = Screen(page, M)
    screen.layout(1000, 700)
    _type(screen, "cards search", "tiger")
    texts = _paint(screen).texts
    assert "Tiger I" in texts and "Armament" in texts and "Half 10 / Full 20" in texts  # its card face
    _add(screen, "tank crew")
    assert default_cards().unit(page.builder.cards[-1]).unit_type == "tank_crew"


def test_cards_in_the_deck_before_the_first_layout_are_listed():
    """A deck opened with cards (the start page's Build for a seat with a deck) listed nothing:
    the list had scrolled past its rows before it had a height."""
    page = DeckPage(DeckBuilder("german"), "d.toml")
    for c in ("de_pz_iv_g", "de_tank_crew_regular", "de_grenadiers"):
        page.add_card(c)
    screen = Screen(page, M)
    screen.layout(1000, 700)
    texts = _paint(screen).texts
    assert page.deck_list.offset == 0
    assert [t for t in texts if t.endswith(" pts") and "  ·  " in t and t.count("·") == 1] == [
        "Pz.Kpfw. IV Ausf. G  ·  14 pts", "Panzer crew (regular)  ·  2 pts", "Grenadier squad  ·  5 pts"]  # fmt: skip


@pytest.mark.parametrize("size", [(1400, 900), (1280, 860), (1000, 700), (800, 600)])
def test_the_status_under_the_file_field_stays_below_it(size):
    """fresh7: a two-line refusal under the Deck file field (Ctrl+O of a path outside the
    folders) had its first line drawn under the field: the deck list's height left 10 points
    too few for what goes below it, so the status block was pushed up over the field."""
    page = DeckPage(DeckBuilder("german"), "d.toml")
    screen = Screen(page, M)
    screen.layout(*size)
    field, status = page.path_field.rect, page.status_block.rect
    assert status.y1 <= field.y, (size, status, field)
    assert status.y >= page.buttons[0].rect.y1, (size, status)  # and above the buttons
    if size[1] >= 700:
        assert status.h == 44, (size, status)  # room for its lines


def test_a_hard_computer_seat_shows_and_plays_its_own_deck():
    """Issue 31: the start page gives a hard computer seat the deck it builds (000 setup,
    :func:`hexwar.search.lines_deck.plan_lines_deck`), says so, and the game deals it; a
    standard computer seat is still dealt one at random."""
    from collections import Counter

    from hexwar.lines.rules import card_id_of
    from hexwar.search.lines_deck import plan_lines_deck

    sc = load_scenario("lines")
    started = []
    start = LinesStart(sc, {"soviet": "hard"}, M, seed=11, on_start=started.append)
    deck = plan_lines_deck(sc, "soviet")
    assert start.decks == {"soviet": deck}
    texts = "\n".join(_paint(start.screen).texts)
    assert f"soviet (computer): the computer's own deck (hard): {len(deck)} cards" in texts, texts
    assert "german (you): drawn at random within 80-100 points" in texts
    start.screen.key_press(keys.ENTER)
    (st,) = started
    held = Counter(card_id_of(c) for c in st.reserves["soviet"] + st.hand_units["soviet"])
    assert held == Counter(deck)
    assert LinesStart(sc, {"soviet": "standard"}, M, seed=11).decks == {}


def test_a_computers_deck_changed_in_the_deck_builder_is_no_longer_called_its_own():
    """fresh9b: a person may open the deck builder for the hard computer's seat (it opens on the
    computer's deck) and play it with another deck; the page still said "the computer's own
    deck (hard)" of the changed deck (the builder kept the page's label as the deck's name). A
    deck used unchanged keeps the label; a changed one is "deck built here", as is a changed
    ``--deck`` deck."""
    from hexwar.search.lines_deck import plan_lines_deck

    sc = load_scenario("lines")
    start = LinesStart(sc, {"soviet": "hard"}, M, seed=11)
    deck = plan_lines_deck(sc, "soviet")
    start.build("soviet")
    _click(start.screen, "use deck")  # unchanged: still the computer's own
    assert start.decks["soviet"] == deck
    texts = "\n".join(_paint(start.screen).texts)
    assert f"soviet (computer): the computer's own deck (hard): {len(deck)} cards" in texts, texts
    start.build("soviet")
    _click(start.screen, "take out last")
    _click(start.screen, "take out last")
    _add(start.screen, "rifle squad")
    _click(start.screen, "use deck")
    assert start.page == "start" and start.decks["soviet"] == deck[:-2] + ("su_rifles",)
    texts = "\n".join(_paint(start.screen).texts)
    assert "soviet (computer): deck built here: 9 cards, 80 points" in texts, texts
    assert "the computer's own deck" not in texts, texts
    assert "soviet plays with 'deck built here' (80 points)." in texts, texts
    given = LinesStart(sc.with_decks({"soviet": deck}), {"soviet": "hard"}, M, seed=11)
    assert given.deck_names == {"soviet": "deck given with --deck"}
    given.build("soviet")
    _click(given.screen, "take out last")
    _click(given.screen, "take out last")
    _add(given.screen, "rifle squad")
    _click(given.screen, "use deck")
    assert given.deck_names == {"soviet": "deck built here"}
