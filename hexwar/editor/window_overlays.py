"""The editor window's map overlays, kept in step with the session: deploy zones, objectives,
named areas, starting units, selection, previews, the brush cursor, and the LOS (R3),
artillery landing (R9.3) and fire spread (R8.5) read-outs.

A mixin of :class:`hexwar.editor.window.EditorWindow`: it reads the window's ``session``,
``doc`` and ``mapview`` and sets the renderer's overlays only when what they show changed
(one key per overlay). It edits nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from ..model.hexgrid import Hex
from ..render.overlays import HeatmapOverlay, LosOverlay, LosView
from .overlays import BrushCursorOverlay, ObjectiveOverlay, PasteOverlay, ZoneOverlay
from .panels import SIDE_COLOURS, _card_info
from .scenario_draft import SIDES
from .tools import brush_hexes

__all__ = ["EditorOverlaysMixin"]


def _fmt_pct(v: float) -> str:
    return f"{100 * v:.0f}%" if v >= 0.0995 else f"{100 * v:.1f}%"


class EditorOverlaysMixin:
    """The overlay half of :class:`~hexwar.editor.window.EditorWindow` (see module doc)."""

    session: Any
    doc: Any
    mapview: Any
    _ov_keys: dict[str, Any]

    def _set_ov(self, name: str, key_: Any, make: Callable[[], Any]) -> None:
        if self._ov_keys.get(name, object()) == key_:
            return
        self._ov_keys[name] = key_
        ov = make() if key_ is not None else None
        self.mapview.set_overlay(name, ov)

    def _sync_overlays(self) -> None:
        s = self.session
        m = self.doc.map
        v = self.mapview
        if v.show_labels != s.show_labels:
            v.show_labels = s.show_labels
        ver = m.version
        self._sync_scenario_overlays(m)
        sel = frozenset(s.selection)
        self._set_ov(
            "selection",
            (sel, id(m)) if sel else None,
            lambda: ZoneOverlay(sel, (255, 226, 74, 255), alpha=0.18, border=0.06, on_top=True),
        )
        prev = frozenset(s.preview)
        pcol = SIDE_COLOURS[s.side] if s.tool == "deploy" else (255, 255, 255, 255)
        self._set_ov(
            "preview",
            (prev, pcol, id(m)) if prev else None,
            lambda: ZoneOverlay(prev, pcol, alpha=0.28, border=0.05, on_top=True),
        )
        paste = s.paste_preview() if s.tool == "paste" else {}
        self._set_ov(
            "paste",
            (tuple(sorted(paste.items(), key=lambda kv: kv[0])), ver) if paste else None,
            lambda: PasteOverlay(paste),
        )
        cursor: tuple[Hex, ...] = ()
        if (
            s.hover is not None
            and s.tool in ("brush", "line", "elevation", "rubble", "fire", "deploy")
            and self.doc.stroke is None
        ):
            cursor = tuple(brush_hexes(s.hover, s.brush, m))
        elif s.hover is not None and s.tool in (
            "road",
            "fill",
            "wreck",
            "wand",
            "select",
            "los",
            "artillery",
            "spread",
            "objective",
            "unit",
        ):
            cursor = (s.hover,) if m.in_bounds(s.hover) else ()
        self._set_ov("cursor", (cursor, id(m)) if cursor else None, lambda: BrushCursorOverlay(cursor))
        # LOS (R3): the renderer's LOS overlay, fixed or live while choosing the second hex
        los = None
        if s.los is not None:
            a, b, res = s.los
            if res is None and getattr(s, "_live_los", None) is not None:
                res = s._live_los
                b = res.b
            if res is not None and b is not None:
                los = res
        self._set_ov(
            "los",
            (los.a, los.b, los.status, ver) if los is not None else None,
            lambda: self._los_overlay(los),
        )
        art = s.artillery
        self._set_ov(
            "artillery",
            (art[0], art[1], ver) if art is not None else None,
            lambda: self._artillery_overlay(art),
        )
        spr = s.spread
        self._set_ov(
            "spread",
            (spr[0], tuple(spr[1].items()), ver) if spr is not None else None,
            lambda: self._spread_overlay(spr),
        )

    def _sync_scenario_overlays(self, m: Any) -> None:
        """The scenario's overlays on map ``m``: each side's deploy zone (R5.2), the objectives
        (R10.2), the named areas of ``[areas]``, one tinted zone each, and the starting units."""
        sc = self.doc.scenario
        # deploy zones per side, objectives, starting units (scenario mode)
        for side in SIDES:
            z = sc.deploy_of(side) if sc is not None else frozenset()  # type: ignore[attr-defined]
            col = SIDE_COLOURS[side]
            self._set_ov(
                f"deploy-{side}",
                (z, id(m)) if z else None,
                functools.partial(ZoneOverlay, z, col, alpha=0.30, border=0.08),
            )
        objs = tuple((o.hex, o.points) for o in sc.objectives) if sc is not None else ()  # type: ignore[attr-defined]
        self._set_ov("objectives", (objs, id(m)) if objs else None, lambda: ObjectiveOverlay(objs))
        # named areas of the scenario's [areas] table, one tinted zone each
        from .panels import _area_colour

        areas = dict(self._area_hexes())
        for ov in [k for k in self._ov_keys if k.startswith("area:") and k[5:] not in areas]:
            self._set_ov(ov, None, lambda: None)
        for name, hexes in areas.items():
            self._set_ov(
                f"area:{name}",
                (hexes, id(m)) if hexes else None,
                functools.partial(ZoneOverlay, hexes, _area_colour(name), alpha=0.22, border=0.10),
            )
        units = tuple(sc.units) if sc is not None else ()  # type: ignore[attr-defined]
        if self._ov_keys.get("units", object()) != (units, id(m)):
            self._ov_keys["units"] = (units, id(m))
            self.mapview.set_counters(self._counter_views(units))

    def _area_hexes(self) -> tuple[tuple[str, frozenset[Hex]], ...]:
        """The scenario's ``[areas]`` as (name, hexes) pairs, parsed by the game's own reader."""
        sc = self.doc.scenario
        if sc is None:
            return ()
        from ..game.areas import parse_area_hexes

        out = []
        for name, specs in sc.areas().items():
            hexes = parse_area_hexes(specs, self.doc.map, f"areas.{name}", lambda w, e: None)
            out.append((name, frozenset(hexes)))
        return tuple(out)

    def _counter_views(self, units: Iterable[Any]) -> list[Any]:
        from ..render.counters import UNIT_TYPES, CounterView

        info = _card_info()
        out = []
        for u in units:
            if u.hex is None or not self.doc.map.in_bounds(u.hex):
                continue
            name, utype, full = info.get(u.card, (u.card, "infantry", 1))
            if utype not in UNIT_TYPES:
                utype = "infantry"
            out.append(
                CounterView(
                    u.hex, u.side, utype, name, full, full, quality="regular" if u.crew else None, key=u.card
                )
            )
        return out

    def _los_overlay(self, res: Any) -> Any:
        m = self.doc.map
        reason = res.status
        if res.blocking is not None:
            reason = f"blocked by {res.reason or 'terrain'} in {m.label(res.blocking)}"
        elif res.hindrances:
            reason = f"hindered: +{res.hindrances}"
        return LosOverlay(
            LosView(
                res.a,
                res.b,
                res.status,
                tuple(res.intervening),
                (),
                (res.blocking,) if res.blocking is not None else (),
                reason,
            )
        )

    def _artillery_overlay(self, art: Any) -> Any:
        target, side, dist = art
        vals = {h: float(p) for h, p in dist.items() if h is not None}
        off = float(dist.get(None, 0))
        return HeatmapOverlay(
            vals,
            ramp="heat",
            vmin=0.0,
            vmax=max(vals.values()) if vals else 1.0,
            title=f"P(landing) {side}, off map {_fmt_pct(off)}",
            show_values=True,
            legend=False,
            fmt=_fmt_pct,
            hide_below=1e-12,
        )

    def _spread_overlay(self, spr: Any) -> Any:
        h, chances = spr
        vals = {n: float(p) for n, p in chances.items()}
        vals[h] = 1.0
        return HeatmapOverlay(
            vals,
            ramp="fire",
            vmin=0.0,
            vmax=1.0,
            title="P(fire spreads next turn)",
            show_values=True,
            legend=False,
            fmt=_fmt_pct,
            hide_below=1e-12,
        )
