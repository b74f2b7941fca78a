"""The play window: ``hexwar play`` in pyglet, one person against the computer or two hot-seat.

:class:`PlayWindow` is a thin shell (issue 7): it turns mouse points into hexes through the
renderer's camera, keys and clicks into :class:`~hexwar.ui.controller.PlayController` calls
(which issue the game's own commands: the window holds no rules), and draws with the shared
renderer: the map, counters and overlays by :class:`hexwar.render.mapview.MapView`
(reachable hexes with their cost, LOS with the intervening and blocking hexes and the
reason, legal targets, declared attacks, the artillery strike's drift arrow, objectives,
deploy zones), the panels by :mod:`hexwar.ui.panels` in the same batch, above the map.

It can be driven headless by dispatching events (the tests do)::

    import pyglet
    pyglet.options["headless"] = True
    win = PlayWindow(state, ai={"soviet": make_player("standard", "soviet", 1)},
                     clock=ManualClock(), visible=False, schedule=False)
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    win.clock.advance(2.0); win.tick()      # the computer's next step

:func:`run` is what ``hexwar play`` calls (see :mod:`hexwar.cli.game` for the contract).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..render import backend
from ..render.map_window import MapAreaMixin

backend.ensure_configured()

import pyglet  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from ..errors import HexwarError  # noqa: E402
from ..game.commands import SIDES, Discard, UseCommandCard  # noqa: E402
from ..game.state import GameState, Phase  # noqa: E402
from ..model.hexgrid import Hex  # noqa: E402
from ..render.gamescene import counters_from_state  # noqa: E402
from ..render.looks import Looks, default_looks  # noqa: E402
from ..render.mapview import MapView  # noqa: E402
from ..render.overlays import ArrowOverlay, HighlightOverlay, LosOverlay, LosView, ReachOverlay  # noqa: E402
from .clock import Clock, Pace  # noqa: E402
from .controller import PlayController  # noqa: E402
from .input_map import play_intent  # noqa: E402
from .panels import Painter, ScreenFlags, UiLayer, Widget, layout, paint_screen  # noqa: E402

__all__ = ["PlayWindow", "run", "DEFAULT_AI"]

#: Without ``--ai`` the person plays the Germans against the computer's Soviets.
DEFAULT_AI = {"soviet": "standard"}

SIDE_RGBA = {"german": (70, 110, 190, 255), "soviet": (205, 55, 45, 255)}


class PlayWindow(MapAreaMixin, pyglet.window.Window):  # type: ignore[misc]
    """The game window (see module doc).

    Args:
        state: the game to play.
        ai: computer players by side (objects with ``choose(state)``); the other sides are
            people (both people: hot-seat).
        save: autosave path (:class:`hexwar.game.save.Autosaver`, after every End Turn and at
            the end), or ``None``.
        width, height: window size in points.
        visible: show the window (tests pass ``False``).
        clock: time source for the computer's pace and animations (tests: ``ManualClock``).
        pace: how long the screen lingers after each computer action.
        schedule: run :meth:`tick` on pyglet's clock (the real app; tests call it themselves).
        pixel_ratio: force a framebuffer pixels-per-point ratio (HiDPI tests and screenshots);
            default what the platform reports.
        max_turns: stop after this many turns (``hexwar play --turns``).
        looks: colours (default the shipped looks).

    Attributes:
        controller: the :class:`PlayController` (every action goes through it).
        mapview: the renderer's :class:`MapView`.
        flags: panel switches (help, labels, log scroll).
        quit_requested: the window was closed.
    """

    fit_margin = 0.015

    def __init__(self, state: GameState, ai: dict[str, Any] | None = None, save: str | os.PathLike[str] | None = None,
                 width: int = 1400, height: int = 900, visible: bool = True, clock: Clock | None = None,
                 pace: Pace | None = None, schedule: bool = True, pixel_ratio: float | None = None,
                 max_turns: int | None = None, looks: Looks | None = None, **kw: Any) -> None:
        self._forced_ratio = pixel_ratio
        self._ready = False
        caption = f"hexwar: {state.scenario.name}"
        super().__init__(width, height, caption=caption, resizable=True, visible=visible, **kw)
        self._enable_event_queue = False  # handle dispatched events at once (tests, no loop)
        saver = None
        if save is not None:
            from ..game.save import Autosaver

            names = {s: (getattr(ai[s], "name", "computer") if ai and s in ai else "human") for s in SIDES}
            saver = Autosaver(save, names)
        self.controller = PlayController(state, ai=ai, saver=saver, clock=clock, pace=pace)
        self.controller.max_turns = max_turns
        self.looks = looks or default_looks()
        self.mapview = MapView(state.battlemap, self, looks=self.looks, show_labels=True)
        self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
        self.flags = ScreenFlags()
        self.widgets: list[Widget] = []
        self.quit_requested = False
        self._mouse = (-1.0, -1.0)
        self._drag_pan = False
        self._keys: dict[str, Any] = {}
        self._ui_key: Any = None
        self._screen_texts: list[str] = []
        self._ready = True
        self.fit_map()
        self.refresh()
        if schedule:
            pyglet.clock.schedule_interval(self.tick, 1 / 30)

    def set_game(self, state: GameState, ai: dict[str, Any] | None = None, clock: Clock | None = None,
                 pace: Pace | None = None, max_turns: int | None = None) -> None:
        """Show another game in this window (a new game, a loaded save); no autosave.

        The map view is rebuilt for the new game's map; the camera is fitted again.
        """
        self.controller = PlayController(state, ai=ai, clock=clock or self.controller.clock,
                                         pace=pace or self.controller.pace)
        self.controller.max_turns = max_turns
        self.mapview.set_map(state.battlemap)
        self.mapview.clear_overlays()
        self._keys.clear()
        self.flags = ScreenFlags()
        self._ui_key = None
        self.set_caption(f"hexwar: {state.scenario.name}")
        self.fit_map()
        self.refresh()

    # -- geometry ----------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        """The controller's clock."""
        return self.controller.clock

    @property
    def state(self) -> GameState:
        """The game."""
        return self.controller.state

    def get_pixel_ratio(self) -> float:
        """Framebuffer pixels per point (forced by ``pixel_ratio=``, else the platform's)."""
        if self._forced_ratio is not None:
            return float(self._forced_ratio)
        return float(super().get_pixel_ratio())

    def set_pixel_ratio(self, ratio: float | None) -> None:
        """Force a pixel ratio (``None``: the platform's) and relayout, as a move to another
        screen would."""
        self._forced_ratio = ratio
        w, h = self.get_size()
        self.mapview.resize(w, h, self.get_pixel_ratio())
        self._ui_key = None
        self.refresh()

    def map_area(self) -> tuple[float, float, float, float]:
        """The screen rectangle ``(x0, y0, x1, y1)`` (points) the map is seen through."""
        w, h = self.get_size()
        return layout(w, h).map

    def fit_map(self) -> None:
        """Zoom and centre so the whole map fits the map area (F, Home)."""
        super().fit_map()
        self._ui_key = None

    # -- the loop --------------------------------------------------------------------------
    def tick(self, dt: float = 0.0) -> None:
        """Timer: animations and the computer's next step when due (never raises into pyglet)."""
        try:
            if self.controller.update():
                self.refresh()
        except HexwarError as exc:
            self.controller.say(str(exc), error=True)

    def drawn_state(self) -> GameState:
        """What the screen may draw: under fog the shown side's view (R12.2), else the game."""
        st = self.state
        if "fog" not in st.variants:
            return st
        from ..game.view import state_from_view, view

        key = (id(st), self.controller._epoch(), self.controller.side)
        if self._keys.get("fog_view_key") != key:
            self._keys["fog_view_key"] = key
            data = view(st, self.controller.side).data
            self._keys["fog_view"] = state_from_view(data, st.scenario)
            self._keys["fog_marks"] = tuple(data["last_known"])
        return self._keys["fog_view"]  # type: ignore[no-any-return]

    def last_known(self) -> tuple[Any, ...]:
        """The shown side's last-known markers (R12.2) as :class:`~hexwar.render.ghosts.Ghost` s."""
        if "fog" not in self.state.variants:
            return ()
        from ..render.ghosts import ghosts_from_view

        self.drawn_state()
        return ghosts_from_view(self._keys.get("fog_marks", ()), self.state.battlemap)

    def refresh(self) -> None:
        """Bring counters, overlays and panels up to date with the controller."""
        if not self._ready:
            return
        self._sync_map()
        self._sync_ui()

    def on_draw(self) -> None:
        """Draw the map, its overlays and the panels."""
        if self.context is None:
            return
        self.switch_to()
        self.refresh()
        bg = self.looks.map["background"]
        pyglet.gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
        self.clear()
        self.mapview.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Keep the map anchored and relayout the panels (HiDPI aware)."""
        super().on_resize(width, height)
        if getattr(self, "_ready", False):
            self.mapview.resize(width, height, self.get_pixel_ratio())
            self._ui_key = None

    def render_image(self, size: tuple[float, float] | None = None) -> Any:
        """The whole screen rendered offscreen (4x multisampled) as ``uint8 [H, W, 4]``,
        at the window's pixel ratio (screenshots, pixel tests)."""
        from ..render.offscreen import render_view

        self.switch_to()
        self.refresh()
        return render_view(self.mapview, size=size, pixel_ratio=self.get_pixel_ratio())

    # -- the map's counters and overlays ---------------------------------------------------------
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
        col = SIDE_RGBA.get(ctl.shown_side, (255, 255, 255, 255))
        self._set("deploy", (dep, col) if dep else None, lambda: _zone(dep, col))
        cu: tuple[Hex, ...] = tuple(h for h in (st.units[u].hex for u in ctl.card_unit_targets()) if h is not None) \
            if ctl.card else ()
        self._set("card_units", cu if cu else None, lambda: HighlightOverlay(cu, "highlight", width=0.12))
        # movement (R5.3)
        reach = ctl.reach_costs() if anim is None else {}
        self._set("reach", (tuple(sorted(reach.items())), ep) if reach else None, lambda: ReachOverlay(reach))
        # legal targets (R7) and the prepared attack
        th = tuple(ctl.target_hexes())
        self._set("targets", (th, ep) if th else None, lambda: HighlightOverlay(th, "target", width=0.11))
        sel_hex = st.units[ctl.selected].hex if ctl.selected in st.units else None
        if anim is not None and anim.uid == ctl.selected:
            sel_hex = anim_h or sel_hex
        self._set("selection", sel_hex, lambda: HighlightOverlay([h for h in (sel_hex,) if h is not None], "highlight",
                                                                  width=0.13))
        # LOS from the selected unit to the hovered hex (R3)
        res = ctl.los() if anim is None else None
        self._set("los", (res.a, res.b, res.status, ep) if res is not None else None, lambda: self._los_overlay(res))
        # declared attacks this turn (R6.1): arrows attacker -> target
        atk = []
        if st.phase in (Phase.DECLARATION, Phase.RESOLUTION):
            for n, a in sorted(st.attacks.items()):
                if a.resolved:
                    continue
                au = st.units.get(a.attackers[0])
                th_ = a.building if a.building is not None else (st.units[a.target].hex if a.target in st.units else None)
                if au is not None and au.hex is not None and th_ is not None:
                    atk.append((n, au.hex, th_, a.side))
        pend = ctl.pending
        if pend is not None and pend.attacker in st.units and pend.target in st.units:
            a_h, t_h = st.units[pend.attacker].hex, st.units[pend.target].hex
            if a_h is not None and t_h is not None:
                atk.append((0, a_h, t_h, "pending"))
        self._set("attacks", tuple(atk) if atk else None, lambda: _Arrows(atk))
        # the artillery strike and its drift (R9.3), shown for the turn it fell in
        s = ctl.strike
        show = s is not None and s.turn == st.turn and st.battlemap.in_bounds(s.target)
        self._set("strike", (s, ep) if show else None, lambda: self._strike_overlay(s))
        # artillery targeting under the cursor (R9.2)
        ah = ctl.hover if (st.phase == Phase.ARTILLERY and ctl.my_turn() and ctl.hover is not None) else None
        ok = ctl.artillery_ok(ah) is None if ah is not None else False
        self._set("art_hover", (ah, ok) if ah is not None else None,
                  lambda: HighlightOverlay([h for h in (ah,) if h is not None],
                                           (60, 190, 80, 255) if ok else (210, 60, 40, 255), width=0.12))

    def _objective_overlay(self, objs: tuple[Any, ...]) -> Any:
        from ..render.regions import ObjectiveOverlay

        return ObjectiveOverlay(tuple((h, pts) for h, _, pts, _ in objs))

    def _los_overlay(self, res: Any) -> Any:
        st = self.state
        if res.status == "blocked":
            reason = f"blocked: {res.reason} in {st.hex_label(res.blocking)}"
        elif res.status == "hindered":
            reason = f"hindered: +{res.hindrances} needed"
        else:
            n = res.a.distance(res.b)
            reason = f"clear, {n} hex{'es' if n != 1 else ''}"
        return LosOverlay(LosView(res.a, res.b, res.status, tuple(res.intervening), self.controller.los_hindering(res),
                                  (res.blocking,) if res.blocking is not None else (), reason))

    def _strike_overlay(self, s: Any) -> Any:
        from ..rules.artillery import DIRECTION_NAMES

        if s.hit:
            return HighlightOverlay([s.target], "arrow", width=0.16)
        land = s.landing if self.state.battlemap.in_bounds(s.landing) else s.target
        label = f"drift {s.drift} {DIRECTION_NAMES.get(s.direction, '')}".strip() + (" (off map)" if s.off_map else "")
        return ArrowOverlay(s.target, land, label)

    # -- panels ----------------------------------------------------------------------------------------
    def _buttons(self) -> dict[str, Callable[[], Any]]:
        return {"fit": self.fit_map, "labels": self.toggle_labels, "help": self.toggle_help, "quit": self.request_quit,
                "close_help": self.toggle_help, "close_result": self.close_result}

    def _sync_ui(self) -> None:
        ctl = self.controller
        w, h = self.get_size()
        k = (ctl.version, w, h, self._mouse, self.mapview.camera.center, self.mapview.camera.zoom, self.flags.show_help, self.flags.show_labels, self.flags.log_scroll,
             self.flags.extra.get("result_closed"), ctl.anim is not None)
        if k == self._ui_key:
            return
        self._ui_key = k
        p = Painter(self.mapview.atlas, self._mouse)
        sel = self.state.units.get(ctl.selected) if ctl.selected else None
        if sel is not None and sel.hex is not None:
            p.extra["selected_xy"] = self.screen_point(ctl.display_hex(sel.uid) or sel.hex)
        paint_screen(p, ctl, w, h, self.looks, self.flags, self._buttons())
        self.widgets = p.widgets
        self._screen_texts = p.texts
        self.ui.show(p)
        # the hex inspector in the window title, for screen readers (issue 17 item 3)
        text = ctl.inspect_text()
        caption = f"hexwar: {self.state.scenario.name}" + (f" | {text}" if text else "")
        if caption != getattr(self, "_caption", None):
            self._caption = caption
            self.set_caption(caption)

    def screen_texts(self) -> list[str]:
        """Every string the panels show now (tests read the screen through it)."""
        self.refresh()
        return list(self._screen_texts)

    def widget(self, tip: str) -> Widget:
        """The top-most widget whose tip is ``tip`` (tests click it).

        Raises:
            HexwarError: when there is none.
        """
        self.refresh()
        for wd in reversed(self.widgets):
            if wd.tip == tip:
                return wd
        raise HexwarError(f"no widget {tip!r} on the play screen; there are {sorted({w.tip for w in self.widgets})}")

    def _widget_at(self, x: float, y: float) -> Widget | None:
        top = max((w.z for w in self.widgets if w.hit(x, y)), default=None)
        if top is None:
            return None
        for wd in reversed(self.widgets):
            if wd.z == top and wd.hit(x, y) and (wd.action is not None or wd.tip == "modal"):
                return wd
        for wd in reversed(self.widgets):
            if wd.z == top and wd.hit(x, y):
                return wd
        return None

    # -- switches ------------------------------------------------------------------------------------
    def toggle_help(self) -> None:
        """Show or hide the keyboard shortcut overlay (H, F1)."""
        self.flags.show_help = not self.flags.show_help
        self.refresh()

    def toggle_labels(self) -> None:
        """Hex labels on or off (L)."""
        self.flags.show_labels = not self.flags.show_labels
        self.refresh()

    def close_result(self) -> None:
        """Close the game-over screen to look at the final map."""
        self.flags.extra["result_closed"] = True
        self.refresh()

    def request_quit(self) -> None:
        """Quit: save a given save path one last time, close the window, stop the app loop."""
        ctl = self.controller
        if ctl.saver is not None:
            from ..game.save import write_save

            try:
                write_save(ctl.state, ctl.saver.path, ctl.saver.players)
            except HexwarError as exc:
                ctl.say(f"save failed: {exc}", error=True)
        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def on_close(self) -> bool:
        """The close button quits (the game is saved when a save path was given)."""
        self.request_quit()
        return True

    # -- input ---------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        """Hover: the tooltip, LOS to the hex and button highlights follow the mouse."""
        self._mouse = (float(x), float(y))
        self.controller.set_hover(self.hex_at(x, y))
        self.refresh()

    def on_mouse_leave(self, x: float, y: float) -> None:
        """The mouse left the window: no hovered hex, so the tooltip and hover LOS go away."""
        self._mouse = (-1.0, -1.0)
        self.controller.set_hover(None)
        self.refresh()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Clicks go to a panel widget (modal ones first), else to the map."""
        self._mouse = (float(x), float(y))
        wd = self._widget_at(x, y)
        if wd is not None:
            if button == mouse.LEFT and wd.action is not None:
                wd.action()
            self.refresh()
            return
        if button == mouse.MIDDLE or (button == mouse.RIGHT and modifiers & key.MOD_SHIFT):
            self._drag_pan = True
            return
        h = self.hex_at(x, y)
        if h is None:
            return
        self._press_at = (x, y, button)
        self._drag_pan = False

    _press_at: tuple[float, float, int] | None = None

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        """Drag with the right or middle button (or any button far enough) pans the map."""
        self._mouse = (float(x), float(y))
        pa = self._press_at
        if self._drag_pan or buttons & (mouse.MIDDLE | mouse.RIGHT) or (
                pa is not None and abs(x - pa[0]) + abs(y - pa[1]) > 8):
            self._drag_pan = True
            self.mapview.camera.pan(dx, dy)
            self._ui_key = None

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        """A click (press and release without dragging) on the map acts on that hex."""
        self._mouse = (float(x), float(y))
        pa, self._press_at = self._press_at, None
        if self._drag_pan:
            self._drag_pan = False
            return
        if pa is None:
            return
        h = self.hex_at(x, y)
        self.controller.click_hex(h, alternate=button == mouse.RIGHT)
        self.refresh()

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        """Wheel: zoom at the cursor over the map, scroll the log over the side panel."""
        ax0, ay0, ax1, ay1 = self.map_area()
        if ax0 <= x < ax1 and ay0 <= y < ay1:
            if scroll_y:
                self.mapview.camera.zoom_at(x, y, 1.15 ** scroll_y)
        elif x >= ax1 and scroll_y:
            self.scroll_log(int(round(scroll_y * 3)))

    def scroll_log(self, lines: int) -> None:
        """Scroll the combat log up (``lines`` > 0) or down."""
        n = len(self.controller.log)
        self.flags.log_scroll = max(0, min(max(0, n - 5), self.flags.log_scroll + lines))
        self.refresh()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Keyboard shortcuts: the key becomes an intent (:func:`hexwar.ui.input_map.play_intent`,
        listed in :data:`hexwar.ui.panels.SHORTCUTS`), which the screen's state routes."""
        ctl = self.controller
        intent = play_intent(symbol, modifiers)
        if intent == "quit":
            self.request_quit()
            return True
        if self.flags.show_help:  # the help overlay is modal
            if intent in ("cancel", "help"):
                self.toggle_help()
            return True
        if ctl.pass_to is not None:  # hot-seat handover
            if intent == "confirm" or symbol == key.SPACE:
                ctl.confirm_pass()
            self.refresh()
            return True
        if ctl.state.over and not self.flags.extra.get("result_closed"):
            if intent == "cancel":
                self.close_result()
            elif intent == "quit_if_over":
                self.request_quit()
            return True
        run = self._intents().get(intent or "")
        if run is None:
            return False
        run()
        self.refresh()
        return True

    def _intents(self) -> dict[str, Callable[[], Any]]:
        """What each play-screen intent does (see :data:`hexwar.ui.input_map.PLAY_KEYS`)."""
        ctl, cam = self.controller, self.mapview.camera
        d = 80.0

        def confirm() -> None:
            if ctl.pending is not None:
                ctl.declare()
            elif ctl.state.phase == Phase.SETUP:
                ctl.confirm_hand()
            else:
                acts = [a for a in ctl.actions() if a.primary and a.enabled]
                if acts:
                    acts[0].run()

        def card(kind: Any) -> Callable[[], None]:
            def run() -> None:
                if ctl.card is not None:
                    ctl.card_action(kind)

            return run

        return {
            "cancel": ctl.cancel,
            "undo": ctl.undo,
            "end_phase": ctl.end_phase,
            "confirm": confirm,
            "resolve": ctl.resolve,
            "weapon_1": lambda: ctl.toggle_weapon(0),
            "weapon_2": lambda: ctl.toggle_weapon(1),
            "play_card": card(UseCommandCard),
            "discard_card": card(Discard),
            "next_unit": self.select_next_unit,
            "help": self.toggle_help,
            "labels": self.toggle_labels,
            "fit": self.fit_map,
            "zoom_in": lambda: cam.zoom_at(*self._map_centre(), 1.25),
            "zoom_out": lambda: cam.zoom_at(*self._map_centre(), 0.8),
            "pan_left": lambda: cam.pan(d, 0.0),
            "pan_right": lambda: cam.pan(-d, 0.0),
            "pan_up": lambda: cam.pan(0.0, -d),
            "pan_down": lambda: cam.pan(0.0, d),
            "log_older": lambda: self.scroll_log(8),
            "log_newer": lambda: self.scroll_log(-8),
        }

    def _map_centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.map_area()
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def select_next_unit(self) -> None:
        """Select the shown side's next unit on the map (Tab) and centre on it if off screen."""
        ctl, st = self.controller, self.state
        mine = [uid for uid, u in sorted(st.units.items())
                if u.side == ctl.shown_side and u.hex is not None and u.crewing is None and not u.aloft]
        if not mine:
            return
        i = mine.index(ctl.selected) + 1 if ctl.selected in mine else 0
        uid = mine[i % len(mine)]
        ctl.select(uid)
        h = st.units[uid].hex
        assert h is not None
        x, y = self.screen_point(h)
        ax0, ay0, ax1, ay1 = self.map_area()
        if not (ax0 + 30 <= x < ax1 - 30 and ay0 + 30 <= y < ay1 - 30):
            cam = self.mapview.camera
            w, hh = self.get_size()
            wx, wy = self.mapview.layout.hex_to_pixel(h)
            cam.center = (wx - ((ax0 + ax1) / 2 - w / 2) / cam.zoom, wy - ((ay0 + ay1) / 2 - hh / 2) / cam.zoom)


class _Arrows(ArrowOverlay):
    """Several attack arrows (R6.1) in one overlay, coloured by side; the prepared one gold."""

    def __init__(self, arrows: list[tuple[int, Hex, Hex, str]]) -> None:
        self.arrows = arrows

    def build(self, ctx: Any) -> Any:
        from ..render.mesh import Mesh, TexMesh

        out: dict[int, list[Any]] = {}
        for n, a, b, side in self.arrows:
            col = (236, 180, 60, 255) if side == "pending" else SIDE_RGBA.get(side, (200, 200, 200, 255))
            label = "" if side == "pending" else f"#{n}"
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


def run(scenario: Any, seed: int | None = None, variants: tuple[str, ...] | None = None,
        ai: dict[str, str] | None = None, save: str | None = None, turns: int | None = None) -> None:
    """Open the play window on ``scenario`` and run until it is closed (``hexwar play``).

    Args:
        scenario: a loaded :class:`~hexwar.game.scenario.Scenario`.
        seed: the game's seed (default the scenario's).
        variants: rule variants (default the scenario's).
        ai: ``{side: "standard" | "random"}`` computer sides; ``{}`` = two people hot-seat;
            ``None`` = :data:`DEFAULT_AI` (the person plays the Germans).
        save: autosave path (after every End Turn, at the end and on quit); ``None``: none
            (``hexwar play`` passes a new file of the per-user autosave folder,
            :func:`hexwar.ui.autosave.new_game_autosave`).
        turns: stop after this many turns.

    Raises:
        NoDisplayError: when no display is available (its message offers ``--headless``).
    """
    from ..game.ai import make_player

    backend.require_display()
    state = scenario.new_game(seed=seed, variants=variants)
    names = DEFAULT_AI if ai is None else ai
    players: dict[str, Any] = {s: make_player(n, s, state.seed) for s, n in names.items()}
    if "fog" in state.variants:  # R12.2: the computer decides from its view only
        from ..game.view import ViewPlayer

        players = {s: ViewPlayer(p) for s, p in players.items()}
    win = PlayWindow(state, ai=players, save=save, max_turns=turns)
    win.set_visible(True)
    pyglet.app.run()
