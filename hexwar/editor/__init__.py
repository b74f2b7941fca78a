"""The built-in map and scenario editor (issue 8): ``hexwar edit [MAP_OR_SCENARIO]``.

The pure-Python half (no pyglet, importable and testable headless):

* :mod:`hexwar.editor.model` -- :class:`~hexwar.editor.model.EditorDocument` (a
  :class:`~hexwar.maps.BattleMap` plus optional scenario data), per-hex snapshots and the
  transactions every edit runs in;
* :mod:`hexwar.editor.commands` -- the undoable commands and the command stack;
* :mod:`hexwar.editor.tools` -- brushes, lines, flood fill, selections, clipboard transforms,
  resize geometry, and the mouse-driven tool objects the window feeds;
* :mod:`hexwar.editor.scenario_draft` -- the editable scenario (deploy zones, objectives,
  starting units, settings) and its TOML text;
* :mod:`hexwar.editor.recovery` -- autosave / crash recovery files.

The window half (:mod:`hexwar.editor.window`, :mod:`hexwar.editor.palette`,
:mod:`hexwar.editor.help_overlay`) imports pyglet and is loaded only by ``hexwar edit``.
"""

from __future__ import annotations

__all__: list[str] = []
