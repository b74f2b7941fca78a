"""The unit of work of a sweep on a cluster: a chunk of runs of any kind (artillery, fire or a
scenario's what-if games), one row each, in sweep order (issue 20, :mod:`hexwar.cluster`).

It sits above :mod:`hexwar.sim.sweep` and :mod:`hexwar.sim.scenario_sweep`, which do not import
it (issue 34: no import loop).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .scenario_sweep import sweep_scenario
from .sweep import sweep_artillery, sweep_fire

__all__ = ["sweep_chunk"]


def sweep_chunk(items: list[tuple[str, Any, dict[str, Any], dict[str, Any], int]]) -> list[dict[str, Any]]:
    """Run a chunk of sweep runs (on a Dask worker or in this process), one row each, in order.

    Args:
        items: ``(kind, battlemap or scenario, keyword arguments, parameter values, seed)`` with
            kind ``"artillery"`` (:func:`sweep_artillery`), ``"fire"`` (:func:`sweep_fire`) or
            ``"scenario"`` (:func:`~hexwar.sim.scenario.sweep_scenario`, given the scenario); a run
            is the sweep of one combination and one seed, so its row is exactly the row the
            whole sweep gives for them (every die is keyed by its seed, :mod:`hexwar.sim.seeding`).

    Raises:
        SweepError: as the sweep functions do.
    """
    rows: list[dict[str, Any]] = []
    fns: dict[str, Callable[..., list[dict[str, Any]]]] = {
        "artillery": sweep_artillery,
        "fire": sweep_fire,
        "scenario": sweep_scenario,
    }
    for kind, source, kw, params, seed in items:
        rows += fns[kind](source, **kw, vary={k: [v] for k, v in params.items()}, seeds=[seed])
    return rows
