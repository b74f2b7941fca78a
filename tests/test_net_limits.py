"""Bounded resources per peer (R12.5, issue 29) on real ``hexwar serve`` processes on 127.0.0.1.

A spectator that never reads and sends 10,000 ``sync`` requests leaves the server's memory
growth under 20 MB (the bytes queued per connection are capped: the slow reader is dropped);
500 idle connections do not stop a seat holder from joining (the oldest silent connection
goes for a new one); 64 spectators do not take a seat (seats are never counted against the
spectator cap); a lobby ``create`` without the host's key is refused, and without
``--create-key`` the lobby creates nothing.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from net_helpers import SMALL, Procs, free_port, tokens

pytestmark = pytest.mark.integration


@pytest.fixture
def procs(tmp_path):
    p = Procs(tmp_path)
    yield p
    p.cleanup()


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _long_game(tmp_path: Path) -> Path:
    """A whole prokhorovka game (a long log: a spectator's snapshot is large), saved."""
    from hexwar.game.ai import make_player
    from hexwar.game.headless import play
    from hexwar.game.save import write_save
    from hexwar.game.scenario import find_scenario, load_scenario

    sc = load_scenario(find_scenario("prokhorovka"))
    players = {s: make_player("standard", s, 1) for s in ("german", "soviet")}
    st = play(sc, players, seed=1).state
    path = tmp_path / "long.save.json"
    write_save(st, path)
    return path


async def _hello(port: int, gid: str, hello: dict, **kw):
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/{gid}", open_timeout=20, max_size=2**26, **kw)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, **hello}))
    return ws


@pytest.mark.parametrize(
    "flags",
    [(), ("--sync-interval", "0", "--max-violations", "1000000", "--max-rate", "1000000")],
    ids=["defaults", "byte-cap-alone"],
)
def test_a_spectator_that_never_reads_cannot_grow_the_server(procs, tmp_path, flags):
    save = _long_game(tmp_path)
    folder = tmp_path / "games"
    port = free_port()
    srv = procs.server(folder, port, str(save), *flags)
    (gid,) = tokens(folder)

    async def run() -> tuple[int, int, int]:
        # a reader that reads the welcome, to know the size of one snapshot
        ws = await _hello(port, gid, {"watch": True})
        size = len(await ws.recv())
        await ws.close()
        await asyncio.sleep(0.5)
        before = _rss_kib(srv.pid)
        # the attacker: a tiny read buffer it never drains, 10,000 syncs
        ws = await _hello(port, gid, {"watch": True}, max_queue=1)
        sent = 0
        try:
            for _ in range(10_000):
                await ws.send('{"type":"sync"}')
                sent += 1
        except Exception:  # noqa: BLE001 - dropped by the server: what it should do
            pass
        await asyncio.sleep(1.0)
        after = _rss_kib(srv.pid)
        await ws.close()
        return size, before, after, sent

    size, before, after, sent = asyncio.run(run())
    grow = (after - before) / 1024
    print(
        f"snapshot {size / 1024:.0f} KiB, syncs sent {sent}, server RSS {before} -> {after} KiB (+{grow:.1f} MiB)"
    )
    assert size > 100_000  # 10,000 of them unbounded would be over 1 GB
    assert grow < 20


def test_five_hundred_idle_connections_do_not_stop_a_seat_holder(procs, tmp_path):
    from websockets.asyncio.client import connect

    folder = tmp_path / "games"
    port = free_port()
    procs.server(folder, port, SMALL)
    ((gid, toks),) = tokens(folder).items()

    async def run() -> float:
        idle = []
        for i in range(500):  # half on the lobby, half on the game, none says anything
            idle.append(await connect(f"ws://127.0.0.1:{port}/{gid if i % 2 else ''}", open_timeout=20))
        t0 = time.monotonic()
        ws = await _hello(port, gid, {"seat": "german", "token": toks["german"]})
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        took = time.monotonic() - t0
        assert msg["type"] == "welcome" and msg["seat"] == "german", msg
        await ws.close()
        for w in idle:
            await w.close()
        return took

    took = asyncio.run(run())
    print(f"the seat holder joined {took:.3f} s after asking, with 500 idle connections open")


def test_sixty_four_spectators_do_not_take_a_seat(procs, tmp_path):
    folder = tmp_path / "games"
    port = free_port()
    procs.server(folder, port, SMALL)
    ((gid, toks),) = tokens(folder).items()

    async def run():
        kinds = []
        watchers = []
        for _ in range(64):
            ws = await _hello(port, gid, {"watch": True})
            kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            watchers.append(ws)
        seats = []
        for s in ("german", "soviet"):
            ws = await _hello(port, gid, {"seat": s, "token": toks[s]})
            seats.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            await ws.close()
        for w in watchers:
            await w.close()
        return kinds, seats

    kinds, seats = asyncio.run(run())
    welcomed = sum(m["type"] == "welcome" for m in kinds)
    refused = [m for m in kinds if m["type"] == "error"]
    assert welcomed == 8 and len(refused) == 56  # --max-spectators 8 (the default)
    assert all(m["code"] == "limit" and "spectators" in m["message"] for m in refused)
    assert [(m["type"], m["seat"]) for m in seats] == [("welcome", "german"), ("welcome", "soviet")]


def test_lobby_create_needs_the_hosts_key(procs, tmp_path):
    from websockets.asyncio.client import connect

    async def ask(port: int, *msgs: dict) -> list[dict]:
        out = []
        async with connect(f"ws://127.0.0.1:{port}/", open_timeout=20) as ws:
            for m in msgs:
                await ws.send(json.dumps(m))
                out.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
        return out

    off, on = free_port(), free_port()
    procs.server(tmp_path / "off", off, name="off")
    procs.server(tmp_path / "on", on, "--create-key", "s3cret", name="on")
    (a,) = asyncio.run(ask(off, {"type": "create", "scenario": "skirmish", "key": "s3cret"}))
    assert a["type"] == "error" and a["code"] == "auth" and "--create-key" in a["message"]
    b, c, d = asyncio.run(
        ask(
            on,
            {"type": "create", "scenario": "skirmish"},
            {"type": "create", "scenario": "skirmish", "key": "guess"},
            {"type": "create", "scenario": "skirmish", "key": "s3cret"},
        )
    )
    assert (b["code"], c["code"]) == ("auth", "auth") and d["type"] == "created"
    assert not list((tmp_path / "off").glob("*.save.json"))
    assert len(list((tmp_path / "on").glob("*.save.json"))) == 1


def test_the_games_folder_and_its_files_are_owner_only(procs, tmp_path):
    folder = tmp_path / "games"
    port = free_port()
    procs.server(folder, port, SMALL)
    assert folder.stat().st_mode & 0o777 == 0o700
    files = list(folder.glob("*.json"))
    assert files and all(f.stat().st_mode & 0o777 == 0o600 for f in files if f.name != "tokens.json")


def test_a_host_chosen_seed_needs_public_seed(tmp_path):
    import subprocess

    from net_helpers import ENV, HEXWAR

    r = subprocess.run(
        [*HEXWAR, "serve", SMALL, "--seed", "5", "--games", str(tmp_path / "g"), "--port", "0"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert r.returncode != 0 and "--public-seed" in r.stderr and "Traceback" not in r.stderr
