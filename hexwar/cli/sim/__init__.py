"""``hexwar sim artillery | fire | sweep``: the simulation harness on the command line (issue 9).

* ``hexwar sim artillery MAP_OR_SCENARIO --target HEX --side german|soviet [--missions N] [--bonus]
  [--trials N] [--seed S] [--json] [--csv FILE] [--png FILE]``
* ``hexwar sim fire MAP_OR_SCENARIO --ignite HEX [--ignite HEX ...] --turns T [--trials N]
  [--seed S] [--variant burnout] [--json] [--csv FILE] [--png FILE]``
* ``hexwar sim sweep artillery|fire MAP_OR_SCENARIO ... --vary NAME=VALUES [--vary ...]
  [--seeds 0..4] [--trials N] [--csv FILE] [--json] [--workers K] [--cluster local|none|tcp://HOST:8786]``
  (``--cluster``: the runs in chunks on Dask, same rows as on one core; issue 20, docs/sim.md)

``MAP_OR_SCENARIO`` is a map or scenario file, or a shipped map or scenario name. A scenario
brings its units (their expected artillery attacks; viewpoints for the LOS cut by fire), its
objectives (viewpoints too), each side's artillery weapon, hit number and missions, and its rule
variants. Every bad input is one sentence on stderr and exit status 2 (``hexwar.cli.main``).

Heatmaps (``--png``) are drawn on the real map by hexwar's pyglet renderer, headless, with a
legend; only :mod:`hexwar.cli.sim.heatmap` (never :mod:`hexwar.sim`) loads it.

One module per subcommand (``artillery``, ``fire``, ``scenario``, ``sweep``), what they share in
:mod:`hexwar.cli.sim.common`, the heatmaps in :mod:`hexwar.cli.sim.heatmap`; this package only
assembles the ``sim`` group (issue 34).
"""

from __future__ import annotations

import click

from .artillery import artillery, artillery_heatmap_title
from .common import SimSource, load_source
from .fire import fire, fire_heatmap_frames
from .heatmap import render_heatmap, render_heatmap_strip
from .scenario import scenario_cmd
from .sweep import sweep

__all__ = [
    "SimSource",
    "artillery_heatmap_title",
    "fire_heatmap_frames",
    "load_source",
    "render_heatmap",
    "render_heatmap_strip",
    "sim",
]


@click.group("sim")
def sim() -> None:
    """Monte Carlo of artillery drift and fire spread on a real map, on the game's own rules."""


for _command in (artillery, fire, scenario_cmd, sweep):
    sim.add_command(_command)
