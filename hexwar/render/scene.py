"""What a one-shot render draws: a map, the unit counters on it and region overlays
(deploy zones, objectives, areas, artillery targets; ``hexwar render``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model.maps import BattleMap

__all__ = ["Scene"]


@dataclass
class Scene:
    """What ``hexwar render`` draws: a map and the unit counters on it.

    Attributes:
        bmap: the battle map (with its wrecks, rubble, fires, artillery marker).
        counters: unit counters (:class:`hexwar.render.counters.CounterView`) to draw.
        title: a name for messages.
        overlays: ``(name, overlay)`` pairs drawn over the map (:mod:`hexwar.render.regions`).
    """

    bmap: BattleMap
    counters: list[Any] = field(default_factory=list)
    title: str = ""
    overlays: list[tuple[str, Any]] = field(default_factory=list)
