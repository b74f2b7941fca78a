"""The terminal lists every option of a decision: past the first 200, ``more`` prints the rest.

Found by trying hexwar as a new player: ``hexwar play standard --headless --ai soviet`` asks for
a starting hand (000 Standard Game Setup: 4 of the Reserves cards, R10) from up to C(n, 4) options;
the prompt accepted ``0..220`` but printed only 200 of them and the last 21 could be chosen
only blind.
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


def test_more_lists_the_options_past_the_first_200(monkeypatch, capsys):
    g, cmds, seed = _setup_with_many_hands()
    side = g.to_act
    assert len(set(cmds)) == len(cmds), f"seed {seed}"  # each hand listed once
    last = len(cmds) - 1
    answers = iter(["more", str(last)])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    chosen = TerminalPlayer(side).choose(g)
    out = capsys.readouterr().out
    assert chosen == cmds[last], f"seed {seed}"
    assert f"{len(cmds) - TerminalPlayer.SHOWN} more: type `more` to list them" in out, f"seed {seed}"
    # the last option is printed (by `more`) before it is chosen, with its number
    assert f"  {last:3d}  {cmds[last]}" in out, f"seed {seed}"


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
