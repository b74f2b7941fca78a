"""Old module names kept for outside scripts: ``hexwar.maps`` is :mod:`hexwar.model.maps`, etc.

Round 1 put the map model at the package top (``hexwar.hexgrid``, ``hexwar.terrain``,
``hexwar.maps``, ``hexwar.los``, ``hexwar.los_exact``) and scripts import it by those names;
the model now lives in :mod:`hexwar.model` (docs/architecture.md). An import of an old name
returns the same module object as the new one (no second copy, no file at the old path), through
a meta-path finder installed by ``hexwar/__init__.py``. Nothing is read from disk here and no
code outside the package is run.

>>> import hexwar.maps, hexwar.model.maps
>>> hexwar.maps is hexwar.model.maps
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

__all__ = ["ALIASES", "install"]

#: old module name -> the module it now is
ALIASES: dict[str, str] = {
    f"hexwar.{m}": f"hexwar.model.{m}" for m in ("hexgrid", "terrain", "maps", "los", "los_exact")
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target
        self._spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec  # keep the real name; the old one only points here


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = ALIASES.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new))


def install() -> None:
    """Put the alias finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
