"""The editor's Scenario tab, drawn through the widget toolkit: pages Setup (name, briefing,
limits, variants, Event cards), Sides (Reserves or budget, hand, artillery, starting units) and
Places (objectives with name, points and holder; areas), and the validator's verdict.

A mixin of :class:`hexwar.editor.window.EditorWindow` beside
:class:`~hexwar.editor.panels.EditorPanelsMixin`, whose theme, kit and card helpers it uses; it
calls the window's actions and changes nothing itself (issue 34: cut from ``panels.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..model.hexgrid import Hex
from ..ui.widgets import Painter
from .panels import (
    ACTIVE,
    DIM,
    ERROR,
    OK,
    PT,
    SECTION,
    SIDE_COLOURS,
    STATUS_H,
    TEXT,
    _area_colour,
    _area_swatch,
    _card_costs,
    _card_info,
    _event_ids,
    _event_tips,
    _event_titles,
    _profiles,
)
from .scenario_draft import SIDES, VARIANTS

__all__ = ["EditorScenarioPanelMixin"]


class EditorScenarioPanelMixin:
    """The Scenario tab of :class:`~hexwar.editor.window.EditorWindow` (see module doc)."""

    session: Any
    doc: Any
    sub_tab: str
    _kit: Any
    _side: Any
    _sub: Any
    _profile: Any
    _choose_objective: Any
    _problems: Any
    open_field: Any
    open_cards: Any

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
            button(
                px + i * (pw / 3),
                y,
                pw / 3 - 4,
                22,
                lab,
                functools.partial(self._sub, pid),
                active=self.sub_tab == pid,
                tip=f"page {pid}",
            )
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
            text(
                f"{len(probs)} problem{'s' if len(probs) != 1 else ''} before it can be saved:",
                px + 6,
                yb + 29,
                ERROR,
                size=8,
                bold=True,
                width=pw - 12,
            )
            text(f"{first.where}: {first.message}", px + 6, yb + 12, TEXT, size=8, width=pw - 12)

    def _field_row(
        self, p: Painter, px: float, pw: float, y: float, label: str, value: str, field: str, tip: str = ""
    ) -> float:
        rect, text, button = self._kit(p)
        y -= 24
        text(label, px, y + 11, DIM, size=8)
        button(
            px + 92, y, pw - 92, 22, "", functools.partial(self.open_field, field), tip=tip or f"edit {field}"
        )  # type: ignore[attr-defined]
        text(value or "(not set)", px + 98, y + 11, TEXT if value else ERROR, size=9, width=pw - 104)
        return y

    def _stepper(
        self,
        p: Painter,
        px: float,
        pw: float,
        y: float,
        label: str,
        value: str,
        minus: Callable[[], None],
        plus: Callable[[], None],
        tip: str,
    ) -> float:
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
        y = self._stepper(
            p,
            px,
            pw,
            y,
            "Turn limit",
            str(sc.turns) if sc.turns else "none",
            lambda: adj("turns", -1),
            lambda: adj("turns", 1),
            "turns",
        )
        y = self._stepper(
            p,
            px,
            pw,
            y,
            "Victory points",
            str(sc.victory_points),
            lambda: adj("victory_points", -1),
            lambda: adj("victory_points", 1),
            "victory points",
        )
        y -= 26
        text("Variants", px, y + 11, TEXT)
        # every variant button inside the panel, its label at 9 pt unsqueezed (issue 36: at 800x600
        # "crews-fight" was squeezed to 6 points): as many a row as fit, the rest on rows below
        need = max(p.measure(v, 9 * PT, "bold") for v in VARIANTS) + 14
        per = max(1, min(len(VARIANTS), int((pw - 80 + 4) // need)))
        vw = (pw - 80) / per
        for i, v in enumerate(VARIANTS):
            row, col = divmod(i, per)
            button(
                px + 80 + col * vw,
                y - row * 26,
                vw - 4,
                22,
                v,
                functools.partial(s.toggle_variant, v),
                active=v in sc.variants,
                tip=f"variant {v}",
                size=9,
            )
        y -= 26 * ((len(VARIANTS) - 1) // per)
        # every Event card of the card data plus any the scenario names that the data lacks
        # (issue 17: the list showed 12 of 14 and hid the skirmish's own event); it scrolls
        evs = _event_ids()
        evs = evs + [e for e in sc.events if e not in evs]
        y -= 22
        text(
            f"EVENT CARDS  {len(sc.events)} of {len(evs)} in the deck",
            px,
            y + 6,
            DIM,
            size=8,
            bold=True,
            width=pw,
        )
        y -= 6
        from ..ui.widgets.panel_list import PanelRow

        titles = _event_titles()
        rows = [
            PanelRow(eid, titles.get(eid, eid), tip=_event_tips().get(eid, ""), checked=eid in sc.events)
            for eid in evs
        ]
        lst = self.palette_list("events")  # type: ignore[attr-defined]
        lst.paint(p, px, bottom, pw, max(22.0, y - bottom), rows, None, s.toggle_event, size=9 * PT)

    def _page_sides(self, p: Painter, px: float, pw: float, y: float, bottom: float) -> None:
        rect, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        side = s.side
        y -= 26
        for i, sd in enumerate(SIDES):
            button(
                px + i * (pw / 2),
                y,
                pw / 2 - 4,
                22,
                sd.capitalize(),
                functools.partial(self._side, sd),
                active=side == sd,
                tip=f"side {sd}",
            )
        y -= 14
        z = len(sc.deploy_of(side))
        n = sum(1 for u in sc.units if u.side == side)
        rect(px, y - 5, 10, 10, SIDE_COLOURS[side])
        text(
            f"zone {z} hexes (D) · {n} starting unit{'s' if n != 1 else ''} (N)",
            px + 16,
            y,
            TEXT if z else ERROR,
            size=9,
            width=pw - 16,
        )
        y -= 6
        budget = sc.rest_value("sides", side, "budget")
        res = list(sc.rest_value("sides", side, "reserves") or [])
        hand = list(sc.rest_value("sides", side, "hand") or [])
        shown_budget = (
            f"{budget} points" if budget is not None else ("none: the fixed Reserves below" if res else "")
        )
        y = self._field_row(p, px, pw, y, "Budget", shown_budget, "budget", tip="edit budget")
        hs = sc.rest_value("sides", side, "hand_size")
        y = self._field_row(
            p, px, pw, y, "Hand size", str(hs) if hs is not None else "4 (rule default, R5.2)", "hand_size"
        )
        # the artillery block at the bottom; the Reserves and the starting hand share what is
        # left between, each a scrolling list (a click on a card takes it out)
        art_top = bottom + 4 + 24 + 3 * 26 + 20
        room = max(80.0, y - art_top)
        cost = _card_costs()
        from ..ui.widgets.panel_list import PanelRow

        for target, lst, share in (("reserves", res, 0.5), ("hand", hand, 1.0)):
            h = room * share if target == "reserves" else (y - art_top)
            y -= 20
            pts = sum(cost.get(c, 0) for c in lst)
            label = "RESERVES" if target == "reserves" else "STARTING HAND"
            text(f"{label}  {len(lst)} cards · {pts} pts", px, y + 4, DIM, size=8, bold=True, width=pw - 70)
            button(
                px + pw - 64,
                y - 4,
                64,
                18,
                "+ card…",
                functools.partial(self.open_cards, target),  # type: ignore[attr-defined]
                tip=f"add {target}",
                size=8,
            )
            y -= 8
            where = "the Reserves" if target == "reserves" else "the starting hand"
            rows = [
                PanelRow(
                    str(i),
                    _card_info().get(cid, (cid,))[0],
                    hotkey="×",
                    tip=f"{_card_info().get(cid, (cid,))[0]} ({cid}): click to take it out of {where}",
                )
                for i, cid in enumerate(lst)
            ]
            pl = self.palette_list(target)  # type: ignore[attr-defined]
            pl.row_h = 18.0
            lh = max(18.0, h - 28)
            remove = functools.partial(self._remove_card, target)  # type: ignore[attr-defined]
            pl.paint(p, px, y - lh, pw, lh, rows, None, remove, size=8 * PT)
            y -= lh + 4
        art = sc.artillery_of(side)
        y = art_top
        text("ARTILLERY (R9)", px, y - 8, DIM, size=8, bold=True)
        y -= 16
        profiles = [wj for sd, wj in _profiles()]
        y -= 24
        cur = art.weapon_json if art is not None else None
        i = profiles.index(cur) if cur in profiles else -1
        button(
            px,
            y,
            22,
            22,
            "‹",
            functools.partial(self._profile, profiles, i - 1 if i >= 0 else len(profiles) - 1),
            tip="weapon previous",
        )
        button(
            px + pw - 22, y, 22, 22, "›", functools.partial(self._profile, profiles, i + 1), tip="weapon next"
        )
        name = art.weapon.get("name", "?") if art is not None else "no weapon (choose a profile or type one)"
        button(px + 26, y, pw - 52, 22, "", functools.partial(self.open_field, "weapon"), tip="edit weapon")  # type: ignore[attr-defined]
        text(name, px + 32, y + 11, TEXT if art else DIM, size=8, width=pw - 64)
        from ..rules.terrain_effects import default_effects

        adj = s.adjust_setting
        y = self._stepper(
            p,
            px,
            pw,
            y,
            "  missions",
            str(art.missions if art else 0),
            lambda: adj("missions", -1),
            lambda: adj("missions", 1),
            "missions",
        )
        y = self._stepper(
            p,
            px,
            pw,
            y,
            "  per turn",
            str(art.per_turn if art else "-"),
            lambda: s.adjust_per_turn(-1),
            lambda: s.adjust_per_turn(1),
            "per turn",
        )
        hit = (
            art.hit_on if art is not None and art.hit_on is not None else default_effects().side_hit_on(side)
        )
        self._stepper(
            p,
            px,
            pw,
            y,
            "  hits on d6",
            f"{hit}+",
            lambda: adj("hit_on", -1),
            lambda: adj("hit_on", 1),
            "hit on",
        )

    def _page_places(self, p: Painter, px: float, pw: float, y: float, bottom: float) -> None:
        """Objectives (a scrolling list; click one to edit its name, points and holder) and
        areas (a scrolling list; a click removes one, Ctrl+Z brings it back)."""
        from ..ui.widgets.panel_list import PanelRow

        rect, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        m = self.doc.map
        o = sc.objective_at(s.objective) if s.objective is not None else None
        lists_h = max(60.0, (y - bottom) - 24 - 30 - (80 if o is not None else 0))
        y -= 18
        text(f"OBJECTIVES  {len(sc.objectives)}  (G: click a hex)", px, y, DIM, size=8, bold=True, width=pw)
        y -= 8
        rows = [
            PanelRow(
                m.label(ob.hex),
                f"{m.label(ob.hex)}  {ob.name or '(no name)'}",
                f"{ob.points} VP · {ob.holder or 'nobody'}",
                tip=f"objective {m.label(ob.hex)}: {ob.points} victory points, held by {ob.holder or 'nobody'}"
                " at start (R10.2); click to edit",
            )
            for ob in sc.objectives
        ]
        lst = self.palette_list("objectives")  # type: ignore[attr-defined]
        lst.name = "objective"
        oh = lists_h * 0.5
        lst.paint(
            p,
            px,
            y - oh,
            pw,
            oh,
            rows,
            m.label(s.objective) if s.objective is not None else None,
            lambda lab: self._choose_objective(Hex.from_label(lab)),
            size=9 * PT,
        )
        y -= oh + 4
        if o is not None:
            y = self._field_row(p, px, pw, y - 4, "Name", o.name, "objective_name")
            y = self._field_row(p, px, pw, y, "Points", str(o.points), "objective_points")
            y -= 24
            text("Held at start", px, y + 11, DIM, size=8)
            button(
                px + 92,
                y,
                pw - 92,
                22,
                (o.holder or "nobody").capitalize(),
                s.cycle_holder,
                tip="objective holder",
            )
        areas = sc.areas()
        y -= 24
        text(f"AREAS  {len(areas)}", px, y, DIM, size=8, bold=True)
        button(
            px + pw - 150,
            y - 9,
            150,
            18,
            "+ area from selection…",
            functools.partial(self.open_field, "area_name"),  # type: ignore[attr-defined]
            tip="add area",
            size=8,
            enabled=bool(s.selection),
        )
        y -= 14
        arows = [
            PanelRow(
                name,
                f"{name}: {', '.join(specs)}",
                hotkey="×",
                tip=f"area {name}: {', '.join(specs)}; click to remove it (Ctrl+Z brings it back)",
                swatch=functools.partial(_area_swatch, _area_colour(name)),
            )
            for name, specs in areas.items()
        ]
        al = self.palette_list("areas")  # type: ignore[attr-defined]
        al.name, al.row_h = "remove area", 18.0
        al.paint(p, px, bottom, pw, max(18.0, y - bottom), arows, None, s.remove_area, size=8 * PT)
