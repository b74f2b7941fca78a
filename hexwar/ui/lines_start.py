"""The lines game's start page (000 setup, R11.1): the scenario card (setup, special rules, win
conditions), each seat's player (you / the computer) and Reserves deck (drawn at random within
the limits, given with ``--deck``, or built here with the deck builder,
:mod:`hexwar.ui.deck_builder`), and Start.

:class:`LinesStart` is the page logic without GL: it owns the :class:`~hexwar.ui.widgets.Screen`
of the page shown (the start page or a deck builder) and makes the game on Start
(:meth:`LinesScenario.with_decks` then ``new_game``), so a deck built in the window is the deck
the game is played with, and kept in the save (``setup.decks``) as a ``--deck`` is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from ..lines.commands import side_of_seat
from ..lines.deckbuilder import DeckBuilder
from ..lines.scenario import seat_budget
from ..rules.cards import default_cards
from .deck_builder import DeckPage
from .widgets import FLEX, Button, Element, Label, Rect, Screen, TextBlock, columns, keys, wrap
from .widgets import theme as T

_E = TypeVar("_E", bound=Element)

__all__ = ["StartPage", "LinesStart", "next_seed", "last_lines_seed"]

#: a seat's deck as the start page names it: given with ``--deck``, built by the ``hard``
#: computer itself (:func:`hexwar.search.lines_deck.with_hard_decks`), or either of them changed
#: in the deck builder here (then it is neither)
GIVEN_DECK = "deck given with --deck"
OWN_DECK = "the computer's own deck (hard)"
BUILT_DECK = "deck built here"

#: seeds :func:`next_seed` gives are below this (six digits: easy to type after ``--seed``)
SEED_SPAN = 1_000_000


def next_seed(seed: int) -> int:
    """The seed of the game after one played with ``seed``: a fixed function of it (numpy's
    ``SeedSequence`` hashing, R1.2: no randomness outside a seeded generator), in
    ``0 .. SEED_SPAN - 1`` and never ``seed`` itself, so a new game deals other decks (a new
    game once dealt the scenario's seed, 1943, again: fresh-user pass, item 10).

    >>> next_seed(1943) != 1943, next_seed(1943) == next_seed(1943), 0 <= next_seed(5) < SEED_SPAN
    (True, True, True)
    """
    import numpy as np

    step = 0
    while True:
        word = int(
            np.random.SeedSequence([int(seed) % 2**63, 0x4C494E45, step]).generate_state(1, np.uint32)[0]
        )
        out = word % SEED_SPAN
        if out != seed:
            return out
        step += 1


def last_lines_seed(
    scenario_id: str, folder: Any = None, look_at: int = 8, mode: str = "lines"
) -> int | None:
    """The seed of the newest autosaved card-table game (``mode="hex"``: play-window game) of
    ``scenario_id`` (finished or not) among the ``look_at`` newest files of ``folder`` (default
    the autosave folder), or ``None``; unreadable or foreign files are skipped."""
    from ..errors import HexwarError
    from ..game.save import read_save
    from .autosave import _newest_saves, autosave_dir

    for p in _newest_saves(autosave_dir() if folder is None else folder, look_at):
        try:
            sf = read_save(p)
        except (HexwarError, OSError, ValueError):
            continue
        if sf.mode == mode and sf.scenario_id == scenario_id:
            return int(sf.seed)
    return None


class StartPage(Element):
    """The start page's widgets (see the module doc).

    Args:
        start: the :class:`LinesStart` whose scenario, players and decks are shown.
    """

    def _put(self, e: _E) -> _E:
        """Add child ``e`` and return it with its own type."""
        self.add(e)
        return e

    def __init__(self, start: LinesStart) -> None:
        super().__init__(tip="lines start")
        self.start = start
        sc = start.scenario
        self.title = self._put(Label(f"hexwar on lines: {sc.name}", 18.0, T.ACTIVE, style="bold"))
        text = sc.description.strip()
        if sc.special_rules:
            text += "\n\nSpecial rules: " + " ".join(sc.special_rules)
        vp = sc.victory_points
        text += (
            f"\n\nWin: first to {vp} victory points"
            + (
                ", or an Overrun (three turns holding the Frontline with no enemy ground unit)"
                if sc.overrun
                else ""
            )
            + (f"; at the end of turn {sc.turns} the side with more points wins." if sc.turns else ".")
        )
        self.card = self._put(TextBlock(text, size=12.5, colour=T.TEXT, line_gap=4.0))
        self.seats_title = self._put(Label("Seats and Reserves decks", 14.0, T.TEXT, style="bold"))
        self.rows: list[tuple[Label, Button]] = []
        for i, seat in enumerate(sc.seats, 1):
            lab = self._put(Label("", 12.5, T.TEXT))
            btn = self._put(
                Button(
                    f"Build {seat} deck  ({i})",
                    partial(start.build, seat),
                    tip=f"build {seat}",
                    align="center",
                )
            )
            self.rows.append((lab, btn))
        self.hint = self._put(TextBlock("", size=12.0, colour=T.ROLL, line_gap=3.0))
        self.start_btn = self._put(
            Button("Start the game  (Enter)", start.begin, primary=True, tip="start", align="center")
        )
        self.quit_btn = self._put(Button("Quit  (Ctrl+Q)", start.quit, tip="quit", align="center"))
        self.seed_btn = self._put(Button("New seed  (S)", start.new_seed, tip="new seed", align="center"))
        #: the last unfinished game of this scenario, offered first (as ``hexwar play`` does)
        self.continue_btn: Button | None = None
        if start.offer is not None:
            self.continue_btn = self._put(
                Button(
                    f"Continue the last game: {start.offer.text}  (C)",
                    start.resume,
                    primary=True,
                    tip="continue",
                    align="center",
                )
            )
            self.start_btn.primary = False  # Enter presses the focused Continue; N starts anew
            self.start_btn.label = "Start a new game  (N)"

    def refresh(self) -> None:
        """Each seat's line: who plays it and which deck it gets."""
        st = self.start
        for (lab, _), seat in zip(self.rows, st.scenario.seats, strict=True):
            who = "computer" if seat in st.ai_names else "you"
            lo, hi = seat_budget(st.scenario, side_of_seat(seat))
            if seat in st.decks:
                cards = st.decks[seat]
                pts = sum(default_cards().unit(c).cost for c in cards)
                deck = f"{st.deck_names.get(seat, 'your deck')}: {len(cards)} cards, {pts} points"
            else:
                deck = f"drawn at random within {lo}-{hi} points"
            lab.text = f"{seat} ({who}): {deck}"
        first = (
            "Now: Enter (or C) continues the last game; N starts a new one with these decks"
            if self.continue_btn is not None
            else "Now: Enter starts the game with these decks"
        )
        seed = st.game_seed()
        self.hint.text = (
            first
            + "; a number key (or its button) opens the deck builder for that seat."
            + f"\nSeed {seed}: `--seed {seed}` deals the same again; S (New seed) deals other decks."
            + (f"\n{st.message}" if st.message else "")
        )

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Enter starts (or, on a focused button, presses it), C continues the offered game,
        1-4 build that seat's deck."""
        if symbol == ord("c") and self.continue_btn is not None:
            self.start.resume()
            return True
        if symbol == ord("n") and self.continue_btn is not None:
            self.start.begin()
            return True
        if symbol == ord("s"):
            self.start.new_seed()
            return True
        if symbol in (keys.ENTER, 0xFF8D) and not (self.screen and isinstance(self.screen.focus, Button)):
            self.start.begin()
            return True
        n = symbol - ord("1")
        if 0 <= n < len(self.start.scenario.seats):
            self.start.build(self.start.scenario.seats[n])
            return True
        return False

    def layout(self, rect: Rect) -> None:
        """The scenario card at the top, a row per seat, the hint and the buttons below."""
        self.rect = rect
        pad = 20.0
        x, w = rect.x + pad, min(rect.w - 2 * pad, 1100.0)
        y = rect.y1 - pad
        self.title.layout(Rect(x, y - 28, w, 28))
        y -= 36
        n_seats = len(self.rows)
        extra = 44.0 if self.continue_btn is not None else 0.0
        room = max(60.0, y - rect.y - pad - 40 - 30 - n_seats * 40 - 60 - 66 - extra)
        scr = self.screen
        if scr is not None:  # as high as the scenario card's text needs
            n = sum(
                max(1, len(wrap(scr.measure, para, w, self.card.size))) for para in self.card.text.split("\n")
            )
            room = min(room, n * self.card.line_height + 8)
        card_h = room
        self.card.layout(Rect(x, y - card_h, w, card_h))
        y -= card_h + 10
        self.seats_title.layout(Rect(x, y - 26, w, 26))
        y -= 32
        for lab, btn in self.rows:
            lab.layout(Rect(x, y - 30, w - 250, 30))
            btn.layout(Rect(x + w - 240, y - 30, 240, 30))
            y -= 38
        self.hint.layout(Rect(x, y - 66, w, 66))
        cells = columns(Rect(x, rect.y + pad, min(w, 760.0), 34), [FLEX, FLEX, FLEX], gap=12)
        self.start_btn.layout(cells[0])
        self.seed_btn.layout(cells[1])
        self.quit_btn.layout(cells[2])
        if self.continue_btn is not None:
            self.continue_btn.layout(Rect(x, rect.y + pad + 34 + 10, min(w, 640.0), 34))

    def paint_self(self, p: Any, z: int) -> None:
        """The page background (the text is refreshed first)."""
        self.refresh()
        p.rect(*self.rect.corners, T.BG, z)
        p.rect(self.rect.x, self.rect.y1 - 52, self.rect.x1, self.rect.y1, T.SECTION, z)


class LinesStart:
    """The start page and the deck builder pages before a lines game (no GL).

    Args:
        scenario: the line scenario (its ``decks`` are the ``--deck`` ones).
        ai_names: computer seats -> player name (the rest are people, hot-seat).
        measure: the text measure (glyph atlas; :class:`MonoMeasure` in tests).
        seed, variants: of the game to make.
        on_start: called with the new :class:`~hexwar.lines.state.LinesState` on Start.
        on_quit: Quit.
        offer: a :class:`~hexwar.ui.autosave.ResumeOffer`: the last unfinished game of the
            scenario, offered first (C or its button continues it).
        on_resume: called with the offered game (a
            :class:`~hexwar.lines.state.LinesState` replayed from its save) and the offer.

    Attributes:
        decks: seat -> card ids of the decks given or built (the rest are drawn at random).
        screen: the :class:`Screen` of the page shown; ``page``: ``"start"`` or ``"deck"``.
        state: the game, once started.
    """

    def __init__(
        self,
        scenario: Any,
        ai_names: dict[str, str],
        measure: Any,
        seed: int | None = None,
        variants: tuple[str, ...] | None = None,
        on_start: Callable[[Any], Any] | None = None,
        on_quit: Callable[[], Any] | None = None,
        offer: Any = None,
        on_resume: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.offer, self.on_resume = offer, on_resume
        self.scenario = scenario
        self.ai_names = dict(ai_names)
        self.measure = measure
        self.seed, self.variants = seed, variants
        self.on_start, self.on_quit = on_start, on_quit
        self.decks: dict[str, tuple[str, ...]] = dict(scenario.decks)
        self.deck_names: dict[str, str] = {s: GIVEN_DECK for s in self.decks}
        from ..search.lines_deck import with_hard_decks  # 000 setup: a hard seat builds its own

        built = with_hard_decks(scenario, self.ai_names).decks
        for s in built.keys() - self.decks.keys():
            self.decks[s] = built[s]
            self.deck_names[s] = OWN_DECK
        self.message = ""
        self.state: Any = None
        self.size = (1400.0, 900.0)
        self.page = "start"
        self.screen = self._show(StartPage(self))
        self._focus_start()

    def _show(self, root: Element) -> Screen:
        self.screen = Screen(root, self.measure)
        self.screen.layout(*self.size)
        return self.screen

    def layout(self, width: float, height: float) -> None:
        """The window was resized."""
        self.size = (float(width), float(height))
        self.screen.layout(width, height)

    def build(self, seat: str) -> DeckPage:
        """Open the deck builder for ``seat`` (its side, limits and 4-player role)."""
        side = side_of_seat(seat)
        role = None if len(self.scenario.seats) == 2 else seat.split("-", 1)[1]
        b = DeckBuilder(
            side,
            budget=seat_budget(self.scenario, side),
            role=role,
            cards=list(self.decks.get(seat, ())),
            name=self.deck_names.get(seat, f"my {seat} deck"),
            restrictions=self.scenario.sides[side],
        )
        page = DeckPage(b, on_done=partial(self._built, seat), on_back=self.back, confine=True)
        self.page = "deck"
        self._show(page)
        self.screen.set_focus(page.search.field)
        return page

    def _built(self, seat: str, b: DeckBuilder) -> None:
        cards, name = tuple(b.cards), b.name
        if name in (GIVEN_DECK, OWN_DECK) and cards != self.decks.get(seat):
            # the page's own label no longer says what the deck is once its cards changed
            # (fresh9b: an edited hard computer's deck still read "the computer's own deck")
            name = BUILT_DECK
        self.decks[seat] = cards
        self.deck_names[seat] = name
        self.message = f"{seat} plays with {name!r} ({b.points} points)."
        self.back()

    def back(self) -> None:
        """Back to the start page."""
        self.page = "start"
        self._show(StartPage(self))
        self._focus_start()

    def _focus_start(self) -> None:
        """The Start button holds the focus (Enter starts; the number keys reach the page)."""
        root = self.screen.root
        if isinstance(root, StartPage):
            self.screen.set_focus(root.continue_btn or root.start_btn)

    def game_seed(self) -> int:
        """The seed Start deals with: the one given (``--seed``, or :meth:`new_seed`), else the
        scenario's."""
        return int(self.scenario.seed if self.seed is None else self.seed)

    def new_seed(self) -> int:
        """S / New seed: the next seed (:func:`next_seed` of the current one), shown on the
        page; the decks drawn at random and the dice follow it (R1.2)."""
        self.seed = next_seed(self.game_seed())
        self.message = f"New seed {self.seed}: other decks and dice."
        return self.seed

    def begin(self) -> Any:
        """Start: the game with the decks given or built (the others at random)."""
        sc = self.scenario.with_decks(self.decks) if self.decks else self.scenario
        self.state = sc.new_game(seed=self.seed, variants=self.variants)
        self.page = "table"
        if self.on_start is not None:
            self.on_start(self.state)
        return self.state

    def resume(self) -> Any:
        """Continue the offered game: its save replayed and verified; on an unreadable save
        the page says why and stays (a new game can still start).

        Returns:
            the game, or ``None`` when it could not be read.
        """
        from ..errors import HexwarError, cannot
        from ..game.save import load_game

        if self.offer is None:
            return None
        try:
            state = load_game(self.offer.path)
        except (HexwarError, OSError, ValueError) as exc:
            self.message = cannot("continue", self.offer.path, exc)
            self.offer = None
            self.back()
            return None
        self.state = state
        self.page = "table"
        if self.on_resume is not None:
            self.on_resume(state, self.offer)
        return state

    def quit(self) -> None:
        """Quit."""
        if self.on_quit is not None:
            self.on_quit()
