"""The card-table screen of the lines game (R11.1), built on the widget toolkit
(:mod:`hexwar.ui.widgets`): both sides' Frontlines and Rear Lines as rows of unit cards, aircraft
aloft with their Turns of Flight between them, the viewer's hand (the other seats' hands as
counts: hot-seat hides them), deck and discard counts, Damage cards under their units with the
effect for the unit's type, declaration arrows, the exact odds panel before declaring, the
Command-card bonus offer, the combat log with every roll, and the hex screen's shortcuts and
help overlay (:data:`hexwar.lines.table.SHORTCUTS`).

Decisions are the :class:`~hexwar.lines.table.TableController`'s. The screen is a widget tree,
:class:`~hexwar.ui.lines_layout.TableLayout` (issue 34), laid out once per window size and table
shape; its regions (:mod:`hexwar.ui.lines_rows`, :mod:`hexwar.ui.lines_panel`) paint themselves
into a :class:`~hexwar.ui.widgets.Painter` (:func:`paint_table`, testable headless with any
measuring atlas) and answer the window's clicks through the same tree
(:meth:`~hexwar.ui.lines_layout.TableLayout.press`). ``hexwar render lines --screen play
--out F.png`` draws it headless (:func:`hexwar.ui.lines_render.table_image`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..lines.table import TABLE_KEYS, TableController
from .lines_geometry import CARD_H, CARD_W, EMPTY_ROW, HAND_H, TABLE_BG, card_places, row_heights
from .lines_layout import TableLayout, table_layout
from .lines_rows import in_play_of
from .widgets import Painter

__all__ = [
    "paint_table",
    "LinesWindow",
    "run",
    "CARD_W",
    "CARD_H",
    "EMPTY_ROW",
    "HAND_H",
    "TABLE_BG",
    "card_places",
    "in_play_of",
]

#: seconds a computer seat's resolution stays on screen (its arrow, the prompt) before its next
#: decision, unless Space / Next goes on sooner (fresh-user pass, item 7)
RESOLVE_PAUSE = 2.5

#: the old name of :func:`hexwar.ui.lines_layout.row_heights`
_row_heights = row_heights


def paint_table(
    p: Painter,
    ctl: TableController,
    width: float,
    height: float,
    side_panel: bool = True,
    root: TableLayout | None = None,
) -> dict[str, tuple[float, float]]:
    """Paint the whole card table for ``ctl``'s viewer into ``p`` (screen points, y up) through
    its widget tree (``root`` when given and still fitting: laid out again only when the size or
    the table's shape changed); ``side_panel=False`` leaves out the buttons, odds and log column
    (the replay viewer has its own), the lines taking the whole width.

    Returns:
        the centre point of every unit card drawn (for arrows and tests).
    """
    tree = table_layout(ctl, width, height, side_panel, root)
    tree.paint(p)
    return tree.centres


class _Camera:
    def __init__(self, w: float, h: float, pr: float) -> None:
        self.viewport = (float(w), float(h))
        self.pixel_ratio = pr

    @property
    def framebuffer_size(self) -> tuple[int, int]:
        return int(round(self.viewport[0] * self.pixel_ratio)), int(
            round(self.viewport[1] * self.pixel_ratio)
        )


class _TableView:
    """What :func:`hexwar.render.offscreen.render_view` needs of a view: the table's batch, and
    the table's widget tree (:attr:`root`, kept from paint to paint: laid out again only when
    the window's size or the table's shape changes)."""

    def __init__(self, window: Any, ctl: TableController | None, w: float, h: float, pr: float) -> None:
        import pyglet

        from ..render.looks import default_looks
        from ..render.text import glyph_atlas
        from .widgets import UiLayer

        self.window = window
        self.ctl = ctl
        self.looks = default_looks()
        self.camera = _Camera(w, h, pr)
        self.batch = pyglet.graphics.Batch()
        self.atlas = glyph_atlas()
        self.ui = UiLayer(window, self.batch, self.atlas)
        self.painter: Painter | None = None
        #: painted above the table (the window's quit question), ``(painter, w, h) -> None``
        self.overlay: Any = None
        #: the table's widget tree (``None`` before the first paint, or with no table)
        self.root: TableLayout | None = None
        #: what the top bar's Quit button does (the window's quit, asking while a game goes on)
        self.on_quit: Any = None

    def resize(self, w: float, h: float, pixel_ratio: float | None = None) -> None:
        self.camera = _Camera(w, h, pixel_ratio or self.camera.pixel_ratio)

    def refresh(self, mouse: tuple[float, float] = (-1.0, -1.0)) -> Painter:
        p = Painter(self.atlas, mouse)
        w, h = self.camera.viewport
        if self.ctl is not None:  # the overlay is the tree's last region: its clicks go through the tree
            self.root = table_layout(self.ctl, w, h, root=self.root)
            self.root.on_quit = self.on_quit
            layer = self.root.find_panel("overlay")
            layer.draw = None if self.overlay is None else (lambda q, r: self.overlay(q, r.w, r.h))  # type: ignore[attr-defined]
            self.root.paint(p)
        elif self.overlay is not None:
            self.overlay(p, w, h)
        self.ui.show(p)
        self.painter = p
        return p

    def draw(self, exact: bool = False) -> None:
        self.refresh()
        self.batch.draw()


class LinesWindow:
    """The card-table window: the start page (scenario card, decks, the deck builder) for a new
    game, then the table; pyglet events go to the page's :class:`~hexwar.ui.widgets.Screen` or to
    the :class:`TableController`, painted on every frame.

    Args:
        state: the game to continue, or ``None`` for the start page of ``scenario``.
        ai: computer players by seat (the rest are hot-seat humans) for ``state``.
        save: autosave path (after every End Turn).
        scenario, seed, variants, ai_names: the new game's (with ``state=None``); ``ai_names``:
            seat -> computer player name.
        offer: the last unfinished game of the scenario (a
            :class:`~hexwar.ui.autosave.ResumeOffer`), offered on the start page.
    """

    def __init__(
        self,
        state: Any,
        ai: dict[str, Any] | None = None,
        save: str | None = None,
        width: int = 1400,
        height: int = 900,
        visible: bool = True,
        scenario: Any = None,
        seed: int | None = None,
        variants: tuple[str, ...] | None = None,
        ai_names: dict[str, str] | None = None,
        max_turns: int | None = None,
        offer: Any = None,
    ) -> None:
        import pyglet

        from .lines_start import LinesStart

        sc = state.scenario if state is not None else scenario
        self.window = pyglet.window.Window(
            width, height, caption=f"hexwar lines: {sc.name}", resizable=True, visible=visible
        )
        self.save = save
        self.max_turns = max_turns
        self.ai_names = dict(ai_names or {})
        self.ctl: TableController | None = None
        self.saver: Any = None
        self.view = _TableView(self.window, None, width, height, self.window.get_pixel_ratio())
        self.start: LinesStart | None = None
        self._seen = 0
        #: seconds the computer's next decision has waited after its resolution was shown
        self._held = 0.0
        self._held_on: tuple[int | None, int] = (None, 0)  # the resolution held: (attack, log length)
        self.mouse = (-1.0, -1.0)
        self._eat_text = False
        from .window_base import WindowBehaviour

        #: quit (asking while a game goes on, naming its autosave), Esc, help, title (issue 36)
        self.behaviour = WindowBehaviour(
            "table",
            f"hexwar lines: {sc.name}",
            at_stake=lambda: self.ctl is not None and not self.ctl.state.over,
            autosave=lambda: Path(self.save) if self.save else None,
            close=self._close_for_good,
            save_now=self._save_now,
        )
        self.view.overlay = self._overlay
        self.view.on_quit = self.behaviour.request_quit  # the top bar's Quit button
        if state is None:
            self.start = LinesStart(
                sc,
                self.ai_names,
                self.view.atlas,
                seed,
                variants,
                on_start=self._begin,
                on_quit=self.behaviour.request_quit,
                offer=offer,
                on_resume=self._resume,
            )
            self.start.layout(width, height)
        else:
            self._begin(state, ai or {})
        w = self.window

        @w.event
        def on_draw() -> None:
            w.clear()
            self.draw()

        @w.event
        def on_resize(width: int, height: int) -> None:
            self.view.resize(width, height)
            if self.start is not None:
                self.start.layout(width, height)

        @w.event
        def on_mouse_motion(x: float, y: float, dx: float, dy: float) -> None:
            self.mouse = (x, y)
            if self._page() is not None:
                self._page().mouse_motion(x, y)  # type: ignore[union-attr]

        @w.event
        def on_mouse_press(x: float, y: float, button: int, modifiers: int) -> None:
            page = self._page()
            if page is not None:
                page.mouse_press(x, y, button, modifiers)
            else:
                self.press(x, y)

        @w.event
        def on_mouse_release(x: float, y: float, button: int, modifiers: int) -> None:
            page = self._page()
            if page is not None:
                page.mouse_release(x, y, button, modifiers)

        @w.event
        def on_mouse_scroll(x: float, y: float, sx: float, sy: float) -> None:
            page = self._page()
            if page is not None:
                page.mouse_scroll(x, y, sy)
            elif self.ctl is not None:
                self.ctl.scroll(round(3 * sy))

        @w.event
        def on_key_press(symbol: int, modifiers: int) -> bool:
            return self.key(symbol, modifiers)

        @w.event
        def on_close() -> bool:  # the close button quits like Ctrl+Q (asking while a game goes on)
            self.behaviour.request_quit()
            return True

        @w.event
        def on_text(text: str) -> None:
            page = self._page()
            if page is not None and not self._eat_text:
                page.text(text)

        @w.event
        def on_text_motion(motion: int) -> None:
            page = self._page()
            if page is not None:
                page.text_motion(motion)

        pyglet.clock.schedule_interval(self.tick, 0.25)

    def _stop_eating(self, dt: float = 0.0) -> None:
        self._eat_text = False

    def _page(self) -> Any:
        """The toolkit screen of the start / deck builder page, or ``None`` at the table."""
        return self.start.screen if self.start is not None and self.ctl is None else None

    def _begin(self, state: Any, ai: dict[str, Any] | None = None) -> None:
        """Sit down at the table of ``state`` (players made from :attr:`ai_names` if not given)."""
        from ..game.save import Autosaver
        from ..lines.players import make_lines_player

        if ai is None:
            ai = {s: make_lines_player(n, s, state.seed) for s, n in self.ai_names.items()}
        self.ctl = TableController(state, ai=ai, max_turns=self.max_turns)
        self.ctl.on_new_game = self.new_game
        self.view.ctl = self.ctl
        self._seen = len(state.log)  # the autosave reads the events of each action from here on
        self.saver = (
            Autosaver(self.save, {s: getattr(ai.get(s), "name", "human") for s in state.seats})
            if self.save
            else None
        )

    def _resume(self, state: Any, offer: Any) -> None:
        """Continue the offered game at the table: it keeps saving to its own autosave file and
        its computer seats are the ones saved (``"human"`` seats are played here)."""
        from ..lines.players import LINES_PLAYER_NAMES, make_lines_player

        self.save = str(offer.path)
        names = offer.players.items()
        ai = {s: make_lines_player(n, s, state.seed) for s, n in names if n in LINES_PLAYER_NAMES}
        self._begin(state, ai)
        self.behaviour.focus(self.window, self.ctl.focus_text() if self.ctl else "")

    def new_game(self) -> None:
        """Once the game is over (N, the New game button): back to the start page of its
        scenario with the seed after the game's (:func:`~hexwar.ui.lines_start.next_seed`,
        R1.2: other decks and dice, the seed shown), the same computer seats, a new autosave
        file when the game had an autosave (fresh-user pass, item 10: a new game dealt the
        same decks, seed 1943, again)."""
        from .lines_start import LinesStart, next_seed

        ctl = self.ctl
        if ctl is None or not ctl.state.over:
            return
        st = ctl.state
        names = {s: getattr(p, "name", "standard") for s, p in ctl.ai.items()}
        self.ai_names = names
        if self.save is not None:
            import datetime

            from .autosave import new_game_autosave

            self.save = str(new_game_autosave(f"lines-{st.scenario.id}", datetime.datetime.now()))
        self.ctl = self.view.ctl = None
        self.view.root = None
        self.saver = None
        self.start = LinesStart(
            st.scenario,
            names,
            self.view.atlas,
            next_seed(st.seed),
            st.variants,
            on_start=self._begin,
            on_quit=self.behaviour.request_quit,
            on_resume=self._resume,
        )
        w, h = self.view.camera.viewport
        self.start.layout(w, h)
        self.behaviour.focus(self.window, "")

    def draw(self) -> None:
        """Paint the page or the table into the window's batch and draw it."""
        page = self._page()
        if page is not None:
            p = Painter(self.view.atlas, self.mouse)
            page.paint(p)
            self.view.ui.show(p)
            self.view.painter = p
        else:
            self.view.refresh(self.mouse)
        self.view.batch.draw()

    def press(self, x: float, y: float) -> None:
        """A click on the table: the region of the table's widget tree under it (as last
        painted) uses it (:meth:`~hexwar.ui.lines_layout.TableLayout.press`)."""
        if self.view.root is None:
            self.view.refresh(self.mouse)
        if self.view.root is not None:
            self.view.root.press(x, y)
        self._after()

    def _overlay(self, p: Painter, width: float, height: float) -> None:
        if self.behaviour.asking:
            from .window_base import paint_quit_question

            # on the top level: over the hand-over screen (level 2), whose texts would otherwise
            # be drawn over the question's box (fresh-user pass, item 4)
            paint_quit_question(p, width, height, self.behaviour, Painter.TOP)

    def _save_now(self) -> str | None:
        """The game's last save before closing (when it has a save file); an error or None."""
        if self.ctl is None or self.saver is None:
            return None
        from ..errors import HexwarError
        from ..game.save import write_save

        try:
            write_save(self.ctl.state, self.saver.path, self.saver.players)  # type: ignore[arg-type]  # a line game saves through the same writer
        except HexwarError as exc:
            return f"save failed: {exc}"
        return None

    def _close_for_good(self) -> None:
        import pyglet

        pyglet.clock.unschedule(self.tick)
        self.window.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def key(self, symbol: int, modifiers: int) -> bool:
        """A key: first the shared behaviour (Ctrl+Q asks while a game goes on, Esc cancels and
        never quits, H / F1 help); on a page the page's, at the table its intent."""
        page = self._page()
        shared = self.behaviour.key(symbol, modifiers, typing=page is not None)
        if shared == "handled":
            if self.view.painter is not None and not self.behaviour.closed:
                self.view.refresh(self.mouse)
            return True
        if page is not None:
            page.key_press(symbol, modifiers)
            if self._page() is not page:  # the key opened another page: its character is not typed there
                import pyglet

                self._eat_text = True
                pyglet.clock.schedule_once(self._stop_eating, 0)
            return True  # Escape must not close the window under a page
        intent = {"cancel": "cancel", "help": "help"}.get(shared or "") or TABLE_KEYS.get(symbol)
        if intent is None or self.ctl is None:
            return symbol == 0xFF1B  # pyglet closes on Escape by default: the table uses it to cancel
        if intent == "quit_if_over":
            if self.ctl.state.over:
                self.behaviour.request_quit()
            return True
        self.ctl.key(intent)
        self._after()
        return True

    def tick(self, dt: float) -> None:
        """Computer seats act, one decision a tick; after a computer's resolution (R6.2) the
        next decision (whoever's: :meth:`TableController.held`) waits :data:`RESOLVE_PAUSE`
        seconds of ticks, or until Space / Next (:meth:`TableController.go_on`), so the person
        sees its attacks one by one."""
        ctl = self.ctl
        if ctl is None:
            return
        if ctl.held():
            on = (ctl.watching, len(ctl.state.log))
            if on != self._held_on:  # a new resolution shown (Space may have ended the last pause)
                self._held_on, self._held = on, 0.0
            self._held += dt
            if self._held < RESOLVE_PAUSE:
                return
            ctl.go_on()
        self._held = 0.0
        if ctl.step_ai():
            self._after()

    def _after(self) -> None:
        """After every action: the autosave, the focused item in the title."""
        if self.saver is not None and self.ctl is not None:
            # every event since the last action (a turn's end is followed by more than a handful
            # of events in the same action: the next turn's initiative, its first phase)
            log = self.ctl.state.log
            self.saver.after(self.ctl.state, log[self._seen :])
            self._seen = len(log)
        if self.ctl is not None:
            self.behaviour.focus(self.window, self.ctl.focus_text())


def run(
    scenario: Any,
    seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    ai: dict[str, str] | None = None,
    save: str | None = None,
    turns: int | None = None,
    state: Any = None,
    offer: Any = None,
    size: tuple[int, int] | None = None,
) -> None:
    """Open the card table (``hexwar play lines``): a new game starts on the start page (decks,
    the deck builder), a saved one at the table. ``ai``: seat -> player name (default: the
    computer plays every seat of the side the person does not); ``seed`` ``None``: the seed
    after the last autosaved game of the scenario (:func:`~hexwar.ui.lines_start.next_seed`),
    else the scenario's; ``size``: the window's
    ``(width, height)`` in points (``hexwar play --size WxH``), default 1400x900; either is
    made no larger than the screen (:func:`hexwar.ui.play_session.size_for_screen`)."""
    import pyglet

    from .play_session import size_for_screen

    width, height = size_for_screen(*(size or (1400, 900)))

    from ..lines.players import make_lines_player

    seats = state.seats if state is not None else scenario.seats
    names = ai if ai is not None else {s: "standard" for s in seats if not s.startswith("german")}
    if state is None and seed is None:  # a new game after one of this scenario: other decks (R1.2)
        from .lines_start import last_lines_seed, next_seed

        last = last_lines_seed(scenario.id)
        if last is not None:
            seed = next_seed(last)
            print(f"seed {seed} (the last game of {scenario.id} had {last}; --seed N picks one)")
    if save is None:  # every game window autosaves (issue 36): a new file in the autosave folder
        import datetime

        from .autosave import new_game_autosave

        sc_id = (state.scenario if state is not None else scenario).id
        save = str(new_game_autosave(f"lines-{sc_id}", datetime.datetime.now()))
        print(f"autosaving this game to {save} after every turn")
    if state is not None:
        LinesWindow(
            state,
            {s: make_lines_player(n, s, state.seed) for s, n in names.items()},
            save,
            width=width,
            height=height,
            max_turns=turns,
        )
    else:
        LinesWindow(
            None,
            save=save,
            width=width,
            height=height,
            scenario=scenario,
            seed=seed,
            variants=variants,
            ai_names=names,
            max_turns=turns,
            offer=offer,
        )
    pyglet.app.run()
