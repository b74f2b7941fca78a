"""``hexwar play lines`` offers to continue the last unfinished card-table game from its autosave
(issue 36, as ``hexwar play`` does for the hex game): the newest unfinished lines autosave of the
scenario is offered on the start page; C (or its button) sits down at that game, which keeps
saving to its own file with the computer seats it was saved with."""

from __future__ import annotations

import json
import os

import pytest

from hexwar.cli import main
from hexwar.render import backend
from hexwar.ui.autosave import latest_autosave

pytestmark = pytest.mark.ui

try:
    backend.configure(True)
    from pyglet.window import key

    from hexwar.ui.lines_screen import LinesWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)


def _lines_save(path, turns=1, seed=4):
    assert main(["play", "lines", "--headless", "--ai", "german,soviet", "--turns", str(turns), "--seed",
                 str(seed), "--save", str(path), "--json"]) == 0  # fmt: skip
    return path


def test_the_newest_unfinished_lines_autosave_of_the_scenario_is_the_one_offered(tmp_path, capsys):
    old = _lines_save(tmp_path / "a-old.json", seed=4)
    new = _lines_save(tmp_path / "b-new.json", seed=5)
    os.utime(old, (1_000_000, 1_000_000))
    capsys.readouterr()
    offer = latest_autosave(tmp_path, mode="lines", scenario_id="lines")
    assert offer is not None and offer.path == new
    assert offer.players == {"german": "standard", "soviet": "standard"}
    assert latest_autosave(tmp_path) is None  # the hex game's offer ignores card-table games
    assert latest_autosave(tmp_path, mode="lines", scenario_id="lines_kursk") is None
    d = json.loads(new.read_text())  # a finished game is never offered
    d["result"] = "german wins"
    new.write_text(json.dumps(d))
    offer = latest_autosave(tmp_path, mode="lines", scenario_id="lines")
    assert offer is not None and offer.path == old


def test_c_on_the_start_page_continues_the_offered_game_and_it_keeps_its_autosave(tmp_path, capsys):
    from hexwar.game.save import load_game
    from hexwar.game.scenario import find_scenario, load_scenario

    save = _lines_save(tmp_path / "g.json")
    capsys.readouterr()
    offer = latest_autosave(tmp_path, mode="lines", scenario_id="lines")
    sc = load_scenario(find_scenario("lines"))
    win = LinesWindow(None, save=str(tmp_path / "new.json"), scenario=sc, ai_names={"soviet": "standard"},
                      visible=False, offer=offer)  # fmt: skip
    try:
        from hexwar.ui.layout_check import layout_problems

        for w, h in ((800, 600), (1400, 900)):  # the start page with the offer holds its layout
            win.view.resize(w, h)
            win.start.layout(w, h)
            win.draw()
            assert not layout_problems(win.view.painter, w, h, "lines start with an offer")
        texts = win.view.painter.texts
        assert any(t.startswith("Continue the last game: ") for t in texts)
        assert "Start a new game  (N)" in texts  # Enter continues (the focus), so Start is not "(Enter)"
        assert win.start.screen.focus is win.start.screen.root.continue_btn  # Enter continues
        win.key(key.C, 0)
        assert win.ctl is not None and win.save == str(save)
        want = load_game(save)
        assert win.ctl.state.commands == want.commands and win.ctl.state.turn == want.turn
        assert set(win.ctl.ai) == {"german", "soviet"}  # the seats as saved: both computers
        assert win.behaviour.autosave() == save  # the quit question names the game's own file
    finally:
        win.window.close()


def test_play_lines_passes_the_offer_to_the_window(tmp_path, monkeypatch, capsys):
    import hexwar.cli.terminal as term
    import hexwar.ui.lines_screen as ls

    _lines_save(tmp_path / "g.json")
    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    monkeypatch.setattr(term, "_no_display", lambda: False)
    got = {}
    monkeypatch.setattr(ls, "run", lambda **kw: got.update(kw))
    assert main(["play", "lines"]) == 0
    assert got["offer"] is not None and got["offer"].path == tmp_path / "g.json"
    assert "offered first" in capsys.readouterr().out


def test_n_on_the_start_page_starts_a_new_game_instead_of_the_offered_one(tmp_path, capsys):
    from hexwar.game.scenario import find_scenario, load_scenario

    save = _lines_save(tmp_path / "g.json")
    capsys.readouterr()
    offer = latest_autosave(tmp_path, mode="lines", scenario_id="lines")
    sc = load_scenario(find_scenario("lines"))
    new = tmp_path / "new.json"
    win = LinesWindow(None, save=str(new), scenario=sc, ai_names={"soviet": "standard"}, visible=False,
                      offer=offer)  # fmt: skip
    try:
        win.key(key.N, 0)
        assert win.ctl is not None and win.ctl.state.phase == "setup" and win.save == str(new)
        assert win.ctl.state.commands == [] and save.exists()  # the offered game is left as it was
    finally:
        win.window.close()


def test_the_card_table_autosaves_at_the_end_of_every_turn(tmp_path):
    """Walk-through trip: the window handed the autosave only the last five events of an action,
    and the action that ends a turn logs more after the turn's end (the next turn's initiative
    and first phase), so a game in the window was saved only when quitting."""
    from hexwar.game.save import read_save
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.players import make_lines_player

    st = load_scenario(find_scenario("lines")).new_game(seed=7)
    save = tmp_path / "auto.json"
    ai = {s: make_lines_player("standard", s, st.seed) for s in st.seats}
    win = LinesWindow(st, ai, str(save), visible=False)
    try:
        for _ in range(2000):
            if st.turn >= 3 or st.over:
                break
            win.tick(0.25)
        assert st.turn >= 3, "the computer players never reached turn 3"
        sf = read_save(save)  # written at the end of turn 2 without anyone quitting
        assert sf.final_turn >= 2 and sf.mode == "lines"
    finally:
        win.window.close()
