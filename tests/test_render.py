"""Rendered images checked by pixels, headless over EGL (issue 7's renderer tests).

One hidden GL window serves the whole module. Expected colours are read back from the looks
file (``assets/terrain_looks.toml``) through :class:`hexwar.render.looks.Looks`.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.render import backend

backend.configure(None)

from hexwar.model.terrain import default_terrain  # noqa: E402
from hexwar.render.camera import Camera  # noqa: E402
from hexwar.render.counters import COUNTER_SIZE, CounterView  # noqa: E402
from hexwar.render.looks import RGBA, default_looks, mix, with_alpha  # noqa: E402
from hexwar.render.mapview import MapView  # noqa: E402
from hexwar.render.offscreen import hidden_window, read_window, render_map, render_view  # noqa: E402
from hexwar.render.overlays import HeatmapOverlay, HighlightOverlay, LosOverlay, LosView, ReachOverlay  # noqa: E402

pytestmark = pytest.mark.ui

TOL = 3  # per channel, 0-255


@pytest.fixture(scope="module")
def win():
    return hidden_window()


@pytest.fixture(scope="module")
def looks():
    return default_looks()


def terrain_map() -> BattleMap:
    """Every terrain type in its own column, levels 0-3 down the rows, a road and rubble."""
    keys = [t.key for t in default_terrain().types]
    m = BattleMap.new(len(keys), 4, name="all terrain")
    for col, key in enumerate(keys):
        for row in range(4):
            h = Hex.from_offset(col, row)
            m.set_terrain(h, key)
            m.set_level(h, (row + col) % 4)
    m.set_road(Hex.from_offset(0, 2))
    m.set_road(Hex.from_offset(0, 3))
    stone = keys.index("stone_building")
    m.set_rubble(Hex.from_offset(stone, 1))
    return m


def pixel(img: np.ndarray, cam: Camera, sx: float, sy: float) -> tuple[int, ...]:
    """Image pixel (RGB) under screen point (sx, sy) (points, y up)."""
    px, py = cam.screen_to_pixel(sx, sy)
    row = img.shape[0] - 1 - int(py)
    return tuple(int(v) for v in img[row, int(px), :3])


def close(a: tuple[int, ...], b: RGBA | tuple[int, ...], tol: int = TOL) -> bool:
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def expected_centre(m: BattleMap, h: Hex, looks) -> RGBA:
    row, col = m.index(h)
    return looks.centre_colour(
        m.terrain_at(h).key,
        int(m.level[row, col]),
        road=bool(m.road[row, col]),
        rubble=bool(m.rubble[row, col]),
    )


def fitted_camera(m: BattleMap, size=(820, 360), ratio=1.0) -> Camera:
    cam = Camera(viewport=size, pixel_ratio=ratio)
    cam.fit_map(m.width, m.height)
    return cam


def test_each_hex_centre_shows_its_terrain_colour(win, looks):
    m = terrain_map()
    cam = fitted_camera(m)
    assert cam.zoom > 1.3  # big enough that patterns and buildings keep clear of the centre
    view = MapView(m, win, camera=cam)
    img = render_view(view)
    view.delete()
    expected = {h: expected_centre(m, h, looks) for h in m.hexes()}
    assert len(set(expected.values())) >= 20  # the test tells terrains and levels apart
    wrong = []
    for h, want in expected.items():
        got = pixel(img, cam, *cam.hex_center_screen(h))
        if not close(got, want):
            wrong.append(f"{h.label} {m.terrain_at(h).key} L{m.level_at(h)}: got {got}, expected {want[:3]}")
    assert not wrong, "\n".join(wrong)


def test_hex_centres_are_not_confused_with_their_neighbours(looks):
    # the colours the test above compares are far enough apart to catch a shifted hex
    m = terrain_map()
    for h in m.hexes():
        for n in m.neighbors(h):
            a, b = expected_centre(m, h, looks), expected_centre(m, n, looks)
            if m.terrain_at(h) != m.terrain_at(n) and not (m.road[m.index(h)] or m.road[m.index(n)]):
                assert not close(a, b), (h.label, n.label)


def test_unit_counter_is_drawn_above_terrain_regardless_of_creation_order(win, looks):
    m = BattleMap.new(6, 4)
    h = Hex.from_offset(2, 1)
    cam = Camera(viewport=(400, 300), zoom=2.0)
    cam.center_on(h)
    view = MapView(m, win, camera=cam)
    view.set_counters([CounterView(h, "soviet", "vehicle", "T-34", 6, 6)])
    # terrain and features created after the counter
    m.set_terrain(h, "stone_building")
    m.add_wreck(h, "de-1")
    cx, cy = cam.hex_center_screen(h)
    side = COUNTER_SIZE * view.layout.size * cam.zoom
    symbol_centre = (cx, cy + 0.09 * side)  # the paper of the vehicle symbol box
    bar_left = (cx - 0.3 * side, cy - 0.405 * side)  # the endurance bar, over the wreck counter
    img = render_view(view)
    sov = looks.side("soviet")
    assert close(pixel(img, cam, *symbol_centre), sov.symbol_fill)
    assert close(pixel(img, cam, *bar_left), looks.counter["endurance_full"])
    # without the counter the same pixels show the building and the wreck
    view.set_counters([])
    bare = render_view(view)
    assert close(pixel(bare, cam, *symbol_centre), looks.terrain_look("stone_building").roof)
    assert not close(pixel(bare, cam, *bar_left), looks.counter["endurance_full"])
    view.delete()


def _build_view(win, m: BattleMap, cam: Camera) -> MapView:
    view = MapView(m, win, camera=cam)
    view.set_counters(
        [
            CounterView(Hex.from_offset(1, 1), "german", "infantry", "Gren", 3, 6, True, "veteran"),
            CounterView(Hex.from_offset(1, 1), "german", "vehicle", "Pz IV", 6, 6),
        ]
    )
    view.set_overlay("reach", ReachOverlay({Hex.from_offset(2, 1): 1, Hex.from_offset(3, 1): 2}))
    view.set_overlay(
        "heat", HeatmapOverlay({Hex.from_offset(0, 0): 1.0, Hex.from_offset(0, 1): 0.0}, title="test")
    )
    return view


def test_nothing_vanishes_after_garbage_collection(win):
    m = terrain_map()
    cam = fitted_camera(m, (500, 260))
    reference = _build_view(win, m, Camera(viewport=cam.viewport, zoom=cam.zoom, center=cam.center))
    before = render_view(reference)
    reference.delete()
    view = _build_view(win, m, cam)
    for _ in range(3):
        gc.collect()
    after = render_view(view)
    gc.collect()
    again = render_view(view)
    view.delete()
    assert np.array_equal(before, after)
    assert np.array_equal(before, again)
    # and the image really holds counters, labels and the legend
    g = default_looks().side("german").fill
    assert (np.abs(after[..., :3].astype(int) - g[:3]).sum(axis=2) <= 3).sum() > 50
    assert (
        np.abs(after[..., :3].astype(int) - default_looks().overlay["legend_back"][:3]).sum(axis=2) <= 6
    ).sum() > 500


def test_resize_keeps_the_map_anchored(win, looks):
    m = terrain_map()
    cam = Camera(viewport=(420, 300), zoom=1.4)
    cam.center_on(Hex.from_offset(5, 2))
    view = MapView(m, win, camera=cam)
    img1 = render_view(view)
    mid1 = view.hex_at(210, 150)
    probe = Hex.from_offset(3, 1)
    off1 = np.subtract(cam.hex_center_screen(probe), (210, 150))
    view.resize(640, 380)  # what on_resize calls
    img2 = render_view(view)
    mid2 = view.hex_at(320, 190)
    off2 = np.subtract(cam.hex_center_screen(probe), (320, 190))
    view.delete()
    assert mid1 == mid2 == Hex.from_offset(5, 2)
    assert off1 == pytest.approx(off2)  # same place relative to the centre: no jump, no stretch
    assert img2.shape[:2] == (380, 640)
    for img, (w, h) in ((img1, (420, 300)), (img2, (640, 380))):
        c = Camera(viewport=(w, h), zoom=1.4, center=cam.center)
        for hx in (mid1, probe):
            assert close(pixel(img, c, *c.hex_center_screen(hx)), expected_centre(m, hx, looks))


@pytest.mark.parametrize("ratio", [1.0, 1.25, 2.0])
def test_click_at_a_hex_centre_picks_that_hex(win, looks, ratio):
    m = terrain_map()
    cam = fitted_camera(m, (380, 170), ratio)
    view = MapView(m, win, camera=cam)
    img = render_view(view)
    assert img.shape[:2] == (round(170 * ratio), round(380 * ratio))
    for h in m.hexes():
        x, y = cam.hex_center_screen(h)
        assert view.hex_at(x, y) == h  # the click (window points) picks the hex ...
        # ... whose colour the framebuffer shows at that point
        assert close(pixel(img, cam, x, y), expected_centre(m, h, looks), tol=6), (h.label, ratio)
    assert view.hex_at(-5, -5) is None
    view.delete()


def _window_and_offscreen(
    m: BattleMap, samples: int, looks, use_cache: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    from pyglet import gl
    from pyglet.window import Window

    cfg = (
        gl.Config(double_buffer=True, sample_buffers=1, samples=samples, alpha_size=8)
        if samples > 1
        else gl.Config(double_buffer=True, alpha_size=8)
    )
    try:
        w = Window(300, 200, visible=False, config=cfg)
    except Exception:
        pytest.skip(f"no window config with {samples} samples here")
    try:
        cam = fitted_camera(m, (300, 200))
        view = MapView(m, w, camera=cam, use_cache=use_cache)
        view.set_counters([CounterView(Hex.from_offset(2, 2), "soviet", "gun", "ZiS-3", 2, 4)])
        view.set_overlay("reach", ReachOverlay({Hex.from_offset(3, 1): 2}))
        w.switch_to()
        bg = looks.map["background"]
        gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
        for _ in range(2):  # what on_draw does, until the view's cache has settled
            w.clear()
            view.draw()
        shown = read_window(w)
        offscreen = render_view(view, samples=samples)
        view.delete()
    finally:
        w.close()
    return shown, offscreen


@pytest.mark.parametrize("samples,use_cache", [(1, True), (4, True), (1, False)])
def test_offscreen_image_is_identical_to_the_window(looks, samples, use_cache):
    m = terrain_map()
    shown, offscreen = _window_and_offscreen(m, samples, looks, use_cache)
    assert shown.shape == offscreen.shape == (200, 300, 4)
    assert np.array_equal(shown, offscreen)


def test_multisampled_direct_drawing_matches_the_window_up_to_edge_smoothing(looks):
    # Drawn directly (no cache) with 4x multisampling, Mesa's EGL pbuffer (the headless
    # "window") and the offscreen renderbuffer place their samples differently, so
    # anti-aliased edge pixels differ a little; everything else is the same picture.
    m = terrain_map()
    shown, offscreen = _window_and_offscreen(m, 4, looks, use_cache=False)
    _, aliased = _window_and_offscreen(m, 1, looks, use_cache=False)
    diff = np.abs(shown.astype(int) - offscreen.astype(int))[..., :3]
    assert np.any(offscreen != aliased)  # multisampling really smooths the offscreen image
    assert np.mean(np.all(diff == 0, axis=2)) > 0.9
    assert diff.mean() < 1.5


def test_heatmap_colours_hexes_and_draws_a_legend(win, looks):
    m = BattleMap.new(6, 5)
    vals = np.full((5, 6), np.nan)
    vals[2, 2] = 10.0
    vals[2, 3] = 0.0
    vals[1, 2] = 5.0
    cam = Camera(viewport=(600, 400), zoom=1.2)
    cam.center_on(Hex.from_offset(2, 2))
    ov = HeatmapOverlay(vals, ramp="heat", title="P(fire)")
    img = render_map(m, size=(600, 400), camera=cam, overlays={"heat": ov}, show_labels=False)
    stops = looks.ramp("heat")
    alpha = looks.overlay_numbers["heat_alpha"]
    ground = looks.ground_colour("clear", 0)

    def over(c):
        return tuple(round(a * alpha + g * (1 - alpha)) for a, g in zip(c[:3], ground[:3], strict=True))

    top, bottom = Hex.from_offset(2, 2), Hex.from_offset(3, 2)
    assert close(pixel(img, cam, *cam.hex_center_screen(top)), over(stops[-1]))
    assert close(pixel(img, cam, *cam.hex_center_screen(bottom)), over(stops[0]))
    assert close(pixel(img, cam, *cam.hex_center_screen(Hex.from_offset(2, 1))), over(stops[len(stops) // 2]))
    assert close(pixel(img, cam, *cam.hex_center_screen(Hex.from_offset(0, 0))), ground)  # NaN: untouched
    # the legend sits in the bottom-right corner: its gradient runs from the first stop to the last
    legend = img[-120:, -300:, :3].reshape(-1, 3).astype(int)
    for stop in (stops[0], stops[-1]):
        assert (np.abs(legend - stop[:3]).sum(axis=1) <= 9).any()
    # the same values given as a dict draw the same image
    as_dict = {
        Hex.from_offset(c, r): vals[r, c] for r in range(5) for c in range(6) if np.isfinite(vals[r, c])
    }
    img2 = render_map(
        m,
        size=(600, 400),
        camera=cam,
        overlays={"heat": HeatmapOverlay(as_dict, title="P(fire)")},
        show_labels=False,
    )
    assert np.array_equal(img, img2)


def test_a_heatmap_wash_pales_only_the_hexes_without_a_value(win, looks):
    """``wash``: a pale neutral wash at that opacity over the unvalued hexes (so the map's own
    wheat and brush are not read as ramp values); the valued hexes are drawn as without it."""
    m = BattleMap.new(6, 5)
    vals = np.full((5, 6), np.nan)
    vals[2, 2] = 10.0
    cam = Camera(viewport=(600, 400), zoom=1.2)
    cam.center_on(Hex.from_offset(2, 2))

    def draw(wash: float) -> np.ndarray:
        ov = HeatmapOverlay(vals, ramp="heat", title="P(fire)", wash=wash)
        return render_map(m, size=(600, 400), camera=cam, overlays={"heat": ov}, show_labels=False)

    plain, washed = draw(0.0), draw(0.6)
    ground = looks.ground_colour("clear", 0)
    pale = (236, 236, 232)
    valued, empty = Hex.from_offset(2, 2), Hex.from_offset(0, 0)
    at = cam.hex_center_screen
    assert close(pixel(washed, cam, *at(valued)), pixel(plain, cam, *at(valued)))
    assert close(pixel(plain, cam, *at(empty)), ground)
    want = tuple(round(0.6 * p + 0.4 * g) for p, g in zip(pale, ground[:3], strict=True))
    assert close(pixel(washed, cam, *at(empty)), want)


def test_los_overlay_marks_blocking_and_hindering_hexes(win, looks):
    m = BattleMap.new(8, 5)
    a, b = Hex.from_offset(1, 2), Hex.from_offset(6, 2)
    hind, block = Hex.from_offset(3, 2), Hex.from_offset(4, 2)
    lv = LosView(
        a,
        b,
        "blocked",
        intervening=(Hex.from_offset(2, 2), hind, block, Hex.from_offset(5, 2)),
        hindering=(hind,),
        blocking=(block,),
        reason="blocked by woods in E03",
    )
    cam = fitted_camera(m, (560, 330))
    base = render_map(m, size=(560, 330), camera=cam, show_labels=False)
    img = render_map(m, size=(560, 330), camera=cam, overlays={"los": LosOverlay(lv)}, show_labels=False)
    s = 32 * cam.zoom

    def washed(h: Hex, dx: float, dy: float, key: str) -> None:
        x, y = cam.hex_center_screen(h)
        under = pixel(base, cam, x + dx * s, y + dy * s)
        want = mix((*under, 255), with_alpha(looks.overlay[key], 1.0), 0.35)
        assert close(pixel(img, cam, x + dx * s, y + dy * s), want, tol=3), (h.label, key)

    # points away from the line and the rings: an amber wash on the hindrance, red on the block
    washed(hind, 0.0, -0.45, "los_hindered")
    washed(block, -0.3, 0.4, "los_blocked")
    # a plain intervening hex is not washed
    x, y = cam.hex_center_screen(Hex.from_offset(5, 2))
    assert pixel(img, cam, x - 0.3 * s, y + 0.4 * s) == pixel(base, cam, x - 0.3 * s, y + 0.4 * s)
    # the line from the firer is drawn in the "blocked" colour
    x0, y0 = cam.hex_center_screen(a)
    x1, y1 = cam.hex_center_screen(b)
    t = 0.12
    assert close(pixel(img, cam, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), looks.overlay["los_blocked"], tol=6)


def test_painting_a_hex_recolours_the_single_ground_list_in_place(win, looks):
    m = BattleMap.new(5, 4)
    cam = fitted_camera(m, (300, 220))
    view = MapView(m, win, camera=cam)
    assert view.vertex_list_count("ground") == 1
    assert view.layer_vertex_counts()["ground"] == 7 * 5 * 4
    ground_list = view.vertex_lists("ground")[0]
    h = Hex.from_offset(2, 2)
    m.set_terrain(h, "water")
    m.set_level(h, 2)
    img = render_view(view)
    assert view.vertex_lists("ground")[0] is ground_list  # recoloured, not rebuilt
    assert close(pixel(img, cam, *cam.hex_center_screen(h)), looks.ground_colour("water", 2))
    assert close(
        pixel(img, cam, *cam.hex_center_screen(Hex.from_offset(1, 1))), looks.ground_colour("clear", 0)
    )
    # a contour now rings the raised hex: pixels just inside its hexsides show the contour colour
    assert view.layer_vertex_counts()["contour"] == 6 * 4
    view.delete()


def test_labels_and_grid_toggle(win):
    m = BattleMap.new(4, 3)
    cam = Camera(viewport=(320, 240), zoom=1.6)
    cam.center_on(Hex.from_offset(1, 1))
    view = MapView(m, win, camera=cam)
    with_labels = render_view(view)
    view.show_labels = False
    without = render_view(view)
    view.show_labels = True
    back = render_view(view)
    view.show_grid = False
    no_grid = render_view(view)
    view.delete()
    assert np.array_equal(with_labels, back)
    changed = np.any(with_labels != without, axis=2)
    assert changed.sum() > 100
    # labels sit in the top part of each hex, never at its centre
    cx, cy = cam.hex_center_screen(Hex.from_offset(1, 1))
    row = with_labels.shape[0] - 1 - int(cy)
    assert not changed[row - 5 : row + 5, int(cx) - 5 : int(cx) + 5].any()
    assert np.any(with_labels != no_grid)


def test_labels_hide_when_too_small_to_read(win):
    m = BattleMap.new(4, 3)
    cam = Camera(viewport=(200, 150), zoom=0.2)
    view = MapView(m, win, camera=cam)
    a = render_view(view)
    view.show_labels = False
    b = render_view(view)
    view.delete()
    assert np.array_equal(a, b)


def test_highlight_ring_draws_above_counters(win, looks):
    m = BattleMap.new(4, 3)
    h = Hex.from_offset(1, 1)
    cam = Camera(viewport=(300, 240), zoom=2.0)
    cam.center_on(h)
    view = MapView(m, win, camera=cam)
    view.set_overlay("targets", HighlightOverlay([h], colour="target"))
    view.set_counters([CounterView(h, "german", "infantry", "Gren")])  # created after the overlay
    img = render_view(view)
    view.delete()
    x, y = cam.hex_center_screen(h)
    # a point on the ring (just inside the hexside, due north), where the counter also lies
    s = 32 * cam.zoom
    ring_y = y + (0.866 * 0.96 - 0.045) * s
    assert close(pixel(img, cam, x, ring_y), looks.overlay["target"], tol=6)


def test_cli_render_writes_a_png_of_the_requested_size(tmp_path, win, capsys):
    from PIL import Image

    from hexwar.cli import main

    m = terrain_map()
    mp = tmp_path / "t.json"
    m.save(mp)
    out = tmp_path / "t.png"
    assert main(["render", str(mp), "--out", str(out), "--size", "320x180"]) == 0
    assert "wrote" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.size == (320, 180) and im.mode == "RGB"
    out2 = tmp_path / "t2.png"
    assert main(["render", str(mp), "--out", str(out2), "--size", "160x90", "--pixel-ratio", "2"]) == 0
    with Image.open(out2) as im:
        assert im.size == (320, 180)
    assert main(["render", str(mp), "--out", str(out), "--size", "big"]) == 2
    assert "expected WIDTHxHEIGHT" in capsys.readouterr().err
    sc = tmp_path / "s.toml"
    sc.write_text('[scenario]\nname = "x"\n')
    assert main(["render", str(sc), "--out", str(out)]) == 2
    assert "s.toml" in capsys.readouterr().err  # the broken scenario's problems, by file


def test_cli_renders_a_scenario_with_its_starting_units(tmp_path, win, looks):
    from PIL import Image

    from hexwar.cli import main
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.render.gamescene import counters_from_state

    out = tmp_path / "s.png"
    assert main(["render", "skirmish", "--out", str(out), "--size", "600x400"]) == 0
    state = load_scenario(find_scenario("skirmish")).new_game(seed=0)
    counters = counters_from_state(state)
    on_map = [u for u in state.units.values() if u.hex is not None and not u.aloft and u.crewing is None]
    assert len(counters) == len(on_map) > 0
    # crews ride with their unit: drawn as its quality pips, not as counters of their own
    for c in counters:
        u = state.units[c.key]
        if u.crew:
            assert c.quality is not None
    with Image.open(out) as im:
        img = np.asarray(im.convert("RGB")).astype(int)
    sides = {c.side for c in counters}
    for side in sides:
        fill = looks.side(side).fill
        assert (np.abs(img - fill[:3]).sum(axis=2) <= 3).sum() > 20, side


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal but for a few pixels on exact triangle edges (float rounding of another
    transform may tip a pixel centre to the other side of an edge)."""
    return a.shape == b.shape and int(np.any(a != b, axis=2).sum()) <= max(4, a.shape[0] * a.shape[1] // 5000)


def test_viewport_cache_draws_what_direct_drawing_does_and_follows_pans(win):
    m = terrain_map()
    m.add_wreck(Hex.from_offset(4, 1), "su-1")
    cam = Camera(viewport=(300, 200), zoom=1.5)
    cam.center_on(Hex.from_offset(5, 2))
    cached = MapView(m, win, camera=cam, use_cache=True, cache_samples=1)
    cached.set_counters([CounterView(Hex.from_offset(5, 2), "german", "gun", "Pak 40", 2, 4)])
    cached.set_overlay("reach", ReachOverlay({Hex.from_offset(6, 2): 1}))
    direct_cam = Camera(viewport=(300, 200), zoom=1.5, center=cam.center)
    direct = MapView(m, win, camera=direct_cam, use_cache=False)
    direct.set_counters(cached.counters)
    direct.set_overlay("reach", ReachOverlay({Hex.from_offset(6, 2): 1}))
    a = render_view(cached, samples=1)
    assert cached.cache_builds == 1
    assert same_picture(a, render_view(direct, samples=1))
    # panning by whole points inside the margin reuses the cache; the picture follows exactly
    for dx, dy in ((7, 0), (0, -11), (25, 30)):
        cam.pan(dx, dy)
        direct_cam.pan(dx, dy)
        assert same_picture(render_view(cached, samples=1), render_view(direct, samples=1))
    assert cached.cache_builds == 1
    # the same counters again change nothing: nothing is re-composited
    comp = cached.composite_builds
    cached.set_counters(list(cached.counters))
    render_view(cached, samples=1)
    assert cached.composite_builds == comp
    # moving a unit re-composites the counters over the same cached map (around its two hexes)
    target = Hex.from_offset(6, 2)
    moved = [CounterView(target, "german", "gun", "Pak 40", 2, 4)]
    cached.set_counters(moved)
    direct.set_counters(moved)
    img = render_view(cached, samples=1)
    assert cached.cache_builds == 1 and cached.composite_builds == comp + 1
    assert same_picture(img, render_view(direct, samples=1))
    side = COUNTER_SIZE * 32 * cam.zoom
    x, y = cam.hex_center_screen(target)
    assert close(
        pixel(img, cam, x + 0.15 * side, y + 0.09 * side), default_looks().side("german").symbol_fill
    )
    cam.pan(-300, 0)  # past the margin: rebuilt
    direct_cam.pan(-300, 0)
    assert same_picture(render_view(cached, samples=1), render_view(direct, samples=1))
    assert cached.cache_builds == 2
    # a map change invalidates it
    h = cached.hex_at(150, 100)
    m.set_terrain(h, "water")
    img = render_view(cached, samples=1)
    assert cached.cache_builds == 3
    assert close(
        pixel(img, cam, *cam.hex_center_screen(h)), default_looks().ground_colour("water", m.level_at(h))
    )
    cached.delete()
    direct.delete()


def test_zooming_and_painting_use_the_cache_only_once_things_settle(win):
    from pyglet import gl

    m = terrain_map()
    cam = Camera(viewport=(300, 200), zoom=1.5)
    cam.center_on(Hex.from_offset(5, 2))
    view = MapView(m, win, camera=cam, use_cache=True, cache_samples=1)
    win.switch_to()
    view.draw()  # the first frame draws directly (nothing has settled yet) ...
    assert view.cache_builds == 0
    view.draw()  # ... the second builds the cache
    assert view.cache_builds == 1
    for _ in range(3):  # zooming in, frame after frame
        cam.zoom_at(150, 100, 1.1)
        view.draw()
    assert view.cache_builds == 1
    view.draw()  # the zoom settled: rebuilt at the new zoom
    assert view.cache_builds == 2
    cam.zoom_at(150, 100, 1.1)
    view.draw(exact=True)  # screenshots never show a stale image
    assert view.cache_builds == 3
    # a paint stroke: the map changes frame after frame; drawn directly, cached after
    for col in range(3):
        m.set_terrain(Hex.from_offset(col, 1), "water")
        view.draw()
    assert view.cache_builds == 3
    view.draw()
    assert view.cache_builds == 4
    gl.glFinish()
    view.delete()


def test_far_out_the_terrain_comes_from_the_cached_map_image(win, looks):
    m = terrain_map()
    cam = Camera(viewport=(300, 150))
    cam.fit_map(m.width, m.height)
    cam.zoom = 16.0 / 32.0  # hexes of 16 pixels: the far-out image, 1:1
    cam.center = (cam.center[0] + 0.3, cam.center[1] - 0.2)  # off the texel grid on purpose
    imp = MapView(m, win, camera=cam, use_cache=False, use_impostor=True)
    geo = MapView(
        m,
        win,
        camera=Camera(viewport=cam.viewport, zoom=cam.zoom, center=cam.center),
        use_cache=False,
        use_impostor=False,
    )
    assert imp.impostor_active() and not geo.impostor_active()
    a = render_view(imp)
    b = render_view(geo)
    imp.delete()
    geo.delete()
    diff = np.abs(a.astype(int) - b.astype(int))[..., :3]
    assert diff.mean() < 6
    plain = [h for h in m.hexes() if looks.terrain_look(m.terrain_at(h).key).pattern in ("none", "building")]
    for h in plain:
        want = expected_centre(m, h, looks)
        assert close(pixel(a, cam, *cam.hex_center_screen(h)), want, tol=8), h.label


def test_a_new_map_size_keeps_counters_and_drops_overlays_that_no_longer_fit(win, looks):
    old = BattleMap.new(12, 10)
    new = BattleMap.new(20, 16, fill="wheat")
    h = Hex.from_offset(10, 9)
    cam = Camera(viewport=(200, 150), zoom=2.0)
    cam.center_on(h)
    view = MapView(old, win, camera=cam)
    view.set_counters([CounterView(h, "soviet", "vehicle", "T-34", 6, 6)])
    view.set_overlay("heat", HeatmapOverlay(np.ones((10, 12)), title="old"))
    view.set_overlay("ring", HighlightOverlay([h], colour="target"))
    view.set_map(new)
    assert set(view.overlays) == {"ring"}
    img = render_view(view)
    view.delete()
    side = COUNTER_SIZE * 32 * cam.zoom
    x, y = cam.hex_center_screen(h)
    assert close(pixel(img, cam, x, y + 0.09 * side), looks.side("soviet").symbol_fill)


@pytest.mark.parametrize(
    ("opt", "value", "shown"),
    [
        ("--pixel-ratio", "9", "0.25<=x<=4.0"),
        ("--zoom", "100", "0.02<=x<=8.0"),
        ("--pixel-ratio", "lots", "'lots' is not a valid float"),
    ],
)
def test_render_refuses_out_of_range_values_in_one_sentence(capsys, tmp_path, opt, value, shown):
    from hexwar.cli import main

    out = tmp_path / "x.png"
    assert main(["render", "standard", "--out", str(out), opt, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hexwar: Invalid value for '{opt}'") and shown in err and err.count("\n") == 1
    assert not out.exists()


def _colour_count(img: np.ndarray, cam: Camera, h: Hex, colour: RGBA, radius: float, tol: int = TOL) -> int:
    """Pixels within ``radius`` hex sizes of ``h``'s centre that show ``colour`` (within ``tol``)."""
    x, y = cam.hex_center_screen(h)
    s = 32 * cam.zoom
    n = 0
    for sx in np.arange(x - radius * s, x + radius * s, 1.0):
        for sy in np.arange(y - radius * s, y + radius * s, 1.0):
            if (sx - x) ** 2 + (sy - y) ** 2 <= (radius * s) ** 2 and close(
                pixel(img, cam, sx, sy), colour, tol
            ):
                n += 1
    return n


def test_a_road_across_a_river_is_drawn_as_a_bridge_with_parapets_over_water(win, looks):
    # R2.4 bridge convention: D03 is road terrain in a one-hex river (column D), the road
    # runs C03-D03-E03 across it; A03 is a plain road hex far from the water
    m = BattleMap.new(7, 5, name="river")
    for row in range(5):
        m.set_terrain(Hex.from_offset(3, row), "water")
    m.set_terrain(Hex.from_offset(3, 2), "road")
    for col in (0, 1, 2, 4, 5, 6):
        m.set_road(Hex.from_offset(col, 2))
    cam = fitted_camera(m, size=(640, 480))
    view = MapView(m, win, camera=cam)
    img = render_view(view)
    view.delete()
    bridge, plain = Hex.from_offset(3, 2), Hex.from_offset(0, 2)
    parapet = looks.bridge_parapet
    water = looks.ground_colour("water", 0)
    assert _colour_count(img, cam, bridge, parapet, 0.6) > 40
    assert _colour_count(img, cam, plain, parapet, 0.6) == 0
    # water under the deck, not road ground (tol: the water is shaded toward the hex corners)
    assert _colour_count(img, cam, bridge, water, 0.8, tol=14) > 200
    assert _colour_count(img, cam, plain, water, 0.8, tol=14) == 0
    # the deck is road coloured, so the bridge hex centre still reads as road
    assert close(pixel(img, cam, *cam.hex_center_screen(bridge)), looks.centre_colour("road"))
