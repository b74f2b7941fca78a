"""What the game server holds per game and per connection (R12.5): the server's limits
(:class:`Limits`, every one a ``hexwar serve`` flag), one client connection with its rate bucket
and bounded send queue (:class:`Conn`), one hosted game (:class:`Room`), and the digest a
seat token is stored as.

:mod:`hexwar.net.server` runs the connections and offers these names too (issue 34: cut from
``server.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .modes import GameMode

__all__ = ["Conn", "Limits", "Room", "token_digest"]


@dataclass(frozen=True)
class Limits:
    """Server limits (R12.5: hostile clients never stop the server, another game or a seat).

    Every one is a ``hexwar serve`` flag (docs/protocol.md, "Limits").

    Attributes:
        max_pending: connections that have not said ``hello`` yet, lobby connections included;
            a new one beyond this closes the oldest of them (``--max-pending``, 256).
        max_spectators: spectators per game; seats never count (``--max-spectators``, 8).
        max_games: games on the server (lobby ``create`` refused beyond; ``--max-games``, 500).
        rate: messages per second per connection (token bucket refill; ``--max-rate``, 50).
        burst: token bucket size (twice the rate).
        max_violations: protocol violations (malformed, too big, too fast, not allowed there) a
            connection may earn; it is closed at the next (``--max-violations``, 10). Refusals of
            the rules (``illegal``, ``stale``, ``over``) are not violations.
        idle_timeout: seconds a connection may stay silent before its ``hello`` (game path) or
            between two lobby messages (``--idle-timeout``, 10).
        max_queue_bytes: bytes of messages waiting to be sent to one connection (counted as
            characters of the JSON text: a byte each for ASCII, the text is almost all ASCII); a
            connection over it (a reader slower than the game) is dropped
            (``--max-queue-bytes``, 4 MiB).
        sync_interval: seconds between two ``sync`` snapshots of one connection; a sooner one
            is a violation answered ``rate`` (``--sync-interval``, 1).
        expire_after: seconds without a command or a connection after which a game is moved
            to ``DIR/expired`` (``--expire-after``, 30 days; 0: never).
        create_key: the key a lobby ``create`` must carry; ``None``: the lobby creates no
            games (``--create-key``, off).
    """

    max_pending: int = 256
    max_spectators: int = 8
    max_games: int = 500
    rate: float = 50.0
    burst: float = 100.0
    max_violations: int = 10
    idle_timeout: float = 10.0
    max_queue_bytes: int = 4 * 1024 * 1024
    sync_interval: float = 1.0
    expire_after: float = 30 * 24 * 3600.0
    create_key: str | None = None


def token_digest(token: str) -> str:
    """SHA-256 hex digest of a seat token (what the seats file stores)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(eq=False)
class Conn:
    """One client connection: its socket, seat, the last view data sent, rate bucket, writer queue.

    ``queued`` counts the characters waiting in ``out``; :meth:`send` drops the connection
    when they would pass :attr:`Limits.max_queue_bytes`.
    """

    ws: Any
    room: Room | None = None
    seat: str | None = None
    watching: bool = False
    view_data: dict[str, Any] | None = None
    tokens: float = 0.0
    stamp: float = 0.0
    violations: int = 0
    queued: int = 0
    dropped: bool = False
    last_sync: float = float("-inf")
    out: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, text: str, limits: Limits) -> None:
        """Queue ``text`` for the writer task; a connection that does not read is dropped."""
        if self.dropped:
            return
        if self.queued + len(text) > limits.max_queue_bytes:
            self.drop()
            return
        self.queued += len(text)
        self.out.put_nowait(text)

    def drop(self) -> None:
        """Close the connection now, without sending what waits (a slow or hostile peer)."""
        if self.dropped:
            return
        self.dropped = True
        while not self.out.empty():
            self.out.get_nowait()
        self.queued = 0
        self.out.put_nowait(None)
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.abort()


@dataclass(eq=False)
class Room:
    """One hosted game.

    Attributes:
        id: the game's id (the URL path).
        mode: its :class:`~hexwar.net.modes.GameMode` adapter.
        game: the mode's game object (a :class:`~hexwar.game.state.GameState`).
        folder: the games folder.
        digests: seat -> SHA-256 of its token.
        holders: seat -> the connection holding it.
        conns: every connection on this game.
        active: when (``time.time()``) a command was last applied or a connection left.
    """

    id: str
    mode: GameMode
    game: Any
    folder: Path
    digests: dict[str, str]
    holders: dict[str, Conn] = field(default_factory=dict)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    active: float = field(default_factory=time.time)

    @property
    def save_path(self) -> Path:
        """``ID.save.json``."""
        return self.folder / f"{self.id}.save.json"

    def waiting_for(self) -> str | None:
        """The seat to act when nobody holds it (asynchronous play), else ``None``."""
        s = self.mode.to_act(self.game)
        return s if s is not None and s not in self.holders else None

    def seats_info(self) -> dict[str, Any]:
        """Per seat: connected or not."""
        return {s: {"connected": s in self.holders} for s in self.mode.seats}

    def spectators(self) -> int:
        """Spectators connected now."""
        return sum(1 for c in self.conns if c.watching)
