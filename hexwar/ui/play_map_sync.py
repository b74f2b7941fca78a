"""The play window's map: counters and overlays kept in step with the controller (issue 34
split of :mod:`hexwar.ui.play_window`).

Each overlay (objectives R10.2, deploy zones R5.2, reach R5.3, targets R7, the selection, LOS
R3, the declared attacks R6.1, the artillery strike and its drift R9.3, the keyboard's hex
cursor, artillery aim R9.2) is rebuilt only when what it shows changed. Targets and the cursor
differ from the selection ring by shape as well as colour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game.state import Phase
from ..model.hexgrid import Hex
from ..render.gamescene import counters_from_state
from ..render.overlays import ArrowOverlay, HighlightOverlay, LosOverlay, LosView, ReachOverlay
from .play_minimap import cost_text_size
from .play_popups import block_reason

__all__ = ["MapSyncMixin", "SIDE_RGBA"]

SIDE_RGBA = {"german": (70, 110, 190, 255), "soviet": (205, 55, 45, 255)}


class _TargetOverlay(HighlightOverlay):
    """Legal targets (R7): a ring with a tick pointing in from every corner (a crosshair), so
    a target differs from the plain selection ring by shape as well as colour."""

    def build(self, ctx: Any) -> Any:
        from ..render.mesh import Mesh, MeshBuilder
        from ..render.overlays import _colour

        out = HighlightOverlay(self.hexes, self.colour, width=self.width).build(ctx)
        col = _colour(ctx, self.colour, "target")
        s = ctx.layout.size
        b = MeshBuilder()
        for h in self.hexes:
            if not ctx.bmap.in_bounds(h):
                continue
            cx, cy = ctx.layout.hex_to_pixel(h)
            for k in range(6):
                dx, dy = ctx.layout.corner_offset(k)
                b.line(cx + dx * 0.9, cy + dy * 0.9, cx + dx * 0.55, cy + dy * 0.55, 0.07 * s, col)
        key = next(iter(out))
        ring = out[key]
        assert isinstance(ring, Mesh)
        out[key] = Mesh.concat([ring, b.build()])
        return out


class _CursorOverlay(HighlightOverlay):
    """The keyboard's hex cursor: a thick outer ring and a thin inner one (a shape cue)."""

    def __init__(self, h: Hex, colour: Any) -> None:
        super().__init__([h], colour, width=0.07)
        self.h = h

    def build(self, ctx: Any) -> Any:
        from ..render.mesh import Mesh

        a = HighlightOverlay([self.h], self.colour, width=0.07).build(ctx)
        b = HighlightOverlay([self.h], (20, 20, 24, 255), width=0.03).build(ctx)
        return {k: Mesh.concat([m for m in (a[k], b[k]) if isinstance(m, Mesh)]) for k in a}


class _Arrows(ArrowOverlay):
    """Several attack arrows (R6.1) in one overlay, coloured by side and numbered; the prepared
    one in the looks' ``pending`` colour, labelled "prepared" (a second cue beside colour)."""

    def __init__(self, arrows: list[tuple[int, Hex, Hex, str]], pending: Any = (122, 31, 160, 255)) -> None:
        self.arrows = arrows
        self.pending = pending

    def build(self, ctx: Any) -> Any:
        from ..render.mesh import Mesh, TexMesh

        out: dict[int, list[Any]] = {}
        for n, a, b, side in self.arrows:
            col = self.pending if side == "pending" else SIDE_RGBA.get(side, (200, 200, 200, 255))
            label = "prepared" if side == "pending" else f"#{n}"
            part = ArrowOverlay(a, b, label, col).build(ctx)
            for layer, m in part.items():
                out.setdefault(layer, []).append(m)
        res: dict[int, Any] = {}
        for layer, ms in out.items():
            res[layer] = TexMesh.concat(ms) if isinstance(ms[0], TexMesh) else Mesh.concat(ms)
        return res


def _ghosts(ghosts: tuple[Any, ...]) -> Any:
    from ..render.ghosts import LastKnownOverlay

    return LastKnownOverlay(ghosts)


def _zone(hexes: tuple[Hex, ...], colour: tuple[int, int, int, int]) -> Any:
    from ..render.regions import ZoneOverlay

    return ZoneOverlay(hexes, colour, alpha=0.30, border=0.07)


class MapSyncMixin:
    """The map-sync part of :class:`~hexwar.ui.play_window.PlayWindow`: one overlay per thing
    the controller shows, rebuilt only when its key changes. Reads the window's
    ``controller``, ``mapview``, ``looks``, ``flags`` and ``_keys``."""

    controller: Any
    mapview: Any
    looks: Any
    flags: Any
    _keys: dict[str, Any]
    state: Any
    drawn_state: Any
    last_known: Any
    map_area: Any
    screen_point: Any

    def _set(self, name: str, key_: Any, make: Callable[[], Any]) -> None:
        if self._keys.get(name, object()) == key_:
            return
        self._keys[name] = key_
        self.mapview.set_overlay(name, make() if key_ is not None else None)

    def _sync_map(self) -> None:
        ctl, st, v = self.controller, self.state, self.mapview
        ep = ctl._epoch()
        anim = ctl.anim
        anim_h = ctl.display_hex(anim.uid) if anim is not None else None
        ck = (ep, ctl.selected, anim.uid if anim else None, anim_h)
        if self._keys.get("counters") != ck:
            self._keys["counters"] = ck
            cs = counters_from_state(self.drawn_state(), selected=ctl.selected)
            if anim is not None and anim_h is not None:
                import dataclasses

                cs = [dataclasses.replace(c, hex=anim_h) if c.key == anim.uid else c for c in cs]
            # the selected unit is drawn on top of its stack, so its counter shows
            cs = [c for c in cs if c.key != ctl.selected] + [c for c in cs if c.key == ctl.selected]
            v.set_counters(cs)
        # last-known markers of enemy units that left sight (R12.2): ghost counters with the turn seen
        ghosts = self.last_known()
        self._set("last_known", (ghosts, ep) if ghosts else None, lambda: _ghosts(ghosts))
        if v.show_labels != self.flags.show_labels:
            v.show_labels = self.flags.show_labels
        # objectives (R10.2), ringed in the holder's colour
        objs = tuple(ctl.objectives())
        self._set("objectives", (objs, ep) if objs else None, lambda: self._objective_overlay(objs))
        # deploy zone of the picked unit card (R5.2) / units a Command card may go on
        dep = tuple(ctl.deploy_hexes()) if ctl.card is not None else ()
        col = self.looks.overlay.get(
            f"deploy_{ctl.shown_side}", SIDE_RGBA.get(ctl.shown_side, (255, 255, 255, 255))
        )
        self._set("deploy", (dep, col) if dep else None, lambda: _zone(dep, col))
        cu: tuple[Hex, ...] = (
            tuple(h for h in (st.units[u].hex for u in ctl.card_unit_targets()) if h is not None)
            if ctl.card
            else ()
        )
        self._set("card_units", cu if cu else None, lambda: HighlightOverlay(cu, "highlight", width=0.12))
        # movement (R5.3)
        reach = ctl.reach_costs() if anim is None else {}
        # the numbers stay readable at any zoom, or go to the hovered hex's badge (issue 36)
        ts = cost_text_size(v.layout.size * v.camera.zoom)
        self._keys["costs_hidden"] = ts is None
        self._set(
            "reach",
            (tuple(sorted(reach.items())), ep, ts) if reach else None,
            lambda: ReachOverlay(reach, show_numbers=ts is not None, text_size=ts or 0.24),
        )
        # legal targets (R7) and the prepared attack
        th = tuple(ctl.target_hexes())
        self._set("targets", (th, ep) if th else None, lambda: _TargetOverlay(th, "target", width=0.11))
        sel_hex = st.units[ctl.selected].hex if ctl.selected in st.units else None
        if anim is not None and anim.uid == ctl.selected:
            sel_hex = anim_h or sel_hex
        self._set(
            "selection",
            sel_hex,
            lambda: HighlightOverlay([h for h in (sel_hex,) if h is not None], "highlight", width=0.13),
        )
        # LOS from the selected unit to the hovered hex (R3)
        res = ctl.los() if anim is None else None
        self._set(
            "los", (res.a, res.b, res.status, ep) if res is not None else None, lambda: self._los_overlay(res)
        )
        # declared attacks this turn (R6.1): arrows attacker -> target
        atk = []
        if st.phase in (Phase.DECLARATION, Phase.RESOLUTION):
            for n, a in sorted(st.attacks.items()):
                if a.resolved:
                    continue
                au = st.units.get(a.attackers[0])
                th_ = (
                    a.building
                    if a.building is not None
                    else (st.units[a.target].hex if a.target in st.units else None)
                )
                if au is not None and au.hex is not None and th_ is not None:
                    atk.append((n, au.hex, th_, a.side))
        pend = ctl.pending
        if pend is not None and pend.attacker in st.units and pend.target in st.units:
            a_h, t_h = st.units[pend.attacker].hex, st.units[pend.target].hex
            if a_h is not None and t_h is not None:
                atk.append((0, a_h, t_h, "pending"))
        self._keys["attack_hexes"] = tuple((a_, b_) for _, a_, b_, _ in atk)  # the tooltip keeps off them
        pcol = self.looks.overlay.get("pending", (122, 31, 160, 255))
        self._set("attacks", tuple(atk) if atk else None, lambda: _Arrows(atk, pcol))
        # the artillery strike and its drift (R9.3), shown for the turn it fell in
        s = ctl.strike
        show = (
            s is not None
            and s.turn == st.turn
            and st.phase in (Phase.ARTILLERY, Phase.COMMITMENT)  # newuser3: not a stray ring all turn
            and st.battlemap.in_bounds(s.target)
        )
        self._set("strike", (s, ep) if show else None, lambda: self._strike_overlay(s))
        # the keyboard's hex cursor (item 3): a double ring, not a colour alone
        cur = ctl.cursor
        self._set(
            "cursor",
            cur,
            lambda: (
                _CursorOverlay(cur, self.looks.overlay.get("cursor", (120, 180, 255, 255)))
                if cur is not None
                else None
            ),
        )
        # artillery targeting under the cursor (R9.2)
        ah = ctl.hover if (st.phase == Phase.ARTILLERY and ctl.my_turn() and ctl.hover is not None) else None
        ok = ctl.artillery_ok(ah) is None and ctl.artillery_warning(ah) is None if ah is not None else False
        self._set(
            "art_hover",
            (ah, ok) if ah is not None else None,
            lambda: (HighlightOverlay if ok else _TargetOverlay)(
                [h for h in (ah,) if h is not None],
                self.looks.overlay["art_ok" if ok else "art_bad"],
                width=0.12,
            ),
        )

    def _objective_overlay(self, objs: tuple[Any, ...]) -> Any:
        from ..render.regions import ObjectiveOverlay

        return ObjectiveOverlay(tuple((h, pts) for h, _, pts, _ in objs))

    def _los_overlay(self, res: Any) -> Any:
        st = self.state
        if res.status == "blocked":
            reason = f"blocked: {block_reason(st, res)} in {st.hex_label(res.blocking)}"
        elif res.status == "hindered":
            reason = f"hindered: +{res.hindrances} needed"
        else:
            n = res.a.distance(res.b)
            reason = f"clear, {n} hex{'es' if n != 1 else ''}"
        if (
            self.controller.reach_costs()
        ):  # the tooltip says it; the plate would cover move-cost badges (item 9)
            reason = ""
        return LosOverlay(
            LosView(
                res.a,
                res.b,
                res.status,
                tuple(res.intervening),
                self.controller.los_hindering(res),
                (res.blocking,) if res.blocking is not None else (),
                reason,
            )
        )

    def _strike_overlay(self, s: Any) -> Any:
        from ..rules.artillery import DIRECTION_NAMES

        if s.hit:
            return HighlightOverlay([s.target], "arrow", width=0.16)
        land = s.landing if self.state.battlemap.in_bounds(s.landing) else s.target
        label = f"drift {s.drift} {DIRECTION_NAMES.get(s.direction, '')}".strip() + (
            " (off map)" if s.off_map else ""
        )
        return ArrowOverlay(s.target, land, label)

    def _tooltip_avoid(self) -> dict[str, Any]:
        """What the hover tooltip keeps off (issue 36): the counters on screen but the hovered
        one as rectangles ``(x0, y0, x1, y1)``, the declared attacks' arrows as segments, and
        ``r``, half a counter, in points (the tooltip also clears the hovered counter)."""
        r = self.mapview.layout.size * self.mapview.camera.zoom * 0.8
        x0, y0, x1, y1 = self.map_area()
        boxes = []
        hover = self.controller.hover
        for h in {u.hex for u in self.drawn_state().units.values() if u.hex is not None and u.hex != hover}:
            x, y = self.screen_point(h)
            if x0 - r <= x < x1 + r and y0 - r <= y < y1 + r:
                boxes.append((x - r, y - r, x + r, y + r))
        arrows = [(self.screen_point(a), self.screen_point(b)) for a, b in self._keys.get("attack_hexes", ())]
        out: dict[str, Any] = {"units": boxes, "arrows": arrows, "r": r}
        if hover is not None:
            x, y = self.screen_point(hover)
            out["hover"] = (x - r, y - r, x + r, y + r)
        return out
