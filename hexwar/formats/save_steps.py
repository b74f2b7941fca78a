"""The save file's version and its migration steps (issue 19), in a module of their own.

Plain functions without the save's typed models (:mod:`hexwar.formats.save_file`), so that
:mod:`hexwar.formats.migrate`, which every scenario load imports, does not import the save
models: a game's start reads no save (issue 35).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SAVE_SCHEMA_VERSION", "SAVE_MIGRATIONS", "save_1_to_2"]

SAVE_SCHEMA_VERSION = 2


def save_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Save 1 -> 2: ``scenario.map`` (a game on another map) becomes possible; nothing else changes.

    Returns a new document; the input is not changed.

    >>> save_1_to_2({"format": "hexwar-save", "schema_version": 1})["schema_version"]
    2
    """
    return {**doc, "schema_version": 2}


#: from_version -> the step to from_version + 1
SAVE_MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: save_1_to_2}
