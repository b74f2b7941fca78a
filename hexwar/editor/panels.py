"""The editor's panels, drawn through the widget toolkit (:mod:`hexwar.ui.widgets`): top bar,
tool bar (one button per tool object), the palette panel (terrain swatches generated from the
terrain table, brush, wreck counters, map size; the Scenario tab), the status bar, the prompts
(toolkit :class:`~hexwar.ui.widgets.Dialog` s with a :class:`~hexwar.ui.widgets.TextField`) and
the help overlay. A mixin of :class:`hexwar.editor.window.EditorWindow`: it reads the window's
session and document and calls the window's actions; it changes nothing itself. The Scenario
tab's pages are painted by :mod:`hexwar.editor.scenario_panel` (issue 34: cut from here).

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
from ..ui.widgets import Dialog, Painter, Rect, ellipsize
from .help_overlay import SHORTCUTS
from .scenario_draft import SIDES
from .session import TOOL_BY_ID
from .tools import brush_hexes

__all__ = ["EditorPanelsMixin", "TOP_H", "STATUS_H", "TOOLBAR_W", "PANEL_W", "PT", "side_widths"]

TOP_H = 38
STATUS_H = 46  # two rows: the message (one or two lines), then the hex under the cursor and the tool
TOOLBAR_W = 100
PANEL_W = 284


def side_widths(window_w: float) -> tuple[float, float]:
    """``(tool bar, palette panel)`` widths in points for a window ``window_w`` points wide:
    the full 100 / 284 from 1100 points up, narrower below so the map keeps half the window
    at 800 x 600 (issue 17: every layout legible from 800 x 600 up)."""
    if window_w >= 1100:
        return (TOOLBAR_W, PANEL_W)
    f = max(0.0, (window_w - 800) / 300)
    return (round(96 + 4 * f), round(232 + 52 * f))


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
GROUPS = (
    ("Terrain", ("brush", "line", "fill", "elevation", "road")),
    ("Features", ("wreck", "rubble", "fire")),
    ("Select", ("select", "wand")),
    ("Check", ("los", "artillery", "spread")),
    ("Scenario", ("deploy", "objective", "unit")),
)


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
    _lost_text: Any
    _quit_discard: Any
    _close_modal: Any
    _recover_restore: Any
    _recover_discard: Any
    _saveas_confirm: Any
    sub_tab: str
    _sub: Any
    _profile: Any
    _choose_objective: Any
    _problems: Any
    open_field: Any
    open_cards: Any
    _paint_scenario_panel: Any  # hexwar.editor.scenario_panel

    def _kit(self, p: Painter) -> tuple[Any, Any, Any]:
        """The editor's drawing vocabulary over the toolkit painter: ``rect(x, y, w, h)``,
        ``text(...)`` with sizes in the editor's type points, ``button(...)``."""
        atlas = self.mapview.atlas

        def rect(x: float, y: float, w: float, h: float, col: Sequence[int], z: int = 0) -> None:
            p.rect(x, y, x + w, y + h, _rgba(col), z)

        def text(
            t: str,
            x: float,
            y: float,
            col: Any = TEXT,
            size: float = FONT,
            bold: bool = False,
            ax: str = "left",
            ay: str = "center",
            width: float | None = None,
            z: int = 0,
        ) -> None:
            style = "bold" if bold else "regular"
            if width is not None:
                t = ellipsize(atlas, t, width, size * PT, style)
            p.text(t, x, y, size * PT, _rgba(col), ax=ax, ay=ay, style=style, z=z)

        def button(
            x: float,
            y: float,
            w: float,
            h: float,
            label: str,
            action: Callable[[], None] | None,
            active: bool = False,
            enabled: bool = True,
            tip: str = "",
            size: float = FONT,
        ) -> None:
            p.button(
                x,
                y,
                w,
                h,
                label,
                action,
                active=active,
                enabled=enabled,
                tip=tip,
                size=size * PT,
                align="center",
            )

        return rect, text, button

    def _paint_panels(self, p: Painter) -> None:
        rect, text, button = self._kit(p)
        W, H = self.get_size()
        TW, PW = side_widths(W)
        p.extra["screen_w"], p.extra["screen_h"] = W, H
        # backgrounds
        rect(0, H - TOP_H, W, TOP_H, BG)
        rect(0, 0, W, STATUS_H, BG)
        rect(0, STATUS_H, TW, H - TOP_H - STATUS_H, PANEL)
        rect(W - PW, STATUS_H, PW, H - TOP_H - STATUS_H, PANEL)
        rect(0, H - TOP_H, W, 1, (20, 20, 22))
        rect(0, STATUS_H - 1, W, 1, (20, 20, 22))
        rect(TW - 1, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))
        rect(W - PW, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))

        # top bar: title and buttons
        s, doc = self.session, self.doc
        text("hexwar", 12, H - TOP_H / 2, ACTIVE, size=13, bold=True)
        small = self.labels_too_small()  # type: ignore[attr-defined]  # labels on but hidden by the zoom
        name = doc.path.name if doc.path is not None else f"{doc.map.name} (unsaved)"
        kind = "scenario" if doc.scenario is not None else "map"
        text(
            f"{'● ' if doc.dirty else ''}{name}  ·  {kind} {doc.map.width} × {doc.map.height}",
            92,
            H - TOP_H / 2,
            TEXT,
            size=11,
            width=W - 560 - (50 if small else 0) - (118 if doc.scenario is None else 0),
        )
        bx = W - 8
        top_buttons: tuple[tuple[str, Any, bool, bool], ...] = (
            ("Save", self.save, True, False),
            ("Undo", s.undo, doc.stack.can_undo(), False),
            ("Redo", s.redo, doc.stack.can_redo(), False),
            ("Labels" if not small else "Labels: zoom in", self.toggle_labels, True, s.show_labels and not small),
            ("Fit", self.fit_map, True, False),
            ("Help", self.toggle_help, True, self.show_help),
        )  # fmt: skip
        if doc.scenario is None:  # issue 32: "New scenario on this map" (from its markers)
            top_buttons = (("New scenario", s.new_scenario_on_map, True, False),) + top_buttons
        for label, action, enabled, active in reversed(top_buttons):
            w = 62 if not label.startswith(("Labels:", "New scenario")) else 112
            bx -= w + 6
            tip = "Labels" if label.startswith("Labels") else label
            if label == "New scenario":
                tip = "New scenario on this map"
            button(bx, H - TOP_H + 6, w, TOP_H - 12, label, action, active=active, enabled=enabled, tip=tip)

        # tool bar: one button per tool object (hexwar.editor.session.TOOLS); the rows shrink
        # to fit the window's height (down to 18 points at 800 x 600)
        groups = [(g, ids) for g, ids in GROUPS if g != "Scenario" or doc.scenario is not None]
        n_tools = sum(len(ids) for _, ids in groups)
        room = H - TOP_H - STATUS_H - 12 - len(groups) * 24
        step = max(18.0, min(27.0, room / max(1, n_tools)))
        bh = step - 3
        y = H - TOP_H - 8
        for gname, ids in groups:
            y -= 14
            text(gname.upper(), 10, y, DIM, size=8, bold=True)
            y -= 6
            for tid in ids:
                t = TOOL_BY_ID[tid]
                y -= step
                button(
                    6,
                    y,
                    TW - 12,
                    bh,
                    "",
                    functools.partial(self._tool, tid),
                    active=s.tool == tid,
                    tip=t.help,
                )
                col = DARK_TEXT if s.tool == tid else TEXT
                text(t.key, 16, y + bh / 2, col, size=9, bold=True, ax="center")
                text(t.label, 28, y + bh / 2, col, size=FONT, width=TW - 40)
            y -= 4

        # right panel: tabs
        px = W - PW + 10
        pw = PW - 20
        y = H - TOP_H - 8
        if doc.scenario is not None:
            y -= 26
            button(px, y, pw / 2 - 2, 24, "Map", lambda: self._tab("map"), active=self.tab == "map")
            button(
                px + pw / 2 + 2,
                y,
                pw / 2 - 2,
                24,
                "Scenario",
                lambda: self._tab("scenario"),
                active=self.tab == "scenario",
            )
            y -= 6
        if self.tab == "scenario" and doc.scenario is not None:
            self._paint_scenario_panel(p, px, pw, y)
        else:
            self._paint_map_panel(p, px, pw, y)

    def _paint_map_panel(self, p: Painter, px: float, pw: float, y: float) -> None:
        """The Map tab: the minimap (click to jump), the palette of the current tool (terrain,
        wreck counters or starting units; searchable, scrolling, with tooltips), the brush and
        the Resize / New map buttons."""
        rect, text, button = self._kit(p)
        s = self.session
        bottom = STATUS_H + 8
        # Resize / New map at the bottom, the brush above them
        bw = (pw - 6) / 2
        button(px, bottom, bw, 24, "Resize…", self.open_resize, tip="resize map")  # type: ignore[attr-defined]
        button(px + bw + 6, bottom, bw, 24, "New map…", self.open_new_map, tip="new map")  # type: ignore[attr-defined]
        bottom += 30
        if s.tool in ("brush", "line", "elevation", "rubble", "fire", "deploy"):
            for i, (r, n) in enumerate(((0, "1 hex"), (1, "7 hexes"), (2, "19 hexes"))):
                button(
                    px + i * (pw / 3),
                    bottom,
                    pw / 3 - 4,
                    22,
                    n,
                    functools.partial(self._brush, r),
                    active=s.brush == r,
                    tip=f"brush {r}",
                )
            text("BRUSH  [ ]", px, bottom + 32, DIM, size=8, bold=True)
            bottom += 44
        # the minimap: a third of the panel's height at most
        W, H = self.get_size()
        mm_h = max(60.0, min(pw * 0.62, (y - bottom) * 0.3))
        y -= 6
        self._paint_minimap(p, px, y - mm_h, pw, mm_h)
        y -= mm_h + 10
        # palette kind tabs
        kinds = [("terrain", "Terrain"), ("features", "Wrecks")]
        if self.doc.scenario is not None:
            kinds.append(("units", "Units"))
        kind = self.palette_kind  # type: ignore[attr-defined]
        y -= 22
        for i, (k, lab) in enumerate(kinds):
            kw = pw / len(kinds)
            button(
                px + i * kw,
                y,
                kw - 4,
                20,
                lab,
                functools.partial(self._palette_kind, k),  # type: ignore[attr-defined]
                active=kind == k,
                tip=f"palette {k}",
                size=9,
            )
        y -= 4
        hint = {
            "terrain": "click or 1-0 · Ctrl+F search",
            "features": "X places · Ctrl+F search",
            "units": f"{s.side} · Tab side · Ctrl+F search",
        }[kind]
        y -= 10
        text(hint, px + pw, y, DIM, size=8, ax="right", width=pw)
        y -= 8
        lst, rows, chosen, pick = self._palette_now()  # type: ignore[attr-defined]
        lst.paint(p, px, bottom, pw, max(40.0, y - bottom), rows, chosen, pick, size=FONT * PT)

    def _paint_minimap(self, p: Painter, x: float, y: float, w: float, h: float) -> None:
        from ..ui.widgets import Rect

        mm = self.minimap_now()  # type: ignore[attr-defined]
        mm.place(Rect(x, y, w, h))
        # the frame of what is on screen goes on its own layer (window._paint_minimap_frame),
        # so panning repaints a frame, not every panel
        mm.paint(p, None, self._minimap_click, tip="minimap")  # type: ignore[attr-defined]
        p.extra["minimap"] = True

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
        """The status bar, two rows that never run together (issue 17): the last message on
        top (the full width; two smaller lines when long, the rest in a tooltip), the hex under
        the cursor and the tool below (the tool measured first, the hex info gets the rest)."""
        from ..ui.widgets import paint_tooltip, wrap

        _, text, _ = self._kit(p)
        info, status, error, right = self._status_state()
        W, _ = self.get_size()
        atlas = self.mapview.atlas
        col = ERROR if error else TEXT
        width = W - 20
        top_y = STATUS_H - 14
        if atlas.measure(status, FONT * PT) <= width:
            text(status, 10, top_y, col)
            cut = False
        else:
            lines = wrap(atlas, status, width, 8.5 * PT)
            cut = len(lines) > 2
            text(lines[0], 10, STATUS_H - 9, col, size=8.5)
            if len(lines) > 1:
                rest = " ".join(lines[1:])
                text(rest, 10, STATUS_H - 21, col, size=8.5, width=width)
        rw = atlas.measure(right, FONT * PT)
        text(right, W - 10, 11, DIM, ax="right")
        text(info or "—", 10, 11, TEXT, bold=True, width=max(40.0, W - 40 - rw))
        if cut:
            p.widget(0, STATUS_H - 28, W, 28, None, "status message")
            if p.hovered(0, STATUS_H - 28, W, 28):
                paint_tooltip(
                    p, atlas, status, p.mouse, Rect(0, 0, W, self.get_size()[1]), width=min(600.0, W - 20)
                )

    def _make_dialog(self, kind: str) -> Dialog:
        if kind == "quit":
            return Dialog("Unsaved changes", self._lost_text(),
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
        if kind == "resize":
            return self._resize_dialog()  # type: ignore[attr-defined,no-any-return]
        if kind == "newmap":
            return self._new_map_dialog()  # type: ignore[attr-defined,no-any-return]
        if kind.startswith(("field:", "cards:")):
            return self._typed_dialog(kind)  # type: ignore[attr-defined,no-any-return]
        hint = ".json saves a map, .toml a scenario" if self.doc.scenario is None else "scenario file (.toml)"
        return Dialog("Save as", hint, [("Save  (Enter)", self._saveas_confirm), ("Cancel  (Esc)", self._close_modal)],
                      body=[self._field], shade=120)  # fmt: skip

    def _paint_help(self, p: Painter) -> None:
        _, text, _ = self._kit(p)
        W, H = self.get_size()
        from ..ui.widgets import wrap

        cols = _help_columns()
        pw = min(W - 40, 1000)
        step = 17 if H >= 700 else 15
        ph = min(H - 20, 90 + step * max(len(c) for c in cols) + 6 * 5 + (12 * 8 if W < 1000 else 0))
        x0, y0 = (W - pw) / 2, (H - ph) / 2
        p.rect(0, 0, W, H, (0, 0, 0, 120), 2)
        p.widget(0, 0, W, H, None, "modal", 2)
        p.rect(x0, y0, x0 + pw, y0 + ph, (*PANEL, 255), 2)
        p.rect(x0, y0 + ph - 40, x0 + pw, y0 + ph, (*BG, 255), 2)
        text("Keyboard shortcuts", x0 + 16, y0 + ph - 20, ACTIVE, size=14, bold=True, z=2)
        text("H, F1 or Esc closes", x0 + pw - 16, y0 + ph - 20, DIM, size=10, ax="right", z=2)
        colw = (pw - 32) / len(cols)
        atlas = self.mapview.atlas
        for ci, col in enumerate(cols):
            y = y0 + ph - 62
            # the key column is as wide as its longest key; a description that does not fit
            # the rest is drawn a size smaller before anything is cut (legible at 800 x 600)
            keyw = max(atlas.measure(a, 9 * PT, "bold") for kind, a, _ in col if kind != "section") + 14
            for kind, a, bb in col:
                if kind == "section":
                    y -= 6
                    text(a.upper(), x0 + 16 + ci * colw, y, ACTIVE, size=9, bold=True, z=2)
                else:
                    text(a, x0 + 16 + ci * colw, y, TEXT, size=9, bold=True, z=2)
                    room = colw - keyw - 12
                    sz = 9 if atlas.measure(bb, 9 * PT) <= room else 8
                    lines = wrap(atlas, bb, room, sz * PT) or [""]
                    for li, ln in enumerate(lines[:3]):
                        if li:
                            y -= 12
                        text(ln, x0 + 16 + ci * colw + keyw, y, DIM, size=sz, width=room, z=2)
                y -= step


def _area_swatch(colour: Sequence[int], p: Painter, cx: float, cy: float, r: float) -> None:
    p.rect(cx - 5, cy - 5, cx + 5, cy + 5, colour)


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
def _event_tips() -> dict[str, str]:
    """``event card id -> its card text`` (the Event list's tooltips, R4.3)."""
    try:
        from ..rules.cards import default_cards

        cs = default_cards()
    except (HexwarError, ImportError, OSError):
        return {}
    return {k: f"{e.help_text()} ({k})" for k, e in cs.events.items()}


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
