"""What to do now, in one sentence (issue 34 split of :mod:`hexwar.ui.controller`): the prompt
per phase and pick (R5 turn sequence), what End phase does now, and the units that can act."""

from __future__ import annotations

from typing import Any

from ..game import ruleset
from ..game.commands import Draw, EndPhase, Move, TargetArtillery
from ..game.state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS, GameState, Phase
from ..render.gamescene import short_name
from .guidance import END_PHASE_EFFECT, crew_need, crewless
from .play_views import PendingAttack

__all__ = ["PHASE_HINTS", "PromptMixin"]

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


class PromptMixin:
    """The prompt part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _card_hint: Any
    ai: dict[str, Any]
    attack_ready_units: Any
    bonus: tuple[int, list[str]] | None
    card: str | None
    committable: Any
    deck_limits_text: Any
    deck_line: Any
    deck_question: Any
    hand_pick: list[str]
    legal: Any
    max_turns: int | None
    my_turn: Any
    pass_to: str | None
    pending: PendingAttack | None
    reach_costs: Any
    selected: str | None
    shown_side: str
    state: GameState
    stopped: Any
    targets: Any

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
            if self.deck_question():  # 000 Standard Game Setup: each player creates a deck (R4.3)
                lo, hi = self.deck_limits_text()
                return (
                    f"Your Reserves deck was dealt at random ({self.deck_line(side)}; a deck is {lo}-{hi} "
                    "points, 000 Standard Game Setup). Build your own from the scenario's cards (D), or keep "
                    "the dealt deck (K); then pick your starting hand."
                )
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
