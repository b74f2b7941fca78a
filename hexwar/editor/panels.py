"""The editor's panels, drawn through the widget toolkit (:mod:`hexwar.ui.widgets`): top bar,
tool bar (one button per tool object), the palette panel (terrain swatches generated from the
terrain table, brush, wreck counters, map size; the Scenario tab), the status bar, the prompts
(toolkit :class:`~hexwar.ui.widgets.Dialog` s with a :class:`~hexwar.ui.widgets.TextField`) and
the help overlay. A mixin of :class:`hexwar.editor.window.EditorWindow`: it reads the window's
session and document and calls the window's actions; it changes nothing itself.

Layout (screen points, y up): the top bar (``TOP_H``), the tool bar on the left
(``TOOLBAR_W``), the palette panel on the right (``PANEL_W``), the status bar at the bottom
(``STATUS_H``), the map in between.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..ui.widgets import Dialog, Painter, Rect, ellipsize, grid
from .help_overlay import SHORTCUTS
from .scenario_draft import SIDES, VARIANTS
from .session import TOOL_BY_ID
from .tools import brush_hexes

__all__ = ["EditorPanelsMixin", "TOP_H", "STATUS_H", "TOOLBAR_W", "PANEL_W", "PT"]

TOP_H = 38
STATUS_H = 28
TOOLBAR_W = 100
PANEL_W = 284

# UI theme (RGB / RGBA)
BG = (34, 36, 40)
PANEL = (43, 46, 51)
SECTION = (52, 56, 62)
BUTTON = (62, 67, 74)
BUTTON_HOVER = (78, 84, 93)
ACTIVE = (214, 164, 62)
TEXT = (226, 224, 214, 255)
DIM = (150, 150, 142, 255)
DARK_TEXT = (30, 28, 24, 255)
ERROR = (236, 98, 84, 255)
OK = (140, 200, 120, 255)
FONT = 10
#: Editor sizes are type points (pyglet's 96 dpi font points); the atlas draws in screen points.
PT = 96 / 72

SIDE_COLOURS = {"german": (64, 104, 176, 255), "soviet": (196, 64, 56, 255)}
GROUPS = (("Terrain", ("brush", "line", "fill", "elevation", "road")),
          ("Features", ("wreck", "rubble", "fire")),
          ("Select", ("select", "wand")),
          ("Check", ("los", "artillery", "spread")),
          ("Scenario", ("deploy", "objective", "unit")))



class EditorPanelsMixin:
    """Painting of the editor's panels, status bar, prompts and help (see module doc)."""

    session: Any
    doc: Any
    palette: Any
    wrecks: Any
    mapview: Any
    tab: str
    show_help: bool
    recoveries: Any
    _field: Any
    get_size: Any
    save: Any
    toggle_labels: Any
    fit_map: Any
    toggle_help: Any
    _tool: Any
    _tab: Any
    _terrain: Any
    _wreck: Any
    _brush: Any
    _side: Any
    _resize: Any
    _quit_save: Any
    _quit_discard: Any
    _close_modal: Any
    _recover_restore: Any
    _recover_discard: Any
    _saveas_confirm: Any
    sub_tab: str
    event_offset: int
    _sub: Any
    _scroll_events: Any
    _profile: Any
    _choose_objective: Any
    _problems: Any
    open_field: Any
    open_cards: Any

    def _kit(self, p: Painter) -> tuple[Any, Any, Any]:
        """The editor's drawing vocabulary over the toolkit painter: ``rect(x, y, w, h)``,
        ``text(...)`` with sizes in the editor's type points, ``button(...)``."""
        atlas = self.mapview.atlas

        def rect(x: float, y: float, w: float, h: float, col: Sequence[int], z: int = 0) -> None:
            p.rect(x, y, x + w, y + h, _rgba(col), z)

        def text(t: str, x: float, y: float, col: Any = TEXT, size: float = FONT, bold: bool = False,
                 ax: str = "left", ay: str = "center", width: float | None = None, z: int = 0) -> None:
            style = "bold" if bold else "regular"
            if width is not None:
                t = ellipsize(atlas, t, width, size * PT, style)
            p.text(t, x, y, size * PT, _rgba(col), ax=ax, ay=ay, style=style, z=z)

        def button(x: float, y: float, w: float, h: float, label: str, action: Callable[[], None] | None,
                   active: bool = False, enabled: bool = True, tip: str = "", size: float = FONT) -> None:
            p.button(x, y, w, h, label, action, active=active, enabled=enabled, tip=tip, size=size * PT,
                     align="center")

        return rect, text, button

    def _paint_panels(self, p: Painter) -> None:
        rect, text, button = self._kit(p)
        W, H = self.get_size()
        # backgrounds
        rect(0, H - TOP_H, W, TOP_H, BG)
        rect(0, 0, W, STATUS_H, BG)
        rect(0, STATUS_H, TOOLBAR_W, H - TOP_H - STATUS_H, PANEL)
        rect(W - PANEL_W, STATUS_H, PANEL_W, H - TOP_H - STATUS_H, PANEL)
        rect(0, H - TOP_H, W, 1, (20, 20, 22))
        rect(0, STATUS_H - 1, W, 1, (20, 20, 22))
        rect(TOOLBAR_W - 1, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))
        rect(W - PANEL_W, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))

        # top bar: title and buttons
        s, doc = self.session, self.doc
        text("hexwar", 12, H - TOP_H / 2, ACTIVE, size=13, bold=True)
        name = doc.path.name if doc.path is not None else f"{doc.map.name} (unsaved)"
        kind = "scenario" if doc.scenario is not None else "map"
        text(f"{'● ' if doc.dirty else ''}{name}  ·  {kind} {doc.map.width} × {doc.map.height}", 92,
             H - TOP_H / 2, TEXT, size=11, width=W - 560)
        bx = W - 8
        for label, action, enabled, active in reversed((
            ("Save", self.save, True, False),
            ("Undo", s.undo, doc.stack.can_undo(), False),
            ("Redo", s.redo, doc.stack.can_redo(), False),
            ("Labels", self.toggle_labels, True, s.show_labels),
            ("Fit", self.fit_map, True, False),
            ("Help", self.toggle_help, True, self.show_help),
        )):  # fmt: skip
            w = 62
            bx -= w + 6
            button(bx, H - TOP_H + 6, w, TOP_H - 12, label, action, active=active, enabled=enabled)

        # tool bar: one button per tool object (hexwar.editor.session.TOOLS)
        y = H - TOP_H - 8
        for gname, ids in GROUPS:
            if gname == "Scenario" and doc.scenario is None:
                continue
            y -= 14
            text(gname.upper(), 10, y, DIM, size=8, bold=True)
            y -= 6
            for tid in ids:
                t = TOOL_BY_ID[tid]
                y -= 27
                button(6, y, TOOLBAR_W - 12, 24, "", functools.partial(self._tool, tid), active=s.tool == tid,
                       tip=t.help)
                col = DARK_TEXT if s.tool == tid else TEXT
                text(t.key, 16, y + 12, col, size=9, bold=True, ax="center")
                text(t.label, 28, y + 12, col, size=FONT)
            y -= 4

        # right panel: tabs
        px = W - PANEL_W + 10
        pw = PANEL_W - 20
        y = H - TOP_H - 8
        if doc.scenario is not None:
            y -= 26
            button(px, y, pw / 2 - 2, 24, "Map", lambda: self._tab("map"), active=self.tab == "map")
            button(px + pw / 2 + 2, y, pw / 2 - 2, 24, "Scenario", lambda: self._tab("scenario"),
                   active=self.tab == "scenario")
            y -= 6
        if self.tab == "scenario" and doc.scenario is not None:
            self._paint_scenario_panel(p, px, pw, y)
        else:
            self._paint_map_panel(p, px, pw, y)

    def _paint_map_panel(self, p: Painter, px: float, pw: float, y: float) -> None:
        rect, text, button = self._kit(p)
        s, doc = self.session, self.doc

        # terrain palette (generated from the terrain table, R2.5)
        y -= 18
        text("TERRAIN", px, y, DIM, size=8, bold=True)
        text("click or 1-0", px + pw, y, DIM, size=8, ax="right")
        y -= 4
        for e in self.palette:
            y -= 24
            active = s.terrain == e.key and s.tool in ("brush", "line", "fill")
            hov = p.hovered(px, y, pw, 22)
            rect(px, y, pw, 22, ACTIVE if active else (BUTTON_HOVER if hov else SECTION))
            p.widget(px, y, pw, 22, functools.partial(self._terrain, e.key), e.name)
            cx, cy = px + 15, y + 11
            p.polygon(_hex_points(cx, cy, 10.5), (*e.edge[:3], 255))
            p.polygon(_hex_points(cx, cy, 8.5), (*e.colour[:3], 255))
            col = DARK_TEXT if active else TEXT
            text(e.name, px + 32, y + 11, col, width=pw - 110)
            text(e.detail, px + pw - 22, y + 11, DARK_TEXT if active else DIM, size=8, ax="right")
            text(e.hotkey, px + pw - 6, y + 11, DARK_TEXT if active else DIM, size=8, ax="right", bold=True)

        # brush
        y -= 30
        text("BRUSH", px, y + 8, DIM, size=8, bold=True)
        text("[ ]", px + pw, y + 8, DIM, size=8, ax="right")
        y -= 22
        for i, (r, n) in enumerate(((0, "1 hex"), (1, "7 hexes"), (2, "19 hexes"))):
            button(px + i * (pw / 3), y, pw / 3 - 4, 22, n, functools.partial(self._brush, r), active=s.brush == r)

        # wreck counters (R8.1)
        y -= 26
        text("WRECK COUNTERS", px, y + 8, DIM, size=8, bold=True)
        text("X to place", px + pw, y + 8, DIM, size=8, ax="right")
        cells = grid(Rect(px, y - 34 - 36 * 10, pw, 36 * 10 + 34), len(self.wrecks), 6, 32, gap=4)
        for w, c in zip(self.wrecks, cells, strict=True):
            active = s.wreck == w.id and s.tool == "wreck"
            rect(c.x, c.y, c.w, c.h, ACTIVE if active else (58, 56, 50))
            rect(c.x + 2, c.y + 2, c.w - 4, c.h - 4, (77, 75, 69) if not active else (120, 96, 40))
            if w.los:
                p.circle(c.x1 - 7, c.y + 25, 3.5, (240, 236, 224, 255))
            text(w.id, c.x + c.w / 2, c.y + 20, TEXT, size=8, ax="center", bold=True)
            mcol = (232, 90, 74, 255) if w.applies == "soft" else TEXT
            text(w.caption, c.x + c.w / 2, c.y + 8, mcol, size=8, ax="center")
            p.widget(c.x, c.y, c.w, c.h, functools.partial(self._wreck, w.id), f"{w.id}: {w.nationality}")
        y -= 34 + 36 * ((len(self.wrecks) + 5) // 6 - 1) + 8

        # map size and resize (add / trim rows and columns on each side)
        y -= 18
        text(f"MAP SIZE  {doc.map.width} × {doc.map.height}", px, y, DIM, size=8, bold=True)
        y -= 4
        for i, (side, kw) in enumerate((("Left", "left"), ("Right", "right"), ("Top", "top"), ("Bottom", "bottom"))):
            cx = px + (i % 2) * (pw / 2)
            cy = y - 24 - (i // 2) * 26
            text(side, cx, cy + 11, TEXT)
            if kw == "left":  # two at a time keep the odd-q stagger without an extra row
                for j, (lab, k) in enumerate((("−2", -2), ("−", -1), ("+", 1), ("+2", 2))):
                    tip = f"{'add' if k > 0 else 'trim'} {abs(k)} left column{'s' if abs(k) > 1 else ''}"
                    if abs(k) == 1:
                        tip = f"{'add' if k > 0 else 'trim'} a left row/column"
                    button(cx + 34 + j * 24, cy, 22, 22, lab, functools.partial(self._resize, "left", k), tip=tip,
                           size=8)
                continue
            button(cx + 52, cy, 34, 22, "−", functools.partial(self._resize, kw, -1), tip=f"trim a {kw} row/column")
            button(cx + 90, cy, 34, 22, "+", functools.partial(self._resize, kw, 1), tip=f"add a {kw} row/column")

    def _paint_scenario_panel(self, p: Painter, px: float, pw: float, y: float) -> None:
        """The Scenario tab: pages Setup (name, briefing, limits, variants, every Event card),
        Sides (Reserves or budget, hand, artillery, starting units) and Places (objectives
        with name, points and holder; areas), and the validator's verdict at the bottom."""
        rect, text, button = self._kit(p)
        sc = self.doc.scenario
        assert sc is not None
        y -= 26
        pages = (("setup", "Setup"), ("sides", "Sides"), ("places", "Places"))
        for i, (pid, lab) in enumerate(pages):
            button(px + i * (pw / 3), y, pw / 3 - 4, 22, lab, functools.partial(self._sub, pid),
                   active=self.sub_tab == pid, tip=f"page {pid}")
        y -= 6
        probs = self._problems()
        bottom = STATUS_H + 8 + 44
        if self.sub_tab == "setup":
            self._page_setup(p, px, pw, y, bottom)
        elif self.sub_tab == "sides":
            self._page_sides(p, px, pw, y, bottom)
        else:
            self._page_places(p, px, pw, y, bottom)
        # the verdict of the game's own validator (hexwar.game.scenario_file), never a default
        yb = STATUS_H + 8
        rect(px, yb, pw, 40, SECTION)
        if not probs:
            text("✓ scenario valid: saves, validates and plays", px + 6, yb + 20, OK, size=9, width=pw - 12)
        else:
            first = probs[0]
            text(f"{len(probs)} problem{'s' if len(probs) != 1 else ''} before it can be saved:", px + 6, yb + 29,
                 ERROR, size=8, bold=True, width=pw - 12)
            text(f"{first.where}: {first.message}", px + 6, yb + 12, TEXT, size=8, width=pw - 12)

    def _field_row(self, p: Painter, px: float, pw: float, y: float, label: str, value: str, field: str,
                   tip: str = "") -> float:
        rect, text, button = self._kit(p)
        y -= 24
        text(label, px, y + 11, DIM, size=8)
        button(px + 92, y, pw - 92, 22, "", functools.partial(self.open_field, field), tip=tip or f"edit {field}")  # type: ignore[attr-defined]
        text(value or "(not set)", px + 98, y + 11, TEXT if value else ERROR, size=9, width=pw - 104)
        return y

    def _stepper(self, p: Painter, px: float, pw: float, y: float, label: str, value: str,
                 minus: Callable[[], None], plus: Callable[[], None], tip: str) -> float:
        _, text, button = self._kit(p)
        y -= 26
        text(label, px, y + 11, TEXT)
        button(px + pw - 118, y, 30, 22, "−", minus, tip=f"{tip} -")
        text(value, px + pw - 59, y + 11, ACTIVE, ax="center", bold=True)
        button(px + pw - 30, y, 30, 22, "+", plus, tip=f"{tip} +")
        return y

    def _page_setup(self, p: Painter, px: float, pw: float, y: float, bottom: float) -> None:
        _, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        adj = s.adjust_setting
        y = self._field_row(p, px, pw, y, "Name", sc.name, "name")
        y = self._field_row(p, px, pw, y, "Id", sc.id, "id")
        y = self._field_row(p, px, pw, y, "Briefing", sc.description.replace("\n", " "), "description")
        y = self._stepper(p, px, pw, y, "Turn limit", str(sc.turns) if sc.turns else "none",
                          lambda: adj("turns", -1), lambda: adj("turns", 1), "turns")
        y = self._stepper(p, px, pw, y, "Victory points", str(sc.victory_points), lambda: adj("victory_points", -1),
                          lambda: adj("victory_points", 1), "victory points")
        y -= 26
        text("Variants", px, y + 11, TEXT)
        for i, v in enumerate(VARIANTS):
            button(px + pw - 118 + i * 60, y, 56, 22, v, functools.partial(s.toggle_variant, v),
                   active=v in sc.variants, tip=f"variant {v}")
        evs = _event_ids()
        y -= 20
        text(f"EVENT CARDS  ({len(sc.events)} of {len(evs)} in the Command deck)", px, y, DIM, size=8, bold=True)
        rows = max(1, int((y - bottom - 30) // 22))
        off = max(0, min(self.event_offset, max(0, len(evs) - rows)))
        button(px + pw - 52, y - 8, 24, 16, "▲", lambda: self._scroll_events(-rows), tip="events up", size=7)
        button(px + pw - 24, y - 8, 24, 16, "▼", lambda: self._scroll_events(rows), tip="events down", size=7)
        y -= 10
        for eid in evs[off:off + rows]:
            y -= 22
            title = _event_titles().get(eid, eid)
            button(px, y, pw, 20, "", functools.partial(s.toggle_event, eid), active=eid in sc.events, tip=f"event {eid}")
            text(("✓ " if eid in sc.events else "   ") + title, px + 6, y + 10,
                 DARK_TEXT if eid in sc.events else TEXT, size=9, width=pw - 12)
        if len(evs) > rows:
            text(f"{off + 1}-{min(len(evs), off + rows)} of {len(evs)}", px + pw, y - 10, DIM, size=8, ax="right")

    def _page_sides(self, p: Painter, px: float, pw: float, y: float, bottom: float) -> None:
        rect, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        side = s.side
        y -= 26
        for i, sd in enumerate(SIDES):
            button(px + i * (pw / 2), y, pw / 2 - 4, 22, sd.capitalize(), functools.partial(self._side, sd),
                   active=side == sd, tip=f"side {sd}")
        y -= 14
        z = len(sc.deploy_of(side))
        n = sum(1 for u in sc.units if u.side == side)
        rect(px, y - 5, 10, 10, SIDE_COLOURS[side])
        text(f"zone {z} hexes (D) · {n} starting unit{'s' if n != 1 else ''} (N)", px + 16, y, TEXT if z else ERROR,
             size=9, width=pw - 16)
        budget = sc.rest_value("sides", side, "budget")
        res = list(sc.rest_value("sides", side, "reserves") or [])
        hand = list(sc.rest_value("sides", side, "hand") or [])
        shown_budget = f"{budget} points" if budget is not None else ("none: the fixed Reserves below" if res else "")
        y = self._field_row(p, px, pw, y, "Budget", shown_budget, "budget", tip="edit budget")
        hs = sc.rest_value("sides", side, "hand_size")
        y = self._field_row(p, px, pw, y, "Hand size", str(hs) if hs is not None else "4 (rule default, R5.2)",
                            "hand_size")
        for target, lst in (("reserves", res), ("hand", hand)):
            y -= 20
            cost = _card_costs()
            pts = sum(cost.get(c, 0) for c in lst)
            label = "RESERVES" if target == "reserves" else "STARTING HAND"
            text(f"{label}  {len(lst)} cards · {pts} pts", px, y + 4, DIM, size=8, bold=True)
            button(px + pw - 64, y - 4, 64, 18, "+ card…", functools.partial(self.open_cards, target),  # type: ignore[attr-defined]
                   tip=f"add {target}", size=8)
            shown = lst[-4:] if len(lst) > 4 else lst
            if len(lst) > 4:
                y -= 14
                text(f"… {len(lst) - 4} more", px + 6, y, DIM, size=8)
            for j, cid in enumerate(shown):
                idx = len(lst) - len(shown) + j
                y -= 18
                text(_card_info().get(cid, (cid,))[0], px + 6, y, TEXT, size=8, width=pw - 40)
                button(px + pw - 20, y - 8, 20, 16, "×", functools.partial(s.remove_card, target, idx),
                       tip=f"remove {target} {idx}", size=8)
        art = sc.artillery_of(side)
        y -= 20
        text("ARTILLERY (R9)", px, y + 4, DIM, size=8, bold=True)
        profiles = [wj for sd, wj in _profiles()]
        y -= 24
        cur = art.weapon_json if art is not None else None
        i = profiles.index(cur) if cur in profiles else -1
        button(px, y, 22, 22, "‹", functools.partial(self._profile, profiles, i - 1 if i >= 0 else len(profiles) - 1),
               tip="weapon previous")
        button(px + pw - 22, y, 22, 22, "›", functools.partial(self._profile, profiles, i + 1), tip="weapon next")
        name = art.weapon.get("name", "?") if art is not None else "no weapon (choose a profile or type one)"
        button(px + 26, y, pw - 52, 22, "", functools.partial(self.open_field, "weapon"), tip="edit weapon")  # type: ignore[attr-defined]
        text(name, px + 32, y + 11, TEXT if art else DIM, size=8, width=pw - 64)
        from ..rules.terrain_effects import default_effects

        adj = s.adjust_setting
        y = self._stepper(p, px, pw, y, "  missions", str(art.missions if art else 0), lambda: adj("missions", -1),
                          lambda: adj("missions", 1), "missions")
        y = self._stepper(p, px, pw, y, "  per turn", str(art.per_turn if art else "-"), lambda: s.adjust_per_turn(-1),
                          lambda: s.adjust_per_turn(1), "per turn")
        hit = art.hit_on if art is not None and art.hit_on is not None else default_effects().side_hit_on(side)
        y = self._stepper(p, px, pw, y, "  hits on d6", f"{hit}+", lambda: adj("hit_on", -1), lambda: adj("hit_on", 1),
                          "hit on")
        if y - 50 > bottom:
            y -= 20
            text("STARTING UNIT  (N, PgUp/PgDn)", px, y + 4, DIM, size=8, bold=True)
            y -= 26
            u = s.current_unit()
            button(px, y, 26, 22, "‹", lambda: s.cycle_unit(-1), tip="unit previous")
            button(px + pw - 26, y, 26, 22, "›", lambda: s.cycle_unit(1), tip="unit next")
            text(u[1] if u else "(no unit cards)", px + pw / 2, y + 11, TEXT if u else DIM, ax="center", width=pw - 60)

    def _page_places(self, p: Painter, px: float, pw: float, y: float, bottom: float) -> None:
        rect, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        m = self.doc.map
        y -= 18
        text(f"OBJECTIVES  {len(sc.objectives)}  (G: click a hex)", px, y, DIM, size=8, bold=True)
        y -= 6
        for o in list(sc.objectives)[:8]:
            y -= 22
            chosen = o.hex == s.objective
            button(px, y, pw, 20, "", functools.partial(self._choose_objective, o.hex), active=chosen,
                   tip=f"objective {m.label(o.hex)}")
            col = DARK_TEXT if chosen else TEXT
            text(f"{m.label(o.hex)}  {o.name or '(no name)'}", px + 6, y + 10, col, size=9, width=pw - 120)
            text(f"{o.points} VP · {o.holder or 'nobody'}", px + pw - 6, y + 10, col, size=8, ax="right")
        o = sc.objective_at(s.objective) if s.objective is not None else None
        if o is not None:
            y = self._field_row(p, px, pw, y - 4, "Name", o.name, "objective_name")
            y = self._field_row(p, px, pw, y, "Points", str(o.points), "objective_points")
            y -= 24
            text("Held at start", px, y + 11, DIM, size=8)
            button(px + 92, y, pw - 92, 22, (o.holder or "nobody").capitalize(), s.cycle_holder, tip="objective holder")
        areas = sc.areas()
        y -= 24
        text(f"AREAS  {len(areas)}", px, y, DIM, size=8, bold=True)
        button(px + pw - 150, y - 9, 150, 18, "+ area from selection…", functools.partial(self.open_field, "area_name"),  # type: ignore[attr-defined]
               tip="add area", size=8, enabled=bool(s.selection))
        y -= 6
        for name, specs in list(areas.items())[: max(0, int((y - bottom) // 20))]:
            y -= 20
            rect(px, y - 5, 10, 10, _area_colour(name))
            text(f"{name}: {', '.join(specs)}", px + 16, y, TEXT, size=8, width=pw - 44)
            button(px + pw - 20, y - 8, 20, 16, "×", functools.partial(s.remove_area, name), tip=f"remove area {name}",
                   size=8)

    def _status_state(self) -> tuple[str, str, bool, str]:
        s, m = self.session, self.doc.map
        h = s.hover
        info = ""
        if h is not None and m.in_bounds(h):
            bits = m.describe(h)
            sc = self.doc.scenario
            if sc is not None:
                for side in SIDES:
                    if h in sc.deploy_of(side):
                        bits.append(f"{side} deploy")
                o = sc.objective_at(h)
                if o is not None:
                    bits.append(f"objective {o.points} VP")
                us = sc.units_at(h)
                if us:
                    bits.append("units " + ",".join(u.card for u in us))
            info = f"{m.label(h)}   " + " · ".join(bits)
        tool = "Paste" if s.tool == "paste" else TOOL_BY_ID[s.tool].label
        right = f"{tool}  ·  brush {len(brush_hexes(Hex(0, 0), s.brush))}"
        return (info, s.status, s.status_error, right)

    def _paint_status(self, p: Painter) -> None:
        _, text, _ = self._kit(p)
        info, status, error, right = self._status_state()
        W, _ = self.get_size()
        text(info or "—", 10, STATUS_H / 2, TEXT, bold=True, width=310)
        text(status, 330, STATUS_H / 2, ERROR if error else TEXT, width=max(40.0, W - 330 - 200))
        text(right, W - 10, STATUS_H / 2, DIM, ax="right")

    def _make_dialog(self, kind: str) -> Dialog:
        if kind == "quit":
            where = self.doc.path.name if self.doc.path else "this new map"
            return Dialog("Unsaved changes", f"Save the changes to {where} before quitting?",
                          [("Save  (S)", self._quit_save), ("Discard  (D)", self._quit_discard),
                           ("Cancel  (Esc)", self._close_modal)], shade=120)  # fmt: skip
        if kind == "recover":
            r = self.recoveries[0]
            of = r.document_path.name if r.document_path else "an untitled map"
            return Dialog("Recover unsaved work?",
                          f"The editor did not quit cleanly. Autosave from {r.saved_at or 'earlier'} of {of} can "
                          "be restored.",
                          [("Restore  (R)", self._recover_restore), ("Discard  (D)", self._recover_discard),
                           ("Later  (Esc)", self._close_modal)], shade=120)  # fmt: skip
        if kind.startswith(("field:", "cards:")):
            return self._typed_dialog(kind)  # type: ignore[attr-defined,no-any-return]
        hint = ".json saves a map, .toml a scenario" if self.doc.scenario is None else "scenario file (.toml)"
        return Dialog("Save as", hint, [("Save  (Enter)", self._saveas_confirm), ("Cancel  (Esc)", self._close_modal)],
                      body=[self._field], shade=120)  # fmt: skip

    def _paint_help(self, p: Painter) -> None:
        _, text, _ = self._kit(p)
        W, H = self.get_size()
        cols = _help_columns()
        pw = min(W - 40, 1000)
        ph = min(H - 40, 90 + 17 * max(len(c) for c in cols) + 6 * 5)
        x0, y0 = (W - pw) / 2, (H - ph) / 2
        p.rect(0, 0, W, H, (0, 0, 0, 120), 2)
        p.widget(0, 0, W, H, None, "modal", 2)
        p.rect(x0, y0, x0 + pw, y0 + ph, (*PANEL, 255), 2)
        p.rect(x0, y0 + ph - 40, x0 + pw, y0 + ph, (*BG, 255), 2)
        text("Keyboard shortcuts", x0 + 16, y0 + ph - 20, ACTIVE, size=14, bold=True, z=2)
        text("H, F1 or Esc closes", x0 + pw - 16, y0 + ph - 20, DIM, size=10, ax="right", z=2)
        colw = (pw - 32) / len(cols)
        for ci, col in enumerate(cols):
            y = y0 + ph - 62
            for kind, a, bb in col:
                if kind == "section":
                    y -= 6
                    text(a.upper(), x0 + 16 + ci * colw, y, ACTIVE, size=9, bold=True, z=2)
                else:
                    text(a, x0 + 16 + ci * colw, y, TEXT, size=9, bold=True, z=2)
                    text(bb, x0 + 16 + ci * colw + 150, y, DIM, size=9, width=colw - 160, z=2)
                y -= 17


def _rgba(col: Sequence[int]) -> tuple[int, ...]:
    c = tuple(col)
    return c if len(c) == 4 else (*c[:3], 255)


def _hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    import math

    return [(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)]


def _help_columns() -> list[list[tuple[str, str, str]]]:
    rows: list[tuple[str, str, str]] = []
    for sec, items in SHORTCUTS:
        rows.append(("section", sec, ""))
        rows.extend(("key", k, w) for k, w in items)
    half = (len(rows) + 1) // 2
    # split at a section boundary near the middle
    cut = half
    for i in range(half, len(rows)):
        if rows[i][0] == "section":
            cut = i
            break
    return [rows[:cut], rows[cut:]]


@functools.cache
def _card_info() -> dict[str, tuple[str, str, int]]:
    """``card id -> (short name, unit type, Full Endurance)`` from the card data, if loadable."""
    try:
        from ..rules.cards import default_cards

        cards = default_cards()
    except (HexwarError, ImportError, OSError):
        return {}
    return {u.id: (u.name, u.unit_type, max(1, u.endurance_full)) for u in cards.units.values()}


@functools.cache
def _event_ids() -> list[str]:
    try:
        from ..rules.cards import default_cards

        return sorted(default_cards().events)
    except (HexwarError, ImportError, OSError):
        return []


@functools.cache
def _event_titles() -> dict[str, str]:
    """``event card id -> "Title: what it does"`` from the card data (all of them, R4.3)."""
    try:
        from ..rules.cards import default_cards

        evs = default_cards().events
    except (HexwarError, ImportError, OSError):
        return {}
    return {k: f"{getattr(e, 'name', getattr(e, 'title', k))}" for k, e in evs.items()}


@functools.cache
def _card_costs() -> dict[str, int]:
    try:
        from ..rules.cards import default_cards

        return {u.id: u.cost for u in default_cards().units.values()}
    except (HexwarError, ImportError, OSError):
        return {}


def _profiles() -> tuple[tuple[str, str], ...]:
    from .scenario_fields import artillery_profiles

    return artillery_profiles()


def _area_colour(name: str) -> tuple[int, int, int, int]:
    """A steady colour per area name (a hash, never a generator)."""
    import hashlib

    d = hashlib.blake2b(name.encode(), digest_size=3).digest()
    return (90 + d[0] % 150, 90 + d[1] % 150, 90 + d[2] % 150, 255)
