"""Renderer parts that need no GL: camera maths, looks, meshes, road links, ramps, counters, backend."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.errors import HexwarError, ValidationError
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.model.terrain import default_terrain
from hexwar.render import backend
from hexwar.render.camera import WORLD_LAYOUT, Camera, map_bounds
from hexwar.render.counters import CounterView, stack_offsets
from hexwar.render.looks import default_looks, load_looks, looks_from_dict, parse_colour
from hexwar.render.mapgeom import (
    axial_arrays,
    bridge_mask,
    build_contours,
    build_grid,
    build_ground,
    ground_colours,
    hex_centres,
    road_links,
)
from hexwar.render.mesh import Mesh, MeshBuilder
from hexwar.render.overlays import HeatmapOverlay, LosView, heat_values, ramp_colours

pytestmark = pytest.mark.unit

coords = st.floats(min_value=-5000, max_value=5000, allow_nan=False)


# -- camera --------------------------------------------------------------------------------
@given(coords, coords, st.floats(0.05, 6.0), coords, coords)
def test_screen_world_round_trip(x, y, zoom, cx, cy):
    cam = Camera(viewport=(1024, 768), zoom=zoom, center=(cx, cy))
    wx, wy = cam.screen_to_world(x, y)
    sx, sy = cam.world_to_screen(wx, wy)
    assert sx == pytest.approx(x, abs=1e-6 * max(1, abs(x)))
    assert sy == pytest.approx(y, abs=1e-6 * max(1, abs(y)))


@given(st.floats(0, 1024), st.floats(0, 768), st.floats(0.3, 3.0), st.floats(0.1, 4.0))
def test_zoom_at_keeps_the_point_under_the_cursor(x, y, zoom, factor):
    cam = Camera(viewport=(1024, 768), zoom=zoom, center=(100.0, -250.0))
    before = cam.screen_to_world(x, y)
    cam.zoom_at(x, y, factor)
    after = cam.screen_to_world(x, y)
    assert after == pytest.approx(before, abs=1e-6)


def test_zoom_is_clamped_and_pan_moves_with_the_drag():
    cam = Camera(viewport=(800, 600), zoom=1.0)
    cam.zoom_at(400, 300, 1e6)
    assert cam.zoom == cam.max_zoom
    cam.zoom_at(400, 300, 1e-9)
    assert cam.zoom == cam.min_zoom
    cam = Camera(viewport=(800, 600), zoom=2.0, center=(0.0, 0.0))
    wx, wy = cam.screen_to_world(100, 100)
    cam.pan(30, -20)  # drag the map 30 points right, 20 down
    assert cam.world_to_screen(wx, wy) == pytest.approx((130, 80))


def test_view_matrix_matches_world_to_screen():
    cam = Camera(viewport=(640, 480), zoom=1.7, center=(123.0, -45.0))
    m = np.array(cam.view_matrix()).reshape(4, 4).T  # column-major -> row-major
    for wx, wy in ((0.0, 0.0), (300.0, -200.0), (-17.5, 99.0)):
        sx, sy, _, _ = m @ np.array([wx, wy, 0.0, 1.0])
        assert (sx, sy) == pytest.approx(cam.world_to_screen(wx, wy))


def test_map_bounds_contain_every_hex_corner_tightly():
    for w, h in ((1, 1), (2, 3), (7, 5), (10, 10)):
        x0, y0, x1, y1 = map_bounds(w, h)
        m = BattleMap.new(w, h)
        pts = np.array([c for hx in m.hexes() for c in WORLD_LAYOUT.polygon_corners(hx)])
        assert pts[:, 0].min() == pytest.approx(x0) and pts[:, 0].max() == pytest.approx(x1)
        assert pts[:, 1].min() == pytest.approx(y0) and pts[:, 1].max() == pytest.approx(y1)


def test_fit_shows_the_whole_map_and_resize_keeps_the_centre():
    cam = Camera(viewport=(800, 600))
    cam.fit_map(30, 20, margin=0.0)
    x0, y0, x1, y1 = map_bounds(30, 20)
    sx0, sy0 = cam.world_to_screen(x0, y0)
    sx1, sy1 = cam.world_to_screen(x1, y1)
    assert min(sx0, sy0) >= -1e-6 and sx1 <= 800 + 1e-6 and sy1 <= 600 + 1e-6
    assert math.isclose(sx1 - sx0, 800) or math.isclose(sy1 - sy0, 600)
    centre_world = cam.screen_to_world(400, 300)
    zoom = cam.zoom
    cam.resize(1200, 500)
    assert cam.screen_to_world(600, 250) == pytest.approx(centre_world)
    assert cam.zoom == zoom


@pytest.mark.parametrize("ratio", [1.0, 1.25, 2.0])
def test_pick_finds_each_hex_from_its_centre_and_near_its_edges(ratio):
    cam = Camera(viewport=(900, 700), zoom=0.83, center=(400.0, -300.0), pixel_ratio=ratio)
    for h in Hex(3, 2).spiral(4):
        sx, sy = cam.hex_center_screen(h)
        assert cam.pick(sx, sy) == h
        # the hexside lies halfway to each neighbour: 0.9 of the way there is still this hex,
        # 1.1 of the way is the neighbour
        for d in range(1, 7):
            nx, ny = cam.hex_center_screen(h.neighbor(d))
            assert cam.pick(sx + (nx - sx) * 0.45, sy + (ny - sy) * 0.45) == h
            assert cam.pick(sx + (nx - sx) * 0.55, sy + (ny - sy) * 0.55) == h.neighbor(d)
        # framebuffer pixel <-> point conversions agree with the ratio
        px, py = cam.screen_to_pixel(sx, sy)
        assert (px, py) == pytest.approx((sx * ratio, sy * ratio))
        assert cam.pixel_to_screen(px, py) == pytest.approx((sx, sy))
    assert cam.framebuffer_size == (round(900 * ratio), round(700 * ratio))


def test_camera_rejects_bad_sizes():
    with pytest.raises(ValueError, match="viewport"):
        Camera(viewport=(0, 10))
    with pytest.raises(ValueError, match="pixel_ratio"):
        Camera(pixel_ratio=0)
    with pytest.raises(ValueError, match="factor"):
        Camera().zoom_at(0, 0, 0)


# -- looks ---------------------------------------------------------------------------------
def test_every_terrain_type_has_a_look_and_level_shading_lightens():
    looks = default_looks()
    for t in default_terrain().types:
        look = looks.terrain_look(t.key)
        assert (look.pattern == "building") == t.is_building
        assert looks.ground_colour(t.key, 0) == look.fill
    c0 = looks.ground_colour("clear", 0)
    c3 = looks.ground_colour("clear", 3)
    # level 3 is 3 steps toward the tint
    assert c3 == tuple(
        round(a * (1 - 3 * looks.level_step) + b * 3 * looks.level_step)
        for a, b in zip(c0, looks.level_tint, strict=True)
    )


def test_building_styles_are_distinct_by_dr():
    looks = default_looks()
    roofs = {t.dr: looks.terrain_look(t.key).roof for t in default_terrain().types if t.is_building}
    styles = {t.dr: looks.terrain_look(t.key).style for t in default_terrain().types if t.is_building}
    assert styles == {13: "wood", 14: "stone", 15: "reinforced"}
    assert len(set(roofs.values())) == 3


def test_looks_file_problems_are_all_reported(tmp_path):
    bad = tmp_path / "looks.toml"
    bad.write_text(
        'schema_version = 1\n[map]\nbackground = "#12345"\n[terrain.woods]\nfill = "#6f8c55"\n'
        'detail = "#4e6a3b"\npattern = "forest"\n'
    )
    with pytest.raises(ValidationError) as exc:
        load_looks(bad)
    text = str(exc.value)
    assert "map.background" in text and "#12345" in text
    assert "terrain.clear" in text and "missing look" in text
    assert "terrain.woods.pattern" in text and "forest" in text
    assert "side.german" in text


def test_parse_colour_errors_name_the_text():
    assert parse_colour("#ABCDEF") == (171, 205, 239, 255)
    with pytest.raises(ValueError, match="'red'"):
        parse_colour("red")


def test_looks_from_dict_rejects_unknown_terrain_keys():
    import tomllib

    from hexwar.render.looks import looks_path

    data = tomllib.loads(looks_path().read_text())
    data["terrain"]["lava"] = {"fill": "#ff0000", "detail": "#000000"}
    with pytest.raises(ValidationError, match="terrain.lava"):
        looks_from_dict(data, "x.toml", default_terrain())


def test_a_broken_looks_file_lists_every_problem_at_once_with_its_field():
    """The looks model (hexwar/formats/looks_file.py) reports the shape, the reader what the
    model cannot say (a colour's spelling, a building's style, R2.1); one run names them all."""
    import tomllib

    from hexwar.render.looks import looks_path

    data = tomllib.loads(looks_path().read_text())
    data["schema_version"] = 2
    data["map"]["grid_width"] = 0.9
    data["terrain"]["clear"]["pattern"] = "zigzag"
    data["terrain"]["clear"]["road"] = 1
    data["ramps"]["one"] = ["#000000"]
    data["ramps"]["bad"] = ["#000000", "blue"]
    del data["side"]["soviet"]
    building = next(t.key for t in default_terrain().types if t.is_building)
    del data["terrain"][building]["style"]
    data["counter"]["pip"] = "pink"
    with pytest.raises(ValidationError) as err:
        looks_from_dict(data, "x.toml", default_terrain())
    got = {p.where: p.message for p in err.value.problems}
    assert got["schema_version"] == "expected 1, got 2"
    assert got["map.grid_width"] == "expected a number 0.0..0.5, got 0.9"
    assert got["terrain.clear.pattern"].startswith("expected one of ('none', 'trees'")
    assert got["terrain.clear.road"] == "expected true or false, got 1"
    assert got["ramps.one"] == 'expected a list of at least 2 colours, got ["#000000"]'
    assert "'blue'" in got["ramps.bad[1]"]
    assert got["side.soviet"].startswith("missing")
    assert got[f"terrain.{building}.style"].startswith(f"missing; {building} is a building")
    assert "'pink'" in got["counter.pip"]
    assert len(err.value.problems) == 9, err.value.problems


# -- meshes --------------------------------------------------------------------------------
def test_mesh_builder_and_concat_offsets_indices():
    b = MeshBuilder()
    b.rect(0, 0, 1, 1, (1, 2, 3, 4))
    b.circle(5, 5, 1, (9, 9, 9, 255), segments=8)
    m = b.build()
    assert m.vertex_count == 4 + 8
    assert m.indices.size == 6 + 3 * 6
    both = Mesh.concat([m, m])
    assert both.vertex_count == 24
    assert both.indices[len(m.indices) :].min() == 12
    assert int(both.indices.max()) == 23


def test_instanced_rotates_scales_and_offsets():
    b = MeshBuilder()
    b.polygon([(1, 0), (0, 1), (-1, 0)], (0, 0, 0, 255))
    m = b.build().instanced(
        np.array([[10.0, 0.0]]), rotations=np.array([math.pi / 2]), scales=np.array([2.0])
    )
    assert m.positions[0] == pytest.approx((10.0, 2.0), abs=1e-5)
    assert m.positions[1] == pytest.approx((8.0, 0.0), abs=1e-5)


def test_ground_mesh_has_seven_vertices_per_hex_with_exact_centre_colours():
    m = BattleMap.new(5, 4, fill="woods")
    m.set_terrain(Hex.from_offset(2, 1), "water")
    m.set_level(Hex.from_offset(2, 1), 2)
    looks = default_looks()
    g = build_ground(m, looks, WORLD_LAYOUT)
    assert g.vertex_count == 7 * 20 and g.indices.size == 18 * 20
    cols = ground_colours(m, looks).reshape(4, 5, 7, 4)
    assert tuple(cols[1, 2, 0]) == looks.ground_colour("water", 2)
    assert tuple(cols[0, 0, 0]) == looks.ground_colour("woods", 0)
    x, y = hex_centres(5, 4, WORLD_LAYOUT)
    pos = g.positions.reshape(4, 5, 7, 2)
    for col, row in ((0, 0), (3, 2), (4, 3)):
        assert tuple(pos[row, col, 0]) == pytest.approx(WORLD_LAYOUT.hex_to_pixel(Hex.from_offset(col, row)))
        assert (x[row, col], y[row, col]) == pytest.approx(
            WORLD_LAYOUT.hex_to_pixel(Hex.from_offset(col, row))
        )


def test_axial_arrays_follow_odd_q_offsets():
    q, r = axial_arrays(6, 5)
    for col in range(6):
        for row in range(5):
            assert Hex(int(q[row, col]), int(r[row, col])) == Hex.from_offset(col, row)


def test_contours_only_between_different_levels_and_grid_counts_each_side_once():
    looks = default_looks()
    flat = BattleMap.new(4, 4)
    assert build_contours(flat, looks, WORLD_LAYOUT).vertex_count == 0
    hill = flat.copy()
    hill.set_level(Hex.from_offset(1, 1), 1)
    # an interior hex raised one level has 6 hexsides with lower neighbours: 6 quads
    assert build_contours(hill, looks, WORLD_LAYOUT).vertex_count == 6 * 4
    # grid of a W x H odd-q map: interior hexsides once + border hexsides
    w, h = 4, 4
    g = build_grid(flat, looks, WORLD_LAYOUT)
    sides = set()
    for hx in flat.hexes():
        for n in hx.neighbors():
            sides.add(frozenset((hx, n)))
    assert g.vertex_count == 4 * len(sides)
    assert w * h > 0


road_masks = st.integers(0, 2**30 - 1).map(
    lambda v: np.array([(v >> i) & 1 for i in range(30)], dtype=bool).reshape(5, 6)
)


@settings(max_examples=200, deadline=None)
@given(road_masks)
def test_road_links_leave_no_triangles_and_keep_every_road_connected(mask):
    links = road_links(mask)
    height, width = mask.shape
    edges = set()
    for d in range(1, 7):
        rr, cc = np.nonzero(links[d])
        for r0, c0 in zip(rr, cc, strict=True):
            assert mask[r0, c0]
            h0 = Hex.from_offset(int(c0), int(r0))
            n = h0.neighbor(d)
            ncol, nrow = n.offset
            assert 0 <= ncol < width and 0 <= nrow < height and mask[nrow, ncol]
            # links are symmetric
            back = (d + 2) % 6 + 1
            assert links[back][nrow, ncol]
            edges.add(frozenset((h0, n)))
    adj: dict[Hex, set[Hex]] = {}
    for e in edges:
        a, b = tuple(e)
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    for a, ns in adj.items():
        for b in ns:
            assert not (adj[a] & adj[b]), f"triangle through {a.label} {b.label}"

    # same connected components as plain adjacency
    def components(neigh):
        seen, comps = set(), []
        for rr, cc in zip(*np.nonzero(mask), strict=True):
            s = Hex.from_offset(int(cc), int(rr))
            if s in seen:
                continue
            stack, comp = [s], set()
            while stack:
                x = stack.pop()
                if x in comp:
                    continue
                comp.add(x)
                stack.extend(neigh(x))
            seen |= comp
            comps.append(frozenset(comp))
        return set(comps)

    def plain(x):
        out = []
        for n in x.neighbors():
            c, r = n.offset
            if 0 <= c < width and 0 <= r < height and mask[r, c]:
                out.append(n)
        return out

    assert components(plain) == components(lambda x: adj.get(x, ()))


# -- overlays without GL -------------------------------------------------------------------
def test_ramp_colours_interpolate_between_evenly_spaced_stops():
    stops = ((0, 0, 0, 255), (100, 0, 0, 255), (100, 200, 0, 255))
    out = ramp_colours(np.array([-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 2.0, np.nan]), stops, 0.0, 1.0)
    assert out[:, :3].tolist() == [
        [0, 0, 0],
        [0, 0, 0],
        [50, 0, 0],
        [100, 0, 0],
        [100, 100, 0],
        [100, 200, 0],
        [100, 200, 0],
        [0, 0, 0],
    ]
    assert ramp_colours(np.array([3.0, 3.0]), stops, 3.0, 3.0)[:, 0].tolist() == [0, 0]


def test_heat_values_accept_dicts_and_row_col_arrays():
    m = BattleMap.new(4, 3)
    arr = np.arange(12, dtype=float).reshape(3, 4)
    d = {h: arr[h.offset[1], h.offset[0]] for h in m.hexes()}
    assert np.array_equal(heat_values(d, m), arr)
    assert np.array_equal(heat_values(arr, m), arr)
    part = heat_values({Hex.from_label("B02"): 0.5}, m)
    assert part[1, 1] == 0.5 and np.isnan(part).sum() == 11
    with pytest.raises(HexwarError, match=r"shape \(4, 3\).*\(3, 4\)"):
        heat_values(arr.T, m)
    with pytest.raises(HexwarError, match="not on the 4x3 map"):
        heat_values({Hex.from_label("Z09"): 1.0}, m)
    ov = HeatmapOverlay(arr, vmin=None, vmax=20.0)
    assert ov.range(arr) == (0.0, 20.0)
    with pytest.raises(HexwarError, match="unknown colour ramp 'plasma'"):
        HeatmapOverlay(arr, ramp="plasma").stops(default_looks())


def test_los_view_checks_its_result():
    with pytest.raises(HexwarError, match="LOS result"):
        LosView(Hex(0, 0), Hex(2, 0), "maybe")
    lv = LosView(Hex(0, 0), Hex(2, 0), "blocked", intervening=[Hex(1, 0)], blocking=[Hex(1, 0)])
    assert lv.intervening == (Hex(1, 0),)


# -- counters ------------------------------------------------------------------------------
def test_counter_view_validates_its_fields():
    ok = CounterView(Hex(0, 0), "german", "gun", "Pak 40", 3, 4, quality=1)
    assert ok.quality_pips == 3 and ok.endurance_fraction == 0.75
    assert CounterView(Hex(0, 0), "soviet", "infantry", quality="green").quality_pips == 1
    assert CounterView(Hex(0, 0), "soviet", "infantry", quality=0).quality_pips == 2
    with pytest.raises(HexwarError, match="side"):
        CounterView(Hex(0, 0), "italian", "infantry")
    with pytest.raises(HexwarError, match="unit type"):
        CounterView(Hex(0, 0), "german", "cavalry")
    with pytest.raises(HexwarError, match="quality"):
        CounterView(Hex(0, 0), "german", "infantry", quality="elite")
    with pytest.raises(HexwarError, match="endurance"):
        CounterView(Hex(0, 0), "german", "infantry", endurance=-1)
    with pytest.raises(HexwarError, match="endurance"):
        CounterView(Hex(0, 0), "german", "infantry", endurance=1, endurance_max=0)


def test_stack_offsets_are_centred_and_climb_up_right():
    offs = stack_offsets(3, 32.0)
    assert offs[1] == (0.0, 0.0)
    assert offs[2][0] > 0 and offs[2][1] > 0 and offs[0] == (-offs[2][0], -offs[2][1])


# -- backend -------------------------------------------------------------------------------
def test_display_detection_reads_the_environment():
    assert backend.display_available({"DISPLAY": ":1"}, platform="linux")
    assert backend.display_available({"WAYLAND_DISPLAY": "wayland-0"}, platform="linux")
    assert not backend.display_available({"DISPLAY": ""}, platform="linux")
    assert backend.display_available({}, platform="win32")


def _run(code: str, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "HEXWAR_HEADLESS")}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=60
    )


def test_no_display_gives_one_clear_sentence_and_headless_works():
    r = _run(
        """
        import sys
        from hexwar.render import backend
        try:
            backend.configure(False)
        except backend.NoDisplayError as e:
            print("ERR", e)
        try:
            backend.require_display()
        except backend.NoDisplayError as e:
            print("ERR", e)
        print("headless", backend.configure(None))
        print("gl loaded", "pyglet.gl" in sys.modules)
    """,
        {},
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "ERR no display available; use --headless"
    assert lines[1] == "ERR no display available; use --headless"
    assert lines[2] == "headless True"
    assert lines[3] == "gl loaded False"


def test_importing_the_render_package_loads_no_gl():
    r = _run(
        """
        import sys
        import hexwar.render, hexwar.render.looks, hexwar.render.camera, hexwar.render.counters
        import hexwar.render.overlays, hexwar.render.mapgeom, hexwar.cli.render
        print("pyglet.gl" in sys.modules, "pyglet.window" in sys.modules)
    """,
        {},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False False"


def test_auto_configure_keeps_the_mode_chosen_before_gl_loaded():
    r = _run(
        """
        from hexwar.render import backend
        print(backend.configure(True))
        import pyglet.gl  # GL loads headless
        print(backend.configure(None))
        try:
            backend.configure(False)
        except backend.NoDisplayError as e:
            print("ERR", e)
    """,
        {"DISPLAY": ":99"},
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:2] == ["True", "True"]
    assert lines[2].startswith("ERR no display available; use --headless")


def test_camera_fit_into_an_area_between_panels_centres_and_fits_the_rect():
    # A 1000x600 viewport with panels: the map must fill the free area (100..700, 50..550).
    from hexwar.render.camera import Camera

    cam = Camera(viewport=(1000, 600), zoom=1.0, center=(0.0, 0.0))
    rect, area = (-30.0, -20.0, 90.0, 40.0), (100.0, 50.0, 700.0, 550.0)
    cam.fit(rect, margin=0.0, area=area)
    assert cam.zoom == 5.0  # min(600 / 120, 500 / 60)
    assert cam.world_to_screen(30.0, 10.0) == (400.0, 300.0)  # rect centre at the area's centre
    (sx0, sy0), (sx1, sy1) = cam.world_to_screen(-30.0, -20.0), cam.world_to_screen(90.0, 40.0)
    assert area[0] <= sx0 < sx1 <= area[2] and area[1] <= sy0 < sy1 <= area[3]


def river_map() -> BattleMap:
    """A one-hex river down column D crossed by a road along row 3 (D03 is road terrain, the
    R2.4 bridge convention), and a road along the river's east bank at E05-E06."""
    m = BattleMap.new(7, 6, name="river")
    for row in range(6):
        m.set_terrain(Hex.from_offset(3, row), "water")
    m.set_terrain(Hex.from_offset(3, 2), "road")  # D03: the bridge hex
    for col in (0, 1, 2, 4, 5, 6):
        m.set_road(Hex.from_offset(col, 2))
    m.set_road(Hex.from_offset(4, 4))  # E05 and E06: along the bank, water on their west only
    m.set_road(Hex.from_offset(4, 5))
    return m


def bridge_labels(m: BattleMap) -> set[str]:
    rr, cc = np.nonzero(bridge_mask(m, default_looks()))
    return {Hex.from_offset(int(c), int(r)).label for r, c in zip(rr, cc, strict=True)}


def test_a_road_across_a_one_hex_river_is_a_bridge_and_a_road_along_the_bank_is_not():
    # R2.4: D03 has water north (D02) and south (D04) of a road running C03-D03-E03; C03 and
    # E03 touch one water hex each, E05/E06 have two water neighbours but both west of the road
    m = river_map()
    assert bridge_labels(m) == {"D03"}


def test_a_road_hex_with_no_water_is_not_a_bridge():
    m = river_map()
    for row in range(6):
        m.set_terrain(Hex.from_offset(3, row), "clear")
    m.set_terrain(Hex.from_offset(3, 2), "road")
    assert bridge_labels(m) == set()


def test_a_two_hex_wide_river_gives_a_two_hex_bridge():
    m = river_map()
    for row in (4, 5):  # the bank road goes: column E becomes river too
        m.set_road(Hex.from_offset(4, row), False)
    for row in range(6):
        m.set_terrain(Hex.from_offset(4, row), "water")
    m.set_terrain(Hex.from_offset(4, 2), "road")  # E03 crosses too
    assert bridge_labels(m) == {"D03", "E03"}


def test_the_suite_runs_headless_unless_asked_for_a_display():
    """Issue 36: with a display attached the suite must behave as without one (conftest.py)."""
    if os.environ.get("HEXWAR_TEST_DISPLAY", "").strip().lower() in ("1", "true", "yes", "on"):
        pytest.skip("HEXWAR_TEST_DISPLAY asks for real windows")
    assert not backend.display_available()
    assert os.environ.get("HEXWAR_HEADLESS") == "1"
