"""The scenario document: one model of a scenario file for the game and the editor.

:class:`ScenarioFile` holds a scenario's TOML the way a person wrote it: read from text or built
from a plain dict, edited by merging new values in, and written back with tomlkit, which keeps
comments, key order and fields this version of hexwar does not know. Validation runs in memory
(:meth:`ScenarioFile.validate`): the same checks ``hexwar validate``, ``hexwar play`` and the
editor's Save use, every problem collected with the file and the field path, and - because
*validate ok* must mean *play works* (issue 13 item 1) - a real game setup of the scenario
(:func:`hexwar.game.scenario.check_setup`), the same code that starts every game.

>>> sf = ScenarioFile.from_text('# a comment\\n[scenario]\\nid = "x"  # keep me\\nturns = 3\\n')
>>> sf.merge({"scenario": {"id": "x", "turns": 5}})
>>> print(sf.to_text(), end="")
# a comment
[scenario]
id = "x"  # keep me
turns = 5
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomlkit
import tomlkit.exceptions

from ..errors import Problem, ValidationError
from ..fileio import read_text, recover_group
from .scenario import Scenario, build_scenario, loads_toml

if TYPE_CHECKING:  # pragma: no cover
    from ..model.maps import BattleMap

__all__ = ["ScenarioFile"]


class ScenarioFile:
    """A scenario file's text and data (comments and unknown fields kept).

    Args:
        text: the TOML text.
        path: the file it belongs to (map paths resolve relative to it; problems name it).

    Raises:
        ValidationError: naming the file when ``text`` is not TOML.
    """

    def __init__(self, text: str, path: str | os.PathLike[str] | None = None):
        self.path: Path | None = Path(path) if path is not None else None
        self._text = text
        self._doc: tomlkit.TOMLDocument | None = None
        self._data = _loads(text, self.src)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, path: str | os.PathLike[str] | None = None) -> ScenarioFile:
        """Parse scenario TOML ``text``.

        Raises:
            ValidationError: naming the file and the TOML syntax error.
        """
        return cls(text, path)

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], path: str | os.PathLike[str] | None = None, base_text: str = ""
    ) -> ScenarioFile:
        """A document holding ``data``; written over ``base_text`` (the file as it was read)
        so that its comments and layout survive wherever the values did not change.

        Raises:
            ValidationError: when ``data`` holds something TOML cannot store (naming it).
        """
        sf = cls(base_text, path)
        sf.merge(data)
        return sf

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScenarioFile:
        """Read a scenario file (after finishing an interrupted paired save of it,
        :func:`hexwar.fileio.recover_group`), refusing files over the scenario size limit.

        Raises:
            ValidationError: naming the file (missing, too large, not UTF-8, not TOML).
        """
        recover_group(path)
        return cls(read_text(path, kind="hexwar-scenario"), path)

    # -- access ------------------------------------------------------------------------------
    @property
    def src(self) -> str:
        """The file name problems are reported against (``"<memory>"`` without a path)."""
        return str(self.path) if self.path is not None else "<memory>"

    @property
    def data(self) -> dict[str, Any]:
        """The parsed data (plain dicts, lists and values, as :mod:`tomllib` reads the text)."""
        return self._data

    def to_text(self) -> str:
        """The TOML text (the original text when nothing was merged in)."""
        return self._text

    def merge(self, data: Mapping[str, Any]) -> None:
        """Make the document hold exactly ``data``: changed values are replaced, missing keys
        removed, new keys appended; comments on everything else stay.

        Raises:
            ValidationError: when a value cannot be written as TOML (naming its field).
        """
        if self._doc is None:
            self._doc = tomlkit.parse(self._text)
        try:
            _merge_table(self._doc, data, "")
            text = tomlkit.dumps(self._doc)
        except (TypeError, ValueError, tomlkit.exceptions.TOMLKitError) as exc:
            raise ValidationError([Problem(self.src, "", f"cannot write as TOML: {exc}")]) from None
        self._text = text
        self._data = _loads(text, self.src)

    # -- validation --------------------------------------------------------------------------
    def validate(
        self, battlemap: BattleMap | None = None, map_path: str | os.PathLike[str] | None = None
    ) -> Scenario:
        """Validate fully, in memory, and return the game's :class:`~hexwar.game.scenario.Scenario`.

        Args:
            battlemap: the map to check against instead of loading ``scenario.map`` (the
                editor's unsaved map).
            map_path: where that map will be written (recorded in the scenario).

        Raises:
            ValidationError: every problem, each with this file and a field path.
        """
        return build_scenario(
            self._data,
            self._text,
            self.path,
            battlemap=battlemap,
            map_path=Path(map_path) if map_path is not None else None,
        )

    def problems(
        self, battlemap: BattleMap | None = None, map_path: str | os.PathLike[str] | None = None
    ) -> list[Problem]:
        """Every problem :meth:`validate` would raise (an empty list when the scenario is good)."""
        try:
            self.validate(battlemap, map_path)
        except ValidationError as exc:
            return list(exc.problems)
        return []


def _loads(text: str, src: str) -> dict[str, Any]:
    return loads_toml(text, src)


def _plain(v: Any) -> Any:
    return v.unwrap() if hasattr(v, "unwrap") else v


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _merge_table(table: Any, data: Mapping[str, Any], where: str) -> None:
    """Update tomlkit ``table`` in place to hold ``data`` (see :meth:`ScenarioFile.merge`)."""
    for k in [k for k in table.keys() if k not in data]:
        del table[k]
    for k, v in data.items():
        w = f"{where}.{k}" if where else str(k)
        if (
            k in table
            and isinstance(v, Mapping)
            and isinstance(table[k], Mapping)
            and not _is_inline(table[k])
        ):
            _merge_table(table[k], v, w)
            continue
        if k in table and _plain(table[k]) == _to_plain(v):
            continue
        if isinstance(v, Mapping) and w.count(".") >= 3:  # deep tables read best inline (weapon = {...})
            new: Any = _value(v, w)
        elif isinstance(v, Mapping):
            new = tomlkit.table()
            _merge_table(new, v, w)
        elif _is_table_array(v):
            new = tomlkit.aot()
            for item in v:
                t = tomlkit.table()
                _merge_table(t, item, w)
                new.append(t)
        else:
            new = _value(v, w)
        if k in table:
            table[k] = new
        else:
            table.add(k, new)


def _is_inline(v: Any) -> bool:
    return isinstance(v, tomlkit.items.InlineTable)


def _to_plain(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {k: _to_plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_to_plain(x) for x in v]
    return v


def _value(v: Any, where: str) -> Any:
    """A tomlkit item for a plain value (dicts inside arrays become inline tables)."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        raise ValueError(f"{where}: no nan/inf in scenario files")
    if isinstance(v, Mapping):
        t = tomlkit.inline_table()
        for k, x in v.items():
            t[k] = _value(x, f"{where}.{k}")
        return t
    if isinstance(v, list | tuple):
        a = tomlkit.array()
        for x in v:
            a.append(_value(x, where))
        return a
    if v is None:
        raise ValueError(f"{where}: TOML has no null value")
    return tomlkit.item(v)
