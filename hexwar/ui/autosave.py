"""Autosave of the play screen: after every command through
:class:`hexwar.game.save.Autosaver`, plus one final save when the game ends; failures become
status-line messages, never exceptions into the window."""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import HexwarError
from ..game.events import GameEvent
from ..game.state import GameState

__all__ = [
    "AUTOSAVE_ENV",
    "autosave_dir",
    "default_autosave_path",
    "new_game_autosave",
    "latest_autosave",
    "latest_campaign_autosave",
    "ResumeOffer",
    "PlayAutosave",
]

#: Environment variable overriding the autosave folder.
AUTOSAVE_ENV = "HEXWAR_AUTOSAVE_DIR"


def autosave_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The play screen's autosave folder: ``$HEXWAR_AUTOSAVE_DIR``, else the per-user state
    folder (:func:`hexwar.paths.user_state_dir`, platformdirs) ``.../hexwar/autosave``."""
    env = os.environ if environ is None else environ
    if env.get(AUTOSAVE_ENV):
        return Path(env[AUTOSAVE_ENV])
    from ..paths import user_state_dir

    return user_state_dir("autosave")


def default_autosave_path(scenario_name: str, environ: Mapping[str, str] | None = None) -> Path:
    """Where a game of ``scenario_name`` autosaves when no ``--save`` is given:
    ``<autosave_dir>/<name>.json`` with the name reduced to letters, digits, ``-`` and ``_``."""
    stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in scenario_name.lower()).strip("_") or "game"
    return autosave_dir(environ) / f"{stem}.json"


def new_game_autosave(
    scenario_id: str, when: datetime.datetime, environ: Mapping[str, str] | None = None
) -> Path:
    """The autosave file of a windowed game started at ``when`` without ``--save``:
    ``<autosave_dir>/<scenario>-YYYYmmdd-HHMMSS.json`` (never an earlier game's file); the
    folder is created.

    Raises:
        HexwarError: when the folder cannot be created.
    """
    path = default_autosave_path(f"{scenario_id}-{when:%Y%m%d-%H%M%S}", environ)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HexwarError(f"autosave folder {path.parent}: {exc.strerror or exc}") from None
    return path


@dataclass(frozen=True)
class ResumeOffer:
    """The last unfinished windowed game, offered at start (issue 17 item 7).

    Attributes:
        path: its autosave file.
        text: one line for the offer: scenario, turn, phase, when.
        players: who played each side, as saved (``{"german": "human", "soviet": "standard"}``).
    """

    path: Path
    text: str
    players: dict[str, str]


def _newest_saves(folder: Path, look_at: int) -> list[Path]:
    """The ``look_at`` newest ``*.json`` files of ``folder``, newest first (none if unreadable)."""
    try:
        return sorted(
            (p for p in folder.glob("*.json") if p.is_file()), key=lambda p: p.stat().st_mtime, reverse=True
        )[:look_at]
    except OSError:
        return []


def latest_autosave(
    folder: Path | None = None, look_at: int = 8, mode: str = "hex", scenario_id: str | None = None
) -> ResumeOffer | None:
    """The newest autosave of a ``mode`` game (``"hex"``, or ``"lines"`` for the card table) in
    ``folder`` (default :func:`autosave_dir`) whose game is not over, or ``None``; with
    ``scenario_id`` only a game of that scenario. Only the ``look_at`` newest files are read;
    unreadable or foreign files are skipped (never deleted), so a broken file never stops
    ``hexwar play``."""
    from ..game.save import read_save

    files = _newest_saves(autosave_dir() if folder is None else folder, look_at)
    for p in files:
        try:
            sf = read_save(p)
        except (HexwarError, OSError, ValueError):
            continue
        if sf.result is not None or sf.mode != mode or not sf.commands:
            continue
        if scenario_id is not None and sf.scenario_id != scenario_id:
            continue
        when = datetime.datetime.fromtimestamp(p.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        text = f"{sf.scenario_name or sf.scenario_id}, turn {sf.final_turn}, {sf.final_phase} phase (saved {when})"
        return ResumeOffer(p, text, dict(sf.players))
    return None


def latest_campaign_autosave(folder: Path | None = None, look_at: int = 8) -> ResumeOffer | None:
    """The newest campaign autosave in ``folder`` (default :func:`autosave_dir`) whose war is
    not over and has begun, or ``None`` (what a plain ``hexwar campaign`` offers to continue,
    issue 36). Only the ``look_at`` newest files are read; unreadable or foreign files are
    skipped, never deleted."""
    from ..campaign.save import read_campaign_save

    files = _newest_saves(autosave_dir() if folder is None else folder, look_at)
    for p in files:
        try:
            sv = read_campaign_save(p)
        except (HexwarError, OSError, ValueError):
            continue
        if sv.winner is not None or not sv.commands:
            continue
        when = datetime.datetime.fromtimestamp(p.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        text = f"the war of seed {sv.seed}, {len(sv.commands)} commands played (saved {when})"
        return ResumeOffer(p, text, dict(sv.players))
    return None


class PlayAutosave:
    """Saves a game as it is played.

    Args:
        saver: an :class:`~hexwar.game.save.Autosaver` (``path``, ``players``, ``after``), or
            ``None`` for no autosave.

    Attributes:
        saved_final: the final save (at the game's end) has been written.
    """

    def __init__(self, saver: Any = None) -> None:
        self.saver = saver
        self.saved_final = False

    def after(self, state: GameState, events: Iterable[GameEvent]) -> list[str]:
        """Tell the autosaver about a command just applied; at the game's end write the final
        save once. Returns the failure messages (``autosave failed: ...``, ``save failed: ...``)."""
        if self.saver is None:
            return []
        problems: list[str] = []
        try:
            self.saver.after(state, list(events))
        except HexwarError as exc:
            problems.append(f"autosave failed: {exc}")
        if state.over and not self.saved_final:
            from ..game.save import write_save

            try:
                write_save(state, self.saver.path, getattr(self.saver, "players", None))
                self.saved_final = True
            except HexwarError as exc:
                problems.append(f"save failed: {exc}")
        return problems
