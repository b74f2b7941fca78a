"""LOS benchmark (issue 3): the fast path against the shapely reference and a Red Blob line drawer.

Run ``python benchmarks/bench_los.py`` (``--quick`` for a short run). It prints one table:

* maps of 40x40 and 100x100 hexes, ground level 0, with 20% blocking hexes (woods and
  buildings; seeded), and a second 100x100 map that adds 10% hindrance hexes and hills 0-3
  so every branch of the engine runs;
* for each method, the single-query time (median and mean microseconds, warm caches; each pair
  timed 3 times, best kept) and the one-to-all rate (target hexes per second: one viewer
  against every hex of the map), from the best wall time of each viewer and from the mean
  process CPU time of all runs;
* ratios of the fast path to the other two;
* all ordered pairs of the 40x40 map with the fast path (``visibility`` from every hex);
* how often the Red Blob drawer's answer differs from the exact one, and how often it is
  asymmetric (A sees B but B does not see A).

Methods:

* fast: :func:`hexwar.model.los.line_of_sight` / :func:`hexwar.model.los.visibility` (exact integer
  geometry per offset; on maps over 64x64 the compiled kernel of issue 35 when it was built,
  else cached plans and numpy gathers; the header line says which).
* exact: :func:`hexwar.model.los_exact.line_of_sight_exact` (shapely, the reference); its
  one-to-all rate is measured on a sample of targets.
* redblob: the approach a user would write instead, in pure Python: ``hexwar.model.hexgrid.hex_line``
  (lerp and cube-round, with the usual epsilon nudge), then each hex of the line but the ends
  tested against the R3.4 height at ``t = i / n``; one-to-all is a loop over every target.

Targets (issue 3): one-to-all >= 2M target hexes/s on 100x100; all ordered pairs of 40x40 in
< 2 s; single query < 20 us median. Times are wall clock, best of several repeats, on whatever
machine runs this; other work on the machine makes them slower, never faster.

Issue 22's scale rows follow (alone with ``--scale``; :func:`bench_scale`): one-to-all rates
up to 500x500, the slowest single query, the LOS caches of a 500x500 map, and two ``hexwar los
--all`` runs in a fresh process (wall, CPU, peak RSS). The second runs on an editor-generated
open map (``edit --generate 500x500 --seed 7``) where almost no line is blocked early, so
nearly every target reads its whole crossing list: from A01 about 105M intervening hexes on
28M hex lines, all computed on the fly (no plan fits a 500x500 shape) by ``_fly_lines`` and
``_fly_entries`` into the map's axial tables. That row measured 3.8 s on main and 1.6 s after
that path moved to per-line integer cumulative sums (same run, load 1.7-2; the
visibility call alone 2.7 s -> 1.0 s CPU; docs/architecture.md, "Line of sight").

Issue 35's rows follow (alone with ``--open``; :func:`bench_open`): one-to-all on editor-generated
open 500x500 village and steppe maps (target 1M targets/s, no call over 3x the median),
single queries on new random pairs in a fresh process (targets: median under 20 us on
100x100, 50 us on 500x500), and the exact reference against the fast path on a random sample
of pairs in the same run. Every figure with a target is also printed as a ``FIGURE | name |
measured | target | met`` line (met at >= 1) for ``run_all.py``; the 100x100 row against the
plain gather now has issue 35's target, 50%.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import hexwar.model.los as L
from hexwar.model.hexgrid import Hex, hex_line
from hexwar.model.los import BLOCKED, CLEAR, HINDERED, _get_plan, height_arrays, line_of_sight, visibility
from hexwar.model.los_exact import line_of_sight_exact
from hexwar.model.maps import BattleMap

CODES = {"clear": CLEAR, "hindered": HINDERED, "blocked": BLOCKED}


def make_map(size: int, seed: int, hindrance: float = 0.0, hills: int = 0) -> BattleMap:
    """A ``size`` x ``size`` map with 20% blocking hexes (woods 3 : buildings 1)."""
    rng = np.random.default_rng(seed)
    m = BattleMap.new(size, size, name=f"bench {size}x{size}")
    u = rng.random((size, size))
    blocking = u < 0.20
    building = blocking & (rng.random((size, size)) < 0.25)
    m.terrain[blocking] = m.rules.index_of_key("woods")
    m.terrain[building] = m.rules.index_of_key("stone_building")
    if hindrance:
        m.terrain[(u >= 0.20) & (u < 0.20 + hindrance)] = m.rules.index_of_key("brush")
    if hills:
        m.level[:, :] = rng.integers(0, hills + 1, size=(size, size))
    m.version += 1  # arrays were written directly
    return m


# -- the Red Blob drawer ---------------------------------------------------------------------------
class RedBlob:
    """Lerp-and-round LOS in pure Python over prepared per-hex heights (R3.4 at t = i / n)."""

    def __init__(self, m: BattleMap) -> None:
        ha = height_arrays(m)
        self.block = ha.block_top.tolist()
        self.hinder = ha.hinder_top.tolist()
        self.eye = (m.level + 0.5).tolist()
        self.w, self.h = m.width, m.height

    def status(self, a: Hex, b: Hex) -> int:
        line = hex_line(a, b)
        n = len(line) - 1
        if n <= 1:
            return CLEAR
        ca, ra = a.offset
        cb, rb = b.offset
        ea = self.eye[ra][ca]
        de = self.eye[rb][cb] - ea
        hind = 0
        for i in range(1, n):
            c, r = line[i].offset
            if not (0 <= c < self.w and 0 <= r < self.h):
                continue  # the rounded line strayed off the map (edge hexsides)
            z = ea + de * i / n
            if self.block[r][c] >= z:
                return BLOCKED
            if self.hinder[r][c] >= z:
                hind += 1
        return HINDERED if hind else CLEAR

    def visibility(self, m: BattleMap, viewer: Hex) -> np.ndarray:
        out = np.zeros((m.height, m.width), dtype=np.int8)
        for col in range(m.width):
            for row in range(m.height):
                out[row, col] = self.status(viewer, Hex.from_offset(col, row))
        return out


# -- timing helpers --------------------------------------------------------------------------------
def best_of(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``repeats`` calls of ``fn`` (seconds)."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def one_to_all(fn: Callable[[Hex], object], viewers: list[Hex], repeats: int) -> tuple[float, float]:
    """(wall, cpu) seconds per viewer of ``fn(viewer)``: the mean over viewers of each viewer's
    best wall time of ``repeats`` runs, and the mean process CPU time of all runs."""
    walls = []
    cpu0 = time.process_time()
    for v in viewers:
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter()
            fn(v)
            best = min(best, time.perf_counter() - t)
        walls.append(best)
    cpu = (time.process_time() - cpu0) / (len(viewers) * repeats)
    return statistics.mean(walls), cpu


def per_call_us(
    fn: Callable[[Hex, Hex], object], pairs: list[tuple[Hex, Hex]], repeats: int
) -> tuple[float, float]:
    """(median, mean) microseconds of ``fn(a, b)`` over ``pairs``; per-pair best of ``repeats``."""
    times = []
    for a, b in pairs:
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter_ns()
            fn(a, b)
            best = min(best, time.perf_counter_ns() - t)
        times.append(best / 1000.0)
    return statistics.median(times), statistics.mean(times)


def random_pairs(m: BattleMap, n: int, rng: np.random.Generator) -> list[tuple[Hex, Hex]]:
    cols = rng.integers(0, m.width, size=(n, 2))
    rows = rng.integers(0, m.height, size=(n, 2))
    return [
        (Hex.from_offset(int(c0), int(r0)), Hex.from_offset(int(c1), int(r1)))
        for (c0, c1), (r0, r1) in zip(cols, rows, strict=True)
    ]


# -- the benchmark ---------------------------------------------------------------------------------
def bench_map(label: str, m: BattleMap, quick: bool, rows: list[list[str]], notes: list[str]) -> None:
    rng = np.random.default_rng(12345)
    hexes = m.width * m.height
    n_pairs = 2000 if quick else 20000
    pairs = random_pairs(m, n_pairs, rng)

    # Cold start: the all-offsets plans of this map shape (built once per shape, then cached),
    # on the numpy paths; maps the compiled kernel takes (issue 35) build nothing.

    if L.kernel_available() and m.height * m.width >= L._KERNEL_MIN_HEXES:
        notes.append(f"{label}: the compiled kernel answers; no plan or table is built for this shape")
    else:
        t = time.perf_counter()
        _get_plan(m.height, m.width, 0)
        _get_plan(m.height, m.width, 1)
        notes.append(
            f"{label}: first-use plan build for both column parities {time.perf_counter() - t:.2f} s "
            "(once per map shape; every later query and overlay change reuses it)"
        )

    # fast single queries (warm)
    for a, b in pairs:
        line_of_sight(m, a, b)
    f_med, f_mean = per_call_us(lambda a, b: line_of_sight(m, a, b), pairs, 3)
    # fast one-to-all
    viewers = [p[0] for p in pairs[: (10 if quick else 40)]]
    visibility(m, viewers[0])
    f_wall, f_cpu = one_to_all(lambda v: visibility(m, v), viewers, 3 if quick else 5)

    # exact reference (warm: its polygons and STRtree are built on the first call)
    line_of_sight_exact(m, pairs[0][0], pairs[0][1])
    ex_pairs = pairs[: (100 if quick else 400)]
    e_med, e_mean = per_call_us(lambda a, b: line_of_sight_exact(m, a, b), ex_pairs, 1)
    viewer = viewers[0]
    k = 300 if quick else 1500
    sample = [
        Hex.from_offset(int(c), int(r))
        for c, r in zip(rng.integers(0, m.width, k), rng.integers(0, m.height, k), strict=True)
    ]
    e_wall, e_cpu = one_to_all(lambda v: [line_of_sight_exact(m, v, b) for b in sample], [viewer], 1)
    e_wall, e_cpu = e_wall * hexes / k, e_cpu * hexes / k  # per whole map

    # Red Blob lerp-and-round
    rb = RedBlob(m)
    r_med, r_mean = per_call_us(rb.status, pairs[: (2000 if quick else 5000)], 3)
    r_wall, r_cpu = one_to_all(lambda v: rb.visibility(m, v), viewers[:2], 1)

    # Red Blob correctness against the exact answer, and its asymmetry
    check = pairs[: (2000 if quick else 10000)]
    differ = sum(rb.status(a, b) != CODES[line_of_sight(m, a, b).status] for a, b in check)
    asym = sum((rb.status(a, b) == BLOCKED) != (rb.status(b, a) == BLOCKED) for a, b in check)
    fast_asym = sum(line_of_sight(m, a, b).status != line_of_sight(m, b, a).status for a, b in check)
    notes.append(
        f"{label}: Red Blob differs from the exact status on {100 * differ / len(check):.1f}% of "
        f"{len(check)} random pairs and is asymmetric on {100 * asym / len(check):.1f}% "
        f"(fast path: {fast_asym} asymmetric)"
    )
    # lines along hexsides (offsets k*(2,-1), k*(1,1), k*(-1,2)): where drawers go wrong
    spine = []
    for a, _ in pairs[:3000]:
        for dq, dr in ((2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2)):
            j = int(rng.integers(1, 8))
            b = Hex(a.q + j * dq, a.r + j * dr)
            if m.in_bounds(b):
                spine.append((a, b))
    differ = sum(rb.status(a, b) != CODES[line_of_sight(m, a, b).status] for a, b in spine)
    asym = sum((rb.status(a, b) == BLOCKED) != (rb.status(b, a) == BLOCKED) for a, b in spine)
    notes.append(
        f"{label}: on {len(spine)} pairs along hexsides Red Blob differs on {100 * differ / len(spine):.1f}% "
        f"and is asymmetric on {100 * asym / len(spine):.1f}%"
    )

    def rate(t: float) -> str:
        r = hexes / t
        return f"{r / 1e6:.2f}M" if r >= 1e6 else f"{r / 1e3:.1f}k"

    rows.append(
        [
            label,
            "fast (hexwar.model.los)",
            f"{f_med:.1f}",
            f"{f_mean:.1f}",
            rate(f_wall),
            rate(f_cpu),
            "1",
            "1",
        ]
    )
    rows.append(
        [
            label,
            "exact (shapely)",
            f"{e_med:.0f}",
            f"{e_mean:.0f}",
            rate(e_wall),
            rate(e_cpu),
            f"{e_mean / f_mean:.0f}x",
            f"{e_wall / f_wall:.0f}x",
        ]
    )
    rows.append(
        [
            label,
            "Red Blob lerp+round",
            f"{r_med:.1f}",
            f"{r_mean:.1f}",
            rate(r_wall),
            rate(r_cpu),
            f"{r_mean / f_mean:.1f}x",
            f"{r_wall / f_wall:.0f}x",
        ]
    )


# -- issue 22: scale, spikes, memory -------------------------------------------------------------
BASELINE = {  # measured by the outside audit on main e9c3826 (issue 22)
    "oneall100": "4.6M/s",
    "ratio": "16-25%",
    "oneall200": "161k/s",
    "spike": "548 ms",
    "losall500": "6.3 s, 1.0 GB (random woods-and-hills map)",
    "losallgen": "7.7 s (5.25 s CPU), 217 MB (main aaca98c, load 5)",
}


def _fmt_rate(r: float) -> str:
    return f"{r / 1e6:.2f}M/s" if r >= 1e6 else f"{r / 1e3:.0f}k/s"


def _los_all_fresh(path: str) -> tuple[float, float, float]:
    """``hexwar los PATH A01 --all --json`` in a fresh process: (wall s, CPU s, peak RSS MB)."""
    import resource
    import subprocess

    # The child reports its own peak RSS (VmHWM): RUSAGE_CHILDREN's ru_maxrss also counts the
    # pages of this (large) process the child held between fork and exec.
    code = (
        "import atexit, runpy, sys\n"
        "atexit.register(lambda: print('VmHWM', open('/proc/self/status').read()"
        ".split('VmHWM:')[1].split()[0], file=sys.stderr))\n"
        f"sys.argv = ['hexwar', 'los', {path!r}, 'A01', '--all', '--json']\n"
        "runpy.run_module('hexwar.cli', run_name='__main__')\n"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True
    )
    w = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    hwm = [ln.split()[1] for ln in proc.stderr.splitlines() if ln.startswith("VmHWM")]
    rss = int(hwm[-1]) / 1024 if hwm else after.ru_maxrss / 1024
    return w, cpu, rss


def bench_scale(quick: bool) -> list[tuple[str, str, str, str, str]]:
    """Issue 22's figures: ``(figure, measured, baseline, target, ratio)`` rows.

    Rates are given by the clock and, in brackets, by this process's CPU time: on a shared
    machine the clock also counts the time other processes hold the cores.
    """
    import gc
    import subprocess
    import tempfile
    import tracemalloc

    import hexwar.model.los as L

    # The rows before these leave about 300,000 objects the garbage collector tracks (the
    # exact reference's polygons, the pair lists): a full collection walks them all, and one
    # that lands inside a timed call measures the benchmark's own leftovers, not LOS (20% of
    # the one-to-all figure here). Frozen, they are never scanned again; what hexwar makes from
    # here on still is.
    gc.collect()
    gc.freeze()
    out = []
    rng = np.random.default_rng(2022)
    # one-to-all on 100x100 against a plain gather of the same entries, in the same run
    m = make_map(100, 4, hindrance=0.10, hills=3)
    viewers = [Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, 100, (10 if quick else 30, 2))]
    visibility(m, viewers[0])
    wall, cpu = one_to_all(lambda v: visibility(m, v), viewers, 3)
    st = L._state(m)
    # every intervening hex of every target of the first viewer, from the shape's plan
    vc, vr = viewers[0].offset
    plan = L._get_plan(100, 100, vc & 1)
    k0 = (np.arange(100) - vc + 99) * 199 + (99 - vr)
    kk = (k0[:, None] + np.arange(100)[None, :]).ravel()
    idx = L._ragged(plan.ptr_i[kk], plan.ptr_i[kk + 1] - plan.ptr_i[kk])
    idx = plan.rel_i[idx].astype(np.intp)
    src = np.concatenate([np.full(plan.shift, -np.inf), st.btf])
    buf = np.empty(idx.size)
    g_t = best_of(lambda: np.take(src, idx, out=buf, mode="clip"), 7)
    limit = 100 * 100 / g_t
    rate = 100 * 100 / wall
    out.append(
        (
            "one-to-all 100x100 (+hind +hills), wall best (CPU mean)",
            f"{_fmt_rate(rate)} ({_fmt_rate(1e4 / cpu)})",
            BASELINE["oneall100"],
            ">= 10M/s",
            f"{rate / 10e6:.2f}",
        )
    )
    out.append(
        (
            f"  vs plain gather of its {idx.size:,} entries ({_fmt_rate(limit)})",
            f"{100 * rate / limit:.0f}%",
            BASELINE["ratio"],
            ">= 50% (issue 35; issue 22 asked 33%)",
            f"{rate / limit * 2:.2f}",
        )
    )
    # larger maps: one viewer or a few (past the plan limit the geometry is computed per viewer)
    for size, target, key in ((200, None, "oneall200"), (300, 2e6, None), (500, 1e6, None)):
        if quick and size == 500:
            continue
        mm = make_map(size, 5, hindrance=0.10, hills=3)
        vs = [Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, size, (3 if quick else 8, 2))]
        t = time.perf_counter()
        visibility(mm, vs[0])  # a large shape's first call runs without the near table,
        t1 = time.perf_counter()
        visibility(mm, vs[0])  # its second builds it (then kept for the shape)
        t2 = time.perf_counter()
        w, c = one_to_all(lambda v: visibility(mm, v), vs, 1)
        r = size * size / w
        out.append(
            (
                f"one-to-all {size}x{size}, {len(vs)} random viewers, wall (CPU); first call {t1 - t:.2f} s, "
                f"second ({'compiled kernel: no table' if L.kernel_available() else 'builds the near table'}) "
                f"{t2 - t1:.2f} s",
                f"{_fmt_rate(r)} ({_fmt_rate(size * size / c)})",
                BASELINE.get(key or "", "-"),
                f">= {target / 1e6:.0f}M/s" if target else "-",
                f"{r / target:.2f}" if target else "-",
            )
        )
    # the slowest single query after the first, on a fresh 200x200 map (no plan yet)
    L._PLANS.clear()
    m2 = make_map(200, 6, hindrance=0.10, hills=3)
    hexes = [Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, 200, (3000 if quick else 20000, 2))]
    line_of_sight(m2, hexes[0], hexes[1])
    worst = worst_cpu = 0.0
    for a, b in zip(hexes[2::2], hexes[3::2], strict=False):
        t, c = time.perf_counter(), time.process_time()
        line_of_sight(m2, a, b)
        worst_cpu = max(worst_cpu, time.process_time() - c)
        worst = max(worst, time.perf_counter() - t)
    out.append(
        (
            f"slowest single query after the first (200x200, {len(hexes) // 2:,} random pairs), CPU (wall)",
            f"{worst_cpu * 1e3:.1f} ms ({worst * 1e3:.0f} ms)",
            BASELINE["spike"],
            "<= 50 ms",
            f"{50 / (worst_cpu * 1e3):.2f}",
        )
    )
    # LOS caches of a 500x500 map: what stays allocated after queries and a visibility call
    if not quick:
        L._PLANS.clear()
        L._TABLES.clear()
        gc.collect()
        m5 = make_map(500, 7, hindrance=0.10, hills=3)
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        visibility(m5, Hex.from_offset(250, 250))
        visibility(m5, Hex.from_offset(120, 310))  # the second call builds the near table
        for c, r in rng.integers(0, 500, (2000, 2)):
            line_of_sight(m5, Hex.from_offset(250, 250), Hex.from_offset(int(c), int(r)))
        gc.collect()
        kept, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        out.append(
            (
                "LOS caches of a 500x500 map (kept / peak)",
                f"{(kept - base) / 2**20:.0f} / {(peak - base) / 2**20:.0f} MB",
                "-",
                "< 256 MB",
                f"{256 / max((kept - base) / 2**20, 1e-9):.2f}",
            )
        )
        # hexwar los --all on 500x500, in a fresh process
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/m500.json"
            m5.save(path)
            w, cpu, rss = _los_all_fresh(path)
        out.append(
            (
                "hexwar los --all on 500x500 (wall, max RSS)",
                f"{w:.1f} s ({cpu:.1f} s CPU), {rss:.0f} MB",
                BASELINE["losall500"],
                "< 3 s, < 512 MB",
                f"{3 / w:.2f}, {512 / rss:.2f}",
            )
        )
    # the same on an editor-generated open map, where almost no line is blocked early (also
    # with --quick, so `run_all.py --quick` prints it: about 10 s)
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/gen500.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hexwar.cli",
                "edit",
                "--generate",
                "500x500",
                "--seed",
                "7",
                "--out",
                path,
            ],
            stdout=subprocess.DEVNULL,
            check=True,
        )
        w, cpu, rss = _los_all_fresh(path)
    out.append(
        (
            "hexwar los --all on a generated 500x500 map (edit --generate --seed 7; wall, max RSS)",
            f"{w:.1f} s ({cpu:.1f} s CPU), {rss:.0f} MB",
            BASELINE["losallgen"],
            "< 3 s, < 512 MB",
            f"{3 / w:.2f}, {512 / rss:.2f}",
        )
    )
    gc.unfreeze()
    return out


_NEW_PAIRS_CODE = """
import json, sys, time
import numpy as np
from hexwar.model.hexgrid import Hex
from hexwar.model.los import line_of_sight
from hexwar.model.maps import BattleMap
m = BattleMap.load(sys.argv[1])
n = int(sys.argv[2])
rng = np.random.default_rng(35)
cells = rng.integers(0, [m.width, m.height], (2 * n, 2))
pairs = [(Hex.from_offset(int(a[0]), int(a[1])), Hex.from_offset(int(b[0]), int(b[1]))) for a, b in zip(cells[::2], cells[1::2])]
ts = []
for a, b in pairs:
    t = time.perf_counter()
    line_of_sight(m, a, b)
    ts.append(time.perf_counter() - t)
print(json.dumps(ts))
"""


def _new_pairs_fresh(path: str, n: int) -> list[float]:
    """Seconds of ``n`` single queries on new random pairs, in a fresh process (no
    ``visibility`` call, no tables of the shape built yet)."""
    import json
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _NEW_PAIRS_CODE, path, str(n)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def bench_open(quick: bool) -> list[tuple[str, float, str, float]]:
    """Issue 35's LOS figures: ``(figure, measured, target, met)`` rows, ``met >= 1`` when the
    target is met.

    * one-to-all on editor-generated open 500x500 maps (village and steppe styles,
      ``edit --generate 500x500 --seed 7``), a few viewers, the rate by each call's CPU time
      and the slowest call against the median (a table built inside a call shows here);
    * single queries on new random pairs in a fresh process (before any ``visibility``
      call), median, on a 100x100 bench map and the generated 500x500 village map;
    * the exact reference (:func:`hexwar.model.los_exact.line_of_sight_exact`) against the
      fast path on a random sample of pairs of both open maps, and against the one-to-all
      statuses of the first viewer on sampled targets, in this same run.
    """
    import subprocess
    import tempfile

    rows: list[tuple[str, float, str, float]] = []
    rng = np.random.default_rng(35)
    n_view = 2 if quick else 4
    n_pairs = 300 if quick else 2000
    n_exact = 100 if quick else 400
    agree = total = 0
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for style in ("village", "steppe"):
            path = paths[style] = f"{d}/{style}500.json"
            subprocess.run(
                [sys.executable, "-m", "hexwar.cli", "edit", "--generate", "500x500", "--seed", "7"]
                + ["--style", style, "--out", path],
                stdout=subprocess.DEVNULL,
                check=True,
            )
            m = BattleMap.load(path)
            viewers = [Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, 500, (n_view, 2))]
            cpu = []
            first = None
            for v in viewers:
                c = time.process_time()
                vis = visibility(m, v)
                cpu.append(time.process_time() - c)
                first = vis if first is None else first
            med = statistics.median(cpu)
            rate = 500 * 500 / med
            rows.append(
                (
                    f"one-to-all, generated open 500x500 {style} map, median of {n_view} viewers (CPU)",
                    rate,
                    ">= 1M targets/s",
                    rate / 1e6,
                )
            )
            rows.append(
                (
                    "  slowest / median call on that map (first call included)",
                    max(cpu) / med,
                    "<= 3x",
                    3.0 / (max(cpu) / med),
                )
            )
            # the exact reference on random pairs, and on the first viewer's one-to-all answer
            assert first is not None
            for _ in range(n_exact):
                (c1, r1), (c2, r2) = rng.integers(0, 500, (2, 2))
                a, b = Hex.from_offset(int(c1), int(r1)), Hex.from_offset(int(c2), int(r2))
                fast, exact = line_of_sight(m, a, b), line_of_sight_exact(m, a, b)
                agree += (fast.status, fast.hindrances) == (exact.status, exact.hindrances)
                tc, tr = rng.integers(0, 500, 2)
                t_hex = Hex.from_offset(int(tc), int(tr))
                ex = line_of_sight_exact(m, viewers[0], t_hex)
                agree += CODES[ex.status] == int(first[int(tr), int(tc)])
                total += 2
        big = BattleMap.load(paths["village"])
        del big
        small = f"{d}/bench100.json"
        make_map(100, 2, hindrance=0.10, hills=3).save(small)
        for label, path, target in (
            ("100x100 bench map", small, 20.0),
            ("generated 500x500 village", paths["village"], 50.0),
        ):
            ts = _new_pairs_fresh(path, n_pairs)
            med_us = statistics.median(ts) * 1e6
            rows.append(
                (
                    f"single query on new pairs, {label}, fresh process, median of {n_pairs} (us)",
                    med_us,
                    f"< {target:.0f} us",
                    target / med_us,
                )
            )
    rows.append(
        (
            f"exact reference agrees with the fast path on sampled pairs (of {total})",
            float(agree),
            f"= {total}",
            agree / total,
        )
    )
    return rows


def _print_open(quick: bool) -> None:
    print(f"\nissue 35 (open maps, new pairs; load average {os.getloadavg()[0]:.1f})")
    for name, value, target, met in bench_open(quick):
        print(f"FIGURE | {name} | {value:.3g} | {target} | {met:.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer pairs and viewers (about 30 s)")
    ap.add_argument("--scale", action="store_true", help="only issue 22's scale figures")
    ap.add_argument("--open", action="store_true", help="only issue 35's open-map and new-pair figures")
    args = ap.parse_args(argv)
    if args.open:
        _print_open(args.quick)
        return 0
    if args.scale:
        print("issue 22 (scale): figure | measured | baseline (main e9c3826) | target | ratio to target")
        scale = bench_scale(args.quick)
        for row in scale:
            print(" | ".join(row))
        _print_scale_figures(scale)
        return 0
    rows: list[list[str]] = []
    notes: list[str] = []
    maps = [
        ("40x40", make_map(40, 1)),
        ("100x100", make_map(100, 2)),
        ("100x100 +hind +hills", make_map(100, 3, hindrance=0.10, hills=3)),
    ]
    for label, m in maps:
        bench_map(label, m, args.quick, rows, notes)

    m40 = maps[0][1]
    hexes40 = list(m40.hexes())
    c0 = time.process_time()
    t_all = best_of(lambda: [visibility(m40, v) for v in hexes40], 1 if args.quick else 3)
    c_all = (time.process_time() - c0) / (1 if args.quick else 3)

    head = [
        "map",
        "method",
        "single med us",
        "single mean us",
        "one-to-all /s wall best",
        "one-to-all /s CPU mean",
        "fast speed-up single",
        "fast speed-up one-to-all",
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print(
        f"hexwar LOS benchmark  python {platform.python_version()}  numpy {np.__version__}  "
        f"{platform.machine()} x{os.cpu_count()}  load {os.getloadavg()[0]:.2f}  "
        f"compiled LOS kernel: {'yes' if L.kernel_available() else 'no (numpy paths)'}"
    )
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print()
    print(
        f"all ordered pairs of 40x40 (fast visibility from each of {len(hexes40)} hexes): {t_all:.2f} s "
        f"({len(hexes40) ** 2 / t_all / 1e6:.2f}M pairs/s; CPU {c_all:.2f} s)   target < 2 s"
    )
    f100 = [r for r in rows if r[0] == "100x100" and r[1].startswith("fast")][0]
    print(f"one-to-all on 100x100: {f100[4]} target hexes/s wall ({f100[5]} by CPU time)   target >= 2M")
    f40 = [r for r in rows if r[0] == "40x40" and r[1].startswith("fast")][0]
    print(f"single query median: {f40[2]} us (40x40), {f100[2]} us (100x100)   target < 20 us")
    for n in notes:
        print("note: " + n)
    # issue 3's targets as FIGURE lines (met >= 1 when the target is met)
    print(f"FIGURE | all ordered pairs of 40x40 (wall s) | {t_all:.2f} | < 2 s | {2.0 / t_all:.2f}")
    one100 = float(f100[4][:-1]) * (1e6 if f100[4].endswith("M") else 1e3)
    print(f"FIGURE | one-to-all 100x100 (targets/s, wall best) | {f100[4]} | >= 2M/s | {one100 / 2e6:.2f}")
    for lab, row in (("40x40", f40), ("100x100", f100)):
        print(
            f"FIGURE | single query median, repeated pairs, {lab} (us) | {row[2]} | < 20 us | {20 / float(row[2]):.2f}"
        )
    print("\nissue 22 (scale): figure | measured | baseline (main e9c3826) | target | ratio to target")
    scale = bench_scale(args.quick)
    for row in scale:
        print(" | ".join(row))
    _print_scale_figures(scale)
    _print_open(args.quick)
    return 0


def _print_scale_figures(scale: list[tuple[str, str, str, str, str]]) -> None:
    """The scale rows with a target as ``FIGURE`` lines (the least ratio of a row that has two)."""
    for name, measured, _, target, ratio in scale:
        if target == "-" or ratio == "-":
            continue
        met = min(float(x) for x in ratio.split(","))
        print(f"FIGURE | {name.strip()} | {measured} | {target} | {met:.2f}")


if __name__ == "__main__":
    sys.exit(main())
