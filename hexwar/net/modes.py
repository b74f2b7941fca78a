"""Game modes the server can host (R11, R12.5): the protocol carries the mode.

The server (:mod:`hexwar.net.server`) never touches a game's rules itself: everything goes
through a :class:`GameMode` adapter chosen by the game's ``mode`` (``"hex"`` today; the
Spearpoint card game on lines, ``"lines"``, and the Eastern Front campaign, ``"campaign"``,
register their own adapters with :func:`register_mode` when they exist). An adapter says how
to start, save and load a game, who must act, how to check and apply one command sent as
JSON, and what each seat (or a spectator) may see; and, for the client, how to load the
definitions, rebuild a playable state from a view and make a computer player that decides
from the view only. docs/protocol.md, "Other game modes".

Modes: ``"hex"`` (:class:`HexMode`), ``"lines"`` (:class:`hexwar.net.lines_mode.LinesMode`,
the 2-player card game on lines), ``"campaign"`` (:class:`hexwar.net.campaign_mode.CampaignMode`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from ..errors import HexwarError
from .mode_base import ModeBase

__all__ = ["GameMode", "ModeBase", "HexMode", "MODE_ADAPTERS", "register_mode", "mode_adapter", "detect_mode"]


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

    def legal(self, game: Any, seat: str, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The commands ``seat`` may send now as JSON, from its view ``data`` alone (R12.1)."""

    def state_hash(self, game: Any) -> str:
        """The authoritative state hash."""

    def scenario_info(self, game: Any) -> dict[str, Any]:
        """``{"id", "content_hash", "reference", "name"}`` for clients to load definitions."""

    def describe(self, game: Any) -> dict[str, Any]:
        """Lobby line: turn, phase, result text."""

    def scenario_file(self, game: Any) -> str | None:
        """The game's scenario file (to resume it when it is not a shipped one), or ``None``."""

    # the client side
    def client_definitions(self, info: dict[str, Any], scenario_file: str | None = None) -> Any:
        """The local definitions matching the welcome's ``scenario`` (a scenario, the cards).
        Raises FatalClientError when they are not installed in the same version."""

    def rebuild(self, data: dict[str, Any], defs: Any) -> Any:
        """A state holding exactly what view ``data`` says, for the rules code to read."""

    def make_player(self, seat: str, name: str, seed: int) -> Any:
        """A computer player with ``choose_from_view(data, defs)`` (decides from the view only)."""

    def fallback(self, seat: str) -> Any:
        """The command to send after the server refused the computer's one (or ``None``)."""

    def where(self, data: dict[str, Any]) -> str:
        """Where the game is, for the terminal (``"turn 2, movement phase"``)."""


class HexMode(ModeBase):
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
        other = str(getattr(sc, "mode", "hex"))
        if other != "hex":
            raise HexwarError(
                f"{scenario}: a {other} scenario, not a hex one (create it with mode {other!r})"
            )
        variants = sc.variants + (("fog",) if fog and "fog" not in sc.variants else ())
        return sc.new_game(seed=seed, variants=variants)

    def apply_json(self, game: Any, seat: str, command: dict[str, Any]) -> int:
        """See :class:`GameMode`."""
        from ..game.commands import command_from_json

        cmd = command_from_json(command, "command")
        return self._checked_apply(game, cmd, cmd.side, seat, about=cmd)

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

    def fog(self, game: Any) -> bool:
        """Whether the game is played with fog of war (R12.1)."""
        return "fog" in game.variants

    def rebuild(self, data: dict[str, Any], defs: Any) -> Any:
        """:func:`hexwar.game.view.state_from_view`."""
        from ..game.view import state_from_view

        return state_from_view(data, defs)

    def make_player(self, seat: str, name: str, seed: int) -> Any:
        """:class:`hexwar.game.view.ViewPlayer` around the hex computer player."""
        from ..game.ai import make_player
        from ..game.view import ViewPlayer

        return ViewPlayer(make_player(name, seat, seed))

    def fallback(self, seat: str) -> Any:
        """End the phase (the computer hit something its view does not show)."""
        from ..game.commands import EndPhase

        return EndPhase(seat)


def _builtin() -> dict[str, GameMode]:
    from .campaign_mode import CampaignMode
    from .lines_mode import LinesMode

    return {"hex": HexMode(), "lines": LinesMode(), "campaign": CampaignMode()}


MODE_ADAPTERS: dict[str, GameMode] = _builtin()


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
        raise HexwarError(
            f"game mode {name!r} is not available on this server (have: {sorted(MODE_ADAPTERS)})"
        )
    return a


def detect_mode(name: str) -> str:
    """The game mode of a scenario name or file given to ``hexwar serve`` / the lobby's ``create``.

    A campaign preset (``campaign``, ``campaign-advanced``) is ``"campaign"``; a scenario whose
    file says ``mode = "lines"`` is ``"lines"``; any other scenario ``"hex"``.

    Raises:
        HexwarError: for a name that is neither a campaign nor a scenario.
    """
    from ..game.scenario import find_scenario, load_scenario
    from .campaign_mode import PRESETS

    if name in PRESETS:
        return "campaign"
    p = Path(name)
    sc = load_scenario(p if p.suffix == ".toml" and p.exists() else find_scenario(name))
    return str(getattr(sc, "mode", "hex"))
