"""The editor's keyboard shortcuts (one list, shown by the help overlay and in docs/editor.md).

:data:`SHORTCUTS` is pure data; :func:`help_lines` formats it. The window draws it as a
panel over the map when H or F1 is pressed.
"""

from __future__ import annotations

from .session import TOOLS

__all__ = ["SHORTCUTS", "help_lines"]

#: ``(section, [(keys, what)])``: every shortcut of the editor window.
SHORTCUTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "File and history",
        (
            ("Ctrl+S", "save (atomic)"),
            ("Ctrl+Shift+S", "save as"),
            ("Ctrl+Z", "undo"),
            ("Ctrl+Y / Ctrl+Shift+Z", "redo"),
            ("Ctrl+N", "new map: name, size, base terrain"),
            ("Ctrl+R", "resize: typed size and anchor"),
            ("Ctrl+Q / close", "quit (asks about unsaved changes)"),
        ),
    ),
    (
        "Tools",
        tuple(
            (t.key, f"{t.label.lower()}: {t.help}" + (" (scenario)" if t.scenario_only else ""))
            for t in TOOLS
        ),
    ),
    (
        "Brush and palette",
        (
            ("[ / ]", "brush smaller / bigger (1, 7, 19 hexes)"),
            ("1 to 9, 0", "pick palette terrain"),
            ("Ctrl+F", "search the palette; Up/Down, Enter picks"),
            ("PgUp / PgDn", "next / previous wreck counter or unit card"),
            ("Tab", "switch side (German / Soviet)"),
        ),
    ),
    (
        "Selection",
        (
            ("Ctrl+C / Ctrl+X", "copy / cut selection"),
            ("Ctrl+V", "paste (click to place)"),
            ("comma / period", "rotate paste 60 degrees left / right"),
            ("slash / backslash", "flip paste left-right / top-bottom"),
            ("Ctrl+A", "select all"),
            ("Delete", "clear selected hexes"),
            ("Esc", "cancel paste (back to the tool before), drag, preview, selection"),
        ),
    ),
    (
        "View",
        (
            ("T", "hex labels on / off"),
            ("wheel, + / minus", "zoom at the cursor (over a list: scroll it)"),
            ("arrows, middle drag", "pan"),
            ("minimap click", "jump there"),
            ("Home", "fit the map to the window"),
            ("H / F1", "this help"),
        ),
    ),
)


def help_lines() -> list[tuple[str, str, str]]:
    """``(section, keys, what)`` rows in display order.

    >>> rows = help_lines()
    >>> ("File and history", "Ctrl+Z", "undo") in rows
    True
    >>> any(k == "B" for _, k, _ in rows)
    True
    """
    return [(sec, k, w) for sec, items in SHORTCUTS for k, w in items]
