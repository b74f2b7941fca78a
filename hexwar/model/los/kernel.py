"""The compiled line-of-sight kernel (issue 35), when it was built, and which maps it takes.

``hexwar/model/los/_ckernel.c`` decides exactly as the numpy paths do (the same integer tests
of R3.2-R3.5, see :mod:`hexwar.model.los`), walking each line hex by hex from the viewer with an
early exit at its first blocking hex: one-to-all and single queries on maps of any size without
plans, tables or per-offset caches. pip builds it from the sdist when a C compiler is there
(``setup.py``, ``optional=True``); without it, or with ``HEXWAR_LOS_KERNEL=0`` in the
environment, hexwar uses the numpy paths (same answers, slower). One-to-all takes it on maps of
every size (a shipped scenario's 36x24 map: 40 us a viewer against the viewer plans' 166 us);
single queries on maps up to 64x64 hexes keep the per-offset cache. tests/test_los.py and
tests/test_los_viewer.py, which test the numpy paths, put one-to-all on small maps back on them.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

_KERNEL: ModuleType | None
try:  # by name: the extension module is no source file of the package (tools/code_counts.py)
    _KERNEL = importlib.import_module(f"{__package__}._ckernel")
except ImportError:  # pragma: no cover - depends on the install
    _KERNEL = None
if os.environ.get("HEXWAR_LOS_KERNEL", "1") == "0":
    _KERNEL = None

_KERNEL_MIN_HEXES = 64 * 64 + 1  # single queries on maps with fewer hexes keep the numpy path
#: one-to-all takes the kernel on maps of every size: 4-10x less CPU than the viewer plans from
#: a 5x1 to a 64x64 map (36x24, a shipped scenario's size: 40 us against 166 us a viewer)
_KERNEL_MIN_HEXES_ALL = 0
_KERNEL_MAX_SIDE = 4000  # every product of the kernel's tests fits int64 up to this map side


def kernel_available() -> bool:
    """Whether the compiled kernel is loaded (built by pip, not switched off by
    ``HEXWAR_LOS_KERNEL=0``)."""
    return _KERNEL is not None
