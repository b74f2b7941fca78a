"""``python -m hexwar.cli``: the same as the ``hexwar`` console script."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
