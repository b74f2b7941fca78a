"""The terminal's ``undo`` and ``inspect`` in the card game on lines answer, never crash.

Found by typing them at ``hexwar play lines --headless --ai soviet``: both raised
AttributeError tracebacks (``'Undo' object has no attribute 'seat'``, ``'LinesState' object
has no attribute 'battlemap'``): lines (R11.1) have no map and no undo (R12.3 is the hex game's).
"""

from __future__ import annotations

import click
import pytest

from hexwar.cli.game import TerminalPlayer
from hexwar.game.scenario import find_scenario, load_scenario


def test_undo_and_inspect_on_lines_say_why_and_ask_again(monkeypatch, capsys):
    st = load_scenario(find_scenario("lines")).new_game(5)
    side = st.to_act
    legal = st.legal_commands(side)
    answers = iter(["undo", "inspect A01", "inspect A01 B02", "0"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    assert TerminalPlayer(side).choose(st) == legal[0]
    out = capsys.readouterr().out
    assert out.count("not in the card game on lines (R11.1)") == 3
    assert "undo: not in the card game" in out and "inspect: not in the card game" in out


def test_q_still_quits_on_lines(monkeypatch):
    st = load_scenario(find_scenario("lines")).new_game(5)
    monkeypatch.setattr(click, "prompt", lambda *a, **k: "q")
    with pytest.raises(click.exceptions.Abort):
        TerminalPlayer(st.to_act).choose(st)
