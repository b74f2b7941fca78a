"""The protocol's typed models (issue 34, R12.5): one model per message type, the schema
``hexwar schema protocol`` prints generated from them, and the hand checks they replaced.

- A corpus recorded from a real loopback game (``hexwar serve`` and two ``hexwar join --ai``
  processes talking through a recording proxy, plus the lobby) fits the generated schema and
  reads through the models, in both directions.
- On the protocol fuzz corpora (tests/test_net.py's hostile frames, tests/fuzz_files.py's
  mutants of a command frame) the models accept and refuse exactly what the old hand checks
  (tests/legacy_protocol_parser.py) did, with the same error code, naming the field the old
  check named.
- Hostile input gets every problem at once with its field path, cut short, and never a traceback.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from pathlib import Path

import pytest
from fuzz_files import mutate
from jsonschema import Draft202012Validator
from legacy_protocol_parser import old_parse_client_message
from net_helpers import SMALL, Procs, free_port, tokens
from test_net import _fuzz_messages

from hexwar.formats.protocol_file import CLIENT_MODELS, MODE_COMMANDS, MODE_VIEWS, SERVER_MODELS
from hexwar.net.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    parse_client_message,
    parse_server_message,
    schema,
)

ROOT = Path(__file__).resolve().parent.parent


def _outcome(parse, frame):
    try:
        return "ok", parse(frame)
    except ProtocolError as exc:
        return exc.code, exc


def _corpus() -> list[str | bytes]:
    frames = _fuzz_messages(random.Random(1812), 2000, "a-token", 3)  # tests/test_net.py's seed
    base = json.dumps({"type": "command", "seq": 0, "command": {"cmd": "end_phase", "side": "german"}})
    for seed in range(2000):  # tests/fuzz_files.py's mutants of its protocol sample
        data, _ = mutate(base.encode(), "json", random.Random(seed))
        try:
            frames.append(data.decode())
        except UnicodeDecodeError:
            frames.append(data)  # a binary frame
    return frames


def test_the_models_accept_and_refuse_what_the_old_hand_checks_did_on_the_fuzz_corpora():
    """Same verdict and code on every frame; a refused frame's problems name the field the old
    check named first (the old check named only one; where it named the whole message, by its
    type, the models name the field inside it: the unknown or missing one)."""
    same = whole = 0
    for i, frame in enumerate(_corpus()):
        old_code, old = _outcome(old_parse_client_message, frame)
        new_code, new = _outcome(parse_client_message, frame)
        tag = f"frame {i}: {str(frame)[:120]!r}"
        assert old_code == new_code, f"{tag}: old {old}, new {new}"
        if old_code == "ok":
            assert new == old, tag  # the message as the model read it is the message sent
            continue
        if old_code != "bad_message" or not new.problems:
            assert str(new) == str(old), tag  # size, JSON, not an object, binary: the same words
            continue
        old_where = old.message.split(":")[0]
        wheres = [p.where for p in new.problems]
        if old_where in wheres:
            same += 1
        else:
            assert old_where == json.loads(frame)["type"], f"{tag}: old {old}, new {wheres}"
            whole += 1
    print(f"same field: {same}, the old named the whole message: {whole}")
    assert same > 1000 and whole > 100


def test_every_problem_of_a_hostile_frame_is_named_at_once_with_its_field_and_cut_short():
    frame = json.dumps(
        {
            "type": "command",
            "seq": 10**12,
            "command": {"cmd": "x" * 5000, "side": "italian", "seat": "german"},
            "k" * 60_000: 1,
        }
    )
    assert len(frame) < MAX_MESSAGE_BYTES
    with pytest.raises(ProtocolError) as exc:
        parse_client_message(frame)
    e = exc.value
    assert e.code == "bad_message"
    assert [p.where for p in e.problems] == ["seq", "command.cmd", "command.side", "k" * 77 + "..."]
    assert e.problems[0].message == (
        "expected an integer 0..1000000000 (the number of commands the game has applied), got 1000000000000"
    )
    assert e.problems[1].message.endswith('got "' + "x" * 56 + "...")  # a value is cut at 60 characters
    assert len(e.message) < 1000
    # a wrong type tag, wrong types, too many command fields, deep nesting inside a valid frame
    cases = {
        '{"type": {"a": 1}}': "type: expected one of ['hello', 'command', 'sync', 'ping', 'list', 'create'], got \"{'a': 1}\"",
        '{"type": "ping", "id": "7"}': 'id: expected an integer, sent back in the pong, got "7"',
        '{"type": "sync", "x": null}': "x: unknown field; expected one of ['type']",
        '{"type": "create", "scenario": "skirmish", "fog": 1}': "fog: expected true: fog of war (the hex game only), got 1",
        json.dumps(
            {
                "type": "command",
                "seq": 0,
                "command": {"cmd": "end_phase", "side": "german", **{f"f{i}": i for i in range(15)}},
            }
        ): "command: 17 fields; a command has at most 16",
        '{"type": "ping", "id": '
        + "[" * 500
        + "]" * 500
        + "}": "id: expected an integer, sent back in the pong, got " + "[" * 57 + "...",
    }
    for text, want in cases.items():
        with pytest.raises(ProtocolError) as exc:
            parse_client_message(text)
        assert (exc.value.code, exc.value.message) == ("bad_message", want), text[:80]
    with pytest.raises(ProtocolError) as exc:  # a flood of unknown fields: ten named, the rest counted
        parse_client_message(json.dumps({"type": "sync", **{f"k{i}": 1 for i in range(5000)}}))
    assert [p.where for p in exc.value.problems] == [f"k{i}" for i in range(10)] + [""]
    assert exc.value.message.endswith("; ... and 4990 more problems")
    with pytest.raises(ProtocolError) as exc:  # a type tag that is not even text
        parse_client_message('{"type": [1], "x": 1}')
    assert [p.where for p in exc.value.problems] == ["type"]
    with pytest.raises(ProtocolError) as exc:  # nesting deeper than the JSON reader goes
        parse_client_message('{"type": "ping", "id": ' + "[" * 5000 + "]" * 5000 + "}")
    assert exc.value.code == "bad_json"


def test_a_server_message_that_does_not_fit_is_refused_by_the_client_with_its_field():
    with pytest.raises(ProtocolError) as exc:
        parse_server_message('{"type": "update", "seq": "1", "events": {}, "delta": {}}')
    assert [p.where for p in exc.value.problems] == ["seq", "events", "view_hash"]
    with pytest.raises(ProtocolError) as exc:
        parse_server_message('{"type": "error", "code": "mischief", "message": "x"}')
    assert exc.value.problems[0].where == "code"
    from hexwar.net.client import SeatClient

    said = []

    class Ws:
        """A server that sends one unreadable frame, then a good error."""

        def __init__(self):
            self.frames = [
                '{"type": "welcome"}',
                "[not json",
                '{"type":"error","code":"rate","message":"slow"}',
            ]

        async def send(self, text):
            pass

        def __aiter__(self):
            return self

        async def __anext__(self):
            if not self.frames:
                raise StopAsyncIteration
            return self.frames.pop(0)

    c = SeatClient("ws://127.0.0.1:1/g", watch=True, out=said.append)
    asyncio.run(c._session(Ws()))  # no traceback: each unreadable frame is said and skipped
    assert said[0].startswith("server sent a message this client cannot read (bad_message: game: missing")
    assert said[1].startswith("server sent a message this client cannot read (bad_json: not JSON")
    assert said[2] == "server: slow" and c.view is None


def test_each_modes_command_models_declare_exactly_the_fields_of_its_command_classes():
    """The models of ``$defs.MODE_command`` against the command classes the rules use: the same
    commands, the same fields; a field ``to_json`` always writes is required."""
    from hexwar.campaign.commands import COMMAND_TYPES as CAMPAIGN
    from hexwar.game.commands import COMMAND_TYPES as HEX
    from hexwar.lines.commands import COMMAND_TYPES as LINES

    for mode, classes in (("hex", HEX), ("lines", LINES), ("campaign", CAMPAIGN)):
        models = MODE_COMMANDS[mode]
        assert list(models) == list(classes), mode
        for name, cls in classes.items():
            fields = dataclasses.fields(cls)
            model = models[name]
            assert set(model.model_fields) == {"cmd"} | {f.name for f in fields}, (mode, name)
            required = {n for n, f in model.model_fields.items() if f.is_required()}
            assert required == {"cmd"} | {f.name for f in fields if not f.metadata.get("optional")}, (
                mode,
                name,
            )


def test_hexwar_schema_offers_every_kind_and_the_protocol_schema_is_generated(capsys):
    from hexwar.cli import main
    from hexwar.cli.formats import schema as schema_cmd
    from hexwar.formats.schema import SCHEMA_KINDS, schema_problems
    from hexwar.render.looks import looks_path

    assert sorted(schema_cmd.params[0].type.choices) == sorted(SCHEMA_KINDS)
    assert not (ROOT / "hexwar" / "formats" / "schemas").exists()  # no hand-written schema left
    assert main(["schema", "protocol"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == schema() and {"hello", "server", "legal", "hex_command", "campaign_view"} <= set(
        printed["$defs"]
    )
    for t, model in {**CLIENT_MODELS, **{f"server_{k}": v for k, v in SERVER_MODELS.items()}}.items():
        assert printed["$defs"][t]["description"] == model.__doc__.strip().replace("\n    ", "\n")
    assert main(["schema", "looks"]) == 0
    looks = json.loads(capsys.readouterr().out)
    import tomllib

    doc = tomllib.loads(looks_path().read_text())
    assert not list(Draft202012Validator(looks).iter_errors(doc))
    assert schema_problems(doc, "looks", "looks.toml") == []
    assert [p.where for p in schema_problems({**doc, "map": 3}, "looks", "looks.toml")] == ["map"]
    assert [p.where for p in schema_problems({"type": "sync", "x": 1}, "protocol", "m.json")] == ["x"]


# -- a corpus recorded from a real game on loopback ------------------------------------------------
async def _proxy(port: int, record: list[tuple[str, str | bytes]], ready: asyncio.Future) -> None:
    """A WebSocket proxy on 127.0.0.1 in front of the server on ``port`` that records every frame."""
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def handler(client):
        async with connect(f"ws://127.0.0.1:{port}{client.request.path}", max_size=2**26) as server:

            async def pump(src, dst, way):
                try:
                    async for frame in src:
                        record.append((way, frame))
                        await dst.send(frame)
                except Exception:  # noqa: BLE001 - either side closing ends the pair
                    pass
                finally:
                    await dst.close()

            await asyncio.gather(pump(client, server, "client"), pump(server, client, "server"))

    async with serve(handler, "127.0.0.1", 0, max_size=2**26) as proxy:
        ready.set_result(next(iter(proxy.sockets)).getsockname()[1])
        await asyncio.Future()


@pytest.mark.integration
def test_a_corpus_recorded_from_a_real_loopback_game_fits_the_generated_schema_and_the_models(tmp_path):
    procs = Procs(tmp_path)
    try:
        folder, port = tmp_path / "games", free_port()
        procs.server(folder, port, SMALL, "--seed", "3", "--public-seed", "--create-key", "k")
        ((gid, toks),) = tokens(folder).items()
        record: list[tuple[str, str | bytes]] = []

        async def run():
            from websockets.asyncio.client import connect

            ready = asyncio.get_running_loop().create_future()
            task = asyncio.create_task(_proxy(port, record, ready))
            via = await ready
            clients = [
                procs.client(
                    f"ws://127.0.0.1:{via}/{gid}",
                    "--seat",
                    seat,
                    "--token",
                    toks[seat],
                    "--ai",
                    "--scenario",
                    SMALL,
                    "--give-up",
                    "60",
                    name=seat,
                )
                for seat in ("german", "soviet")
            ]
            async with connect(f"ws://127.0.0.1:{via}/") as lobby:  # the lobby's messages too
                for m in (
                    {"type": "list"},
                    {"type": "ping", "id": 7},
                    {"type": "create", "scenario": "lines", "key": "k"},
                ):
                    await lobby.send(json.dumps(m))
                    await lobby.recv()
            async with connect(f"ws://127.0.0.1:{via}/{gid}") as watcher:
                await watcher.send(json.dumps({"type": "hello", "protocol": 1, "watch": True, "client": "t"}))
                await watcher.recv()
                await asyncio.sleep(1.1)  # one sync a second (--sync-interval)
                await watcher.send(json.dumps({"type": "sync"}))
                refused = {"type": "command", "seq": 0, "command": {"cmd": "end_phase", "side": "german"}}
                await watcher.send(json.dumps(refused))  # a spectator's command: an error
                got = set()
                while not {"snapshot", "error"} <= got:
                    got.add(json.loads(await asyncio.wait_for(watcher.recv(), 30))["type"])
            for _ in range(1800):
                if all(p.poll() is not None for p in clients):
                    break
                await asyncio.sleep(0.1)
            task.cancel()
            return [p.returncode for p in clients]

        codes = asyncio.run(run())
        assert codes == [0, 0], (tmp_path / "german.out").read_text()[-2000:]
    finally:
        procs.cleanup()
    s = schema()
    client_schema = Draft202012Validator(s)
    server_schema = Draft202012Validator({"$defs": s["$defs"], "$ref": "#/$defs/server"})
    command = Draft202012Validator({"$defs": s["$defs"], "$ref": "#/$defs/hex_command"})
    view = Draft202012Validator({"$defs": s["$defs"], "$ref": "#/$defs/hex_view"})
    seen: dict[str, set[str]] = {"client": set(), "server": set()}
    for way, frame in record:
        msg = json.loads(frame)
        seen[way].add(msg["type"])
        if way == "client":
            assert parse_client_message(frame) == msg
            assert not list(client_schema.iter_errors(msg)), msg
            if msg["type"] == "command":
                assert not list(command.iter_errors(msg["command"])), msg
                MODE_COMMANDS["hex"][msg["command"]["cmd"]].model_validate(msg["command"])
            continue
        assert parse_server_message(frame) == msg
        assert not list(server_schema.iter_errors(msg)), msg["type"]
        for entry in msg.get("legal", []):
            assert not list(command.iter_errors(entry)), entry
            MODE_COMMANDS["hex"][entry["cmd"]].model_validate(entry)
        if msg["type"] in ("welcome", "snapshot"):
            assert not list(view.iter_errors(msg["view"]))
            MODE_VIEWS["hex"].model_validate(msg["view"])
    print(f"{len(record)} frames: {sorted(seen['client'])} / {sorted(seen['server'])}")
    assert seen["client"] == {"hello", "command", "list", "ping", "create", "sync"}
    assert seen["server"] == {"welcome", "snapshot", "update", "seats", "games", "pong", "created", "error"}
    assert sum(way == "client" for way, _ in record) > 50


@pytest.mark.integration
def test_the_servers_size_limits_stay_in_force(tmp_path):
    """64 KiB per message (``too_big``, the connection stays open) and 1 MiB per frame (the
    connection is closed) on a real server: the models read only frames under both."""
    procs = Procs(tmp_path)
    try:
        folder, port = tmp_path / "games", free_port()
        procs.server(folder, port, SMALL, "--seed", "3", "--public-seed")

        async def run():
            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed

            async with connect(f"ws://127.0.0.1:{port}/", max_size=2**26) as ws:
                await ws.send(json.dumps({"type": "ping", "id": 1, "pad": "x" * MAX_MESSAGE_BYTES}))
                big = json.loads(await ws.recv())
                await ws.send(json.dumps({"type": "ping", "id": 2}))
                pong = json.loads(await ws.recv())
                await ws.send("y" * (1024 * 1024 + 1))
                try:
                    await asyncio.wait_for(ws.recv(), 10)
                    closed = False
                except ConnectionClosed:
                    closed = True
            return big, pong, closed

        big, pong, closed = asyncio.run(run())
    finally:
        procs.cleanup()
    assert big["code"] == "too_big" and big["message"].endswith(f"the limit is {MAX_MESSAGE_BYTES}")
    assert pong == {"protocol": 1, "type": "pong", "id": 2} and closed
    assert "Traceback" not in (tmp_path / "server.err").read_text()


def test_the_message_reference_of_docs_protocol_md_is_generated_from_the_models_and_current():
    import importlib.util

    spec = importlib.util.spec_from_file_location("protocol_docs", ROOT / "tools" / "protocol_docs.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0, "docs/protocol.md is stale: run python tools/protocol_docs.py"
    text = (ROOT / "docs" / "protocol.md").read_text()
    for t in (*CLIENT_MODELS, *SERVER_MODELS):  # a heading per message type, in the generated part
        assert f"#### `{t}`" in text
    for mode, cmds in MODE_COMMANDS.items():  # every command with its model's fields, in its mode's table
        table = text[text.index(f"`{mode}` (the seat as ") :].split("\n\n")[1].splitlines()
        assert [line.split("`")[1] for line in table[2:]] == list(cmds), mode
        for row, model in zip(table[2:], cmds.values(), strict=True):
            assert all(f"`{n}`" in row for n in model.model_fields if n not in ("cmd", "side", "seat")), row
