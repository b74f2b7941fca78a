"""The play screen's buttons for now (issue 34 split of :mod:`hexwar.ui.controller`): one
:class:`Action` for each thing the person can do next, built only from the legal commands."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import ruleset
from ..game.commands import (
    Commit,
    DeclareBuildingAttack,
    DeclareCloseAssault,
    Discard,
    Draw,
    DropTow,
    EndPhase,
    Resolve,
    TargetArtillery,
    Tow,
    UseCommandCard,
)
from ..game.state import GameState, Phase
from ..model.hexgrid import Hex
from ..render.gamescene import short_name
from .guidance import END_PHASE_EFFECT
from .play_views import PendingAttack

__all__ = ["Action", "ActionsMixin"]


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


class ActionsMixin:
    """The buttons part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _bonus_actions: Any
    aim_artillery: Any
    aside_pick: bool
    bonus: tuple[int, list[str]] | None
    bonus_rolls: Any
    can_undo: Any
    cancel: Any
    card: str | None
    card_action: Any
    card_commands: Any
    card_target_at_cursor: Any
    commit_at_cursor: Any
    committable: Any
    confirm_hand: Any
    crew_warned: bool
    cursor: Hex | None
    deck_buildable: Any
    deck_question: Any
    declare: Any
    end_phase: Any
    hand_pick: list[str]
    issue: Any
    keep_dealt_deck: Any
    legal: Any
    my_turn: Any
    next_target: Any
    open_deck: Any
    next_unit: Any
    pending: PendingAttack | None
    pick_aside_card: Any
    pick_next_commit: Any
    pick_next_discard: Any
    pick_next_reserve: Any
    play_at_cursor: Any
    resolve: Any
    selected: str | None
    start_bonus: Any
    state: GameState
    targets: Any
    undo: Any
    useful_units: Any

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
            return self._setup_actions(side)
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
            self._picked_card_actions(out)
        else:
            self._phase_pick_actions(legal, out)
        if st.phase == Phase.RESOLUTION:
            self._resolution_actions(side, legal, out)
        if st.phase == Phase.DRAW:
            self._draw_actions(side, legal, out)
        self._unit_actions(legal, out)
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

    def _setup_actions(self, side: str) -> list[Action]:
        """The buttons of the setup phase: in a point-budget scenario first Build deck / Keep
        the dealt deck (000 Standard Game Setup, R4.3, :mod:`hexwar.ui.play_deck`); then keep
        the picked starting hand, or pick the next card (000 setup), with Build deck (Change
        deck once built) until the hand is kept."""
        st = self.state
        out: list[Action] = []
        deck_tip = "Build your own Reserves deck from the scenario's cards (000 Standard Game Setup, R4.3)"
        if self.deck_question():
            return [
                Action("Build deck", self.open_deck, "D", primary=True, tip=deck_tip),
                Action(
                    "Keep the dealt deck",
                    self.keep_dealt_deck,
                    "K",
                    tip="Play the Reserves deck dealt at random and pick your starting hand",
                ),
            ]
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
        if self.deck_buildable():
            out.append(Action("Change deck", self.open_deck, "D", tip=deck_tip))
        return out

    def _picked_card_actions(self, out: list[Action]) -> None:
        """Append the buttons for the picked hand card: commit, play, discard (R5.2, R5.5, R1.3)."""
        assert self.card is not None
        st = self.state
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

    def _phase_pick_actions(self, legal: list[Any], out: list[Action]) -> None:
        """Append the button that picks what the phase wants next when no card is picked (R5.5, R5.2, R9)."""
        st = self.state
        if st.phase == Phase.DRAW and any(isinstance(c, Discard) for c in legal):
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

    def _resolution_actions(self, side: str, legal: list[Any], out: list[Action]) -> None:
        """Append a Resolve button (and a +1 one, R1.3) for each of the side's open attacks (R6.2)."""
        st = self.state
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

    def _draw_actions(self, side: str, legal: list[Any], out: list[Action]) -> None:
        """Append one button per legal Draw split, naming the Command card set aside (R5.5, R1.3)."""
        st = self.state
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
                        short_name(ruleset.card_name(st.units[u].card)) for u in c.fire_units if u in st.units
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

    def _unit_actions(self, legal: list[Any], out: list[Action]) -> None:
        """Append next-unit / next-target buttons and the selected unit's special commands (R8.1, R8.2, 000)."""
        st = self.state
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
