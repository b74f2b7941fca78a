"""Game modes beyond the hex game (R11): how a scenario file or a save of another mode is read.

A scenario file or save names its mode (``mode = "lines"``); the common loaders
(:func:`hexwar.game.scenario.parse_scenario`, :mod:`hexwar.game.save`) look the mode up here
and hand over to it. Entries are ``"module:attribute"`` names, imported on first use, so the
game package never imports a mode's package (modes sit above the game in the layer order).

===================  ==========================================================================
hook                 what it is
===================  ==========================================================================
``parse_scenario``   ``f(toml_data: dict, text: str, path: Path | None) -> scenario`` (raises
                     ValidationError listing every problem)
``command``          ``f(json, where) -> command`` of the mode's saves (CommandFormatError)
``seats``            the tuple of seat names a save's ``players`` may name
===================  ==========================================================================
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["MODES", "mode_hook", "known_modes"]

#: mode name -> hook name -> "module:attribute"; the hex game (``"hex"``) is the loaders' own.
MODES: dict[str, dict[str, str]] = {
    "lines": {
        "parse_scenario": "hexwar.lines.scenario:parse_lines_scenario",
        "command": "hexwar.lines.commands:command_from_json",
        "seats": "hexwar.lines.commands:ALL_SEATS",
    },
}


def known_modes() -> tuple[str, ...]:
    """``("hex", ...)``: the modes a file may name."""
    return ("hex", *MODES)


def mode_hook(mode: str, hook: str) -> Any:
    """The ``hook`` of game mode ``mode`` (imported on first use).

    Raises:
        KeyError: for a mode or hook that is not registered.
    """
    mod, _, attr = MODES[mode][hook].partition(":")
    return getattr(importlib.import_module(mod), attr)
