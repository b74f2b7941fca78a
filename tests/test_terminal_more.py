"""The terminal lists every option of a decision: past the first 200, ``more`` prints the rest.

Found by trying hexwar as a new player: ``hexwar play standard --headless --ai soviet`` asked
for a starting hand (000 Standard Game Setup: 4 of the Reserves cards, R10) from up to C(n, 4)
options; the prompt accepted ``0..220`` but printed only 200 of them and the last 21 could be
chosen only blind. The setup now lists the cards, not the hands (hexwar.game.terminal.setup_choice).
"""

from __future__ import annotations

import click

from hexwar.cli.game import TerminalPlayer
from hexwar.game.commands import ChooseHand
from hexwar.game.scenario import find_scenario, load_scenario


def _setup_with_many_hands():
    """The standard scenario in its setup phase, where the side to act has > 200 hands."""
    for seed in range(1, 40):
        g = load_scenario(find_scenario("standard")).new_game(seed)
        cmds = g.legal_commands(g.to_act)
        if len(cmds) > TerminalPlayer.SHOWN + 5 and all(isinstance(c, ChooseHand) for c in cmds):
            return g, cmds, seed
    raise AssertionError("no seed in 1..39 gives a setup with more than 205 hands")


def test_the_setup_lists_each_card_once_instead_of_every_hand(monkeypatch, capsys):
    """Since the readable setup (000 Standard Game Setup, hexwar.game.terminal.setup_choice) the
    hundreds of hands are not listed: every card of the Reserves deck is, numbered, and the
    last one is chosen by its number like the first."""
    g, cmds, seed = _setup_with_many_hands()
    side = g.to_act
    deck = g.reserves[side]
    answers = iter([f"hand 1 2 3 {len(deck)}"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    chosen = TerminalPlayer(side).choose(g)
    out = capsys.readouterr().out
    assert chosen == ChooseHand(side, (deck[0], deck[1], deck[2], deck[-1])), f"seed {seed}"
    assert g.check(chosen) is None  # the hand listing held one instance a card id
    for i, c in enumerate(deck, 1):
        assert f"  {i:3d}  " in out and f"[{c}]" in out, f"seed {seed}"
    assert "more: type `more`" not in out and "choose_hand" not in out


class _ManyOptions:
    """A decision of 250 listed options (no map: the generic menu)."""

    turn, phase = 1, "draw"

    def legal_commands(self, side):
        from hexwar.game.commands import Discard

        return [Discard(side, f"de_grenadiers#{i}") for i in range(250)]


def test_more_lists_the_options_past_the_first_200(capsys):
    from hexwar.game.terminal import SHOWN, read_choice

    st = _ManyOptions()
    cmds = st.legal_commands("german")
    answers = iter(["more", "249"])
    lines: list[str] = []
    chosen = read_choice(st, "german", lambda _p: next(answers), lines.append)
    out = "\n".join(lines)
    assert chosen == cmds[249]
    assert f"{250 - SHOWN} more: type `more` to list them" in out
    assert f"  249  {cmds[249]}" in out  # printed (by `more`) before it is chosen


def test_more_when_everything_is_shown_says_so(monkeypatch, capsys):
    g2 = load_scenario(find_scenario("skirmish")).new_game(3)
    from hexwar.game.commands import EndPhase

    while not any(isinstance(c, EndPhase) for c in g2.legal_commands(g2.to_act)):
        g2.apply(g2.legal_commands(g2.to_act)[0])
    side = g2.to_act
    answers = iter(["more", "q"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    try:
        TerminalPlayer(side).choose(g2)
    except click.exceptions.Abort:
        pass
    out = capsys.readouterr().out
    assert "(every option is listed above)" in out
