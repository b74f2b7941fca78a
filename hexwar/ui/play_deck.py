"""The Reserves deck on the play screen (000 Standard Game Setup, R4.3): in the setup of a
point-budget scenario (the ``standard`` game) a person builds their own deck, as the ``hard``
computer player does (:mod:`hexwar.search.hexdeck`), instead of playing the random deal.

Before choosing the starting hand the side to act is offered "Build deck" (D) and "Keep the
dealt deck" (K). Build deck opens the deck builder page (:class:`hexwar.ui.deck_builder.DeckPage`
over :meth:`hexwar.lines.deckbuilder.DeckBuilder.for_hex_side`: the side's ``pool``, 80..budget
points, the copy limit R10.4, the crew rule R4.1, the game's own reason a deck is refused), which
starts from the side's current Reserves deck; "Use this deck" issues
:class:`~hexwar.game.commands.BuildDeck` through :meth:`PlayController.issue
<hexwar.ui.controller.PlayController.issue>`, the one command path, so the autosave, a replay
and the network views see it as any other command (R1.2, R12.1). Hot-seat: each person builds in
turn behind the hand-over screen (the page opens only on the side's own turn and closes with
it), and the other side's deck is never on the page.

A deck given with ``hexwar play --deck SIDE=FILE`` (:attr:`DeckMixin.preset_decks`) is issued
for its side the first time that side acts in setup.

No pyglet here: the page is a widget tree the window shows in a
:class:`~hexwar.ui.widgets.Screen` of its own (:meth:`hexwar.ui.play_window.PlayWindow`).
"""

from __future__ import annotations

from typing import Any

from ..errors import HexwarError
from ..game import ruleset
from ..game.commands import BuildDeck
from ..game.state import GameState, Phase, card_of

__all__ = ["DeckMixin"]


class DeckMixin:
    """The Reserves deck part of :class:`~hexwar.ui.controller.PlayController`.

    Attributes:
        deck_page: the open deck builder page (a :class:`~hexwar.ui.deck_builder.DeckPage`),
            or ``None``.
        deck_answered: sides that chose Build deck or Keep the dealt deck (the offer is not
            asked again; Build deck stays a button until the hand is chosen).
        preset_decks: ``{side: card ids}`` given with ``--deck``, issued when the side first
            acts in setup.

    The annotations below are what it reads from the other parts.
    """

    _touch: Any
    issue: Any
    my_turn: Any
    say: Any
    shown_side: str
    state: GameState
    hand_pick: list[str]

    deck_page: Any = None
    deck_answered: set[str]
    preset_decks: dict[str, tuple[str, ...]]

    def _init_decks(self, decks: dict[str, tuple[str, ...]] | None) -> None:
        self.deck_page = None
        self.deck_answered = set()
        self.preset_decks = dict(decks or {})

    def deck_buildable(self) -> bool:
        """The person at the screen may build their Reserves deck now: setup, their turn, their
        hand not chosen, a point budget and neither a fixed deck nor a fixed hand (R4.3)."""
        st = self.state
        side = st.to_act
        if st.phase != Phase.SETUP or not self.my_turn() or side is None:
            return False
        ss = st.scenario.sides[side]
        return ss.budget is not None and not ss.reserves and not ss.hand and side not in st.done

    def deck_question(self) -> bool:
        """The Build deck / Keep the dealt deck question is open for the side to act."""
        return self.deck_buildable() and self.state.to_act not in self.deck_answered

    def deck_limits_text(self) -> tuple[int, int]:
        """``(least, most)`` points of a deck the side to act may build (:func:`deck_limits
        <hexwar.game.actions.build_deck.deck_limits>`)."""
        from ..game.actions.build_deck import deck_limits

        lo, hi, _ = deck_limits(self.state.scenario.sides[self.state.to_act or self.shown_side])
        return lo, hi

    def deck_line(self, side: str | None = None) -> str:
        """``"13 cards, 98 points"`` of ``side``'s (default the shown side's) Reserves deck."""
        cards = self.state.reserves[side or self.shown_side]
        return f"{len(cards)} cards, {sum(ruleset.cost(card_of(c)) for c in cards)} points"

    def open_deck(self) -> Any:
        """Build deck (D): open the deck builder page for the side to act, starting from its
        current Reserves deck (dealt or built). Returns the page, or ``None`` (not now)."""
        from ..lines.deckbuilder import DeckBuilder
        from .deck_builder import DeckPage

        if not self.deck_buildable():
            self.say("The Reserves deck is built in setup, before the starting hand (000).", error=True)
            return None
        side = self.state.to_act
        assert side is not None
        try:
            b = DeckBuilder.for_hex_side(
                self.state.scenario.sides[side], side, [card_of(c) for c in self.state.reserves[side]]
            )
        except HexwarError as exc:  # pragma: no cover - deck_buildable() checked the budget
            self.say(str(exc), error=True)
            return None
        self.deck_page = DeckPage(
            b,
            on_done=self._deck_done,
            on_back=self.close_deck,
            back_label="Cancel",
            done_label="Use this deck",
            confine=True,
        )
        self.deck_answered.add(side)
        self.say("")
        self._touch()
        return self.deck_page

    def close_deck(self) -> None:
        """Cancel / Esc on the page: back to the setup screen; the deck stays as it was."""
        if self.deck_page is None:
            return
        self.deck_page = None
        self.say(f"Your Reserves deck stays as it was ({self.deck_line()}): pick your starting hand.")
        self._touch()

    def _deck_done(self, builder: Any) -> None:
        """ "Use this deck": issue :class:`BuildDeck` with the page's cards; a refusal stays on
        the page with the game's reason (it cannot happen for a deck the page calls legal)."""
        side = self.state.to_act
        if side is None or self.deck_page is None:
            return
        if self.issue(BuildDeck(side, tuple(builder.cards))) is None:
            self.deck_page._say(f"refused: {getattr(self, 'message', '')}", ok=False)
            return
        self.deck_page = None  # the page's own count: a network seat's state follows the server later
        self.say(
            f"Your Reserves deck: {len(builder.cards)} cards, {builder.points} points. Now pick your starting hand."
        )
        self._touch()

    def keep_dealt_deck(self) -> None:
        """Keep the dealt deck (K): the question closes; the person picks the starting hand."""
        if not self.deck_question():
            return
        self.deck_answered.add(self.state.to_act)  # type: ignore[arg-type]
        self.say(f"You keep the dealt deck ({self.deck_line()}): pick your starting hand.")
        self._touch()

    def _preset_deck(self) -> list[Any] | None:
        """Issue the ``--deck`` deck of the side to act when it first acts in setup."""
        st = self.state
        side = st.to_act
        if st.phase != Phase.SETUP or side not in self.preset_decks or side in self.deck_answered:
            return None
        self.deck_answered.add(side)
        events = self.issue(BuildDeck(side, tuple(self.preset_decks[side])))
        if events is not None:
            self.say(
                f"Your deck file is your Reserves deck ({self.deck_line(side)}): pick your starting hand."
            )
        return events  # type: ignore[no-any-return]
