"""Game states as renderer input: units as :class:`~hexwar.render.counters.CounterView` lists.

The bridge between :mod:`hexwar.game` (ids and quantities, R4) and the renderer's plain
counter descriptions, used by ``hexwar render`` for scenario and save files (registered in
:data:`hexwar.cli.render.SCENE_LOADERS`) and by the play screen. No GL here.
"""

from __future__ import annotations

import os
import re
from typing import Any

from .counters import CounterView

__all__ = ["counters_from_state", "save_scene", "scenario_scene", "short_name"]

_CALIBRE = re.compile(r"^\d+(?:\.\d+)?\s*(?:cm|mm)\s+")
_PARENS = re.compile(r"\s*\([^)]*\)")
_GENERIC = (" divisional gun", " howitzer", " squad", " team", " armoured car", " halftrack")


def short_name(name: str, limit: int = 10) -> str:
    """A unit card's name shortened to fit a counter (the card keeps its full name).

    Drops bracketed notes and calibres, abbreviates ``Pz.Kpfw.`` and ``Ausf.``, then generic
    trailing words while the name is longer than ``limit`` characters.

    >>> [short_name(n) for n in ("Pz.Kpfw. IV Ausf. H", "7.5 cm PaK 40", "T-34/76 (1943)",
    ...                          "MG 42 HMG team", "76 mm ZiS-3 divisional gun", "Tiger I")]
    ['Pz IV H', 'PaK 40', 'T-34/76', 'MG 42 HMG', 'ZiS-3', 'Tiger I']
    """
    s = _PARENS.sub("", name).strip() or name
    s = _CALIBRE.sub("", s) or s
    s = s.replace("Pz.Kpfw.", "Pz").replace("Ausf. ", "").replace("Ausf.", "")
    s = " ".join(s.split())
    for g in _GENERIC:
        if len(s) > limit and s.endswith(g) and len(s) > len(g):
            s = s[: -len(g)]
    return s


def _quality(card: Any) -> int | str | None:
    return card.quality if getattr(card, "quality", None) else None


def counters_from_state(state: Any, selected: str | None = None) -> list[CounterView]:
    """A counter for every unit standing on the map in ``state`` (a ``GameState``).

    Crews riding a unit are not drawn separately: their quality shows on the unit's
    counter (R4.1 crew quality pips). Aircraft aloft have no hex and are left out (R5.2).
    Units sharing a hex stack in id order.

    Args:
        state: a :class:`hexwar.game.state.GameState`.
        selected: the id of a unit to draw selected.
    """
    from ..game import ruleset
    from ..game.state import card_of

    out: list[CounterView] = []
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.hex is None or u.aloft or u.crewing is not None:
            continue
        card = ruleset.unit_card(u.card)
        quality = _quality(ruleset.unit_card(card_of(u.crew))) if u.crew else _quality(card)
        full = max(1, int(card.endurance_full))
        out.append(
            CounterView(
                u.hex,
                u.side,
                card.unit_type,
                short_name(card.name),
                max(0, int(u.endurance)),
                full,
                damaged=u.damage_card is not None,
                quality=quality,
                selected=uid == selected,
                key=uid,
            )
        )
    return out


def scenario_scene(path: str | os.PathLike[str]) -> Any:
    """A scenario file at its start (seed 0) as a :class:`hexwar.render.scene.Scene`.

    Raises:
        ValidationError: listing the scenario file's problems.
    """
    from ..game.scenario import load_scenario
    from .scene import Scene

    sc = load_scenario(path)
    state = sc.new_game(seed=0)
    return Scene(state.battlemap, counters_from_state(state), state.battlemap.name, scenario_overlays(sc))


def scenario_overlays(sc: Any, targets: Any = ()) -> list[tuple[str, Any]]:
    """The region overlays of a scenario (:class:`hexwar.game.scenario.Scenario`): each side's
    deploy zone (R5.2), every named area, the objectives with their points (R10.2) and the
    artillery target hexes ``targets`` (R9.3; e.g. a ``sim scenario`` plan's)."""
    from .regions import SIDE_ZONE_COLOURS, ObjectiveOverlay, TargetOverlay, ZoneOverlay, area_colour

    out: list[tuple[str, Any]] = []
    for side, setup in sc.sides.items():
        col = SIDE_ZONE_COLOURS.get(side, (200, 200, 200, 255))
        if setup.deploy:
            out.append((f"deploy-{side}", ZoneOverlay(tuple(setup.deploy), col, alpha=0.28, border=0.08)))
    obj_hexes = {o.hex for o in sc.objectives}
    for name, hexes in sc.areas.items():
        if set(hexes) <= obj_hexes and len(hexes) == 1:
            continue  # an objective's own area is drawn as the objective
        out.append(
            (
                f"area:{name}",
                ZoneOverlay(tuple(hexes), area_colour(name), alpha=0.12, border=0.10, on_top=True),
            )
        )
    if sc.objectives:
        out.append(("objectives", ObjectiveOverlay(tuple((o.hex, o.points) for o in sc.objectives))))
    if targets:
        out.append(("targets", TargetOverlay(tuple(targets))))
    return out


def save_scene(path: str | os.PathLike[str]) -> Any:
    """A save file replayed to its last position as a :class:`hexwar.render.scene.Scene`.

    Raises:
        HexwarError: when the save cannot be read or replayed.
    """
    from ..game.save import load_game
    from .scene import Scene

    state = load_game(path)
    return Scene(state.battlemap, counters_from_state(state), state.battlemap.name)
