"""What the play screen derives from the game for display, without changing it: legal
commands, reach (R5.3), targets (R7), deploy hexes (R5.2), LOS (R3) and the hindering hexes,
pre-attack odds (R6), units per hex, and the card and unit text generated from the card data
(R4.1). Cached per game epoch (:mod:`hexwar.ui.view_cache`). A mixin of
:class:`hexwar.ui.controller.PlayController`, whose selection state it reads."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import HexwarError
from ..game import movement, ruleset, targeting
from ..game.commands import Command, Commit, Declare, Discard, Recrew, TargetArtillery, UseCommandCard
from ..game.sight import seen_units
from ..game.state import GameState, Phase, card_of, other_side
from ..model.hexgrid import Hex

__all__ = ["PendingAttack", "PlayViewsMixin"]


@dataclass
class PendingAttack:
    """An attack being prepared in the Declaration phase (R6.1), not yet declared.

    Attributes:
        attacker: the attacking unit's instance id.
        target: the target unit's instance id.
        at_crew: R7.5: fire at a frontline gun's crew.
        options: the weapon indexes that may legally fire at it (from ``legal_targets``).
        weapons: the weapons chosen (up to two, card order).
    """

    attacker: str
    target: str
    at_crew: bool
    options: tuple[int, ...]
    weapons: tuple[int, ...]

    def command(self, side: str) -> Declare:
        """The :class:`~hexwar.game.commands.Declare` this attack would issue."""
        return Declare(side, self.attacker, self.target, tuple(self.weapons), self.at_crew)


class PlayViewsMixin:
    """Derived views of the play screen (see module doc)."""

    state: GameState
    selected: str | None
    card: str | None
    hover: Hex | None
    pending: Any
    anim: Any
    shown_side: str
    views: Any
    clock: Any
    is_human: Any
    my_turn: Any

    def _cached(self, key: Any, make: Callable[[], Any]) -> Any:
        return self.views.get(key, make)

    def legal(self) -> list[Command]:
        """Every legal command of the side to act (``state.legal_commands``), cached."""
        return self._cached("legal", lambda: self.state.legal_commands()) if self.state.to_act else []

    def reach_costs(self) -> dict[Hex, float]:
        """Movement points spent to reach each hex the selected unit can reach (R5.3).

        Empty unless it is the person's Movement phase and the selected unit may move.
        """
        st, uid = self.state, self.selected
        if st.phase != Phase.MOVEMENT or uid is None or uid not in st.units or not self.my_turn():
            return {}
        if st.units[uid].side != st.to_act:
            return {}
        reach = self._cached(("reach", uid), lambda: movement.unit_reach(st, uid))
        if reach is None:
            return {}
        return {h: c for h, c in reach.cost.items() if h != reach.start}

    def targets(self) -> list[tuple[str, bool, tuple[int, ...]]]:
        """Legal targets of the selected unit now (``targeting.legal_targets``, R7)."""
        st, uid = self.state, self.selected
        if st.phase != Phase.DECLARATION or uid is None or uid not in st.units or not self.my_turn():
            return []
        if st.units[uid].side != st.to_act:
            return []
        side = st.to_act
        assert side is not None
        return self._cached(("targets", uid), lambda: targeting.legal_targets(st, side, uid))  # type: ignore[no-any-return]

    def target_hexes(self) -> list[Hex]:
        """Hexes of the selected unit's legal targets (aircraft aloft have none)."""
        out = []
        for tid, _, _ in self.targets():
            h = self.state.units[tid].hex
            if h is not None and h not in out:
                out.append(h)
        return out

    def card_commands(self, card: str | None = None) -> list[Command]:
        """Legal commands that use hand card ``card`` (default the picked one), any instance
        of the same card id counts (the engine lists one instance per card id)."""
        card = card or self.card
        if card is None or not self.my_turn():
            return []
        cid = card_of(card)
        out: list[Command] = []
        for c in self.legal():
            if isinstance(c, Commit) and card_of(c.unit) == cid:
                out.append(c)
            elif isinstance(c, UseCommandCard | Discard) and card_of(c.card) == cid:
                out.append(c)
            elif isinstance(c, Recrew) and card_of(c.crew) == cid:
                out.append(c)
        return out

    def _with_instance(self, cmd: Command, card: str) -> Command:
        """``cmd`` rewritten to use hand-card instance ``card`` instead of its twin."""
        import dataclasses

        if isinstance(cmd, Commit) and cmd.unit != card:
            return dataclasses.replace(cmd, unit=card)
        if isinstance(cmd, UseCommandCard | Discard) and cmd.card != card:
            return dataclasses.replace(cmd, card=card)
        if isinstance(cmd, Recrew) and cmd.crew != card:
            return dataclasses.replace(cmd, crew=card)
        return cmd

    def deploy_hexes(self) -> list[Hex]:
        """Hexes the picked unit card may be committed into now (R5.2)."""
        out: list[Hex] = []
        for c in self.card_commands():
            if isinstance(c, Commit) and c.hex is not None and c.hex not in out:
                out.append(c.hex)
        return out

    def card_unit_targets(self) -> list[str]:
        """Units the picked Command card may be played on (or crew card put on) now."""
        out: list[str] = []
        for c in self.card_commands():
            if isinstance(c, UseCommandCard) and c.unit is not None and c.unit not in out:
                out.append(c.unit)
            elif isinstance(c, Recrew) and c.unit not in out:
                out.append(c.unit)
        return out

    def artillery_ok(self, h: Hex | None) -> str | None:
        """Why an artillery call on ``h`` would be refused now (``state.check``), or ``None``."""
        if h is None:
            return "no hex"
        side = self.state.to_act or self.shown_side
        return self._cached(("art", h), lambda: self.state.check(TargetArtillery(side, h)))  # type: ignore[no-any-return]

    def artillery_warning(self, h: Hex | None) -> str | None:
        """A warning when an artillery call on ``h`` would strike the caller's own units
        (R9.4: the strike attacks every unit at the landing hex, friend or foe), else ``None``."""
        if h is None:
            return None
        side = self.state.to_act or self.shown_side
        own = [u for u in self.state.units_at(h) if u.side == side and u.crewing is None]
        if not own:
            return None
        names = ", ".join(ruleset.card_name(u.card) for u in own)
        return f"Your own {names} in {self.state.hex_label(h)}: the strike attacks every unit there (R9.4)"

    def los(self, a: Hex | None = None, b: Hex | None = None) -> Any:
        """The :class:`~hexwar.model.los.LosResult` from the selected unit's hex (or ``a``) to the
        hovered hex (or ``b``), or ``None`` when there is nothing to show (R3)."""
        from ..model.los import line_of_sight

        st = self.state
        if a is None:
            u = st.units.get(self.selected) if self.selected else None
            a = u.hex if u is not None and not u.aloft else None
        b = b if b is not None else self.hover
        if a is None or b is None or a == b or not st.battlemap.in_bounds(a) or not st.battlemap.in_bounds(b):
            return None
        return self._cached(("los", a, b), lambda: line_of_sight(st.battlemap, a, b))

    def los_hindering(self, res: Any) -> tuple[Hex, ...]:
        """The intervening hexes that hinder ``res`` (R3.5), when they can be told apart.

        The LOS engine reports the hindrance count, not which hexes; the hexes whose terrain
        is a hindrance are marked when their number equals that count (otherwise none are,
        so nothing wrong is ever shown).
        """
        if res is None or res.status != "hindered":
            return ()
        m = self.state.battlemap
        cands = tuple(h for h in res.intervening if m.terrain_at(h).los == "hindrance")
        return cands if len(cands) == res.hindrances else ()

    def odds(self, pending: PendingAttack | None = None) -> Any:
        """Exact pre-attack odds (:class:`~hexwar.rules.odds.AttackOdds`) of the attack being
        prepared (R6), or ``None`` (no attack, or the odds engine refuses it)."""
        p = pending or self.pending
        if p is None or not p.weapons:
            return None
        key = ("odds", p.attacker, p.target, p.at_crew, tuple(p.weapons))
        return self._cached(key, lambda: self._compute_odds(p))

    def _compute_odds(self, p: PendingAttack) -> Any:
        from ..game.odds import declare_odds

        return declare_odds(self.state, p.attacker, p.target, tuple(p.weapons), p.at_crew)

    def units_at(self, h: Hex | None) -> list[str]:
        """Unit ids standing in ``h`` (not crews riding them), the shown side's first."""
        if h is None:
            return []
        us = [u for u in self.state.units_at(h) if u.crewing is None]
        if "fog" in self.state.variants:  # R12.2: tooltips and clicks know only the units the side sees
            seen = seen_units(self.state, self.shown_side)
            us = [u for u in us if u.uid in seen]
        us.sort(key=lambda u: (u.side != self.shown_side, u.uid))
        return [u.uid for u in us]

    def display_hex(self, uid: str) -> Hex | None:
        """Where unit ``uid`` is drawn now (its hex, or a hex on its animated path)."""
        u = self.state.units.get(uid)
        if u is None:
            return None
        if self.anim is not None and self.anim.uid == uid:
            h = self.anim.hex_at(self.clock.now())
            if h is not None:
                return h
        return u.hex

    # -- card and unit text (generated from the card data) ---------------------------------------------
    def unit_lines(self, uid: str) -> list[str]:
        """The unit's card (help text generated from the card data, R4.1) and its state now."""
        st = self.state
        u = st.units.get(uid)
        if u is None:
            return []
        card = ruleset.unit_card(u.card)
        lines = card.help_text(ruleset.cards()).split("\n") if hasattr(card, "help_text") else [card.name]
        state_bits = [f"Endurance {u.endurance} / {card.endurance_full}"]
        if u.crew:
            cc = ruleset.unit_card(u.crew)
            state_bits.append(f"crew {cc.name}")
        elif ruleset.needs_crew(u.card):
            state_bits.append("NO CREW")
        if st.phase == Phase.MOVEMENT and u.mp_left:
            state_bits.append(f"{u.mp_left:g} MP left")
        if u.aloft:
            state_bits.append(f"aloft, {u.flight_turns} turns of flight")
        if u.side != u.owner:
            state_bits.append(f"captured from {u.owner}")
        lines.append("Now: " + ", ".join(state_bits))
        if u.damage_card:
            dc = ruleset.cards().damage.get(card_of(u.damage_card))
            eff = ""
            if dc is not None:
                try:
                    eff = dc.side_for(card.target_type).describe(ruleset.cards().rules)
                except HexwarError:  # pragma: no cover - validation gives every card every edge
                    eff = ""
            turns = f" ({u.damage_turns} turns left)" if u.damage_turns else ""
            lines.append(f"Damage card: {eff or card_of(u.damage_card)}{turns}")
        for c in u.command_cards:
            lines.append(f"Card under it: {ruleset.card_name(c)}")
        return lines

    def card_lines(self, card: str) -> list[str]:
        """The text of any hand card (unit, crew, Command), from the card data."""
        cid = card_of(card)
        c = ruleset.cards()
        if cid in c.units:
            return c.units[cid].help_text(c).split("\n")
        try:
            return ruleset.command_card(cid).help_text().split("\n")
        except Exception:
            return [ruleset.card_name(cid)]

    def hand(self, side: str | None = None) -> tuple[list[str], list[str]]:
        """``(unit cards, Command cards)`` in the shown side's hand (Setup: its Reserves)."""
        st = self.state
        side = side or self.shown_side
        if st.phase == Phase.SETUP and side not in st.done and self.is_human(side):
            return list(st.reserves[side]), []
        return list(st.hand_units[side]), list(st.hand_commands[side])

    def score_line(self) -> dict[str, int]:
        """Victory points per side (R10)."""
        return dict(self.state.vp)

    def objectives(self) -> list[tuple[Hex, str, int, str | None]]:
        """``(hex, name, points, holder)`` of every objective (R10.2)."""
        st = self.state
        return [
            (o.hex, o.name, o.points, st.objective_holders.get(o.hex, o.holder))
            for o in st.scenario.objectives
        ]

    def opponent(self) -> str:
        """The side opposite the shown one."""
        return other_side(self.shown_side)
