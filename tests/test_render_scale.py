"""Large maps render within memory (issue 22): exactly sized static GL buffers, labels built
only when they can show, big images drawn in bands, map load linear in the deploy zones.

Speed and peak memory are measured in ``benchmarks/bench_render.py`` (never timed here);
these tests check the structure that keeps them down, and that the pictures stay the same.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.render import backend

backend.configure(None)

from pyglet import gl  # noqa: E402

from hexwar.render import mapgeom  # noqa: E402
from hexwar.render.camera import WORLD_LAYOUT, Camera  # noqa: E402
from hexwar.render.gpu import StaticMesh  # noqa: E402
from hexwar.render.looks import default_looks  # noqa: E402
from hexwar.render.mapview import MapView  # noqa: E402
from hexwar.render.offscreen import hidden_window, render_view  # noqa: E402

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def win():
    return hidden_window()


def _buffer_bytes(bid: int) -> int:
    v = gl.GLint(0)
    gl.glBindBuffer(gl.GL_ARRAY_BUFFER, bid)
    gl.glGetBufferParameteriv(gl.GL_ARRAY_BUFFER, gl.GL_BUFFER_SIZE, ctypes.byref(v))
    gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)
    return int(v.value)


def _woods_map(w: int, h: int) -> BattleMap:
    m = BattleMap.new(w, h)
    for c in range(w):
        for r in range(h):
            if (c + r) % 3 == 0:
                m.set_terrain(Hex.from_offset(c, r), "woods")
    return m


def test_static_map_layers_live_in_gl_buffers_of_exactly_their_size(win):
    # ground: 7 vertices (centre + 6 corners) and 6 triangles per hex (build_ground), so an
    # N-hex map needs 7N positions (2 float32), 7N colours (4 uint8) and 18N uint32 indices
    m = _woods_map(13, 9)
    n = 13 * 9
    cam = Camera(viewport=(400, 300))
    cam.fit_map(m.width, m.height)
    view = MapView(m, win, camera=cam, use_cache=False)
    ground = view.vertex_lists("ground")[0]
    assert isinstance(ground, StaticMesh)
    assert (ground.count, ground.index_count) == (7 * n, 18 * n)
    assert ground.uploaded  # built in the window's context: uploaded at once
    render_view(view)
    sizes = {name: _buffer_bytes(bid) for name, (bid, _) in ground._buffers.items()}
    assert sizes == {"position": 7 * n * 8, "colors": 7 * n * 4, "_index": 18 * n * 4}
    assert ground._pending is None and ground._indices is None  # no copy kept in system memory
    detail = view.vertex_lists("detail")[0]
    want = mapgeom.build_details(m, view.looks, WORLD_LAYOUT)
    assert isinstance(detail, StaticMesh) and detail.count == want.vertex_count
    assert _buffer_bytes(detail._buffers["position"][0]) == want.vertex_count * 8
    view.delete()
    assert ground._buffers == {} and not ground.uploaded


def test_hex_labels_are_built_the_first_time_the_zoom_can_show_them(win):
    m = BattleMap.new(6, 5)
    cam = Camera(viewport=(200, 150), zoom=0.2)  # labels far below MIN_LABEL_PX
    view = MapView(m, win, camera=cam, use_cache=False)
    render_view(view)
    assert "label" not in view.layer_vertex_counts()
    cam.zoom = 1.6
    shown = render_view(view)
    want = mapgeom.build_labels(m, view.looks, WORLD_LAYOUT, view.atlas).vertex_count
    assert want > 0 and view.layer_vertex_counts()["label"] == want
    cam.zoom = 0.2  # hidden again, but kept: zooming back in builds nothing
    render_view(view)
    first = view.vertex_lists("label")[0]
    cam.zoom = 1.6
    assert np.array_equal(render_view(view), shown)
    assert view.vertex_lists("label")[0] is first
    view.delete()


def test_labels_off_builds_no_labels_even_zoomed_in(win):
    m = BattleMap.new(4, 3)
    view = MapView(m, win, camera=Camera(viewport=(320, 240), zoom=1.6), show_labels=False)
    render_view(view)
    assert "label" not in view.layer_vertex_counts()
    view.show_labels = True
    render_view(view)
    assert view.layer_vertex_counts()["label"] > 0
    view.delete()


@pytest.mark.parametrize("rows", [1, 37, 128])
def test_an_image_drawn_in_bands_matches_the_single_pass_image(win, rows):
    # Bands go through a viewport shifted by whole pixels: a band placed one row off would
    # change whole rows of hex edges; what remains is float rounding of the shifted
    # viewport on a few anti-aliased edge pixels (llvmpipe: under 0.1 % of the pixels)
    m = _woods_map(12, 9)
    m.set_road(Hex.from_offset(3, 3))
    cam = Camera(viewport=(420, 330))
    cam.fit_map(m.width, m.height)
    view = MapView(m, win, camera=cam, use_cache=False, use_impostor=False)
    whole = render_view(view)
    banded = render_view(view, band_samples=420 * 4 * rows)
    view.delete()
    differ = np.any(whole != banded, axis=2)
    assert differ.sum() <= 0.001 * differ.size
    # every hex centre (terrain colour, R2.4 looks) is exactly the same
    for h in m.hexes():
        x, y = cam.hex_center_screen(h)
        r = whole.shape[0] - 1 - int(y)
        assert np.array_equal(whole[r, int(x)], banded[r, int(x)]), h.label


def test_a_large_zone_loads_once_per_hex_in_first_seen_order(tmp_path):
    # deploy zone specs may overlap: each hex is listed once, where it first appears
    m = BattleMap.new(40, 30)
    path = tmp_path / "m.json"
    m.save(str(path))
    import json

    data = json.loads(path.read_text())
    data["deploy"] = {"german": ["A01:T30", "B02", "S01:T30", "U05"]}
    path.write_text(json.dumps(data))
    got = BattleMap.load(str(path)).deploy["german"]
    want = [Hex.from_offset(c, r) for c in range(20) for r in range(30)] + [Hex.from_offset(20, 4)]
    assert list(got) == want
    assert len(set(got)) == len(got) == 20 * 30 + 1


def test_ground_colours_follow_a_paint_stroke_after_upload(win):
    looks = default_looks()
    m = BattleMap.new(5, 4)
    cam = Camera(viewport=(300, 220))
    cam.fit_map(m.width, m.height)
    view = MapView(m, win, camera=cam, use_cache=False)
    render_view(view)  # uploaded
    ground = view.vertex_lists("ground")[0]
    h = Hex.from_offset(1, 2)
    m.set_terrain(h, "water")
    img = render_view(view)
    assert view.vertex_lists("ground")[0] is ground
    x, y = cam.hex_center_screen(h)
    px = tuple(int(v) for v in img[img.shape[0] - 1 - int(y), int(x), :3])
    want = looks.ground_colour("water", 0)[:3]
    assert max(abs(a - b) for a, b in zip(px, want, strict=True)) <= 3
    view.delete()


def test_a_static_mesh_made_before_any_draw_uploads_at_its_first_draw(win):
    # a view may be built with no GL context current (a play window's new game): the mesh
    # keeps its arrays, takes colour writes, and moves into GL when first drawn
    from hexwar.render.gpu import colour_program, upload_static

    m = BattleMap.new(3, 2)
    mesh = mapgeom.build_ground(m, default_looks(), WORLD_LAYOUT)
    sm = upload_static(mesh, colour_program())
    assert sm is not None and not sm.uploaded
    red = np.tile(np.array([[255, 0, 0, 255]], dtype=np.uint8), (sm.count, 1))
    sm.write("colors", red)
    with pytest.raises(ValueError, match="colors"):
        sm.write("colors", red[:-1])
    sm.draw_ranges([])  # nothing to draw: nothing uploaded either
    assert not sm.uploaded
    win.switch_to()
    colour_program().use()
    sm.draw()
    colour_program().stop()
    assert sm.uploaded and _buffer_bytes(sm._buffers["colors"][0]) == sm.count * 4
    sm.delete()
    assert not sm.uploaded
