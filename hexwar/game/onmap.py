"""A scenario played on another map: ``hexwar play SCENARIO --map generated:SEED`` (issue 19)
or ``--map FILE.json`` (issue 32: any hexwar map file, imported, generated and saved, or a
shipped map's name).

:func:`scenario_on_map` keeps everything of the scenario (decks, budgets, turns, victory
points, variants) and replaces its map by the other one (a generated map is the scenario's
own map size unless the spec names one), the deploy zones by the map's deploy-zone markers
(R5.2) and, on a map file, the objectives by the map's objective markers when it has any
(R10.2). Fixed starting units and objectives must still fit the new map (they are checked as
setting up the game would); what is missing is named, with the way to add it. The result's
``content_hash`` covers the scenario and the new map, and its ``map_spec`` goes into saves
(``generated:SEED:STYLE:WxH`` or ``file:NAME.json``), so ``hexwar replay`` rebuilds the same
game (a map file is looked for by its name in the save's folder, the scenario's folder and the
shipped maps, and must still have the content it had).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from pathlib import Path

from ..errors import HexwarError
from ..mapgen import generate, parse_generated
from ..model.maps import BattleMap
from ..paths import find_content
from ..validate import detect_kind
from . import ruleset
from .scenario import Objective, Scenario

__all__ = ["scenario_on_map", "load_map_file"]


def load_map_file(spec: str, search: Sequence[Path] = ()) -> tuple[BattleMap, str, Path]:
    """The map ``spec`` names: a map file path, ``file:NAME.json`` (looked for in ``search``
    folders, then the shipped maps) or a shipped map's name; returns ``(map, "file:NAME.json",
    the file's path)``.

    Raises:
        HexwarError: naming ``spec`` when no such map exists or the file is not a hexwar map
            (ValidationError listing a broken map's problems).
    """
    name = spec[5:] if spec.startswith("file:") else spec
    p: Path | None = Path(name) if not spec.startswith("file:") and Path(name).is_file() else None
    if p is None:
        base = Path(name).name  # a saved reference is a bare file name: never a path out of a folder
        for d in search:
            if (d / base).is_file():
                p = d / base
                break
    if p is None:
        found = find_content("maps", Path(name).name if spec.startswith("file:") else name)
        p = Path(found) if found is not None and Path(found).is_file() else None
    if p is None:
        raise HexwarError(
            f"--map {spec[:80]!r}: no such map file or shipped map (give a .json map file, "
            "a shipped map name such as kharkov, or generated:SEED)"
        )
    kind = detect_kind(str(p))
    if kind != "hexwar-map":
        raise HexwarError(
            f"--map {p}: a {kind} file, not a hexwar map; import Tiled or Wesnoth maps first "
            "(hexwar import tiled|wesnoth FILE --out MAP.json)"
        )
    return BattleMap.load(p), f"file:{p.name}", p


def scenario_on_map(sc: Scenario, spec: str, search: Sequence[Path] = ()) -> Scenario:
    """``sc`` on the map ``spec``, deploy zones from its markers (R5.2).

    Args:
        sc: the scenario.
        spec: ``"generated:SEED[:STYLE][:WxH]"``, a map file path, ``"file:NAME.json"`` (a
            save's reference, see :func:`load_map_file`) or a shipped map name.
        search: folders a ``file:`` reference is looked for in (the save's, the scenario's).

    Raises:
        HexwarError: for a bad spec or map file, a map without a deploy zone of a side, a
            scenario with objectives played on a map file without objective markers, or fixed
            units or objectives that do not fit the new map (named by hex).
    """
    if spec.startswith("generated:"):
        w, h, seed, style = parse_generated(spec, (sc.battlemap.width, sc.battlemap.height))
        m = generate(w, h, seed, style)
        canonical = f"generated:{seed}:{style}:{w}x{h}"
        where, objectives = "the generated map", sc.objectives
    else:
        m, canonical, path = load_map_file(spec, search)
        where = f"the map {path}"
        objectives = sc.objectives
        if m.objectives:  # R10.2: the map's own objective markers
            objectives = tuple(Objective(o.hex, o.name, o.points) for o in m.objectives)
    problems = []
    for side, setup in sc.sides.items():
        if not m.deploy.get(side):
            problems.append(
                f"the map has no {side} deploy zone (add {side} deploy markers: hexwar edit the map, "
                "Deploy tool)"
            )
        for u in setup.units:
            if u.hex is not None and (not m.in_bounds(u.hex) or not ruleset.can_stand(m, u.hex, u.card)):
                problems.append(f"{side} starting unit {u.card} cannot stand in {m.label(u.hex)} on {where}")
    if not spec.startswith("generated:") and sc.objectives and not m.objectives:
        problems.append(
            f"the scenario has objectives ({', '.join(o.hex.label for o in sc.objectives[:6])}) and the "
            "map has no objective markers to take their place (add them: hexwar edit the map, "
            "Objective tool)"
        )
    else:
        for o in objectives:
            if not m.in_bounds(o.hex):
                problems.append(f"objective {o.hex.label} is off {where} ({m.width}x{m.height})")
    if problems:
        raise HexwarError(f"scenario {sc.id} cannot be played on {where}: " + "; ".join(problems))
    sides = {s: dataclasses.replace(setup, deploy=tuple(m.deploy[s])) for s, setup in sc.sides.items()}
    digest = hashlib.sha256((sc.content_hash + m.content_hash()).encode()).hexdigest()
    return dataclasses.replace(
        sc,
        battlemap=m,
        sides=sides,
        objectives=objectives,
        content_hash=digest,
        map_spec=canonical,
        name=f"{sc.name} ({m.name})",
    )
