"""Cached images of the static map layers: the far-out map image and the viewport cache.

Software renderers (Mesa llvmpipe) fill pixels slowly, and a map frame is several full
layers deep (hex fills, trees, roads, buildings, grid, labels). Two caches keep frames cheap:

* :class:`MapImpostor`, the far-out image: zoomed far out, a 100x100 map is 10,000 tiny
  hexes; the terrain is rendered once into a mipmapped texture (hexes at most
  :data:`IMPOSTOR_HEX_PX` texels, never magnified) and drawn as one quad.
* :class:`ViewCache`, the viewport cache, in two levels: the static map (terrain, labels,
  features) is rendered once per zoom level into a texture a little larger than the window
  (1:1 with framebuffer pixels); a second texture composites it with the underlays, unit
  counters and overlays, and is redone (cheaply: one copy plus those layers) whenever they
  change. While panning, a frame only copies the composite. The static level is rebuilt
  when the zoom, the pixel ratio, the map, or a toggle changes, or when the view pans past
  its margin.

Both restore the caller's framebuffer, viewport, projection and camera after rendering.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

import pyglet  # noqa: E402
from pyglet import gl  # noqa: E402

from .camera import Camera, map_bounds  # noqa: E402
from .mesh import TexMesh  # noqa: E402

__all__ = [
    "BUILD_BUDGET",
    "CACHE_MARGIN",
    "IMPOSTOR_HEX_PX",
    "MAX_IMPOSTOR_SIDE",
    "MapImpostor",
    "ViewCache",
    "impostor_hex_px",
]

#: Hex size (centre to corner) in texels in the far-out image.
IMPOSTOR_HEX_PX = 16.0
#: Largest side of the far-out image in texels (larger maps get smaller hexes in it).
MAX_IMPOSTOR_SIDE = 4096
#: Viewport cache margin on each side, as a fraction of the framebuffer size.
CACHE_MARGIN = 0.2


def impostor_hex_px(width: int, height: int, hex_size: float) -> float:
    """Hex size in texels of the far-out image of a ``width`` x ``height`` map."""
    x0, y0, x1, y1 = map_bounds(width, height)
    fit = MAX_IMPOSTOR_SIDE / max(x1 - x0, y1 - y0) * hex_size
    return min(IMPOSTOR_HEX_PX, fit)


def _get_int(name: int) -> int:
    v = gl.GLint(0)
    gl.glGetIntegerv(name, ctypes.byref(v))
    return int(v.value)


def _quad(x0: float, y0: float, x1: float, y1: float) -> TexMesh:
    pos = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    col = np.full((4, 4), 255, dtype=np.uint8)
    return TexMesh(pos, uv, col, np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32))


def render_layers_to_texture(
    view: Any, camera: Camera, W: int, H: int, samples: int, draw: Any, min_filter: int, texture: Any = None
) -> tuple[Any, int]:
    """Render with ``draw()`` into a ``W`` x ``H`` texture through ``camera`` (points = texels
    / ``camera.pixel_ratio``); returns ``(texture, framebuffer id holding it)``.

    The texture's framebuffer is kept (for fast blits); the caller deletes it with
    :func:`delete_framebuffer`. ``texture`` may be reused when it has the same size.
    """
    win = view.window
    saved_draw = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
    saved_read = _get_int(gl.GL_READ_FRAMEBUFFER_BINDING)
    vp = (gl.GLint * 4)()
    gl.glGetIntegerv(gl.GL_VIEWPORT, vp)
    saved_proj, saved_view, saved_cam = win.projection, win.view, view.camera
    if texture is None or texture.width != W or texture.height != H:
        texture = pyglet.image.Texture.create(
            W,
            H,
            internalformat=gl.GL_RGBA8,
            min_filter=min_filter,
            mag_filter=gl.GL_LINEAR if min_filter != gl.GL_NEAREST else gl.GL_NEAREST,
            blank_data=False,
        )
    fbs = (gl.GLuint * 2)()
    rb = (gl.GLuint * 1)()
    gl.glGenFramebuffers(2, fbs)
    gl.glGenRenderbuffers(1, rb)
    try:
        ms = samples if W * H <= 12_000_000 else 1
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rb[0])
        if ms > 1:
            gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, ms, gl.GL_RGBA8, W, H)
        else:
            gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, W, H)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbs[0])
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rb[0])
        gl.glViewport(0, 0, W, H)
        from pyglet.math import Mat4

        win.projection = Mat4.orthogonal_projection(0, camera.viewport[0], 0, camera.viewport[1], -8192, 8192)
        view.camera = camera
        bg = view.looks.map["background"]
        gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        draw()
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbs[1])
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, texture.target, texture.id, 0)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fbs[0])
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbs[1])
        gl.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        if min_filter not in (gl.GL_NEAREST, gl.GL_LINEAR):
            gl.glBindTexture(texture.target, texture.id)
            gl.glGenerateMipmap(texture.target)
    except BaseException:
        gl.glDeleteFramebuffers(1, ctypes.byref(gl.GLuint(fbs[1])))
        raise
    finally:
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved_draw)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved_read)
        gl.glDeleteFramebuffers(1, ctypes.byref(gl.GLuint(fbs[0])))
        gl.glDeleteRenderbuffers(1, rb)
        gl.glViewport(vp[0], vp[1], vp[2], vp[3])
        win.projection, win.view = saved_proj, saved_view
        view.camera = saved_cam
    return texture, int(fbs[1])


def _texture_framebuffer(texture: Any) -> int:
    fbs = (gl.GLuint * 1)()
    gl.glGenFramebuffers(1, fbs)
    saved = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbs[0])
    gl.glFramebufferTexture2D(gl.GL_DRAW_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, texture.target, texture.id, 0)
    gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved)
    return int(fbs[0])


def copy_and_draw(
    view: Any,
    camera: Camera,
    src_fb: int,
    dst_fb: int,
    W: int,
    H: int,
    draw: Any,
    rects: list[tuple[int, int, int, int]] | None = None,
) -> None:
    """Copy framebuffer ``src_fb`` into ``dst_fb`` (both ``W`` x ``H``), then ``draw()`` over
    it through ``camera``, single-sampled. Restores the caller's GL state and camera.

    With ``rects`` (pixel rectangles ``(x, y, w, h)``) only those are copied and drawn (the
    drawing scissored to each in turn); elsewhere ``dst_fb`` keeps its pixels."""
    win = view.window
    saved_draw = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
    saved_read = _get_int(gl.GL_READ_FRAMEBUFFER_BINDING)
    vp = (gl.GLint * 4)()
    gl.glGetIntegerv(gl.GL_VIEWPORT, vp)
    saved_proj, saved_view, saved_cam = win.projection, win.view, view.camera
    try:
        from pyglet.math import Mat4

        win.projection = Mat4.orthogonal_projection(0, camera.viewport[0], 0, camera.viewport[1], -8192, 8192)
        view.camera = camera
        gl.glViewport(0, 0, W, H)
        for x, y, w, h in rects if rects is not None else [(0, 0, W, H)]:
            # copy, then draw, one rectangle at a time: where rectangles overlap the second
            # copy wipes the first drawing, so nothing is blended twice
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, src_fb)
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst_fb)
            gl.glBlitFramebuffer(
                x, y, x + w, y + h, x, y, x + w, y + h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST
            )
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, dst_fb)
            if rects is None:
                draw()
                continue
            gl.glEnable(gl.GL_SCISSOR_TEST)
            try:
                gl.glScissor(x, y, w, h)
                draw()
            finally:
                gl.glDisable(gl.GL_SCISSOR_TEST)
    finally:
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved_draw)
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved_read)
        gl.glViewport(vp[0], vp[1], vp[2], vp[3])
        win.projection, win.view = saved_proj, saved_view
        view.camera = saved_cam


def delete_framebuffer(fb: int | None) -> None:
    """Delete a framebuffer made by :func:`render_layers_to_texture` (``None``: nothing)."""
    if fb:
        gl.glDeleteFramebuffers(1, ctypes.byref(gl.GLuint(fb)))


class MapImpostor:
    """The far-out texture of one view and the quad that shows it.

    Attributes:
        texture: the pyglet texture (``None`` until built).
        key: what the texture was built from (rebuilt when it changes).
        hex_px: hex size in texels.
        bounds: world rectangle the texture covers.
    """

    def __init__(self) -> None:
        self.texture: Any = None
        self.key: Any = None
        self.hex_px = IMPOSTOR_HEX_PX
        self.bounds: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)
        self._fb: int | None = None

    def build(self, view: Any, draw: Any, key: Any, samples: int = 4) -> None:
        """Render the whole map with ``draw()`` (static layers, no culling) into the texture."""
        m = view.map
        s = view.layout.size
        self.hex_px = impostor_hex_px(m.width, m.height, s)
        scale = self.hex_px / s
        x0, y0, x1, y1 = map_bounds(m.width, m.height, view.layout)
        W = max(1, int(np.ceil((x1 - x0) * scale)))
        H = max(1, int(np.ceil((y1 - y0) * scale)))
        x1, y1 = x0 + W / scale, y0 + H / scale
        self.bounds = (x0, y0, x1, y1)
        cam = Camera(
            viewport=(float(W), float(H)),
            zoom=scale,
            center=((x0 + x1) / 2, (y0 + y1) / 2),
            min_zoom=1e-6,
            max_zoom=1e6,
        )
        delete_framebuffer(self._fb)
        self.texture, self._fb = render_layers_to_texture(
            view, cam, W, H, samples, draw, gl.GL_LINEAR_MIPMAP_LINEAR, self.texture
        )
        self.key = key

    def quad(self) -> TexMesh:
        """The world-space quad showing the texture over the map's bounds."""
        return _quad(*self.bounds)

    def delete(self) -> None:
        """Free the framebuffer (the texture goes with the object)."""
        delete_framebuffer(self._fb)
        self._fb = None


#: Pixel-samples (pixels x multisamples) of the static level a frame renders at most while a
#: zoom step or a toggle settles (issue 22): about 15 ms of CPU on Mesa llvmpipe, so the build of a
#: large view is spread over several frames (the old image is shown scaled meanwhile) and
#: no frame stalls; a small view still builds in one frame.
BUILD_BUDGET = 1_000_000


class _Job:
    """A static-level build in progress: the cache camera, its rectangle, the strips left."""

    def __init__(
        self,
        key: Any,
        camera: Camera,
        rect: tuple[float, float, float, float],
        size: tuple[int, int],
        samples: int,
        texture: Any,
        grid_texture: Any = None,
    ) -> None:
        self.key = key
        self.camera = camera
        self.rect = rect
        self.size = size
        self.samples = samples
        W, H = size
        passes = 2 if grid_texture is not None else 1
        self.strip = max(16, min(H, BUILD_BUDGET // max(1, W * samples * passes)))
        self.starts = list(range(0, max(1, H - self.strip) + 1, self.strip))
        if self.starts[-1] + self.strip < H:
            self.starts.append(H - self.strip)  # the last strip overlaps the one before (same pixels)
        self.next = 0
        self.texture = texture
        self.fb: int | None = _texture_framebuffer(texture)
        self.grid_texture = grid_texture
        self.grid_fb: int | None = _texture_framebuffer(grid_texture) if grid_texture is not None else None
        self.gridded_texture: Any = None  # the base with the grid laid on (after the strips)
        self.gridded_fb: int | None = None

    def covers(self, camera: Camera) -> bool:
        x0, y0, x1, y1 = camera.visible_world_rect()
        cx0, cy0, cx1, cy1 = self.rect
        return cx0 <= x0 and cy0 <= y0 and x1 <= cx1 and y1 <= cy1

    @property
    def strips_done(self) -> bool:
        return self.next >= len(self.starts)

    @property
    def done(self) -> bool:
        return self.strips_done and (self.grid_texture is None or self.gridded_fb is not None)

    def drop_grid(self) -> None:
        """Free the grid-alone texture (once laid on the base it is not needed)."""
        delete_framebuffer(self.grid_fb)
        self.grid_fb = None

    def delete(self) -> None:
        delete_framebuffer(self.fb)
        delete_framebuffer(self.grid_fb)
        delete_framebuffer(self.gridded_fb)
        self.fb = self.grid_fb = self.gridded_fb = None


class ViewCache:
    """The static layers around the viewport, 1:1 with framebuffer pixels (see module doc).

    Three levels (issue 22), each redone only when what it shows changes:

    * the *base*: terrain up to buildings (multisampled, the expensive part), rendered in
      horizontal strips of at most :data:`BUILD_BUDGET` pixel-samples a frame when the zoom
      or the map changes, or the view pans past its margin; multisampled, the grid is
      rendered with it, alone (premultiplied alpha), and laid on a copy of it, so the
      base is kept both with and without the grid;
    * the *static* image: a copy of the base (with or without the grid; single-sampled
      caches draw the grid here), hex labels and battlefield features (single-sampled: a
      grid or label toggle or a fire costs a copy and a few thin layers);
    * the *composite*: the static image plus underlays, counters and overlays; a moved
      counter redraws only the rectangles around its old and new stacks.

    Attributes:
        texture: the static image (``None`` until built).
        key: what the static image was built from (base builds and the stage's toggles).
        rect: world rectangle the textures cover.
        builds: how many times the base was (re)built (tests and the benchmark).
        stage_builds: how many times the static image was (re)built.
        job: the base build in progress, or ``None``.
    """

    def __init__(self) -> None:
        self.texture: Any = None
        self.key: Any = None
        self.rect: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        self.fb: int | None = None
        self.builds = 0
        self.stage_builds = 0
        self._size = (0, 0)
        self.camera: Camera | None = None
        self.base_texture: Any = None
        self.base_fb: int | None = None
        self.base_key: Any = None
        self.gridded_texture: Any = None  # the base with the grid laid on (or None)
        self.gridded_fb: int | None = None
        self.job: _Job | None = None
        self._spare: Any = None  # a base texture of the current size, recycled by the next job
        self._ms: tuple[int, int, int, int, int] | None = None  # (fb, renderbuffer, W, H, samples)
        self.comp_texture: Any = None
        self.comp_fb: int | None = None
        self.comp_key: Any = None
        self.comp_builds = 0

    # -- validity ------------------------------------------------------------------------
    def valid(self, key: Any, camera: Camera) -> bool:
        """True when the base was built for ``key`` and covers the camera's view."""
        if self.base_texture is None or key != self.base_key:
            return False
        return self.covers(camera)

    def covers(self, camera: Camera) -> bool:
        """True when the cached rectangle contains everything the camera sees."""
        if self.texture is None and self.base_texture is None:
            return False
        x0, y0, x1, y1 = camera.visible_world_rect()
        cx0, cy0, cx1, cy1 = self.rect
        return cx0 <= x0 and cy0 <= y0 and x1 <= cx1 and y1 <= cy1

    # -- the base, in strips -------------------------------------------------------------
    def start(self, view: Any, key: Any, samples: int, grid: bool = False) -> None:
        """Begin a base build for ``key`` around the camera's view (replacing one in progress);
        with ``grid`` the grid is rendered too, alone, into its own texture (so toggling it
        costs no multisampled rebuild)."""
        cam = view.camera
        fw, fh = cam.framebuffer_size
        mx, my = max(64, int(CACHE_MARGIN * fw)), max(64, int(CACHE_MARGIN * fh))
        W, H = fw + 2 * mx, fh + 2 * my
        r = cam.pixel_ratio
        # the cache's points grid sits on whole framebuffer pixels of the current view
        ccam = Camera(viewport=(W / r, H / r), zoom=cam.zoom, pixel_ratio=r, min_zoom=1e-6, max_zoom=1e6)
        sx0, sy0 = -mx / r, -my / r  # the cache's bottom-left corner in the view's screen points
        wx0, wy0 = cam.screen_to_world(sx0, sy0)
        ccam.center = (wx0 + (W / r) / 2 / cam.zoom, wy0 + (H / r) / 2 / cam.zoom)
        rect = (wx0, wy0, wx0 + (W / r) / cam.zoom, wy0 + (H / r) / cam.zoom)
        tex = None
        if self.job is not None:
            tex = self.job.texture
            self.job.delete()
        elif self._spare is not None:
            tex = self._spare
        self._spare = None
        if tex is None or tex.width != W or tex.height != H:
            tex = pyglet.image.Texture.create(
                W,
                H,
                internalformat=gl.GL_RGBA8,
                min_filter=gl.GL_NEAREST,
                mag_filter=gl.GL_NEAREST,
                blank_data=False,
            )
        gtex = None
        if grid:
            gtex = pyglet.image.Texture.create(
                W,
                H,
                internalformat=gl.GL_RGBA8,
                min_filter=gl.GL_NEAREST,
                mag_filter=gl.GL_NEAREST,
                blank_data=False,
            )
        self.job = _Job(key, ccam, rect, (W, H), samples, tex, gtex)

    def step(
        self, view: Any, draw: Any, budget: int = BUILD_BUDGET, draw_grid: Any = None, lay_grid: Any = None
    ) -> int:
        """Render strips of the job with ``draw()`` (and ``draw_grid()`` into the grid texture)
        until ``budget`` pixel-samples are spent (at least one step), then lay the grid on a
        copy of the base with ``lay_grid(texture, rect)``; finish the base when all is done.
        Returns the spend."""
        job = self.job
        spent = 0
        if job is None:
            return 0
        W, H = job.size
        base_fb = job.fb
        assert base_fb is not None
        passes = 2 if job.grid_fb else 1
        cost = W * job.strip * job.samples * passes
        while not job.strips_done and (spent == 0 or spent + cost <= budget):
            y0 = job.starts[job.next]
            self._render_strip(view, job, y0, draw, base_fb, view.looks.map["background"])
            if job.grid_fb:
                self._render_strip(view, job, y0, draw_grid, job.grid_fb, None)
            job.next += 1
            spent += cost
        if job.strips_done and not job.done and (spent == 0 or spent + 4 * W * H <= budget):
            tex = pyglet.image.Texture.create(
                W,
                H,
                internalformat=gl.GL_RGBA8,
                min_filter=gl.GL_NEAREST,
                mag_filter=gl.GL_NEAREST,
                blank_data=False,
            )
            fb = _texture_framebuffer(tex)
            copy_and_draw(view, job.camera, base_fb, fb, W, H, lambda: lay_grid(job.grid_texture, job.rect))
            job.gridded_texture, job.gridded_fb = tex, fb
            job.drop_grid()
            spent += 4 * W * H  # a blended, textured pass over every pixel
        if job.done:
            self._finish(job)
        return spent

    def build(
        self, view: Any, draw: Any, key: Any, samples: int, draw_grid: Any = None, lay_grid: Any = None
    ) -> None:
        """Render the whole base with ``draw()`` now (screenshots, tests: ``exact``)."""
        if self.job is None or self.job.key != key or not self.job.covers(view.camera):
            self.start(view, key, samples, grid=draw_grid is not None)
        while self.job is not None:
            self.step(view, draw, budget=1 << 62, draw_grid=draw_grid, lay_grid=lay_grid)

    def _ms_target(self, W: int, H: int, samples: int) -> int:
        """A reusable framebuffer with a ``W`` x ``H`` multisampled colour buffer (reallocating
        it every build cost more than drawing on Mesa llvmpipe)."""
        if self._ms is not None and self._ms[2:] == (W, H, samples):
            return self._ms[0]
        self._free_ms()
        fbs = (gl.GLuint * 1)()
        rb = (gl.GLuint * 1)()
        gl.glGenFramebuffers(1, fbs)
        gl.glGenRenderbuffers(1, rb)
        saved = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rb[0])
        if samples > 1:
            gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, samples, gl.GL_RGBA8, W, H)
        else:
            gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, W, H)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, fbs[0])
        gl.glFramebufferRenderbuffer(
            gl.GL_DRAW_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rb[0]
        )
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved)
        self._ms = (int(fbs[0]), int(rb[0]), W, H, samples)
        return int(fbs[0])

    def _free_ms(self) -> None:
        if self._ms is not None:
            delete_framebuffer(self._ms[0])
            gl.glDeleteRenderbuffers(1, ctypes.byref(gl.GLuint(self._ms[1])))
            self._ms = None

    def _render_strip(self, view: Any, job: _Job, y0: int, draw: Any, dst_fb: int, background: Any) -> None:
        """Render rows ``y0 ..`` of the job with ``draw()`` into ``dst_fb`` over ``background``
        (an RGBA colour; ``None``: transparent, for the grid alone)."""
        W, H = job.size
        sh = min(job.strip, H)
        cam = job.camera
        r = cam.pixel_ratio
        scam = Camera(viewport=(W / r, sh / r), zoom=cam.zoom, pixel_ratio=r, min_zoom=1e-6, max_zoom=1e6)
        bx0, by0 = cam.screen_to_world(0.0, y0 / r)
        scam.center = (bx0 + (W / r) / 2 / cam.zoom, by0 + (sh / r) / 2 / cam.zoom)
        ms = self._ms_target(W, sh, job.samples if W * sh <= 12_000_000 else 1)
        win = view.window
        saved_draw = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
        saved_read = _get_int(gl.GL_READ_FRAMEBUFFER_BINDING)
        vp = (gl.GLint * 4)()
        gl.glGetIntegerv(gl.GL_VIEWPORT, vp)
        saved_proj, saved_view, saved_cam = win.projection, win.view, view.camera
        try:
            from pyglet.math import Mat4

            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, ms)
            gl.glViewport(0, 0, W, sh)
            win.projection = Mat4.orthogonal_projection(0, scam.viewport[0], 0, scam.viewport[1], -8192, 8192)
            view.camera = scam
            if background is None:
                gl.glClearColor(0.0, 0.0, 0.0, 0.0)
            else:
                gl.glClearColor(background[0] / 255, background[1] / 255, background[2] / 255, 1.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT)
            draw()
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, ms)
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, dst_fb)
            gl.glBlitFramebuffer(0, 0, W, sh, 0, y0, W, y0 + sh, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        finally:
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, saved_draw)
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved_read)
            gl.glViewport(vp[0], vp[1], vp[2], vp[3])
            win.projection, win.view = saved_proj, saved_view
            view.camera = saved_cam

    def _finish(self, job: _Job) -> None:
        if (
            self.base_texture is not None
            and self.base_texture.width == job.size[0]
            and self.base_texture.height == job.size[1]
        ):
            self._spare = self.base_texture
        delete_framebuffer(self.base_fb)
        delete_framebuffer(self.gridded_fb)
        self.base_texture, self.base_fb = job.texture, job.fb
        self.gridded_texture, self.gridded_fb = job.gridded_texture, job.gridded_fb
        self.base_key = job.key
        self.camera = job.camera
        self._base_rect = job.rect
        self._base_size = job.size
        self.job = None
        self.builds += 1

    # -- the static image and the composite ---------------------------------------------------
    def build_stage(self, view: Any, draw: Any, key: Any, gridded: bool = False) -> None:
        """Copy the base (``gridded``: the base with the grid laid on) into the static image
        and ``draw()`` the stage layers over it (labels, features: single-sampled) through
        the base's camera."""
        assert self.camera is not None and self.base_fb
        W, H = self._base_size
        if self.texture is None or self.texture.width != W or self.texture.height != H:
            delete_framebuffer(self.fb)
            self.texture = pyglet.image.Texture.create(
                W,
                H,
                internalformat=gl.GL_RGBA8,
                min_filter=gl.GL_NEAREST,
                mag_filter=gl.GL_NEAREST,
                blank_data=False,
            )
            self.fb = _texture_framebuffer(self.texture)
        assert self.fb
        src = self.gridded_fb if gridded and self.gridded_fb else self.base_fb
        copy_and_draw(view, self.camera, src, self.fb, W, H, draw)
        self.rect = self._base_rect
        self._size = (W, H)
        self.key = key
        self.comp_key = None
        self.stage_builds += 1

    def build_composite(
        self, view: Any, draw: Any, key: Any, boxes: list[tuple[float, float, float, float]] | None = None
    ) -> None:
        """Copy the static image into the composite texture and ``draw(box)`` the layers above
        it through the static level's camera (single-sampled: a copy and a few layers).

        With ``boxes`` (world rectangles) only those parts are copied and redrawn (scissored,
        ``draw`` called with each box to cull to it; ``None``: everything), which gives the
        same pixels there as a whole redraw: a moved counter costs its two stacks'
        rectangles, not the view."""
        assert self.camera is not None and self.fb
        W, H = self._size
        if self.comp_texture is None or self.comp_texture.width != W or self.comp_texture.height != H:
            delete_framebuffer(self.comp_fb)
            self.comp_texture = pyglet.image.Texture.create(
                W,
                H,
                internalformat=gl.GL_RGBA8,
                min_filter=gl.GL_NEAREST,
                mag_filter=gl.GL_NEAREST,
                blank_data=False,
            )
            self.comp_fb = _texture_framebuffer(self.comp_texture)
            boxes = None
        assert self.comp_fb
        if boxes is None or self.comp_key is None:
            copy_and_draw(view, self.camera, self.fb, self.comp_fb, W, H, lambda: draw(None))
        else:
            parts: list[tuple[tuple[int, int, int, int], tuple[float, float, float, float]]] = []
            for b in boxes:
                r = self._pixel_rect(b, W, H)
                if r is not None:
                    parts.append((r, b))
            todo = iter([b for _, b in parts])
            copy_and_draw(
                view,
                self.camera,
                self.fb,
                self.comp_fb,
                W,
                H,
                lambda: draw(next(todo)),
                rects=[r for r, _ in parts],
            )
        self.comp_key = key
        self.comp_builds += 1

    def _pixel_rect(
        self, box: tuple[float, float, float, float], W: int, H: int
    ) -> tuple[int, int, int, int] | None:
        """Composite pixels ``(x, y, w, h)`` holding world rectangle ``box`` (2 pixels wider for
        edge smoothing), clipped to the texture; ``None`` when off it."""
        assert self.camera is not None
        cam = self.camera
        x0, y0 = cam.screen_to_pixel(*cam.world_to_screen(box[0], box[1]))
        x1, y1 = cam.screen_to_pixel(*cam.world_to_screen(box[2], box[3]))
        px0, py0 = max(0, int(math.floor(x0)) - 2), max(0, int(math.floor(y0)) - 2)
        px1, py1 = min(W, int(math.ceil(x1)) + 2), min(H, int(math.ceil(y1)) + 2)
        if px1 <= px0 or py1 <= py0:
            return None
        return (px0, py0, px1 - px0, py1 - py0)

    def draw(self, camera: Camera, draw_quad: Any, composite: bool = False) -> None:
        """Put the cached image (the static level, or the ``composite``) on the current
        framebuffer where the camera sees it.

        A single-sampled target gets a pixel copy (``glBlitFramebuffer``); a multisampled
        one gets ``draw_quad()`` (a textured quad over :attr:`rect`).
        """
        fb = self.comp_fb if composite else self.fb
        if _get_int(gl.GL_SAMPLE_BUFFERS) == 0 and fb:
            x0, y0, _, _ = self.rect
            sx, sy = camera.world_to_screen(x0, y0)
            px, py = camera.screen_to_pixel(sx, sy)
            ox, oy = int(math.floor(px + 0.5)), int(math.floor(py + 0.5))
            W, H = self._size
            fw, fh = camera.framebuffer_size
            # copy only the part that lands on the framebuffer (drivers may not clip for us)
            dx0, dy0 = max(0, ox), max(0, oy)
            dx1, dy1 = min(fw, ox + W), min(fh, oy + H)
            if dx1 <= dx0 or dy1 <= dy0:
                return
            target = _get_int(gl.GL_DRAW_FRAMEBUFFER_BINDING)
            saved_read = _get_int(gl.GL_READ_FRAMEBUFFER_BINDING)
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fb)
            gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, target)
            gl.glBlitFramebuffer(
                dx0 - ox,
                dy0 - oy,
                dx1 - ox,
                dy1 - oy,
                dx0,
                dy0,
                dx1,
                dy1,
                gl.GL_COLOR_BUFFER_BIT,
                gl.GL_NEAREST,
            )
            gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, saved_read)
        else:
            draw_quad()

    def quad(self) -> TexMesh:
        """The world-space quad showing the cache over :attr:`rect`."""
        return _quad(*self.rect)

    def delete(self) -> None:
        """Free the framebuffers (the textures go with the object)."""
        if self.job is not None:
            self.job.delete()
            self.job = None
        self._free_ms()
        delete_framebuffer(self.fb)
        delete_framebuffer(self.base_fb)
        delete_framebuffer(self.gridded_fb)
        delete_framebuffer(self.comp_fb)
        self.fb = self.base_fb = self.gridded_fb = self.comp_fb = None
        self.texture = self.base_texture = self.gridded_texture = self.comp_texture = self._spare = None
