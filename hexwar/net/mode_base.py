"""What the server's game-mode adapters share (:class:`ModeBase`): see :mod:`hexwar.net.modes`.

Kept apart from :mod:`hexwar.net.modes` because that module builds its table of the built-in
adapters on import, and the lines and campaign adapters (which subclass this) are among them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import HexwarError

__all__ = ["ModeBase"]


class ModeBase:
    """What the three adapters share (hex, lines, campaign): their games all keep ``commands``,
    ``log``, ``over``, ``to_act``, ``check`` and ``apply`` with the same meaning, and the hex and
    lines games are loaded from a scenario file with an ``id``, ``name``, ``content_hash``,
    ``reference`` and ``path``. A subclass sets :attr:`name` and :attr:`seats` and the rules of
    its own mode; what it does not override is this.
    """

    name: str = ""
    seats: tuple[str, ...] = ()

    def _checked_apply(self, game: Any, cmd: Any, cmd_seat: str, seat: str, about: Any = None) -> int:
        """Apply ``cmd`` (already parsed; ``cmd_seat`` is the seat it names) for the connection
        holding ``seat``, as local play does: refused unless it is that seat's (R12.5) and the
        rules allow it. Returns the log index of its first event.

        Raises:
            IllegalCommand: another seat's command, or one the rules refuse (with the reason);
                ``about`` is the command named in the error (the hex game's), or ``None``.
        """
        from ..game.commands import IllegalCommand

        if cmd_seat != seat:
            raise IllegalCommand(about, f"this connection holds the {seat} seat, not {cmd_seat} (R12.5)")
        why = game.check(cmd)
        if why is not None:
            raise IllegalCommand(about, why)
        start = len(game.log)
        game.apply(cmd)
        return start

    def load(self, path: Path, scenario_paths: tuple[str, ...] = ()) -> Any:
        """The game of a save (replayed and verified, :func:`hexwar.game.save.load_game`).

        Raises:
            HexwarError: naming the file, when it does not replay.
        """
        from ..game.save import ReplayError, load_game

        try:
            return load_game(path, scenario_paths=scenario_paths)
        except ReplayError as exc:
            raise HexwarError(f"{path}: {exc}") from None

    def save(self, game: Any, path: Path) -> None:
        """Write the game's ordinary save atomically (``hexwar replay --verify`` reads it)."""
        from ..game.save import write_save

        write_save(game, path, {s: "network" for s in self.seats})

    def server_defs(self, game: Any) -> Any:
        """The definitions :meth:`rebuild` needs, from the server's own game (its scenario)."""
        return game.scenario

    def legal(self, game: Any, seat: str, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The commands ``seat`` may send now as JSON, listed from its view ``data`` alone
        (R12.1): the state rebuilt from the view (``rebuild``) lists them with the rules code,
        exactly the list ``hexwar join --headless`` numbers. Empty when the seat is not to act."""
        st = self.rebuild(data, self.server_defs(game))  # type: ignore[attr-defined]
        return [c.to_json() for c in st.legal_commands(seat)]

    def to_act(self, game: Any) -> str | None:
        """The seat to act, ``None`` when the game is over."""
        return None if game.over else game.to_act  # type: ignore[no-any-return]

    def seq(self, game: Any) -> int:
        """Commands applied so far."""
        return len(game.commands)

    def state_hash(self, game: Any) -> str:
        """The game's state hash (what local play reaches for the same commands)."""
        return game.state_hash()  # type: ignore[no-any-return]

    def scenario_info(self, game: Any) -> dict[str, Any]:
        """The scenario's ``id``, ``name``, ``content_hash`` and ``reference`` (the client
        loads its own copy and checks the hash)."""
        sc = game.scenario
        return {"id": sc.id, "name": sc.name, "content_hash": sc.content_hash, "reference": sc.reference}

    def scenario_file(self, game: Any) -> str | None:
        """The scenario file the game was made from (the server keeps it to resume the game)."""
        return str(game.scenario.path.resolve()) if game.scenario.path is not None else None

    def fog(self, game: Any) -> bool:
        """Whether the game hides what a seat cannot see (R12.1); only the hex game has fog."""
        return False

    def describe(self, game: Any) -> dict[str, Any]:
        """The lobby line: ``{"turn", "phase", "fog", "result"}``."""
        return {
            "turn": game.turn,
            "phase": game.phase,
            "fog": self.fog(game),
            "result": str(game.result) if game.result else None,
        }

    # -- the client side ---------------------------------------------------------------------
    def client_definitions(self, info: dict[str, Any], scenario_file: str | None = None) -> Any:
        """The local scenario with the server's content hash (:func:`hexwar.net.local_defs.load_scenario_for`)."""
        from .local_defs import load_scenario_for

        return load_scenario_for(info, scenario_file)

    def where(self, data: dict[str, Any]) -> str:
        """``"turn 2, movement phase"``: where a view's game is, for the client's status line."""
        return f"turn {data.get('turn')}, {data.get('phase')} phase"
