"""Number formatting and intervals shared by the simulation harness's reports: the 95% Wilson
score interval of a probability (sound near 0 and 1, where most hexes of a landing map lie),
the normal interval of a mean, aligned text tables and CSV rows (issue 34: cut from
:mod:`hexwar.sim.report`, which still offers every public name).

>>> lo, hi = wilson(50, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Z95", "format_table", "mean_interval", "rows_csv", "wilson"]

Z95 = 1.959963984540054  #: two-sided 95% normal quantile


def wilson(k: Any, n: int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """95% Wilson score interval ``(lo, hi)`` of a proportion ``k / n`` (arrays or scalars).

    Returns ``(0, 1)`` when ``n`` is 0.
    """
    k = np.asarray(k, dtype=np.float64)
    if n <= 0:
        return np.zeros_like(k), np.ones_like(k)
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def mean_interval(mean: Any, sd: Any, n: int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """``mean -+ z * sd / sqrt(n)`` (arrays or scalars)."""
    half = z * np.asarray(sd, dtype=np.float64) / math.sqrt(max(n, 1))
    m = np.asarray(mean, dtype=np.float64)
    return m - half, m + half


def _r(x: Any, nd: int = 6) -> float:
    return round(float(x), nd)


def _frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def format_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], align: str | None = None) -> str:
    """Aligned plain-text table: ``align`` is one ``l``/``r`` per column (default: first left, rest right).

    >>> print(format_table(["hex", "p"], [["D07", "0.5"], ["D05", "0.03"]]))
    hex     p
    ---  ----
    D07   0.5
    D05  0.03
    """
    rows = [[str(c) for c in row] for row in rows]
    n = len(headers)
    align = align or ("l" + "r" * (n - 1))
    widths = [max([len(headers[i])] + [len(row[i]) for row in rows]) for i in range(n)]

    def fmt(cells: Sequence[str]) -> str:
        out = [c.ljust(widths[i]) if align[i] == "l" else c.rjust(widths[i]) for i, c in enumerate(cells)]
        return "  ".join(out).rstrip()

    lines = [fmt(list(headers)), "  ".join("-" * w for w in widths)]
    lines.extend(fmt(row) for row in rows)
    return "\n".join(lines)


def _p(x: float) -> str:
    return f"{x:.4f}"


def _ci(ci: Sequence[float]) -> str:
    return f"{ci[0]:.4f}-{ci[1]:.4f}"


def rows_csv(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text (header + rows, ``\\n`` line ends)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(headers)
    for row in rows:
        w.writerow(row)
    return buf.getvalue()
