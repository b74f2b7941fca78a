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

The responsibilities live in their own modules and the controller composes them:
input mapping (keys and mouse -> intents) in :mod:`hexwar.ui.input_map`, command dispatch
here (:meth:`PlayController.issue`), computer pacing in :mod:`hexwar.ui.pacing`, the log view
in :mod:`hexwar.ui.log_view`, autosave in :mod:`hexwar.ui.autosave`, derived-view caches in
:mod:`hexwar.ui.view_cache`, counter animation in :mod:`hexwar.ui.animation`.

No pyglet here: the window (:mod:`hexwar.ui.play_window`) only draws this object's state and
forwards input, so the controller is tested without a window too.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import movement, ruleset, targeting
from ..game.commands import (
    SIDES,
    ChooseHand,
    Command,
    Commit,
    Declare,
    DeclareBuildingAttack,
    DeclareCloseAssault,
    Discard,
    Draw,
    DropTow,
    EndPhase,
    IllegalCommand,
    Move,
    Recrew,
    Resolve,
    TargetArtillery,
    Tow,
    Undo,
    UseCommandCard,
)
from ..game.events import GameEvent
from ..game.state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS, GameState, Phase, card_of
from ..game.view import seat_events
from ..model.hexgrid import Hex
from ..render.gamescene import short_name
from .animation import MoveAnim
from .autosave import PlayAutosave
from .clock import Clock, Pace, RealClock
from .guidance import END_PHASE_EFFECT, AutoEnds, crew_need, crewless, plain_reason, roll_label
from .log_view import LogLine, LogView, StrikeView
from .pacing import ComputerPacer, describe_command
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

#: One line of help per phase for the person to act (shown above the hand).
PHASE_HINTS = {
    Phase.SETUP: "Choose your starting hand: click cards in your Reserves, then Keep hand.",
    Phase.ARTILLERY: "Off-board artillery (R9): click a hex your units can see to call a mission, or end the phase.",
    Phase.COMMITMENT: "Commitment (R5.2): pick a unit card in your hand, then a highlighted deploy hex.",
    Phase.MOVEMENT: "Movement (R5.3): select a unit, then click a blue hex (numbers: MP spent).",
    Phase.DECLARATION: "Declaration (R6.1): select a unit, then a red-ringed target; check the odds and declare.",
    Phase.RESOLUTION: "Resolution (R6.2): resolve your declared attacks (R or the buttons), alternating.",
    Phase.DRAW: "Draw (R5.5): choose where the extra cards come from, then discard down to the hand limits.",
    Phase.OVER: "The game is over.",
}


@dataclass(frozen=True)
class Action:
    """A button the panels show for the current situation.

    Attributes:
        label: the button text.
        run: what pressing it does (a controller method bound to its arguments).
        key: the keyboard shortcut shown with it (``"Enter"``), or ``""``.
        enabled: whether it may be pressed now.
        tip: a longer explanation (hover).
        primary: drawn highlighted (the expected next step).
    """

    label: str
    run: Callable[[], Any]
    key: str = ""
    enabled: bool = True
    tip: str = ""
    primary: bool = False


class PlayController(PlayViewsMixin):
    """Drives one game from a person's input and the computer players (see module doc).

    Args:
        state: the game (a fresh :meth:`Scenario.new_game` or a loaded save).
        ai: computer players by side (``hexwar.game.ai.make_player(...)``); sides not in it
            are played by people (two people: hot-seat).
        saver: an :class:`~hexwar.game.save.Autosaver` (or ``None``): told after every command.
        clock: the time source for the computer's pace and animations (default the wall clock).
        pace: how long to linger after each computer action.

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
    ) -> None:
        self.state = state
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
        self.version = 0
        self.shown_side: str = self.humans[0] if self.humans else (state.to_act or "german")
        self.pass_to: str | None = None
        self.max_turns: int | None = None
        self._record(list(state.log))
        self._check_pass()
        self.say("")

    # -- the parts, under the names the screen reads --------------------------------------------
    @property
    def log(self) -> list[LogLine]:
        """Every log line so far (rolls included): :attr:`LogView.log`."""
        return self.log_view.log

    @property
    def damage_cards(self) -> list[LogLine]:
        """Damage cards drawn, newest last (R6.6)."""
        return self.log_view.damage_cards

    @property
    def strike(self) -> StrikeView | None:
        """The last artillery strike (R9.3)."""
        return self.log_view.strike

    @property
    def last_attack(self) -> tuple[Hex, Hex, str] | None:
        """``(attacker hex, target hex, side)`` of the attack resolved last."""
        return self.log_view.last_attack

    @property
    def next_ai_at(self) -> float:
        """Clock time the computer's next command is due."""
        return self.pacer.next_at

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

    def _record(self, events: Any) -> None:
        evs = list(events)
        st = self.state
        if len(self.humans) == 1 and evs and st.log and evs[-1] is st.log[-1]:
            evs = seat_events(st, evs, self.humans[0])  # R12.1, R12.2: the person's side's view
        # phases the turn sequence ended for a side with nothing to do, announced as such (item 5)
        # (the person's sides only: the computer's passes would drown the log), each in its place:
        # before the event that closed the phase, not after the whole batch (newuser2)
        if any(e.kind in ("phase", "begin_turn") for e in evs):  # a new phase: the hand card cursor
            self.card_cursor = None  # and the card it showed give the side panel back (newuser2)
            self.hover_card = None
        self.last_auto = []
        chunk: list[Any] = []
        for e in evs:
            autos = [a for a in self.auto_ends.feed([e]) if self.is_human(a.side)]
            if autos:
                if chunk:
                    self.log_view.record(chunk, st)
                    chunk = []
                self._log_auto_ends(autos)
                self.last_auto += autos
            chunk.append(e)
        if chunk:
            self.log_view.record(chunk, st)

    def _log_auto_ends(self, autos: list[Any]) -> None:
        runs: dict[tuple[int, str], list[str]] = {}
        for a in autos:
            runs.setdefault((a.turn, a.side), []).append(a.phase)
        for (turn, side), phases in runs.items():
            names = ", ".join(dict.fromkeys(phases))
            self.log_view.log.append(
                LogLine(
                    f"{side.capitalize()}: {names} phase{'s' if len(set(phases)) > 1 else ''} "
                    "ended automatically (nothing to do)",
                    "auto_end",
                    turn,
                )
            )

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

    # -- messages ------------------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` on the status line (``error``: a refusal, drawn in red) until the game
        moves on: the next command makes it stale (:meth:`status`)."""
        self.message = text
        self.error = error
        self._msg_epoch = len(self.state.commands)
        self.version += 1

    def _auto_text(self) -> str:
        """The status line for the phases just ended automatically for the person's sides."""
        if not self.last_auto:
            return ""
        sides = dict.fromkeys(a.side for a in self.last_auto)
        parts = []
        for side in sides:
            phases = ", ".join(dict.fromkeys(a.phase for a in self.last_auto if a.side == side))
            parts.append(f"{side.capitalize()}: {phases} ended automatically (nothing to do)")
        return "; ".join(parts) + ". " + self.prompt()

    def status(self) -> tuple[str, bool]:
        """``(text, error)`` of the status line: the last message while no command was applied
        since it was said, else what to do now (:meth:`prompt`); stale lines never stay (item 5)."""
        if self.message and self._msg_epoch == len(self.state.commands):
            return self.message, self.error
        return self.prompt(), False

    def _touch(self) -> None:
        self.version += 1

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
        return events

    def _check_pass(self) -> None:
        st = self.state
        if st.over or st.to_act is None or not self.is_human(st.to_act):
            return
        if st.to_act != self.shown_side:
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

    # -- the computer's turn ------------------------------------------------------------------------
    def computer_to_act(self) -> bool:
        """True when a computer player must act now."""
        return self.pacer.to_act(self.state, self.stopped)

    def busy(self) -> bool:
        """True while a counter animation is still running."""
        if self.anim is not None and self.anim.hex_at(self.clock.now()) is None:
            self.anim = None
            self._touch()
        return self.anim is not None

    def update(self) -> bool:
        """Advance animations and, when due, apply the computer's next command.

        Called by the window's timer (and by tests after moving the clock on). Applies at most
        one computer command per call, so its moves are shown step by step.

        Returns:
            True when something on screen changed.
        """
        v0 = self.version
        if self.busy():
            return True  # the animation itself changes the screen
        if self.pacer.due(self.state, self.stopped):
            self.step_computer()
        return self.version != v0

    def step_computer(self) -> list[GameEvent] | None:
        """Apply one command of the computer side to act (its player chooses it)."""
        side = self.state.to_act
        cmd = self.pacer.choose(self.state)
        if cmd is None or side is None:
            return None
        where = (self.state.turn, self.state.phase)
        events = self.issue(cmd)
        self.pacer.acted(cmd)
        if events is not None and not self.error:
            text = f"{side.capitalize()} (computer): {describe_command(self.state, cmd)}"
            if self.my_turn() and (self.state.turn, self.state.phase) != where:
                # the person's new phase starts: its prompt, not the computer's last words (item 5)
                self.say(self._auto_text())
            elif not (self.message and self._msg_epoch == len(self.state.commands)):
                self.say(text)
        return events

    # -- a person's input ------------------------------------------------------------------------------
    def _refuse_not_mine(self) -> bool:
        st = self.state
        if st.over:
            self.say(f"The game is over: {st.result}", error=True)
            return True
        if self.stopped:
            self.say(f"Stopped after turn {self.max_turns} (--turns).", error=True)
            return True
        if self.pass_to is not None:
            self.say(f"Pass the screen to the {self.pass_to} player first.", error=True)
            return True
        if not self.my_turn():
            who = st.to_act or "nobody"
            self.say(f"Wait: it is the {who}'s turn ({st.phase} phase).", error=True)
            return True
        return False

    def set_hover(self, h: Hex | None) -> None:
        """The mouse is over hex ``h`` (``None``: off the map)."""
        if h != self.hover:
            self.hover = h
            self._touch()

    def select(self, uid: str | None) -> None:
        """Select a unit (any side: its card is shown; your own can then act)."""
        self.selected = uid
        self.pending = None
        if uid is not None:
            u = self.state.units.get(uid)
            if u is not None:
                where = "aloft" if u.aloft else f"in {self.state.hex_label(u.hex)}"
                self.say(f"{ruleset.card_name(u.card)} ({u.side}) {where} selected.")
        self._touch()

    def click_hex(self, h: Hex | None, alternate: bool = False) -> None:
        """A click on hex ``h``: what it means depends on the phase and what is picked.

        ``alternate`` (right click) only selects, cycling through a stack.
        """
        st = self.state
        if h is None:
            return
        units = self.units_at(h)
        if alternate:
            self._select_cycle(units)
            return
        if self.pass_to is not None or st.over or not self.my_turn():
            self._select_cycle(units)
            return
        side = st.to_act
        assert side is not None
        # a picked hand card first: commit into a deploy hex / play on a unit
        if self.card is not None:
            for c in self.card_commands():
                if isinstance(c, Commit) and c.hex == h:
                    self.issue(self._with_instance(c, self.card))
                    return
                if isinstance(c, UseCommandCard | Recrew) and c.unit in units:
                    self.issue(self._with_instance(c, self.card))
                    return
            if not units and self.deploy_hexes():  # newuser3: a click beside the zone did nothing
                self.say(
                    f"{st.hex_label(h)} is not a deploy hex of {ruleset.card_name(self.card)}: pick a "
                    "highlighted hex (R5.2).",
                    error=True,
                )
                return
        if st.phase == Phase.ARTILLERY:
            why = self.artillery_ok(h)
            warn = self.artillery_warning(h) if why is None else None
            if warn is not None and self.art_confirm != h:  # newuser3: asked once, never silently
                self.art_confirm = h
                self.say(f"{warn}. G or a click again calls it anyway.", error=True)
                return
            if why is None:
                self.art_confirm = None
                self.issue(TargetArtillery(side, h))
                return
            if not units:
                self.say(why, error=True)
                return
        elif st.phase == Phase.MOVEMENT and self.selected is not None:
            reach = self.reach_costs()
            if h in reach:
                r = movement.unit_reach(st, self.selected)
                if r is not None:
                    self.issue(Move(side, self.selected, r.path(h)))
                    return
        elif st.phase == Phase.DECLARATION and self.selected is not None:
            tg = [t for t in self.targets() if st.units[t[0]].hex == h]
            if tg:
                if self.pending is not None and self.pending.target in [t[0] for t in tg]:
                    # a second click on the prepared target: cycle crew / unit, or declare
                    same = [t for t in tg if t[0] == self.pending.target and t[1] != self.pending.at_crew]
                    if same:
                        self._prepare(same[0])
                        return
                    self.declare()
                    return
                self._prepare(tg[0])
                return
        self._select_cycle(units)

    def _select_cycle(self, units: list[str]) -> None:
        if not units:
            if self.selected is not None or self.pending is not None:
                self.selected = None
                self.pending = None
                self._touch()
            return
        if self.selected in units:
            i = units.index(self.selected)
            self.select(units[(i + 1) % len(units)] if len(units) > 1 else units[i])
        else:
            self.select(units[0])

    def _prepare(self, target: tuple[str, bool, tuple[int, ...]]) -> None:
        tid, at_crew, ok = target
        assert self.selected is not None
        ws = tuple(ok[:2])
        bombs = {w for w in ok if ruleset.weapons(self.state.units[self.selected].card)[w].bomb}
        if bombs and len(ok) > 1:
            ws = tuple(w for w in ok if w not in bombs)[:2] or ws
        self.pending = PendingAttack(self.selected, tid, at_crew, tuple(ok), ws)
        crew = " (its crew, R7.5)" if at_crew else ""
        self.say(
            f"Target: {ruleset.card_name(tid)}{crew}. Check the odds, then Declare (Enter or click it again)."
        )
        self._touch()

    def toggle_weapon(self, index: int) -> None:
        """Add or remove weapon ``index`` (card order) of the prepared attack (max two, R6.1)."""
        p = self.pending
        if p is None or index not in p.options:
            return
        ws = list(p.weapons)
        if index in ws:
            if len(ws) > 1:
                ws.remove(index)
        else:
            ws.append(index)
            if len(ws) > targeting.MAX_WEAPONS:
                ws.pop(0)
        p.weapons = tuple(sorted(ws))
        self._touch()

    def declare(self) -> None:
        """Declare the prepared attack (R6.1)."""
        if self._refuse_not_mine():
            return
        if self.pending is None:
            self.say("Select one of your units, then click a target ringed in red.", error=True)
            return
        side = self.state.to_act
        assert side is not None
        attacker = self.pending.attacker
        if self.issue(self.pending.command(side)) is not None:
            self.selected = attacker

    def pick_card(self, card: str) -> None:
        """Click on a hand card: pick it (Setup: add to / remove from the starting hand)."""
        st = self.state
        if not self.hand_visible():
            return
        if st.phase == Phase.SETUP:
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

    def end_phase(self) -> None:
        """End the phase (or step) for the shown side (``EndPhase``)."""
        if self._refuse_not_mine():
            return
        side = self.state.to_act
        assert side is not None
        why = self.state.check(EndPhase(side))
        if why is not None:  # newuser3: a bare "draw first (R5.5)" after the phase had moved on
            reason = plain_reason(why).rstrip(".")
            self.say(f"End phase: not yet, {reason}. {self.prompt()}", error=True)
            return
        if self.issue(EndPhase(side)) is not None:
            self.selected = None
            if not (self.message and self._msg_epoch == len(self.state.commands)):  # auto ends said already
                self.say("" if self.my_turn() else f"{side.capitalize()} ends the phase.")

    def resolve(self, number: int | None = None, bonus_rolls: tuple[str, ...] = ()) -> None:
        """Resolve one of the side's declared attacks (R6.2); default the lowest numbered.

        ``bonus_rolls``: R1.3, roll names of the attack (``"to_hit:1"``, ``"intensity:0"``,
        ``"assault_dice"``; :func:`hexwar.game.actions.resolve.bonus_rolls`) that each get a
        Command card from the hand (the first ones in hand order)."""
        if self._refuse_not_mine():
            return
        side = self.state.to_act
        assert side is not None
        if number is None:
            mine = [n for n, a in sorted(self.state.attacks.items()) if a.side == side and not a.resolved]
            if not mine:
                self.say("You have no attack left to resolve.", error=True)
                return
            number = mine[0]
        cards = tuple(self.state.hand_commands[side][: len(bonus_rolls)])
        self.issue(
            Resolve(side, number, bonus_rolls=tuple(bonus_rolls), bonus_cards=cards)
            if bonus_rolls
            else Resolve(side, number)
        )

    def inspect_text(self, h: Hex | None = None) -> str:
        """The hex ``h`` (default the hovered one) in plain text, with LOS from the selected
        unit and its reason (:func:`hexwar.game.inspect.inspect_hex`); ``""`` off the map."""
        from ..game.inspect import inspect_hex

        h = self.hover if h is None else h
        st = self.state
        if h is None or not st.battlemap.in_bounds(h):
            return ""
        u = st.units.get(self.selected) if self.selected else None
        viewer = u.hex if u is not None else None
        name = (
            f"{ruleset.card_name(u.card)} in {st.hex_label(u.hex)}"
            if u is not None and u.hex is not None
            else ""
        )
        return inspect_hex(st, h, viewer, name)

    def can_undo(self) -> bool:
        """True when the side to act may take back its last Commit, Move or Declare (R12.3)."""
        st = self.state
        return self.my_turn() and st.to_act is not None and st.check(Undo(st.to_act)) is None

    def undo(self) -> None:
        """Ctrl+Z: take back the side's last Commit, Move or Declare of this phase (R12.3);
        refused with the rules' reason once a die was rolled or a card revealed."""
        if self._refuse_not_mine():
            return
        side = self.state.to_act
        assert side is not None
        undone = self.state.undo_points[-1].command if self.state.undo_points else None
        if self.issue(Undo(side)) is not None:
            self.anim = None
            self.selected = getattr(undone, "unit", None) or getattr(undone, "attacker", None)
            if self.selected not in self.state.units:
                self.selected = None
            self.say(
                f"Taken back: {describe_command(self.state, undone) if undone is not None else 'last command'} (R12.3)."
            )

    def cancel(self) -> None:
        """Esc: drop the bonus-roll choice, the prepared attack, then the picked card, then the
        selection."""
        if self.bonus is not None:
            self.bonus = None
        elif self.pending is not None:
            self.pending = None
        elif self.card is not None:
            self.card = None
            self.aside_pick = False
        else:
            self.selected = None
        self._touch()

    # -- the buttons for now -------------------------------------------------------------------
    def actions(self) -> list[Action]:
        """The buttons that make sense now, from the legal commands (never invented): every
        phase offers a button for each thing the player can do next (item 1)."""
        st = self.state
        out: list[Action] = []
        if st.over or not self.my_turn():
            return out
        legal = self.legal()
        side = st.to_act
        assert side is not None
        if st.phase == Phase.SETUP:
            want = min(st.scenario.sides[side].hand_size, len(st.reserves[side]))
            ready = len(self.hand_pick) == want
            label = "Keep anyway" if self.crew_warned else f"Keep hand ({len(self.hand_pick)}/{want})"
            out.append(
                Action(
                    label,
                    self.confirm_hand,
                    "Enter",
                    enabled=ready,
                    primary=ready,
                    tip="Keep the picked cards as your starting hand (000 setup)",
                )
            )
            if not ready:
                out.append(
                    Action(
                        "Pick next card",
                        self.pick_next_reserve,
                        "C",
                        tip="Add the card under the card cursor ([ ]) to your hand",
                    )
                )
            return out
        if self.bonus is not None:
            return self._bonus_actions(side)
        if self.pending is not None:
            out.append(
                Action(
                    "Declare attack",
                    self.declare,
                    "Enter",
                    primary=True,
                    tip="Declare this attack with the chosen weapons (R6.1)",
                )
            )
            out.append(Action("Cancel", self.cancel, "Esc"))
        if self.card is not None:
            cmds = self.card_commands()
            cur = self.cursor
            if cur is not None and any(isinstance(c, Commit) and c.hex == cur for c in cmds):
                out.append(
                    Action(
                        f"Commit in {st.hex_label(cur)}",
                        self.commit_at_cursor,
                        "Enter",
                        primary=True,
                        tip="Commit the picked unit card into the deploy hex under the cursor (R5.2)",
                    )
                )
            tgt = self.card_target_at_cursor()
            if tgt is not None:
                out.append(
                    Action(
                        f"Play on {short_name(ruleset.card_name(st.units[tgt].card))}",
                        self.play_at_cursor,
                        "Enter",
                        primary=True,
                        tip=f"Play {ruleset.card_name(self.card)} on the unit under the cursor",
                    )
                )
            if any(isinstance(c, Commit) and c.hex is None for c in cmds):
                out.append(Action("Commit aloft", lambda: self.card_action(Commit), "Enter", primary=True))
            if any(isinstance(c, UseCommandCard) and c.unit is None for c in cmds):
                out.append(
                    Action(
                        "Play card",
                        lambda: self.card_action(UseCommandCard),
                        "P",
                        primary=not self.aside_pick,  # picked to be set aside: Enter draws with it
                    )
                )
            if any(isinstance(c, Discard) for c in cmds):
                out.append(
                    Action(
                        "Discard",
                        lambda: self.card_action(Discard),
                        "Del",
                        primary=True,
                        tip="Discard the picked card (hand limits, R5.5)",
                    )
                )
        elif st.phase == Phase.DRAW and any(isinstance(c, Discard) for c in legal):
            out.append(
                Action(
                    "Pick a card to discard",
                    self.pick_next_discard,
                    "C",
                    primary=True,
                    tip="Your hand is over the limit (R5.5): pick a card, then Discard",
                )
            )
        elif st.phase == Phase.COMMITMENT and self.committable():
            out.append(
                Action(
                    "Pick a unit to commit",
                    self.pick_next_commit,
                    "C",
                    primary=True,  # Enter picks a unit, never ends the phase with units left (newuser2)
                    tip="Pick the next unit card you can commit; its deploy hexes light up (R5.2)",
                )
            )
        elif st.phase == Phase.ARTILLERY and any(isinstance(c, TargetArtillery) for c in legal):
            out.append(
                Action(
                    "Aim artillery",
                    self.aim_artillery,
                    "G",
                    tip="Put the hex cursor on an enemy you see; G or a click calls the mission (R9)",
                )
            )
        if st.phase == Phase.RESOLUTION:
            for n, a in sorted(st.attacks.items()):
                if a.side == side and not a.resolved and Resolve(side, n) in legal:
                    tgt = (
                        short_name(ruleset.card_name(a.target))
                        if a.target
                        else f"building {st.hex_label(a.building)}"
                    )
                    att = short_name(ruleset.card_name(a.attackers[0]))
                    first = not out
                    full = (
                        f"{ruleset.card_name(a.attackers[0])} > "
                        f"{ruleset.card_name(a.target) if a.target else 'building ' + st.hex_label(a.building)}"
                    )
                    out.append(
                        Action(
                            f"Resolve {n}: {att} > {tgt}",
                            functools.partial(self.resolve, n),
                            "R" if first else "",
                            primary=first,
                            tip=f"Resolve attack {n}: {full} (R6.2)",
                        )
                    )
                    if st.hand_commands[side] and self.bonus_rolls(n):
                        out.append(
                            Action(
                                f"Resolve {n} with +1...",
                                functools.partial(self.start_bonus, n),
                                "B" if first else "",
                                tip=f"Resolve {n} with +1 on rolls (R1.3): one Command card each",
                            )
                        )
        if st.phase == Phase.DRAW:
            # R1.3: the player chooses the Command card set aside with a draw (newuser3: the
            # first card in hand was taken without asking)
            aside = self.card if self.card in st.hand_commands[side] else None
            for c in legal:
                if isinstance(c, Draw):
                    if aside is not None and (c.initiative_card or c.fire_cards):
                        c = (
                            dataclasses.replace(c, initiative_card=aside)
                            if c.initiative_card
                            else dataclasses.replace(c, fire_cards=(aside,))
                        )
                    nc = sum(1 for s in c.extra if s == "command")
                    nr = len(c.extra) - nc
                    label = "Draw: " + " + ".join(
                        x for x in (f"{nc} Command" if nc else "", f"{nr} Reserves" if nr else "") if x
                    )
                    tip = "One Command card, then these extra cards, chosen before looking (R5.5)"
                    bonus = c.initiative_card or (c.fire_cards[0] if c.fire_cards else "")
                    run: Callable[[], Any] = functools.partial(self.issue, c)
                    if c.initiative_card and aside is None:  # first choose the card to set aside
                        label += ", +1 initiative..."
                        tip = (
                            f"{tip}; first pick the Command card you set aside for +1 on the next "
                            "initiative roll (R1.3)"
                        )
                        run = self.pick_aside_card
                    elif c.initiative_card:  # R1.3: the same split, one Command card set aside
                        label += ", +1 initiative"  # the picked card (raised, named in the tip)
                        tip = (
                            f"{tip}; {ruleset.card_name(bonus)} is set aside for +1 on the next "
                            "initiative roll (R1.3)"
                        )
                    elif c.fire_units:
                        fire = ", ".join(
                            short_name(ruleset.card_name(st.units[u].card))
                            for u in c.fire_units
                            if u in st.units
                        )
                        if aside is None:
                            label += f", -1 fire check {fire}..."
                            tip = f"{tip}; first pick the Command card that lowers {fire}'s fire check (R1.3)"
                            run = self.pick_aside_card
                        else:
                            label += f", -1 fire check {fire}"
                            tip = (
                                f"{tip}; {ruleset.card_name(bonus)} lowers the fire damage check of {fire} "
                                "by 1 (R1.3)"
                            )
                    out.append(Action(label, run, primary=bool(bonus) == (aside is not None), tip=tip))
        if st.phase in (Phase.MOVEMENT, Phase.DECLARATION) and self.pending is None:
            if self.useful_units():
                out.append(
                    Action("Next unit", self.next_unit, "Tab", tip="Select your next unit that can act (Tab)")
                )
            if st.phase == Phase.DECLARATION and self.targets():
                out.append(
                    Action(
                        "Next target",
                        self.next_target,
                        "T",
                        tip="Prepare an attack on the next legal target (T)",
                    )
                )
        if self.selected is not None and self.selected in st.units:
            uid = self.selected
            for c in legal:
                if isinstance(c, Tow) and c.unit == uid:
                    out.append(
                        Action(
                            f"Tow wreck in {st.hex_label(c.hex)}",
                            functools.partial(self.issue, c),
                            tip="Hook up the wreck for 2 MP (R8.1)",
                        )
                    )
                elif isinstance(c, DropTow) and c.unit == uid:
                    out.append(Action("Drop towed wreck", functools.partial(self.issue, c)))
                elif isinstance(c, DeclareCloseAssault) and uid in c.attackers:
                    out.append(
                        Action(
                            f"Close assault {ruleset.card_name(c.target)}",
                            functools.partial(self.issue, c),
                            tip="Three or more adjacent infantry assault the vehicle (000)",
                        )
                    )
                elif isinstance(c, DeclareBuildingAttack) and c.attacker == uid:
                    out.append(
                        Action(
                            f"Attack building {st.hex_label(c.hex)}",
                            functools.partial(self.issue, c),
                            tip="Close combat against the adjacent building (R8.2)",
                        )
                    )
        if self.can_undo():
            out.append(
                Action(
                    "Undo",
                    self.undo,
                    "Ctrl+Z",
                    tip="Take back your last Commit, Move or Declare of this phase (before any die, R12.3)",
                )
            )
        if EndPhase(side) in legal:
            out.append(
                Action(
                    "End phase",
                    self.end_phase,
                    "Space",
                    primary=not any(a.primary for a in out),
                    tip=END_PHASE_EFFECT.get(st.phase, ""),
                )
            )
        return out

    # -- what to do now (item 1) -------------------------------------------------------------
    def prompt(self) -> str:
        """One sentence: what the person can do now, in this phase, with what is picked."""
        st = self.state
        if st.over:
            return f"The game is over: {st.result}."
        if self.stopped:
            return f"Stopped after turn {self.max_turns} (--turns)."
        if self.pass_to is not None:
            return f"Pass the screen to the {self.pass_to.capitalize()} player."
        if not self.my_turn():
            who = st.to_act or ""
            return (
                f"{who.capitalize()} (computer) is acting..."
                if who in self.ai
                else f"Waiting for {who.capitalize()}."
            )
        side = st.to_act
        assert side is not None
        if st.phase == Phase.SETUP:
            want = min(st.scenario.sides[side].hand_size, len(st.reserves[side]))
            lacking = crewless(self.hand_pick)
            tail = (
                " "
                + "; ".join(f"{ruleset.card_name(c)} still needs {crew_need(c)}" for c in lacking[:2])
                + "."
                if lacking
                else ""
            )
            if self.hand_pick and len(self.hand_pick) == want:  # the picks may be scrolled away: name them
                names = ", ".join(short_name(ruleset.card_name(c)) for c in self.hand_pick)
                return f"Your starting hand: {names}. Keep it (Enter), or click a picked card to take it back.{tail}"
            return (
                f"Pick {want} cards for your starting hand ({len(self.hand_pick)} so far): click a card, or "
                f"[ ] and C. Hover a card for all of it.{tail}"
            )
        if self.bonus is not None:
            n, picked = self.bonus
            return (
                f"Attack {n}: pick the rolls to add 1 to (one Command card each, R1.3), then Resolve; "
                f"{len(picked)} picked."
            )
        if self.pending is not None:
            return (
                "Check the odds; Enter declares, 1/2 toggle weapons, T the next target, Esc cancels (R6.1)."
            )
        if self.card is not None:
            return self._card_hint(self.card)
        legal = self.legal()
        if st.phase == Phase.ARTILLERY:
            if any(isinstance(c, TargetArtillery) for c in legal):
                return (
                    "Artillery (R9): click a hex your units can see, or move the cursor (arrows) and press G, "
                    "to call a mission."
                )
            return "Artillery (R9): no mission to call now."
        if st.phase == Phase.COMMITMENT:
            if self.committable():
                return "Commitment (R5.2): pick a unit card (click, or [ ] and C), then a highlighted deploy hex."
            return "Commitment (R5.2): no card of your hand can be committed now."
        if st.phase == Phase.MOVEMENT:
            u = st.units.get(self.selected) if self.selected else None
            if u is not None and self.reach_costs():
                return (
                    f"{ruleset.card_name(u.card)}: click a blue hex (or cursor + G) to move; numbers are the MP "
                    "spent (R5.3)."
                )
            if self.useful_units():
                return "Movement (R5.3): select a unit (click it, or Tab), then a blue hex."
            return "Movement (R5.3): none of your units can move now."
        if st.phase == Phase.DECLARATION:
            u = st.units.get(self.selected) if self.selected else None
            if u is not None and u.side == side:
                n = len(self.targets())
                done = [k for k, a in sorted(st.attacks.items()) if a.side == side and u.uid in a.attackers]
                if done:  # newuser3: it has attacked, it did not lose its targets
                    return (
                        f"{ruleset.card_name(u.card)} has declared attack {done[-1]} (one attack per unit, "
                        "R6.1); Tab for the next unit, Space when all are declared."
                    )
                if n:
                    return (
                        f"{ruleset.card_name(u.card)}: {n} legal target{'s' if n != 1 else ''} ringed in red; "
                        "click one or press T, then Declare (R6.1)."
                    )
                return f"{ruleset.card_name(u.card)} has no legal target now (range, LOS, R7); Tab for the next unit."
            if self.attack_ready_units():
                return "Declaration (R6.1): select a unit (click it, or Tab), then a target ringed in red (or T)."
            return "Declaration (R6.1): none of your units has a target now."
        if st.phase == Phase.RESOLUTION:
            return "Resolution (R6.2): resolve your declared attacks (R or the buttons); +1 with a Command card (R1.3)."
        if st.phase == Phase.DRAW:
            if any(isinstance(c, Draw) for c in legal):
                return "Draw (R5.5): choose where your extra cards come from (the Draw buttons)."
            nu, nc = len(st.hand_units[side]), len(st.hand_commands[side])
            if nu > HAND_LIMIT_UNITS or nc > HAND_LIMIT_COMMAND:
                over = ", ".join(
                    x
                    for x in (
                        f"units {nu}/{HAND_LIMIT_UNITS}" if nu > HAND_LIMIT_UNITS else "",
                        f"Command {nc}/{HAND_LIMIT_COMMAND}" if nc > HAND_LIMIT_COMMAND else "",
                    )
                    if x
                )
                return f"Your hand is over the limit ({over}): pick a card and Discard it (R5.5)."
            return "Draw (R5.5): your hand is within the limits; End phase to finish the turn."
        return PHASE_HINTS.get(st.phase, "")

    def end_phase_line(self) -> str:
        """What End phase does now, or why it cannot be pressed yet (the rules' reason)."""
        st = self.state
        if st.over or not self.my_turn() or st.to_act is None or self.pass_to is not None:
            return ""
        if st.phase in (Phase.SETUP, Phase.RESOLUTION):
            return END_PHASE_EFFECT.get(st.phase, "")
        why = st.check(EndPhase(st.to_act))
        if why is not None:
            return f"End phase: not yet, {why}."
        return END_PHASE_EFFECT.get(st.phase, "")

    def committable(self) -> list[str]:
        """Hand cards some legal Commit uses now (R5.2), in hand order, one per card id."""
        ids = {card_of(c.unit) for c in self.legal() if isinstance(c, Commit)}
        out, seen = [], set()
        for c in self.state.hand_units[self.shown_side]:
            if card_of(c) in ids and card_of(c) not in seen:
                seen.add(card_of(c))
                out.append(c)
        return out

    def useful_units(self) -> list[str]:
        """The shown side's units on the map that can act now: with somewhere to move
        (Movement, R5.3) or a legal target (Declaration, R7); else every unit on the map."""
        st = self.state
        mine = [
            uid
            for uid, u in sorted(st.units.items())
            if u.side == self.shown_side and u.hex is not None and u.crewing is None and not u.aloft
        ]
        if st.phase == Phase.MOVEMENT:
            movers = {c.unit for c in self.legal() if isinstance(c, Move)}
            return [u for u in mine if u in movers]
        if st.phase == Phase.DECLARATION:
            # every unit that has not declared yet (R6.1: one attack per unit), with or without a
            # target: Tab must reach each of them and say which have none (newuser3); aircraft
            # aloft too, which have no hex to click (R7.4: they attack any ground unit)
            air = [
                uid
                for uid, u in sorted(st.units.items())
                if u.side == self.shown_side and u.aloft and u.crewing is None
            ]
            mine = mine + air
            declared = {
                a for atk in st.attacks.values() if atk.side == self.shown_side for a in atk.attackers
            }
            return [u for u in mine if u not in declared]
        return mine

    def attack_ready_units(self) -> list[str]:
        """The shown side's units with a legal Declare, Close Assault or building attack now
        (R6.1, R7, R8.2), in :meth:`useful_units` order."""
        ids: set[str] = set()
        for c in self.legal():
            if isinstance(c, Declare | DeclareBuildingAttack):
                ids.add(c.attacker)
            elif isinstance(c, DeclareCloseAssault):
                ids.update(c.attackers)
        return [u for u in self.useful_units() if u in ids]

    # -- keyboard play (item 3) ---------------------------------------------------------------
    def set_cursor(self, h: Hex | None) -> None:
        """Put the hex cursor on ``h``: it is the hovered hex too (tooltip, LOS, inspector)."""
        if h is not None and not self.state.battlemap.in_bounds(h):
            return
        self.cursor = h
        self.look_at = h
        self.set_hover(h)
        self._touch()

    def act_at_cursor(self) -> None:
        """G: what a left click on the cursor hex does (select / move / target / commit / call
        artillery); on the prepared target it declares."""
        h = self.cursor or self.hover
        if h is None:
            # the Aim artillery button says G: without a cursor, G aims (newuser3)
            if self.state.phase == Phase.ARTILLERY and any(
                isinstance(c, TargetArtillery) for c in self.legal()
            ):
                self.aim_artillery()
                return
            self.say("Move the hex cursor with the arrow keys first.", error=True)
            return
        p = self.pending
        if p is not None and p.target in self.state.units and self.state.units[p.target].hex == h:
            self.declare()
            return
        self.click_hex(h)

    def select_at_cursor(self) -> None:
        """S: select only at the cursor hex (cycles a stack), like a right click."""
        h = self.cursor or self.hover
        if h is not None:
            self.click_hex(h, alternate=True)

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

    def aim_artillery(self) -> None:
        """Put the hex cursor on the first enemy hex an artillery call may target (R9.2)."""
        st = self.state
        hexes = [c.hex for c in self.legal() if isinstance(c, TargetArtillery)]
        enemy = {u.hex for u in st.units.values() if u.side != self.shown_side and u.hex is not None}
        pick = next((h for h in hexes if h in enemy), None)
        if pick is None:  # not an arbitrary hex: the cursor would sit on an empty map edge
            self.say(
                "No enemy unit your units can see to call artillery on; click any hex you see, or "
                "End phase (R9.2).",
                error=True,
            )
        else:
            self.set_cursor(pick)
            self.say(
                f"Artillery on {st.hex_label(pick)}: G or a click calls it; arrows move the cursor (R9)."
            )

    def next_unit(self) -> None:
        """Tab: select the shown side's next unit that can act (or any unit on the map)."""
        st = self.state
        mine = self.useful_units() or [
            uid
            for uid, u in sorted(st.units.items())
            if u.side == self.shown_side and u.hex is not None and u.crewing is None and not u.aloft
        ]
        if not mine:
            return
        i = mine.index(self.selected) + 1 if self.selected in mine else 0
        uid = mine[i % len(mine)]
        self.select(uid)
        self.cursor = st.units[uid].hex
        self.look_at = self.cursor
        if st.phase == Phase.DECLARATION and self.my_turn():
            u = st.units[uid]
            name = f"{ruleset.card_name(u.card)} " + ("aloft" if u.aloft else f"in {st.hex_label(u.hex)}")
            n = len(self.targets())
            if n:
                self.say(f"{name}: {n} legal target{'s' if n != 1 else ''}, T prepares an attack (R6.1).")
            elif uid in self.attack_ready_units():
                self.say(f"{name}: no unit target, but a close assault or a building attack (buttons).")
            else:
                self.say(f"{name} has no target in range and LOS (R6.1); Tab selects your next unit.")

    def next_target(self) -> None:
        """T: prepare an attack on the selected unit's next legal target (crews too, R7.5)."""
        tg = self.targets()
        if not tg:
            u = self.state.units.get(self.selected) if self.selected is not None else None
            if u is not None and u.side == self.shown_side:
                self.say(
                    f"{ruleset.card_name(u.card)} has no enemy unit it can attack now (range and LOS, "
                    "R6.1); Tab selects your next unit.",
                    error=True,
                )
            else:
                self.say("Select a unit with a legal target first (Tab).", error=True)
            return
        # targets none of the side's declared attacks aims at come first, so T T T on three
        # units does not pile three attacks onto one target while others stand free (newuser3)
        aimed = {a.target for a in self.state.attacks.values() if a.side == self.shown_side}
        tg = sorted(tg, key=lambda t: t[0] in aimed)
        keys = [(t[0], t[1]) for t in tg]
        cur = (self.pending.target, self.pending.at_crew) if self.pending is not None else None
        i = keys.index(cur) + 1 if cur in keys else 0
        t = tg[i % len(tg)]
        self._prepare(t)
        h = self.state.units[t[0]].hex
        if h is not None:
            self.cursor = h
            self.look_at = h
            self.set_hover(h)

    # -- R1.3 bonus rolls (issue 13 item 10) ----------------------------------------------------
    def bonus_rolls(self, number: int) -> list[str]:
        """The roll names of attack ``number`` a Command card may add 1 to
        (:func:`hexwar.game.actions.resolve.bonus_rolls`, R1.3)."""
        from ..game.actions.resolve import bonus_rolls

        return self._cached(("bonus", number), lambda: bonus_rolls(self.state, number))  # type: ignore[no-any-return]

    def start_bonus(self, number: int | None = None) -> None:
        """B: choose rolls of attack ``number`` (default the first unresolved one) to add 1 to."""
        if self._refuse_not_mine():
            return
        st, side = self.state, self.state.to_act
        if number is None:
            mine = [n for n, a in sorted(st.attacks.items()) if a.side == side and not a.resolved]
            number = mine[0] if mine else None
        if number is None or st.phase != Phase.RESOLUTION or not self.bonus_rolls(number):
            self.say("No declared attack of yours takes a bonus now (R1.3).", error=True)
            return
        if not st.hand_commands[side or ""]:
            self.say("A bonus costs a Command card and your hand has none (R1.3).", error=True)
            return
        self.bonus = (number, [])
        self.say("")  # the prompt counts the picks as they change

    def toggle_bonus(self, roll: str) -> None:
        """Add or remove ``roll`` from the rolls getting +1 (one Command card each, R1.3)."""
        if self.bonus is None:
            return
        n, picked = self.bonus
        side = self.state.to_act or self.shown_side
        if roll in picked:
            picked.remove(roll)
        elif len(picked) < len(self.state.hand_commands[side]):
            picked.append(roll)
        else:
            self.say("One Command card per roll: your hand has no card left for another (R1.3).", error=True)
        self._touch()

    def resolve_bonus(self) -> None:
        """Resolve the attack with the rolls picked (:meth:`resolve`, R1.3)."""
        if self.bonus is None:
            return
        n, picked = self.bonus
        order = [r for r in self.bonus_rolls(n) if r in picked]
        self.bonus = None
        self.resolve(n, tuple(order))

    def _bonus_actions(self, side: str) -> list[Action]:
        assert self.bonus is not None
        n, picked = self.bonus
        cards = len(self.state.hand_commands[side])
        out = []
        for r in self.bonus_rolls(n):
            on = r in picked
            out.append(
                Action(
                    ("[x] " if on else "[ ] ") + f"+1 to {roll_label(r)}",
                    functools.partial(self.toggle_bonus, r),
                    enabled=on or len(picked) < cards,
                    tip=f"bonus {r}",
                )
            )
        out.append(
            Action(
                f"Resolve {n} with {len(picked)} bonus",
                self.resolve_bonus,
                "Enter",
                primary=True,
                enabled=bool(picked),
                tip="Resolve, each picked roll +1 for a Command card (R1.3)",
            )
        )
        out.append(Action("Cancel", self.cancel, "Esc"))
        return out
