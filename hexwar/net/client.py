"""The network client: ``hexwar join ws://HOST:PORT/GAME`` (R12.5).

:class:`SeatClient` holds one seat (or watches) of a game on a hexwar server. It keeps only
what the server sends: its side's view (:mod:`hexwar.game.view`) and the log lines it may
see. Each update carries a delta of the view and the new view hash; the client applies the
delta, checks the hash, and asks for a fresh snapshot (``sync``) when they differ. It
reconnects by itself with exponential backoff when the connection drops or the server
restarts, and then gets a fresh snapshot at the current state (never a replay).

Who decides for the seat is a *policy*: :class:`AiPolicy` (the computer, deciding from the
view only, R12.2), :class:`TerminalPolicy` (a person at the terminal), or none (``--watch``).
The play window uses the same client from a thread (:mod:`hexwar.net.window`).
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

from ..errors import HexwarError, small_uint
from ..game.view import apply_delta, view_hash
from .local_defs import FatalClientError, load_scenario_for
from .protocol import PROTOCOL_VERSION, ProtocolError, parse_server_message

__all__ = ["SeatClient", "AiPolicy", "TerminalPolicy", "parse_url", "load_scenario_for", "FatalClientError"]

# Reconnect jitter is cosmetic randomness with its own generator (DESIGN.md): the game's dice are
# the server's seeded Generator, never this.
_JITTER = random.Random()


def parse_url(url: str) -> tuple[str, str]:
    """``ws://HOST:PORT/GAME`` -> ``(base url, game id)``.

    Raises:
        HexwarError: for another scheme or a missing game id.

    >>> parse_url("ws://127.0.0.1:7420/skirmish-1")
    ('ws://127.0.0.1:7420', 'skirmish-1')
    """
    u = urlparse(url)
    if u.scheme not in ("ws", "wss") or not u.hostname:
        raise HexwarError(f"{url}: expected ws://HOST:PORT/GAME or wss://HOST:PORT/GAME")
    gid = u.path.strip("/")
    if not gid or "/" in gid:
        raise HexwarError(f"{url}: name the game after the port, e.g. ws://127.0.0.1:7420/skirmish-1")
    return f"{u.scheme}://{u.netloc}", gid


class AiPolicy:
    """The computer plays the seat, deciding from the seat's view only (R12.2).

    The player is made for the game's mode (hex, lines, campaign: :mod:`hexwar.net.modes`)
    once the server's welcome names it.

    Args:
        seat: the side.
        player: computer player name (``"standard"``, ``"random"``).
        seed: the player's own seed (the game's seed stays on the server).
    """

    def __init__(self, seat: str, player: str = "standard", seed: int = 0):
        self.seat = seat
        self.name = player
        self.seed = seed
        self.player: Any = None

    def _player(self, client: SeatClient) -> Any:
        if self.player is None:
            self.player = client.adapter.make_player(self.seat, self.name, self.seed)
        return self.player

    async def decide(self, client: SeatClient) -> Any:
        """The command for the current view (computed in a worker thread)."""
        assert client.view is not None
        return await asyncio.to_thread(self._player(client).choose_from_view, client.view, client.scenario)

    def fallback(self, client: SeatClient) -> Any:
        """After a refusal (something unseen was in the way): the mode's fallback (end the phase)."""
        return client.adapter.fallback(self.seat)


class TerminalPolicy:
    """A person at the terminal: the legal commands of the view. In the hex game the menu is
    ``hexwar play --headless``'s own (:func:`hexwar.game.terminal.read_choice`: runs of hexes
    grouped as ``LETTER HEX``, ``odds N``, ``inspect HEX [FROM]``, ``undo``; issue 36); the
    other modes list their commands numbered."""

    def __init__(self, seat: str, ask: Callable[[str], str] = input, out: Callable[[str], None] = print):
        self.seat = seat
        self.ask = ask
        self.out = out
        self._briefed = False

    async def decide(self, client: SeatClient) -> Any:
        """Show the legal commands and read a number (``q`` stops the client)."""
        assert client.view is not None
        st = client.adapter.rebuild(client.view, client.scenario)
        if getattr(client.adapter, "name", "") == "hex":  # the same terminal player as play --headless
            from ..game.terminal import TerminalQuit, briefing, read_choice

            if not self._briefed:  # what wins, before the first choice (R10), as play --headless
                self._briefed = True
                told = briefing(st)
                if told:
                    self.out("\n" + "\n".join(told))
            try:
                return await asyncio.to_thread(read_choice, st, self.seat, self.ask, self.out)
            except TerminalQuit:
                raise KeyboardInterrupt from None
        cmds = st.legal_commands(self.seat)
        self.out(f"\n{self.seat}, {client.adapter.where(client.view)}: choose a command")
        for i, c in enumerate(cmds[:200]):
            self.out(f"  {i:3d}  {c}")
        while True:
            raw = (await asyncio.to_thread(self.ask, "number (q to quit): ")).strip()
            if raw.lower() in ("q", "quit"):
                raise KeyboardInterrupt
            if small_uint(raw) is not None and int(raw) < min(len(cmds), 200):
                return cmds[int(raw)]
            self.out(f"enter a number 0..{min(len(cmds), 200) - 1}, or q to quit")

    def fallback(self, client: SeatClient) -> Any:
        """Ask again."""
        return None


class SeatClient:
    """One seat (or a spectator) of a game on a hexwar server; see the module docstring.

    Args:
        url: ``ws://HOST:PORT/GAME``.
        seat: ``"german"`` / ``"soviet"`` (a seat of any mode); ``None`` with ``watch``.
        token: the seat's token.
        watch: join as a spectator.
        policy: who decides (:class:`AiPolicy`, :class:`TerminalPolicy`); ``None``: nobody.
        out: where lines for the person go (events, "waiting for ...").
        give_up: stop reconnecting after this many seconds without a connection.
        ssl_context: for ``wss://`` with a private certificate.
        on_change: called after every view change (the window uses it).
        scenario_file: a local scenario file to use when the server's is not shipped.

    Attributes:
        view: the seat's current view data; ``log``: the visible log lines (JSON dicts);
        mode: the game mode the server named (``"hex"``, ``"lines"``, ``"campaign"``);
        adapter: its :mod:`hexwar.net.modes` adapter; scenario: its definitions;
        seq: commands applied; ``state_hash``: the server's last state hash;
        connects: how many times it connected; ``syncs``: snapshots asked for;
        ``max_outage``: the longest time (s) it went without a connection and reconnected.
    """

    def __init__(
        self,
        url: str,
        seat: str | None = None,
        token: str | None = None,
        watch: bool = False,
        policy: Any = None,
        out: Callable[[str], None] = print,
        give_up: float = 600.0,
        ssl_context: ssl.SSLContext | None = None,
        on_change: Callable[[SeatClient], None] | None = None,
        scenario_file: str | None = None,
    ):
        self.base, self.game = parse_url(url)
        self.url = f"{self.base}/{self.game}"
        if not watch and (seat is None or not token):
            raise HexwarError("join a seat with --seat and --token, or watch with --watch")
        self.seat = None if watch else seat
        self.token = token
        self.watch = watch
        self.policy = policy
        self.out = out
        self.give_up = give_up
        self.ssl_context = ssl_context
        self.on_change = on_change
        self.scenario_file = scenario_file
        self.view: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.printed = 0
        self.seq = -1
        self.state_hash = ""
        self.scenario: Any = None
        self.connects = 0
        self.syncs = 0
        self.acted_seq = -1
        self.refusals: dict[int, int] = {}
        self.waiting_said: str | None = None
        self.hands_seen: list[Any] = []
        self.received: list[dict[str, Any]] = []
        self.keep_messages = False
        self.outbox: asyncio.Queue[Any] | None = None
        self.mode = "hex"
        self.adapter: Any = None
        self.max_outage = 0.0
        self._ws: Any = None

    @property
    def over(self) -> bool:
        """The game has a result."""
        return bool(self.view and self.view.get("result"))

    async def run(self) -> dict[str, Any]:
        """Play (or watch) to the end of the game, reconnecting as needed.

        Returns:
            ``{"result", "state_hash", "seq", "connects", "syncs", "max_outage"}`` (the longest
            time in seconds it was without a connection).

        Raises:
            FatalClientError: refused for good; HexwarError: no server for ``give_up`` seconds.
        """
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        backoff = 0.1
        lost_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            try:
                async with connect(
                    self.url,
                    max_size=64 * 1024 * 1024,
                    ssl=self.ssl_context,
                    open_timeout=5,
                    ping_interval=20,
                    ping_timeout=30,
                    compression=None,
                ) as ws:
                    self.connects += 1
                    if lost_since is not None:  # how long it was without a server (the soak reports it)
                        self.max_outage = max(self.max_outage, loop.time() - lost_since)
                    backoff, lost_since = 0.1, None
                    self._ws = ws
                    await self._session(ws)
                    if self.over:
                        return self.summary()
            except FatalClientError:
                raise
            except InvalidURI as exc:
                raise FatalClientError(str(exc)) from None
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, EOFError):
                pass
            finally:
                self._ws = None
            if self.over:
                return self.summary()
            now = loop.time()
            lost_since = now if lost_since is None else lost_since
            if now - lost_since > self.give_up:
                raise HexwarError(f"no connection to {self.url} for {self.give_up:g} s; giving up")
            if self.connects:
                self._say_once("reconnecting", f"connection to {self.url} lost; reconnecting...")
            else:  # never connected yet: say so at once instead of waiting silently (give_up may be minutes)
                self._say_once(
                    "unreachable",
                    f"no server at {self.url} yet; retrying for up to {self.give_up:g} s (Ctrl+C stops)",
                )
            await asyncio.sleep(backoff * (1 + 0.25 * _JITTER.random()))  # cosmetic: never the game's dice
            backoff = min(backoff * 2, 5.0)

    def summary(self) -> dict[str, Any]:
        """What the client knows at the end."""
        return {
            "result": (self.view or {}).get("result"),
            "state_hash": self.state_hash,  # "" from a server that sends no hash of hidden state
            "view_hash": view_hash(self.view) if self.view is not None else "",
            "seq": self.seq,
            "connects": self.connects,
            "syncs": self.syncs,
            "max_outage": round(self.max_outage, 3),
        }

    def _say_once(self, key: str, text: str) -> None:
        if self.waiting_said != key:
            self.waiting_said = key
            self.out(text)

    async def _session(self, ws: Any) -> None:
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "client": "hexwar"}
        if self.watch:
            hello["watch"] = True
        else:
            hello |= {"seat": self.seat, "token": self.token}
        await ws.send(json.dumps(hello))
        async for raw in ws:
            try:  # every server frame is read through its model (hexwar.formats.protocol_file)
                msg = parse_server_message(raw)
            except ProtocolError as exc:  # a server of another version, or not a hexwar server
                self.out(f"server sent a message this client cannot read ({exc}); ignored")
                continue
            if self.keep_messages:
                self.received.append(msg)
            await self._handle(ws, msg)
            if self.over and msg.get("type") in ("update", "welcome", "snapshot"):
                self._print_new()
                return

    async def _handle(self, ws: Any, msg: dict[str, Any]) -> None:
        t = msg.get("type")
        if t in ("welcome", "snapshot"):
            if self.scenario is None:
                from .modes import mode_adapter

                try:
                    self.mode = str(msg.get("mode", "hex"))
                    self.adapter = mode_adapter(self.mode)
                except HexwarError as exc:
                    raise FatalClientError(f"{self.url}: {exc}") from None
                self.scenario = self.adapter.client_definitions(msg["scenario"], self.scenario_file)
            self.view = msg["view"]
            self.log = list(msg["log"])
            self.printed = min(self.printed, len(self.log))
            self.seq = int(msg["seq"])
            self.state_hash = msg.get("state_hash", "")
            self.waiting_said = None
            if (
                self.refusals.get(self.seq, 0) < 5
            ):  # a command in flight when the connection dropped may be lost
                self.acted_seq = -1  # decide again (but not forever at a point the server keeps refusing)
            self._note_hand()
        elif t == "update":
            if self.view is None:
                return
            new = apply_delta(self.view, msg["delta"])
            self.log.extend(msg["events"])
            if view_hash(new) != msg["view_hash"]:
                self.syncs += 1
                await ws.send(json.dumps({"type": "sync"}))
                return
            self.view = new
            self.seq = int(msg["seq"])
            self.state_hash = msg.get("state_hash", "")
            self._note_hand()
        elif t == "error":
            code = msg.get("code")
            if code in ("auth", "no_game"):
                raise FatalClientError(f"{self.url}: {msg.get('message')}")
            if code == "seat_taken":
                raise FatalClientError(f"{self.url}: {msg.get('message')}")
            self.out(f"server: {msg.get('message')}")
            if code == "illegal" and msg.get("seq") == self.acted_seq and self.policy is not None:
                n = self.refusals[self.acted_seq] = self.refusals.get(self.acted_seq, 0) + 1
                if n == 1:  # the computer hit something its view does not show: its fallback
                    cmd = self.policy.fallback(self)
                    if cmd is not None:
                        await ws.send(
                            json.dumps({"type": "command", "seq": self.seq, "command": cmd.to_json()})
                        )
                        return
                if n <= 3:
                    self.acted_seq = -1  # decide again
                elif n == 4:  # never loop on refusals: a fresh snapshot, then one more try
                    self.syncs += 1
                    await ws.send(json.dumps({"type": "sync"}))
                    return
        elif t == "seats":
            w = msg.get("waiting_for")
            if w is not None and w != self.seat:
                self._say_once(f"away:{w}", f"waiting for the {w.capitalize()} player (not connected)")
            return
        else:
            return
        self._print_new()
        if self.on_change is not None:
            self.on_change(self)
        await self._maybe_act(ws)

    def _note_hand(self) -> None:
        if self.view is not None and self.view.get("hands"):
            self.hands_seen.append(self.view["hands"])

    def _print_new(self) -> None:
        for e in self.log[self.printed :]:
            if e.get("kind") == "roll":
                self.out(f"      roll: {e.get('text')}")
            else:
                self.out(f"   {e.get('text')}")
        self.printed = len(self.log)

    async def _maybe_act(self, ws: Any) -> None:
        v = self.view
        if v is None or self.over:
            return
        to_act = v.get("to_act")
        if to_act != self.seat or self.seat is None:
            if to_act is not None:
                self._say_once(f"wait:{to_act}", f"waiting for the {to_act.capitalize()} player")
            return
        self.waiting_said = None
        if self.policy is None or self.acted_seq == self.seq:
            return
        self.acted_seq = self.seq
        cmd = await self.policy.decide(self)
        await ws.send(json.dumps({"type": "command", "seq": self.seq, "command": cmd.to_json()}))

    async def send_command(self, cmd: Any) -> None:
        """Send one command for the current seq (the window's person issued it)."""
        if self._ws is None:
            raise HexwarError("not connected to the server")
        self.acted_seq = self.seq
        await self._ws.send(json.dumps({"type": "command", "seq": self.seq, "command": cmd.to_json()}))
