"""The editor's document: a battle map (and, in scenario mode, the scenario), its undo history,
its file and whether it has unsaved changes.

Everything here is pure Python (no pyglet): the window of :mod:`hexwar.editor.window` and the
tests drive the same :class:`EditorDocument`.

>>> from hexwar.model.hexgrid import Hex
>>> from hexwar.editor.commands import paint_terrain
>>> doc = EditorDocument.new(6, 5, name="Test")
>>> doc.dirty
False
>>> _ = doc.execute(paint_terrain(Hex.from_label("C03").spiral(1), "woods"))
>>> doc.dirty, doc.undo_name
(True, 'Paint woods')
>>> int((doc.map.terrain == doc.map.rules.index_of_key("woods")).sum())
7
>>> _ = doc.undo(); doc.dirty
False
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import HexwarError
from ..model.maps import BattleMap, MapError
from .commands import Change, Command, CommandStack, EditedDocument, Stroke

if TYPE_CHECKING:  # pragma: no cover - typing only (scenario_draft imports the game layer)
    from .scenario_draft import ScenarioDraft

__all__ = ["DOCUMENT_KINDS", "EditorDocument", "NewScenarioOnMap"]

DOCUMENT_KINDS = ("map", "scenario")

Listener = Callable[[Change], None]


class EditorDocument:
    """A map (or scenario) being edited.

    Attributes:
        map: the :class:`~hexwar.model.maps.BattleMap` (replaced by resize; read it fresh each time).
        scenario: the :class:`~hexwar.editor.scenario_draft.ScenarioDraft` in scenario mode,
            else ``None``.
        path: the file Save writes (a map ``.json`` or a scenario ``.toml``), ``None`` until
            the first Save As.
        stack: the undo/redo :class:`~hexwar.editor.commands.CommandStack`.
        revision: increases on every change, undo and redo (autosave compares it).
    """

    def __init__(
        self,
        battlemap: BattleMap,
        path: str | os.PathLike[str] | None = None,
        scenario: ScenarioDraft | None = None,
        history_limit: int = 500,
    ) -> None:
        """Wrap ``battlemap`` (and optional scenario draft) loaded from ``path``; clean state."""
        self.map = battlemap
        self.scenario = scenario
        self.path: Path | None = Path(path) if path is not None else None
        self.stack = CommandStack(limit=history_limit)
        self.revision = 0
        self._listeners: list[Listener] = []
        self._save_hooks: list[Callable[[EditorDocument], None]] = []
        self._stroke: Stroke | None = None

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(
        cls, width: int, height: int, fill: str = "clear", name: str = "Untitled", scenario: bool = False
    ) -> EditorDocument:
        """A new, unsaved map of ``width`` x ``height`` hexes filled with terrain ``fill``.

        Args:
            scenario: start an empty scenario on the new map (sides german and soviet).

        Raises:
            MapError: for a size outside 1..500 hexes or an unknown terrain key.
        """
        m = BattleMap.new(width, height, fill=fill, name=name)
        sc = None
        if scenario:
            from .scenario_draft import ScenarioDraft

            sc = ScenarioDraft.empty(name=name)
        return cls(m, scenario=sc)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> EditorDocument:
        """Open a map (``.json``) or a scenario (``.toml``, with its map) for editing.

        Raises:
            ValidationError: listing every problem of a broken file.
            HexwarError: when the file kind is not a map or scenario.
        """
        p = Path(path)
        if p.suffix.lower() == ".toml":
            from .scenario_draft import load_scenario_draft

            draft, m = load_scenario_draft(p)
            return cls(m, path=p, scenario=draft)
        return cls(BattleMap.load(p), path=p)

    # -- properties ---------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``"scenario"`` or ``"map"``."""
        return "scenario" if self.scenario is not None else "map"

    @property
    def dirty(self) -> bool:
        """True when the document differs from its file (or was never saved but edited)."""
        return not self.stack.is_clean()

    @property
    def title(self) -> str:
        """Window title: file name (or map name), a star when dirty."""
        base = self.path.name if self.path is not None else f"{self.map.name} (unsaved)"
        return f"{'*' if self.dirty else ''}{base} - hexwar editor"

    @property
    def undo_name(self) -> str:
        """Name of the command Undo would revert (``""`` when none)."""
        return self.stack.done[-1].name if self.stack.done else ""

    @property
    def redo_name(self) -> str:
        """Name of the command Redo would re-apply (``""`` when none)."""
        return self.stack.undone[-1].name if self.stack.undone else ""

    # -- listeners ----------------------------------------------------------------------
    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(change)`` after every change, undo and redo (views redraw)."""
        self._listeners.append(fn)

    def add_save_hook(self, fn: Callable[[EditorDocument], None]) -> None:
        """Call ``fn(doc)`` after each successful save (recovery removes its file)."""
        self._save_hooks.append(fn)

    def _changed(self, ch: Change) -> Change:
        self.revision += 1
        for fn in list(self._listeners):
            fn(ch)
        return ch

    # -- editing ------------------------------------------------------------------------
    def execute(self, cmd: Command) -> Change:
        """Apply ``cmd`` and record it for undo.

        Raises:
            MapError: the edit is invalid (the document is exactly as before), including
                :class:`~hexwar.editor.commands.NothingToDo`.
            HexwarError: a stroke is in progress.
        """
        if self._stroke is not None:
            raise HexwarError("finish the current stroke first")
        ch = cmd.apply(self)
        self.stack.push(cmd)
        return self._changed(ch)

    def undo(self) -> Change | None:
        """Undo the last command; ``None`` when there is nothing to undo."""
        if self._stroke is not None:
            self.end_stroke()
        if not self.stack.done:
            return None
        cmd = self.stack.done.pop()
        ch = cmd.undo(self)
        self.stack.undone.append(cmd)
        return self._changed(ch)

    def redo(self) -> Change | None:
        """Re-apply the last undone command; ``None`` when there is nothing to redo."""
        if self._stroke is not None:
            self.end_stroke()
        if not self.stack.undone:
            return None
        cmd = self.stack.undone.pop()
        ch = cmd.apply(self)
        self.stack.done.append(cmd)
        return self._changed(ch)

    # -- strokes ------------------------------------------------------------------------
    @property
    def stroke(self) -> Stroke | None:
        """The stroke in progress, if any."""
        return self._stroke

    def begin_stroke(self, name: str) -> Stroke:
        """Start a stroke: many operations, one undo step (ends any stroke in progress)."""
        if self._stroke is not None:
            self.end_stroke()
        self._stroke = Stroke(self, name)
        return self._stroke

    def stroke_add(self, op: Callable[..., None]) -> MapError | None:
        """Apply one operation of the current stroke (atomic on its own).

        Returns:
            The map's refusal (that operation then changed nothing), or ``None``.

        Raises:
            HexwarError: when no stroke is in progress.
        """
        if self._stroke is None:
            raise HexwarError("no stroke in progress")
        err = self._stroke.add(op)
        if err is None:
            self._changed(Change(hexes=frozenset(self._stroke.tx.before)))
        return err

    def end_stroke(self) -> Change | None:
        """Finish the stroke and record it as one command; ``None`` if it changed nothing."""
        st, self._stroke = self._stroke, None
        if st is None:
            return None
        cmd = st.finish()
        if cmd is None:
            return None
        self.stack.push(cmd)
        assert cmd.changes is not None
        return self._changed(Change(hexes=frozenset(cmd.changes)))

    def cancel_stroke(self) -> None:
        """Roll back the stroke in progress (nothing recorded)."""
        st, self._stroke = self._stroke, None
        if st is not None:
            st.cancel()
            self._changed(Change(hexes=frozenset(st.tx.before)))

    # -- a scenario on this map (issue 32) ------------------------------------------------
    def new_scenario_on_map(self, path: str | os.PathLike[str] | None = None) -> list[str]:
        """ "New scenario on this map": this map document becomes a scenario draft on it, its
        deploy zones and objectives from the map's markers (R5.2, R10.2;
        :func:`~hexwar.editor.scenario_draft.draft_from_map`). One undo step.

        The scenario refers to the map file by name when the map has a file (saved beside
        it); Save then writes ``path``, by default the map's file with ``.toml`` (``-scenario``
        added when that exists). An unsaved map is written beside the scenario at its first
        save (``<stem>.map.json``).

        Returns:
            notes: what the map is missing (deploy markers of a side, objective markers) and
            the defaults the draft took.

        Raises:
            HexwarError: the document is already a scenario, or a stroke is in progress.
        """
        from .scenario_draft import draft_from_map

        if self.scenario is not None:
            raise HexwarError(
                "this document is already a scenario: New scenario on this map starts from a map"
            )
        target = Path(path) if path is not None else None
        ref = ""
        if self.path is not None and self.path.suffix.lower() == ".json":
            if target is None:
                target = self.path.with_suffix(".toml")
                n = 1
                while target.exists():
                    target = self.path.with_name(f"{self.path.stem}-scenario{'' if n == 1 else n}.toml")
                    n += 1
            ref = self.path.name if target.parent.resolve() == self.path.parent.resolve() else ""
        draft, notes = draft_from_map(self.map, ref)
        self.execute(NewScenarioOnMap(draft, target))
        return notes

    # -- files --------------------------------------------------------------------------
    def file_texts(self, path: Path | None = None) -> list[tuple[Path, str]]:
        """The files Save would write, as ``(path, text)`` pairs (map first, then scenario).

        Raises:
            HexwarError: when there is no path yet (use Save As).
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise HexwarError("this document has no file yet: use Save As")
        if self.scenario is None:
            return [(target, self.map.to_text())]
        from .scenario_draft import scenario_files

        return scenario_files(self.scenario, self.map, target)  # type: ignore[arg-type]

    def _tidy_map(self, target: Path) -> None:
        from ..errors import ValidationError
        from ..fileio import tidy
        from .scenario_draft import default_map_ref, resolve_map_ref

        try:
            ref = getattr(self.scenario, "map_ref", "") or default_map_ref(target)
            map_path = resolve_map_ref(ref, target)
        except ValidationError:
            return
        if map_path.parent.resolve() == target.parent.resolve():  # only beside the scenario
            tidy(map_path)

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save (or Save As ``path``) atomically; the document becomes clean.

        Each file is written to a temporary file, fsynced and renamed over the old one; a
        scenario's map and scenario file are written as one group
        (:func:`hexwar.fileio.atomic_write_group`), so a crash at any point leaves the old pair
        or the new pair, never a new map with an old scenario. Returns the path written.

        Raises:
            HexwarError: no path yet, the file cannot be written, or a file would land in
                hexwar's shipped maps/scenarios folder outside the working folder
                (:func:`hexwar.paths.shipped_folder_of`); the document stays dirty.
        """
        from dataclasses import replace

        from ..fileio import atomic_write_group
        from ..paths import shipped_folder_of

        if self._stroke is not None:
            self.end_stroke()
        target = Path(path) if path is not None else self.path
        if target is None:
            raise HexwarError("this document has no file yet: use Save As")
        files = self.file_texts(target)
        for f, _ in files:  # hexwar's own maps and scenarios are not the user's to overwrite
            kind = shipped_folder_of(f)
            if kind is not None:
                what = "map" if kind == "maps" else "scenario" if kind == "scenarios" else "deck"
                also = " (a scenario's map: save the map as a file of your own first)" if f != target else ""
                raise HexwarError(
                    f"{f.name} is one of hexwar's shipped {kind} ({f.parent}): "
                    f"use Save As to keep your {what} in your own folder{also}"
                )
        atomic_write_group(files)
        if self.scenario is not None and len(files) == 1:  # the map is unchanged: not rewritten,
            self._tidy_map(target)  # but what a killed save left beside it is cleared (issue 33)
        if self.scenario is not None:  # later saves merge into what was just written (comments kept)
            self.scenario = replace(self.scenario, source_text=files[-1][1])  # type: ignore[type-var]
        if self.scenario is not None and not getattr(self.scenario, "map_ref", "x"):
            from .scenario_draft import default_map_ref

            # the map file the save just wrote beside the scenario (not an undoable edit)
            self.scenario = self.scenario.with_settings(map_ref=default_map_ref(target))  # type: ignore[attr-defined]
        self.path = target
        self.stack.mark_clean()
        for fn in list(self._save_hooks):
            fn(self)
        self._changed(Change())
        return target


class NewScenarioOnMap(Command):
    """Turn a map document into a scenario on that map, drafted from its markers (issue 32):
    :func:`~hexwar.editor.scenario_draft.draft_from_map`. Undo gives the map document back.

    Args:
        draft: the new scenario draft; path: the scenario file Save will write (``None``:
            Save As asks).
    """

    name = "New scenario on this map"

    def __init__(self, draft: ScenarioDraft, path: Path | None) -> None:
        self.draft = draft
        self.path = path
        self.before_path: Path | None = None

    def apply(self, doc: EditedDocument) -> Change:
        """Install the draft and the scenario path.

        Raises:
            MapError: the document is already a scenario, or the draft names a hex off the map.
        """
        if doc.scenario is not None:
            raise MapError("this document is already a scenario")
        self.draft.check(doc.map)
        self.before_path = doc.path
        doc.scenario, doc.path = self.draft, self.path
        return Change(scenario=True)

    def undo(self, doc: EditedDocument) -> Change:
        """Back to the map document and its file."""
        doc.scenario, doc.path = None, self.before_path
        return Change(scenario=True)
