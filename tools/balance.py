#!/usr/bin/env python3
"""Scenario balance: a thin wrapper around ``hexwar balance`` (issue 20 moved the work there).

``python tools/balance.py ARGS`` runs ``hexwar balance ARGS``; the old ``--jobs K`` means
``--workers K``. Everything else - seeds from (scenario, variant, game number), the table with
95% Wilson intervals, ``--update-docs``, Dask clusters - is documented in ``hexwar balance
--help`` and docs/sim.md.

Usage::

    python tools/balance.py --games 200 --workers 2 --update-docs
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hexwar balance`` with ``argv``; returns its exit status."""
    from hexwar.cli import main as hexwar_main

    args = list(sys.argv[1:] if argv is None else argv)
    args = ["--workers" if a == "--jobs" else a.replace("--jobs=", "--workers=") for a in args]
    return hexwar_main(["balance", *args])


if __name__ == "__main__":
    sys.exit(main())
