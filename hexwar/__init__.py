"""hexwar: a hex-map tactical wargame simulator of the 1943 Eastern Front.

See README.md and docs/architecture.md; the rules specification is ../shared/RULES.md.
"""

__version__ = "0.1.0"

import os as _os

#: Process defaults hexwar sets when the environment leaves them unset (issue 35, a game's
#: start; docs/architecture.md "Process defaults"). A user's own value always wins, and a value
#: set after numpy or the first pydantic model is built changes nothing. OpenBLAS: hexwar does
#: element-wise array work (LOS gathers, maps, heatmaps), never BLAS-sized linear algebra, and
#: OpenBLAS's thread pool, started at numpy's import with its threads spinning, costs every
#: process 0.04-0.05 s of CPU and competes with Dask's workers for the same cores. pydantic: a
#: plugin scan reads every installed package's metadata at the first model (about 0.01 s), and
#: hexwar's file checks are its own, not a plugin's to observe or change.
PROCESS_DEFAULTS: dict[str, str] = {"OPENBLAS_NUM_THREADS": "1", "PYDANTIC_DISABLE_PLUGINS": "__all__"}
for _name, _value in PROCESS_DEFAULTS.items():
    _os.environ.setdefault(_name, _value)

from . import compat as _compat  # noqa: E402

_compat.install()
