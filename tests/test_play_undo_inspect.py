"""Issue 17 items 3 and 8 at the controller and terminal: Ctrl+Z takes back a commit (R12.3),
the hex inspector reads a hex in plain text with LOS from the selected unit (R3), and the
terminal game accepts ``undo`` and ``inspect HEX [FROM]``."""

from __future__ import annotations

from game_helpers import advance_to, scenario

from hexwar.game.commands import Commit, Undo
from hexwar.game.inspect import inspect_hex, los_phrase
from hexwar.game.state import Phase
from hexwar.model.hexgrid import Hex
from hexwar.ui.clock import ManualClock
from hexwar.ui.controller import PlayController
from hexwar.ui.input_map import play_intent
from hexwar.ui.widgets import keys as K


def test_ctrl_z_is_the_undo_intent_and_plain_z_is_not():
    assert play_intent(ord("z"), K.MOD_CTRL) == "undo"
    assert play_intent(ord("z"), 0) is None


def test_the_undo_button_takes_back_a_commit_and_disappears():
    g = scenario("game_small").new_game(seed=3)
    advance_to(g, Phase.COMMITMENT)
    side = g.to_act
    other = "soviet" if side == "german" else "german"
    ctl = PlayController(g, ai={other: object()}, clock=ManualClock())
    before = g.state_hash()
    assert "Undo" not in [a.label for a in ctl.actions()]
    c = next(c for c in g.legal_commands() if isinstance(c, Commit) and c.hex is not None)
    ctl.issue(c)
    assert ctl.can_undo()
    undo = next(a for a in ctl.actions() if a.label == "Undo")
    undo.run()
    assert g.state_hash() == before and g.commands[-1] == Undo(side)
    assert ctl.message.startswith("Taken back: commits")
    line = next(ln for ln in reversed(ctl.log) if ln.kind == "undo")  # the window's log says it in words
    assert line.text == f"{side} takes back: {ctl.message[len('Taken back: ') : -len(' (R12.3).')]} (R12.3)"
    assert "unit=" not in line.text and "unit=" in g.log[-1].text  # the game's own log keeps its form
    assert "Undo" not in [a.label for a in ctl.actions()]
    ctl.undo()
    assert ctl.error and "nothing to undo" in ctl.message


def test_the_inspector_names_terrain_level_units_and_los_with_its_reason():
    g = scenario("game_small").new_game(seed=3)
    bm = g.battlemap
    h = Hex.from_label("B02")
    text = inspect_hex(g, h)
    assert text.startswith("B02: " + bm.terrain_at(h).name) and f"level {bm.level_at(h)}" in text
    far = Hex.from_label("F05")
    text = inspect_hex(g, far, h, "Rifles in B02")
    assert text.endswith(f"LOS from Rifles in B02: {los_phrase(g, h, far)}")


def test_the_terminal_game_reads_undo_and_inspect(monkeypatch, capsys):
    import click

    from hexwar.cli.game import TerminalPlayer

    g = scenario("game_small").new_game(seed=3)
    advance_to(g, Phase.COMMITMENT)
    side = g.to_act
    c = next(c for c in g.legal_commands() if isinstance(c, Commit) and c.hex is not None)
    g.apply(c)
    answers = iter(["inspect B02", "inspect Z99", "undo"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    assert TerminalPlayer(side).choose(g) == Undo(side)
    out = capsys.readouterr().out
    assert "B02: " in out and "inspect: " in out


def test_the_terminal_game_tells_what_wins_before_the_first_choice(monkeypatch, capsys):
    """R10: a person at the terminal reads the scenario's name, its briefing and what wins
    (victory points, Overrun, the hold victory, the objectives) once, before the first choice
    (fresh8: the briefing was never shown, so a hold victory came as a surprise)."""
    import dataclasses

    import click

    from hexwar.cli.game import TerminalPlayer
    from hexwar.game.scenario import HoldVictory
    from hexwar.game.victory import conditions

    sc = dataclasses.replace(scenario("game_small"), hold=HoldVictory("soviet", 3), description="Hold it.")
    g = sc.new_game(seed=3)
    advance_to(g, Phase.COMMITMENT)
    side = g.to_act
    c = next(c for c in g.legal_commands() if isinstance(c, Commit) and c.hex is not None)
    g.apply(c)
    answers = iter(["undo", "undo"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    player = TerminalPlayer(side)
    assert player.choose(g) == Undo(side)
    told = "\n".join([f"== {sc.name} ==", "Hold it.", "", *conditions(g)])
    out = capsys.readouterr().out
    assert out.startswith("\n" + told + "\n") and "Hold victory: the Soviets win outright" in out
    assert player.choose(g) == Undo(side)
    assert told not in capsys.readouterr().out  # once a game
