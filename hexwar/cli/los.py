"""``hexwar los``: line of sight between two hexes, or a visibility map from one hex (R3).

::

    hexwar los MAP FROM TO [--json]           one line of sight (R3.6)
    hexwar los MAP FROM --all [--json] [--png FILE]
                                              every hex seen from FROM

MAP is a path or a shipped map name (``kharkov``); FROM and TO are hex labels (``D07``).
"""

from __future__ import annotations

import os

import click
import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex, Layout
from ..model.los import (
    BLOCKED,
    CLEAR,
    HINDERED,
    STATUS_NAMES,
    LosResult,
    line_of_sight,
    visibility_with_hindrances,
)
from ..model.maps import BattleMap, MapError
from . import echo_json
from .basic import resolve_map

__all__ = ["los", "visibility_rows", "visibility_png"]

_VIEWER = "@"
_CHARS = {CLEAR: ".", BLOCKED: "#"}  # hindered hexes print their hindrance count 1-9 (+ for more)


def _hex(m: BattleMap, label: str, what: str) -> Hex:
    try:
        return m.hex_at(label)
    except MapError as exc:
        raise HexwarError(f"{what}: {exc}") from None


def visibility_rows(status: np.ndarray, counts: np.ndarray, viewer: Hex) -> list[str]:
    """One text row per map row: ``.`` clear, ``1``-``9`` hindered (count; ``+`` above 9),
    ``#`` blocked, ``@`` the viewer.

    Args:
        status: ``int8 [height, width]`` from :func:`hexwar.model.los.visibility`.
        counts: ``[height, width]`` hindrance counts.
        viewer: the viewing hex.

    >>> import numpy as np
    >>> visibility_rows(np.array([[0, 1, 2]]), np.array([[0, 3, 0]]), Hex(0, 0))
    ['@3#']
    """
    vc, vr = viewer.offset
    # one ASCII byte per hex, vectorized (a 500x500 map has 250,000; issue 22)
    status = np.asarray(status)
    counts = np.asarray(counts)
    lut = np.zeros(max(CLEAR, HINDERED, BLOCKED) + 1, dtype=np.uint8)
    for code, ch in _CHARS.items():
        lut[code] = ord(ch)
    out = lut[status]
    hind = status == HINDERED
    digits = np.where(counts <= 9, ord("0") + np.clip(counts, 0, 9), ord("+")).astype(np.uint8)
    out[hind] = digits[hind]
    if 0 <= vr < out.shape[0] and 0 <= vc < out.shape[1]:
        out[vr, vc] = ord(_VIEWER)
    return [row.tobytes().decode("ascii") for row in out]


def _describe(r: LosResult) -> list[str]:
    d = r.to_json()
    head = f"{d['from']} -> {d['to']}: {r.status}"
    if r.status == "blocked":
        head += f" by {d['blocking']} ({r.reason})"
    elif r.status == "hindered":
        head += f" ({r.hindrances} hindrance{'s' if r.hindrances != 1 else ''}: +{r.hindrances} to the attack value needed)"
    lines = [head, "intervening: " + (" ".join(d["intervening"]) or "none")]
    if d["spine_pairs"]:
        lines.append("hexside pairs: " + " ".join(f"{p}|{q}" for p, q in d["spine_pairs"]))
    return lines


def visibility_png(
    m: BattleMap,
    viewer: Hex,
    status: np.ndarray,
    path: str | os.PathLike[str],
    size: tuple[int, int] = (1280, 800),
) -> str:
    """Write a PNG of the visibility map from ``viewer`` and return how it was drawn.

    Draws with the pyglet renderer (``hexwar.render.offscreen.render_map``: the map with the
    blocked hexes shaded red, hindered ones amber and the viewer ringed) when an offscreen
    OpenGL context is available, else a plain Pillow drawing (white clear, amber hindered,
    dark grey blocked, red viewer) from :meth:`Layout.polygon_corners`.

    Args:
        m: the map.
        viewer: the viewing hex.
        status: ``int8 [height, width]`` from :func:`hexwar.model.los.visibility`.
        path: the PNG file, written atomically.
        size: image size in pixels (renderer) or a bound on it (Pillow).

    Returns:
        ``"renderer"`` or ``"pillow"``.

    Raises:
        HexwarError: naming the path when it cannot be written.
    """
    rows, cols = np.nonzero(status == BLOCKED)
    blocked = [Hex.from_offset(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]
    rows, cols = np.nonzero(status == HINDERED)
    hindered = [Hex.from_offset(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]
    try:
        from ..render.offscreen import render_map, save_png
        from ..render.overlays import HighlightOverlay
    except Exception:  # noqa: BLE001 - no pyglet / no GL: fall back to Pillow
        pass
    else:
        try:
            img = render_map(
                m,
                size=(float(size[0]), float(size[1])),
                overlays={
                    "los_blocked": HighlightOverlay(blocked, colour="los_blocked", style="fill", alpha=0.55),
                    "los_hindered": HighlightOverlay(
                        hindered, colour="los_hindered", style="fill", alpha=0.5
                    ),
                    "los_viewer": HighlightOverlay([viewer], colour="target", style="ring", width=0.14),
                },
            )
        except HexwarError:
            raise
        except Exception:  # noqa: BLE001 - GL context unavailable: fall back to Pillow
            pass
        else:
            save_png(img, path)
            return "renderer"
    _pillow_png(m, viewer, status, path, size)
    return "pillow"


def _pillow_png(
    m: BattleMap, viewer: Hex, status: np.ndarray, path: str | os.PathLike[str], size: tuple[int, int]
) -> None:
    import io

    from PIL import Image, ImageDraw

    from ..fileio import atomic_write_bytes

    hex_size = max(4.0, min(size[0] / (1.5 * m.width + 0.5), size[1] / (np.sqrt(3) * (m.height + 0.5))) / 1.0)
    layout = Layout(size=hex_size, origin=(hex_size, hex_size * np.sqrt(3) / 2), y_down=True)
    w = int(hex_size * (1.5 * m.width + 0.5)) + 2
    h = int(hex_size * np.sqrt(3) * (m.height + 0.5)) + 2
    img = Image.new("RGB", (w, h), (40, 40, 38))
    draw = ImageDraw.Draw(img)
    fill = {CLEAR: (236, 234, 222), HINDERED: (224, 160, 32), BLOCKED: (70, 70, 70)}
    for hx in m.hexes():
        col, row = hx.offset
        colour = (208, 48, 42) if hx == viewer else fill[int(status[row, col])]
        draw.polygon(layout.polygon_corners(hx), fill=colour, outline=(30, 30, 30))
    out = io.BytesIO()
    img.save(out, format="PNG")
    atomic_write_bytes(path, out.getvalue())


@click.command()
@click.argument("map_name", metavar="MAP")
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO", required=False)
@click.option("--all", "all_hexes", is_flag=True, help="Visibility from FROM to every hex of the map.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--png",
    "png",
    type=click.Path(dir_okay=False),
    default=None,
    help="With --all: also write the visibility map as a PNG image.",
)
@click.option("--force", is_flag=True, help="Replace an existing --png file that hexwar did not write.")
def los(
    map_name: str,
    source: str,
    target: str | None,
    all_hexes: bool,
    as_json: bool,
    png: str | None,
    force: bool = False,
) -> None:
    """Line of sight from FROM to TO, or from FROM to every hex with --all (R3).

    MAP is a map file or a shipped map name; FROM and TO are hex labels such as D07.
    The JSON of one line has the keys from, to, status (clear / hindered / blocked),
    intervening, spine_pairs, blocking, reason and hindrances.
    """
    if all_hexes == (target is not None):
        raise click.UsageError("give either TO or --all")
    if png and not all_hexes:
        raise click.UsageError("--png needs --all")
    from ..outputs import check_outputs, record_output

    check_outputs(force, png=png)
    m = resolve_map(map_name)
    a = _hex(m, source, "FROM")
    if target is not None:
        r = line_of_sight(m, a, _hex(m, target, "TO"))
        if as_json:
            echo_json(r.to_json())
        else:
            for line in _describe(r):
                click.echo(line)
        return
    status, counts = visibility_with_hindrances(m, a)
    rows = visibility_rows(status, counts, a)
    tally = {name: int((status == code).sum()) for code, name in enumerate(STATUS_NAMES)}
    drawn = visibility_png(m, a, status, png) if png else None
    if png:
        record_output(png)
    if as_json:
        out = {
            "from": m.label(a),
            "map": m.name,
            "width": m.width,
            "height": m.height,
            "counts": tally,
            "rows": rows,
            "legend": {".": "clear", "1-9": "hindered (count, + above 9)", "#": "blocked", "@": "viewer"},
        }
        if png:
            out["png"] = str(png)
        echo_json(out)
        return
    click.echo(
        f"LOS from {m.label(a)} on {m.name} ({m.width} x {m.height}): "
        f"{tally['clear']} clear, {tally['hindered']} hindered, {tally['blocked']} blocked"
    )
    click.echo("legend: . clear   1-9 hindered (count)   # blocked   @ viewer; columns A.. left to right")
    digits = m.row_digits
    for i, row in enumerate(rows):
        click.echo(f"{i + 1:0{digits}d} {row}")
    if png:
        click.echo(f"wrote {png} ({'renderer' if drawn == 'renderer' else 'Pillow drawing'})")
