"""Sweeps of a scenario's what-if games (``hexwar sim sweep scenario``): every combination of
targets, ignition hexes and scenario fields (:func:`~hexwar.sim.scenario.scenario_with`) and
seed, one row each (R5.1, R8, R9 through :func:`~hexwar.sim.scenario.simulate_scenario`).

It sits above both :mod:`hexwar.sim.scenario` (the what-if games) and :mod:`hexwar.sim.sweep`
(the runs and the CSV), neither of which imports it (issue 34: no import loop).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..model.hexgrid import Hex
from .scenario import (
    PlannedMission,
    ScenarioPlan,
    ScenarioSimError,
    _hex_on,
    parse_ignite,
    scenario_with,
    simulate_scenario,
)
from .sweep import SweepError, sweep_runs

__all__ = ["plan_with", "sweep_scenario"]


def plan_with(plan: ScenarioPlan, scenario: Any, params: dict[str, Any]) -> ScenarioPlan:
    """``plan`` with every mission moved to ``params["target"]`` and every ignition to
    ``params["ignite"]`` (hex labels; with no planned ignition, one before play, turn 0).

    Raises:
        ScenarioSimError: for a ``target`` without planned missions or an ``ignite`` hex
            without a building.
    """
    missions, ignitions = plan.missions, plan.ignitions
    if "target" in params:
        if not missions:
            raise ScenarioSimError(
                "--vary target needs a planned mission (--target [SIDE:]HEX@TURNS) to move: "
                "it gives the side and the turns"
            )
        h = _hex_on(scenario, str(params["target"]), "--vary target")
        missions = tuple(PlannedMission(m.side, h, m.turn) for m in missions)
    if "ignite" in params:
        turns = [g.turn for g in ignitions] or [0]
        ignitions = tuple(parse_ignite(f"{params['ignite']}@{t}", scenario) for t in turns)
    return ScenarioPlan(missions, ignitions)


def sweep_scenario(
    scenario: Any,
    *,
    plan: ScenarioPlan,
    turns: int,
    vary: dict[str, Sequence[Any]],
    seeds: Sequence[int],
    trials: int = 200,
    variants: tuple[str, ...] | None = None,
    hexes: Sequence[Hex] = (),
    areas: dict[str, tuple[Hex, ...]] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """Run :func:`simulate_scenario` for every combination of ``vary`` and seed, one row each.

    ``vary`` maps ``target``, ``ignite`` (hex labels, :func:`plan_with`) and scenario fields
    (:func:`scenario_with`) to their values. A row has the parameters, the seed, ``trials``,
    ``turns``, ``fired`` (missions fired per game) and, at the end of the last turn:

    * per hex of ``hexes``: ``p_rubble``, ``p_burning`` (its building) and
      ``expected_destroyed`` (units that started there and were destroyed, per game);
    * per area of ``areas``: ``buildings``, ``expected_burned`` (burning or rubble),
      ``p_all_burned`` and ``expected_lanes_closed`` (the area's LOS lanes closed).

    With ``turns = 1`` and one planned mission the exact one-strike values stand beside as
    ``*_exact`` (:func:`simulate_scenario`).

    Raises:
        ScenarioSimError: for a field or value the scenario cannot take.
    """
    for name, vals in vary.items():  # every value checked before the first game is played
        for v in vals:
            if name in ("target", "ignite"):
                plan_with(plan, scenario, {name: v})
            else:
                scenario_with(scenario, name, v)
    try:
        runs = sweep_runs(vary, seeds)
    except SweepError as exc:
        raise ScenarioSimError(str(exc)) from None
    rows = []
    for params, seed in runs:
        sc = scenario
        for name, v in params.items():
            if name not in ("target", "ignite"):
                sc = scenario_with(sc, name, v)
        pl = plan_with(plan, sc, params)
        r = simulate_scenario(
            sc, pl, turns=turns, trials=trials, seed=seed, variants=variants, areas=areas, progress=progress
        )
        n, T = r.trials, r.turns
        row: dict[str, Any] = {
            "kind": "scenario",
            "seed": seed,
            "trials": n,
            "turns": T,
            **params,
            "fired": round(sum(r.fired) / n, 6),
        }
        if hexes:
            bidx = {h: k for k, h in enumerate(r.buildings)}
            per_hex: dict[str, dict[str, Any]] = {}
            for h in hexes:
                k = bidx.get(h)
                ex = r.exact.get(h.label, {}) if T == 1 else {}
                d: dict[str, Any] = {
                    "p_rubble": round(float(r.rubble[T - 1, k]) / n, 6) if k is not None else 0.0,
                    "p_burning": round(float(r.burning[T - 1, k]) / n, 6) if k is not None else 0.0,
                }
                if r.exact and T == 1 and k is not None:
                    d["p_rubble_exact"] = round(float(ex.get("rubble", 0)), 6)
                    d["p_burning_exact"] = round(float(ex.get("burning", 0)), 6)
                js = [j for j, u in enumerate(r.units) if u.hex == h]
                d["expected_destroyed"] = round(float(sum(int(r.destroyed[T - 1, j]) for j in js)) / n, 6)
                if r.exact and T == 1 and js:
                    d["expected_destroyed_exact"] = round(
                        sum(float(r.exact.get(r.units[j].uid, {}).get("destroyed", 0)) for j in js), 6
                    )
                per_hex[h.label] = d
            row["hexes"] = per_hex
        if r.areas:
            row["areas"] = {
                name: {
                    "buildings": len(idx),
                    "expected_burned": round(float(r.area_burned[T - 1, a]) / n, 6),
                    "p_all_burned": round(float(r.area_all[T - 1, a]) / n, 6),
                    "expected_lanes_closed": round(float(r.lanes_closed[T - 1, a]) / n, 6),
                }
                for a, (name, idx) in enumerate(r.areas.items())
            }
        rows.append(row)
    return rows
