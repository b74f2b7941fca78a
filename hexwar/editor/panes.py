"""The editor's palettes, minimap and map dialogs (issue 17, against Wesnoth's editor).

A mixin of :class:`hexwar.editor.window.EditorWindow`:

- palettes (:class:`~hexwar.ui.widgets.panel_list.PanelList`): terrain (generated from the
  terrain table, R2.5), wreck counters (R8.1) and, in a scenario, the side's starting units
  (R10.2); each searchable (Ctrl+F, or click the field), scrolling, with a tooltip per row;
- the minimap (:class:`~hexwar.ui.widgets.minimap.Minimap`) drawn from the terrain looks'
  colours, rebuilt on every edit (the map's version), framing what is on screen; a click
  puts that point in the middle of the map area;
- the Resize dialog (Ctrl+R): typed width and height, one of nine anchors
  (:mod:`hexwar.editor.resize`), checked as typed;
- the New map dialog (Ctrl+N): name, width, height and base terrain, checked as typed.

Everything changes the document through :class:`~hexwar.editor.session.EditorSession`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import HexwarError, small_uint
from ..ui.widgets import Button, Dialog, Element, Rect, TextField
from ..ui.widgets import theme as T
from ..ui.widgets.minimap import Minimap, minimap_cells
from ..ui.widgets.panel_list import PanelList, PanelRow
from .palette import terrain_tip, wreck_tip
from .resize import ANCHORS, resize_plan

__all__ = ["EditorPanesMixin", "parse_new_map"]

PALETTE_KINDS = ("terrain", "features", "units")


class _FormField(TextField):
    """A text field that reports every change (the dialog re-checks what was typed)."""

    def __init__(
        self,
        text: str,
        on_change: Callable[[str], Any],
        on_enter: Callable[[str], Any],
        tip: str,
        allowed: Callable[[str], bool] | None = None,
        max_length: int | None = None,
    ) -> None:
        super().__init__(text, on_enter=on_enter, tip=tip, allowed=allowed, max_length=max_length)
        self.on_change = on_change

    def on_text(self, text: str) -> bool:
        """Insert, then report."""
        super().on_text(text)
        self.on_change(self.text)
        return True

    def on_motion(self, motion: int) -> bool:
        """Edit, then report."""
        used = super().on_motion(motion)
        self.on_change(self.text)
        return used


class _AnchorGrid(Element):
    """Nine buttons, three by three: where the old content stays (:data:`~hexwar.editor.resize.ANCHORS`)."""

    def __init__(self, current: str, choose: Callable[[str], Any]) -> None:
        super().__init__(tip="anchor")
        self.buttons: list[Button] = []
        glyphs = ("↖", "↑", "↗", "←", "•", "→", "↙", "↓", "↘")
        for a, g in zip(ANCHORS, glyphs, strict=True):
            b = Button(
                g, functools.partial(choose, a), active=a == current, tip=f"anchor {a}", align="center"
            )
            b.focusable = False  # a click keeps the keyboard in the size field: Enter resizes
            self.add(b)
            self.buttons.append(b)

    def layout(self, rect: Rect) -> None:
        """Three rows of three square-ish buttons filling ``rect``."""
        self.rect = rect
        cw, ch = rect.w / 3, rect.h / 3
        for i, b in enumerate(self.buttons):
            c, r = i % 3, i // 3
            b.layout(Rect(rect.x + c * cw + 1, rect.y1 - (r + 1) * ch + 1, cw - 2, ch - 2))


class _Form(Element):
    """Labelled rows (label left, element right) and an optional element beside them."""

    ROW = 34.0

    def __init__(
        self,
        rows: Sequence[tuple[str, Element]],
        side: Element | None = None,
        side_w: float = 0.0,
        side_label: str = "",
        note: str = "",
    ) -> None:
        super().__init__(tip="form")
        self.rows, self.note = rows, note
        for _, e in rows:
            self.add(e)
        self.side, self.side_w, self.side_label = side, side_w, side_label
        if side is not None:
            self.add(side)

    @property
    def height(self) -> float:
        """Points the form needs."""
        return max(
            len(self.rows) * self.ROW + (20 if self.note else 0),
            3 * 30.0 + 18 if self.side is not None else 0.0,
        )

    def layout(self, rect: Rect) -> None:
        """Rows from the top; the side element at the right."""
        self.rect = rect
        w = rect.w - (self.side_w + 16 if self.side is not None else 0)
        for i, (_, e) in enumerate(self.rows):
            y1 = rect.y1 - i * self.ROW
            e.layout(Rect(rect.x + 110, y1 - 30, w - 110, 30))
        if self.side is not None:
            self.side.layout(Rect(rect.x1 - self.side_w, rect.y, self.side_w, rect.h - 18))

    def paint_self(self, p: Any, z: int) -> None:
        """The labels."""
        for i, (label, _) in enumerate(self.rows):
            p.text(label, self.rect.x, self.rect.y1 - i * self.ROW - 15, 13.0, T.DIM, z=z)
        if self.side is not None and self.side_label:
            p.text(self.side_label, self.rect.x1 - self.side_w, self.rect.y1 - 8, 12.0, T.DIM, z=z)
        if self.note:
            from ..ui.widgets import ellipsize

            p.text(
                ellipsize(p.atlas, self.note, self.rect.w, 11.0),
                self.rect.x,
                self.rect.y + 8,
                11.0,
                T.DIM,
                z=z,
            )


def _digits(ch: str) -> bool:
    return ch.isascii() and ch.isdigit()  # "²" is a digit to isdigit() but not to int()


def parse_new_map(rules: Any, name: str, width: str, height: str, terrain: str) -> tuple[str, int, int, str]:
    """Check the New map dialog's typed values: ``(name, width, height, terrain key)``.

    The terrain may be typed as its key (``wheat``), its name (``Wheat field``) or its map
    code, in any case.

    Raises:
        ValueError: naming the field and what was expected (the dialog shows it as typed).

    >>> from hexwar.model.terrain import default_terrain
    >>> parse_new_map(default_terrain(), "Steppe", "30", "20", "wheat field")[1:]
    (30, 20, 'wheat')
    """
    from ..model.maps import MAX_MAP_SIDE

    if not name.strip():
        raise ValueError("name: expected a name for the map")
    size = []
    for what, v in (("width", width), ("height", height)):
        if small_uint(v.strip()) is None:
            raise ValueError(f"{what}: expected a whole number of hexes, 1..{MAX_MAP_SIDE}")
        n = int(v)
        if not 1 <= n <= MAX_MAP_SIDE:
            raise ValueError(f"{what}: expected 1..{MAX_MAP_SIDE} hexes, got {n}")
        size.append(n)
    t = terrain.strip().lower()
    for tt in rules.types:
        if t in (tt.key.lower(), tt.name.lower(), tt.code.lower()):
            return (name.strip(), size[0], size[1], tt.key)
    raise ValueError(
        f"base terrain: expected one of {', '.join(tt.key for tt in rules.types)}, got {terrain!r}"
    )


class EditorPanesMixin:
    """Palettes, minimap and the Resize / New map dialogs of the editor window (module doc)."""

    session: Any
    doc: Any
    palette: Any
    wrecks: Any
    mapview: Any
    looks: Any
    modal: str | None
    tab: str
    _mouse: tuple[float, float]
    _ui_key: Any
    map_area: Any
    _after: Any
    fit_map: Any
    _close_modal: Any
    _replace_document: Any

    palette_kind = "terrain"
    _lists: dict[str, PanelList]
    _minimap: Minimap | None = None
    _minimap_key: Any = None
    _form: dict[str, Any]
    _form_dialog: Dialog | None = None
    _dialog_kind: str | None = None

    # -- palettes ------------------------------------------------------------------------
    def palette_list(self, kind: str) -> PanelList:
        """The :class:`PanelList` of palette ``kind`` (``terrain``, ``features``, ``units``) or
        of the Scenario tab's ``events``."""
        if not hasattr(self, "_lists"):
            self._lists = {}
        if kind not in self._lists:
            hint = {
                "terrain": "search terrain (Ctrl+F)",
                "features": "search wrecks (Ctrl+F)",
                "units": "search unit cards (Ctrl+F)",
            }
            name = f"palette {kind}" if kind in PALETTE_KINDS else {"events": "event"}.get(kind, kind)
            self._lists[kind] = PanelList(
                name, searchable=kind in PALETTE_KINDS, placeholder=hint.get(kind, "")
            )
        return self._lists[kind]

    def focused_list(self) -> PanelList | None:
        """The palette whose search field has the keyboard, or ``None``."""
        for lst in getattr(self, "_lists", {}).values():
            if lst.focused:
                return lst
        return None

    def _palette_kind(self, kind: str) -> None:
        if kind == "units" and self.doc.scenario is None:
            kind = "terrain"
        self.palette_kind = kind

    def _palette_now(self) -> tuple[PanelList, list[PanelRow], str | None, Callable[[str], Any]]:
        """``(list, rows, chosen key, pick)`` of the palette shown now."""
        kind = self.palette_kind if self.palette_kind in PALETTE_KINDS else "terrain"
        if kind == "units" and self.doc.scenario is None:
            kind = "terrain"
        s = self.session
        lst = self.palette_list(kind)
        if kind == "terrain":
            rules = self.doc.map.rules
            rows = [
                PanelRow(
                    e.key,
                    e.name,
                    e.detail,
                    terrain_tip(rules, e.key),
                    f"{e.group} {e.code}",
                    functools.partial(_hex_swatch, e.colour, e.edge),
                    e.hotkey,
                )
                for e in self.palette
            ]
            return lst, rows, s.terrain if s.tool in ("brush", "line", "fill") else None, self._pick_terrain
        if kind == "features":
            rows = [
                PanelRow(
                    w.id,
                    f"{w.id}  {w.nationality}",
                    (w.caption + (" · LOS" if w.los else "")),
                    wreck_tip(w),
                    "wreck",
                    functools.partial(_wreck_swatch, w.los, w.applies),
                )
                for w in self.wrecks
            ]
            return lst, rows, s.wreck if s.tool == "wreck" else None, self._pick_wreck
        from .panels import SIDE_COLOURS

        details = _unit_details(s.side)
        cur = s.current_unit()
        rows = [
            PanelRow(
                cid,
                name,
                details.get(cid, ("", ""))[0],
                details.get(cid, ("", name))[1],
                s.side,
                functools.partial(_unit_swatch, SIDE_COLOURS[s.side]),
            )
            for cid, name, _crew in s.units.get(s.side, [])
        ]
        return lst, rows, cur[0] if cur is not None and s.tool == "unit" else None, self._pick_unit

    def _remove_card(self, target: str, index: str) -> None:
        self.session.remove_card(target, int(index))

    def _pick_terrain(self, k: str) -> None:
        self.session.set_terrain(k)
        self.tab = "map"

    def _pick_wreck(self, k: str) -> None:
        self.session.set_wreck(k)

    def _pick_unit(self, card: str) -> None:
        s = self.session
        ids = [u[0] for u in s.units.get(s.side, [])]
        if card in ids:
            s.unit_index = ids.index(card)
        if s.tool != "unit":
            s.set_tool("unit")
        u = s.current_unit()
        s.say(f"Unit: {u[1] if u else card}: click a hex to place it (right click removes)")

    def _palette_for_tool(self, tid: str) -> None:
        """Show the palette that goes with tool ``tid`` (Wesnoth: the palette follows the tool)."""
        if tid in ("brush", "line", "fill"):
            self.palette_kind = "terrain"
        elif tid == "wreck":
            self.palette_kind = "features"
        elif tid == "unit" and self.doc.scenario is not None:
            self.palette_kind = "units"

    def palette_state(self) -> Any:
        """What the palettes show (the panels repaint when it changes)."""
        return (self.palette_kind,) + tuple(
            (k, v.query, v.offset, v.cursor, v.focused)
            for k, v in sorted(getattr(self, "_lists", {}).items())
        )

    # -- minimap ----------------------------------------------------------------------------
    def minimap_now(self) -> Minimap:
        """The minimap, its cells rebuilt when the map changed (every edit bumps its version)."""
        m = self.doc.map
        k = (id(m), m.version, m.width, m.height)
        if self._minimap is None:
            self._minimap = Minimap()
        if self._minimap_key != k:
            self._minimap_key = k
            self._minimap.set_cells(
                *minimap_cells(m, self.looks, self.mapview.layout),
                self.mapview.world_bounds(),
                self.mapview.layout.size,
            )
        return self._minimap

    def _minimap_click(self) -> None:
        """Put the world point under the pointer on the minimap in the middle of the map area."""
        mm = self.minimap_now()
        wx, wy = mm.to_world(*self._mouse)
        self.look_at_world(wx, wy)

    def look_at_world(self, wx: float, wy: float) -> None:
        """Pan so world point ``(wx, wy)`` sits in the middle of the map area (zoom kept)."""
        cam = self.mapview.camera
        ax0, ay0, ax1, ay1 = self.map_area()
        vw, vh = cam.viewport
        dx, dy = (ax0 + ax1) / 2 - vw / 2, (ay0 + ay1) / 2 - vh / 2
        cam.look_at(wx - dx / cam.zoom, wy - dy / cam.zoom)
        self.session.say("Minimap: jumped there (Home fits the whole map)")

    def labels_too_small(self) -> bool:
        """True when hex labels are on but the renderer hides them at this zoom (too small
        to read, :data:`hexwar.render.mapview.MIN_LABEL_PX`): the Labels button says so."""
        from ..render.mapview import MIN_LABEL_PX

        v = self.mapview
        px = v.layout.size * v.camera.zoom * v.camera.pixel_ratio
        return bool(
            self.session.show_labels and v.atlas.cap_height * v.looks.label_height * px < MIN_LABEL_PX
        )

    def camera_state(self) -> tuple[float, float, float]:
        """Camera centre and zoom (the minimap's frame follows them)."""
        cam = self.mapview.camera
        return (round(cam.center[0], 2), round(cam.center[1], 2), round(cam.zoom, 4))

    # -- Resize dialog ---------------------------------------------------------------------
    def open_resize(self) -> None:
        """Open the Resize dialog (Ctrl+R): width, height and anchor, checked as typed."""
        m = self.doc.map
        self._form = {"width": str(m.width), "height": str(m.height), "anchor": "centre"}
        self.modal = "resize"

    def resize_message(self) -> tuple[bool, str]:
        """``(ok, text)``: what the typed resize would do, or why it cannot."""
        f = self._form
        try:
            w, h = int(f["width"]), int(f["height"])
        except ValueError:
            return (False, "✗ width and height: whole numbers of hexes, 1..500")
        try:
            plan = resize_plan(self.doc.map, self.doc.scenario, w, h, f["anchor"])
        except HexwarError as exc:
            return (False, f"✗ {exc}")
        if not plan.ok:
            return (False, "✗ " + "; ".join(plan.lost) + " would fall off the map: pick another anchor")
        return (True, "✓ " + plan.summary)

    def _resize_dialog(self) -> Dialog:
        f = self._form

        def changed(field: str, text: str) -> None:
            f[field] = text
            self._refresh_form_message()

        def choose(anchor: str) -> None:
            f["anchor"] = anchor
            for b, a in zip(grid.buttons, ANCHORS, strict=True):
                b.active = a == anchor
            self._refresh_form_message()
            self._ui_key = None

        wf = _FormField(
            f["width"],
            functools.partial(changed, "width"),
            lambda _t: self._resize_confirm(),
            "resize width",
            allowed=_digits,
            max_length=3,
        )
        hf = _FormField(
            f["height"],
            functools.partial(changed, "height"),
            lambda _t: self._resize_confirm(),
            "resize height",
            allowed=_digits,
            max_length=3,
        )
        grid = _AnchorGrid(f["anchor"], choose)
        form = _Form(
            [("Width (hexes)", wf), ("Height (hexes)", hf)],
            side=grid,
            side_w=150,
            side_label="Anchor (content stays)",
        )
        ok, msg = self.resize_message()
        d = Dialog(
            f"Resize map  ({self.doc.map.width} × {self.doc.map.height})",
            msg,
            [("Resize  (Enter)", self._resize_confirm), ("Cancel  (Esc)", self._close_modal)],
            body=[form],
            shade=120,
            width=600,
            body_h=form.height,
        )
        self._form_dialog = d
        return d

    def _refresh_form_message(self) -> None:
        d = getattr(self, "_form_dialog", None)
        if d is None:
            return
        _, msg = self.resize_message() if self.modal == "resize" else self.new_map_message()
        d.message = msg
        d.text_block.text = msg
        self._ui_key = None

    def _resize_confirm(self) -> None:
        ok, msg = self.resize_message()
        if not ok:
            self.session.say(msg.lstrip("✗ "), error=True)
            self._dialog_reopen()
            return
        f = self._form
        problem = self.session.resize_to(int(f["width"]), int(f["height"]), f["anchor"])
        if problem is not None:
            self._dialog_reopen()
            return
        self._close_modal()
        self._after()
        self.fit_map()

    def _dialog_reopen(self) -> None:
        """Keep the dialog open after a refused confirm (its button closed it)."""
        self._dialog_kind = None

    # -- New map dialog --------------------------------------------------------------------
    def open_new_map(self) -> None:
        """Open the New map dialog (Ctrl+N): name, width, height, base terrain."""
        self._form = {"name": "Untitled", "width": "30", "height": "20", "terrain": "clear"}
        self.modal = "newmap"

    def new_map_message(self) -> tuple[bool, str]:
        """``(ok, text)``: the map the typed values make, or what is wrong with them."""
        f = self._form
        try:
            name, w, h, t = parse_new_map(
                self.doc.map.rules, f["name"], f["width"], f["height"], f["terrain"]
            )
        except ValueError as exc:
            return (False, f"✗ {exc}")
        tname = self.doc.map.rules.by_key(t).name
        warn = "  ·  the changes to this map are not saved: Create discards them" if self.doc.dirty else ""
        return (True, f"✓ {name}: {w} × {h} hexes of {tname}{warn}")

    def _new_map_dialog(self) -> Dialog:
        f = self._form

        def changed(field: str, text: str) -> None:
            f[field] = text
            self._refresh_form_message()

        go = lambda _t: self._new_map_confirm()  # noqa: E731
        fields = [
            (
                "Name",
                _FormField(f["name"], functools.partial(changed, "name"), go, "new name", max_length=80),
            ),
            (
                "Width (hexes)",
                _FormField(
                    f["width"],
                    functools.partial(changed, "width"),
                    go,
                    "new width",
                    allowed=_digits,
                    max_length=3,
                ),
            ),
            (
                "Height (hexes)",
                _FormField(
                    f["height"],
                    functools.partial(changed, "height"),
                    go,
                    "new height",
                    allowed=_digits,
                    max_length=3,
                ),
            ),
            (
                "Base terrain",
                _FormField(
                    f["terrain"], functools.partial(changed, "terrain"), go, "new terrain", max_length=40
                ),
            ),
        ]
        keys = ", ".join(t.key for t in self.doc.map.rules.types)
        form = _Form(fields, note=f"terrain: {keys}")
        _, msg = self.new_map_message()
        d = Dialog(
            "New map",
            msg,
            [("Create  (Enter)", self._new_map_confirm), ("Cancel  (Esc)", self._close_modal)],
            body=[form],
            shade=120,
            width=700,
            body_h=form.height,
        )
        self._form_dialog = d
        return d

    def _new_map_confirm(self) -> None:
        from .model import EditorDocument

        ok, msg = self.new_map_message()
        if not ok:
            self.session.say(msg.lstrip("✗ "), error=True)
            self._dialog_reopen()
            return
        f = self._form
        name, w, h, t = parse_new_map(self.doc.map.rules, f["name"], f["width"], f["height"], f["terrain"])
        self._close_modal()
        self._replace_document(EditorDocument.new(w, h, fill=t, name=name))
        self.session.say(
            f"New map {name}: {w} × {h} hexes of {self.doc.map.rules.by_key(t).name} (Ctrl+S saves)"
        )


def _hex_swatch(colour: Any, edge: Any, p: Any, cx: float, cy: float, r: float) -> None:
    from .panels import _hex_points

    p.polygon(_hex_points(cx, cy, r), (*edge[:3], 255))
    p.polygon(_hex_points(cx, cy, r - 2), (*colour[:3], 255))


def _wreck_swatch(los: bool, applies: str, p: Any, cx: float, cy: float, r: float) -> None:
    p.rect(cx - r, cy - r * 0.8, cx + r, cy + r * 0.8, (77, 75, 69, 255))
    p.frame(
        cx - r,
        cy - r * 0.8,
        cx + r,
        cy + r * 0.8,
        1.0,
        (232, 90, 74, 255) if applies == "soft" else (20, 20, 20, 255),
    )
    if los:
        p.circle(cx + r * 0.5, cy + r * 0.3, 2.5, (240, 236, 224, 255))


def _unit_swatch(colour: Any, p: Any, cx: float, cy: float, r: float) -> None:
    p.rect(cx - r, cy - r * 0.7, cx + r, cy + r * 0.7, colour)
    p.frame(cx - r, cy - r * 0.7, cx + r, cy + r * 0.7, 1.0, (20, 20, 20, 255))


@functools.cache
def _unit_details(side: str) -> dict[str, tuple[str, str]]:
    """``card id -> (short detail, full card text)`` of the side's unit cards (tooltips)."""
    try:
        from ..rules.cards import default_cards

        cs = default_cards()
    except (HexwarError, ImportError, OSError):
        return {}
    out = {}
    for u in cs.side_units(side, crews=True):
        out[u.id] = (
            f"{u.unit_type.replace('_', ' ')} · {u.cost} VP",
            f"{u.name} ({u.id}): {u.help_text(cs)}",
        )
    return out
