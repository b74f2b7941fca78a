"""Issue 22: the window redraws only what changed, and never stalls a frame on a big rebuild.

* A moved counter rebuilds only its old and new hex stacks and re-composites only the
  rectangles around them; the picture is exactly the one a whole redraw gives.
* A zoom step rebuilds the multisampled cache base in strips over several frames (the old
  image is shown scaled meanwhile); once done the picture is the one-go picture.
* A label or grid toggle redoes only the single-sampled stage above the base (no base
  rebuild): the base is kept with and without the grid.
Frame times are measured in benchmarks/bench_frame.py, never asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.render import backend

backend.configure(None)

from hexwar.render import impostor, mapview  # noqa: E402
from hexwar.render.camera import Camera  # noqa: E402
from hexwar.render.counters import CounterView  # noqa: E402
from hexwar.render.mapview import MapView  # noqa: E402
from hexwar.render.offscreen import hidden_window, render_view  # noqa: E402
from hexwar.render.overlays import ReachOverlay  # noqa: E402

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def win():
    return hidden_window()


def busy_map(width: int = 24, height: int = 16) -> BattleMap:
    """Woods, hills, a road and a village: every static layer has something in it."""
    m = BattleMap.new(width, height)
    rng = np.random.default_rng(5)
    keys = [t.key for t in m.rules.types]
    idx = {k: i for i, k in enumerate(keys)}
    choice = np.array([idx[k] for k in ("clear", "woods", "wheat", "brush", "wood_building", "clear")])
    m.terrain[:] = choice[rng.integers(0, len(choice), (height, width))]
    m.level[:] = rng.integers(0, 3, (height, width)).astype(m.level.dtype)
    m.road[:, 5] = True
    m.version += 1
    return m


def counters(n: int = 30) -> list[CounterView]:
    rng = np.random.default_rng(9)
    out = []
    for i in range(n):
        h = Hex.from_offset(int(rng.integers(0, 24)), int(rng.integers(0, 16)))
        out.append(
            CounterView(
                h,
                "german" if i % 2 else "soviet",
                ("infantry", "vehicle", "gun")[i % 3],
                f"U{i}",
                1 + i % 3,
                3,
            )
        )
    return out


def test_a_moved_counter_rebuilds_two_stacks_and_redraws_only_around_them(win, monkeypatch):
    m = busy_map()
    cam = Camera(viewport=(420, 300), zoom=1.0)
    cam.center_on(Hex.from_offset(12, 8))
    view = MapView(m, win, camera=cam, cache_samples=1)
    us = counters()
    view.set_counters(us)
    view.set_overlay("reach", ReachOverlay({Hex.from_offset(12, 8): 1, Hex.from_offset(13, 8): 2}))
    render_view(view, samples=1)
    built = []
    real = mapview.build_counters
    monkeypatch.setattr(
        mapview, "build_counters", lambda stack, *a, **k: built.append(stack) or real(stack, *a, **k)
    )
    comp = view.composite_builds
    moved = list(us)
    moved[0] = CounterView(
        Hex.from_offset(12, 9),
        *[getattr(us[0], f) for f in ("side", "unit_type", "label", "endurance", "endurance_max")],
    )
    view.set_counters(moved)
    old_hex, new_hex = us[0].hex, Hex.from_offset(12, 9)
    assert {s[0].hex for s in built} <= {old_hex, new_hex}  # only the two stacks touched
    assert view._comp_dirty is not None and 1 <= len(view._comp_dirty) <= 2
    partial = render_view(view, samples=1)
    assert view.composite_builds == comp + 1 and view.cache_builds == 1
    view._mark_dirty(None)  # the same composite, redrawn whole
    whole = render_view(view, samples=1)
    assert np.array_equal(partial, whole)
    view.delete()


def test_a_zoom_step_rebuilds_the_base_in_strips_showing_the_old_image_meanwhile(win):
    m = busy_map()
    cam = Camera(viewport=(640, 400), zoom=1.0)
    cam.center_on(Hex.from_offset(12, 8))
    view = MapView(m, win, camera=cam, cache_samples=4)
    view.set_counters(counters())
    win.switch_to()
    view.draw()
    view.draw()  # nothing to show meanwhile: built at once
    assert view.cache_builds == 1 and view.cache_settled
    cam.zoom_at(320, 200, 1.1)
    view.draw()  # the zoom is changing: the old image, scaled
    assert view.cache_builds == 1 and not view.cache_settled
    job = view._cache.job
    W, H = job.size
    assert job.strip * W * 4 * 2 <= impostor.BUILD_BUDGET  # base and grid passes of a strip fit a frame
    strips = len(job.starts)
    assert strips >= 3 and job.starts[-1] + job.strip == H
    frames = 0
    while not view.cache_settled:
        view.draw()
        frames += 1
        assert view.cache_builds == (1 if frames <= strips else 2)  # done once the grid is laid on
        assert frames < 40
    # one frame per strip, one to lay the grid on a copy of the base, one for the static
    # image and the composite; the old image is shown scaled until then
    assert frames == strips + 2
    assert view.cache_builds == 2
    stripped = render_view(view)
    one_go = MapView(
        m, win, camera=Camera(viewport=cam.viewport, zoom=cam.zoom, center=cam.center), cache_samples=4
    )
    one_go.set_counters(view.counters)
    whole = render_view(one_go)
    diff = np.abs(stripped.astype(int) - whole.astype(int))
    assert np.mean(np.all(diff == 0, axis=2)) > 0.995  # strip seams may round an edge pixel differently
    assert diff.mean() < 0.2
    one_go.delete()
    view.delete()


def test_label_and_grid_toggles_redo_only_the_single_sampled_stage(win):
    m = busy_map()
    cam = Camera(viewport=(420, 300), zoom=1.6)
    cam.center_on(Hex.from_offset(12, 8))
    view = MapView(m, win, camera=cam, cache_samples=4)
    with_labels = render_view(view)
    builds, stages = view.cache_builds, view._cache.stage_builds
    view.show_labels = False
    win.switch_to()
    view.draw()
    assert view.cache_settled  # done in the same frame
    assert view.cache_builds == builds and view._cache.stage_builds == stages + 1
    without = render_view(view)
    assert np.any(with_labels != without)
    view.show_labels = True
    assert np.array_equal(render_view(view), with_labels)
    view.show_grid = False
    view.draw()
    assert view.cache_settled and view.cache_builds == builds
    no_grid = render_view(view)
    changed = np.any(no_grid != with_labels, axis=2)
    assert changed.sum() > 500
    view.show_grid = True
    view.draw()
    assert view.cache_settled and view.cache_builds == builds
    assert np.array_equal(render_view(view), with_labels)
    view.delete()


def test_the_grid_laid_on_the_base_looks_like_the_grid_drawn_with_it(win):
    # multisampled, the grid is rendered alone and laid on the base (premultiplied alpha):
    # up to edge rounding the picture of drawing everything directly, multisampled
    m = busy_map()
    cam = Camera(viewport=(420, 300), zoom=1.6)
    cam.center_on(Hex.from_offset(12, 8))
    cached = MapView(m, win, camera=cam, cache_samples=4)
    direct = MapView(
        m, win, camera=Camera(viewport=cam.viewport, zoom=cam.zoom, center=cam.center), use_cache=False
    )
    a, b = render_view(cached, samples=4), render_view(direct, samples=4)
    diff = np.abs(a.astype(int) - b.astype(int))[..., :3]
    assert np.mean(np.all(diff <= 3, axis=2)) > 0.97
    assert diff.mean() < 1.0
    cached.delete()
    direct.delete()
