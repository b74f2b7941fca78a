"""``hexwar play standard --deck SIDE=FILE`` and the terminal's deck prompt (000 Standard Game
Setup, R4.3): a person's side plays a deck file (the TOML the deck builder saves), checked by the
game's own rule before the game starts; a bad file is one line naming the file (and the card)
with no traceback; files are opened from the working folder or the shipped decks only. At the
terminal the setup lists the Reserves deck card by card and ``deck`` builds one from the
scenario's cards by id. A seeded game with a built deck replays to the same state hash (R1.2).
"""

from __future__ import annotations

import json

import click
import pytest

from hexwar.cli import main
from hexwar.cli.game import TerminalPlayer
from hexwar.game.ai import make_player
from hexwar.game.commands import BuildDeck, ChooseHand
from hexwar.game.headless import play as run_game
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.game.terminal import read_choice
from hexwar.lines.deckbuilder import DeckBuilder

T, P = "de_tank_crew_regular", "de_pilot_regular"
#: a legal German deck of 98 points (tests/test_build_deck.py's DECK_A)
DECK_A = ("de_pz_iv_h", T) * 3 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 3


@pytest.fixture(scope="module")
def standard():
    return load_scenario(find_scenario("standard"))


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A working folder with ``decks/``: the good deck, one over budget, one with an unknown
    card, one with a card outside the standard scenario's pool, one breaking several rules at once
    (pool, copies, crews); a deck outside the folder."""
    w = tmp_path / "work"
    (w / "decks").mkdir(parents=True)
    monkeypatch.chdir(w)
    DeckBuilder("german", cards=list(DECK_A), name="Panzer IV group").save(w / "decks" / "good.toml")
    DeckBuilder("german", cards=list(DECK_A)).save(tmp_path / "outside.toml")
    text = (w / "decks" / "good.toml").read_text()
    (w / "decks" / "over.toml").write_text(text.replace('"de_grenadiers"]', '"de_tiger_i"]'))
    (w / "decks" / "unknown.toml").write_text(text.replace('"de_grenadiers"]', '"de_nonesuch"]'))
    (w / "decks" / "veteran.toml").write_text(text.replace(f'"{T}",', '"de_tank_crew_veteran",', 1))
    bad = ("de_tiger_i", "de_pz_iv_h", "de_ju87g", "de_sniper", "de_pioniere") + ("de_grenadiers",) * 4
    DeckBuilder("german", cards=list(bad)).save(w / "decks" / "all.toml")
    return w


def run(capsys, *args):
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize(
    "spec, line",
    [
        (
            "german=decks/missing.toml",
            "--deck german=decks/missing.toml: no such deck file",
        ),
        (
            "german=decks/unknown.toml",
            "--deck german=decks/unknown.toml: {w}/decks/unknown.toml: deck.cards: unknown unit card 'de_nonesuch'",
        ),
        (
            "german=decks/over.toml",
            "--deck german=decks/over.toml: {w}/decks/over.toml: 2 problems: (1) the deck costs 117 points; it "
            "must cost 80-100 (000 Standard Game Setup); (2) 4 units need a tank crew and the deck has 3 (R4.1)\n",
        ),
        (  # every reason at once, numbered (fresh7: only the first was named)
            "german=decks/all.toml",
            "--deck german=decks/all.toml: {w}/decks/all.toml: 4 problems: (1) de_sniper is not in the "
            "scenario's pool for german; (2) 4 copies of de_grenadiers; at most 3 (R10.4); (3) 1 unit needs a "
            "pilot and the deck has 0 (R4.1); (4) 2 units need a tank crew and the deck has 0 (R4.1)\n",
        ),
        (
            "german=decks/veteran.toml",
            "--deck german=decks/veteran.toml: {w}/decks/veteran.toml: de_tank_crew_veteran is not in the "
            "scenario's pool for german",
        ),
        (
            "german=../outside.toml",
            "--deck german=../outside.toml: resolves to {t}/outside.toml, outside the folders "
            "deck files are opened from",
        ),
        (
            "soviet=decks/good.toml",
            "--deck soviet=decks/good.toml: the soviet side is played by the computer",
        ),
        (
            "german=decks/good.toml,german=decks/good.toml",
            "--deck german=decks/good.toml: the german side is given a deck twice",
        ),
        (
            "russian=decks/good.toml",
            "--deck russian=decks/good.toml: unknown side 'russian'; expected german or soviet",
        ),
    ],
)
def test_a_bad_deck_file_is_one_line_naming_the_file_and_no_traceback(capsys, work, spec, line):
    rc, out, err = run(capsys, "play", "standard", "--headless", "--ai", "soviet", "--deck", spec)
    assert rc == 2 and out == ""
    expect = "hexwar: " + line.format(w=work.resolve(), t=work.parent.resolve())
    assert err.startswith(expect), err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_fixed_deck_scenario_and_a_save_refuse_deck(capsys, work, tmp_path):
    rc, _, err = run(
        capsys, "play", "kharkov", "--headless", "--ai", "soviet", "--deck", "german=decks/good.toml"
    )
    assert rc == 2 and "kharkov gives the german side a fixed Reserves deck" in err and err.count("\n") == 1


def test_a_good_deck_file_is_the_persons_reserves_deck(capsys, work, monkeypatch):
    """german=FILE with the German at the terminal: the first setup command is BuildDeck of the
    file's cards, then the hand is chosen as ``hand 1 2 6 7`` from the deck listed card by card."""
    answers = iter(["hand 1 2 7 8", "q"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    rc, out, err = run(
        capsys, "play", "standard", "--headless", "--ai", "soviet", "--seed", "3", "--deck",
        "german=decks/good.toml", "--save", str(work / "g.json"),
    )  # fmt: skip
    assert rc == 1 and "Traceback" not in err  # q: aborted after the hand
    assert f"german: your Reserves deck is {work.resolve()}/decks/good.toml (13 cards)" in out
    assert "german builds its Reserves deck: 13 cards, 98 points" in out
    assert "german, setup: your Reserves deck, 13 cards, 98 points (000 Standard Game Setup)" in out
    assert "    1  Pz.Kpfw. IV Ausf. H  vehicle, Frontline, 15 pts, needs a tank crew  [de_pz_iv_h#1]" in out
    assert "    7  Hs 129 B-2  aircraft, 14 pts, needs a pilot  [de_hs129b#1]" in out
    assert "german takes 4 unit cards into hand" in out


def test_the_comma_form_names_each_side(capsys, work):
    from hexwar.cli.game import parse_hex_decks

    sc = load_scenario(find_scenario("standard"))
    su = DeckBuilder(
        "soviet",
        cards=["su_t34_76", "su_tank_crew_regular"] * 3
        + ["su_rifles"] * 3
        + ["su_il2", "su_pilot_regular"] * 2,
    )
    su.save(work / "decks" / "su.toml")
    got = parse_hex_decks(("german=decks/good.toml,soviet=su",), sc, ["german", "soviet"])
    assert got["german"][1] == DECK_A and got["soviet"][1] == tuple(su.cards)
    assert got["soviet"][0] == str((work / "decks" / "su.toml").resolve())


def _terminal(state, side, answers, deck_file=None):
    lines: list[str] = []
    it = iter(answers)
    cmd = read_choice(state, side, lambda _p: next(it), lines.append, deck_file=deck_file)
    return cmd, "\n".join(lines)


def test_the_terminal_builds_a_deck_by_card_ids_with_the_games_reason(standard):
    """``deck``: the pool listed with ids and costs; ids add, ``add ID N`` / ``remove``; the
    total and deck_problem's reason after each change; ``done`` refused with it until legal;
    then exactly BuildDeck of the cards in the order typed."""
    g = standard.new_game(5)
    cmd, out = _terminal(
        g,
        "german",
        [
            "deck", "clear", "add de_pz_iv_h 4", "de_tank_crew_regular de_tank_crew_regular", "done",
            "de_tank_crew_regular", "add de_hs129b 2", "add 17 2", "add de_grenadiers 3", "remove de_grenadiers",
            "de_grenadiers", "done",
        ],
    )  # fmt: skip
    assert cmd == BuildDeck(
        "german", ("de_pz_iv_h",) * 3 + (T,) * 3 + ("de_hs129b",) * 2 + (P,) * 2 + ("de_grenadiers",) * 3
    )
    assert (
        "   14  de_pz_iv_h                   Pz.Kpfw. IV Ausf. H  vehicle, Frontline, 15 pts, needs a tank crew"
        in out
    )
    assert "   17  de_pilot_regular             Luftwaffe pilot (regular)  pilot, 2 pts" in out
    assert "add: at most 3 copies of Pz.Kpfw. IV Ausf. H (R10.4)" in out
    assert (
        "deck: 5 cards, 49 points (limits 80-100: 31 more needed); not yet: the deck costs 49 points; it must "
        "cost 80-100 (000 Standard Game Setup)\n  and: 3 units need a tank crew and the deck has 2 (R4.1)"
    ) in out
    # ``done`` names every reason, not the first only (fresh-user pass, session 6)
    assert (
        "deck: not yet: the deck costs 49 points; it must cost 80-100 (000 Standard Game Setup); "
        "3 units need a tank crew and the deck has 2 (R4.1)\n"
    ) in out
    assert "deck: 13 cards, 98 points (limits 80-100: within the limits); ready: `done` plays it" in out
    assert g.check(cmd) is None


def test_the_terminal_chooses_the_hand_by_number_or_card_id(standard):
    g = standard.new_game(5)
    g.apply(BuildDeck("german", DECK_A))
    answers = ["hand 1 2", "hand 1 2 30 4", "hand 1 1 2 3", "hand " + "9" * 5000, "hand \u00b2 1 2 3", ""]
    cmd, out = _terminal(g, "german", [*answers, "hand 1 de_tank_crew_regular de_hs129b 8"])
    assert "hand: choose exactly 4 unit cards from your Reserves deck, got 2" in out
    assert "hand: '30': not a number 1..13 or a card id of your deck" in out
    assert "hand: 1: named twice" in out
    assert "hand: '99999999999999999999" in out and "(5000 characters): not a number 1..13" in out
    assert "hand: '\u00b2': not a number 1..13" in out
    assert "type `hand` and 4 numbers (e.g. `hand 1 2 3 4`), `deck`, or q to quit" in out  # the empty line
    assert cmd == ChooseHand("german", ("de_pz_iv_h#1", f"{T}#1", "de_hs129b#1", f"{P}#1"))
    assert "choose_hand" not in out  # no list of raw combinations


def test_a_kharkov_setup_at_the_terminal_has_no_deck(standard):
    k = load_scenario(find_scenario("kharkov")).new_game(5)
    if k.phase != "setup":
        pytest.skip("kharkov fixes both hands")
    side = k.to_act
    cmd, out = _terminal(k, side, ["deck", "hand 1 2 3 4"])
    assert "deck: this side plays the scenario's Reserves deck (no point budget, R4.3)" in out
    assert isinstance(cmd, ChooseHand)


class _BuildsThen:
    """A player that builds DECK_A in setup, then plays as the normal computer player."""

    name = "builder"

    def __init__(self, side: str, seed: int) -> None:
        self.side, self.inner, self.sent = side, make_player("normal", side, seed), False

    def choose(self, state):
        if not self.sent:
            self.sent = True
            return BuildDeck(self.side, DECK_A)
        return self.inner.choose(state)


def test_a_seeded_game_with_a_built_deck_replays_to_the_same_state_hash(capsys, standard, tmp_path):
    save = tmp_path / "built.json"
    players = {"german": _BuildsThen("german", 9), "soviet": make_player("normal", "soviet", 9)}
    res = run_game(standard, players, seed=9, max_turns=2, save_path=save)
    assert res.state.commands[0] == BuildDeck("german", DECK_A)
    rc, out, _ = run(capsys, "replay", str(save), "--verify", "--json")
    d = json.loads(out)
    assert rc == 0 and d["ok"] and d["verified"] and d["state_hash"] == res.state.state_hash()
    # a deck file through the CLI into the terminal player: the same first command
    assert TerminalPlayer("german", DECK_A, "x.toml").choose(standard.new_game(9)) == BuildDeck(
        "german", DECK_A
    )


@pytest.mark.parametrize(
    "name", ["a" * 300, "a/" * 3000 + "x.toml"], ids=["300-characters", "3000-folders-deep"]
)
def test_a_deck_file_name_the_file_system_refuses_is_one_short_line(capsys, work, name):
    """The fresh-user pass of the sixth session: a 300-character name raised ``OSError: File name
    too long`` out of the path check (a traceback that ended the game); now it is one line, the
    name cut short (:func:`hexwar.errors.clip`)."""
    rc, out, err = run(capsys, "play", "standard", "--headless", "--ai", "soviet", "--deck", f"german={name}")
    assert rc == 2 and out == "" and "Traceback" not in err, err
    assert err.count("\n") == 1 and len(err) < 600, err
    assert "characters)" in err


def test_a_pasted_line_of_one_card_many_times_says_each_refusal_once(standard):
    """The fresh-user pass of the sixth session: 50,000 copies of one card id on one line printed
    49,997 identical refusals (6.8 MB). Now each refusal is said once for the line; the deck
    still holds at most 3 copies (R10.4)."""
    from hexwar.game.terminal import deck_prompt

    g = standard.new_game(3)
    answers = iter(["clear", "de_grenadiers " * 50_000, "cancel"])
    lines: list[str] = []
    assert deck_prompt(g, "german", lambda _q: next(answers), lines.append) is None
    refused = [x for x in lines if "at most 3 copies of Grenadier squad" in x]
    assert len(refused) == 1, len(refused)
    assert any("deck: nothing changed" in x for x in lines)


def test_without_a_display_the_terminal_suggestion_keeps_the_deck(capsys, work, monkeypatch):
    """The fresh-user pass of the sixth session: with no display, `hexwar play standard --deck
    german=FILE` offered the terminal command without the deck; it now says to give it too."""
    import hexwar.cli.game as game_cli

    monkeypatch.setattr(game_cli, "_no_display", lambda: True)
    rc, out, err = run(capsys, "play", "standard", "--deck", "german=decks/good.toml")
    assert rc == 1 and "Traceback" not in err
    assert "hexwar play standard --headless --ai soviet" in out and "Give it your --deck option too" in out
    rc, out, _ = run(capsys, "play", "standard")
    assert rc == 1 and "--deck" not in out
