#!/usr/bin/env python3
"""Compile the shipped card set: ``hexwar/data/cards/compiled.json`` (issue 35).

Loads and validates the card files with the full loader (:func:`hexwar.rules.cards.load_cards`)
and writes the resulting card set with the fingerprint of the card files and of the code that
built it (:mod:`hexwar.rules.cards.shipped`). A game's start then reads that instead of parsing
and validating the files again, as long as neither changed. Run it after editing a card file or
the card code; ``tests/test_cards_compiled.py`` fails while the compiled set is stale (a stale
set is never used: the start falls back to the full load).

Usage::

    python tools/compile_cards.py            # write it
    python tools/compile_cards.py --check    # exit 1 when it is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hexwar.rules.cards import load_cards  # noqa: E402
from hexwar.rules.cards.shipped import card_data_dir, compiled_cards, write_compiled  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the compiled card set; returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the compiled set is stale")
    args = ap.parse_args(argv)
    folder = card_data_dir()
    if args.check:
        ok = compiled_cards(folder) is not None
        print(
            f"{folder / 'compiled.json'}: {'current' if ok else 'STALE: run python tools/compile_cards.py'}"
        )
        return 0 if ok else 1
    path = write_compiled(load_cards(folder), folder)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
