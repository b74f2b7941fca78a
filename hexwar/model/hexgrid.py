"""Hex grid geometry: axial/cube coordinates, CoH offset labels, layouts (R2.1-R2.3).

Conventions follow Red Blob Games' hex guide:

* Axial ``Hex(q, r)`` with the derived cube coordinate ``s = -q - r`` (R2.1).
* Flat-topped hexes in columns; the offset layout is "odd-q": odd-index columns
  (B, D, F, ...) sit half a hex lower (R2.2).
* Labels as printed on Conflict of Heroes maps: spreadsheet column letters then a
  zero-padded row number, ``A01`` is the top-left hex (R2.2).
* Directions are numbered like d6 faces, clockwise from north (R2.3)::

            1 N
      6 NW  ___  2 NE
           /   \\
           \\___/
      5 SW       3 SE
            4 S

>>> Hex.from_label("D07")
Hex(q=3, r=5)
>>> Hex.from_label("D07").neighbor(1).label
'D06'
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import clip

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "Hex",
    "HexLabelError",
    "Layout",
    "column_letters",
    "column_index",
    "hex_line",
]


class HexLabelError(ValueError):
    """Raised when a hex label such as ``"D07"`` cannot be parsed (R2.2).

    The message names the offending input and the expected form.
    """


# R2.3: direction number (d6 face) -> axial step (dq, dr), clockwise from north.
DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (0, 1),
    5: (-1, 1),
    6: (-1, 0),
}
DIRECTION_NAMES: dict[int, str] = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}

_LABEL_RE = re.compile(r"^\s*([A-Za-z]{1,6})\s*([0-9]{1,9})\s*$")  # ASCII only; bounded (R2.2)
_LONG_LABEL_RE = re.compile(r"^\s*[A-Za-z]+\s*[0-9]+\s*$")


def column_letters(col: int) -> str:
    """Return the spreadsheet-style letters of a 0-based column index (R2.2).

    Args:
        col: column index, 0 = ``A``; must be >= 0.

    Raises:
        HexLabelError: if ``col`` is negative (labels exist only on the board).

    >>> [column_letters(i) for i in (0, 25, 26, 51, 52, 701, 702)]
    ['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']
    """
    if col < 0:
        raise HexLabelError(f"column index {col} has no label: labels start at column A (0)")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """Return the 0-based column index of spreadsheet letters, case-insensitive (R2.2).

    Raises:
        HexLabelError: if ``letters`` is empty or holds anything but A-Z.

    >>> column_index("AA"), column_index("zz")
    (26, 701)
    """
    if not letters or not letters.isascii() or not letters.isalpha():
        raise HexLabelError(f"bad column letters {clip(letters)}: expected letters A-Z, AA, AB, ...")
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


#: (q, r, row digits) -> label: the rules' refusal texts name hexes by the thousand per
#: decision (issue 22), so each label is formatted once (bounded: cleared when full).
_LABELS: dict[tuple[int, int, int], str] = {}
_LABELS_MAX = 1 << 20


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """One hex in axial coordinates (R2.1); cube ``s`` is derived.

    Attributes:
        q: axial column coordinate (hexes).
        r: axial row coordinate (hexes).

    Hexes are hashable values; arithmetic ``+``/``-`` works component-wise.
    Offset ``(col, row)`` and labels use the odd-q layout of R2.2.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """Cube coordinate ``s = -q - r`` (R2.1)."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    # -- offset coordinates (odd-q, R2.2) ------------------------------------------------
    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        """Build the hex at odd-q offset ``(col, row)`` (0-based; negatives allowed).

        >>> Hex.from_offset(3, 6)
        Hex(q=3, r=5)
        >>> Hex.from_offset(-1, 0).offset
        (-1, 0)
        """
        return cls(col, row - (col - (col & 1)) // 2)

    @property
    def offset(self) -> tuple[int, int]:
        """Odd-q offset ``(col, row)``, 0-based (R2.2)."""
        return self.q, self.r + (self.q - (self.q & 1)) // 2

    # -- labels (R2.2) ---------------------------------------------------------------------
    @classmethod
    def from_label(cls, label: str) -> Hex:
        """Parse a CoH label such as ``"D07"``, ``"aa12"`` or ``"B105"`` (R2.2).

        Rows are 1-based (``01`` is the top row), columns are spreadsheet letters.

        Raises:
            HexLabelError: naming the input when it is not letters followed by a row >= 1.
        """
        if not isinstance(label, str):
            raise HexLabelError(f"hex label must be text like 'D07', got {clip(label)}")
        m = _LABEL_RE.match(label)
        if not m:
            shown = label if len(label) <= 40 else label[:37] + "..."
            too_long = " (at most 6 letters and 9 digits)" if _LONG_LABEL_RE.match(label) else ""
            raise HexLabelError(
                f"bad hex label {clip(shown)}: expected column letters then a row number, like 'D07'{too_long}"
            )
        row = int(m.group(2))
        if row < 1:
            raise HexLabelError(f"bad hex label {clip(label)}: rows start at 01")
        return cls.from_offset(column_index(m.group(1)), row - 1)

    def to_label(self, row_digits: int = 2) -> str:
        """Label with rows zero-padded to ``row_digits`` (2, or 3 for maps over 99 rows).

        Raises:
            HexLabelError: if the hex lies left of or above the board (negative offset).
        """
        key = (self.q, self.r, row_digits)
        hit = _LABELS.get(key)
        if hit is not None:
            return hit
        col, row = self.offset
        if row < 0:
            raise HexLabelError(f"hex {self!r} lies above row 01 and has no label")
        if len(_LABELS) >= _LABELS_MAX:
            _LABELS.clear()
        hit = _LABELS[key] = f"{column_letters(col)}{row + 1:0{row_digits}d}"
        return hit

    @property
    def label(self) -> str:
        """CoH label with 2-digit rows (``"D07"``; rows past 99 print 3 digits)."""
        return self.to_label(2)

    # -- neighbours and distance (R2.1, R2.3) ----------------------------------------------
    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in d6 direction 1..6 (1 = N, clockwise; R2.3).

        Raises:
            ValueError: if ``direction`` is not 1..6.
        """
        try:
            dq, dr = DIRECTIONS[direction]
        except (KeyError, TypeError):
            raise ValueError(f"direction must be 1..6 (1 = N, clockwise), got {direction!r}") from None
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> list[Hex]:
        """The six adjacent hexes in direction order 1..6 (R2.3)."""
        return [Hex(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS.values()]

    def distance(self, other: Hex) -> int:
        """Hex distance in hexes: ``max(|dq|, |dr|, |ds|)`` (R2.1)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def direction_to(self, other: Hex) -> int | None:
        """The direction 1..6 if ``other`` is adjacent, else ``None``."""
        step = (other.q - self.q, other.r - self.r)
        for d, v in DIRECTIONS.items():
            if v == step:
                return d
        return None

    def ring(self, radius: int) -> list[Hex]:
        """Hexes at exactly ``radius`` hexes, clockwise from the north-most (``[self]`` for 0).

        Raises:
            ValueError: if ``radius`` is negative.
        """
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        out: list[Hex] = []
        h = Hex(self.q, self.r - radius)  # start due north
        # walk SE, S, SW, NW, N, NE: directions 3,4,5,6,1,2
        for d in (3, 4, 5, 6, 1, 2):
            dq, dr = DIRECTIONS[d]
            for _ in range(radius):
                out.append(h)
                h = Hex(h.q + dq, h.r + dr)
        return out

    def spiral(self, radius: int) -> list[Hex]:
        """``self`` then rings 1..``radius``: ``1 + 3 r (r + 1)`` hexes."""
        out = [self]
        for k in range(1, radius + 1):
            out.extend(self.ring(k))
        return out

    def within(self, radius: int) -> Iterator[Hex]:
        """All hexes within ``radius`` hexes (any order)."""
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                yield Hex(self.q + dq, self.r + dr)

    def rotate_left(self, center: Hex | None = None) -> Hex:
        """Rotate 60 degrees counter-clockwise about ``center`` (default origin)."""
        c = center or Hex(0, 0)
        q, r = self.q - c.q, self.r - c.r
        s = -q - r
        return Hex(c.q - r, c.r - s)

    def rotate_right(self, center: Hex | None = None) -> Hex:
        """Rotate 60 degrees clockwise about ``center`` (default origin)."""
        c = center or Hex(0, 0)
        q, r = self.q - c.q, self.r - c.r
        s = -q - r
        return Hex(c.q - s, c.r - q)


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Red Blob lerp-and-round line from ``a`` to ``b`` inclusive (distance + 1 hexes).

    This is the approximate line drawer most hobby engines use; hexwar's LOS (R3) does
    not rely on it, it serves drawing and the LOS benchmark's comparison only.
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    eps = 1e-6
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(a.q + (b.q - a.q) * t + eps, a.r + (b.r - a.r) * t + eps))
    return out


_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class Layout:
    """Maps hexes to pixels for flat-topped hexes (R2.1).

    Attributes:
        size: hex radius in pixels (centre to corner); a hex is ``2*size`` wide and
            ``sqrt(3)*size`` tall.
        origin: pixel position ``(x, y)`` of the centre of ``Hex(0, 0)``.
        y_down: ``True`` when pixel y grows downward (images, shapely maths); ``False``
            for OpenGL / pyglet, where y grows upward and row 01 is drawn at the top.
    """

    size: float = 1.0
    origin: tuple[float, float] = (0.0, 0.0)
    y_down: bool = True

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        """Pixel centre ``(x, y)`` of hex ``h``."""
        x = self.size * 1.5 * h.q
        y = self.size * _SQRT3 * (h.r + h.q / 2.0)
        return (self.origin[0] + x, self.origin[1] + (y if self.y_down else -y))

    def pixel_to_fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial ``(q, r)`` under pixel ``(x, y)``."""
        px = (x - self.origin[0]) / self.size
        py = (y - self.origin[1]) / self.size
        if not self.y_down:
            py = -py
        fq = (2.0 / 3.0) * px
        fr = (-1.0 / 3.0) * px + (_SQRT3 / 3.0) * py
        return fq, fr

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing pixel ``(x, y)`` (cube rounding)."""
        return _cube_round(*self.pixel_to_fractional(x, y))

    def corner_offset(self, corner: int) -> tuple[float, float]:
        """Offset in pixels of corner 0..5 from a hex centre (corner 0 points east)."""
        angle = math.pi / 3.0 * corner
        dy = self.size * math.sin(angle)
        return self.size * math.cos(angle), (dy if self.y_down else -dy)

    def polygon_corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corner pixels of ``h``, counter-clockwise on screen from east."""
        cx, cy = self.hex_to_pixel(h)
        return [(cx + ox, cy + oy) for ox, oy in (self.corner_offset(i) for i in range(6))]
