"""A plain-text hex inspector (issue 17 item 3): what a hex holds and whether a unit sees it.

One sentence a screen reader can read: terrain (with a building's DR, R8.2), ground level,
overlays (road, rubble, fire, wrecks: R2.4, R8), the units in it with their side, the objective
there with its points, holder and the scenario's hold victory (R10.2), and the LOS
from a viewer hex with its reason (R3): ``"C04: Woods, level 1; units: Rifles (soviet);
LOS from B02: hindered, +1 needed"``. The play window shows it in its title and side panel;
the terminal game prints it for ``inspect HEX``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.hexgrid import Hex
from ..model.los import line_of_sight
from . import ruleset
from .victory import objective_note

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["inspect_hex", "los_phrase"]


def los_phrase(state: GameState, a: Hex, b: Hex) -> str:
    """``"clear, 3 hexes"``, ``"hindered, +1 needed"`` or ``"blocked by building in C05"`` (R3.6)."""
    res = line_of_sight(state.battlemap, a, b)
    if res.status == "blocked":
        where = f" in {state.hex_label(res.blocking)}" if res.blocking is not None else ""
        return f"blocked by {res.reason}{where}"
    if res.status == "hindered":
        return f"hindered, +{res.hindrances} needed"
    n = a.distance(b)
    return f"clear, {n} hex{'es' if n != 1 else ''}"


def inspect_hex(state: GameState, h: Hex, viewer: Hex | None = None, viewer_name: str = "") -> str:
    """The hex ``h`` in one line of plain text (see the module doc).

    Args:
        state: the game.
        h: the hex (axial).
        viewer: the hex LOS is traced from (the selected unit's), or ``None``.
        viewer_name: how to name the viewer (default its hex label).

    Raises:
        hexwar.model.maps.MapError: naming the hex when it is off the map.
    """
    bm = state.battlemap
    parts = [f"{bm.label(h)}: " + ", ".join(bm.describe(h))]
    units = [u for u in state.units.values() if u.hex == h and u.crewing is None and not u.aloft]
    if units:
        parts.append("units: " + ", ".join(f"{ruleset.card_name(u.card)} ({u.side})" for u in units))
    note = objective_note(state, h)
    if note is not None:  # R10.2: what the hex is worth, and the hold victory it is part of
        parts.append(note)
    if viewer is not None and viewer != h:
        who = viewer_name or bm.label(viewer)
        parts.append(f"LOS from {who}: {los_phrase(state, viewer, h)}")
    return "; ".join(parts)
