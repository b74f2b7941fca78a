"""Selection and map intents on the play screen (issue 34 split of :mod:`hexwar.ui.controller`):
what a click or the hex cursor means on a hex (select, move R5.3, target R6.1, call artillery R9),
Tab through the units, End phase, Undo (R12.3), Esc and the hex inspector. Refusals come only
from the rules (``state.check``), said in the status line."""

from __future__ import annotations

from typing import Any

from ..game import movement, ruleset
from ..game.commands import Commit, EndPhase, Move, Recrew, TargetArtillery, Undo, UseCommandCard
from ..game.state import GameState, Phase
from ..model.hexgrid import Hex
from .animation import MoveAnim
from .guidance import plain_reason
from .pacing import describe_command
from .play_views import PendingAttack

__all__ = ["IntentsMixin"]


class IntentsMixin:
    """The selection and intents part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _msg_epoch: int
    _prepare: Any
    _touch: Any
    _with_instance: Any
    anim: MoveAnim | None
    art_confirm: Hex | None
    artillery_ok: Any
    artillery_warning: Any
    aside_pick: bool
    attack_ready_units: Any
    bonus: tuple[int, list[str]] | None
    card: str | None
    card_commands: Any
    cursor: Hex | None
    declare: Any
    deploy_hexes: Any
    hover: Hex | None
    issue: Any
    legal: Any
    look_at: Hex | None
    max_turns: int | None
    message: str
    my_turn: Any
    pass_to: str | None
    pending: PendingAttack | None
    prompt: Any
    reach_costs: Any
    say: Any
    selected: str | None
    shown_side: str
    state: GameState
    stopped: Any
    targets: Any
    units_at: Any
    useful_units: Any

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
            self.select(self.stack_pick(units))

    def stack_pick(self, units: list[str]) -> str:
        """The unit of a stack a first click selects: on the person's turn in Movement or
        Declaration the first one that can act now (:meth:`useful_units`: a move left, R5.3;
        no attack declared yet, R6.1), else the first one (issue 36: a click on a stack
        selected a unit that could not move). ``units`` must not be empty."""
        st = self.state
        if self.my_turn() and st.phase in (Phase.MOVEMENT, Phase.DECLARATION):
            able = set(self.useful_units())
            if st.phase == Phase.DECLARATION:
                able &= set(self.attack_ready_units()) or able
            return next((u for u in units if u in able), units[0])
        return units[0]

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
