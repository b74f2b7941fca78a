"""The play screen's controller: clicks and keys in, the game's own commands out (issue 7).

:class:`PlayController` holds what the person is doing (the selected unit, the hand card
picked, the attack being prepared, the hex under the mouse) and turns it into the same
:mod:`hexwar.game.commands` the headless game uses. It holds **no rules of its own**: what
may be done comes only from :meth:`GameState.check <hexwar.game.state.GameState.check>`,
:meth:`GameState.legal_commands <hexwar.game.state.GameState.legal_commands>`,
:func:`hexwar.game.movement.unit_reach` and :func:`hexwar.game.targeting.legal_targets`; LOS
from :func:`hexwar.model.los.line_of_sight` (R3); the pre-attack odds from
:func:`hexwar.rules.odds.attack_odds` (R6). Every change goes through
:meth:`GameState.apply <hexwar.game.state.GameState.apply>`.

It also runs the computer's side(s) one command at a time at a watchable pace, driven by an
injectable clock (:mod:`hexwar.ui.clock`), animates moving counters hex by hex, keeps the
combat log (every roll, R1.2), the Damage cards drawn (R6.6) and the last artillery strike
with its drift (R9.3), hides the hand between hot-seat players, and autosaves through
:class:`hexwar.game.save.Autosaver`.

The responsibilities live in their own modules and the controller composes them (issue 34):
input mapping (keys and mouse -> intents) in :mod:`hexwar.ui.input_map`; command dispatch and
who is who here (:meth:`PlayController.issue`); selection and map intents (select, move, target,
artillery, Tab, undo, Esc) in :mod:`hexwar.ui.play_intents`; the hand (picking, committing,
playing and discarding cards) in :mod:`hexwar.ui.play_hand`; attack preparation, declaring,
resolving and bonus rolls in :mod:`hexwar.ui.play_attack` (the odds in
:mod:`hexwar.ui.play_views`); the buttons in :mod:`hexwar.ui.play_actions`; the prompt in
:mod:`hexwar.ui.play_prompts`; the computer's pacing in :mod:`hexwar.ui.play_computer` and
:mod:`hexwar.ui.pacing`; the log and status line in :mod:`hexwar.ui.play_log` and
:mod:`hexwar.ui.log_view`; autosave in :mod:`hexwar.ui.autosave`; derived-view caches in
:mod:`hexwar.ui.view_cache`; counter animation in :mod:`hexwar.ui.animation`.

No pyglet here: the window (:mod:`hexwar.ui.play_window`) only draws this object's state and
forwards input, so the controller is tested without a window too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game.commands import (
    SIDES,
    Command,
    IllegalCommand,
    Move,
)
from ..game.events import GameEvent
from ..game.state import GameState, Phase
from ..model.hexgrid import Hex
from .animation import MoveAnim
from .autosave import PlayAutosave
from .clock import Clock, Pace, RealClock
from .combat_feed import CombatFeed, FeedbackMixin
from .guidance import AutoEnds
from .log_view import LogLine, LogView, StrikeView
from .pacing import ComputerPacer
from .play_actions import Action, ActionsMixin
from .play_attack import AttackMixin
from .play_computer import ComputerTurnMixin
from .play_deck import DeckMixin
from .play_hand import HandMixin
from .play_intents import IntentsMixin
from .play_log import PlayLogMixin
from .play_prompts import PHASE_HINTS, PromptMixin
from .play_views import PendingAttack, PlayViewsMixin
from .view_cache import EpochCache

__all__ = [
    "Action",
    "LogLine",
    "MoveAnim",
    "PendingAttack",
    "PlayController",
    "StrikeView",
    "PHASE_TRACK",
    "PHASE_HINTS",
]

#: The phases shown on the phase track, in turn order (R5), with their short titles.
PHASE_TRACK = (
    (Phase.ARTILLERY, "Artillery"),
    (Phase.COMMITMENT, "Commit"),
    (Phase.MOVEMENT, "Move"),
    (Phase.DECLARATION, "Declare"),
    (Phase.RESOLUTION, "Resolve"),
    (Phase.DRAW, "Draw"),
)


class PlayController(
    FeedbackMixin,
    ActionsMixin,
    PromptMixin,
    HandMixin,
    IntentsMixin,
    AttackMixin,
    ComputerTurnMixin,
    PlayLogMixin,
    PlayViewsMixin,
    DeckMixin,
):
    """Drives one game from a person's input and the computer players (see module doc).

    Args:
        state: the game (a fresh :meth:`Scenario.new_game` or a loaded save).
        ai: computer players by side (``hexwar.game.ai.make_player(...)``); sides not in it
            are played by people (two people: hot-seat).
        saver: an :class:`~hexwar.game.save.Autosaver` (or ``None``): told after every command.
        clock: the time source for the computer's pace and animations (default the wall clock).
        pace: how long to linger after each computer action.
        fast: no pause to show each roll of an attack or mission (``hexwar play --fast``);
            a pace with no combat pause turns it off too (:mod:`hexwar.ui.combat_feed`).
        decks: ``{side: unit card ids}`` of decks given with ``hexwar play --deck``: issued as
            :class:`~hexwar.game.commands.BuildDeck` when the side first acts in setup
            (:mod:`hexwar.ui.play_deck`, 000 Standard Game Setup, R4.3).

    Attributes:
        selected: the selected unit's instance id.
        card: the hand card picked (a unit card to commit, a Command card to play or discard).
        hover: the hex under the mouse.
        pending: the attack being prepared (Declaration).
        hand_pick: cards picked for the starting hand (Setup).
        message: the last message for the status line; ``error`` tells if it was a refusal.
        log: every log line so far (rolls included).
        damage_cards: log lines of the Damage cards drawn, newest last (R6.6).
        strike: the last artillery strike (R9.3).
        last_attack: ``(attacker hex, target hex, side)`` of the attack resolved last.
        pass_to: in hot-seat, the side the screen waits for ("pass to the other player");
            the hand stays hidden until :meth:`confirm_pass`.
        shown_side: whose hand and view the screen shows.
        anim: the counter animation running, if any.
        version: bumped by every change of what the screen shows.
    """

    def __init__(
        self,
        state: GameState,
        ai: dict[str, Any] | None = None,
        saver: Any = None,
        clock: Clock | None = None,
        pace: Pace | None = None,
        fast: bool = False,
        decks: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.state = state
        self._init_decks(decks)
        self.ai: dict[str, Any] = dict(ai or {})
        self.humans = tuple(s for s in SIDES if s not in self.ai)
        self.clock: Clock = clock or RealClock()
        self.pace = pace or Pace()
        self.selected: str | None = None
        self.card: str | None = None
        self.hover: Hex | None = None
        self.pending: PendingAttack | None = None
        self.hand_pick: list[str] = []
        self.message = ""
        self.error = False
        self._msg_epoch = -1
        # keyboard play (issue 17 item 3): the hex cursor, the card cursor in the hand
        self.cursor: Hex | None = None
        self.card_cursor: int | None = None
        self.hover_card: str | None = None
        self.look_at: Hex | None = None
        # R1.3 bonus rolls being picked: (attack number, roll names picked)
        self.bonus: tuple[int, list[str]] | None = None
        self.crew_warned = False
        self.art_confirm: Hex | None = None  # own-unit hex warned about once (R9.4)
        self.aside_pick = False  # Draw: the picked Command card is meant to be set aside (R1.3)
        self.auto_ends = AutoEnds()
        # the parts with their own responsibility (each its own module)
        self.log_view = LogView()
        self.autosave = PlayAutosave(saver)
        self.pacer = ComputerPacer(self.ai, self.clock, self.pace)
        self.views = EpochCache(state)
        self.anim: MoveAnim | None = None
        self.feed = CombatFeed(step=0.0) if fast or self.pace.combat <= 0 else CombatFeed()
        self.version = 0
        self.shown_side: str = self.humans[0] if self.humans else (state.to_act or "german")
        self.pass_to: str | None = None
        self.max_turns: int | None = None
        self._record(list(state.log))
        self._check_pass()
        self.say("")
        self._preset_deck()

    @property
    def saver(self) -> Any:
        """The :class:`~hexwar.game.save.Autosaver` told after every command (or ``None``)."""
        return self.autosave.saver

    @saver.setter
    def saver(self, saver: Any) -> None:
        self.autosave.saver = saver

    @property
    def saved_final(self) -> bool:
        """The final save at the game's end was written."""
        return self.autosave.saved_final

    # -- who is who ---------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        """Two people share the screen (no computer side)."""
        return len(self.humans) == 2

    @property
    def side(self) -> str:
        """The side whose view and hand the screen shows now."""
        return self.shown_side

    def is_human(self, side: str | None) -> bool:
        """True when ``side`` is played by a person."""
        return side is not None and side not in self.ai

    @property
    def stopped(self) -> bool:
        """True once the turn cap (``hexwar play --turns N``) is passed: nobody acts any more."""
        return self.max_turns is not None and self.state.turn > self.max_turns

    def my_turn(self) -> bool:
        """True when the person looking at the screen must act now (and no handover is due)."""
        st = self.state
        return (
            not st.over
            and not self.stopped
            and self.is_human(st.to_act)
            and st.to_act == self.shown_side
            and self.pass_to is None
        )

    def hand_visible(self) -> bool:
        """The shown side's hand may be seen (never while the hot-seat handover screen is up)."""
        return self.pass_to is None and self.is_human(self.shown_side)

    # -- derived views (cached per game epoch) ---------------------------------------------------
    def _epoch(self) -> tuple[int, int]:
        return self.views.epoch()

    def _cached(self, key: Any, make: Callable[[], Any]) -> Any:
        return self.views.get(key, make)

    # -- applying commands ------------------------------------------------------------------------
    def issue(self, cmd: Command) -> list[GameEvent] | None:
        """Apply ``cmd`` if the rules allow it (``state.check`` first); returns its events, or
        ``None`` with the reason on the status line when it is refused. Never raises."""
        why = self.state.check(cmd)
        if why is not None:
            self.say(why, error=True)
            return None
        self.aside_pick = False
        try:
            return self._apply(cmd)
        except IllegalCommand as exc:  # pragma: no cover - check() runs the same checks
            self.say(exc.reason, error=True)
            return None

    def _apply(self, cmd: Command) -> list[GameEvent]:
        st = self.state
        start = None
        if isinstance(cmd, Move) and cmd.unit in st.units:
            start = st.units[cmd.unit].hex
        events = st.apply(cmd)
        self._record(events)
        self.feed_after(cmd, events)
        if isinstance(cmd, Move) and start is not None and cmd.path:
            self.anim = MoveAnim(cmd.unit, (start, *cmd.path), self.clock.now(), self.pace.hex_step)
        for problem in self.autosave.after(st, events):
            self.say(problem, error=True)
        # what the person had picked may be gone now
        if self.selected is not None and self.selected not in st.units:
            self.selected = None
        if (
            self.card is not None
            and self.card not in st.hand_units[self.shown_side] + st.hand_commands[self.shown_side]
        ):
            self.card = None
        self.pending = None
        self.bonus = None
        self.hand_pick = [c for c in self.hand_pick if c in st.reserves.get(self.shown_side, [])]
        self._check_pass()
        if self.last_auto:  # said as such, not as if the player had ended the phase (item 5)
            self.say(self._auto_text())
        self._touch()
        self._preset_deck()  # a --deck deck, once its side acts in setup (R4.3)
        return events

    def _check_pass(self) -> None:
        st = self.state
        if st.over or st.to_act is None or not self.is_human(st.to_act):
            return
        if st.to_act != self.shown_side:
            self.deck_page = None  # the page is the side's own: never left for the other player
            if self.hot_seat:
                self.pass_to = st.to_act
            else:
                self.shown_side = st.to_act
            self.selected = None
            self.card = None
            self.pending = None
            self.hand_pick = []

    def confirm_pass(self) -> None:
        """Hot-seat: the other player has the screen now; show their hand."""
        if self.pass_to is not None:
            self.shown_side = self.pass_to
            self.pass_to = None
            self.say("")  # the prompt says what this player can do now
