"""The play window on a network seat, and the local window under fog (headless over EGL)."""

from __future__ import annotations

import time

import pytest

from hexwar.render import backend

pytestmark = [pytest.mark.ui, pytest.mark.integration]

try:
    backend.configure(True)
    from hexwar.ui.play_window import PlayWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)

from net_helpers import (  # noqa: E402
    SMALL,
    Procs,
    free_port,
    load_game,  # noqa: E402
    tokens,
    wait_all,
)

from hexwar.game.ai import make_player  # noqa: E402
from hexwar.game.commands import EndPhase  # noqa: E402
from hexwar.game.view import ViewPlayer, seen_units, view  # noqa: E402
from hexwar.ui.clock import ManualClock  # noqa: E402


def test_the_window_on_a_network_seat_plays_from_its_view_and_sends_commands(tmp_path):
    from hexwar.net.client import SeatClient
    from hexwar.net.window import NetLink, RemoteSide, attach

    procs = Procs(tmp_path)
    win = None
    try:
        folder = tmp_path / "games"
        port = free_port()
        procs.server(folder, port, SMALL, "--seed", "4", "--public-seed", "--fog")
        ((gid, toks),) = tokens(folder).items()
        url = f"ws://127.0.0.1:{port}/{gid}"
        soviet = procs.client(
            url, "--seat", "soviet", "--token", toks["soviet"], "--ai", "--scenario", SMALL, name="soviet"
        )
        client = SeatClient(
            url, "german", toks["german"], out=lambda s: None, give_up=30, scenario_file=SMALL
        )
        link = NetLink(client)
        link.start()
        data, _ = link.views.get(timeout=30)
        from hexwar.game.view import state_from_view

        win = PlayWindow(
            state_from_view(data, client.scenario),
            ai={"soviet": RemoteSide("soviet")},
            width=1000,
            height=700,
            visible=False,
            schedule=False,
            clock=ManualClock(),
        )
        attach(win, link, "german")
        ctl = win.controller
        sent = 0
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (ctl.state.over or sent >= 10):
            win.tick()
            st = ctl.state
            assert "soviet" not in {s for s in st.hand_units if st.hand_units[s]} - {
                "german"
            }  # no Soviet hand
            assert not st.hand_commands["soviet"]
            if st.to_act == "german" and client.acted_seq != client.seq:
                cmds = st.legal_commands("german")
                cmd = (
                    next((c for c in cmds if not isinstance(c, EndPhase)), cmds[0])
                    if sent % 3
                    else EndPhase("german")
                )
                if st.check(cmd) is not None:
                    cmd = cmds[0]
                assert ctl.issue(cmd) == []  # sent, not applied here
                sent += 1
            win.on_draw()
            time.sleep(0.02)
        assert sent >= 5
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and len(load_game(folder / f"{gid}.save.json").commands) < 5:
            time.sleep(0.1)
        saved = load_game(folder / f"{gid}.save.json")
        assert any(c.side == "german" for c in saved.commands)
        soviet.kill()
        wait_all([soviet], 10)
        time.sleep(0.5)  # the game is quiet now: the window catches up with the last view
        win.tick()
        from hexwar.render.gamescene import counters_from_state

        drawn = {c.key for c in counters_from_state(win.drawn_state())}
        assert drawn and drawn <= {
            u["uid"] for u in client.view["units"]
        }  # it draws only what the view holds
    finally:
        if win is not None:
            win.close()
        procs.cleanup()


def test_the_local_window_under_fog_draws_only_what_the_shown_side_sees():
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.render.gamescene import counters_from_state

    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(5, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    for _ in range(120):
        g.apply(players[g.to_act].choose(g))
    win = PlayWindow(
        g,
        ai={"soviet": players["soviet"]},
        width=900,
        height=600,
        visible=False,
        schedule=False,
        clock=ManualClock(),
    )
    try:
        win.refresh()
        keys = {c.key for c in counters_from_state(win.drawn_state())}
        hidden = {
            uid for uid, u in g.units.items() if u.side == "soviet" and uid not in seen_units(g, "german")
        }
        assert hidden and not keys & hidden
        assert keys == {u["uid"] for u in view(g, "german").data["units"]} & keys
        for uid in hidden:  # the tooltip and clicks do not know them either
            assert uid not in win.controller.units_at(g.units[uid].hex)
        texts = {line.text for line in win.controller.log}
        assert not any(
            e.text in texts
            for e in g.log
            if e.kind == "move"
            and e.data.get("unit") in hidden
            and e.data["unit"] not in {x.get("data", {}).get("unit") for x in view(g, "german").log}
        )
    finally:
        win.close()


def test_the_window_draws_a_ghost_counter_with_the_turn_seen_where_an_enemy_left_sight():
    """R12.2: an enemy unit that left the German side's sight is drawn as a last-known marker,
    a ghost counter with ``T<turn>``, in its hex and nowhere else; the unit itself is not drawn."""
    import numpy as np

    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.render.gamescene import counters_from_state
    from hexwar.render.ghosts import LastKnownOverlay

    sc = load_scenario(find_scenario("kharkov"))
    g = sc.new_game(5, variants=("fog",))
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    mark = None
    for _ in range(300):  # seed 5, players seeded 1: a Soviet unit leaves German sight early
        g.apply(players[g.to_act].choose(g))
        occupied = {u.hex.label for u in g.units.values() if u.hex is not None}
        marks = [m for m in view(g, "german").data["last_known"] if m["hex"] not in occupied]
        if marks:
            mark = marks[0]
            break
    assert mark is not None, "no Soviet unit left German sight in 300 commands"
    win = PlayWindow(
        g,
        ai={"soviet": players["soviet"]},
        width=900,
        height=600,
        visible=False,
        schedule=False,
        clock=ManualClock(),
    )
    try:
        assert win.controller.side == "german"  # the person plays the German side
        win.fit_map()
        win.refresh()
        ov = win.mapview.overlays.get("last_known")
        assert isinstance(ov, LastKnownOverlay)
        ghost = next(x for x in ov.ghosts if x.hex.label == mark["hex"])
        assert ghost.side == "soviet" and ghost.turn == mark["turn"] and ghost.turn_text == f"T{mark['turn']}"
        assert mark["uid"] not in {c.key for c in counters_from_state(win.drawn_state())}
        with_ghosts = win.render_image().astype(int)
        win.mapview.set_overlay("last_known", None)
        without = win.render_image().astype(int)
        win.mapview.set_overlay("last_known", ov)
        changed = np.abs(with_ghosts - without)[..., :3].max(axis=2) > 24
        h = g.battlemap.hex_at(mark["hex"])
        x, y = win.screen_point(h)
        nx, ny = win.screen_point(h.neighbor(1))
        size = float(np.hypot(nx - x, ny - y))  # one hex across, in points
        ratio = with_ghosts.shape[0] / win.get_size()[1]
        px, py = x * ratio, (win.get_size()[1] - y) * ratio
        ys, xs = np.nonzero(changed)
        near = (np.abs(xs - px) <= size * ratio) & (np.abs(ys - py) <= size * ratio)
        other = [m for m in view(g, "german").data["last_known"] if m is not mark]
        assert near.sum() > 40  # the ghost is drawn in its hex...
        if not other:  # ...and, when it is the only marker, nowhere else
            assert (~near).sum() == 0
    finally:
        win.close()


def test_the_card_table_on_a_network_seat_plays_a_line_game_from_its_view(tmp_path):
    """R11.1 + R12.5: ``hexwar join`` on a line game opens the card table; the person's
    commands are checked on the view and sent; the Soviet hand is never on the German table."""
    from hexwar.lines.commands import EndPhase as LinesEndPhase
    from hexwar.net.client import SeatClient
    from hexwar.net.window import NetLink, RemoteSide, attach_table
    from hexwar.ui.lines_screen import LinesWindow

    procs = Procs(tmp_path)
    win = None
    try:
        folder = tmp_path / "games"
        port = free_port()
        procs.server(folder, port, "lines", "--seed", "4", "--public-seed")
        ((gid, toks),) = tokens(folder).items()
        url = f"ws://127.0.0.1:{port}/{gid}"
        soviet = procs.client(url, "--seat", "soviet", "--token", toks["soviet"], "--ai", name="soviet")
        client = SeatClient(url, "german", toks["german"], out=lambda s: None, give_up=30)
        link = NetLink(client)
        link.start()
        first = link.views.get(timeout=30)
        assert client.mode == "lines"
        win = LinesWindow(
            client.adapter.rebuild(first[0], client.scenario),
            {"soviet": RemoteSide("soviet")},
            width=1200,
            height=800,
            visible=False,
        )
        link.views.put(first)
        attach_table(win, link, "german")
        ctl = win.ctl
        sent, waited = 0, False
        deadline = time.monotonic() + 90
        painted = 0
        while time.monotonic() < deadline and not (ctl.state.over or sent >= 6):
            changed = win.poll()
            st = ctl.state
            assert (
                not st.hand_units["soviet"] and not st.hand_commands["soviet"]
            )  # no Soviet hand on this table
            assert ctl.view().seat == "german" and not ctl.step_ai()
            waited |= ctl.message == "waiting for the Soviet player"
            if st.to_act == "german" and client.acted_seq != client.seq:
                cmds = st.legal_commands("german")
                cmd = cmds[0] if sent % 2 == 0 or len(cmds) == 1 else cmds[-1]
                assert ctl.issue(cmd) and ctl.message.startswith("sent")  # sent, not applied here
                assert ctl.state.to_act == "german"  # the table waits for the server's view
                sent += 1
            if changed and painted < 3:
                win.view.refresh()  # the table paints from the view
                painted += 1
            time.sleep(0.02)
        assert sent >= 5 and waited and painted
        assert not ctl.issue(LinesEndPhase("soviet"))  # nobody acts for another seat
        deadline = time.monotonic() + 10
        while (
            time.monotonic() < deadline
            and sum(c.seat == "german" for c in load_game(folder / f"{gid}.save.json").commands) < sent
        ):
            time.sleep(0.1)
        saved = load_game(folder / f"{gid}.save.json")
        assert saved.mode == "lines" and sum(c.seat == "german" for c in saved.commands) == sent
        assert any(line.text for line in ctl.state.log)  # the table's log holds the seat's log lines
        soviet.kill()
    finally:
        if win is not None:
            win.window.close()
        procs.cleanup()


def test_the_campaign_screen_on_a_network_seat_places_cards_through_the_server(tmp_path):
    """R11.2 + R12.5: ``hexwar join`` on a war opens the campaign screen; the battle card and the
    tactic card of one placement go to the server one after the other; the Soviet face-down
    card is never on the German screen."""
    from hexwar.campaign.save import load_campaign
    from hexwar.net.client import SeatClient
    from hexwar.net.window import NetLink, campaign_controller
    from hexwar.ui.campaign_screen import CampaignWindow

    procs = Procs(tmp_path)
    win = None
    try:
        folder = tmp_path / "games"
        port = free_port()
        procs.server(folder, port, "campaign", "--seed", "4", "--public-seed")
        ((gid, toks),) = tokens(folder).items()
        url = f"ws://127.0.0.1:{port}/{gid}"
        soviet = procs.client(url, "--seat", "soviet", "--token", toks["soviet"], "--ai", name="soviet")
        client = SeatClient(url, "german", toks["german"], out=lambda s: None, give_up=30)
        link = NetLink(client)
        link.start()
        ctl = campaign_controller(link, "german")
        win = CampaignWindow(ctl, width=1300, height=800, visible=False, schedule=False)
        placed = decisions = 0
        waited = False
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and placed < 1 and not ctl.state.over:
            win.tick()
            st = ctl.state
            assert (
                st.slots["soviet"] is None and st.tactic_slots["soviet"] is None
            )  # never the Soviet face-down cards
            waited |= ctl.message.startswith("waiting for the Soviet")
            if ctl.acting == "german" and ctl.sent_at != ctl.commands and not ctl.queued:
                if st.phase == "place" and st.slots["german"] is None:
                    ctl.pick_battle(0)
                    ctl.pick_tactic(0 if st.tactics_hand["german"] else None)
                    assert ctl.confirm()  # the battle card is sent, the tactic card waits for the next view
                    assert ctl.queued and ctl.message.startswith("sent")
                    placed += 1
                else:
                    assert ctl._issue(st.legal_commands("german")[0])
                decisions += 1
            time.sleep(0.02)
        assert placed >= 1 and decisions >= 2
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and ctl.queued:
            win.tick()
            time.sleep(0.05)
        assert not ctl.queued
        win.refresh()  # the screen paints from the view
        soviet.kill()
        wait_all([soviet], 10)
        time.sleep(0.3)
        saved = load_campaign(folder / f"{gid}.save.json")
        german = [c for c in saved.commands if c.side == "german"]
        kinds = [c.kind for c in german]
        assert kinds.count("place_battle_card") >= 1 and kinds.count("place_tactic_card") >= 1
        assert any(line for line in ctl.log)
    finally:
        if win is not None:
            win.close()
        procs.cleanup()
