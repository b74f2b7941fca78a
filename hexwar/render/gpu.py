"""GL glue: shader programs, layer groups, and fast upload of numpy meshes to vertex lists.

All hexwar shaders use pyglet's ``WindowBlock`` uniform block (projection and view), so
pyglet's own shapes, labels and sprites placed in a hexwar group move with the camera too.

Layer order is fixed by :class:`Layer`: groups are children of a :class:`ViewGroup` and the
batch sorts siblings by order, so units always draw above terrain whatever order things were
created in.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

import pyglet  # noqa: E402
from pyglet import gl  # noqa: E402
from pyglet.graphics import Batch, Group  # noqa: E402
from pyglet.graphics.shader import ShaderProgram  # noqa: E402

from .layers import MAX_STACK, Layer  # noqa: E402,F401
from .mesh import Mesh, TexMesh  # noqa: E402

__all__ = [
    "MAX_STACK",
    "Layer",
    "LayerGroup",
    "StaticMesh",
    "TextGroup",
    "ViewGroup",
    "colour_program",
    "draw_ranges",
    "image_program",
    "text_program",
    "upload_mesh",
    "upload_static",
    "upload_texmesh",
]


_COLOUR_VS = """#version 150 core
in vec2 position;
in vec4 colors;
out vec4 v_color;
uniform WindowBlock { mat4 projection; mat4 view; } window;
void main() {
    gl_Position = window.projection * window.view * vec4(position, 0.0, 1.0);
    v_color = colors;
}
"""

_COLOUR_FS = """#version 150 core
in vec4 v_color;
out vec4 final_color;
void main() {
    final_color = v_color;
}
"""

_TEXT_VS = """#version 150 core
in vec2 position;
in vec2 tex_coords;
in vec4 colors;
out vec4 v_color;
out vec2 v_uv;
uniform WindowBlock { mat4 projection; mat4 view; } window;
void main() {
    gl_Position = window.projection * window.view * vec4(position, 0.0, 1.0);
    v_color = colors;
    v_uv = tex_coords;
}
"""

_TEXT_FS = """#version 150 core
in vec4 v_color;
in vec2 v_uv;
out vec4 final_color;
uniform sampler2D atlas;
void main() {
    float a = texture(atlas, v_uv).r;
    final_color = vec4(v_color.rgb, v_color.a * a);
}
"""


_IMAGE_FS = """#version 150 core
in vec4 v_color;
in vec2 v_uv;
out vec4 final_color;
uniform sampler2D atlas;
void main() {
    final_color = texture(atlas, v_uv) * v_color;
}
"""


def _context() -> Any:
    ctx = pyglet.gl.current_context
    if ctx is None:
        from ..errors import HexwarError

        raise HexwarError("no GL context is current: create a window (or use hexwar.render.offscreen) first")
    return ctx


def image_program() -> ShaderProgram:
    """The RGBA-texture program (the far-out map image) of the current context."""
    return _context().create_program((_TEXT_VS, "vertex"), (_IMAGE_FS, "fragment"))


def colour_program() -> ShaderProgram:
    """The per-vertex-colour program of the current context (cached by pyglet)."""
    return _context().create_program((_COLOUR_VS, "vertex"), (_COLOUR_FS, "fragment"))


def text_program() -> ShaderProgram:
    """The glyph-atlas text program of the current context (cached by pyglet)."""
    return _context().create_program((_TEXT_VS, "vertex"), (_TEXT_FS, "fragment"))


class _IdentityGroup(Group):
    """A group equal only to itself (pyglet merges equal groups; hexwar's must stay apart)."""

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)


class ViewGroup(_IdentityGroup):
    """Parent group that sets the window's view matrix for its children, then restores it.

    Args:
        target: the object whose ``view`` property feeds ``WindowBlock`` (a pyglet window).
        matrix: a callable returning 16 floats (column-major), e.g. ``camera.view_matrix``;
            ``None`` means identity (screen-space HUD layers).
        order: draw order among top-level groups.
    """

    def __init__(self, target: Any, matrix: Any = None, order: int = 0) -> None:
        super().__init__(order=order)
        self.target = target
        self.matrix = matrix
        self._saved: Any = None

    def set_state(self) -> None:
        """Set the camera matrix and blending for the layers under this group."""
        from pyglet.math import Mat4

        self._saved = self.target.view
        m = self.matrix() if self.matrix is not None else None
        new = Mat4(*m) if m is not None else Mat4()
        if new != self._saved:  # each write maps pyglet's uniform buffer: skip needless ones
            self.target.view = new
        gl.glEnable(gl.GL_BLEND)
        # colour: ordinary alpha blending; alpha: accumulate coverage so images stay opaque
        gl.glBlendFuncSeparate(
            gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA
        )

    def unset_state(self) -> None:
        """Restore the previous view matrix and plain alpha blending."""
        if self._saved is not None and self.target.view != self._saved:
            self.target.view = self._saved
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)


class LayerGroup(_IdentityGroup):
    """Binds the colour program for one :class:`Layer` under a :class:`ViewGroup`.

    ``opaque`` layers (the hex fills) draw without blending, which software renderers
    do noticeably faster.
    """

    def __init__(
        self, layer: int, parent: Group, program: ShaderProgram | None = None, opaque: bool = False
    ) -> None:
        super().__init__(order=int(layer), parent=parent)
        self.program = program or colour_program()
        self.opaque = opaque

    def set_state(self) -> None:
        """Use the colour program (no blending for opaque layers)."""
        self.program.use()
        if self.opaque:
            gl.glDisable(gl.GL_BLEND)

    def unset_state(self) -> None:
        """Release the colour program and restore blending."""
        self.program.stop()
        if self.opaque:
            gl.glEnable(gl.GL_BLEND)


class TextGroup(_IdentityGroup):
    """Binds the text program (or ``program``) and a texture for one textured layer."""

    def __init__(self, layer: int, parent: Group, texture: Any, program: ShaderProgram | None = None) -> None:
        super().__init__(order=int(layer), parent=parent)
        self.program = program or text_program()
        self.texture = texture  # keep the GL texture alive as long as the group

    def set_state(self) -> None:
        """Use the text program and bind the glyph or image texture to unit 0."""
        self.program.use()
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(self.texture.target, self.texture.id)

    def unset_state(self) -> None:
        """Release the text program."""
        self.program.stop()


def _write_attr(vl: Any, name: str, data: np.ndarray, ctype_dtype: Any) -> None:
    region = getattr(vl, name)  # ctypes view of the backing store; marks the region dirty
    arr = np.ascontiguousarray(data, dtype=ctype_dtype)
    nbytes = arr.nbytes
    if ctypes.sizeof(region) != nbytes:
        raise ValueError(f"attribute {name}: {ctypes.sizeof(region)} bytes expected, got {nbytes}")
    ctypes.memmove(ctypes.addressof(region), arr.ctypes.data, nbytes)


def _create_indexed(
    program: ShaderProgram, batch: Batch, group: Group, n: int, indices: np.ndarray, **formats: str
) -> Any:
    # A one-vertex probe finds (or makes) the batch's domain for this group and format; the
    # real list is then allocated there at full size and filled with memmove (fast for 100k+).
    probe = program.vertex_list_indexed(1, gl.GL_TRIANGLES, [0, 0, 0], batch, group, **formats)
    domain = probe.domain
    probe.delete()
    vl = domain.create(n, int(indices.size))
    ib = domain.index_buffer
    region = ib.get_region(vl.index_start, vl.index_count)
    idx = (indices.astype(np.int64) + vl.start).astype(np.uint32)
    ctypes.memmove(ctypes.addressof(region), idx.ctypes.data, idx.nbytes)
    ib.invalidate_region(vl.index_start, vl.index_count)
    batch.invalidate()
    return vl


def upload_mesh(mesh: Mesh, batch: Batch, group: Group, program: ShaderProgram | None = None) -> Any:
    """One indexed triangle vertex list for ``mesh`` in ``batch``/``group``; ``None`` if empty.

    The caller keeps the returned vertex list and calls ``.delete()`` to remove it.
    """
    n = mesh.vertex_count
    if n == 0 or mesh.indices.size == 0:
        return None
    program = program or getattr(group, "program", None) or colour_program()
    vl = _create_indexed(program, batch, group, n, mesh.indices, position="f", colors="Bn")
    _write_attr(vl, "position", mesh.positions, np.float32)
    _write_attr(vl, "colors", mesh.colors, np.uint8)
    return vl


def upload_texmesh(mesh: TexMesh, batch: Batch, group: TextGroup) -> Any:
    """One indexed textured vertex list for a text ``mesh``; ``None`` if empty."""
    n = mesh.vertex_count
    if n == 0 or mesh.indices.size == 0:
        return None
    vl = _create_indexed(
        group.program, batch, group, n, mesh.indices, position="f", tex_coords="f", colors="Bn"
    )
    _write_attr(vl, "position", mesh.positions, np.float32)
    _write_attr(vl, "tex_coords", mesh.uvs, np.float32)
    _write_attr(vl, "colors", mesh.colors, np.uint8)
    return vl


def _buffer_from(target: int, data: np.ndarray) -> int:
    """A new GL buffer holding exactly ``data`` (bound to ``target`` afterwards)."""
    ids = (gl.GLuint * 1)()
    gl.glGenBuffers(1, ids)
    gl.glBindBuffer(target, ids[0])
    gl.glBufferData(target, data.nbytes, data.ctypes.data, gl.GL_STATIC_DRAW)
    return int(ids[0])


class StaticMesh:
    """One static map layer in its own GL buffers, exactly sized, with no copy in system memory.

    pyglet's vertex lists keep a ctypes copy of every vertex beside the GL buffer and grow
    both to the next power of two; for the static layers of a 500x500 map (5M tree and 3M
    grid vertices) that doubled or tripled the memory (issue 22). A static mesh keeps its
    numpy arrays until it is first drawn (as a vertex list commits at its first draw, so it
    can be made with no GL context current), then moves them into GL buffers and drops
    them. Only its colours are ever rewritten (:func:`write_colors`, the editor's paint
    strokes); the map view rebuilds it when anything else in the layer changes.

    Draws with :func:`draw_ranges` like a vertex list; the caller's group sets the program.

    Args:
        program: the shader program whose attribute locations the buffers feed.
        attrs: ``(name, array [n, k], GL type, normalized)`` per vertex attribute, e.g.
            ``("position", float32 [n, 2], GL_FLOAT, False)``; attributes the program does
            not use are left out.
        indices: ``[3 t]`` triangle vertex indices (stored as ``uint32``).

    Attributes:
        count: number of vertices.
        index_count: number of indices (3 per triangle).
    """

    def __init__(
        self, program: ShaderProgram, attrs: list[tuple[str, np.ndarray, int, bool]], indices: np.ndarray
    ) -> None:
        self.count = int(attrs[0][1].shape[0])
        self.index_count = int(indices.size)
        self._program = program
        self._pending: dict[str, tuple[np.ndarray, int, bool]] | None = {
            name: (np.ascontiguousarray(arr), gltype, normalized) for name, arr, gltype, normalized in attrs
        }
        self._indices: np.ndarray | None = np.ascontiguousarray(indices, dtype=np.uint32)
        self._context: Any = None
        self._vao: Any = None
        self._buffers: dict[str, tuple[int, int]] = {}  # name -> (buffer id, byte size)

    @property
    def uploaded(self) -> bool:
        """True once the vertex data lives in GL buffers (after the first draw)."""
        return self._pending is None and self._vao is not None

    def upload(self) -> None:
        """Move the vertex data into GL buffers now (in the current context) and drop the
        arrays; the first draw does it otherwise. Nothing happens once uploaded or deleted."""
        if self._pending is not None:
            self._upload()

    def _upload(self) -> None:
        from pyglet.graphics.vertexarray import VertexArray

        pending, indices = self._pending, self._indices
        assert pending is not None and indices is not None
        self._context = _context()
        self._vao = VertexArray()
        locations = {name: a["location"] for name, a in self._program.attributes.items()}
        self._vao.bind()
        try:
            for name, (data, gltype, normalized) in pending.items():
                if name not in locations:
                    continue
                self._buffers[name] = (_buffer_from(gl.GL_ARRAY_BUFFER, data), data.nbytes)
                loc = locations[name]
                gl.glEnableVertexAttribArray(loc)
                gl.glVertexAttribPointer(loc, int(data.shape[1]), gltype, normalized, 0, 0)
            self._buffers["_index"] = (_buffer_from(gl.GL_ELEMENT_ARRAY_BUFFER, indices), indices.nbytes)
        finally:
            self._vao.unbind()
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)
        self._pending = self._indices = None  # the GL buffers hold the only copy now

    def write(self, name: str, data: np.ndarray) -> None:
        """Overwrite attribute ``name`` whole (same dtype and shape as given at creation).

        Raises:
            ValueError: when the size differs from the attribute's.
        """
        arr = np.ascontiguousarray(data)
        if self._pending is not None:
            old, gltype, normalized = self._pending[name]
            if arr.nbytes != old.nbytes:
                raise ValueError(f"attribute {name}: {old.nbytes} bytes expected, got {arr.nbytes}")
            self._pending[name] = (arr.astype(old.dtype, copy=False), gltype, normalized)
            return
        if name not in self._buffers:
            return  # deleted, or an attribute the program does not use
        bid, nbytes = self._buffers[name]
        if arr.nbytes != nbytes:
            raise ValueError(f"attribute {name}: {nbytes} bytes expected, got {arr.nbytes}")
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, bid)
        gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, nbytes, arr.ctypes.data)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)

    def draw_ranges(self, ranges: list[tuple[int, int]] | None) -> None:
        """Draw the triangles in ``ranges`` of ``(first index, count)``; ``None``: all of them.

        The first draw uploads the vertex data (the mesh's GL context must be current).
        """
        if ranges is None:
            ranges = [(0, self.index_count)]
        if not ranges:
            return
        if self._pending is not None:
            self._upload()
        if self._vao is None:
            return  # deleted
        self._vao.bind()
        if len(ranges) == 1:
            first, count = ranges[0]
            gl.glDrawElements(gl.GL_TRIANGLES, count, gl.GL_UNSIGNED_INT, first * 4)
        else:
            n = len(ranges)
            counts = (gl.GLsizei * n)(*[c for _, c in ranges])
            starts = (ctypes.POINTER(gl.GLvoid) * n)(*[f * 4 for f, _ in ranges])
            gl.glMultiDrawElements(gl.GL_TRIANGLES, counts, gl.GL_UNSIGNED_INT, starts, n)
        self._vao.unbind()

    def draw(self, mode: int = gl.GL_TRIANGLES) -> None:
        """Draw every triangle (``mode`` must be ``GL_TRIANGLES``; for vertex-list parity)."""
        self.draw_ranges(None)

    def delete(self) -> None:
        """Free the GL buffers and the vertex array (the mesh cannot draw afterwards).

        Safe with another context current or none (a window closed before its view is
        deleted): pyglet then deletes them when their context is next current, or never
        needs to once the context itself is gone.
        """
        self._pending = self._indices = None
        ctx = self._context
        if ctx is None:
            return  # never uploaded
        current = pyglet.gl.current_context is not None
        for bid, _ in self._buffers.values():
            if current:
                ctx.delete_buffer(bid)
            else:  # no context current: pyglet's own check would fail; deleted when ctx is next current
                ctx.object_space.doomed_buffers.append(bid)
        self._buffers = {}
        if self._vao is not None:
            if current:
                ctx.delete_vao(self._vao.id)
            else:
                ctx.doomed_vaos.append(self._vao.id)
            self._vao._id = None  # deleted above (VertexArray.__del__ would try again)
            self._vao = None


def upload_static(mesh: Mesh | TexMesh, program: ShaderProgram) -> StaticMesh | None:
    """``mesh`` in its own exactly sized GL buffers (:class:`StaticMesh`); ``None`` if empty.

    Args:
        mesh: a colour :class:`Mesh` or a textured :class:`TexMesh` (positions ``float32 [n, 2]``,
            uvs ``float32 [n, 2]``, colours ``uint8 [n, 4]``).
        program: the program it is drawn with (its group's).
    """
    if mesh.vertex_count == 0 or mesh.indices.size == 0:
        return None
    attrs: list[tuple[str, np.ndarray, int, bool]] = [
        ("position", np.asarray(mesh.positions, dtype=np.float32), gl.GL_FLOAT, False)
    ]
    if isinstance(mesh, TexMesh):
        attrs.append(("tex_coords", np.asarray(mesh.uvs, dtype=np.float32), gl.GL_FLOAT, False))
    attrs.append(("colors", np.asarray(mesh.colors, dtype=np.uint8), gl.GL_UNSIGNED_BYTE, True))
    return StaticMesh(program, attrs, mesh.indices)


def write_colors(vl: Any, colors: np.ndarray) -> None:
    """Overwrite the colours of vertex list (or :class:`StaticMesh`) ``vl`` in place (``uint8 [n, 4]``)."""
    if isinstance(vl, StaticMesh):
        vl.write("colors", np.asarray(colors, dtype=np.uint8))
        return
    _write_attr(vl, "colors", colors, np.uint8)


def draw_ranges(vl: Any, ranges: list[tuple[int, int]] | None) -> None:
    """Draw part of indexed triangle vertex list ``vl``: ``ranges`` of ``(first index, count)``.

    ``None`` draws the whole list. The caller has set the group state (program, camera).
    Uses one ``glMultiDrawElements`` for all ranges (culling without splitting the list).
    ``vl`` may be a :class:`StaticMesh`.
    """
    if isinstance(vl, StaticMesh):
        vl.draw_ranges(ranges)
        return
    if ranges is None:
        vl.draw(gl.GL_TRIANGLES)
        return
    if not ranges:
        return
    dom = vl.domain
    try:
        vao, buffers, ib = dom.vao, dom.buffer_attributes, dom.index_buffer
        elsize, gltype = dom.index_element_size, dom.index_gl_type
    except AttributeError:  # another pyglet layout: draw everything (correct, just not culled)
        vl.draw(gl.GL_TRIANGLES)
        return
    vao.bind()
    for buf, _ in buffers:
        buf.commit()
    ib.commit()
    base = ib.ptr + vl.index_start * elsize
    if len(ranges) == 1:
        first, count = ranges[0]
        gl.glDrawElements(gl.GL_TRIANGLES, count, gltype, base + first * elsize)
        return
    n = len(ranges)
    counts = (gl.GLsizei * n)(*[c for _, c in ranges])
    offs = (gl.GLintptr * n)(*[base + f * elsize for f, _ in ranges])
    starts = (ctypes.POINTER(gl.GLvoid) * n)(*offs)  # as pyglet's own domain.draw passes them
    gl.glMultiDrawElements(gl.GL_TRIANGLES, counts, gltype, starts, n)
