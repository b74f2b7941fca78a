"""Attack preparation on the play screen (issue 34 split of :mod:`hexwar.ui.controller`): the
target and weapons of the attack being prepared (R6.1, R7, R7.5), declaring it, resolving the
side's declared attacks (R6.2) and the Command-card bonus rolls (R1.3). The odds themselves come
from :meth:`hexwar.ui.play_views.PlayViewsMixin.odds` (:func:`hexwar.rules.odds.attack_odds`)."""

from __future__ import annotations

import functools
from typing import Any

from ..game import ruleset, targeting
from ..game.commands import Declare, DeclareBuildingAttack, DeclareCloseAssault, Resolve
from ..game.state import GameState, Phase
from ..model.hexgrid import Hex
from .guidance import roll_label
from .play_actions import Action
from .play_views import PendingAttack

__all__ = ["AttackMixin"]


class AttackMixin:
    """The attack part of :class:`~hexwar.ui.controller.PlayController`.

    The annotations below are what it reads from the other parts.
    """

    _cached: Any
    _refuse_not_mine: Any
    _touch: Any
    bonus: tuple[int, list[str]] | None
    cancel: Any
    cursor: Hex | None
    issue: Any
    legal: Any
    look_at: Hex | None
    pending: PendingAttack | None
    say: Any
    selected: str | None
    set_hover: Any
    shown_side: str
    state: GameState
    targets: Any
    useful_units: Any

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
