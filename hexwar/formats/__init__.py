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

import importlib.util
import sys
from types import ModuleType

#: submodules handed out lazily (PEP 562 and :class:`importlib.util.LazyLoader`): the module
#: object is made at once, its body runs at the first attribute asked of it
_LAZY = ("scenario_file",)


def __getattr__(name: str) -> ModuleType:
    """PEP 562: ``from hexwar.formats import scenario_file`` gives the hex scenario models'
    module without running it; its body (some ten pydantic model classes, about 0.008 s of CPU)
    runs when the first of its names is asked for, so a game on lines (R11), which imports the
    scenario loader but never reads a hex scenario, does not create them (issue 35).

    Raises:
        AttributeError: for any other name.
    """
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    full = f"{__name__}.{name}"
    mod = sys.modules.get(full)
    if mod is None:
        spec = importlib.util.find_spec(full)
        if spec is None or spec.loader is None:  # pragma: no cover - the package ships it
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        spec.loader = importlib.util.LazyLoader(spec.loader)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[full] = mod
        spec.loader.exec_module(mod)
    globals()[name] = mod
    return mod
