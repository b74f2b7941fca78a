"""Hostile network clients found by a fresh user's adversarial pass (round 3), each against a
real server on 127.0.0.1 (in this process, ``serve_forever`` on a free port): the client gets a
clear ``error`` reply naming the field, the server prints no traceback and keeps serving (R12.5).
"""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

from hexwar.net.server import GameServer, serve_forever


async def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (others skipped), within 10 s."""
    while True:
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if m["type"] == kind:
            return m


def _serve(srv: GameServer, body: Any) -> Any:
    """Run ``body(url)`` against ``srv`` listening on a free loopback port; returns its result."""

    async def main() -> Any:
        stop = asyncio.Event()
        ports: list[int] = []
        task = asyncio.create_task(serve_forever(srv, "127.0.0.1", 0, ready=ports.append, stop=stop))
        while not ports:
            await asyncio.sleep(0.01)
        try:
            return await body(f"ws://127.0.0.1:{ports[0]}")
        finally:
            stop.set()
            await task

    return asyncio.run(main())


def test_a_lone_surrogate_in_a_frame_is_answered_and_the_connection_keeps_playing(tmp_path):
    # before: the reply echoed the client's "\ud800" (a field name, a card id), the socket could
    # not encode it as UTF-8, websockets printed "unexpected internal error" with a traceback
    # and the connection died without a close frame or an answer
    import websockets

    log = io.StringIO()
    srv = GameServer(tmp_path / "g", log=log)
    gid, toks = srv.create_game("skirmish", seed=3)

    async def body(url: str) -> tuple[dict, dict, dict, dict]:
        async with websockets.connect(f"{url}/{gid}") as ws:
            await ws.send('{"type": "hello", "protocol": 1, "watch": true, "\\ud800": 1}')
            refused = await _next(ws, "error")
        async with websockets.connect(f"{url}/{gid}") as ws:
            hello = {"type": "hello", "protocol": 1, "seat": "soviet", "token": toks["soviet"]}
            await ws.send(json.dumps(hello))
            await _next(ws, "welcome")
            await ws.send(
                '{"type": "command", "seq": 0, "command": {"cmd": "end_phase", "side": "soviet", "\\udfff": 1}}'
            )
            field = await _next(ws, "error")
            await ws.send('{"type": "command", "seq": 0, "command": {"cmd": "\\ud800", "side": "soviet"}}')
            cmd = await _next(ws, "error")
            await ws.send(json.dumps({"type": "ping", "id": 7}))
            pong = await _next(ws, "pong")
        return refused, field, cmd, pong

    refused, field, cmd, pong = _serve(srv, body)
    said = (
        "not JSON text: a \\uD800-\\uDFFF escape that is not half of a surrogate pair "
        "(no character; UTF-8 cannot carry it)"
    )
    assert [(m["code"], m["message"]) for m in (refused, field, cmd)] == [("bad_json", said)] * 3
    assert pong == {"protocol": 1, "type": "pong", "id": 7}
    assert srv.errors == 0 and "Traceback" not in log.getvalue()


def test_a_reply_that_echoes_a_lone_surrogate_is_still_utf_8():
    # the last line of defence: whatever text a reply carries, its frame is valid UTF-8 JSON
    from hexwar.net.protocol import encode

    text = encode({"type": "error", "code": "illegal", "message": "no card '\ud800'"})
    text.encode("utf-8")  # raises UnicodeEncodeError without the escape fallback
    assert json.loads(text)["message"] == "no card '\ud800'"
    assert encode({"type": "pong", "id": 1, "x": "Prokhorovka ü"}) == (
        '{"protocol":1,"type":"pong","id":1,"x":"Prokhorovka ü"}'
    )


def test_every_refusal_naming_an_enemy_unit_is_the_one_the_seats_view_gives_in_a_fogged_game():
    # R12.1: a refusal is a reply too: naming each enemy unit (seen or not) as the target of a
    # declaration or a close assault, at every decision of a fogged game, the server's words
    # (from the whole state) must be the words the state rebuilt from the seat's view gives.
    # Before, a close assault on an unseen gun said "7.5 cm PaK 40 is not a vehicle".
    from hexwar.game.ai import make_player
    from hexwar.game.commands import Declare, DeclareCloseAssault
    from hexwar.net.modes import mode_adapter

    seed = 3
    mode = mode_adapter("hex")
    g = mode.new_game("skirmish", True, seed)
    players = {s: make_player("normal", s, seed) for s in mode.seats}
    asked = 0
    while not g.over:
        side = g.to_act
        mine = sorted(u.uid for u in g.units.values() if u.side == side)
        if g.phase == "declaration" and mine:
            seat_state = mode.rebuild(mode.view(g, side).data, g.scenario)
            for tid in sorted(u.uid for u in g.units.values() if u.side != side):
                for cmd in (
                    Declare(side, mine[0], tid, (0,)),
                    DeclareCloseAssault(side, tuple(mine[:3]), tid),
                ):
                    asked += 1
                    assert g.check(cmd) == seat_state.check(cmd), f"seed {seed}, turn {g.turn}: {cmd}"
        g.apply(players[side].choose(g))
    assert asked > 300  # the game had declarations against units both seen and unseen


def test_a_hello_with_true_for_the_protocol_or_1_for_watch_is_refused_naming_the_field(tmp_path):
    # before: {"protocol": true, "watch": 1} was welcomed as a spectator (Python's True == 1 got
    # through the strict model's Literal); a wrong type is refused naming the field (R12.5)
    import websockets

    srv = GameServer(tmp_path / "g", log=io.StringIO())
    gid, _ = srv.create_game("skirmish", seed=3)
    hellos = [
        {"protocol": True, "watch": True},
        {"protocol": 1.0, "watch": True},
        {"protocol": 1, "watch": 1},
        {"protocol": 1, "watch": True},
    ]

    async def body(url: str) -> list[dict]:
        out = []
        for h in hellos:
            async with websockets.connect(f"{url}/{gid}") as ws:
                await ws.send(json.dumps({"type": "hello", **h}))
                out.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return out

    replies = _serve(srv, body)
    assert [(m["type"], m.get("message")) for m in replies] == [
        ("error", "protocol: expected 1 (the protocol version this client speaks), got true"),
        ("error", "protocol: expected 1 (the protocol version this client speaks), got 1.0"),
        ("error", "watch: expected true: watch as a spectator (no seat, no token), got 1"),
        ("welcome", None),
    ]


def test_a_seats_file_that_does_not_fit_its_save_is_reported_and_not_resumed(tmp_path):
    # before: a seats file saying "lines" over a hex save was resumed in the lines mode (every
    # connection then died with an AttributeError traceback), and a digest that is no SHA-256
    # ("german": 5) was kept as the text "5": a seat nobody could ever take again
    folder = tmp_path / "g"
    srv = GameServer(folder, log=io.StringIO())
    ids = [srv.create_game("skirmish", seed=s)[0] for s in (1, 2, 3)]
    wrong_mode, bad_digest, good = (folder / f"{g}.seats.json" for g in ids)
    meta = json.loads(wrong_mode.read_text())
    wrong_mode.write_text(json.dumps({**meta, "mode": "lines"}))
    meta = json.loads(bad_digest.read_text())
    bad_digest.write_text(json.dumps({**meta, "seats": {**meta["seats"], "german": 5}}))
    again = GameServer(folder, log=io.StringIO())
    assert again.load_all() == [
        f"game {ids[0]} not resumed: {wrong_mode}: mode: 'lines', but {ids[0]}.save.json holds a hex game",
        f"game {ids[1]} not resumed: {bad_digest}: seats.german: expected a SHA-256 digest (64 hex digits)",
    ]
    assert sorted(again.rooms) == [ids[2]] and good.exists()
