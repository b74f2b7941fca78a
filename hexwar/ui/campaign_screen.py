"""The campaign screen (issue 16): the 1941-1945 war on the shared widget toolkit.

:func:`paint_campaign` draws everything the :class:`~hexwar.ui.campaign_controller.CampaignController`
says into a :class:`hexwar.ui.widgets.Painter` (no GL: tests read ``painter.texts`` and click
``painter.widgets``) through a widget tree, :class:`~hexwar.ui.campaign_panels.CampaignLayout`,
laid out once per window size (issue 34; its panels in :mod:`hexwar.ui.campaign_bars` and
:mod:`hexwar.ui.campaign_table`): the year track with the year cards won, both ranks with the tactic cards
they give, the event cards in play and the pile, the initiative card, the opponent's hand face
down, the placement slots (face down, then turned over step by step as the battle is
revealed), both battle piles, the shown side's hand with the exact odds beside every battle
and tactic card, the history of battles, the log, the prompt, the shortcut bar and the help
overlay (``H``). In hot-seat a cover hides the hand until the next player lifts it.

:class:`CampaignWindow` is the thin pyglet shell: keys and clicks to the controller, the
controller's ticks on pyglet's clock, the painter uploaded by a ``UiLayer`` above a map view
of the year's front (the map of the year's first hex scenario, or the steppe village), which is
also what :meth:`CampaignWindow.render_image` and ``hexwar render --screen campaign`` draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..campaign.cards import SIDES
from .campaign_controller import CampaignController
from .campaign_draw import SIDE_NAME, result_colour
from .campaign_panels import CampaignLayout
from .widgets import Painter, Rect

__all__ = ["paint_campaign", "CampaignWindow", "campaign_image", "run", "SIDE_NAME", "result_colour"]


def paint_campaign(
    p: Painter, ctl: CampaignController, w: float, h: float, root: CampaignLayout | None = None
) -> CampaignLayout:
    """Draw the whole campaign screen into ``p`` for a window of ``w`` x ``h`` points, through
    ``root`` (laid out at that size; a new tree when ``None``); return the tree drawn."""
    if root is None or (root.rect.w, root.rect.h) != (float(w), float(h)):
        root = CampaignLayout(ctl)
        root.layout(Rect(0, 0, float(w), float(h)))
    root.ctl = ctl
    root.paint(p)
    return root


def _backdrop_map(ctl: CampaignController) -> Any:
    """The map behind the screen: the year's first hex scenario's map, else the steppe village."""
    from ..game.scenario import find_scenario, load_scenario
    from ..model.maps import BattleMap
    from ..paths import find_content

    names = ctl.state.cards.hex_battles.scenarios.get(ctl.state.year, ())
    for n in names:
        try:
            return load_scenario(find_scenario(n)).battlemap
        except Exception:  # noqa: BLE001 - any shipped scenario problem: fall back to the village
            continue
    path = find_content("maps", "steppe_village")
    return BattleMap.load(path) if path is not None else BattleMap(8, 8)


class _CampaignWindowInput:
    """The campaign window's keys, quit and resume offer, saving and offscreen drawing (a mixin
    of the pyglet window class :func:`_make_window_class` makes; pyglet is imported only when a
    method runs)."""

    controller: CampaignController
    behaviour: Any
    mapview: Any
    offer: Any
    quit_requested: bool
    painter: Painter | None
    layout_root: CampaignLayout | None
    ui: Any
    _mouse: tuple[float, float]
    # the window's own methods and pyglet's (declared for the type checker; no values here)
    get_size: Any
    tick: Any
    close: Any
    switch_to: Any
    get_pixel_ratio: Any

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Ctrl+Q, Esc and H / F1 through the shared :class:`WindowBehaviour` (Esc cancels,
        never quits); other keys by name to the controller's shortcut table."""
        from pyglet.window import key

        if self.offer is not None and not self.behaviour.asking:  # the start offer is modal
            if symbol in (key.ENTER, key.NUM_ENTER):
                self.accept_offer()
            elif symbol == key.ESCAPE:
                self.decline_offer()
            elif self.behaviour.key(symbol, modifiers) is None:
                return True
            if not self.behaviour.closed:
                self.refresh()
            return True
        shared = self.behaviour.key(symbol, modifiers)
        if shared is not None:
            if shared == "cancel":
                self.controller.cancel()
            elif shared == "help":
                self.controller.show_help = not self.controller.show_help
            if not self.behaviour.closed:
                self.refresh()
            return True
        name = key.symbol_string(symbol).lstrip("_")
        if name.startswith("NUM_") and name[4:].isdigit():
            name = name[4:]
        used = self.controller.key(name)
        self.refresh()
        return used

    def refresh(self) -> None:
        """Repaint the screen from the controller (the widget tree is laid out again only when
        the window's size changed), with the start offer or the quit question over it."""
        w, h = self.get_size()
        p = Painter(self.mapview.atlas, self._mouse)  # the tree is laid out again on a new size only
        self.layout_root = paint_campaign(p, self.controller, w, h, getattr(self, "layout_root", None))
        if self.offer is not None:
            from .window_base import paint_question

            paint_question(
                p, w, h, "Continue your last war?",
                [self.offer.text, "It was autosaved; continuing replays it to where you left off."],
                ("Continue", self.accept_offer, "Enter", "continue"),
                ("New war", self.decline_offer, "Esc", "new_game"),
            )  # fmt: skip
        if self.behaviour.asking:
            from .window_base import paint_quit_question

            paint_quit_question(p, w, h, self.behaviour)
        self.painter = p
        self.ui.show(p)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """A click on a card or button runs its action."""
        if self.painter is None:
            return
        from .widgets import top_hit

        hit = top_hit(self.painter.widgets, x, y)
        if hit is not None and hit.action is not None:
            hit.action()
            if not self.behaviour.closed:
                self.refresh()

    def on_close(self) -> bool:
        """The close button quits like Ctrl+Q (asking while the war goes on)."""
        self.behaviour.request_quit()
        if not self.behaviour.closed:
            self.refresh()
        return True

    def accept_offer(self) -> None:
        """Continue the offered war: replayed from its autosave, the same computer sides,
        autosaving to the same file."""
        from ..campaign.ai import make_player
        from ..campaign.save import load_campaign
        from ..errors import HexwarError, cannot

        offer, self.offer = self.offer, None
        if offer is None:
            return
        old = self.controller
        try:
            st = load_campaign(offer.path)
        except HexwarError as exc:
            old.message = cannot("continue", offer.path, exc)
            return
        ai = {s: make_player(n, s, st.seed) for s, n in offer.players.items() if n != "human"}
        self.controller = CampaignController(
            st, ai=ai, clock=old.clock, fighter=old.fighter, save=str(offer.path),
            reveal_seconds=old.reveal_seconds,
        )  # fmt: skip
        self.controller.log.append(f"Continuing {offer.text}.")

    def decline_offer(self) -> None:
        """Start the new war instead of the offered one."""
        self.offer = None

    def _save_now(self) -> str | None:
        """The war's last save before closing; an error message or None."""
        ctl = self.controller
        if not ctl.save:
            return None
        from ..campaign.save import write_campaign_save
        from ..errors import HexwarError

        try:
            write_campaign_save(ctl.state, ctl.save, ctl.save_players())
        except HexwarError as exc:
            return f"save failed: {exc}"
        return None

    def _close_for_good(self) -> None:
        import pyglet

        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def render_image(self, size: tuple[float, float] | None = None, pixel_ratio: float | None = None) -> Any:
        """The whole screen rendered offscreen as ``uint8 [H, W, 4]`` (``size`` in points,
        ``pixel_ratio`` framebuffer pixels per point; default the window's)."""
        from ..render.offscreen import render_view

        self.switch_to()
        ratio = pixel_ratio or self.get_pixel_ratio()
        if size is not None:
            self.mapview.resize(size[0], size[1], ratio)
        self.refresh()
        return render_view(self.mapview, size=size, pixel_ratio=ratio)


def _make_window_class() -> Any:
    import pyglet

    from ..render import MapView
    from .widgets import UiLayer

    class _CampaignWindow(_CampaignWindowInput, pyglet.window.Window):  # type: ignore[misc]
        """The campaign window (see the module text)."""

        def __init__(
            self,
            ctl: CampaignController,
            width: int = 1500,
            height: int = 900,
            visible: bool = True,
            schedule: bool = True,
            offer: Any = None,
            **kw: Any,
        ) -> None:
            super().__init__(
                width,
                height,
                caption="hexwar: the Eastern Front 1941-1945",
                resizable=True,
                visible=visible,
                **kw,
            )
            self._enable_event_queue = False
            self.controller = ctl
            self.mapview = MapView(_backdrop_map(ctl), self, show_labels=False)
            self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
            self.painter: Painter | None = None
            self._mouse = (-1.0, -1.0)
            self.quit_requested = False
            #: the last unfinished war offered at start (a ResumeOffer), or None
            self.offer = offer
            from .window_base import WindowBehaviour

            #: quit (asking while the war goes on, naming its autosave), Esc, help, title (issue 36)
            self.behaviour = WindowBehaviour(
                "campaign",
                "hexwar: the Eastern Front 1941-1945",
                at_stake=lambda: not self.controller.state.over,
                autosave=lambda: Path(self.controller.save) if self.controller.save else None,
                close=self._close_for_good,
                save_now=self._save_now,
            )
            self.mapview.fit()
            self.refresh()
            if schedule:
                pyglet.clock.schedule_interval(self.tick, 1 / 30)

        def tick(self, dt: float = 0.0) -> None:
            """One tick: the controller's reveal step or computer move, then a repaint."""
            if self.controller.update():
                self.refresh()

        def on_draw(self) -> None:
            """Clear and draw the backdrop map with the screen above it."""
            self.clear()
            self.mapview.draw()

        def on_resize(self, width: int, height: int) -> None:
            """Relayout (HiDPI aware)."""
            super().on_resize(width, height)
            if hasattr(self, "mapview"):
                self.mapview.resize(width, height, self.get_pixel_ratio())
                self.refresh()

        def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
            """Hover highlighting."""
            self._mouse = (x, y)
            self.refresh()

    return _CampaignWindow


def CampaignWindow(ctl: CampaignController, **kw: Any) -> Any:  # noqa: N802 - a class made on first use
    """The campaign window over ``ctl`` (pyglet is imported only here)."""
    from ..render import backend

    backend.ensure_configured()
    return _make_window_class()(ctl, **kw)


def campaign_image(
    ctl: CampaignController, size: tuple[int, int] = (1500, 900), pixel_ratio: float = 1.0
) -> Any:
    """``ctl``'s screen drawn headless as ``uint8 [H, W, 4]`` RGBA (``hexwar render --screen campaign``)."""
    win = CampaignWindow(ctl, width=size[0], height=size[1], visible=False, schedule=False)
    try:
        return win.render_image(size=(float(size[0]), float(size[1])), pixel_ratio=pixel_ratio)
    finally:
        win.close()


def run(ctl: CampaignController, offer: Any = None) -> None:
    """Open the campaign window and run until it is closed (``hexwar campaign``); ``offer``: the
    last unfinished war (:func:`hexwar.ui.autosave.latest_campaign_autosave`) asked about first."""
    import pyglet

    from ..render import backend

    backend.require_display()
    win = CampaignWindow(ctl, offer=offer)
    win.set_visible(True)
    pyglet.app.run()


def controller_for_render(target: str) -> CampaignController:
    """The war to draw: ``"campaign"`` (a new war, seed 1941, played by the computer into the
    German placement of battle 3 of 1942, a battle card picked), or a campaign save replayed
    (the German side shown, the Soviet the computer's).

    Raises:
        HexwarError: when ``target`` is neither.
    """
    from pathlib import Path

    from ..campaign.ai import make_player
    from ..campaign.save import load_campaign
    from ..campaign.state import new_campaign
    from ..errors import HexwarError

    if target == "campaign":
        st, _ = new_campaign(1941)
    elif Path(target).is_file():
        st = load_campaign(target)
    else:
        raise HexwarError(f"{target}: --screen campaign needs 'campaign' or a campaign save")
    both = {s: make_player("standard", s, st.seed) for s in SIDES}
    ctl = CampaignController(st, ai=both, reveal_seconds=0.0)
    if target == "campaign":
        for _ in range(2000):
            if st.year == 1942 and st.battle == 3 and st.phase == "place" and "german" in st.pending():
                break
            ctl.update()
    ctl.ai = {"soviet": both["soviet"]}
    ctl.skip_reveal()
    if st.phase == "place" and ctl.acting == "german":
        ctl.pick_battle(0)
    return ctl


def render_campaign(target: str, out: str, size: tuple[int, int], pixel_ratio: float) -> tuple[int, int]:
    """Draw the campaign screen of ``target`` (see :func:`controller_for_render`) to the PNG ``out``."""
    from ..render.offscreen import save_png

    img = campaign_image(controller_for_render(target), size, pixel_ratio)
    save_png(img, out)
    return int(img.shape[1]), int(img.shape[0])
