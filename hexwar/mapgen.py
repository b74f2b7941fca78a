"""Generated battle maps: a playable map from a seed (issue 19).

:func:`generate` draws a map with the shipped maps' drawing kit (:class:`hexwar.mapkit.MapBuilder`):
ground levels (hills on a rolling steppe), woods, brush, wheat fields and orchards, a river
with marshy banks crossed by bridges, settlements (villages strung along their street, or a
town of street blocks) holding buildings of all three DRs (wood 13, stone 14, a reinforced
bunker 15; R8.2), roads that join the settlements and run from the west edge to the east
edge, and deploy-zone markers on the two opposite edges (german west, soviet east; R5.2).

Determinism. The same ``(width, height, seed, style)`` gives the byte-identical map on every
platform and numpy version: every choice is drawn from a hash stream of the seed (BLAKE2b,
like :func:`hexwar.mapkit.noise`), not from a library generator whose streams may change.
This is map content, not game randomness: a game's dice still come from its one seeded
generator (R1.2).

Checks. Every generated map is checked before it is returned (:func:`map_problems`): it
loads as a valid map file, both deploy zones reach each other by road, and its line of sight
is a mix, neither all clear nor all blocked, measured over the visibility maps
(:func:`hexwar.model.los.visibility`) of viewers spread over the map (:func:`los_mix`). A seed whose
first draw fails is redrawn with a counter in the stream, so every seed still gives one map.

The editor's New map dialog calls :func:`generate` (or :func:`generate_document`), with
:data:`STYLES` for its choices.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import HexwarError, clip, small_uint
from .mapkit import MapBuilder, Point
from .model.hexgrid import Hex
from .model.maps import MAX_MAP_SIDE, BattleMap

__all__ = [
    "STYLES",
    "MIN_SIDE",
    "LosMix",
    "generate",
    "generate_document",
    "los_mix",
    "map_problems",
    "parse_generated",
    "road_connected",
]

STYLES = ("steppe", "village", "city", "river", "forest")
MIN_SIDE = 12  # hexes: room for two deploy zones, a settlement and a river between them
MAX_ATTEMPTS = 8


class _Stream:
    """Deterministic draws from ``(seed, style, size, attempt)`` by name: ``u("river")`` in [0, 1)."""

    def __init__(self, *key: Any) -> None:
        self.key = ":".join(str(k) for k in key)
        self.n = 0

    def u(self, tag: str = "") -> float:
        self.n += 1
        d = hashlib.blake2b(f"{self.key}:{tag}:{self.n}".encode(), digest_size=8).digest()
        return int.from_bytes(d, "big") / 2.0**64

    def uniform(self, lo: float, hi: float, tag: str = "") -> float:
        return lo + (hi - lo) * self.u(tag)

    def randint(self, lo: int, hi: int, tag: str = "") -> int:
        """An integer in ``lo..hi`` inclusive."""
        return lo + min(hi - lo, int(self.u(tag) * (hi - lo + 1)))

    def chance(self, p: float, tag: str = "") -> bool:
        return self.u(tag) < p


@dataclass(frozen=True)
class _Style:
    hills: tuple[int, int]
    woods: float  # share of the map in woods, roughly
    fields: int
    river: float  # chance of a river
    settlements: tuple[int, int]
    town: bool
    stone: float


_STYLES: dict[str, _Style] = {
    "steppe": _Style((2, 4), 0.04, 4, 0.35, (1, 1), False, 0.05),
    "village": _Style((1, 3), 0.08, 3, 0.5, (1, 2), False, 0.1),
    "city": _Style((0, 1), 0.03, 1, 0.5, (1, 1), True, 0.5),
    "river": _Style((1, 2), 0.08, 2, 1.0, (1, 2), False, 0.15),
    "forest": _Style((1, 3), 0.30, 1, 0.4, (1, 1), False, 0.05),
}


@dataclass(frozen=True)
class LosMix:
    """How the lines of sight of a map split (R3), over sampled viewers' visibility maps.

    Attributes:
        viewers: number of viewer hexes sampled.
        clear, hindered, blocked: shares (0..1) of viewer-target pairs of each status.
    """

    viewers: int
    clear: float
    hindered: float
    blocked: float

    @property
    def mixed(self) -> bool:
        """Neither (nearly) all clear nor (nearly) all blocked: each way at least 5 %."""
        return self.blocked >= 0.05 and (self.clear + self.hindered) >= 0.05


def los_mix(m: BattleMap, samples: int = 12) -> LosMix:
    """Shares of clear, hindered and blocked lines of sight from ``samples`` viewers.

    The viewers are spread evenly over the map (a lattice of hexes); each contributes its
    whole visibility map (:func:`hexwar.model.los.visibility`, R3) to the counts, its own hex left out.
    """
    from .model.los import BLOCKED, CLEAR, visibility

    k = max(1, int(math.isqrt(samples)))
    viewers = {
        Hex.from_offset(
            min(m.width - 1, int((i + 0.5) * m.width / k)), min(m.height - 1, int((j + 0.5) * m.height / k))
        )
        for i in range(k)
        for j in range(k)
    }
    counts = np.zeros(3, dtype=np.int64)
    for v in sorted(viewers):
        vis = visibility(m, v)
        n = vis.size - 1
        c = int((vis == CLEAR).sum()) - 1
        b = int((vis == BLOCKED).sum())
        counts += (c, n - c - b, b)
    total = max(1, int(counts.sum()))
    return LosMix(len(viewers), float(counts[0] / total), float(counts[1] / total), float(counts[2] / total))


def road_connected(m: BattleMap, a: tuple[Hex, ...], b: tuple[Hex, ...]) -> bool:
    """True when some road hex of zone ``a`` joins some road hex of zone ``b`` along road hexes (R2.4)."""
    roads = {h for h in m.hexes() if m.road[m.index(h)]}
    start = [h for h in a if h in roads]
    goal = set(b) & roads
    seen = set(start)
    todo = deque(start)
    while todo:
        h = todo.popleft()
        if h in goal:
            return True
        for n in m.neighbors(h):
            if n in roads and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def map_problems(m: BattleMap) -> list[str]:
    """What keeps ``m`` from being a playable generated map (empty when it is fine).

    Checks: it round-trips through the map file loader, it has deploy zones for both
    sides that road joins, buildings of all three DRs (13, 14, 15), and a LOS mix.
    """
    out = []
    try:
        BattleMap.from_json(m.to_json(), "<generated>", m.rules)
    except HexwarError as exc:
        out.append(f"not a valid map: {exc}")
    g, s = m.deploy.get("german", ()), m.deploy.get("soviet", ())
    if not g or not s:
        out.append("a side has no deploy zone")
    elif not road_connected(m, g, s):
        out.append("no road joins the two deploy zones")
    drs = {int(x) for x in m.dr_array().flat} - {0}
    if not {13, 14, 15} <= drs:
        out.append(f"buildings of DR {sorted(drs)}; expected all of 13, 14 and 15")
    mix = los_mix(m)
    if not mix.mixed:
        out.append(
            f"line of sight is not a mix: {mix.clear:.0%} clear, {mix.hindered:.0%} hindered, {mix.blocked:.0%} blocked"
        )
    return out


def _river(b: MapBuilder, r: _Stream) -> list[Point] | None:
    """A river from the north edge to the south edge through the middle third, meandering."""
    w, h = b.width, b.height
    x = r.uniform(0.38, 0.62, "rx") * w
    pts: list[Point] = [(int(round(x)), -1)]
    legs = max(2, h // 6)
    for i in range(1, legs):
        x = min(0.68 * w, max(0.32 * w, x + r.uniform(-0.12, 0.12, "rm") * w))
        pts.append((int(round(x)), int(round(i * h / legs))))
    pts.append((int(round(x)), h))
    return pts


def _draw(width: int, height: int, seed: int, style: str, attempt: int, name: str) -> BattleMap:
    st = _STYLES[style]
    r = _Stream("hexwar-mapgen-1", seed, style, width, height, attempt)
    salt = f"{seed}:{style}:{attempt}:"
    desc = (
        f"A generated {style} map ({width} x {height} hexes, seed {seed}): the Germans deploy on the west "
        "edge, the Soviets on the east edge; roads join the settlements and both edges."
    )
    b = MapBuilder(width, height, name, desc, base_level=1.0)
    dz = max(2, width // 10)
    # ground: hills away from the deploy edges
    for i in range(r.randint(*st.hills, "hills")):
        c = (r.randint(dz + 1, width - dz - 2, f"hc{i}"), r.randint(1, height - 2, f"hr{i}"))
        b.hill(
            c, r.uniform(2.2, 3.6, "hp"), r.uniform(0.15, 0.3, "hrad") * min(width, height) + 2.5, base=1.0
        )
    river = _river(b, r) if r.chance(st.river, "river?") else None
    if river is not None:
        b.carve(river, 0.0, 0.6, 0.7)
        b.paint(b.band(river, 3.0), "m", chance=0.5, salt=salt + "marsh")
        b.paint(b.band(river, 4.4), ",", over=".", chance=0.3, salt=salt + "bank")
        b.paint(b.path(river), "~")
    # woods and fields
    area = width * height
    target = st.woods * area
    i = 0
    woods = b.map.rules.index_of_key("woods")
    while int((b.map.terrain == woods).sum()) < target and i < 40:
        c = (r.randint(0, width - 1, f"wc{i}"), r.randint(0, height - 1, f"wr{i}"))
        rad = r.uniform(1.2, 1.2 + 0.12 * min(width, height), "wrad")
        b.paint(
            b.ellipse(c, rad, rad * r.uniform(0.6, 1.2, "wry"), rough=0.6, salt=f"{salt}w{i}"), "T", keep="~m"
        )
        i += 1
    for j in range(st.fields + r.randint(0, 2, "fields")):
        c0, r0 = r.randint(0, width - 4, f"fx{j}"), r.randint(0, height - 4, f"fy{j}")
        fw, fh = r.randint(3, max(3, width // 5), "fw"), r.randint(3, max(3, height // 5), "fh")
        b.paint(b.rect(c0, r0, c0 + fw, r0 + fh), "w" if r.chance(0.7, "fk") else ",", over=".")
    for j in range(r.randint(2, 4, "brush")):
        c = (r.randint(0, width - 1, f"bx{j}"), r.randint(0, height - 1, f"by{j}"))
        b.paint(b.ellipse(c, 1.6, 1.2, rough=0.5, salt=f"{salt}b{j}"), ",", over=".")
    # settlements between the deploy zones, on dry ground
    n_set = r.randint(*st.settlements, "settlements")
    centres: list[Hex] = []
    for k in range(n_set):
        lo = dz + 2 + (width - 2 * dz - 4) * k // n_set
        hi = dz + 2 + (width - 2 * dz - 4) * (k + 1) // n_set - 1
        for _ in range(12):
            hx = Hex.from_offset(r.randint(lo, max(lo, hi), "sx"), r.randint(2, height - 3, "sy"))
            if b.code(hx) not in "~m" and all(hx.distance(o) >= 5 for o in centres):
                break
        centres.append(hx)
    # the main road: west edge -> settlements -> east edge, crossing the river on bridges
    y_w, y_e = r.randint(1, height - 2, "yw"), r.randint(1, height - 2, "ye")
    pts: list[Point] = [(-1, y_w)]
    pts += [h.offset for h in sorted(centres, key=lambda h: h.offset[0])]
    pts.append((width, y_e))
    chain = b.path(pts)
    b.road((), hexes=chain, bridges=sum(1 for h in chain if b.code(h) == "~"))
    # side roads from each settlement to the north or south edge
    for k, cen in enumerate(centres):
        north = r.chance(0.5, f"side{k}")
        end = (cen.offset[0] + r.randint(-3, 3, "se"), -1 if north else height)
        side = b.path([cen.offset, end])
        b.road((), hexes=side, bridges=sum(1 for h in side if b.code(h) == "~"))
    # buildings
    for k, cen in enumerate(centres):
        if st.town:
            c0, r0 = cen.offset
            span_c, span_r = max(4, width // 5), max(4, height // 4)
            within = b.rect(c0 - span_c, r0 - span_r, c0 + span_c, r0 + span_r)
            b.street_grid(
                range(c0 - span_c + 1, c0 + span_c, 3),
                range(r0 - span_r + 1, r0 + span_r, 4),
                within,
                over=".w,o",
            )
            b.city_blocks(
                within,
                stone_share=(st.stone * 0.5, st.stone, min(0.95, st.stone * 1.6)),
                salt=f"{salt}city{k}",
                over=".w,o",
            )
        else:
            street = [
                h
                for h in b.rect(cen.offset[0] - 5, cen.offset[1] - 5, cen.offset[0] + 5, cen.offset[1] + 5)
                if b.map.road[b.map.index(h)] and h.distance(cen) <= 5
            ]
            b.village(street, density=0.8, stone=st.stone, salt=f"{salt}vil{k}", garden_chance=0.6)
    # the three DRs in the main settlement: a stone church and a bunker beside the street
    main = centres[0]
    spots = [
        h
        for h in b.ring_of([main]) + b.ring_of(b.ring_of([main]))
        if b.code(h) not in "~m" and not b.map.road[b.map.index(h)]
    ]
    if spots:
        b.paint([spots[0]], "s")
    if len(spots) > 1:
        b.paint([spots[-1]], "R")
    m = b.finish()
    m.deploy = {
        "german": tuple(Hex.from_offset(c, rr) for c in range(dz) for rr in range(height)),
        "soviet": tuple(Hex.from_offset(c, rr) for c in range(width - dz, width) for rr in range(height)),
    }
    m.version = 0
    return m


def generate(
    width: int, height: int, seed: int = 0, style: str = "village", name: str | None = None
) -> BattleMap:
    """A playable map of ``width`` x ``height`` hexes drawn from ``seed`` in ``style``.

    Args:
        width, height: size in hexes (:data:`MIN_SIDE`..500 each).
        seed: any integer >= 0; the same arguments always give the same map.
        style: one of :data:`STYLES`: ``steppe`` (open, rolling, hills), ``village`` (villages
            on a road), ``city`` (a town of street blocks, much stone), ``river`` (always a
            river with bridges between the sides), ``forest`` (large woods).
        name: display name (default "Generated STYLE map, seed N").

    Returns:
        the map, with deploy-zone markers on the west (german) and east (soviet) edges.

    Raises:
        HexwarError: for a size, seed or style out of range, or (never seen) a seed whose
            every attempt fails the checks of :func:`map_problems`.
    """
    if style not in STYLES:
        raise HexwarError(f"unknown map style {style!r}; expected one of {', '.join(STYLES)}")
    if not (MIN_SIDE <= width <= MAX_MAP_SIDE and MIN_SIDE <= height <= MAX_MAP_SIDE):
        raise HexwarError(
            f"a generated map needs {MIN_SIDE}..{MAX_MAP_SIDE} hexes on each side, got {width}x{height}"
        )
    if not isinstance(seed, int) or seed < 0:
        raise HexwarError(f"seed {seed!r}: expected an integer >= 0")
    name = name or f"Generated {style} map, seed {seed}"
    last: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        try:
            m = _draw(width, height, seed, style, attempt, name)
        except ValueError as exc:  # a road the kit refused (a river moved under it)
            last = [str(exc)]
            continue
        last = map_problems(m)
        if not last:
            return m
    raise HexwarError(f"no playable {style} map from seed {seed} at {width}x{height}: {'; '.join(last)}")


def generate_document(width: int, height: int, seed: int = 0, style: str = "village") -> Any:
    """An :class:`hexwar.editor.model.EditorDocument` on a freshly generated map (unsaved, no path).

    The entry point of the editor's New map > Generate choice.

    Raises:
        HexwarError: as :func:`generate`.
    """
    import importlib

    # imported by name: the generator (used by the game layer) never depends on the editor's code
    model = importlib.import_module("hexwar.editor.model")
    return model.EditorDocument(generate(width, height, seed, style))


def parse_generated(spec: str, default_size: tuple[int, int] = (30, 24)) -> tuple[int, int, int, str]:
    """``"generated:SEED[:STYLE][:WxH]"`` -> ``(width, height, seed, style)``.

    Raises:
        HexwarError: naming the text when it is not in that form.

    >>> parse_generated("generated:7"), parse_generated("generated:7:river:40x30")
    ((30, 24, 7, 'village'), (40, 30, 7, 'river'))
    """
    parts = spec.split(":")
    if parts[0] != "generated" or len(parts) < 2 or small_uint(parts[1], 18) is None or len(parts) > 4:
        raise HexwarError(
            f"--map {clip(spec)}: expected generated:SEED[:STYLE][:WxH], e.g. generated:7:river:30x24"
        )
    seed = int(parts[1])
    style, size = "village", default_size
    for p in parts[2:]:
        if p in STYLES:
            style = p
        else:
            m = re.fullmatch(r"(\d{1,4})x(\d{1,4})", p)
            if not m or not all(MIN_SIDE <= int(v) <= MAX_MAP_SIDE for v in m.groups()):
                raise HexwarError(
                    f"--map {spec!r}: {p!r} is neither a style ({', '.join(STYLES)}) nor a size "
                    f"WIDTHxHEIGHT with sides {MIN_SIDE}..{MAX_MAP_SIDE}"
                )
            size = (int(m.group(1)), int(m.group(2)))
    return size[0], size[1], seed, style
