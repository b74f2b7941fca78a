#!/usr/bin/env python3
"""Scenario map states: a shipped map with the battle's earlier damage (R8.1, R8.3, R8.4).

A scenario starts on the map as its file stores it, overlays included (wrecks, rubble,
fires: ``hexwar.model.maps`` keeps them per hex). Where a battle begins in an already damaged place
- Kharkov in March 1943, fought over for the third time, with blocks burning - the scenario
names a *derived* map in ``scenarios/maps/``: the shipped map (``maps/<base>.json``, built by
``tools/build_maps.py``) with the overlays listed here set through the
:class:`~hexwar.model.maps.BattleMap` API (``set_fire``, ``set_rubble``, ``add_wreck``), which
refuses fire or rubble where no building stands. The derived files are generated, never
edited by hand; ``tests/test_scenarios.py`` checks they are up to date.

Usage::

    python tools/scenario_maps.py            # write every derived map (atomic writes)
    python tools/scenario_maps.py --check    # exit 1 and name the stale files
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hexwar.errors import HexwarError
from hexwar.model.maps import BattleMap

__all__ = ["Derived", "DERIVED", "build", "check", "write", "main"]

ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = ROOT / "maps"
OUT_DIR = ROOT / "scenarios" / "maps"


@dataclass(frozen=True)
class Derived:
    """A shipped map plus overlays.

    Attributes:
        base: shipped map name (``maps/<base>.json``).
        name: display name of the derived map.
        note: sentence appended to the base map's description.
        fires: building hexes burning at the start (R8.4).
        rubble: building hexes already rubble (R8.3).
        wrecks: hex label -> wreck counter ids (``hexwar/data/wrecks.toml``, R8.1).
    """

    base: str
    name: str
    note: str
    fires: tuple[str, ...] = ()
    rubble: tuple[str, ...] = ()
    wrecks: dict[str, tuple[str, ...]] = field(default_factory=dict)


DERIVED: dict[str, Derived] = {
    # Kharkov was taken by the Soviets in February 1943 and fought over again in March: blocks
    # burn east of Sumskaya street, by the Lopan and in the factory quarter; knocked-out T-34s
    # and a Panzer III lie in the streets north of the centre.
    "kharkov_1943_03": Derived(
        base="kharkov",
        name="Kharkov, 12 March 1943",
        note=("12 March 1943: three blocks are burning (east of Sumskaya street at Q07, by the Lopan "
              "at J12, in the factory quarter at Z09); more rubble along Sumskaya street; wrecked "
              "T-34s and a Panzer III from the fighting of 11 March in the streets north of the centre."),
        fires=("Q07", "J12", "Z09"),
        rubble=("Q05", "U05", "M11", "S12"),
        wrecks={"P06": ("su-5",), "T06": ("su-3",), "L04": ("de-5",), "P10": ("su-4",)},
    ),
}


def build(name: str) -> BattleMap:
    """The derived map ``name`` (a key of :data:`DERIVED`).

    Raises:
        KeyError: for an unknown name.
        MapError: (from BattleMap) when an overlay does not fit its hex.
    """
    d = DERIVED[name]
    m = BattleMap.load(MAPS_DIR / f"{d.base}.json")
    m.name = d.name
    m.description = f"{m.description} {d.note}"
    for lab in d.rubble:
        m.set_rubble(m.hex_at(lab), True)
    for lab in d.fires:
        m.set_fire(m.hex_at(lab), True)
    for lab, ids in d.wrecks.items():
        for w in ids:
            m.add_wreck(m.hex_at(lab), w)
    return m


def write(names: Sequence[str], out_dir: Path = OUT_DIR) -> list[Path]:
    """Build ``names`` and save them atomically as ``out_dir/<name>.json``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in names:
        p = out_dir / f"{n}.json"
        build(n).save(p)
        paths.append(p)
    return paths


def check(names: Sequence[str], out_dir: Path = OUT_DIR) -> list[str]:
    """Names whose file in ``out_dir`` is missing or differs from what this tool builds."""
    stale = []
    for n in names:
        p = out_dir / f"{n}.json"
        try:
            text = p.read_text(encoding="utf-8")
        except OSError:
            stale.append(n)
            continue
        if text != build(n).to_text():
            stale.append(n)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry; returns the exit status."""
    ap = argparse.ArgumentParser(description="Write the scenario map states (shipped maps plus fires, rubble, wrecks).")
    ap.add_argument("names", nargs="*", help=f"derived maps (default all: {', '.join(DERIVED)})")
    ap.add_argument("--check", action="store_true", help="verify the files are up to date; write nothing")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in DERIVED]
    if unknown:
        print(f"scenario_maps: unknown map(s) {unknown}; expected some of {list(DERIVED)}", file=sys.stderr)
        return 2
    names = args.names or list(DERIVED)
    try:
        if args.check:
            stale = check(names)
            for n in stale:
                print(f"stale: {OUT_DIR / (n + '.json')} differs from what tools/scenario_maps.py builds")
            if stale:
                return 1
            print(f"ok: {len(names)} scenario map(s) up to date")
            return 0
        for p in write(names):
            print(f"wrote {p.relative_to(ROOT)}")
    except HexwarError as exc:
        print(f"scenario_maps: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
