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

import functools
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
from ..render.looks import Looks, palette_looks  # noqa: E402
from ..render.mapview import MapView  # noqa: E402
from .clock import Clock, Pace  # noqa: E402
from .controller import PlayController  # noqa: E402
from .input_map import play_intent  # noqa: E402
from .panels import Painter, ScreenFlags, UiLayer, Widget, layout, paint_screen  # noqa: E402
from .play_map_sync import SIDE_RGBA, MapSyncMixin, _CursorOverlay, _TargetOverlay  # noqa: E402,F401
from .play_minimap import MinimapMixin  # noqa: E402
from .play_session import SessionMixin, players_from_names, show_drawn, size_for_screen  # noqa: E402

__all__ = ["PlayWindow", "run", "show_drawn", "size_for_screen", "DEFAULT_AI"]

#: Without ``--ai`` the person plays the Germans against the computer's Soviets.
DEFAULT_AI = {"soviet": "standard"}


class PlayWindow(SessionMixin, MapSyncMixin, MinimapMixin, MapAreaMixin, pyglet.window.Window):  # type: ignore[misc]
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
        looks: colours (default the shipped looks in ``palette``).
        offer: a :class:`~hexwar.ui.autosave.ResumeOffer`: the last unfinished game, offered
            in a dialog at start (Continue / New game).
        palette: ``"standard"`` (colour-blind safe) or ``"high-contrast"``
            (:data:`hexwar.render.looks.PALETTES`).
        fast: no pause to show each roll of an attack or artillery mission (``--fast``,
            :mod:`hexwar.ui.combat_feed`).
        decks: ``{side: unit card ids}`` of ``--deck`` files, issued as the side's Reserves
            deck when it first acts in setup (:mod:`hexwar.ui.play_deck`, R4.3).

    Attributes:
        controller: the :class:`PlayController` (every action goes through it).
        mapview: the renderer's :class:`MapView`.
        flags: panel switches (help, labels, log scroll).
        quit_requested: the window was closed.
    """

    fit_margin = 0.015

    def __init__(
        self,
        state: GameState,
        ai: dict[str, Any] | None = None,
        save: str | os.PathLike[str] | None = None,
        width: int = 1400,
        height: int = 900,
        visible: bool = True,
        clock: Clock | None = None,
        pace: Pace | None = None,
        schedule: bool = True,
        pixel_ratio: float | None = None,
        max_turns: int | None = None,
        looks: Looks | None = None,
        offer: Any = None,
        palette: str = "standard",
        fast: bool = False,
        decks: dict[str, tuple[str, ...]] | None = None,
        **kw: Any,
    ) -> None:
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
        self.fast = fast
        self.controller = PlayController(
            state, ai=ai, saver=saver, clock=clock, pace=pace, fast=fast, decks=decks
        )
        self.controller.max_turns = max_turns
        #: the deck builder page's widget screen while the controller has one open (setup, R4.3)
        self.deck_screen: Any = None
        self.looks = looks or palette_looks(palette)
        self._saver_names = {
            s: (getattr(ai[s], "name", "computer") if ai and s in ai else "human") for s in SIDES
        }
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
        #: the hover tooltip's rectangle ``(x0, y0, x1, y1)`` in points, or None (tests)
        self.tooltip_box: tuple[float, float, float, float] | None = None
        #: the painter of the last frame's panels (tests read its text boxes)
        self.painter: Painter | None = None
        self._ready = True
        self._fitted = True
        self._size = (width, height)
        if offer is not None:
            self.flags.extra["offer"] = offer
        from .window_base import WindowBehaviour

        #: quit (asking while a game goes on, naming its autosave), Esc, help, title (issue 36)
        self.behaviour = WindowBehaviour(
            "play",
            caption,
            at_stake=self.game_in_progress,
            autosave=lambda: self.controller.saver.path if self.controller.saver is not None else None,
            close=self._close_for_good,
            save_now=self._save_now,
        )
        self.fit_map()
        self.refresh()
        if schedule:
            pyglet.clock.schedule_interval(self.tick, 1 / 30)

    def set_game(
        self,
        state: GameState,
        ai: dict[str, Any] | None = None,
        clock: Clock | None = None,
        pace: Pace | None = None,
        max_turns: int | None = None,
        save: str | os.PathLike[str] | None = None,
    ) -> None:
        """Show another game in this window (a new game, a loaded save), autosaved to ``save``
        when given.

        The map view is rebuilt for the new game's map; the camera is fitted again.
        """
        saver = None
        if save is not None:
            from ..game.save import Autosaver

            saver = Autosaver(
                save, {s: (getattr(ai[s], "name", "computer") if ai and s in ai else "human") for s in SIDES}
            )
        self.controller = PlayController(
            state,
            ai=ai,
            saver=saver,
            clock=clock or self.controller.clock,
            pace=pace or self.controller.pace,
            fast=self.fast,
        )
        self.controller.max_turns = max_turns
        self.mapview.set_map(state.battlemap)
        self.mapview.clear_overlays()
        self._keys.clear()
        self.flags = ScreenFlags()
        self._ui_key = None
        self.behaviour.title_base = f"hexwar: {state.scenario.name}"
        self.behaviour.focus(self, "")
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
        """Zoom and centre so the whole map fits the map area (F, Home); after a resize the
        map fits again until the player zooms or pans."""
        super().fit_map()
        self._fitted = True
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
        """Bring counters, overlays and panels up to date with the controller (in this window's
        GL context: another window, the replay viewer or ``hexwar render``, may have made its
        own current, and vertex arrays are not shared between contexts)."""
        if not self._ready:
            return
        if self.context is not None and self.context is not getattr(pyglet.gl, "current_context", None):
            self.switch_to()
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
            old = getattr(self, "_size", (width, height))
            cam = self.mapview.camera
            ox0, oy0, ox1, oy1 = layout(*old).map
            anchor = cam.screen_to_world((ox0 + ox1) / 2, (oy0 + oy1) / 2)
            self._size = (width, height)
            self.mapview.resize(width, height, self.get_pixel_ratio())
            if self._fitted:  # a fitted map fits its new area (item 6)
                self.fit_map()
            else:  # else the point at the middle of the map area stays there
                x0, y0, x1, y1 = self.map_area()
                now = cam.screen_to_world((x0 + x1) / 2, (y0 + y1) / 2)
                cam.center = (cam.center[0] + anchor[0] - now[0], cam.center[1] + anchor[1] - now[1])
            self._ui_key = None

    def render_image(self, size: tuple[float, float] | None = None) -> Any:
        """The whole screen rendered offscreen (4x multisampled) as ``uint8 [H, W, 4]``,
        at the window's pixel ratio (screenshots, pixel tests)."""
        from ..render.offscreen import render_view

        self.switch_to()
        self.refresh()
        return render_view(self.mapview, size=size, pixel_ratio=self.get_pixel_ratio())

    # -- panels ----------------------------------------------------------------------------------------
    def _buttons(self) -> dict[str, Callable[[], Any]]:
        return {
            "fit": self.fit_map,
            "labels": self.toggle_labels,
            "help": self.toggle_help,
            "quit": self.request_quit,
            "close_help": self.toggle_help,
            "close_result": self.close_result,
            "quit_now": functools.partial(self.request_quit, True),
            "stay": self.cancel_quit,
            "continue": self.accept_offer,
            "new_game": self.decline_offer,
            "replay": self.open_replay,
        }

    def _deck_screen_now(self) -> Any:
        """The widget :class:`~hexwar.ui.widgets.Screen` of the controller's open deck builder
        page (:mod:`hexwar.ui.play_deck`), made when the page opens (the search field focused),
        or ``None``."""
        page = self.controller.deck_page
        if page is None:
            self.deck_screen = None
            return None
        if self.deck_screen is None or self.deck_screen.root is not page:
            from .widgets import Screen

            self.deck_screen = Screen(page, self.mapview.atlas, self.get_pixel_ratio())
            self.deck_screen.layout(*self.get_size())
            self.deck_screen.set_focus(page.search.field)
        return self.deck_screen

    def _paint_deck(self, ds: Any) -> None:
        """The deck builder page over the whole window (the quit question above it)."""
        w, h = self.get_size()
        if ds.size != (float(w), float(h)):
            ds.layout(w, h, self.get_pixel_ratio())
        p = Painter(self.mapview.atlas, self._mouse)
        ds.paint(p)
        if self.flags.extra.get("quit_confirm"):
            from .play_popups import paint_question

            q = self.flags.extra["quit_confirm"]  # (title, lines) of the window's shared behaviour
            title, where = q if isinstance(q, tuple) else ("Quit this game?", [])
            buttons = self._buttons()
            paint_question(
                p,
                w,
                h,
                title,
                list(where),
                ("Quit", "quit_now", "Enter"),
                ("Keep playing", "stay", "Esc"),
                buttons,
            )
        self.widgets = p.widgets
        self._screen_texts = p.texts
        self.tooltip_box = None
        self.painter = p
        self.ui.show(p)
        self._ui_key = None  # back on the play screen it is painted afresh
        self.behaviour.title_base = f"hexwar: {self.state.scenario.name}: build your Reserves deck"
        self.behaviour.focus(self, "")
        self._caption = self.behaviour.title()

    def _sync_ui(self) -> None:
        ctl = self.controller
        ds = self._deck_screen_now()
        if ds is not None:  # typing and clicks on the page change no controller version: always paint
            self._paint_deck(ds)
            return
        w, h = self.get_size()
        k = (
            ctl.version,
            w,
            h,
            self._mouse,
            self.mapview.camera.center,
            self.mapview.camera.zoom,
            self.flags.show_help,
            self.flags.show_labels,
            self.flags.log_scroll,
            tuple(sorted(map(str, self.flags.extra.items()))),
            ctl.anim is not None,
            ctl.look_at,
            ctl.feed.revealed(ctl.clock.now()),
            ctl.feed.pausing(ctl.clock.now()),
        )
        if k == self._ui_key:
            return
        self._ui_key = k
        if ctl.look_at is not None:  # the keyboard moved on: keep its hex in view
            self._ensure_visible(ctl.look_at)
            ctl.look_at = None
        from ..render.mapview import MIN_LABEL_PX

        px = self.mapview.layout.size * self.mapview.camera.zoom * self.get_pixel_ratio()
        small = self.mapview.atlas.cap_height * self.looks.label_height * px < MIN_LABEL_PX
        if small != bool(self.flags.extra.get("labels_small")):
            self.flags.extra["labels_small"] = small
        p = Painter(self.mapview.atlas, self._mouse)
        if ctl.cursor is not None and ctl.hover == ctl.cursor:
            p.extra["cursor_xy"] = self.screen_point(ctl.cursor)
        sel = self.state.units.get(ctl.selected) if ctl.selected else None
        if sel is not None and sel.hex is not None:
            p.extra["selected_xy"] = self.screen_point(ctl.display_hex(sel.uid) or sel.hex)
        p.extra["avoid"] = self._tooltip_avoid()
        mini = self.minimap_paint()
        if mini is not None:  # a map larger than the view (issue 36)
            p.extra["minimap"] = mini
            b = self.minimap_rect()
            p.extra["avoid"]["units"].append((b.x, b.y, b.x1, b.y1))
        if ctl.hover is not None and self._keys.get("costs_hidden"):
            reach = ctl.reach_costs()
            if ctl.hover in reach:  # the cost too small to print on the map: beside the cursor
                p.extra["hover_cost"] = (*self.screen_point(ctl.hover), reach[ctl.hover])
        paint_screen(p, ctl, w, h, self.looks, self.flags, self._buttons())
        self.widgets = p.widgets
        self._screen_texts = p.texts
        self.tooltip_box = p.extra.get("tooltip_box")
        self.painter = p
        self.ui.show(p)
        # the hex inspector in the window title, for screen readers (issue 17 item 3)
        text = ctl.inspect_text()
        if text and ctl.hover is not None:  # what a click would do there, in words (newuser3)
            reach = ctl.reach_costs()
            if ctl.hover in reach:
                text += f"; move here: {reach[ctl.hover]:g} MP"
            if any(self.state.units[t[0]].hex == ctl.hover for t in ctl.targets()):
                res = ctl.los()
                blocked = res is not None and res.status == "blocked"
                text += "; legal target (T)" + (", indirect fire: observed (R7.3)" if blocked else "")
        self.behaviour.title_base = f"hexwar: {self.state.scenario.name}"
        self.behaviour.focus(self, text or "")  # the shared title: base | the focused hex
        self._caption = self.behaviour.title()

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
        raise HexwarError(
            f"no widget {tip!r} on the play screen; there are {sorted({w.tip for w in self.widgets})}"
        )

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

    # -- input ---------------------------------------------------------------------------------------
    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        """Hover: the tooltip, LOS to the hex and button highlights follow the mouse."""
        self._mouse = (float(x), float(y))
        ctl = self.controller
        if self.deck_screen is not None and ctl.deck_page is not None:
            self.deck_screen.mouse_motion(x, y)
            self.refresh()
            return
        wd = self._widget_at(x, y)
        # over the minimap or the rolls the map beneath is hidden: no hex is hovered (issue 36)
        h = None if wd is not None and wd.tip in ("minimap", "rolls") else self.hex_at(x, y)
        if h is not None:
            ctl.cursor = None  # the mouse takes over from the keyboard's cursor
        ctl.set_hover(h if h is not None or ctl.cursor is None else ctl.cursor)
        card = wd.tip[5:] if wd is not None and wd.tip.startswith("card ") else None
        cards = ctl.hand_cards()
        if card is None and ctl.card_cursor is not None and ctl.card_cursor < len(cards):
            card = cards[ctl.card_cursor]
        if card != ctl.hover_card:
            ctl.hover_card = card
            ctl._touch()
        self.refresh()

    def on_mouse_leave(self, x: float, y: float) -> None:
        """The mouse left the window: no hovered hex, so the tooltip and hover LOS go away."""
        self._mouse = (-1.0, -1.0)
        self.controller.set_hover(None)
        self.refresh()

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Clicks go to a panel widget (modal ones first), else to the map; while the rolls of
        an attack are shown, a click also ends their pause (issue 36)."""
        self._mouse = (float(x), float(y))
        ds = self._deck_screen_now()
        if ds is not None:  # the deck builder page (setup, R4.3); the quit question above it
            wd = self._widget_at(x, y) if self.behaviour.asking else None
            if wd is not None and wd.action is not None and button == mouse.LEFT:
                wd.action()
            elif not self.behaviour.asking:
                ds.mouse_press(x, y, button, modifiers)
            self.refresh()
            return
        if self.controller.skip_feedback():  # the click goes on to do what it does
            self.refresh()
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
    _page_at_key: Any = None  # the deck builder page open when the last key went down

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        """Drag with the right or middle button (or any button far enough) pans the map."""
        self._mouse = (float(x), float(y))
        if self.deck_screen is not None and self.controller.deck_page is not None:
            self.deck_screen.mouse_drag(x, y, dx, dy)
            return
        pa = self._press_at
        if (
            self._drag_pan
            or buttons & (mouse.MIDDLE | mouse.RIGHT)
            or (pa is not None and abs(x - pa[0]) + abs(y - pa[1]) > 8)
        ):
            self._drag_pan = True
            self.mapview.camera.pan(dx, dy)
            self._ui_key = None

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        """A click (press and release without dragging) on the map acts on that hex."""
        self._mouse = (float(x), float(y))
        self._page_at_key = self.controller.deck_page  # a page a click opened takes text at once
        if self.deck_screen is not None and self.controller.deck_page is not None:
            self.deck_screen.mouse_release(x, y, button, modifiers)
            self.refresh()
            return
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
        """Wheel: zoom at the cursor over the map, scroll the log over the side panel (on the
        deck builder page: its lists)."""
        if self.deck_screen is not None and self.controller.deck_page is not None:
            self.deck_screen.mouse_scroll(x, y, scroll_y)
            self.refresh()
            return
        ax0, ay0, ax1, ay1 = self.map_area()
        if ax0 <= x < ax1 and ay0 <= y < ay1:
            if scroll_y:
                self.mapview.camera.zoom_at(x, y, 1.15**scroll_y)
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
        # the page open before this key: pyglet sends the key's text after the key, and the
        # text of the D that opens the deck builder page is not a search (fresh7)
        self._page_at_key = ctl.deck_page
        intent = play_intent(symbol, modifiers)
        if self.behaviour.asking:  # the quit question is modal: the shared behaviour answers it
            self.behaviour.key(symbol, modifiers)
            if not self.behaviour.asking and not self.behaviour.closed:
                self.cancel_quit()
            return True
        ds = self._deck_screen_now()
        if ds is not None:  # the deck builder page takes the keys (Ctrl+Q still quits)
            if intent == "quit":
                self.request_quit()
            else:
                ds.key_press(symbol, modifiers)
            self.refresh()
            return True
        if self.flags.extra.get("offer") is not None:  # so is the start offer
            if intent == "confirm":
                self.accept_offer()
            elif intent == "cancel":
                self.decline_offer()
            return True
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
            elif intent == "replay":
                self.open_replay()
            elif intent == "quit_if_over":
                self.request_quit()
            return True
        skipped = ctl.skip_feedback()  # the rolls being shown: a key goes on (issue 36) and does
        # what it does (R resolves the next attack at once; it is not the person's turn while the
        # computer's rolls are shown, so its keys have nothing else to do then)
        if intent == "cancel" and ctl.feed.rows and ctl.bonus is None and ctl.pending is None:
            ctl.feed.clear()  # Esc puts the last rolls away before it drops the card or selection
            ctl._touch()
            self.refresh()
            return True
        run = self._intents().get(intent or "")
        if run is None:
            if skipped:
                self.refresh()
            return skipped
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
            elif ctl.deck_question():  # Build deck is the highlighted answer (R4.3)
                ctl.open_deck()
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

        def pan(dx: float, dy: float) -> Callable[[], None]:
            def run() -> None:
                cam.pan(dx, dy)
                self._fitted = False
                if ctl.cursor is None:  # the tooltip follows the hex now under the mouse (item 9)
                    ctl.set_hover(self.hex_at(*self._mouse))

            return run

        def zoom(f: float) -> Callable[[], None]:
            def run() -> None:
                # about the hex cursor while it is in view, so what the keyboard player looks
                # at stays put (newuser3: + pushed the cursor and its unit off the screen)
                at = self._map_centre()
                if ctl.cursor is not None:
                    x, y = self.screen_point(ctl.cursor)
                    x0, y0, x1, y1 = self.map_area()
                    if x0 <= x < x1 and y0 <= y < y1:
                        at = (x, y)
                cam.zoom_at(*at, f)
                self._fitted = False

            return run

        return {
            "cursor_left": lambda: self.move_cursor(-1, 0),
            "cursor_right": lambda: self.move_cursor(1, 0),
            "cursor_up": lambda: self.move_cursor(0, 1),
            "cursor_down": lambda: self.move_cursor(0, -1),
            "act_here": ctl.act_at_cursor,
            "select_here": ctl.select_at_cursor,
            "next_target": ctl.next_target,
            "pick_card": ctl.pick_at_card_cursor,
            "card_prev": lambda: ctl.move_card_cursor(-1),
            "card_next": lambda: ctl.move_card_cursor(1),
            "bonus": ctl.start_bonus,
            "build_deck": lambda: ctl.open_deck() if ctl.state.phase == Phase.SETUP else None,
            "keep_deck": ctl.keep_dealt_deck,
            "cancel": ctl.cancel,
            "undo": ctl.undo,
            "replay": self.open_replay,
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
            "zoom_in": zoom(1.25),
            "zoom_out": zoom(0.8),
            "pan_left": pan(d, 0.0),
            "pan_right": pan(-d, 0.0),
            "pan_up": pan(0.0, -d),
            "pan_down": pan(0.0, d),
            "log_older": lambda: self.scroll_log(8),
            "log_newer": lambda: self.scroll_log(-8),
        }

    def on_text(self, text: str) -> None:
        """Typed text goes to the deck builder page's focused field (the play screen itself
        takes keys, not text); the text of the key that opened the page is dropped."""
        ds = self._deck_screen_now()
        opened_by_this_key = ds is not None and self._page_at_key is not self.controller.deck_page
        self._page_at_key = self.controller.deck_page
        if ds is not None and not self.behaviour.asking and not opened_by_this_key:
            ds.text(text)
            self.refresh()

    def on_text_motion(self, motion: int) -> None:
        """Caret moves and erasing in the deck builder page's focused field."""
        ds = self._deck_screen_now()
        if ds is not None and not self.behaviour.asking:
            ds.text_motion(motion)
            self.refresh()

    def _map_centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.map_area()
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def select_next_unit(self) -> None:
        """Select the shown side's next unit that can act (Tab) and keep it in view."""
        self.controller.next_unit()
        if self.controller.look_at is not None:
            self._ensure_visible(self.controller.look_at)
            self.controller.look_at = None

    def move_cursor(self, dx: int, dy: int) -> None:
        """Arrow keys: move the hex cursor one hex left/right (the next column, same row) or
        up/down on the screen; the first press puts it on the selected unit (or the hovered
        hex, or the hex in the middle of the map area)."""
        ctl, st = self.controller, self.state
        h = ctl.cursor
        if h is None:
            sel = st.units.get(ctl.selected) if ctl.selected else None
            start = (sel.hex if sel is not None and sel.hex is not None else None) or ctl.hover
            if start is None:
                start = self.mapview.hex_at(*self._map_centre())
            if start is None or not st.battlemap.in_bounds(start):
                start = Hex.from_offset(0, 0)
            ctl.set_cursor(start)
            return
        col, row = h.offset
        if dx:
            cand = [Hex.from_offset(col + dx, row)]
        else:
            ys = [(Hex.from_offset(col, row + k), k) for k in (-1, 1)]
            y0 = self.screen_point(h)[1]
            cand = [c for c, _ in ys if (self.screen_point(c)[1] - y0) * dy > 0]
        nxt = next((c for c in cand if st.battlemap.in_bounds(c)), None)
        if nxt is not None:
            ctl.set_cursor(nxt)

    def _ensure_visible(self, h: Hex) -> None:
        """Centre the map area on ``h`` when it is not comfortably inside it."""
        x, y = self.screen_point(h)
        ax0, ay0, ax1, ay1 = self.map_area()
        # a hex whose centre shows is in view: at a small zoom the map's edge hexes sit closer
        # than 30 points to the area's edge (newuser3: A01 was centred, half the map off screen)
        m = min(30.0, self.mapview.layout.size * self.mapview.camera.zoom * 0.5)
        if ax0 + m <= x < ax1 - m and ay0 + m <= y < ay1 - m:
            return
        cam = self.mapview.camera
        w, hh = self.get_size()
        wx, wy = self.mapview.layout.hex_to_pixel(h)
        cam.center = (wx - ((ax0 + ax1) / 2 - w / 2) / cam.zoom, wy - ((ay0 + ay1) / 2 - hh / 2) / cam.zoom)
        self._fitted = False


def run(
    scenario: Any,
    seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    ai: dict[str, str] | None = None,
    save: str | None = None,
    turns: int | None = None,
    palette: str = "standard",
    resumed: GameState | None = None,
    players: dict[str, str] | None = None,
    offer: Any = None,
    fast: bool = False,
    size: tuple[int, int] | None = None,
    decks: dict[str, tuple[str, ...]] | None = None,
) -> None:
    """Open the play window on ``scenario`` and run until it is closed (``hexwar play``).

    Args:
        scenario: a loaded :class:`~hexwar.game.scenario.Scenario`.
        seed: the game's seed; ``None``: the seed after the last autosaved window game of the
            scenario (:func:`~hexwar.ui.lines_start.next_seed`, fresh7: every new game dealt
            the scenario's seed again), else the scenario's.
        variants: rule variants (default the scenario's).
        ai: ``{side: "standard" | "random"}`` computer sides; ``{}`` = two people hot-seat;
            ``None`` = :data:`DEFAULT_AI` (the person plays the Germans).
        save: autosave path (after every End Turn, at the end and on quit); ``None``: none
            (``hexwar play`` passes a new file of the per-user autosave folder,
            :func:`hexwar.ui.autosave.new_game_autosave`).
        turns: stop after this many turns.
        palette: ``"standard"`` or ``"high-contrast"`` (``--palette``).
        resumed: a loaded save's game to continue instead of a new game (``hexwar play
            SAVE.json``); ``players`` are the save's ``{side: name}`` ("human" or a computer
            player's name), used when ``ai`` is ``None``.
        offer: a :class:`~hexwar.ui.autosave.ResumeOffer` shown at start.
        fast: no pause to show each roll (``hexwar play --fast``).
        size: the window's ``(width, height)`` in points (``hexwar play --size WxH``), default
            1400x900; either no larger than the screen.
        decks: ``{side: unit card ids}`` (``hexwar play --deck SIDE=FILE``): that person's
            Reserves deck, issued as :class:`~hexwar.game.commands.BuildDeck` in setup (R4.3).

    Raises:
        NoDisplayError: when no display is available (its message offers ``--headless``).
    """
    backend.require_display()
    if resumed is None and seed is None:  # a new game after one of this scenario: another deal (R1.2)
        from .lines_start import last_lines_seed, next_seed

        last = last_lines_seed(scenario.id, mode="hex")
        if last is not None:  # the seed itself stays out of sight, as in the game's log (R12.5)
            seed = next_seed(last)
            print(f"a new deal after your last {scenario.id} game (--seed N picks one)")
    state = resumed if resumed is not None else scenario.new_game(seed=seed, variants=variants)
    if ai is None and resumed is not None and players:
        names = {s: n for s, n in players.items() if n != "human"}
    else:
        names = DEFAULT_AI if ai is None else ai
    width, height = size_for_screen(*(size or (1400, 900)))
    win = PlayWindow(
        state,
        ai=players_from_names(names, state.seed, state.variants),
        save=save,
        max_turns=turns,
        palette=palette,
        offer=offer,
        fast=fast,
        decks=decks,
        width=width,
        height=height,
        visible=False,  # mapped only with its first frame drawn (newuser3: black until a mouse event)
    )
    show_drawn(win)
    pyglet.app.run()
