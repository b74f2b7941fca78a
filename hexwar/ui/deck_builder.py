"""The deck builder's window page (000 setup, R11.1, R4.3): a side's unit cards with their full
card text, the deck being built with a running point total against the limits (80-100 points; 75
per deck in the 4-player game; a hex scenario's 80..budget with its copy limit, R10.4), the crew
warning (000's tip) or, in the hex game, the crew rule (R4.1) and the game's own reason a deck is
refused (:func:`hexwar.game.actions.build_deck.deck_problem`), saving to a deck file
(``decks/*.toml``, written atomically by :meth:`hexwar.lines.deckbuilder.DeckBuilder.save`) and
opening one (:meth:`~hexwar.lines.deckbuilder.DeckBuilder.open`: the working folder or the
shipped decks only).

Built on the widget toolkit (:mod:`hexwar.ui.widgets`): a :class:`~hexwar.ui.widgets.SearchList`
over the side's cards (type to search, Up/Down choose, Enter or a click adds the chosen card; the
chosen card is drawn as a card under the list, :mod:`hexwar.ui.card_face`, with its full text
beside it), a :class:`ScrollList` of the deck (a
click takes a card out), the deck's name and file as :class:`TextField` s, and buttons. The logic
is headless (tests drive it through :class:`~hexwar.ui.widgets.Screen` events); the window is
:class:`DeckBuilderWindow` (``hexwar lines deck``), a page of the card-table window
(:mod:`hexwar.ui.lines_screen`, from the game's start page) or a page of the hex play window
in the setup of a point-budget scenario (:mod:`hexwar.ui.play_deck`, whose "Use this deck"
issues :class:`~hexwar.game.commands.BuildDeck`).

Keys: typing searches, Up/Down choose a card, Enter adds it, Ctrl+S saves, Ctrl+O opens the deck
file named in the file field, Ctrl+Z takes out the last card added, Tab moves between the fields
and buttons, Esc goes back (or closes).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import HexwarError
from ..lines.deckbuilder import DeckBuilder, outside_working_folder
from ..rules.cards import default_cards
from . import widgets as W
from .widgets import Button, Element, Label, Rect, ScrollList, SearchList, TextBlock, TextField, keys
from .widgets import theme as T

_E = TypeVar("_E", bound=Element)

#: Height in points of the chosen card drawn under the search list (a unit card with four
#: weapons shows whole, :func:`hexwar.ui.card_face.unit_card_height`).
PREVIEW_H = 132.0


class CardPreview(Element):
    """The search list's chosen card drawn as a card (:func:`hexwar.ui.card_face.paint_card`,
    001 "Card Types Detailed"), at most :data:`~hexwar.ui.card_face.UNIT_CARD_SIZE` wide.

    Args:
        search: the :class:`~hexwar.ui.widgets.SearchList` whose chosen row is drawn.
    """

    def __init__(self, search: SearchList) -> None:
        super().__init__(tip="card preview")
        self.search = search

    def paint_self(self, p: Any, z: int) -> None:
        """The chosen unit card, top-aligned in this element's rectangle (nothing when no row
        matches)."""
        from .card_face import paint_card

        c = self.search.chosen
        r = self.rect
        if c is None or r.w < 60 or r.h < 40:
            return
        paint_card(p, default_cards().unit(c[0]), r.x, r.y, r.w, r.h, z=z)


__all__ = ["DeckPage", "DeckBuilderWindow", "card_rows", "default_deck_path", "run_deck_builder"]


def card_rows(builder: DeckBuilder) -> list[tuple[str, str, str]]:
    """The search list's rows for ``builder``'s side (and 4-player role): ``(card id, row text,
    full card text)``; the row names the card, its type, line and cost in points."""
    cs = default_cards()
    out = []
    for cid, text in builder.catalogue():
        u = cs.unit(cid)
        line = (
            "crew"
            if u.is_crew
            else {
                "frontline": "Frontline",
                "rear": "Rear Line",
                "aircraft": "aircraft",
                "frontline_or_rear": "Frontline or Rear Line",
            }.get(u.line, u.line)
        )
        out.append((cid, f"{u.name}  ·  {u.unit_type.replace('_', ' ')}  ·  {line}  ·  {u.cost} pts", text))
    return out


def default_deck_path(side: str, role: str | None = None) -> str:
    """A file name for a new deck: ``decks/my_SIDE[_ROLE].toml`` when a ``decks`` folder is in
    the working folder, else ``my_SIDE[_ROLE]_deck.toml``."""
    stem = f"my_{side}" + (f"_{role}" if role else "")
    return os.path.join("decks", f"{stem}.toml") if os.path.isdir("decks") else f"{stem}_deck.toml"


class DeckPage(Element):
    """The deck builder page (see the module doc).

    Args:
        builder: the deck model (side, point limits, 4-player role, cards so far).
        path: the deck file to save to (shown in an editable field).
        on_done: "Use this deck": called with the builder when the deck is legal (``None``: no
            such button, e.g. ``hexwar lines deck``).
        on_back: "Back" / Esc: called with no argument (``None``: no such button).
        back_label: that button's label (``"Close"`` in its own window).
        done_label: the "Use this deck" button's label.
        confine: save only inside the working folder, where Ctrl+O and ``--deck`` open deck files
            (the pages inside a game; ``hexwar lines deck --out PATH`` saves where it is told).

    Attributes:
        status: the last message (saved, refused with the reason).
        saved_to: the file last written, or ``None``.
    """

    def _put(self, e: _E) -> _E:
        """Add child ``e`` and return it with its own type."""
        self.add(e)
        return e

    def __init__(
        self,
        builder: DeckBuilder,
        path: str | None = None,
        on_done: Callable[[DeckBuilder], Any] | None = None,
        on_back: Callable[[], Any] | None = None,
        back_label: str = "Back",
        done_label: str = "Use this deck",
        confine: bool = False,
    ) -> None:
        super().__init__(tip="deck builder")
        self.builder = builder
        self.on_done, self.on_back = on_done, on_back
        self.status = ""
        self.status_ok = True
        self.confine = confine
        self.saved_to: str | None = None
        #: the deck as last saved (or as opened): quitting with another deck asks first
        self.saved_cards: list[str] = list(builder.cards)
        lo, hi = builder.budget
        who = builder.side.capitalize() + (f" {builder.role} commander" if builder.role else " side")
        copies = f", at most {builder.max_copies} of a unit card" if builder.max_copies else ""
        self.title = self._put(
            Label(
                f"Build a Reserves deck for the {who} (000 setup): {lo}-{hi} points{copies}",
                17.0,
                T.ACTIVE,
                style="bold",
            )
        )
        self.hint = self._put(
            TextBlock(
                "Type to search the cards, Up/Down choose, Enter or a click adds the chosen card (drawn as a card "
                "under the list, its full text beside it). Click a card in your deck to take it out. Ctrl+S saves "
                "the deck file, Ctrl+O opens it.",
                size=11.5,
                colour=T.DIM,
                line_gap=3.0,
            )
        )
        self.search = self._put(
            SearchList(
                card_rows(builder), on_pick=self.add_card, rows=14, row_h=21.0, detail_lines=9, tip="cards"
            )
        )
        self.preview = self._put(CardPreview(self.search))
        self.deck_title = self._put(Label("", 13.0, T.TEXT, style="bold"))
        self.deck_list = self._put(ScrollList(row_h=20.0, on_pick=self._remove_row, size=12.0, tip="deck"))
        self.total = self._put(Label("", 15.0, T.GOOD, style="bold"))
        self.errors = self._put(TextBlock("", size=11.5, colour=T.ERROR, line_gap=3.0))
        self.warnings = self._put(TextBlock("", size=11.5, colour=T.ROLL, line_gap=3.0))
        self.name_label = self._put(Label("Deck name", 11.5, T.DIM))
        self.name_field = self._put(
            TextField(builder.name, on_enter=lambda _t: None, max_length=80, tip="deck name")
        )
        self.path_label = self._put(Label("Deck file", 11.5, T.DIM))
        self.path_field = self._put(
            TextField(
                path or default_deck_path(builder.side, builder.role),
                on_enter=lambda _t: self.save(),
                max_length=400,
                tip="deck file",
            )
        )
        self.open_btn = self._put(
            Button("Open  (Ctrl+O)", self.open_file, tip="open deck file", align="center")
        )
        self.status_block = self._put(TextBlock("", size=11.5, colour=T.GOOD, line_gap=3.0, max_lines=3))
        self.buttons: list[Button] = [
            self._put(Button("Add card  (Enter)", self.search.pick, tip="add card", align="center")),
            self._put(
                Button("Take out last  (Ctrl+Z)", self.remove_last, tip="take out last", align="center")
            ),
            self._put(Button("Save  (Ctrl+S)", self.save, tip="save", align="center")),
        ]
        if on_done is not None:
            self.buttons.append(
                self._put(Button(done_label, self.done, primary=True, tip="use deck", align="center"))
            )
        if on_back is not None:
            self.buttons.append(
                self._put(Button(f"{back_label}  (Esc)", on_back, tip="back", align="center"))
            )
        self.refresh()

    # -- the deck ------------------------------------------------------------------------------
    def add_card(self, card_id: str) -> None:
        """Add ``card_id`` to the deck (a row of the search list was picked)."""
        try:
            self.builder.add(card_id)
        except HexwarError as exc:
            self._say(str(exc), ok=False)
            return
        u = default_cards().unit(card_id)
        self._say(f"added {u.name} ({u.cost} pts)")
        self.refresh()
        self.deck_list.select(len(self.builder.cards) - 1)

    def _remove_row(self, i: int) -> None:
        if 0 <= i < len(self.builder.cards):
            cid = self.builder.cards.pop(i)
            self._say(f"took out {default_cards().unit(cid).name}")
            self.refresh()

    def remove_last(self) -> None:
        """Take the last card added out of the deck."""
        if self.builder.cards:
            self._remove_row(len(self.builder.cards) - 1)

    def refresh(self) -> None:
        """Bring the deck list, the running total and the problems up to date."""
        b = self.builder
        cs = default_cards()
        self.deck_list.set_items([f"{cs.unit(c).name}  ·  {cs.unit(c).cost} pts" for c in b.cards])
        self.deck_title.text = f"Your deck: {len(b.cards)} cards (click one to take it out)"
        errors, warnings = b.problems()
        lo, hi = b.budget
        pts = b.points
        if pts < lo:
            state = f"{lo - pts} more needed"
        elif pts > hi:
            state = f"{pts - hi} too many"
        else:
            state = "within the limits"
        self.total.text = f"Points: {pts}  (limits {lo}-{hi}: {state})"
        # red only when the points are wrong; within the limits with another rule still unmet
        # (a crew, R4.1) the total reads plain and the reason below it is the one in red
        self.total.colour = T.GOOD if not errors else (T.TEXT if lo <= pts <= hi else T.ERROR)
        self.errors.text = "\n".join(e for e in errors if "points; expected" not in e)
        self.warnings.text = "\n".join(f"{b.crew_label}: {w}" for w in warnings)

    @property
    def legal(self) -> bool:
        """The deck is within the limits and holds only the side's (role's) cards."""
        return not self.builder.problems()[0]

    def _say(self, text: str, ok: bool = True) -> None:
        self.status, self.status_ok = text, ok

    def save(self) -> bool:
        """Save the deck to the file named in the file field (atomically); the reason of a
        refusal (points, an existing file that is not a deck file) goes into :attr:`status`."""
        self.builder.name = self.name_field.text.strip() or self.builder.name
        path = os.path.expanduser(self.path_field.text.strip())
        why = outside_working_folder(path) if self.confine else None
        if why is not None:  # what is saved must open again (Ctrl+O, --deck read only from there)
            self._say(why, ok=False)
            return False
        try:
            self.builder.save(path)
        except HexwarError as exc:
            self._say(str(exc), ok=False)
            return False
        self.saved_to = path
        self.saved_cards = list(self.builder.cards)
        self._say(f"saved {len(self.builder.cards)} cards ({self.builder.points} pts) to {path}")
        return True

    def open_file(self) -> bool:
        """Open the deck file named in the file field (Ctrl+O): its cards replace the deck's
        (:meth:`~hexwar.lines.deckbuilder.DeckBuilder.open`: the working folder or the shipped
        decks only); a refusal (no such file, a card of the other side or outside the
        scenario's cards, a path elsewhere) goes into :attr:`status` with the file named."""
        try:
            path = self.builder.open(self.path_field.text.strip())
        except HexwarError as exc:
            self._say(str(exc), ok=False)
            return False
        self.saved_to = str(path)
        self.saved_cards = list(self.builder.cards)
        self.name_field.text = self.builder.name
        self.name_field.caret = len(self.name_field.text)
        self.refresh()
        self._say(f"opened {path}: {len(self.builder.cards)} cards ({self.builder.points} pts)")
        return True

    def unsaved(self) -> bool:
        """The deck differs from the one last saved (or opened)."""
        return list(self.builder.cards) != self.saved_cards

    def lost_text(self) -> str:
        """The quit question's sentence: the unsaved deck and where Ctrl+S would save it."""
        return (
            f"The deck of {len(self.builder.cards)} cards ({self.builder.points} pts) is not saved: "
            f"Keep editing and press Ctrl+S to save it to {self.path_field.text.strip()}."
        )

    def done(self) -> None:
        """ "Use this deck": hand the legal deck to ``on_done``."""
        errors, _ = self.builder.problems()
        if errors:
            self._say("not yet: " + "; ".join(errors), ok=False)
            return
        self.builder.name = self.name_field.text.strip() or self.builder.name
        if self.on_done is not None:
            self.on_done(self.builder)

    # -- events --------------------------------------------------------------------------------
    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Ctrl+S saves, Ctrl+O opens the deck file, Ctrl+Z takes out the last card, Esc goes back."""
        if modifiers & keys.MOD_CTRL and symbol == ord("s"):
            self.save()
            return True
        if modifiers & keys.MOD_CTRL and symbol == ord("o"):
            self.open_file()
            return True
        if modifiers & keys.MOD_CTRL and symbol == ord("z"):
            self.remove_last()
            return True
        if symbol == keys.ESCAPE and self.on_back is not None:
            self.on_back()
            return True
        return False

    # -- layout and painting -------------------------------------------------------------------
    def layout(self, rect: Rect) -> None:
        """Title and hint at the top; the cards on the left (with the chosen card's full text);
        the deck, its total, its problems, the name and file fields on the right; buttons below."""
        self.rect = rect
        pad = 16.0
        y1 = rect.y1 - pad
        self.title.layout(Rect(rect.x + pad, y1 - 26, rect.w - 2 * pad, 26))
        self.hint.layout(Rect(rect.x + pad, y1 - 64, rect.w - 2 * pad, 34))
        top = y1 - 72
        bottom = rect.y + pad + 40
        left_w = max(300.0, (rect.w - 3 * pad) * 0.56)
        right_x = rect.x + 2 * pad + left_w
        right_w = max(200.0, rect.x1 - pad - right_x)
        # the search list above, fit to the height; right under it the chosen card drawn as a
        # card (card_face) with its full text beside it
        from .card_face import UNIT_CARD_SIZE

        room = top - bottom - 8
        self.search.n_rows = max(4, min(14, int((room - PREVIEW_H - 12 - 30 - 12) // self.search.row_h)))
        list_h = 30 + 6 + self.search.n_rows * self.search.row_h + 6
        self.search.layout(Rect(rect.x + pad, top - list_h, left_w, list_h))
        py = max(bottom + 8, top - list_h - 6 - PREVIEW_H)
        pw = min(left_w, UNIT_CARD_SIZE[0])
        self.preview.layout(Rect(rect.x + pad, py, pw, PREVIEW_H))
        dx = rect.x + pad + pw + 12
        self.search.details.layout(Rect(dx, py, max(0.0, rect.x + pad + left_w - dx), PREVIEW_H))
        y = top
        self.deck_title.layout(Rect(right_x, y - 22, right_w, 22))
        y -= 26
        # what goes under the list, as laid out below: gap 8, total 28, errors 30, warnings 64,
        # name 50, file 52, status 44 (the old sum was 10 short, so the status block was pushed
        # up over the file field and its first line drawn under the field: fresh7)
        list_h = max(80.0, (y - bottom) - 8 - 28 - 30 - 64 - 50 - 52 - 44)
        self.deck_list.layout(Rect(right_x, y - list_h, right_w, list_h))
        y -= list_h + 8
        self.total.layout(Rect(right_x, y - 22, right_w, 22))
        y -= 28
        self.errors.layout(Rect(right_x, y - 30, right_w, 30))
        y -= 30
        self.warnings.layout(Rect(right_x, y - 58, right_w, 58))
        y -= 64
        self.name_label.layout(Rect(right_x, y - 18, right_w, 18))
        self.name_field.layout(Rect(right_x, y - 46, right_w, 28))
        y -= 50
        self.path_label.layout(Rect(right_x, y - 18, right_w, 18))
        ow = min(130.0, right_w * 0.4)
        self.path_field.layout(Rect(right_x, y - 46, right_w - ow - 8, 28))
        self.open_btn.layout(Rect(right_x + right_w - ow, y - 46, ow, 28))
        y -= 52
        sy = max(bottom, y - 44)  # never above the file field: fewer lines in a small window
        self.status_block.layout(Rect(right_x, sy, right_w, max(0.0, y - sy)))
        cells = W.columns(
            Rect(rect.x + pad, rect.y + pad, rect.w - 2 * pad, 32), [W.FLEX] * len(self.buttons), gap=10
        )
        for btn, c in zip(self.buttons, cells, strict=True):
            btn.layout(c)

    def paint_self(self, p: Any, z: int) -> None:
        """The page background and the right column's panel; the texts are refreshed first."""
        self.status_block.text = self.status
        # a narrow window: the running total a size smaller rather than cut
        fits = p.measure(self.total.text, 15.0, "bold") <= self.total.rect.w
        self.total.size = 15.0 if fits else 12.5
        self.status_block.colour = T.GOOD if self.status_ok else T.ERROR
        p.rect(*self.rect.corners, T.BG, z)
        p.rect(self.rect.x, self.rect.y1 - 80, self.rect.x1, self.rect.y1, T.SECTION, z)


class DeckBuilderWindow:
    """A pyglet window showing one toolkit page (the deck builder, the lines start page):
    window events go to a :class:`~hexwar.ui.widgets.Screen`, painted on every frame.

    Args:
        page: the root element.
        caption: the window title.
    """

    def __init__(
        self, page: Element, caption: str, width: int = 1280, height: int = 860, visible: bool = True
    ) -> None:
        import pyglet

        from ..render.text import glyph_atlas
        from .widgets import Screen, UiLayer

        self.window = pyglet.window.Window(width, height, caption=caption, resizable=True, visible=visible)
        self.window._enable_event_queue = False  # handle dispatched events at once (tests, no loop)
        self.atlas = glyph_atlas()
        self.batch = pyglet.graphics.Batch()
        self.ui = UiLayer(self.window, self.batch, self.atlas)
        self.screen = Screen(page, self.atlas, self.window.get_pixel_ratio())
        self.screen.layout(width, height)
        self.page = page
        from .window_base import WindowBehaviour

        #: quit (asking when the deck is not saved), Esc, help, title: shared by every window
        self.behaviour = WindowBehaviour(
            "deck",
            caption,
            at_stake=lambda: isinstance(page, DeckPage) and page.unsaved(),
            autosave=lambda: None,
            close=self._close_for_good,
            lost_text=page.lost_text if isinstance(page, DeckPage) else None,
        )
        attach_screen(
            self.window, self.screen, self.ui, self.batch, self.atlas, keys_first=self._keys_first,
            overlay=self._overlay, mouse_first=self._mouse_first,
        )  # fmt: skip
        w = self.window

        @w.event
        def on_close() -> bool:  # the close button quits like Ctrl+Q (asking for an unsaved deck)
            self.behaviour.request_quit()
            return True

    def _keys_first(self, symbol: int, modifiers: int) -> bool:
        """The shared behaviour before the page: Ctrl+Q (asks for an unsaved deck), the quit
        question; Esc cancels (never quits the window)."""
        shared = self.behaviour.key(symbol, modifiers, typing=True)
        if shared == "cancel":
            if isinstance(self.page, DeckPage):
                self.page._say("Esc: nothing more to cancel. Ctrl+Q or Close quits the deck builder.")
            return True
        return shared == "handled"

    def _overlay(self, p: Any, width: float, height: float) -> None:
        if self.behaviour.asking:
            from .window_base import paint_quit_question

            paint_quit_question(p, width, height, self.behaviour)

    def _mouse_first(self, x: float, y: float) -> bool:
        """While the quit question is open a click goes to its buttons (or nowhere)."""
        if not self.behaviour.asking:
            return False
        from .widgets import Painter, top_hit

        p = Painter(self.atlas, (x, y))
        self._overlay(p, *self.window.get_size())
        hit = top_hit(p.widgets, x, y)
        if hit is not None and hit.action is not None:
            hit.action()
        return True

    def draw_texts(self) -> list[str]:
        """Paint once and return every string on screen (tests read the window through it)."""
        from .widgets import Painter

        p = Painter(self.atlas, self.screen.mouse)
        self.screen.paint(p)
        self._overlay(p, *self.window.get_size())
        return list(p.texts)

    def _close_for_good(self) -> None:
        import pyglet

        self.window.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()


def attach_screen(
    window: Any,
    screen: Any,
    ui: Any,
    batch: Any,
    atlas: Any,
    keys_first: Callable[[int, int], bool] | None = None,
    overlay: Callable[[Any, float, float], None] | None = None,
    mouse_first: Callable[[float, float], bool] | None = None,
) -> None:
    """Route ``window``'s events to ``screen`` and paint it on every frame (``keys_first``: a
    key handler tried before the screen's, e.g. Ctrl+Q; ``overlay(painter, w, h)``: painted
    above the page, e.g. the quit question; ``mouse_first(x, y)``: a click handler tried
    before the page's, True when it used the click)."""
    from .widgets import Painter

    @window.event
    def on_draw() -> None:
        window.clear()
        p = Painter(atlas, screen.mouse)
        screen.paint(p)
        if overlay is not None:
            overlay(p, *window.get_size())
        ui.show(p)
        batch.draw()

    @window.event
    def on_resize(width: int, height: int) -> None:
        screen.layout(width, height)

    @window.event
    def on_mouse_motion(x: float, y: float, dx: float, dy: float) -> None:
        screen.mouse_motion(x, y)

    @window.event
    def on_mouse_press(x: float, y: float, button: int, modifiers: int) -> None:
        if mouse_first is not None and mouse_first(x, y):
            return
        screen.mouse_press(x, y, button, modifiers)

    @window.event
    def on_mouse_release(x: float, y: float, button: int, modifiers: int) -> None:
        screen.mouse_release(x, y, button, modifiers)

    @window.event
    def on_mouse_scroll(x: float, y: float, sx: float, sy: float) -> None:
        screen.mouse_scroll(x, y, sy)

    @window.event
    def on_key_press(symbol: int, modifiers: int) -> bool:
        if keys_first is not None and keys_first(symbol, modifiers):
            return True
        screen.key_press(symbol, modifiers)
        return True  # never let pyglet's default Escape close the window under a page

    @window.event
    def on_text(text: str) -> None:
        screen.text(text)

    @window.event
    def on_text_motion(motion: int) -> None:
        screen.text_motion(motion)


def run_deck_builder(
    side: str,
    budget: tuple[int, int] = (80, 100),
    role: str | None = None,
    path: str | None = None,
    start: tuple[str, ...] = (),
) -> None:
    """Open the deck builder in its own window (``hexwar lines deck``) until it is closed.

    Args:
        side: ``german`` or ``soviet``; budget: (min, max) points; role: 4-player commander
        role (``front`` / ``support``) or ``None``; path: the deck file; start: card ids to start
        from (an existing deck file's).
    """
    import pyglet

    b = DeckBuilder(side, budget=budget, role=role, cards=list(start))
    holder: dict[str, DeckBuilderWindow] = {}
    page = DeckPage(b, path, on_back=lambda: holder["w"].behaviour.request_quit(), back_label="Close")
    holder["w"] = DeckBuilderWindow(page, f"hexwar deck builder: {side}")
    holder["w"].screen.set_focus(page.search.field)
    pyglet.app.run()
