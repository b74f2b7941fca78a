"""Map text from one mipmapped glyph atlas: hex labels, counter names, numbers, legends.

pyglet's ``Label`` is one object per text and rasterizes at one size; a 100x100 map needs
10,000 labels that scale with the zoom. hexwar instead rasterizes each character once, large
(:data:`RASTER_PX`), into padded cells of one texture with mipmaps, and emits text as textured
quads into a layer's single vertex list. Text stays smooth from far out to close in.

The atlas lives as long as any group that draws with it (groups keep the texture); atlases
are cached per GL object space.
"""

from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

import pyglet  # noqa: E402
from pyglet import gl  # noqa: E402

from .mesh import TexMesh  # noqa: E402

__all__ = ["FONT_NAME", "RASTER_PX", "GlyphAtlas", "glyph_atlas"]

FONT_NAME = "DejaVu Sans"
RASTER_PX = 40  # glyph raster size in pixels (font em)
CELL = 64  # atlas cell size in pixels; padding keeps mip levels from bleeding
GRID = 32  # cells per atlas side -> 2048 x 2048 texture, 1024 glyphs (the UI's
# symbols and bold lowercase filled 256 within one editor session)
PAD = 5  # transparent texels kept around each glyph's quad: a thin glyph (a
# minus, a comma's tail) drawn small must still cover pixel centres
STYLES = ("regular", "bold", "condensed")  # condensed = condensed bold (counter names)
_PRELOAD = "".join(chr(c) for c in range(32, 127))


@dataclass(frozen=True, slots=True)
class _Glyph:
    u0: float
    v0: float
    u1: float
    v1: float
    x0: float  # quad corners relative to the pen at the baseline, in em units
    y0: float
    x1: float
    y1: float
    advance: float  # em units


class GlyphAtlas:
    """A 1024x1024 single-channel glyph atlas with mipmaps (must be built with a GL context).

    Attributes:
        texture: the pyglet texture (keep it referenced while drawing).
        cap_height: height of capital letters in em units (about 0.73 for DejaVu Sans).
    """

    def __init__(self) -> None:
        self._fonts: dict[str, Any] = {
            "regular": pyglet.font.load(FONT_NAME, RASTER_PX, dpi=72),
            "bold": pyglet.font.load(FONT_NAME, RASTER_PX, weight="bold", dpi=72),
            "condensed": pyglet.font.load(FONT_NAME, RASTER_PX, weight="bold", stretch="condensed", dpi=72),
        }
        self._pixels = np.zeros((GRID * CELL, GRID * CELL), dtype=np.uint8)
        self._glyphs: dict[tuple[str, str], _Glyph] = {}
        self._next = 0
        self.texture = pyglet.image.Texture.create(
            GRID * CELL,
            GRID * CELL,
            internalformat=gl.GL_R8,
            min_filter=gl.GL_LINEAR_MIPMAP_NEAREST,
            mag_filter=gl.GL_LINEAR,
            fmt=gl.GL_RED,
            blank_data=True,
        )
        for style in ("regular", "condensed"):
            self._add_chars(_PRELOAD, style)
        for ch in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+-":
            self._add_chars(ch, "bold")
        self._upload()
        h = self._glyphs[("H", "regular")]
        self.cap_height = h.y1 - PAD / RASTER_PX  # the ink top of "H" (its quad is padded)

    # -- building -------------------------------------------------------------------------
    def _add_chars(self, chars: str, style: str) -> bool:
        added = False
        font = self._fonts[style]
        for ch in chars:
            if (ch, style) in self._glyphs:
                continue
            if self._next >= GRID * GRID:
                # atlas full: fall back to a visible '?' (never expected for map text)
                self._glyphs[(ch, style)] = self._glyphs.get(("?", style)) or self._glyphs[("?", "regular")]
                continue
            glyph = font.get_glyphs(ch)[0][0]
            cx, cy = (self._next % GRID) * CELL, (self._next // GRID) * CELL
            self._next += 1
            x0, y0, x1, y1 = glyph.vertices
            w, h = int(glyph.width), int(glyph.height)
            if w > 0 and h > 0:
                img = glyph.get_image_data()
                a = np.frombuffer(img.get_data("RGBA", w * 4), dtype=np.uint8).reshape(h, w, 4)[::-1, :, 3]
                w_c, h_c = min(w, CELL - 2), min(h, CELL - 2)
                ox, oy = cx + (CELL - w_c) // 2, cy + (CELL - h_c) // 2
                self._pixels[oy : oy + h_c, ox : ox + w_c] = a[:h_c, :w_c]
            else:
                ox, oy, w_c, h_c = cx + CELL // 2, cy + CELL // 2, 0, 0
            size = float(GRID * CELL)
            em = float(RASTER_PX)
            # the quad and its texels reach PAD texels past the ink (inside the cell), so text
            # drawn at a few pixels keeps glyphs thinner than a pixel (issue 17: "1-0" lost its
            # minus, commas showed as dots)
            pl = min(PAD, ox - cx) if w_c else 0
            pb = min(PAD, oy - cy) if h_c else 0
            pr = min(PAD, cx + CELL - ox - w_c) if w_c else 0
            pt = min(PAD, cy + CELL - oy - h_c) if h_c else 0
            self._glyphs[(ch, style)] = _Glyph(
                (ox - pl) / size,
                (oy - pb) / size,
                (ox + w_c + pr) / size,
                (oy + h_c + pt) / size,
                (x0 - pl) / em,
                (y0 - pb) / em,
                (x0 + w_c + pr) / em,
                (y0 + h_c + pt) / em,
                glyph.advance / em,
            )
            added = True
        return added

    def _upload(self) -> None:
        tex = self.texture
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(tex.target, tex.id)
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        data = np.ascontiguousarray(self._pixels)
        gl.glTexSubImage2D(
            tex.target,
            0,
            0,
            0,
            data.shape[1],
            data.shape[0],
            gl.GL_RED,
            gl.GL_UNSIGNED_BYTE,
            data.ctypes.data_as(ctypes.POINTER(gl.GLubyte)),
        )
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 4)
        gl.glGenerateMipmap(tex.target)
        gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_NEAREST)

    def ensure(self, text: str, style: str = "regular") -> None:
        """Make sure every character of ``text`` is in the atlas (uploads when some were new)."""
        if style not in STYLES:
            raise ValueError(f"text style must be one of {STYLES}, got {style!r}")
        if any((ch, style) not in self._glyphs for ch in text):
            if self._add_chars(text, style):
                self._upload()

    # -- text -----------------------------------------------------------------------------
    def measure(self, text: str, size: float, style: str = "regular") -> float:
        """Advance width of ``text`` at font ``size`` (em, world units)."""
        self.ensure(text, style)
        return sum(self._glyphs[(ch, style)].advance for ch in text) * size

    def text(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        colour: Any,
        anchor_x: str = "center",
        anchor_y: str = "center",
        style: str = "regular",
        max_width: float | None = None,
    ) -> TexMesh:
        """Quads drawing ``text`` at ``(x, y)`` with font em ``size`` (world or screen units).

        Args:
            anchor_x: ``"left"``, ``"center"`` or ``"right"`` of the advance box.
            anchor_y: ``"baseline"``, ``"center"`` (middle of capitals), ``"top"`` (cap top)
                or ``"bottom"`` (baseline).
            style: ``"regular"``, ``"bold"`` or ``"condensed"`` (condensed bold).
            max_width: shrink the text uniformly so its width fits (same units).
        """
        if not text:
            return TexMesh.empty()
        self.ensure(text, style)
        gs = [self._glyphs[(ch, style)] for ch in text]
        width = sum(g.advance for g in gs) * size
        if max_width is not None and width > max_width > 0:
            size *= max_width / width
            width = max_width
        if anchor_x == "center":
            pen = x - width / 2
        elif anchor_x == "right":
            pen = x - width
        else:
            pen = x
        cap = self.cap_height * size
        base = {"center": y - cap / 2, "top": y - cap}.get(anchor_y, y)
        quads = []
        uvs = []
        for g in gs:
            if g.x1 > g.x0:
                quads.append((pen + g.x0 * size, base + g.y0 * size, pen + g.x1 * size, base + g.y1 * size))
                uvs.append((g.u0, g.v0, g.u1, g.v1))
            pen += g.advance * size
        return _quads(
            np.asarray(quads, dtype=np.float64).reshape(-1, 4),
            np.asarray(uvs, dtype=np.float64).reshape(-1, 4),
            colour,
        )

    def texts(
        self,
        texts: list[str],
        xs: np.ndarray,
        ys: np.ndarray,
        size: float,
        colour: Any,
        anchor_x: str = "center",
        anchor_y: str = "center",
        style: str = "regular",
        owners: np.ndarray | None = None,
        max_width: float | None = None,
    ) -> TexMesh:
        """Many texts at once, vectorized over characters (hex labels of a whole map).

        Args:
            texts: the strings.
            xs, ys: ``[k]`` anchor positions.
            colour: one RGBA for all, or ``[k, 4]`` one per text.
            owners: optional ``[k]`` map hex index per text (for culling).
            max_width: shrink each text that is wider than this (same units).
        """
        keep_t = [i for i, t in enumerate(texts) if t]
        if len(keep_t) != len(texts):
            col_all = np.asarray(colour, dtype=np.uint8)
            if col_all.ndim == 2:
                colour = col_all[keep_t]
            texts = [texts[i] for i in keep_t]
            xs = np.asarray(xs)[keep_t]
            ys = np.asarray(ys)[keep_t]
            if owners is not None:
                owners = np.asarray(owners)[keep_t]
        k = len(texts)
        if k == 0:
            return TexMesh.empty()
        self.ensure("".join(set("".join(texts))), style)
        lens = np.fromiter((len(t) for t in texts), dtype=np.int64, count=k)
        chars = "".join(texts)
        if not chars:
            return TexMesh.empty()
        keys = sorted(set(chars))
        table = np.array(
            [
                [
                    self._glyphs[(c, style)].x0,
                    self._glyphs[(c, style)].y0,
                    self._glyphs[(c, style)].x1,
                    self._glyphs[(c, style)].y1,
                    self._glyphs[(c, style)].advance,
                    self._glyphs[(c, style)].u0,
                    self._glyphs[(c, style)].v0,
                    self._glyphs[(c, style)].u1,
                    self._glyphs[(c, style)].v1,
                ]
                for c in keys
            ]
        )
        code = {c: i for i, c in enumerate(keys)}
        ci = np.fromiter((code[c] for c in chars), dtype=np.int64, count=len(chars))
        g = table[ci]
        owner = np.repeat(np.arange(k), lens)
        adv = g[:, 4] * size
        csum = np.cumsum(adv)
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
        before = np.concatenate([[0.0], csum[:-1]])
        pen_rel = before - before[starts][owner]
        widths = np.add.reduceat(adv, starts)
        f = np.ones(k)
        if max_width is not None and max_width > 0:
            f = np.minimum(1.0, max_width / np.maximum(widths, 1e-12))
        widths = widths * f
        sz = size * f  # em size of each text
        xs = np.asarray(xs, dtype=np.float64)
        ys = np.asarray(ys, dtype=np.float64)
        shift = {"center": -widths / 2, "right": -widths}.get(anchor_x, np.zeros(k))
        cap = self.cap_height * sz
        base = ys + {"center": -cap / 2, "top": -cap}.get(anchor_y, np.zeros(k))
        pen = xs[owner] + shift[owner] + pen_rel * f[owner]
        so = sz[owner]
        quads = np.stack(
            [pen + g[:, 0] * so, base[owner] + g[:, 1] * so, pen + g[:, 2] * so, base[owner] + g[:, 3] * so],
            axis=1,
        )
        keep = g[:, 2] > g[:, 0]
        col = np.asarray(colour, dtype=np.uint8)
        if col.ndim == 2:
            col = col[owner][keep]
        out = _quads(quads[keep], g[keep][:, 5:9], col)
        if owners is not None:
            out.owner = np.repeat(np.asarray(owners, dtype=np.int64)[owner][keep], 4)
        return out


_CORNERS = np.array([[0, 1], [2, 1], [2, 3], [0, 3]])  # (x0,y0) (x1,y0) (x1,y1) (x0,y1) from [x0,y0,x1,y1]


def _quads(quads: np.ndarray, uvs: np.ndarray, colour: Any) -> TexMesh:
    n = quads.shape[0]
    if n == 0:
        return TexMesh.empty()
    pos = quads[:, _CORNERS]  # [n, 4, 2]
    uv = uvs[:, _CORNERS]
    col = np.asarray(colour, dtype=np.uint8)
    if col.ndim == 1:
        cols = np.broadcast_to(col, (n, 4, 4))
    else:
        cols = np.broadcast_to(col[:, None, :], (n, 4, 4))
    base = (np.arange(n, dtype=np.int64) * 4)[:, None]
    idx = (np.array([0, 1, 2, 0, 2, 3], dtype=np.int64)[None, :] + base).reshape(-1)
    return TexMesh(
        pos.reshape(-1, 2).astype(np.float32),
        uv.reshape(-1, 2).astype(np.float32),
        np.ascontiguousarray(cols).reshape(-1, 4),
        idx.astype(np.uint32),
    )


_ATLASES: weakref.WeakKeyDictionary[Any, GlyphAtlas] = weakref.WeakKeyDictionary()


def glyph_atlas() -> GlyphAtlas:
    """The glyph atlas of the current GL context's object space (built on first use).

    Raises:
        HexwarError: when no GL context is current.
    """
    from ..errors import HexwarError

    ctx = pyglet.gl.current_context
    if ctx is None:
        raise HexwarError("no GL context is current: create a window (or an offscreen renderer) first")
    key = ctx.object_space
    atlas = _ATLASES.get(key)
    if atlas is None:
        atlas = GlyphAtlas()
        _ATLASES[key] = atlas
    return atlas
