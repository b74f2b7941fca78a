"""The hand on the play screen (issue 34 split of :mod:`hexwar.ui.controller`): picking hand
cards by click or card cursor, the starting hand (000 setup), committing units (R5.2), playing
Command cards (R4), discarding to the hand limits and the card set aside with a draw (R5.5, R1.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import ruleset
from ..game.commands import ChooseHand, Command, Commit, Discard, Draw, Recrew, UseCommandCard
from ..game.state import GameState, Phase, card_of
from ..model.hexgrid import Hex
from .guidance import crew_need, crewless, plain_reason
from .play_views import PendingAttack

__all__ = ["HandMixin"]


class HandMixin:
    """The hand part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _refuse_not_mine: Any
    _touch: Any
    _with_instance: Any
    aside_pick: bool
    card: str | None
    card_commands: Any
    card_cursor: int | None
    card_unit_targets: Callable[[], list[str]]
    crew_warned: bool
    cursor: Hex | None
    deck_answered: set[str]
    deck_question: Any
    deploy_hexes: Any
    hand: Any
    hand_pick: list[str]
    hand_visible: Any
    hover_card: str | None
    issue: Any
    legal: Any
    my_turn: Any
    pending: PendingAttack | None
    say: Any
    selected: str | None
    set_cursor: Any
    shown_side: str
    state: GameState
    units_at: Any

    def pick_card(self, card: str) -> None:
        """Click on a hand card: pick it (Setup: add to / remove from the starting hand)."""
        st = self.state
        if not self.hand_visible():
            return
        if st.phase == Phase.SETUP:
            if self.deck_question():  # picking a card from the dealt deck keeps it (R4.3)
                self.deck_answered.add(self.shown_side)
            self.crew_warned = False
            if card in self.hand_pick:
                self.hand_pick.remove(card)
            elif self.my_turn():
                want = min(st.scenario.sides[self.shown_side].hand_size, len(st.reserves[self.shown_side]))
                if len(self.hand_pick) < want:
                    self.hand_pick.append(card)
                else:
                    self.say(f"You keep {want} cards; remove one first.", error=True)
                    return
            self.say("")  # the prompt shows the count and what is still missing
            return
        self.card = None if self.card == card else card
        self.pending = None
        if self.card is not None:
            # the hex cursor goes into the deploy zone, so G / Enter commits without walking
            # there from the middle of the map (newuser3: G said "move the hex cursor first")
            dep = self.deploy_hexes()
            if dep and (self.cursor is None or self.cursor not in dep):
                m = st.battlemap  # the deploy hex nearest the cursor, else the map's middle
                ref = self.cursor or Hex.from_offset(m.width // 2, m.height // 2)
                self.set_cursor(
                    min(dep, key=lambda h: (h.distance(ref), abs(h.offset[1] - ref.offset[1]), h.q, h.r))
                )
            on = self.card_unit_targets()  # a Command card for a unit: the cursor on one (newuser3)
            if on and not dep:
                at = [u for u in self.units_at(self.cursor) if u in on] if self.cursor is not None else []
                if not at:
                    uid = self.selected if self.selected in on else on[0]
                    h = st.units[uid].hex
                    if h is not None:
                        self.set_cursor(h)
            self.say(self._card_hint(self.card))
        self._touch()

    def commit_at_cursor(self) -> None:
        """Enter with a unit card picked: commit it into the deploy hex under the cursor (R5.2)."""
        h = self.cursor
        if self.card is None or h is None:
            return
        for c in self.card_commands():
            if isinstance(c, Commit) and c.hex == h:
                self.issue(self._with_instance(c, self.card))
                return
        self.say(f"{self.state.hex_label(h)} is not a deploy hex for this card (R5.2).", error=True)

    def card_target_at_cursor(self) -> str | None:
        """The unit under the hex cursor the picked Command (or crew) card may be played on."""
        if self.card is None or self.cursor is None:
            return None
        on = self.card_unit_targets()
        return next((u for u in self.units_at(self.cursor) if u in on), None)

    def play_at_cursor(self) -> None:
        """Enter with a Command card picked: play it on the unit under the cursor (R4.2-R4.3, its card effect)."""
        uid = self.card_target_at_cursor()
        if uid is None or self.card is None:
            return
        for c in self.card_commands():
            if isinstance(c, UseCommandCard | Recrew) and c.unit == uid:
                self.issue(self._with_instance(c, self.card))
                return

    def _card_hint(self, card: str) -> str:
        cmds = self.card_commands(card)
        name = ruleset.card_name(card)
        if any(isinstance(c, Commit) and c.hex is not None for c in cmds):
            return (
                f"{name}: click a highlighted deploy hex, or move the cursor there (arrows) and press "
                "G or Enter, to commit it (R5.2)."
            )
        if any(isinstance(c, Commit) for c in cmds):
            return f"{name}: press Commit aloft (Enter) to send it aloft (R5.2)."
        if any(isinstance(c, UseCommandCard | Recrew) and c.unit is not None for c in cmds):
            return f"{name}: click a highlighted unit, or put the cursor on one (arrows) and press G or Enter, to play it there."
        if any(isinstance(c, UseCommandCard) for c in cmds):
            return f"{name}: press Play to use it now."
        if any(isinstance(c, Discard) for c in cmds):
            return f"{name}: press Discard (Delete) to bring your hand down to the limit (R5.5)."
        st = self.state
        if (
            st.phase == Phase.DRAW
            and card in st.hand_commands[self.shown_side]
            and any(isinstance(c, Draw) and (c.initiative_card or c.fire_cards) for c in self.legal())
        ):
            return (
                f"{name} picked: Enter (the Draw button with +1 initiative) draws and sets it aside "
                "for +1 on your next initiative roll (R1.3); [ ] and C pick another."
            )
        return f"{name} cannot be used now: {self.card_refusal(card)}"

    def card_refusal(self, card: str) -> str:
        """Why hand card ``card`` has no legal command now, in the rules code's own words
        (``"StuG III G needs a tank crew card from your hand (R5.2)"``), not just the phase."""
        st = self.state
        side = st.to_act or self.shown_side
        cid = card_of(card)
        name = ruleset.card_name(cid)
        if cid in ruleset.cards().units:
            if st.phase != Phase.COMMITMENT:
                return (
                    f"unit cards are committed in the Commitment phase (R5.2); this is the {st.phase} phase."
                )
            deploy = st.scenario.sides[side].deploy
            h = (
                None
                if ruleset.is_aircraft(cid)
                else next(iter(sorted(deploy, key=lambda x: (x.q, x.r))), None)
            )
            why = st.check(Commit(side, card, h))
            if why is None:  # the card itself may go in: every deploy hex is taken or unfit
                return f"no hex of your deploy zone can take {name} now (R5.2)."
            return plain_reason(why) + ("" if why.endswith(".") else ".")
        why = st.check(UseCommandCard(side, card))
        if why is None:
            return "it needs a unit to be played on, and none fits now."
        return plain_reason(why) + ("" if why.endswith(".") else ".")

    def confirm_hand(self) -> None:
        """Setup: keep the picked cards as the starting hand (000 setup)."""
        if self._refuse_not_mine():
            return
        lacking = crewless(self.hand_pick)
        if lacking and not self.crew_warned:  # warn once before keeping a hand that cannot fight (item 2)
            self.crew_warned = True
            names = ", ".join(f"{ruleset.card_name(c)} needs {crew_need(c)}" for c in lacking)
            self.say(
                f"Careful: {names}, and your hand has none for it. Pick one, or press Keep anyway.",
                error=True,
            )
            return
        self.issue(ChooseHand(self.shown_side, tuple(self.hand_pick)))

    def card_action(self, kind: type[Command]) -> None:
        """Use the picked card with the first legal command of type ``kind`` (Commit aloft,
        Play a Command card with no unit, Discard)."""
        if self._refuse_not_mine() or self.card is None:
            return
        for c in self.card_commands():
            if (
                isinstance(c, kind)
                and not (isinstance(c, Commit) and c.hex is not None)
                and not (isinstance(c, UseCommandCard) and c.unit is not None)
            ):
                self.issue(self._with_instance(c, self.card))
                return
        self.say(f"{ruleset.card_name(self.card)}: not possible now.", error=True)

    def committable(self) -> list[str]:
        """Hand cards some legal Commit uses now (R5.2), in hand order, one per card id."""
        ids = {card_of(c.unit) for c in self.legal() if isinstance(c, Commit)}
        out, seen = [], set()
        for c in self.state.hand_units[self.shown_side]:
            if card_of(c) in ids and card_of(c) not in seen:
                seen.add(card_of(c))
                out.append(c)
        return out

    def hand_cards(self) -> list[str]:
        """The cards of the hand row in screen order: units, then Command cards."""
        units, commands = self.hand()
        return units + commands

    def move_card_cursor(self, step: int) -> None:
        """[ and ]: move the card cursor through the hand; the card is shown in full."""
        cards = self.hand_cards()
        if not cards or not self.hand_visible():
            return
        i = -1 if self.card_cursor is None else self.card_cursor
        i = (i + step) % len(cards) if self.card_cursor is not None or step > 0 else len(cards) - 1
        self.card_cursor = i
        self.hover_card = cards[i]
        self.say(
            f"Card {i + 1}/{len(cards)}: {ruleset.card_name(cards[i])}"
            + (f" (needs {crew_need(cards[i])})" if crew_need(cards[i]) else "")
            + ". C picks it."
        )

    def pick_at_card_cursor(self) -> None:
        """C: pick the card under the card cursor, as a click on it would."""
        cards = self.hand_cards()
        if self.card_cursor is None or not cards:
            self.move_card_cursor(1)
            cards = self.hand_cards()
            if self.card_cursor is None:
                return
        card = cards[min(self.card_cursor, len(cards) - 1)]
        self.pick_card(card)
        self._next_unpicked(card)

    def _next_unpicked(self, card: str) -> None:
        """Setup: after ``card`` joined the starting hand, the card cursor goes on to the next
        card not picked, so C picks card after card as the "Pick next card (C)" button says
        (newuser3: C toggled the same card on and off)."""
        if self.state.phase != Phase.SETUP or card not in self.hand_pick:
            return
        cards = self.hand_cards()
        i = cards.index(card) if card in cards else -1
        nxt = next((c for c in cards[i + 1 :] + cards[: i + 1] if c not in self.hand_pick), None)
        if nxt is not None:
            self._cursor_to(nxt)

    def _cursor_to(self, card: str) -> None:
        cards = self.hand_cards()
        if card in cards:
            self.card_cursor = cards.index(card)
            self.hover_card = card

    def pick_next_reserve(self) -> None:
        """Setup: add the card under the card cursor (or the first one not picked) to the hand."""
        cards = self.hand_cards()
        if (
            self.card_cursor is not None
            and self.card_cursor < len(cards)
            and cards[self.card_cursor] not in self.hand_pick
        ):
            card = cards[self.card_cursor]
            self.pick_card(card)
            self._next_unpicked(card)
            return
        for c in cards:
            if c not in self.hand_pick:
                self._cursor_to(c)
                self.pick_card(c)
                self._next_unpicked(c)
                return

    def pick_next_commit(self) -> None:
        """Pick the next hand card that can be committed now (its deploy hexes light up)."""
        cards = self.committable()
        if not cards:
            return
        nxt = cards[(cards.index(self.card) + 1) % len(cards)] if self.card in cards else cards[0]
        self._cursor_to(nxt)
        self.card = None
        self.pick_card(nxt)

    def pick_aside_card(self) -> None:
        """Draw phase: pick a Command card to set aside with the draw (R1.3, +1 on the next
        initiative roll); the player may pick another with [ ] and C before drawing."""
        cmds = self.state.hand_commands[self.shown_side]
        if not cmds:
            return
        card = cmds[0]
        self._cursor_to(card)
        self.card = None
        self.pick_card(card)
        self.aside_pick = True
        self.say(
            f"{ruleset.card_name(card)} picked to set aside for +1 initiative (R1.3): [ ] and C (or a "
            "click) pick another Command card; then Enter draws with it."
        )

    def pick_next_discard(self) -> None:
        """Draw phase over the hand limit: pick the next card that may be discarded (R5.5)."""
        ids = [card_of(c.card) for c in self.legal() if isinstance(c, Discard)]
        cards = [c for c in self.hand_cards() if card_of(c) in ids]
        if not cards:
            return
        nxt = cards[(cards.index(self.card) + 1) % len(cards)] if self.card in cards else cards[0]
        self._cursor_to(nxt)
        self.card = None
        self.pick_card(nxt)
