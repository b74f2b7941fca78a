"""The protocol (R12.5): the shipped JSON Schema, frame checks, and the server's messages,
in process (the real-process tests are tests/test_net.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from jsonschema import Draft202012Validator
from net_helpers import SMALL

from hexwar.game.view import apply_delta, view_hash
from hexwar.net.protocol import MAX_MESSAGE_BYTES, ProtocolError, parse_client_message, schema, schema_text
from hexwar.net.server import Conn, GameServer, token_digest


def test_the_schema_is_shipped_as_package_data_and_is_valid_draft_2020_12():
    Draft202012Validator.check_schema(json.loads(schema_text()))
    assert set(schema()["$defs"]) >= {"hello", "command", "sync", "ping", "list", "create", "server"}


@pytest.mark.parametrize(
    "frame, code, words",
    [
        ("x" * (MAX_MESSAGE_BYTES + 1), "too_big", "limit"),
        ("{nope", "bad_json", "not JSON"),
        ("[1, 2]", "bad_message", "JSON object"),
        ('{"type": "teleport"}', "bad_message", "type"),
        (
            '{"type": "command", "seq": "3", "command": {"cmd": "end_phase", "side": "german"}}',
            "bad_message",
            "seq",
        ),
        (
            '{"type": "command", "seq": 3, "command": {"cmd": "end_phase", "side": "italian"}}',
            "bad_message",
            "command.side",
        ),
        ('{"type": "hello", "protocol": 1, "watch": true, "seat": "german"}', "bad_message", "hello"),
        ('{"type": "hello", "protocol": 2, "watch": true}', "bad_message", "protocol"),
        ('{"type": "create", "scenario": "../../etc/passwd"}', "bad_message", "scenario"),
        (b"\x00\x01", "bad_message", "binary"),
    ],
)
def test_malformed_frames_are_refused_with_a_code_naming_the_problem(frame, code, words):
    with pytest.raises(ProtocolError) as e:
        parse_client_message(frame)
    assert e.value.code == code and words in e.value.message


class FakeWs:
    """Stands in for a socket: the server's writer task is not started in these tests."""


def _drain(conn):
    out = []
    while not conn.out.empty():
        t = conn.out.get_nowait()
        if t is not None:
            out.append(json.loads(t))
    return out


def test_server_messages_fit_the_schema_and_deltas_rebuild_each_seats_view(tmp_path):
    server_schema = Draft202012Validator({"$defs": schema()["$defs"], "$ref": "#/$defs/server"})
    srv = GameServer(tmp_path / "g")
    gid, toks = srv.create_game(SMALL, fog=True, seed=4)
    room = srv.rooms[gid]
    assert (
        room.digests["german"] == token_digest(toks["german"])
        and toks["german"] not in (tmp_path / "g" / f"{gid}.seats.json").read_text()
    )
    from hexwar.game.ai import make_player
    from hexwar.game.view import ViewPlayer

    async def run():
        conns = {}
        for s in ("german", "soviet", None):
            c = Conn(FakeWs())
            c.room, c.seat, c.watching = room, s, s is None
            room.conns.add(c)
            if s:
                room.holders[s] = c
            srv._send_snapshot(c, "welcome")
            conns[s] = c
        views = {}
        for s, c in conns.items():
            (w,) = _drain(c)
            assert not list(server_schema.iter_errors(w))
            views[s] = w["view"]
        players = {s: ViewPlayer(make_player("standard", s, 2)) for s in ("german", "soviet")}
        for _ in range(20):
            st = room.game
            side = st.to_act
            if side is None:
                break
            cmd = players[side].choose(st)
            if st.check(cmd):
                cmd = players[side].fallback()
            await srv._command(
                conns[side], {"type": "command", "seq": len(st.commands), "command": cmd.to_json()}
            )
            for s, c in conns.items():
                for m in _drain(c):
                    assert not list(server_schema.iter_errors(m)), m
                    if m["type"] == "update":
                        views[s] = apply_delta(views[s], m["delta"])
                        assert view_hash(views[s]) == m["view_hash"]
                        assert "state_hash" not in m  # no hash of hidden state leaves the server
        # a replayed old command and the other seat's command are refused, the game unchanged
        n = len(room.game.commands)
        assert not room.game.over and room.game.to_act is not None
        await srv._command(
            conns["german"], {"type": "command", "seq": 0, "command": {"cmd": "end_phase", "side": "german"}}
        )
        await srv._command(
            conns["german"], {"type": "command", "seq": n, "command": {"cmd": "end_phase", "side": "soviet"}}
        )
        await srv._command(
            conns[None], {"type": "command", "seq": n, "command": {"cmd": "end_phase", "side": "german"}}
        )
        codes = [m.get("code") for m in _drain(conns["german"]) + _drain(conns[None]) if m["type"] == "error"]
        assert codes[:1] == ["stale"] and "not_your_seat" in codes and "spectator" in codes
        assert len(room.game.commands) == n

    asyncio.run(run())


def test_a_client_that_finds_a_different_view_hash_asks_for_a_fresh_snapshot():
    from hexwar.net.client import SeatClient

    class Ws:
        def __init__(self):
            self.sent = []

        async def send(self, text):
            self.sent.append(json.loads(text))

    c = SeatClient("ws://127.0.0.1:1/g", "german", "t", out=lambda s: None)
    c.view = {"turn": 1, "units": []}
    ws = Ws()
    good = {"turn": 2, "units": []}
    asyncio.run(
        c._handle(
            ws,
            {
                "type": "update",
                "seq": 1,
                "events": [],
                "delta": {"$set": {"turn": {"$value": 2}}},
                "view_hash": view_hash(good),
                "state_hash": "h",
            },
        )
    )
    assert c.view == good and ws.sent == [] and c.seq == 1
    asyncio.run(
        c._handle(
            ws,
            {
                "type": "update",
                "seq": 2,
                "events": [],
                "delta": {"$set": {"turn": {"$value": 3}}},
                "view_hash": view_hash(good),
                "state_hash": "h",
            },
        )
    )  # the hash of another view
    assert ws.sent == [{"type": "sync"}] and c.syncs == 1 and c.view == good and c.seq == 1


def test_a_computer_client_that_the_server_keeps_refusing_stops_trying_instead_of_looping():
    from hexwar.game.commands import EndPhase
    from hexwar.net.client import SeatClient

    class Ws:
        def __init__(self):
            self.sent = []

        async def send(self, text):
            self.sent.append(json.loads(text))

    class Stubborn:
        async def decide(self, client):
            return EndPhase("german")

        def fallback(self, client):
            return EndPhase("german")

    c = SeatClient("ws://127.0.0.1:1/g", "german", "t", policy=Stubborn(), out=lambda s: None)
    c.view, c.seq = {"to_act": "german", "result": None}, 7
    ws = Ws()

    async def run():
        await c._maybe_act(ws)
        for _ in range(50):
            await c._handle(ws, {"type": "error", "code": "illegal", "message": "no", "seq": 7})

    asyncio.run(run())
    commands = [m for m in ws.sent if m["type"] == "command"]
    assert 3 <= len(commands) <= 6 and {m["seq"] for m in commands} == {7}
    assert [m for m in ws.sent if m["type"] == "sync"] == [{"type": "sync"}]


@pytest.mark.parametrize("mode, scenario", [("hex", SMALL), ("lines", "lines"), ("campaign", "campaign")])
def test_views_and_legal_lists_fit_the_schema_of_their_mode_over_a_whole_game(mode, scenario, tmp_path):
    """``hexwar schema protocol`` holds each mode's command set and view keys
    (``$defs.MODE_command``, ``$defs.MODE_view``): every view and every ``legal`` entry the
    server sends over a whole game fits them, and the command played is always one of them."""
    s = schema()
    defs = s["$defs"]
    cmd_schema = Draft202012Validator({"$defs": defs, "$ref": f"#/$defs/{mode}_command"})
    view_schema = Draft202012Validator({"$defs": defs, "$ref": f"#/$defs/{mode}_view"})
    srv = GameServer(tmp_path / "g")
    gid, _ = srv.create_game(scenario, mode=mode, seed=5)
    room = srv.rooms[gid]
    conns = {}
    for seat in ("german", "soviet"):
        c = Conn(FakeWs())
        c.room, c.seat = room, seat
        room.conns.add(c)
        room.holders[seat] = c
        conns[seat] = c
        srv._send_snapshot(c, "welcome")
    import random

    rng = random.Random(5)
    views = {}
    steps = 0
    while steps < 400:
        legal = None
        for seat, c in conns.items():
            for m in _drain(c):
                views[seat] = m["view"] if "view" in m else apply_delta(views[seat], m["delta"])
                assert not list(view_schema.iter_errors(views[seat])), (mode, seat)
                if "legal" in m:
                    assert room.mode.to_act(room.game) == seat
                    for x in m["legal"]:
                        assert not list(cmd_schema.iter_errors(x)), x
                    legal = (seat, m["seq"], m["legal"])
        if legal is None:
            assert room.mode.to_act(room.game) is None  # over: nobody is sent a legal list
            break
        seat, seq, cmds = legal
        pick = [x for x in cmds if x["cmd"] != "undo"]
        ends = [x for x in pick if x["cmd"] == "end_phase"]
        choice = ends[0] if ends and rng.random() < 0.3 else rng.choice(pick)
        asyncio.run(srv._command(conns[seat], {"type": "command", "seq": seq, "command": choice}))
        steps += 1
    assert steps > 10


def test_idle_games_expire_to_the_expired_folder_and_busy_ones_stay(tmp_path):
    import time

    from hexwar.net.server import Limits

    srv = GameServer(tmp_path / "g", Limits(expire_after=3600))
    old, _ = srv.create_game(SMALL, seed=1)
    busy, _ = srv.create_game(SMALL, seed=2)
    watched, _ = srv.create_game(SMALL, seed=3)
    now = time.time()
    for gid in (old, watched):
        srv.rooms[gid].active = now - 3601
    srv.rooms[watched].conns.add(Conn(FakeWs()))  # a connection keeps a game
    assert srv.expire_idle(now) == [old]
    assert sorted(srv.rooms) == sorted([busy, watched])
    assert (tmp_path / "g" / "expired" / f"{old}.save.json").exists()
    assert not (tmp_path / "g" / f"{old}.seats.json").exists()
    assert GameServer(tmp_path / "g", Limits(expire_after=0)).expire_idle(now + 10**9) == []


def test_a_slow_reader_is_dropped_at_the_byte_cap_and_protocol_violations_close_a_connection(tmp_path):
    from hexwar.net.server import Limits

    lim = Limits(max_queue_bytes=100_000, max_violations=3)
    c = Conn(FakeWs())
    for _ in range(9):
        c.send("x" * 10_000, lim)
    assert not c.dropped and c.queued == 90_000
    c.send("x" * 20_000, lim)  # over the cap: dropped, nothing kept
    assert c.dropped and c.queued == 0 and c.out.qsize() == 1 and c.out.get_nowait() is None
    srv = GameServer(tmp_path / "g", lim)
    d = Conn(FakeWs())
    assert all(srv._reply_error(d, "illegal", "no") for _ in range(20))  # the rules' refusals
    assert [srv._reply_error(d, "bad_message", "no") for _ in range(4)] == [True, True, True, False]


def test_a_client_with_no_server_says_so_at_once_then_gives_up():
    """``hexwar join`` to an address where nothing listens: the first failed attempt is told to
    the user at once (it used to print nothing for the whole ``give_up`` time, 600 s by default),
    and after ``give_up`` seconds a clear HexwarError ends it."""
    import socket

    from hexwar.errors import HexwarError
    from hexwar.net.client import SeatClient

    with socket.socket() as s:  # a free loopback port with nothing listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    said: list[str] = []
    c = SeatClient(f"ws://127.0.0.1:{port}/g-1", watch=True, out=said.append, give_up=0.5)
    with pytest.raises(HexwarError, match="giving up"):
        asyncio.run(c.run())
    assert said and said[0].startswith(f"no server at ws://127.0.0.1:{port}/g-1 yet"), said
    assert len(said) == 1  # told once, not once per retry
