"""The card game on lines at the terminal (issue 33, R11.1, R12.1): its own terminal player.

Before it, ``hexwar play lines --headless`` used the hex game's terminal player: ``inspect``
crashed the game (``LinesState`` has no ``battlemap``) and lost the turn in progress, ``odds N``
looked for the hex game's Declare and never answered, and a starting hand could only be one of
the computer's 200 listed hands of distinct cards (no copies).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import click
import pytest

from hexwar.game.save import load_game
from hexwar.lines.commands import ChooseHand, Declare
from hexwar.lines.players import make_lines_player
from hexwar.lines.scenario import load_lines_scenario
from hexwar.lines.terminal import LinesTerminalPlayer

ROOT = Path(__file__).resolve().parent.parent


class Script:
    """Typed lines fed to the player, and everything it printed."""

    def __init__(self, *typed: str):
        self.typed = list(typed)
        self.out: list[str] = []

    def prompt(self, text: str) -> str:
        if not self.typed:
            raise click.exceptions.Abort()
        return self.typed.pop(0)

    def echo(self, text: str) -> None:
        self.out.append(str(text))

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def _game(seed: int = 5):
    return load_lines_scenario("lines").new_game(seed=seed)


def _until(state, pred, seed: int = 5, limit: int = 2000):
    """Play both seats with the standard computer player until ``pred(state)``."""
    ais = {s: make_lines_player("standard", s, seed) for s in state.seats}
    for _ in range(limit):
        if pred(state):
            return state
        state.apply(ais[state.to_act].choose(state))
    raise AssertionError("never reached")


def test_a_starting_hand_is_picked_one_card_at_a_time_with_copies():
    st = _game()
    kinds = Counter(x.rsplit("#", 1)[0] for x in st.reserves["german"])
    twice = sorted(k for k, n in kinds.items() if n >= 2)[0]  # seed 5: Marder III, Panzer crews
    order = sorted(kinds, key=lambda k: (p_name(k), k))
    i = order.index(twice)
    o1, o2 = [j for j, k in enumerate(order) if k != twice][:2]
    s = Script(str(i), str(i), "back", str(i), str(o1), str(o2))
    p = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo)
    cmd = p.choose(st)
    assert isinstance(cmd, ChooseHand)
    picked = Counter(x.rsplit("#", 1)[0] for x in cmd.cards)
    assert picked[twice] == 2 and picked[order[o1]] == 1 and picked[order[o2]] == 1
    assert st.check(cmd) is None  # any legal hand, copies included
    # not one of the computer's listed hands (those hold one card of each kind)
    assert cmd not in st.legal_commands("german")
    st.apply(cmd)
    assert Counter(x.rsplit("#", 1)[0] for x in st.hand_units["german"]) == picked


def p_name(kind: str) -> str:
    from hexwar.lines.rules import cards

    return cards().unit(kind + "#1").name


def test_a_pick_beyond_the_copies_in_the_deck_is_refused_and_asked_again():
    st = _game()
    kinds = Counter(x.rsplit("#", 1)[0] for x in st.reserves["german"])
    order = sorted(kinds, key=lambda k: (p_name(k), k))
    once = order.index(next(k for k in order if kinds[k] == 1))
    rest = [j for j, k in enumerate(order) if j != once][:3]
    s = Script(str(once), str(once), "99", "x", *map(str, rest))
    cmd = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo).choose(st)
    assert len(cmd.cards) == 4 and st.check(cmd) is None
    assert "left in your Reserves deck" in s.text and "enter a number" in s.text


def _declaring():
    st = _game()
    return _until(
        st, lambda g: g.to_act == "german" and any(isinstance(c, Declare) for c in g.legal_commands("german"))
    )


def test_the_table_shows_hand_lines_and_weapons_but_never_the_opponents_hand():
    st = _declaring()
    s = Script("table")
    p = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo)
    with pytest.raises(click.exceptions.Abort):
        p.choose(st)
    text = s.text
    from hexwar.lines.rules import card

    for uid in st.hand_units["german"]:
        assert uid in text  # own hand, with weapons
        for w in card(uid).weapons:
            assert w.describe() in text
    for side in ("german", "soviet"):
        for ln in ("front", "rear", "air"):
            for uid in st.lines[side][ln]:
                assert uid in text
                assert all(w.describe() in text for w in card(uid).weapons)
    hidden = [x for x in st.hand_units["soviet"] + st.hand_commands["soviet"]]
    assert hidden, "the test needs cards in the opponent's hand"
    for x in hidden:
        assert x not in text, x
    n_units, n_cmds = len(st.hand_units["soviet"]), len(st.hand_commands["soviet"])
    assert f"soviet {n_units} unit / {n_cmds} Command" in text


def test_inspect_shows_visible_cards_and_refuses_the_opponents_hand_even_by_exact_id():
    st = _declaring()
    mine = st.hand_commands["german"][0] if st.hand_commands["german"] else st.hand_units["german"][0]
    enemy_in_play = next(x for ln in ("front", "rear") for x in st.lines["soviet"][ln])
    secret = (st.hand_units["soviet"] + st.hand_commands["soviet"])[0]
    s = Script(f"inspect {enemy_in_play}", f"inspect {mine}", f"inspect {secret}", "inspect zzz")
    p = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo)
    with pytest.raises(click.exceptions.Abort):
        p.choose(st)
    from hexwar.lines.rules import card

    assert card(enemy_in_play).help_text().splitlines()[0] in s.text
    assert "in play: soviet" in s.text
    assert f"no card in your view matches {secret!r}" in s.text
    assert "no card in your view matches 'zzz'" in s.text


def test_odds_n_prints_the_exact_odds_of_a_listed_declaration():
    st = _declaring()
    cmds = st.legal_commands("german")
    k = next(i for i, c in enumerate(cmds) if isinstance(c, Declare))
    s = Script(
        f"odds {k}", "odds 999", f"odds {next(i for i, c in enumerate(cmds) if not isinstance(c, Declare))}"
    )
    p = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo)
    with pytest.raises(click.exceptions.Abort):
        p.choose(st)
    from hexwar.lines.odds import declare_odds

    c = cmds[k]
    o = declare_odds(st, c.unit, c.target, tuple(c.weapons), c.at_crew)
    block = s.text.split("odds of ", 1)[1].splitlines()
    pct = {ln.split(":")[0].strip(): float(ln.split(":")[1].strip().rstrip("%")) for ln in block[1:6]}
    assert set(pct) == {"destroyed", "Damage card", "damaged", "no effect", "miss"}
    assert abs(sum(pct.values()) - 100.0) < 0.3  # one distribution, rounded to 0.1 each
    assert pct["miss"] == pytest.approx(100 * o.miss, abs=0.05)
    assert "give the number of a listed declare" in s.text


def test_a_typed_command_after_inspect_and_odds_is_taken_the_turn_goes_on():
    st = _declaring()
    cmds = st.legal_commands("german")
    k = next(i for i, c in enumerate(cmds) if isinstance(c, Declare))
    s = Script("inspect nothing-here", f"odds {k}", "", "-1", str(k))
    got = LinesTerminalPlayer("german", prompt=s.prompt, echo=s.echo).choose(st)
    assert got == cmds[k]
    st.apply(got)


def test_at_the_terminal_inspect_and_odds_never_end_the_game_and_q_keeps_the_turn(tmp_path):
    """The whole command: a person picks a hand with a copy, commits, inspects, asks odds, quits;
    the save holds every command taken so far and verifies."""
    save = tmp_path / "lq.json"
    typed = "\n".join(["5", "5", "4", "8", "inspect Marder", "inspect su_t34_76#1", "odds 0", "0", "0", "q"])
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexwar.cli",
            "play",
            "lines",
            "--headless",
            "--ai",
            "soviet",
            "--seed",
            "5",
            "--save",
            str(save),
        ],
        input=typed + "\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in out.stderr, out.stderr
    assert "aborted" in out.stderr
    assert "Defense 3, Endurance 10 / Half 5" in out.stdout  # inspect Marder III answered
    data = json.loads(save.read_text())
    assert [c["cmd"] for c in data["commands"]][-2:] == ["commit", "commit"]  # the turn so far is kept
    hand = next(c for c in data["commands"] if c["cmd"] == "choose_hand" and c["seat"] == "german")["cards"]
    assert sorted(x.rsplit("#", 1)[0] for x in hand).count("de_tank_crew_regular") == 2
    st = load_game(save)  # replays and verifies
    assert st.phase == "commitment" and st.turn == 1
    # the opponent's starting hand is never printed (only its size), though the person's own is
    takes = [ln.strip() for ln in out.stdout.splitlines() if " takes " in ln and "into hand" in ln]
    assert takes[0].startswith("german takes Panzer crew (regular) (de_tank_crew_regular#")
    assert takes[1:] == ["soviet takes 4 unit cards into hand (hidden)"]
