"""The authoritative game server: ``hexwar serve`` (R12.5), the ``websockets`` library on asyncio.

The server owns every game: it checks each command with the same checks as local play
(:meth:`GameState.check <hexwar.game.state.GameState.check>`), rolls every die itself (the seed
never leaves the server), applies it, writes the game atomically (:func:`hexwar.game.save.write_save`)
*before* anyone hears of it, and sends each connection the events of its own view
(:func:`hexwar.game.view.events_for`) with a delta of its view, the new view hash and the state
hash. Nothing read from a socket is executed: frames are JSON read through the protocol's
message models (:mod:`hexwar.net.protocol`, :mod:`hexwar.formats.protocol_file`), commands are
rebuilt field by field (:func:`hexwar.game.commands.command_from_json`).

Folder layout (``--games DIR``), one game ``ID`` = two files:

* ``ID.seats.json``: mode, created time, the scenario file the host gave (to resume a game of
  a scenario that is not shipped), and per seat the SHA-256 of its token (the tokens
  themselves are printed for the host, or written with ``--tokens FILE``, never stored here);
* ``ID.save.json``: the ordinary hexwar save (scenario reference, seed, variants, command log,
  hashes), replayed and verified when the server starts again on the folder.

Because a save is written with a temporary file and a rename, a server killed at any moment
(``kill -9``) leaves either the old or the new save, never a torn one; the command it was
applying is then lost only if no client heard of it, and the client simply sends it again.

Seats: a connection takes a seat with its token (compared with :func:`hmac.compare_digest`
on the SHA-256 digests, so in constant time); a newer connection with the right token takes the
seat over (a reconnect after a drop); spectators (``watch``) get the view of what both sides
may see and cannot send commands.

Every byte a connection receives is computed from its seat's view alone (R12.1): the view, the
events (:meth:`GameMode.events <hexwar.net.modes.GameMode.events>`), the ``legal`` commands
(listed from the state rebuilt from that view, as the terminal player lists them) and the
``view_hash`` (of that view). No hash of the whole state is sent (a client could test guesses of
hidden state or of the seed against it): the state hash stays in the save. The games folder is
owner-only (0700), its files 0600.

Limits (:class:`Limits`, each a ``hexwar serve`` flag): message size, messages per second per
connection (a token bucket), bytes queued for one connection (a slow reader is dropped, never
buffered without bound; only its own writer task waits on its socket), ``sync`` at most once per
``sync_interval``, connections that have not said ``hello`` (and lobby connections) closed after
``idle_timeout`` and at most ``max_pending`` of them (the oldest goes for a new one, so idle
connections never lock a seat holder out), seats that spectators cannot take and a spectator cap
per game, lobby ``create`` only with the host's ``create_key``, games nobody touched for
``expire_after`` seconds moved to ``DIR/expired``, a connection closed after
``max_violations`` protocol violations.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import re
import secrets
import ssl
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..errors import HexwarError
from ..fileio import atomic_write_text, read_json
from ..game.view import json_delta
from .campaign_mode import PRESETS as CAMPAIGN_PRESETS
from .modes import detect_mode, mode_adapter
from .protocol import PROTOCOL_VERSION, ProtocolError, encode, error, parse_client_message
from .rooms import Conn, Limits, Room, token_digest

__all__ = ["Limits", "Room", "GameServer", "serve_forever", "GAME_ID_RE", "DEFAULT_PORT"]

DEFAULT_PORT = 7420
GAME_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,80}$")
SEATS_FORMAT = "hexwar-net-seats"


# error codes that are refusals of the rules, not protocol violations
_NOT_VIOLATIONS = frozenset({"illegal", "stale", "over", "no_game", "seat_taken"})


class GameServer:
    """All games of one folder, and the connection handler (see the module docstring).

    Args:
        folder: the games folder (created if missing).
        limits: :class:`Limits`.
        log: where to print server notes (stderr by default).
        scenario_paths: scenario files (not shipped ones) the folder's games may need to resume.
    """

    def __init__(
        self,
        folder: str | Path,
        limits: Limits | None = None,
        log: Any = None,
        scenario_paths: tuple[str, ...] = (),
    ):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.folder, 0o700)  # the saves hold the seeds and every hidden card
        self.scenario_paths = tuple(scenario_paths)
        self.limits = limits or Limits()
        self.rooms: dict[str, Room] = {}
        self.connections = 0
        self.pending: dict[Conn, None] = {}  # no hello yet, or on the lobby: oldest first
        self.log = log or sys.stderr
        self.errors = 0
        self.saver = ThreadPoolExecutor(max_workers=16, thread_name_prefix="hexwar-save")

    def note(self, text: str) -> None:
        """Print one server note."""
        print(text, file=self.log, flush=True)

    # -- games on disk -------------------------------------------------------------------------
    def load_all(self) -> list[str]:
        """Resume every game of the folder (replayed and verified); returns problems as text.

        Leftover temporary files of an interrupted write are removed; a game whose files are
        missing or do not replay is reported and skipped (its files are left as they are).
        """
        problems = []
        for tmp in self.folder.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()
        for seats in sorted(self.folder.glob("*.seats.json")):
            gid = seats.name[: -len(".seats.json")]
            try:
                meta = read_json(seats)
                if not isinstance(meta, dict) or meta.get("format") != SEATS_FORMAT:
                    raise HexwarError(f"{seats}: not a hexwar seats file")
                mode = mode_adapter(str(meta.get("mode", "hex")))
                digests = meta["seats"]
                if not isinstance(digests, dict) or set(digests) != set(mode.seats):
                    raise HexwarError(f"{seats}: seats: expected {mode.seats}")
                for s, d in digests.items():  # a seat no token could ever open is refused, not kept
                    if not (isinstance(d, str) and _DIGEST_RE.match(d)):
                        raise HexwarError(f"{seats}: seats.{s}: expected a SHA-256 digest (64 hex digits)")
                save = self.folder / f"{gid}.save.json"
                given = meta.get("scenario_file")  # the host's own file, recorded at creation
                paths = self.scenario_paths + ((str(given),) if isinstance(given, str) and given else ())
                game = mode.load(save, paths)
                held = _mode_of(game)
                if held != mode.name:  # served in the wrong mode, every view would fail
                    raise HexwarError(f"{seats}: mode: {mode.name!r}, but {save.name} holds a {held} game")
                room = Room(gid, mode, game, self.folder, {s: str(d) for s, d in digests.items()})
                for f in (seats, save):
                    with contextlib.suppress(OSError):
                        os.chmod(f, 0o600)
                with contextlib.suppress(OSError):
                    room.active = save.stat().st_mtime
                self.rooms[gid] = room
            except (HexwarError, KeyError, TypeError, OSError) as exc:
                problems.append(f"game {gid} not resumed: {exc}")
        return problems

    def _new_id(self, base: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_-]", "-", base)[:60] or "game"
        n = 1
        while f"{base}-{n}" in self.rooms or (self.folder / f"{base}-{n}.seats.json").exists():
            n += 1
        return f"{base}-{n}"

    def create_game(
        self,
        scenario: str,
        fog: bool = False,
        mode: str | None = None,
        seed: int | None = None,
        game: Any = None,
    ) -> tuple[str, dict[str, str]]:
        """Create and save a new game; returns ``(game id, {seat: token})``.

        Args:
            scenario: shipped scenario name or a scenario path (ignored when ``game`` is given).
            fog: fog of war (R12.2).
            mode: the game mode (``None``: the scenario's own, :func:`hexwar.net.modes.detect_mode`;
                a hosted ``game``'s ``mode``).
            seed: the game's seed; default a secret random one (``secrets``).
            game: an existing game to host (``hexwar serve SAVE``).

        Raises:
            HexwarError: unknown scenario or mode, too many games, unwritable folder.
        """
        if len(self.rooms) >= self.limits.max_games:
            raise HexwarError(
                f"this server already hosts {len(self.rooms)} games (limit {self.limits.max_games})"
            )
        if mode is None:
            mode = str(getattr(game, "mode", "hex")) if game is not None else detect_mode(scenario)
        adapter = mode_adapter(mode)
        if game is None:
            game = adapter.new_game(scenario, fog, secrets.randbelow(2**63) if seed is None else seed)
        gid = self._new_id(adapter.scenario_info(game)["id"])
        tokens = {s: secrets.token_urlsafe(24) for s in adapter.seats}
        room = Room(gid, adapter, game, self.folder, {s: token_digest(t) for s, t in tokens.items()})
        adapter.save(game, room.save_path)  # the save first: a seats file always has its game
        os.chmod(room.save_path, 0o600)  # later writes keep the mode (hexwar.fileio)
        self._write_seats(
            room,
            {
                "mode": adapter.name,
                "created": int(time.time()),
                "scenario_file": adapter.scenario_file(game),
            },
        )
        self.rooms[gid] = room
        return gid, tokens

    def _write_seats(self, room: Room, meta: dict[str, Any]) -> None:
        """Write ``ID.seats.json`` (owner-only: the seats' token digests)."""
        path = self.folder / f"{room.id}.seats.json"
        doc = {
            "format": SEATS_FORMAT,
            "version": 1,
            "game": room.id,
            "mode": meta.get("mode", room.mode.name),
            "created": meta.get("created", int(time.time())),
            "scenario_file": meta.get("scenario_file"),
            "seats": room.digests,
        }
        if not path.exists():  # created 0600 before anything is in it
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        os.chmod(path, 0o600)
        atomic_write_text(path, json.dumps(doc, indent=2) + "\n")

    def expire_idle(self, now: float | None = None) -> list[str]:
        """Move the games nobody touched for :attr:`Limits.expire_after` seconds (no command, no
        connection) to ``DIR/expired`` and forget them; returns their ids."""
        lim = self.limits
        if lim.expire_after <= 0:
            return []
        now = time.time() if now is None else now
        gone = [g for g, r in self.rooms.items() if not r.conns and now - r.active > lim.expire_after]
        if gone:
            dest = self.folder / "expired"
            dest.mkdir(mode=0o700, exist_ok=True)
            for gid in gone:
                del self.rooms[gid]
                for name in (f"{gid}.seats.json", f"{gid}.save.json"):
                    with contextlib.suppress(OSError):
                        os.replace(self.folder / name, dest / name)
                self.note(f"game {gid} expired (untouched for {lim.expire_after:g} s): moved to {dest}")
        return gone

    # -- connections ---------------------------------------------------------------------------
    async def handler(self, ws: Any) -> None:
        """One connection: ``/`` is the lobby, ``/GAME`` a game (see docs/protocol.md)."""
        lim = self.limits
        self.connections += 1
        conn = Conn(ws, tokens=lim.burst, stamp=time.monotonic())
        self.pending[conn] = None
        while len(self.pending) > lim.max_pending:  # the oldest silent one goes (never a seat)
            oldest = next(iter(self.pending))
            del self.pending[oldest]
            oldest.send(error("limit", f"more than {lim.max_pending} connections without a hello"), lim)
            oldest.drop()
        writer = asyncio.create_task(self._writer(conn))
        try:
            path = (getattr(getattr(ws, "request", None), "path", "/") or "/").split("?", 1)[0]
            if path in ("", "/"):
                await self._lobby(conn)
            else:
                await self._game(conn, path.lstrip("/"))
        except Exception as exc:  # connection errors end this connection only
            if not _is_closed(exc):
                self.errors += 1
                self.note(f"connection error: {type(exc).__name__}: {exc}")
                traceback.print_exc(file=self.log)
        finally:
            self.connections -= 1
            self.pending.pop(conn, None)
            room = conn.room
            if room is not None:
                room.conns.discard(conn)
                room.active = time.time()
                if conn.seat is not None and room.holders.get(conn.seat) is conn:
                    del room.holders[conn.seat]
                    self._broadcast_seats(room)
            conn.out.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            if not writer.done():
                conn.drop()
                writer.cancel()

    async def _writer(self, conn: Conn) -> None:
        """The only task that waits on the connection's socket (a slow peer slows nothing else)."""
        while True:
            text = await conn.out.get()
            if text is None:
                if not conn.dropped:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.ws.close(1000, "closing"), 5)
                return
            conn.queued -= len(text)
            try:
                await conn.ws.send(text)
            except Exception:
                return

    def _rate_ok(self, conn: Conn) -> bool:
        lim = self.limits
        now = time.monotonic()
        conn.tokens = min(lim.burst, conn.tokens + (now - conn.stamp) * lim.rate)
        conn.stamp = now
        if conn.tokens < 1.0:
            return False
        conn.tokens -= 1.0
        return True

    def _reply_error(self, conn: Conn, code: str, message: str, **extra: Any) -> bool:
        """Send an error; returns False when the connection has earned too many protocol
        violations (every code but the rules' refusals) and is closed."""
        conn.send(error(code, message, **extra), self.limits)
        if code in _NOT_VIOLATIONS:
            return True
        conn.violations += 1
        if conn.violations > self.limits.max_violations:
            conn.send(
                error("limit", f"more than {self.limits.max_violations} protocol violations: closing"),
                self.limits,
            )
            conn.out.put_nowait(None)
            return False
        return True

    async def _messages(self, conn: Conn, idle: float | None = None):  # type: ignore[no-untyped-def]
        """Valid messages from the connection; errors are answered here and never raised.

        ``idle``: close the connection after this many seconds without a message (the lobby).
        """
        while True:
            try:
                raw = await (conn.ws.recv() if idle is None else asyncio.wait_for(conn.ws.recv(), idle))
            except TimeoutError:
                conn.send(error("limit", f"no message for {idle:g} s: closing"), self.limits)
                conn.out.put_nowait(None)
                return
            if conn.dropped:
                return
            if not self._rate_ok(conn):
                if not self._reply_error(
                    conn, "rate", f"more than {self.limits.rate:g} messages a second; slow down"
                ):
                    return
                continue
            try:
                msg = parse_client_message(raw)
            except ProtocolError as exc:
                if not self._reply_error(conn, exc.code, exc.message):
                    return
                continue
            yield msg

    async def _lobby(self, conn: Conn) -> None:
        from ..game.scenario import find_scenario

        lim = self.limits
        async for msg in self._messages(conn, idle=lim.idle_timeout):
            t = msg["type"]
            if t == "ping":
                conn.send(encode({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})}), lim)
            elif t == "list":
                conn.send(
                    encode({"type": "games", "games": self.lobby_list(), "scenarios": shipped_scenarios()}),
                    lim,
                )
            elif t == "create":
                key = lim.create_key
                if key is None:
                    self._reply_error(
                        conn,
                        "auth",
                        "this server's lobby creates no games (the host starts it with --create-key)",
                    )
                    continue
                given = msg.get("key")
                if not isinstance(given, str) or not hmac.compare_digest(
                    token_digest(given), token_digest(key)
                ):
                    if not self._reply_error(conn, "auth", 'create needs the host\'s key: "key": "..."'):
                        return
                    continue
                try:
                    if msg["scenario"] not in CAMPAIGN_PRESETS:
                        find_scenario(msg["scenario"])  # shipped scenarios only: never a path from a socket
                    mode = msg.get("mode") or detect_mode(msg["scenario"])
                    gid, tokens = self.create_game(msg["scenario"], bool(msg.get("fog", False)), mode)
                except HexwarError as exc:
                    code = "bad_message" if "limit" not in str(exc) else "limit"
                    if not self._reply_error(conn, code, str(exc)):
                        return
                    continue
                self.note(f"lobby: created game {gid}")
                conn.send(encode({"type": "created", "game": gid, "mode": mode, "tokens": tokens}), lim)
            else:
                if not self._reply_error(
                    conn,
                    "protocol",
                    f"{t!r} is not a lobby message here (path /); join a game at /GAME with hello",
                ):
                    return

    def lobby_list(self) -> list[dict[str, Any]]:
        """Every game: id, mode, scenario, free seats, turn, phase, result."""
        out = []
        for gid, r in sorted(self.rooms.items()):
            info = r.mode.scenario_info(r.game)
            out.append(
                {
                    "game": gid,
                    "mode": r.mode.name,
                    "scenario": info["id"],
                    "name": info["name"],
                    "free_seats": [s for s in r.mode.seats if s not in r.holders],
                    "seats": r.seats_info(),
                    "spectators": sum(1 for c in r.conns if c.watching),
                    **r.mode.describe(r.game),
                }
            )
        return out

    async def _game(self, conn: Conn, gid: str) -> None:
        lim = self.limits
        room = self.rooms.get(gid) if GAME_ID_RE.match(gid) else None
        if room is None:
            conn.send(
                error("no_game", f"no game {gid[:80]!r} on this server; the lobby at / lists them"), lim
            )
            return
        # the hello, within the time limit
        try:
            raw = await asyncio.wait_for(conn.ws.recv(), lim.idle_timeout)
        except TimeoutError:
            conn.send(error("protocol", f"no hello within {lim.idle_timeout:g} s"), lim)
            return
        try:
            hello = parse_client_message(raw)
        except ProtocolError as exc:
            conn.send(error(exc.code, exc.message), lim)
            return
        if hello["type"] != "hello":
            conn.send(
                error("protocol", f"the first message on a game must be a hello, not {hello['type']!r}"), lim
            )
            return
        if room.id not in self.rooms:  # expired meanwhile
            conn.send(error("no_game", f"game {gid} is no longer on this server"), lim)
            return
        if hello.get("watch"):
            if room.spectators() >= lim.max_spectators:  # seats are never taken by spectators
                conn.send(error("limit", f"game {gid} already has {lim.max_spectators} spectators"), lim)
                return
            conn.watching = True
        else:
            seat, token = hello["seat"], hello["token"]
            want = room.digests.get(seat, "")
            if not hmac.compare_digest(token_digest(token), want):
                conn.send(error("auth", f"wrong token for the {seat} seat of game {gid}"), lim)
                return
            old = room.holders.get(seat)
            if old is not None:  # a reconnect: the newer connection takes the seat over
                old.send(error("seat_taken", f"the {seat} seat was taken over by a newer connection"), lim)
                old.out.put_nowait(None)
                room.conns.discard(old)
            conn.seat = seat
            room.holders[seat] = conn
        self.pending.pop(conn, None)
        conn.room = room
        room.conns.add(conn)
        self._send_snapshot(conn, "welcome")
        self._broadcast_seats(room)
        async for msg in self._messages(conn):
            t = msg["type"]
            ok = True
            if t == "ping":
                conn.send(encode({"type": "pong", **({"id": msg["id"]} if "id" in msg else {})}), lim)
            elif t == "sync":
                now = time.monotonic()
                if now - conn.last_sync < lim.sync_interval:
                    ok = self._reply_error(
                        conn, "rate", f"one sync per {lim.sync_interval:g} s; the last snapshot stands"
                    )
                else:
                    conn.last_sync = now
                    self._send_snapshot(conn, "snapshot")
            elif t == "command":
                await self._command(conn, msg)
            elif t == "hello":  # once only: it is not a lobby message either
                who = f"the {conn.seat} seat" if conn.seat else "a spectator's place"
                ok = self._reply_error(
                    conn,
                    "protocol",
                    f"this connection already said hello and holds {who} of game {room.id}; "
                    "open another connection for another seat",
                )
            else:
                ok = self._reply_error(conn, "protocol", f"{t!r} is a lobby message; send it on path /")
            if not ok or conn.dropped or conn.room is None or conn not in room.conns:
                return

    def _legal(self, room: Room, seat: str | None, data: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The commands ``seat`` may send now, listed from its view alone (the list the terminal
        player numbers), or ``None`` when it is not the seat to act."""
        if seat is None or room.mode.to_act(room.game) != seat:
            return None
        return room.mode.legal(room.game, seat, data)

    def _send_snapshot(self, conn: Conn, kind: str) -> None:
        room = conn.room
        assert room is not None
        v = room.mode.view(room.game, conn.seat)
        conn.view_data = v.data
        legal = self._legal(room, conn.seat, v.data)
        conn.send(
            encode(
                {
                    "type": kind,
                    "game": room.id,
                    "mode": room.mode.name,
                    "seat": conn.seat,
                    "scenario": room.mode.scenario_info(room.game),
                    "view": v.data,
                    "log": v.log,
                    "view_hash": v.hash,
                    "seq": room.mode.seq(room.game),
                    "seats": room.seats_info(),
                    "waiting_for": room.waiting_for(),
                    **({"legal": legal} if legal is not None else {}),
                }
            ),
            self.limits,
        )

    def _broadcast_seats(self, room: Room) -> None:
        text = encode(
            {"type": "seats", "game": room.id, "seats": room.seats_info(), "waiting_for": room.waiting_for()}
        )
        for c in list(room.conns):
            c.send(text, self.limits)

    async def _command(self, conn: Conn, msg: dict[str, Any]) -> None:
        room = conn.room
        assert room is not None
        async with room.lock:  # one command of a game at a time; other games go on meanwhile
            await self._command_locked(conn, room, msg)

    async def _command_locked(self, conn: Conn, room: Room, msg: dict[str, Any]) -> None:
        from ..game.commands import CommandFormatError, IllegalCommand

        if conn.seat is None:
            self._reply_error(conn, "spectator", "spectators cannot send commands")
            return
        mode, game = room.mode, room.game
        seq = mode.seq(game)
        if mode.to_act(game) is None:
            self._reply_error(conn, "over", "the game is over", seq=msg["seq"])
            return
        if msg["seq"] != seq:
            self._reply_error(
                conn,
                "stale",
                f"command for seq {msg['seq']}, but the game is at seq {seq} "
                "(replayed or out of date: a snapshot follows)",
                seq=msg["seq"],
            )
            self._send_snapshot(conn, "snapshot")
            return
        try:
            start = mode.apply_json(game, conn.seat, msg["command"])
        except CommandFormatError as exc:
            self._reply_error(conn, "bad_command", str(exc), seq=seq)
            return
        except IllegalCommand as exc:
            code = "not_your_seat" if "R12.5" in exc.reason else "illegal"
            self._reply_error(conn, code, exc.reason, seq=seq)
            return
        except Exception as exc:  # a bug: the game in memory may be half changed; go back to its save
            self.errors += 1
            self.note(f"game {room.id}: internal error on {msg['command']}: {type(exc).__name__}: {exc}")
            traceback.print_exc(file=self.log)
            room.game = self._reload(room)
            self._reply_error(conn, "server", "internal error; the game is unchanged", seq=seq)
            return
        try:
            # atomically, before anyone hears of it; in a worker thread, so the saves (fsync) of
            # different games overlap while this game waits under its lock
            await asyncio.get_running_loop().run_in_executor(self.saver, mode.save, game, room.save_path)
        except HexwarError as exc:
            self.note(f"game {room.id}: save failed: {exc}; going back to the last save")
            room.game = self._reload(room)
            self._reply_error(
                conn, "server", "the server could not save the game; the command is undone", seq=seq
            )
            return
        self._broadcast_update(room, start)

    def _reload(self, room: Room) -> Any:
        """The room's game as last saved (after an internal error)."""
        info = room.mode.scenario_file(room.game)
        return room.mode.load(room.save_path, self.scenario_paths + ((info,) if info else ()))

    def _broadcast_update(self, room: Room, start: int) -> None:
        mode, game = room.mode, room.game
        room.active = time.time()
        seq = mode.seq(game)
        waiting = room.waiting_for()
        by_seat: dict[Any, tuple[dict[str, Any], str, list[dict[str, Any]], Any]] = {}
        for c in list(room.conns):
            key = c.seat
            if key not in by_seat:
                v = mode.view(game, key, log_from=len(game.log))
                by_seat[key] = (v.data, v.hash, mode.events(game, key, start), self._legal(room, key, v.data))
            data, vh, events, legal = by_seat[key]
            delta = json_delta(c.view_data if c.view_data is not None else {}, data)
            c.view_data = data
            c.send(
                encode(
                    {
                        "type": "update",
                        "game": room.id,
                        "seq": seq,
                        "events": events,
                        "delta": delta,
                        "view_hash": vh,
                        "to_act": mode.to_act(game),
                        "waiting_for": waiting,
                        **({"legal": legal} if legal is not None else {}),
                    }
                ),
                self.limits,
            )


_DIGEST_RE = re.compile(r"^[0-9a-f]{64}$")


def _mode_of(game: Any) -> str:
    """The mode of a loaded game: ``"lines"`` (a :class:`~hexwar.lines.state.LinesState` says
    so), ``"campaign"`` (a :class:`~hexwar.campaign.state.CampaignState`) or ``"hex"``."""
    from ..campaign.state import CampaignState

    if isinstance(game, CampaignState):
        return "campaign"
    return str(getattr(game, "mode", "hex"))


def _is_closed(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, ConnectionClosed | ConnectionResetError | BrokenPipeError | asyncio.CancelledError)


def shipped_scenarios() -> list[str]:
    """Names of the shipped scenarios and campaign presets (the lobby may create games of these only)."""
    from ..paths import content_dir

    try:
        names = sorted(p.stem for p in (content_dir("scenarios")).glob("*.toml"))
    except Exception:  # no content folder in this installation
        names = []
    return names + sorted(CAMPAIGN_PRESETS)  # the wars the lobby can start (mode "campaign")


async def serve_forever(
    server: GameServer,
    host: str,
    port: int,
    certfile: str | None = None,
    keyfile: str | None = None,
    ready: Any = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Listen on ``host:port`` (TLS with ``certfile``/``keyfile``) until ``stop`` is set.

    Args:
        server: the :class:`GameServer`.
        host: ``127.0.0.1`` unless the host asked for another address.
        port: TCP port (0: any free port; the one chosen is passed to ``ready``).
        certfile, keyfile: PEM files for TLS (``wss://``).
        ready: called with the bound port once listening.
        stop: set it to stop (default: run until cancelled).
    """
    from websockets.asyncio.server import serve

    ctx = None
    if certfile:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(certfile, keyfile)
    async with serve(
        server.handler,
        host,
        port,
        ssl=ctx,
        max_size=1024 * 1024,  # larger frames close the connection (a message is at most 64 KiB)
        max_queue=16,  # frames read ahead of the handler (each at most max_size)
        ping_interval=20,
        ping_timeout=30,
        compression=None,
    ) as ws_server:
        bound = next(iter(ws_server.sockets)).getsockname()[1]
        if ready is not None:
            ready(bound)

        async def janitor() -> None:  # idle games expire (Limits.expire_after)
            every = max(1.0, min(60.0, server.limits.expire_after / 4))
            while True:
                await asyncio.sleep(every)
                server.expire_idle()

        task = asyncio.create_task(janitor()) if server.limits.expire_after > 0 else None
        try:
            await (stop.wait() if stop is not None else asyncio.Future())
        finally:
            if task is not None:
                task.cancel()


__all__ += ["shipped_scenarios", "token_digest", "PROTOCOL_VERSION"]
