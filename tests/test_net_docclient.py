"""A client written from docs/protocol.md alone ("Playing a game from this document").

The client (:func:`play_seat`, :func:`apply_delta`, :func:`view_hash`) uses no hexwar code;
nothing of ``hexwar.net`` is imported by this file (the harness, ``net_helpers``, starts real
``hexwar serve`` / ``hexwar join --ai`` processes and loads no ``hexwar.net`` module). It speaks the
protocol with the ``websockets`` library, keeps its view by applying the deltas and checking
the view hash as the document says, and when a message carries ``legal`` it sends one of those
commands (chosen with a seeded generator; the seed is printed). Against the computer on the
other seat it plays a whole hex game, a line game and a war: 0 ``illegal`` replies, and no
error of any other kind.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import random

import pytest
from net_helpers import SMALL, Procs, free_port, tokens, wait_all

pytestmark = pytest.mark.integration


def apply_delta(old, delta):
    """docs/protocol.md: ``{"$set": {key: delta}, "$del": [key]}`` for objects, ``{"$value": v}``."""
    if "$value" in delta:
        return copy.deepcopy(delta["$value"])
    out = dict(old)
    for k in delta.get("$del", []):
        out.pop(k, None)
    for k, d in delta.get("$set", {}).items():
        out[k] = apply_delta(old.get(k), d)
    return out


def view_hash(view) -> str:
    """docs/protocol.md: SHA-256 of the view as JSON with sorted keys and no spaces."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def play_seat(url: str, seat: str, token: str, seed: int) -> dict:
    """Play ``seat`` to the end from the ``legal`` lists; returns counts of what happened."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    stats = {"commands": 0, "errors": [], "syncs": 0, "legal_seen": 0}
    view = None
    sent_for = -1
    async with connect(url, max_size=2**26, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "seat": seat, "token": token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
            t = msg["type"]
            if t in ("welcome", "snapshot"):
                view = msg["view"]
                assert view_hash(view) == msg["view_hash"]
            elif t == "update":
                new = apply_delta(view, msg["delta"])
                if view_hash(new) != msg["view_hash"]:
                    stats["syncs"] += 1
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
                view = new
            elif t == "error":
                stats["errors"].append(msg)
                continue
            else:
                continue
            if view.get("result") is not None:
                return stats
            legal = msg.get("legal")
            if legal and msg["seq"] != sent_for:
                stats["legal_seen"] += 1
                pick = [c for c in legal if c["cmd"] != "undo"] or legal
                # end the phase now and then, so that a game of random choices ends
                ends = [c for c in pick if c["cmd"] == "end_phase"]
                choice = ends[0] if ends and rng.random() < 0.3 else rng.choice(pick)
                sent_for = msg["seq"]
                stats["commands"] += 1
                await ws.send(json.dumps({"type": "command", "seq": msg["seq"], "command": choice}))


@pytest.mark.parametrize("game", ["hex", "lines", "campaign"])
def test_a_client_written_from_the_protocol_document_plays_a_whole_game(game, tmp_path):
    seed = {"hex": 11, "lines": 12, "campaign": 13}[game]
    print(f"doc client seed {seed}")
    procs = Procs(tmp_path)
    try:
        folder = tmp_path / "games"
        port = free_port()
        what = {"hex": SMALL, "lines": "lines", "campaign": "campaign"}[game]
        procs.server(folder, port, what)
        ((gid, toks),) = tokens(folder).items()
        url = f"ws://127.0.0.1:{port}/{gid}"
        ai = procs.client(
            url, "--seat", "soviet", "--token", toks["soviet"], "--ai", "--scenario", SMALL, name="ai"
        )
        stats = asyncio.run(asyncio.wait_for(play_seat(url, "german", toks["german"], seed), 600))
        wait_all([ai], 60)
        print(game, stats["commands"], "commands from legal lists,", stats["syncs"], "syncs")
        assert stats["commands"] > 3 and stats["legal_seen"] == stats["commands"]
        assert [e for e in stats["errors"] if e["code"] == "illegal"] == []
        assert stats["errors"] == []
        assert ai.returncode == 0
    finally:
        procs.cleanup()
