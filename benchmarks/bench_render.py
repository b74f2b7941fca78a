"""Renderer speed targets (issue 7): a 100x100 map with 300 units on Mesa llvmpipe, headless.

Targets: median frame time under 16 ms, hex picking under 50 microseconds. Prints a table
with the ratio of each measurement to its target (ratio < 1 meets it).

Issue 22, at scale: ``hexwar render`` and ``hexwar edit --screenshot`` of a generated
500x500 map, each in a fresh process, with their wall and CPU time and peak RSS against
the 1 GB target (ratio = peak / 1 GB) and the figures measured on main before the change.

Run: ``python benchmarks/bench_render.py [--frames N] [--size 1280x800] [--samples 4] [--no-scale]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexwar.render import backend  # noqa: E402

backend.configure(None)

from pyglet import gl  # noqa: E402
from pyglet.window import Window  # noqa: E402

from hexwar.model.hexgrid import Hex  # noqa: E402
from hexwar.model.maps import BattleMap  # noqa: E402
from hexwar.render.camera import Camera  # noqa: E402
from hexwar.render.counters import UNIT_TYPES, CounterView  # noqa: E402
from hexwar.render.mapview import MapView  # noqa: E402
from hexwar.render.overlays import ReachOverlay  # noqa: E402

FRAME_TARGET_MS = 16.0
PICK_TARGET_US = 50.0
#: Peak RSS target of render/edit of a 500x500 map (issue 22), MB.
SCALE_TARGET_MB = 1024.0
#: Measured on main 5613b4b before the issue 22 render work (load average 5-7 on 2 cores):
#: wall (CPU) and peak RSS of the same commands on the same generated map.
SCALE_BASELINE = {
    "render": "138 s (61 s CPU), 1794 MB",
    "edit": "247 s (91 s CPU), 1419 MB",
}


def run_measured(args: list[str]) -> tuple[float, float, float]:
    """Run ``hexwar ARGS`` in a fresh process: ``(wall s, CPU s, peak RSS MB)``.

    The child reports its own peak RSS (``VmHWM``): ``RUSAGE_CHILDREN`` would also count
    pages of this process held between fork and exec.

    Raises:
        subprocess.CalledProcessError: when the command fails (its stderr is shown).
    """
    code = (
        "import atexit, runpy, sys\n"
        "atexit.register(lambda: print('VmHWM', open('/proc/self/status').read()"
        ".split('VmHWM:')[1].split()[0], file=sys.stderr))\n"
        f"sys.argv = ['hexwar', *{args!r}]\n"
        "runpy.run_module('hexwar.cli', run_name='__main__')\n"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    wall = time.perf_counter() - t
    if proc.returncode:
        sys.stderr.write(proc.stderr)
        raise subprocess.CalledProcessError(proc.returncode, ["hexwar", *args])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    hwm = [ln.split()[1] for ln in proc.stderr.splitlines() if ln.startswith("VmHWM")]
    return wall, cpu, int(hwm[-1]) / 1024 if hwm else float("nan")


def scale_rows() -> list[tuple[str, str, str, str, str]]:
    """``hexwar render`` and ``hexwar edit --screenshot`` of a generated 500x500 map (issue 22):
    rows of (measurement, value, baseline, target, ratio peak / target)."""
    rows = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m500.json")
        gw, gc_, gm = run_measured(["edit", "--generate", "500x500", "--seed", "7", "--out", path])
        rows.append(
            (
                "generate the 500x500 map (edit --out, once)",
                f"{gw:.1f} s ({gc_:.1f} s CPU), {gm:.0f} MB",
                "-",
                "-",
                "-",
            )
        )
        for key, name, args in (
            (
                "render",
                "hexwar render, 500x500 map (4096x4096 PNG)",
                ["render", path, "--out", os.path.join(d, "r.png")],
            ),
            (
                "edit",
                "hexwar edit --generate 500x500 --screenshot",
                ["edit", "--generate", "500x500", "--seed", "7", "--screenshot", os.path.join(d, "e.png")],
            ),
        ):
            w, c, mb = run_measured(args)
            rows.append(
                (
                    name,
                    f"{w:.1f} s ({c:.1f} s CPU), {mb:.0f} MB",
                    SCALE_BASELINE[key],
                    f"< {SCALE_TARGET_MB:.0f} MB",
                    f"{mb / SCALE_TARGET_MB:.2f}",
                )
            )
    return rows


def big_map(width: int = 100, height: int = 100, seed: int = 7) -> BattleMap:
    """A busy map: terrain patches, hills with contours, road grid, villages, some rubble and fire."""
    rng = np.random.default_rng(seed)
    m = BattleMap.new(width, height, name="bench")
    rules = m.rules
    idx = {t.key: i for i, t in enumerate(rules.types)}
    # patches of terrain from smoothed noise
    noise = rng.random((height, width))
    for _ in range(4):
        noise = (
            noise
            + np.roll(noise, 1, 0)
            + np.roll(noise, -1, 0)
            + np.roll(noise, 1, 1)
            + np.roll(noise, -1, 1)
        ) / 5
    order = ["water", "marsh", "clear", "clear", "wheat", "clear", "brush", "orchard", "woods", "woods"]
    q = np.quantile(noise, np.linspace(0, 1, len(order) + 1)[1:-1])
    band = np.searchsorted(q, noise)
    m.terrain[:] = np.array([idx[k] for k in order], dtype=np.uint8)[band]
    hills = rng.random((height, width))
    for _ in range(6):
        hills = (
            hills
            + np.roll(hills, 1, 0)
            + np.roll(hills, -1, 0)
            + np.roll(hills, 1, 1)
            + np.roll(hills, -1, 1)
        ) / 5
    m.level[:] = np.clip(((hills - hills.min()) / (np.ptp(hills) + 1e-9) * 5).astype(np.int16), 0, 4)
    for c in range(5, width, 17):
        m.road[:, c] = True
    for r in range(8, height, 23):
        m.road[r, :] = True
    vill = rng.random((height, width)) < 0.08
    bkeys = np.array([idx["wood_building"]] * 6 + [idx["stone_building"]] * 3 + [idx["reinforced_building"]])
    m.terrain[vill] = bkeys[rng.integers(0, len(bkeys), int(vill.sum()))]
    m.road[vill] = False
    bl = np.argwhere(vill)
    for r, c in bl[rng.choice(len(bl), 40, replace=False)]:
        m.rubble[r, c] = True
    for r, c in bl[rng.choice(len(bl), 30, replace=False)]:
        if not m.rubble[r, c]:
            m.fire[r, c] = True
    wreck_ids = sorted(rules.wrecks)
    for _ in range(40):
        h = Hex.from_offset(int(rng.integers(0, width)), int(rng.integers(0, height)))
        m.wrecks.setdefault(h, []).append(wreck_ids[int(rng.integers(0, len(wreck_ids)))])
    m.artillery_marker = Hex.from_offset(width // 2, height // 2)
    m.version += 1
    return m


def units(m: BattleMap, n: int = 300, seed: int = 11) -> list[CounterView]:
    """``n`` counters spread over the map, some stacked 2-3 high."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        h = Hex.from_offset(int(rng.integers(0, m.width)), int(rng.integers(0, m.height)))
        side = "german" if h.q < m.width // 2 else "soviet"
        for _ in range(int(rng.integers(1, 4))):
            if len(out) >= n:
                break
            mx = int(rng.integers(2, 7))
            out.append(
                CounterView(
                    h,
                    side,
                    UNIT_TYPES[int(rng.integers(0, 4))],
                    f"Unit {len(out)}",
                    int(rng.integers(0, mx + 1)),
                    mx,
                    bool(rng.random() < 0.2),
                    int(rng.integers(-1, 2)),
                )
            )
    return out


def measure(
    samples: int, w: int, h: int, n_frames: int, m: BattleMap, us: list[CounterView]
) -> dict[str, float]:
    """Frame times (ms) of one window configuration; picking time (us)."""
    cfg = (
        gl.Config(double_buffer=True, sample_buffers=1, samples=samples, alpha_size=8)
        if samples > 1
        else gl.Config(double_buffer=True, alpha_size=8)
    )
    win = Window(w, h, visible=False, config=cfg)
    out: dict[str, float] = {}
    t0 = time.perf_counter()
    cam = Camera(viewport=(w, h))
    view = MapView(m, win, camera=cam)
    out["build"] = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    view.set_counters(us)
    out["counters"] = (time.perf_counter() - t0) * 1000
    view.set_overlay("reach", ReachOverlay({hx: hx.distance(Hex(50, 25)) for hx in Hex(50, 25).spiral(4)}))

    def frame() -> float:
        win.switch_to()
        s = time.perf_counter()
        win.clear()
        view.draw()
        gl.glFinish()
        return (time.perf_counter() - s) * 1000

    def frames(name: str) -> None:
        times = []
        cpu0 = 0.0
        for i in range(n_frames + 5):
            if i == 5:
                cpu0 = time.process_time()
            t = frame()
            if i >= 5:  # warm-up frames excluded
                times.append(t)
            cam.pan(1.0, 1.0)  # the camera moves every frame, as when scrolling
        out[name] = statistics.median(times)
        # CPU time of all threads (llvmpipe rasterizes on worker threads): less sensitive to
        # other processes competing for the cores than the wall clock
        out[name + "_cpu"] = (time.process_time() - cpu0) / n_frames * 1000

    cam.fit_map(m.width, m.height)
    frames("whole")
    cam.zoom = 1.0
    cam.center_on(Hex(50, 25))
    frames("zoom1")
    # a unit moves: counters are re-composited over the cached map (set_counters not timed)
    moves = []
    for i in range(10):
        moved = list(us)
        moved[0] = CounterView(
            Hex(50 + i % 3, 25),
            *[getattr(us[0], f) for f in ("side", "unit_type", "label", "endurance", "endurance_max")],
        )
        view.set_counters(moved)
        moves.append(frame())
    out["move"] = statistics.median(moves)
    # a zoom step that settles: the viewport cache is rebuilt (the worst frame while zooming)
    steps = []
    for i in range(5):
        cam.zoom_at(w / 2, h / 2, 1.1 if i % 2 == 0 else 1 / 1.1)
        frame()  # zoom changing: the old cache is shown scaled
        steps.append(frame())  # settled: rebuilt
    out["rebuild"] = statistics.median(steps)

    rng = np.random.default_rng(3)
    pts = [(float(x), float(y)) for x, y in rng.random((20000, 2)) * (w, h)]
    hex_at = view.hex_at
    reps = []
    for _ in range(5):
        s = time.perf_counter()
        for x, y in pts:
            hex_at(x, y)
        reps.append((time.perf_counter() - s) / len(pts) * 1e6)
    out["pick"] = statistics.median(reps)
    view.delete()
    win.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--samples", default="1,4", help="window multisampling settings to measure (1 = off)")
    ap.add_argument(
        "--no-scale", action="store_true", help="leave out the 500x500 render/edit rows (issue 22)"
    )
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    t0 = time.perf_counter()
    m = big_map()
    us = units(m)
    gen = (time.perf_counter() - t0) * 1000
    rows: list[tuple[str, float, str, float | None]] = []
    renderer = "?"
    for samples in (int(v) for v in args.samples.split(",")):
        # 1 is what windows should use: the cached map and counters are multisampled anyway
        r = measure(samples, w, h, args.frames, m, us)
        renderer = gl.gl_info.get_renderer()
        tag = f"{samples}x MSAA window"
        rows += [
            (f"frame, whole map visible, {tag}", r["whole"], "ms", FRAME_TARGET_MS),
            ("  (CPU time per frame, all threads)", r["whole_cpu"], "ms", None),
            (f"frame, zoom 1 panning, {tag}", r["zoom1"], "ms", FRAME_TARGET_MS),
            ("  (CPU time per frame, all threads)", r["zoom1_cpu"], "ms", None),
            (f"frame after a unit moved, {tag}", r["move"], "ms", FRAME_TARGET_MS),
            (f"frame after a zoom step settles, {tag}", r["rebuild"], "ms", None),
            (f"hex picking, {tag}", r["pick"], "us", PICK_TARGET_US),
            (f"build map view (once), {tag}", r["build"], "ms", None),
            (f"set 300 counters (once), {tag}", r["counters"], "ms", None),
        ]
    try:
        load = f"load average {__import__('os').getloadavg()[0]:.1f}"
    except OSError:
        load = "load average unknown"
    print(
        f"renderer: {renderer}; window {w}x{h}; {m.width}x{m.height} map, {len(us)} units; "
        f"{args.frames} frames; map generated in {gen:.0f} ms; {load}"
    )
    print(f"{'measurement':<46} {'value':>10} {'target':>9} {'ratio':>7}")
    for name, val, unit, target in rows:
        tgt = f"{target:g} {unit}" if target else "-"
        ratio = f"{val / target:.2f}" if target else "-"
        print(f"{name:<46} {val:>7.2f} {unit:<2} {tgt:>9} {ratio:>7}")
        if target:
            print(
                f"FIGURE | render: {name} ({unit}) | {val:.2f} | < {target:g} {unit} | {target / max(val, 1e-9):.2f}"
            )
    if not args.no_scale:
        print(f"\n500x500 map in fresh processes (issue 22; {load}; ratio = peak RSS / target)")
        print(f"{'measurement':<46} {'value':>30} {'baseline (main)':>30} {'target':>9} {'ratio':>6}")
        for name, val_s, base, tgt_s, ratio_s in scale_rows():
            print(f"{name:<46} {val_s:>30} {base:>30} {tgt_s:>9} {ratio_s:>6}")
            try:
                peak = float(ratio_s)
            except ValueError:
                continue
            print(
                f"FIGURE | render: {name} (peak RSS / 1 GB) | {val_s.strip()} | {tgt_s} | {1 / max(peak, 1e-9):.2f}"
            )


if __name__ == "__main__":
    main()
