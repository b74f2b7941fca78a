"""A scenario played on another map: ``hexwar play SCENARIO --map generated:SEED`` (issue 19).

:func:`scenario_on_map` keeps everything of the scenario (decks, budgets, turns, victory
points, variants) and replaces its map by a generated one (:mod:`hexwar.mapgen`, the scenario's
own map size unless the spec names one), the deploy zones by the map's deploy-zone markers
(R5.2). Fixed starting units and objectives must still fit the new map (they are checked as
setting up the game would). The result's ``content_hash`` covers the scenario and the new map,
and its ``map_spec`` goes into saves, so ``hexwar replay`` rebuilds the same game.
"""

from __future__ import annotations

import dataclasses
import hashlib

from ..errors import HexwarError
from ..mapgen import generate, parse_generated
from . import ruleset
from .scenario import Scenario

__all__ = ["scenario_on_map"]


def scenario_on_map(sc: Scenario, spec: str) -> Scenario:
    """``sc`` on the map ``spec`` (``"generated:SEED[:STYLE][:WxH]"``), deploy zones from its markers.

    Raises:
        HexwarError: for a bad spec, or a scenario whose fixed units or objectives do not fit
            the new map (named by hex).
    """
    w, h, seed, style = parse_generated(spec, (sc.battlemap.width, sc.battlemap.height))
    m = generate(w, h, seed, style)
    canonical = f"generated:{seed}:{style}:{w}x{h}"
    problems = []
    for side, setup in sc.sides.items():
        if not m.deploy.get(side):
            problems.append(f"the map has no {side} deploy zone")
        for u in setup.units:
            if u.hex is not None and (not m.in_bounds(u.hex) or not ruleset.can_stand(m, u.hex, u.card)):
                problems.append(
                    f"{side} starting unit {u.card} cannot stand in {m.label(u.hex)} on the generated map"
                )
    for o in sc.objectives:
        if not m.in_bounds(o.hex):
            problems.append(f"objective {o.hex.label} is off the generated {w}x{h} map")
    if problems:
        raise HexwarError(f"scenario {sc.id} cannot be played on {canonical}: " + "; ".join(problems))
    sides = {s: dataclasses.replace(setup, deploy=tuple(m.deploy[s])) for s, setup in sc.sides.items()}
    digest = hashlib.sha256((sc.content_hash + m.content_hash()).encode()).hexdigest()
    return dataclasses.replace(
        sc, battlemap=m, sides=sides, content_hash=digest, map_spec=canonical, name=f"{sc.name} ({m.name})"
    )
