"""Game modes the server can host (R11, R12.5): the protocol carries the mode.

The server (:mod:`hexwar.net.server`) never touches a game's rules itself: everything goes
through a :class:`GameMode` adapter chosen by the game's ``mode`` (``"hex"`` today; the
Spearpoint card game on lines, ``"lines"``, and the Eastern Front campaign, ``"campaign"``,
register their own adapters with :func:`register_mode` when they exist). An adapter says how
to start, save and load a game, who must act, how to check and apply one command sent as
JSON, and what each seat (or a spectator) may see. docs/protocol.md, "Other game modes".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from ..errors import HexwarError

__all__ = ["GameMode", "HexMode", "MODE_ADAPTERS", "register_mode", "mode_adapter"]


class GameMode(Protocol):
    """What the server needs of a game mode; ``game`` is the mode's own state object."""

    name: str
    seats: tuple[str, ...]

    def new_game(self, scenario: str, fog: bool, seed: int) -> Any:
        """A new game of ``scenario`` (a shipped name or a path). Raises HexwarError."""

    def load(self, path: Path, scenario_paths: tuple[str, ...] = ()) -> Any:
        """A game from its save file (replayed and verified), its scenario among the shipped
        ones or ``scenario_paths``. Raises HexwarError."""

    def save(self, game: Any, path: Path) -> None:
        """Write the game's save atomically."""

    def to_act(self, game: Any) -> str | None:
        """The seat that must send the next command, ``None`` when the game is over."""

    def seq(self, game: Any) -> int:
        """Commands applied so far (a command must carry this number)."""

    def apply_json(self, game: Any, seat: str, command: dict[str, Any]) -> int:
        """Check ``command`` as local play does and apply it; returns the log index where its
        events start. Raises HexwarError (``IllegalCommand``/``CommandFormatError``) unchanged."""

    def view(self, game: Any, seat: str | None, log_from: int = 0) -> Any:
        """The seat's (``None``: spectator's) :class:`~hexwar.game.view.View`."""

    def events(self, game: Any, seat: str | None, start: int) -> list[dict[str, Any]]:
        """The events from log index ``start`` on that ``seat`` may see."""

    def state_hash(self, game: Any) -> str:
        """The authoritative state hash."""

    def scenario_info(self, game: Any) -> dict[str, Any]:
        """``{"id", "content_hash", "reference", "name"}`` for clients to load definitions."""

    def describe(self, game: Any) -> dict[str, Any]:
        """Lobby line: turn, phase, result text."""

    def scenario_file(self, game: Any) -> str | None:
        """The game's scenario file (to resume it when it is not a shipped one), or ``None``."""


class HexMode:
    """The hex game (R5-R10) through :mod:`hexwar.game` and the view function (R12.1)."""

    name: str = "hex"
    seats: tuple[str, ...] = ("german", "soviet")

    def __init__(self) -> None:
        self._snap: tuple[int, int, int, dict[str, Any], str] | None = None

    def _snapshot(self, game: Any) -> tuple[dict[str, Any], str]:
        """The game's snapshot and state hash, computed once per command for every view sent."""
        import hashlib
        import json

        key = (id(game), len(game.commands), len(game.log))
        if self._snap is None or self._snap[:3] != key:
            snap = game.snapshot()
            text = json.dumps(snap, sort_keys=True, separators=(",", ":"))  # exactly GameState.state_hash
            self._snap = (*key, snap, hashlib.sha256(text.encode()).hexdigest())
        return self._snap[3], self._snap[4]

    def new_game(self, scenario: str, fog: bool, seed: int) -> Any:
        """A new game (see :class:`GameMode`)."""
        from ..game.scenario import find_scenario, load_scenario

        p = Path(scenario)
        sc = load_scenario(p if p.suffix == ".toml" and p.exists() else find_scenario(scenario))
        variants = sc.variants + (("fog",) if fog and "fog" not in sc.variants else ())
        return sc.new_game(seed=seed, variants=variants)

    def load(self, path: Path, scenario_paths: tuple[str, ...] = ()) -> Any:
        """See :class:`GameMode`."""
        from ..game.save import ReplayError, load_game

        try:
            return load_game(path, scenario_paths=scenario_paths)
        except ReplayError as exc:
            raise HexwarError(f"{path}: {exc}") from None

    def save(self, game: Any, path: Path) -> None:
        """See :class:`GameMode`."""
        from ..game.save import write_save

        write_save(game, path, {s: "network" for s in self.seats})

    def to_act(self, game: Any) -> str | None:
        """See :class:`GameMode`."""
        return None if game.over else game.to_act  # type: ignore[no-any-return]

    def seq(self, game: Any) -> int:
        """See :class:`GameMode`."""
        return len(game.commands)

    def apply_json(self, game: Any, seat: str, command: dict[str, Any]) -> int:
        """See :class:`GameMode`."""
        from ..game.commands import IllegalCommand, command_from_json

        cmd = command_from_json(command, "command")
        if cmd.side != seat:
            raise IllegalCommand(cmd, f"this connection holds the {seat} seat, not {cmd.side} (R12.5)")
        why = game.check(cmd)
        if why is not None:
            raise IllegalCommand(cmd, why)
        start = len(game.log)
        game.apply(cmd)
        return start

    def view(self, game: Any, seat: str | None, log_from: int = 0) -> Any:
        """See :class:`GameMode`."""
        from ..game.view import view

        return view(game, seat, log_from, snapshot=self._snapshot(game)[0])

    def events(self, game: Any, seat: str | None, start: int) -> list[dict[str, Any]]:
        """See :class:`GameMode`."""
        from ..game.view import events_for

        return events_for(game, seat, start)

    def state_hash(self, game: Any) -> str:
        """See :class:`GameMode`."""
        return self._snapshot(game)[1]

    def scenario_info(self, game: Any) -> dict[str, Any]:
        """See :class:`GameMode`."""
        sc = game.scenario
        return {"id": sc.id, "name": sc.name, "content_hash": sc.content_hash, "reference": sc.reference}

    def scenario_file(self, game: Any) -> str | None:
        """The scenario file the game was made from (the server keeps it to resume the game)."""
        return str(game.scenario.path.resolve()) if game.scenario.path is not None else None

    def describe(self, game: Any) -> dict[str, Any]:
        """See :class:`GameMode`."""
        return {"turn": game.turn, "phase": game.phase, "fog": "fog" in game.variants,
                "result": str(game.result) if game.result else None}


MODE_ADAPTERS: dict[str, GameMode] = {"hex": HexMode()}


def register_mode(adapter: GameMode) -> None:
    """Make a game mode available to the server (the card game on lines, the campaign)."""
    MODE_ADAPTERS[adapter.name] = adapter


def mode_adapter(name: str) -> GameMode:
    """The adapter for mode ``name``.

    Raises:
        HexwarError: for a mode not (yet) available.
    """
    a = MODE_ADAPTERS.get(name)
    if a is None:
        raise HexwarError(f"game mode {name!r} is not available on this server (have: {sorted(MODE_ADAPTERS)})")
    return a
