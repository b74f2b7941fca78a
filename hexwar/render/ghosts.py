"""Last-known markers under fog of war (R12.2): a ghost counter with the turn the unit was seen.

When an enemy unit leaves a side's sight, the side keeps a marker where it last saw it
(:func:`hexwar.game.view.view` ``last_known``: uid, card, side, hex, turn). The play window
draws each as a *ghost* of a counter: a pale, see-through square in the unit's side colours
with a dashed edge (it is not a unit: nothing there can be clicked or fired at), the unit's
short name, and a plate ``T3`` for the turn it was seen. Plain data in (hex, side, turn,
label), meshes out, like every overlay (:mod:`hexwar.render.overlays`).

>>> from hexwar.model.hexgrid import Hex
>>> Ghost(Hex(2, 3), "soviet", 3, "T-34").turn_text
'T3'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..rules.cards import SIDES
from .counters import COUNTER_SIZE
from .layers import Layer
from .looks import with_alpha
from .mesh import Mesh, MeshBuilder, TexMesh
from .overlays import Overlay, OverlayContext, _check_hexes, _plate_text

__all__ = ["Ghost", "LastKnownOverlay", "GHOST_FILL_ALPHA", "GHOST_EDGE_ALPHA", "ghosts_from_view"]

GHOST_FILL_ALPHA = 0.32  # the ghost's body: the side's counter fill, mostly see-through
GHOST_EDGE_ALPHA = 0.85  # its dashed edge


@dataclass(frozen=True)
class Ghost:
    """One last-known marker (R12.2).

    Attributes:
        hex: where the unit was last seen.
        side: the unit's side (``"german"``/``"soviet"``): the ghost's colours.
        turn: the turn it was seen (>= 1), printed ``T<turn>``.
        label: the unit's short name (may be empty).

    Raises:
        HexwarError: for an unknown side or a turn below 1.
    """

    hex: Hex
    side: str
    turn: int
    label: str = ""

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise HexwarError(
                f"last-known marker at {self.hex}: side must be one of {SIDES}, got {self.side!r}"
            )
        if not isinstance(self.turn, int) or self.turn < 1:
            raise HexwarError(
                f"last-known marker at {self.hex}: turn must be an integer >= 1, got {self.turn!r}"
            )

    @property
    def turn_text(self) -> str:
        """``"T3"``: the turn it was seen."""
        return f"T{self.turn}"


@dataclass
class LastKnownOverlay(Overlay):
    """Ghost counters of enemy units that left sight, with the turn they were seen (R12.2).

    Drawn under the counters (:data:`Layer.UNDERLAY`): a unit standing in the hex now covers
    its ghost. Several ghosts in one hex fan out like a stack.

    Attributes:
        ghosts: the markers (off-map hexes are ignored).
    """

    ghosts: Sequence[Ghost]

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """The ghost bodies and dashed edges, the names and the ``T<turn>`` plates."""
        s = ctx.layout.size
        half = COUNTER_SIZE * s / 2
        b = MeshBuilder()
        plates = MeshBuilder()
        texts: list[TexMesh] = []
        on_map = set(_check_hexes(ctx, [g.hex for g in self.ghosts], "last-known markers"))
        per_hex: dict[Hex, int] = {}
        for g in self.ghosts:
            if g.hex not in on_map:
                continue
            k = per_hex.get(g.hex, 0)
            per_hex[g.hex] = k + 1
            hx, hy = ctx.layout.hex_to_pixel(g.hex)
            cx, cy = hx + 0.1 * s * k, hy + 0.1 * s * k
            look = ctx.looks.side(g.side)
            b.rect(cx - half, cy - half, cx + half, cy + half, with_alpha(look.fill, GHOST_FILL_ALPHA))
            edge = with_alpha(look.edge, GHOST_EDGE_ALPHA)
            w, dash = 0.05 * s, 0.16 * s
            corners = [
                (cx - half, cy - half),
                (cx + half, cy - half),
                (cx + half, cy + half),
                (cx - half, cy + half),
            ]
            for i in range(4):
                (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
                b.dashed(x0, y0, x1, y1, w, edge, dash, dash * 0.7)
            if g.label:
                texts.append(
                    ctx.atlas.text(
                        g.label, cx, cy + 0.18 * s, 0.22 * s, with_alpha(look.text, 0.8), style="condensed"
                    )
                )
            _plate_text(
                ctx,
                plates,
                texts,
                g.turn_text,
                cx,
                cy - 0.3 * s,
                0.26 * s,
                (250, 248, 240, 255),
                with_alpha(look.edge, 0.9),
            )
        return {
            int(Layer.UNDERLAY): Mesh.concat([b.build(), plates.build()]),
            int(Layer.UNDERLAY_TEXT): TexMesh.concat(texts),
        }


def ghosts_from_view(markers: Iterable[dict[str, Any]], bmap: Any) -> tuple[Ghost, ...]:
    """Ghosts of a view's ``last_known`` markers (``{"uid", "card", "side", "hex", "turn"}``).

    Args:
        markers: :func:`hexwar.game.view.view` ``data["last_known"]``.
        bmap: the battle map (hex labels to hexes).

    Raises:
        HexwarError: for a marker naming an unknown hex, side or turn.
    """
    from ..game import ruleset
    from .gamescene import short_name

    out = []
    for m in markers:
        try:
            name = short_name(ruleset.unit_card(m["card"]).name)
        except Exception:  # a card this installation does not know: no name, the ghost still shows
            name = ""
        out.append(Ghost(bmap.hex_at(m["hex"]), m["side"], int(m["turn"]), name))
    return tuple(out)
