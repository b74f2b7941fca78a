"""What an editor tool may use of the session it works for (:class:`ToolHost`), as a Protocol.

:mod:`hexwar.editor.edit_tools` (the tools) and :mod:`hexwar.editor.session` (the session that
holds the document, brush and previews and sends each mouse event to a tool) both import this
module; the tools never import the session, so the two no longer import each other.
:class:`~hexwar.editor.session.EditorSession` satisfies the Protocol structurally (mypy
checks it where the session hands itself to a tool).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..model.hexgrid import Hex
from . import commands as C
from .model import EditorDocument

__all__ = ["LEFT", "MIDDLE", "RIGHT", "MOD_SHIFT", "MOD_CTRL", "MOD_ALT", "ToolHost"]

# Mouse buttons and modifier bits: the same values as pyglet's (pyglet.window.mouse / key).
LEFT, MIDDLE, RIGHT = 1, 2, 4
MOD_SHIFT, MOD_CTRL, MOD_ALT = 1, 2, 4


class ToolHost(Protocol):
    """The session as a tool sees it: its state and the actions a tool may start.

    Attributes:
        doc: the document being edited (map, scenario draft, command stack).
        brush: the brush radius index (``hexwar.editor.tools.BRUSH_RADII``).
        terrain: the terrain key the brush paints.
        wreck: the wreck id the wreck tool places.
        side: the side the deploy and unit tools work for.
        preview: hexes the current drag would change.
        los: the line of sight shown ``(from, to or None, result)``, or ``None``.
    """

    doc: EditorDocument
    brush: int
    terrain: str
    wreck: str
    side: str
    preview: set[Hex]
    los: tuple[Hex, Hex | None, Any] | None
    _drag_start: Hex | None
    _last: Hex | None
    _stroke_done: set[Hex]
    _drag_mods: int
    _live_los: Any

    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the status bar (``error``: as a refusal)."""

    def set_terrain(self, key: str) -> None:
        """Pick the terrain the brush paints."""

    def preview_spread(self, h: Hex) -> None:
        """Show the fire spread odds from ``h`` (R8.5)."""

    def preview_artillery(self, target: Hex, side: str) -> None:
        """Show the artillery scatter odds at ``target`` for ``side`` (R9.2)."""

    def paste_at(self, h: Hex) -> None:
        """Paste the floating clipboard with its anchor at ``h``."""

    def cancel(self) -> None:
        """Drop the drag, preview or floating paste in progress."""

    def _run(self, make: Callable[[], C.Command]) -> bool:
        """Run the command ``make`` builds on the document's stack; False when refused."""

    def _line_preview(self, a: Hex, b: Hex) -> set[Hex]:
        """Hexes a line from ``a`` to ``b`` would paint."""

    def _dab(self, h: Hex) -> None:
        """One brush dab of the current stroke at ``h``."""

    def _apply_selection(self, region: set[Hex], modifiers: int) -> None:
        """Select ``region`` (shift adds, ctrl removes)."""

    def _unit_click(self, h: Hex, button: int) -> None:
        """Place (left) or remove (right) a unit at ``h``."""

    def _objective_click(self, h: Hex, button: int) -> None:
        """Add (left) or remove (right) an objective at ``h``."""

    def _los_result(self, a: Hex, b: Hex) -> Any:
        """The exact LOS result from ``a`` to ``b`` (R3)."""

    def _compute_los(self, a: Hex, b: Hex) -> None:
        """Compute and show the LOS from ``a`` to ``b`` (R3)."""

    def _deploy_paint(self, region: set[Hex], add: bool) -> None:
        """Add ``region`` to (or remove it from) the side's deploy zone (R5.2)."""
