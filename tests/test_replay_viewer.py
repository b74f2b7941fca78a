"""The replay viewer (issue 36): exact odds of every roll, each side's luck, stepping forward
and back through the engine's own replay, the window driven headless, and the commands."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.game.luck import dice_distribution, roll_luck_of
from hexwar.render import backend

DATA = Path(__file__).parent / "data"
F = Fraction


def test_dice_distributions_are_exact():
    d = dice_distribution("2d10")  # R6.3: P(sum = s) = (10 - |s - 11|) / 100
    assert all(d[s] == F(10 - abs(s - 11), 100) for s in range(2, 21)) and sum(d.values()) == 1
    assert dice_distribution("3d6")[10] == F(27, 216)  # 27 of the 216 ways sum to 10
    assert dice_distribution("d10") == {v: F(1, 10) for v in range(1, 11)}
    assert dice_distribution("choice of 4") == {v: F(1, 4) for v in range(4)}
    with pytest.raises(ValueError):
        dice_distribution("shuffle")


def test_a_rolls_odds_before_it_was_rolled():
    r = roll_luck_of("2d10", 17, needed=12, modifier=-2)  # 2d10 - 2 >= 12: 2d10 >= 14
    assert r.p_success == F(7 + 6 + 5 + 4 + 3 + 2 + 1, 100) and r.success is True
    assert (r.p_exact, r.p_at_least, r.p_at_most) == (F(4, 100), F(10, 100), F(94, 100))
    assert r.percentile == F(94, 100) - F(2, 100) and r.rarity == F(10, 100)
    # R6.4: naturals 19-20 always hit, even when 25 is needed; classic 2-3 never hit the target
    hard = roll_luck_of("2d10", 19, needed=25, always=frozenset({19, 20}))
    assert hard.p_success == F(3, 100) and hard.success is True
    easy = roll_luck_of("2d10", 3, needed=2, modifier=5, never=frozenset({2, 3}))
    assert easy.p_success == 1 - F(1 + 2, 100) and easy.success is False


@pytest.fixture(scope="module")
def hex_save(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    for f in ("game_tiny.toml", "game_tiny_map.json"):
        shutil.copy(DATA / f, folder / f)
    save = folder / "tiny.json"
    assert main(["play", str(folder / "game_tiny.toml"), "--headless", "--ai", "german,soviet",
                 "--seed", "5", "--save", str(save), "--json"]) == 0  # fmt: skip
    return save


def test_the_model_steps_forward_and_back_through_the_engines_own_replay(hex_save):
    from hexwar.game.odds import declare_odds
    from hexwar.game.save import read_save, replay
    from hexwar.ui.replay_model import load_replay

    m = load_replay(hex_save)
    sf = read_save(hex_save)
    assert len(m) == len(sf.commands) > 20
    for i in (0, 9, 31, 4, len(m) - 1, 2, len(m)):  # forward and back again
        assert m.state_at(i).state_hash() == replay(sf, verify=False, until=i).state_hash(), i
    final = replay(sf, verify=False)
    dice_rolls = [e.roll for e in final.log if e.kind == "roll" and e.roll.dice != "shuffle"]
    got = [r for s in m.steps for r in s.rolls]
    assert [(r.dice, r.natural) for r in got] == [
        (x.dice, x.natural) for x in dice_rolls
    ]  # every roll, in order
    decl = [s for s in m.steps if s.expected_vp is not None]
    assert decl, "the computer declared no attack"
    s = decl[0]
    cmd = sf.commands[s.index]
    want = declare_odds(
        replay(sf, verify=False, until=s.index), cmd.attacker, cmd.target, tuple(cmd.weapons), cmd.at_crew
    )
    assert want is not None and s.expected_vp == pytest.approx(want.expected_vp, abs=1e-12)
    luck = m.luck()
    assert set(luck) >= {"german", "soviet"}
    for side in ("german", "soviet"):
        sl = luck[side]
        assert sl.expected_vp == pytest.approx(sum(x.expected_vp or 0 for x in m.steps if x.side == side))
        assert 0 <= sl.actual_vp <= final.vp[side]  # scored while resolving: part of the final VP
        if sl.rolls:
            assert sl.rarest is not None and sl.rarest.rarity == min(r.rarity for r in sl.rolls)
            assert 0 < sl.mean_percentile < 1


def test_hexwar_replay_luck_prints_each_side(hex_save, capsys):
    assert main(["replay", str(hex_save), "--luck"]) == 0
    out = capsys.readouterr().out
    assert out.count("rolls, mean percentile") == 2 and "VP from attacks: expected" in out
    assert "rarest roll (step" in out and "P(>=)" in out


def test_the_replay_window_steps_with_keys_and_shows_odds_and_luck(hex_save, tmp_path, capsys):
    try:
        backend.configure(True)
        from pyglet.window import key

        from hexwar.ui.replay_model import load_replay
        from hexwar.ui.replay_window import ReplayWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    m = load_replay(hex_save)
    win = ReplayWindow(m, width=1400, height=900, visible=False)
    press = win.dispatch_event
    try:
        assert win.step == 0
        press("on_key_press", key.RIGHT, 0)
        press("on_key_press", key.PAGEDOWN, 0)
        assert win.step == 11
        press("on_key_press", key.LEFT, 0)
        assert win.step == 10
        assert win.model.state_at(10).state_hash() == m.state_at(10).state_hash()
        first_roll = next(s for s in m.steps if any(r.p_success is not None for r in s.rolls))
        win.go(first_roll.index + 1)
        t = " ".join(win.painter.texts)
        assert "chance of success before the roll:" in t and "Luck so far" in t and "Log" in t
        press("on_key_press", key.END, 0)
        assert win.step == len(m)
        press("on_key_press", key.HOME, 0)
        assert win.step == 0

        # the same steps with the mouse alone (walk-through trip: the replay had only keys)
        def click(tip):
            b = next(b for b in win.painter.widgets if b.tip == tip)
            press("on_mouse_press", b.x + b.w / 2, b.y + b.h / 2, 1, 0)

        click("replay next")
        click("replay next 10")
        assert win.step == 11
        click("replay back")
        assert win.step == 10
        click("replay end")
        assert win.step == len(m)
        assert next(b for b in win.painter.widgets if b.tip == "replay next").action is None  # at the end
        click("replay start")
        assert win.step == 0
        press("on_key_press", key.ESCAPE, 0)  # never quits
        assert win.context is not None
        press("on_key_press", key.Q, key.MOD_CTRL)  # a replay has nothing to lose: no question
        assert win.context is None
    finally:
        if win.context is not None:
            win.close()
    out = tmp_path / "replay.png"
    assert main(["render", str(hex_save), "--screen", "replay", "--out", str(out), "--size", "1000x700"]) == 0
    assert out.stat().st_size > 10_000 and "wrote" in capsys.readouterr().out


def test_a_line_game_and_a_campaign_replay_too(tmp_path):
    from hexwar.game.save import read_save, replay
    from hexwar.ui.replay_model import load_replay

    lines = tmp_path / "lines.json"
    assert main(["play", "lines", "--headless", "--ai", "german,soviet", "--save", str(lines), "--json"]) == 0
    m = load_replay(lines)
    assert m.mode == "lines" and any(s.rolls for s in m.steps)
    assert any(s.expected_vp is not None for s in m.steps)
    sf = read_save(lines)
    assert m.state_at(len(m) // 2).state_hash() == replay(sf, verify=False, until=len(m) // 2).state_hash()
    war = tmp_path / "war.json"
    assert main(["campaign", "--headless", "--ai", "german,soviet", "--seed", "3", "--stop-after", "1941",
                 "--save", str(war), "--json"]) == 0  # fmt: skip
    c = load_replay(war)
    assert c.mode == "campaign" and len(c) > 10
    from hexwar.campaign.save import load_campaign

    assert c.final.state_hash() == load_campaign(war).state_hash()
    assert all(sl.expected_vp is None for sl in c.luck().values())  # no attack odds in the campaign


def test_the_play_windows_ctrl_r_opens_the_replay_of_the_game_so_far(tmp_path):
    try:
        backend.configure(True)
        from pyglet.window import key

        from hexwar.game.scenario import load_scenario
        from hexwar.ui.play_window import PlayWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    from hexwar.game.ai import make_player
    from hexwar.ui.clock import ManualClock

    st = load_scenario(DATA / "game_tiny.toml").new_game(seed=5)
    ais = {s: make_player("standard", s, 5) for s in ("german", "soviet")}
    for _ in range(12):  # a dozen commands of the computer against itself
        st.apply(ais[st.to_act].choose(st))
    win = PlayWindow(st, ai={}, save=str(tmp_path / "g.json"), width=1200, height=800, visible=False,
                     schedule=False, clock=ManualClock())  # fmt: skip
    try:
        win.dispatch_event("on_key_press", key.R, key.MOD_CTRL)
        rw = win.replay_window
        assert rw.model.path == str(tmp_path / "g.json") and len(rw.model) == 12 and rw.step == 12
        assert rw.model.final.state_hash() == st.state_hash()
        rw.close()
    finally:
        win.close()


def test_a_line_games_replay_offers_no_actions_and_shows_no_hand(tmp_path, capsys):
    """Walk-through trip: the replay of a line game drew the card table as if someone were to
    act: the setup picker with the German Reserves deck, "Take this hand", the phase's buttons
    and its prompt ("click 4 cards ... then Enter")."""
    from hexwar.render.mesh import TexMesh
    from hexwar.ui.replay_model import load_replay
    from hexwar.ui.replay_window import paint_replay
    from hexwar.ui.widgets import MonoMeasure, Painter

    class FakeAtlas(MonoMeasure):
        def text(self, *a, **k):
            return TexMesh.empty()

    lines = tmp_path / "lines.json"
    assert main(["play", "lines", "--headless", "--ai", "german,soviet", "--turns", "2", "--save", str(lines),
                 "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    m = load_replay(lines)
    for step in (0, len(m) // 2, len(m)):
        p = Painter(FakeAtlas(0.5))
        paint_replay(p, m, step, 1400, 900)
        acts = [
            b.tip for b in p.widgets if b.action is not None or b.tip.startswith(("reserve ", "take hand"))
        ]
        assert not [
            t for t in acts if t.startswith(("reserve ", "take hand", "end phase", "declare", "draw "))
        ]
        assert any(t.startswith("Replay: ") for t in p.texts), step
        assert "spectator: no hand shown" in p.texts  # R12.1: hands stay hidden in a replay too
