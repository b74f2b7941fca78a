"""Headless rendering to images and PNG files (EGL + Mesa llvmpipe where there is no display).

The same :meth:`MapView.draw` that paints a window paints into an offscreen framebuffer
here, with the same projection (screen points) and the same multisampling, so a PNG shows
exactly what a window of that size would. Sizes are in screen points; the image has
``points * pixel_ratio`` pixels (``pixel_ratio=2`` is a Retina window).

Typical use::

    from hexwar.render.offscreen import render_map, save_png
    img = render_map(bmap, size=(1280, 800), counters=[...], overlays={"heat": HeatmapOverlay(...)})
    save_png(img, "map.png")

All GL work happens in one hidden window per process (:func:`hidden_window`), created on
first use; tests share it.
"""

from __future__ import annotations

import ctypes
import io
import os
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

from pyglet import gl  # noqa: E402

from ..errors import HexwarError  # noqa: E402
from ..fileio import atomic_write_bytes  # noqa: E402
from ..model.maps import BattleMap  # noqa: E402
from .camera import Camera  # noqa: E402
from .counters import CounterView  # noqa: E402
from .looks import Looks, default_looks  # noqa: E402
from .mapview import MapView  # noqa: E402
from .overlays import Overlay  # noqa: E402

__all__ = [
    "BAND_SAMPLES",
    "DEFAULT_SAMPLES",
    "MAX_IMAGE_SIDE",
    "encode_png",
    "hidden_window",
    "read_framebuffer",
    "read_window",
    "render_map",
    "render_view",
    "save_png",
]

#: Multisample count used by hidden windows and offscreen framebuffers (edges anti-aliased).
DEFAULT_SAMPLES = 4
#: Largest image side in pixels hexwar will render (GL limits are usually 16384).
MAX_IMAGE_SIDE = 16384
#: Pixel-samples (pixels x multisamples) of the offscreen framebuffer :func:`render_view`
#: draws into at once: a larger image is drawn in horizontal bands of at most this many
#: (a 4096x4096 image at 4x multisampling would otherwise hold a 268 MB framebuffer, issue
#: 22). 4096 x 1024 x 4 samples (67 MB): every shipped map at its auto size, and a
#: 1280x800 screen at pixel ratio 2, still render in one pass.
BAND_SAMPLES = 4096 * 1024 * 4
#: Rows read back from the framebuffer at a time (the image is flipped chunk by chunk,
#: so read-back needs no second full-size copy).
_READ_ROWS = 256

_HIDDEN: dict[int, Any] = {}


def _max_renderbuffer() -> int:
    v = gl.GLint(0)
    gl.glGetIntegerv(gl.GL_MAX_RENDERBUFFER_SIZE, ctypes.byref(v))
    return int(v.value) or MAX_IMAGE_SIDE


def hidden_window(samples: int = DEFAULT_SAMPLES, width: int = 64, height: int = 64) -> Any:
    """A hidden pyglet window (a GL context) for offscreen work, one per ``samples`` value.

    Headless (EGL) when there is no display. The window is kept for the whole process so
    its GL objects (textures, programs) outlive any one render.

    Raises:
        HexwarError: when no GL context can be created at all.
    """
    win = _HIDDEN.get(samples)
    if win is not None and win.context is not None:
        win.switch_to()
        return win
    from pyglet.window import Window

    configs: list[Any] = []
    if samples > 1:
        configs.append(gl.Config(double_buffer=True, sample_buffers=1, samples=samples, alpha_size=8))  # type: ignore[abstract]
    configs.append(gl.Config(double_buffer=True, alpha_size=8))  # type: ignore[abstract]
    configs.append(None)
    last: Exception | None = None
    for cfg in configs:
        try:
            win = (
                Window(width, height, visible=False, config=cfg)
                if cfg is not None
                else Window(width, height, visible=False)
            )
            break
        except Exception as exc:  # pyglet raises several types for unsupported configs
            last = exc
    else:
        raise HexwarError(f"cannot create an OpenGL context for rendering: {last}")
    _HIDDEN[samples] = win
    win.switch_to()
    return win


def read_framebuffer(width: int, height: int, target: int | None = None) -> np.ndarray:
    """Read the bound read-framebuffer as ``uint8 [height, width, 4]`` RGBA, top row first.

    Alpha is forced to 255 (map images are opaque).
    """
    if target is not None:
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, target)
    buf = np.empty((height, width, 4), dtype=np.uint8)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(
        0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf.ctypes.data_as(ctypes.POINTER(gl.GLubyte))
    )
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 4)
    img = np.ascontiguousarray(buf[::-1])
    img[..., 3] = 255
    return img


def read_window(window: Any) -> np.ndarray:
    """What ``window`` shows now: its back buffer, multisampling resolved, as ``uint8 [H, W, 4]``.

    The buffer is blitted into a single-sample framebuffer first (a resolve, as the
    display does), so multisampled windows read back exactly as they look.
    """
    window.switch_to()
    W, H = window.get_framebuffer_size()
    ids = (gl.GLuint * 1)()
    rbs = (gl.GLuint * 1)()
    gl.glGenFramebuffers(1, ids)
    gl.glGenRenderbuffers(1, rbs)
    try:
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rbs[0])
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, W, H)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, ids[0])
        gl.glFramebufferRenderbuffer(
            gl.GL_DRAW_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rbs[0]
        )
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, 0)
        gl.glReadBuffer(gl.GL_BACK)
        gl.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        return read_framebuffer(W, H, target=ids[0])
    finally:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
        gl.glDeleteFramebuffers(1, ids)
        gl.glDeleteRenderbuffers(1, rbs)


def _clear(colour: tuple[int, int, int, int]) -> None:
    gl.glClearColor(colour[0] / 255, colour[1] / 255, colour[2] / 255, 1.0)
    gl.glClear(gl.GL_COLOR_BUFFER_BIT)


def _read_band(out: np.ndarray, fb: int, rows: int, top: int) -> None:
    """Read the lowest ``rows`` rows of framebuffer ``fb`` (``out``'s width) into ``out`` so
    that GL row ``rows - 1`` lands on image row ``top`` (``out`` is top row first), a chunk
    of :data:`_READ_ROWS` rows at a time."""
    W = out.shape[1]
    gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, fb)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    tmp = np.empty((min(_READ_ROWS, rows), W, 4), dtype=np.uint8)
    try:
        for y in range(0, rows, _READ_ROWS):
            n = min(_READ_ROWS, rows - y)
            gl.glReadPixels(
                0, y, W, n, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, tmp.ctypes.data_as(ctypes.POINTER(gl.GLubyte))
            )
            # GL row y (bottom up) is image row top + rows - 1 - y
            dst = top + rows - y - n
            out[dst : dst + n] = tmp[:n][::-1]
    finally:
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 4)


def render_view(
    view: MapView,
    size: tuple[float, float] | None = None,
    pixel_ratio: float | None = None,
    samples: int = DEFAULT_SAMPLES,
    band_samples: int = BAND_SAMPLES,
) -> np.ndarray:
    """Render ``view`` offscreen and return ``uint8 [H, W, 4]`` RGBA (top row first).

    An image of more than ``band_samples`` pixel-samples is drawn in horizontal bands, each
    into the same smaller framebuffer through a viewport shifted by whole pixels (the
    same picture, issue 22: a 4096x4096 render of a 500x500 map keeps a 67 MB framebuffer,
    not 268 MB).

    Args:
        view: the map view (drawn in its window's GL context; drawn once per band).
        size: view size in screen points; default the camera's viewport. Setting it is a
            resize (:meth:`MapView.resize`: the map stays anchored).
        pixel_ratio: framebuffer pixels per point; default the camera's.
        samples: multisampling (1 = none); windows made by :func:`hidden_window` use
            :data:`DEFAULT_SAMPLES` too, so images match what they show.
        band_samples: largest framebuffer drawn at once, in pixels x samples
            (default :data:`BAND_SAMPLES`); at least one row is drawn at a time.

    Raises:
        HexwarError: when the image would exceed the GL framebuffer limits.
    """
    win = view.window
    win.switch_to()
    if size is not None or pixel_ratio is not None:
        w, h = size if size is not None else view.camera.viewport
        view.resize(w, h, pixel_ratio)
    w_pt, h_pt = view.camera.viewport
    W, H = view.camera.framebuffer_size
    limit = min(MAX_IMAGE_SIDE, _max_renderbuffer())
    if W > limit or H > limit:
        raise HexwarError(f"image of {W}x{H} pixels is too large: at most {limit} pixels a side")
    from pyglet.math import Mat4

    ms = samples > 1
    band = H if W * H * max(1, samples) <= band_samples else max(1, band_samples // (W * max(1, samples)))
    img = np.empty((H, W, 4), dtype=np.uint8)
    ids = (gl.GLuint * 2)()
    rbs = (gl.GLuint * 2)()
    gl.glGenFramebuffers(2, ids)
    gl.glGenRenderbuffers(2, rbs)
    saved_proj = win.projection
    saved_view = win.view
    try:
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rbs[0])
        if ms:
            gl.glRenderbufferStorageMultisample(gl.GL_RENDERBUFFER, samples, gl.GL_RGBA8, W, band)
        else:
            gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, W, band)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, ids[0])
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rbs[0])
        if gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) != gl.GL_FRAMEBUFFER_COMPLETE:
            raise HexwarError(f"cannot render a {W}x{H} image: the offscreen framebuffer is incomplete")
        if ms:
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rbs[1])
            gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, W, band)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, ids[1])
            gl.glFramebufferRenderbuffer(
                gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rbs[1]
            )
        win.projection = Mat4.orthogonal_projection(0, w_pt, 0, h_pt, -8192, 8192)
        win.view = Mat4()
        for y0 in range(0, H, band):  # GL rows y0 .. y0 + band - 1 (bottom up)
            rows = min(band, H - y0)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, ids[0])
            gl.glViewport(0, -y0, W, H)  # the whole image, shifted: this band falls on the buffer
            _clear(view.looks.map["background"])
            view.draw(exact=True)
            read_fb = ids[0]
            if ms:
                gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, ids[0])
                gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, ids[1])
                gl.glBlitFramebuffer(0, 0, W, rows, 0, 0, W, rows, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
                read_fb = ids[1]
            _read_band(img, read_fb, rows, H - y0 - rows)
        img[..., 3] = 255
        return img
    finally:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
        gl.glDeleteFramebuffers(2, ids)
        gl.glDeleteRenderbuffers(2, rbs)
        win.projection = saved_proj
        win.view = saved_view
        fw, fh = win.get_framebuffer_size()
        gl.glViewport(0, 0, fw, fh)


def render_map(
    bmap: BattleMap,
    size: tuple[float, float] = (1280, 800),
    counters: Iterable[CounterView] = (),
    overlays: Mapping[str, Overlay] | None = None,
    pixel_ratio: float = 1.0,
    camera: Camera | None = None,
    show_labels: bool = True,
    looks: Looks | None = None,
    samples: int = DEFAULT_SAMPLES,
) -> np.ndarray:
    """Render a map with counters and overlays to ``uint8 [H, W, 4]`` (see :func:`render_view`).

    Args:
        bmap: the map.
        size: image size in screen points (``width, height``).
        counters: unit counters to draw.
        overlays: overlays by name, drawn in the given order.
        pixel_ratio: pixels per point.
        camera: a camera to use; default the whole map fitted to the image.
        show_labels: draw hex labels.
        looks: colours; default the shipped looks.
        samples: multisampling.

    Raises:
        HexwarError: bad size, or the overlays/counters do not fit the map.
    """
    w, h = size
    if not (w >= 1 and h >= 1):
        raise HexwarError(f"image size must be at least 1x1 points, got {w}x{h}")
    win = hidden_window(samples)
    cam = camera or Camera(viewport=(float(w), float(h)), pixel_ratio=pixel_ratio)
    if camera is None:
        cam.fit_map(bmap.width, bmap.height)
    view = MapView(
        bmap, win, looks=looks or default_looks(), camera=cam, show_labels=show_labels, use_cache=False
    )
    try:
        view.set_counters(counters)
        for name, ov in (overlays or {}).items():
            view.set_overlay(name, ov)
        return render_view(view, size=(w, h), pixel_ratio=pixel_ratio, samples=samples)
    finally:
        view.delete()


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an ``uint8 [H, W, 4]`` or ``[H, W, 3]`` image (top row first)."""
    from PIL import Image

    arr = np.ascontiguousarray(image)
    mode = "RGBA" if arr.shape[2] == 4 else "RGB"
    out = io.BytesIO()
    Image.fromarray(arr, mode).save(out, format="PNG", optimize=False)
    return out.getvalue()


def save_png(image: np.ndarray, path: str | os.PathLike[str]) -> None:
    """Write ``image`` as an opaque RGB PNG to ``path`` atomically.

    Raises:
        HexwarError: naming the path when it cannot be written.
    """
    atomic_write_bytes(path, encode_png(np.ascontiguousarray(image[..., :3])))
