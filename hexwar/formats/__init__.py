"""File formats in and out of hexwar: typed models, schemas, migrations, Tiled and Wesnoth maps (issues 19, 34).

- :mod:`hexwar.formats.scenario_file`, :mod:`hexwar.formats.save_file`: the hex scenario and the
  save as typed models (the map's is :mod:`hexwar.model.map_file`); ``from hexwar.formats import
  scenario_file`` gives the first lazily (its classes are made at its first name asked for).
- :mod:`hexwar.formats.protocol_file`: the network protocol's messages as typed models.
- :mod:`hexwar.formats.schema`: the JSON Schema (draft 2020-12) of each kind, generated from its
  model, and a checker that reports problems by file and field path.
- :mod:`hexwar.formats.migrate`: ``schema_version`` upgrades, one function per version step.
- :mod:`hexwar.formats.tiled`: Tiled TMX/TMJ hexagonal maps, import and export.
- :mod:`hexwar.formats.wesnoth`: Wesnoth ``.map`` import.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

#: submodules handed out lazily by ``from hexwar.formats import NAME`` (PEP 562)
_LAZY = ("scenario_file", "effects_file", "lines_file", "deck_file", "save_file")


class _LazySubmodule(ModuleType):
    """Stands for a submodule not imported yet: the first name asked of it imports the module
    (an ordinary import, under the import system's lock, so two threads asking at once get the
    one module, fully run) and every name is then read from the real module."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self.__name__), attr)


def __getattr__(name: str) -> ModuleType:
    """PEP 562: ``from hexwar.formats import scenario_file`` gives the hex scenario models'
    module without running it while it is not imported yet; its body (some ten pydantic model
    classes, about 0.008 s of CPU) runs when the first of its names is asked for, so a game on
    lines (R11), which imports the scenario loader but never reads a hex scenario, does not
    create them (issue 35). The same for the effects table's, the lines scenario's and the
    deck's models: a start that reads the shipped files' compiled forms
    (:mod:`hexwar.model.compiled_docs`) creates none of them and does not import pydantic. Once
    imported, the import system binds the real module here.

    Raises:
        AttributeError: for any other name.
    """
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    full = f"{__name__}.{name}"
    return sys.modules.get(full) or _LazySubmodule(full)
