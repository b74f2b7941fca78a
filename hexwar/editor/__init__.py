"""The built-in map and scenario editor (issue 8): ``hexwar edit [MAP_OR_SCENARIO]``.

The pure-Python half (no pyglet, importable and testable headless):

* :mod:`hexwar.editor.hexstate` -- per-hex snapshots and the all-or-nothing transactions
  every edit runs in;
* :mod:`hexwar.editor.model` -- :class:`~hexwar.editor.model.EditorDocument` (a
  :class:`~hexwar.model.maps.BattleMap` plus optional scenario data, undo history, atomic save);
* :mod:`hexwar.editor.commands` -- the undoable commands and the command stack;
* :mod:`hexwar.editor.tools` -- brushes, lines, flood regions, selections, the clipboard with
  its rotations and flips, resize geometry;
* :mod:`hexwar.editor.session` -- :class:`~hexwar.editor.session.EditorSession`: what each
  tool does with a press, drag, release or key (the window only feeds it);
* :mod:`hexwar.editor.palette`, :mod:`hexwar.editor.help_overlay` -- palette entries from the
  terrain data, the shortcut list;
* :mod:`hexwar.editor.scenario_draft` -- the editable scenario (deploy zones, objectives,
  starting units, settings) and its TOML text;
* :mod:`hexwar.editor.recovery` -- autosave / crash recovery files.

The window half (:mod:`hexwar.editor.window` and the editor's own overlays in
:mod:`hexwar.editor.overlays`) uses the renderer and pyglet, and is loaded only by ``hexwar edit``.
"""

from __future__ import annotations

__all__: list[str] = []
