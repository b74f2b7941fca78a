"""``schema_version`` upgrades: one migration function per version step, per file kind.

Every hexwar file carries ``schema_version``. A loader calls :func:`upgrade` on the parsed
document first: it runs the registered steps (:data:`MIGRATIONS`) from the file's version to
:data:`CURRENT` in memory, one step at a time, so a file of any older version reads as the
current one. ``hexwar migrate FILE [--in-place]`` writes the upgraded document atomically
(:func:`migrate_file`).

Version history:

The steps are plain functions between neighbouring versions of a kind's typed model (the map's
live beside its models in :mod:`hexwar.model.map_file`, the save's in
:mod:`hexwar.formats.save_file`); each returns a new document.

- ``map`` 1 -> 2: version 2 adds the optional ``deploy`` (deploy-zone markers by side) and
  ``objectives`` (objective markers) fields; a version 1 map has neither, so the step only
  renumbers. hexwar writes a map without markers as version 1 (the oldest version that holds
  it), so every map and scenario hash of older saves stays the same.
- ``save`` 1 -> 2: version 2 adds the optional ``scenario.map`` (the game was played on a
  generated map, ``hexwar play SCENARIO --map generated:SEED``); saves without it are still
  written as version 1.
- ``scenario`` 1: current, no steps yet.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError
from ..model.documents import Step, upgrade_document
from ..model.map_format import MAP_MIGRATIONS, MAP_SCHEMA_VERSION
from .save_steps import SAVE_MIGRATIONS, SAVE_SCHEMA_VERSION

__all__ = [
    "DECK_FORMAT",
    "CURRENT",
    "MIGRATIONS",
    "upgrade",
    "migrate_document",
    "migrate_file",
    "upgraded_text",
    "kind_of",
]


CURRENT: dict[str, int] = {"map": MAP_SCHEMA_VERSION, "save": SAVE_SCHEMA_VERSION, "scenario": 1}

# kind -> {from_version: step to from_version + 1}
MIGRATIONS: dict[str, dict[int, Step]] = {
    "map": MAP_MIGRATIONS,
    "save": SAVE_MIGRATIONS,
    "scenario": {},
}

_FORMATS = {"hexwar-map": "map", "hexwar-save": "save", "hexwar-scenario": "scenario"}
#: the deck file's ``format`` (a Reserves deck for ``hexwar play lines --deck``; its model is
#: :mod:`hexwar.formats.deck_file`): here, with the other kinds' names, so the lines scenario
#: loader names it without importing the model (issue 35)
DECK_FORMAT = "hexwar-deck"


def kind_of(doc: Any, path: str | None = None) -> str | None:
    """The kind (``map``, ``save``, ``scenario``) of a parsed document, or ``None``.

    A TOML document without ``format`` but with a ``[scenario]`` table is a scenario.
    """
    if not isinstance(doc, dict):
        return None
    fmt = doc.get("format")
    if isinstance(fmt, str) and fmt in _FORMATS:
        return _FORMATS[fmt]
    if (
        "scenario" in doc
        and isinstance(doc.get("scenario"), dict)
        and (path is None or path.endswith(".toml"))
    ):
        return "scenario"
    return None


def upgrade(doc: dict[str, Any], kind: str, src: str = "<memory>") -> tuple[dict[str, Any], list[int]]:
    """Upgrade ``doc`` of ``kind`` to the current version, in memory (the input is not changed).

    Args:
        doc: the parsed document.
        kind: ``map``, ``save`` or ``scenario``.
        src: the file name for problem reports.

    Returns:
        ``(upgraded document, versions stepped from)``; the list is empty when ``doc`` was
        current already. A scenario without ``schema_version`` counts as version 1.

    Raises:
        ValidationError: naming ``schema_version`` when it is not an integer, newer than this
            hexwar reads, or older than any step known.
    """
    return upgrade_document(doc, CURRENT[kind], MIGRATIONS[kind], src, 1 if kind == "scenario" else None)


def migrate_document(doc: Any, path: str) -> tuple[str, dict[str, Any], list[int]]:
    """Kind, upgraded document and versions stepped from, for a parsed file at ``path``.

    Raises:
        ValidationError: when the kind is unknown or the version cannot be upgraded.
    """
    kind = kind_of(doc, path)
    if kind is None:
        raise ValidationError(
            [
                Problem(
                    path, "format", f"not a hexwar map, save or scenario; expected one of {sorted(_FORMATS)}"
                )
            ]
        )
    new, steps = upgrade(doc, kind, path)
    return kind, new, steps


def upgraded_text(path: str | os.PathLike[str]) -> tuple[str, list[int], str]:
    """The upgraded text of the file at ``path``, validated, without writing anything.

    JSON files come out as hexwar writes JSON; a TOML scenario keeps its text (comments,
    order) through tomlkit, with only ``schema_version`` changed or added.

    Returns:
        ``(kind, versions stepped from, upgraded text)``.

    Raises:
        ValidationError: the file cannot be read, upgraded or validated.
    """
    from ..fileio import dump_json, loads_json, loads_toml, read_text, sniff_kind

    p = Path(path)
    # the size limit of the file's own kind, as every loader applies it (fileio.LIMITS)
    text = read_text(p, kind=sniff_kind(p))
    if p.suffix.lower() == ".toml":
        import tomlkit

        doc = loads_toml(text, str(p))
        kind, new, steps = migrate_document(doc, str(p))
        tdoc = tomlkit.parse(text)
        for k in ("format", "schema_version"):
            if k in new:
                tdoc[k] = new[k]
        new_text = tomlkit.dumps(tdoc)
    else:
        # loads_json: duplicate keys, deep nesting and 4300-digit numbers are problems, not tracebacks
        doc = loads_json(text, str(p))
        kind, new, steps = migrate_document(doc, str(p))
        new_text = dump_json(new)
    _check_upgraded(kind, new, new_text, str(p))
    return kind, steps, new_text


def migrate_file(
    path: str | os.PathLike[str], out: str | os.PathLike[str] | None = None
) -> tuple[str, list[int], str]:
    """Upgrade the file at ``path`` and write it to ``out`` (default: back over ``path``), atomically.

    The upgraded file is validated before it is written (:func:`upgraded_text`): nothing is
    written when it does not validate, and an existing ``out`` other than ``path`` is refused.

    Returns:
        ``(kind, versions stepped from, the text written)``.

    Raises:
        ValidationError: the file cannot be read, upgraded or validated.
        HexwarError: the target exists or cannot be written.
    """
    from ..fileio import atomic_write_text

    p = Path(path)
    target = Path(out) if out is not None else p
    kind, steps, new_text = upgraded_text(p)
    if target.exists() and target.resolve() != p.resolve():
        raise HexwarError(f"{target} exists: give another --out, or --in-place to upgrade {p} itself")
    atomic_write_text(target, new_text)
    return kind, steps, new_text


def _check_upgraded(kind: str, doc: dict[str, Any], text: str, src: str) -> None:
    """Validate an upgraded document (structure and meaning) before it is written."""
    if kind == "map":
        from ..model.maps import BattleMap

        BattleMap.from_json(doc, src)
    elif kind == "scenario":
        import importlib

        # by name, as hexwar.validate does: the model layer never imports the game layer
        importlib.import_module("hexwar.game.scenario").parse_scenario(text, Path(src))
    else:
        import importlib

        # the save's whole form (schema, then every command's fields and the bookkeeping), as
        # `hexwar validate` and every loader read it; by name: formats never imports the game layer
        importlib.import_module("hexwar.game.save").parse_save(doc, src)
