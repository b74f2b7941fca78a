"""hexwar: a hex-map tactical wargame simulator of the 1943 Eastern Front.

See README.md and docs/architecture.md; the rules specification is ../shared/RULES.md.
"""

__version__ = "0.1.0"

from . import compat as _compat

_compat.install()
