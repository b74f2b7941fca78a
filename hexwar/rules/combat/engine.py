"""The combat engine (R6.2-R6.6): resolves attacks, close assaults, hits and End Turn on
units, returning :mod:`.events`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import (
    CardSet,
    CommandCard,
    Deck,
    EffectKind,
    Weapon,
    opponent,
)
from ..dice import Dice, Roll
from ..units import UnitLike
from .events import (
    AircraftReturns,
    AttackStarted,
    AttackVoid,
    BombDropped,
    CloseAssaultFoiled,
    CloseAssaultStarted,
    CombatEvent,
    CommandCardExpired,
    CrewFate,
    DamageApplied,
    DamageCardDrawn,
    DamageDeckEmpty,
    DamageEffectEnded,
    EnduranceRecovered,
    ExtraDamage,
    FlightTurnsChanged,
    FriendlyFire,
    ToHit,
    UnitDestroyed,
)
from .modifiers import (
    _card,
    _close_assault_modifiers,
    _command_card_problems,
    _crew_of,
    _is_veteran,
    _name,
    attack_problems,
    classify_roll,
    close_assault_attack_value,
    close_assault_problems,
    effective_defense,
    rate_of_fire,
    to_hit_modifiers,
    weapon_damage_index,
)
from .orders import (
    AttackOrders,
    BonusPolicy,
    BonusRequest,
    CombatError,
    DefenseContext,
    FriendlyFirePolicy,
    normalize_variant,
)

__all__ = ["CombatEngine", "RULES_REVISION", "end_turn", "events_json", "leave_play", "victory_points"]

#: The combat rules revision new games are played with (recorded in saves, docs/rules.md):
#: 1 = round 1 (a crew whose unit a Damage card's extra d10 destroys reads the highest extra
#: die), 2 = 000 step g as written (it reads the destroying attack's Intensity die, issue 13).
RULES_REVISION = 2


# --------------------------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------------------------


_AUTO = "auto"


@dataclass
class CombatEngine:
    """Resolves attacks with the game's dice and Damage deck (R6).

    Args:
        cards: the card definitions.
        dice: the game's :class:`~hexwar.rules.dice.Dice` (every roll is logged there too).
        damage_deck: the Damage deck (reshuffles its discard pile when empty).
        units: every unit in play by uid (crews included), to find crews by id.
        variant: ``"standard"`` (000) or ``"classic"`` (001), or a collection of variant names.
        events_in_play: Event card instances in play (their effects apply, R4.3).
        rules_revision: :data:`RULES_REVISION` (default) or 1 for games saved before it (the
            crew fate after extra damage, R6.6; docs/rules.md "Rules revisions").
    """

    cards: CardSet
    dice: Dice
    damage_deck: Deck
    units: Mapping[str, UnitLike] = field(default_factory=dict)
    variant: str = "standard"
    events_in_play: Sequence[str] = ()
    rules_revision: int = RULES_REVISION

    def __post_init__(self) -> None:
        self.variant = normalize_variant(self.variant)
        self._names: dict[str, str] = {}

    def _n(self, unit: UnitLike | None) -> str:
        """Display name of a unit for event texts (memoized by uid)."""
        if unit is None:
            return "artillery"
        name = self._names.get(unit.uid)
        if name is None:
            name = self._names[unit.uid] = _name(self.cards, unit)
        return name

    # -- a whole declared attack (steps a-i) ----------------------------------------------
    def resolve_attack(
        self,
        attacker: UnitLike,
        target: UnitLike,
        orders: AttackOrders,
        ctx: DefenseContext,
        *,
        bonus: BonusPolicy | None = None,
        friendly_fire: FriendlyFirePolicy | None = None,
    ) -> list[CombatEvent]:
        """Resolve one declared attack: up to two weapons, rate of fire N rolls each (R6).

        The weapons fire in ``orders.weapons`` order; each hit is resolved as it happens;
        firing stops once the target is destroyed (step i). Bombs are marked used (R7.4).

        Args:
            attacker, target: unit states (changed in place).
            orders: weapons, indirect fire, Command cards played on the attack.
            ctx: the target's :class:`DefenseContext`.
            bonus: asked before each roll whether a Command card is discarded for +1 (R1.3).
            friendly_fire: classic 2-3: the opponent's choice (see :data:`FriendlyFirePolicy`).

        Returns:
            the events; ``[AttackVoid]`` when the attacker or target is already gone (R6.2).

        Raises:
            CombatError: listing every reason the attack is illegal (:func:`attack_problems`).
        """
        if attacker.endurance <= 0 or target.endurance <= 0:
            gone = attacker if attacker.endurance <= 0 else target
            return [
                AttackVoid(
                    f"attack void: {self._n(gone)} is gone (R6.2)",
                    attacker.uid,
                    target.uid,
                    f"{gone.uid} destroyed",
                )
            ]
        problems = attack_problems(self.cards, attacker, target, orders, self.units, self.events_in_play)
        if problems:
            raise CombatError(f"{self._n(attacker)} cannot attack {self._n(target)}: " + "; ".join(problems))
        acard = _card(self.cards, attacker)
        wnames = ", ".join(acard.weapons[i].name for i in orders.weapons)
        events: list[CombatEvent] = [
            AttackStarted(
                f"{self._n(attacker)} attacks {self._n(target)} with {wnames}",
                attacker.uid,
                target.uid,
                tuple(orders.weapons),
                tuple(orders.command_cards),
            )
        ]
        number = 0
        for i in orders.weapons:
            if target.endurance <= 0:
                break
            w = acard.weapons[i]
            n = rate_of_fire(self.cards, attacker, w, self.units, self.events_in_play, orders.command_cards)
            events += self.fire_weapon(
                w,
                target,
                ctx,
                side=attacker.side,
                attacker=attacker,
                weapon_index=i,
                rolls=n,
                command_cards=orders.command_cards,
                bonus=bonus,
                friendly_fire=friendly_fire,
                first_number=number,
            )
            number += n
            if w.bomb:
                attacker.bombs_used = tuple(sorted(set(attacker.bombs_used) | {i}))
                events.append(
                    BombDropped(f"{self._n(attacker)} has dropped its {w.name} (R7.4)", attacker.uid, i)
                )
        return events

    # -- one weapon (steps c-h for each of its rolls) ---------------------------------------
    def fire_weapon(
        self,
        weapon: Weapon,
        target: UnitLike,
        ctx: DefenseContext,
        *,
        side: str,
        attacker: UnitLike | None = None,
        weapon_index: int | None = None,
        rolls: int | None = None,
        command_cards: Sequence[str] = (),
        modifiers: Sequence[tuple[str, int]] = (),
        bonus: BonusPolicy | None = None,
        friendly_fire: FriendlyFirePolicy | None = None,
        first_number: int = 0,
    ) -> list[CombatEvent]:
        """Fire one weapon at ``target``: ``rolls`` to-hit rolls (default its rate of fire), each
        hit resolved at once; stops when the target is destroyed.

        No legality checks here (see :func:`attack_problems`); off-board artillery (R9.4)
        calls this with ``attacker=None`` and the mission's weapon.

        Args:
            weapon: the weapon (its attack value for the target's type must exist).
            side: the firing side (scores the victory points).
            attacker: the firing unit, or ``None`` (off-board artillery).
            weapon_index: its index on the attacker's card (for events and bonus requests).
            rolls: number of to-hit rolls; default the rate of fire with effects.
            command_cards: Command cards played on the attack.
            modifiers: extra named to-hit modifiers (e.g. a scenario's).
            first_number: number of the first roll within the whole attack (for ``bonus``).

        Raises:
            CombatError: when the weapon has no attack value against the target's type.
        """
        cards = self.cards
        tcard = _card(cards, target)
        av = weapon.attack_value(tcard.target_type)
        if av is None:
            raise CombatError(f"{weapon.name} cannot affect a {tcard.target_type}")
        n = (
            rolls
            if rolls is not None
            else rate_of_fire(cards, attacker, weapon, self.units, self.events_in_play, command_cards)
        )
        di = weapon_damage_index(cards, attacker, weapon, self.units, self.events_in_play, command_cards)
        by = (attacker.uid,) if attacker is not None else ()
        events: list[CombatEvent] = []
        for k in range(n):
            if target.endurance <= 0:
                break
            number = first_number + k
            mods = to_hit_modifiers(
                cards, attacker, target, ctx, self.units, self.events_in_play, command_cards, modifiers
            )
            req = BonusRequest(
                "to_hit", number, by[0] if by else None, target.uid, weapon_index, av, sum(v for _, v in mods)
            )
            use = bool(bonus(req)) if bonus else False
            roll = self.dice.roll(
                f"to hit: {self._n(attacker)} {weapon.name} -> {self._n(target)} (needs {av})",
                "2d10",
                mods,
                command_card=use,
            )
            outcome = classify_roll(roll.natural, roll.result, av, self.variant, cards)
            events.append(
                ToHit(
                    f"{roll}: {_OUTCOME_TEXT[outcome]}",
                    by[0] if by else None,
                    target.uid,
                    weapon.name,
                    weapon_index,
                    number,
                    av,
                    roll,
                    outcome,
                )
            )
            if outcome == "miss":
                continue
            if outcome == "friendly_fire":
                events += self._friendly_fire(
                    attacker, weapon, weapon_index, di, friendly_fire, bonus, number
                )
                continue
            if outcome == "special":
                events += self._special(target, ctx, di, side, by, bonus, number, weapon_index)
                continue
            events += self.apply_hit(
                target,
                ctx,
                damage_index=di,
                double=outcome == "double",
                scorer=side,
                by=by,
                bonus=self._intensity_bonus(bonus, number, by, target, weapon_index),
            )
        return events

    @staticmethod
    def _intensity_bonus(
        bonus: BonusPolicy | None,
        number: int,
        by: tuple[str, ...],
        target: UnitLike,
        weapon_index: int | None,
    ) -> bool:
        if bonus is None:
            return False
        return bool(bonus(BonusRequest("intensity", number, by[0] if by else None, target.uid, weapon_index)))

    def _special(
        self,
        target: UnitLike,
        ctx: DefenseContext,
        di: int,
        side: str,
        by: tuple[str, ...],
        bonus: BonusPolicy | None,
        number: int,
        weapon_index: int | None,
    ) -> list[CombatEvent]:
        """Natural 19-20 (R6.4): draw a Damage card (then the hit's damage), or destroy."""
        if self.variant == "classic" or target.damage_card is not None:
            return self.destroy(
                target, scorer=side, by=by, cause="special_roll", fate_die=None, crew_destroyed=True, ctx=ctx
            )
        events = self.draw_damage_card(
            target, reason="special_roll", scorer=side, by=by, ctx=ctx, fate_die=self._fresh_intensity(target)
        )
        if target.endurance > 0:
            events += self.apply_hit(
                target,
                ctx,
                damage_index=di,
                scorer=side,
                by=by,
                bonus=self._intensity_bonus(bonus, number, by, target, weapon_index),
            )
        return events

    def _fresh_intensity(self, target: UnitLike) -> Any:
        """Revision 2, a natural 19-20 whose Damage card's extra damage destroys the target
        before the hit's Intensity is rolled: the hit's Intensity die is rolled then, for the
        crew's fate (000 step g); revision 1 reads the highest extra die (``None``)."""
        if self.rules_revision < 2:
            return None
        return lambda: self.dice.roll(f"intensity: hit on {self._n(target)} (crew fate)", "1d10").natural

    def _friendly_fire(
        self,
        attacker: UnitLike | None,
        weapon: Weapon,
        weapon_index: int | None,
        di: int,
        policy: FriendlyFirePolicy | None,
        bonus: BonusPolicy | None,
        number: int,
    ) -> list[CombatEvent]:
        """Classic natural 2-3 (R6.4): the opponent's chosen friendly target is hit; no points."""
        choice = policy(attacker, weapon, weapon_index) if policy is not None else None
        who = self._n(attacker)
        if choice is None:
            return [
                FriendlyFire(
                    f"friendly fire from {who}: no legal friendly target",
                    attacker.uid if attacker else None,
                    None,
                )
            ]
        victim, vctx = choice
        events: list[CombatEvent] = [
            FriendlyFire(
                f"friendly fire: {who} hits {self._n(victim)}", attacker.uid if attacker else None, victim.uid
            )
        ]
        by = (attacker.uid,) if attacker is not None else ()
        events += self.apply_hit(
            victim,
            vctx,
            damage_index=di,
            scorer=None,
            by=by,
            source="friendly fire",
            bonus=self._intensity_bonus(bonus, number, by, victim, weapon_index),
        )
        return events

    # -- damage (steps d-h) ------------------------------------------------------------------
    def apply_hit(
        self,
        target: UnitLike,
        ctx: DefenseContext,
        *,
        damage_index: int,
        double: bool = False,
        scorer: str | None = _AUTO,
        by: tuple[str, ...] = (),
        source: str = "hit",
        bonus: bool = False,
        intensity: int | None = None,
    ) -> list[CombatEvent]:
        """Apply one hit: Intensity 1d10 (+1 with the Command-card bonus; doubled on a natural 18)
        + Damage Index - effective Defense, at least 0 (R6.5); then critical damage (R6.6) and
        destruction with victory points and crew fate.

        Fire damage (R8.5) calls this with ``damage_index=4, source="fire"``.

        Args:
            target: the unit hit (changed in place).
            ctx: its :class:`DefenseContext`.
            damage_index: the weapon's Damage Index (with effects).
            double: a natural 18 hit (R6.4).
            scorer: the side scoring a destruction; default the target's opponent; ``None``
                for nobody (friendly fire).
            by: attacking unit uids (for the events).
            source: what hit it, for the events and log.
            bonus: the attacker discards a Command card for +1 on the Intensity roll (R1.3).
            intensity: a fixed natural Intensity die instead of rolling (tests, replays).

        Returns:
            events: :class:`DamageApplied`, then maybe :class:`DamageCardDrawn`,
            :class:`ExtraDamage`, :class:`UnitDestroyed`, :class:`CrewFate`.
        """
        if scorer == _AUTO:
            scorer = opponent(target.side)
        if target.endurance <= 0:
            return []
        if intensity is None:
            roll = self.dice.roll(f"intensity: {source} on {self._n(target)}", "1d10", command_card=bonus)
        else:
            if not 1 <= intensity <= 10:
                raise CombatError(f"an Intensity die reads 1..10, not {intensity}")
            mods = (("command card", 1),) if bonus else ()
            roll = Roll(
                f"intensity: {source} on {self._n(target)} (fixed)",
                "1d10",
                (intensity,),
                mods,
                intensity,
                intensity + sum(v for _, v in mods),
            )
        raw = roll.result * (2 if double else 1)
        return self._damage(target, ctx, roll, raw, double, damage_index, roll.natural, scorer, by, source)

    def _damage(
        self,
        target: UnitLike,
        ctx: DefenseContext,
        roll: Roll | None,
        raw: int,
        doubled: bool,
        damage_index: int,
        fate_die: int,
        scorer: str | None,
        by: tuple[str, ...],
        source: str,
    ) -> list[CombatEvent]:
        cards = self.cards
        card = _card(cards, target)
        defense, parts = effective_defense(cards, target, ctx, self.units, self.events_in_play)
        damage = max(0, raw + damage_index - defense)
        before = target.endurance
        target.endurance = before - damage
        dtext = " ".join(f"{v:+d} {n}" for n, v in parts)
        events: list[CombatEvent] = [
            DamageApplied(
                f"{self._n(target)} takes {damage} damage ({source}: {'2x' if doubled else ''}{raw // (2 if doubled else 1)}"
                f" + DI {damage_index} - Defense {defense} [{dtext}]); Endurance {before} -> {target.endurance}",
                target.uid,
                source,
                roll,
                raw,
                doubled,
                damage_index,
                defense,
                damage,
                before,
                target.endurance,
            )
        ]
        if target.endurance <= 0:
            events += self.destroy(target, scorer=scorer, by=by, cause="damage", fate_die=fate_die, ctx=ctx)
        elif target.damage_card is None and target.endurance <= card.endurance_half:
            events += self.draw_damage_card(
                target,
                reason="half_endurance",
                scorer=scorer,
                by=by,
                ctx=ctx,
                fate_die=fate_die if self.rules_revision >= 2 else None,
            )
        return events

    def draw_damage_card(
        self,
        target: UnitLike,
        *,
        reason: str,
        scorer: str | None = _AUTO,
        by: tuple[str, ...] = (),
        ctx: DefenseContext | None = None,
        fate_die: Any = None,
    ) -> list[CombatEvent]:
        """Draw a Damage card for ``target`` and apply its edge for the target's type (R6.6).

        At most one card per unit (a unit that has one draws nothing). Immediate effects:
        ``extra_damage`` (d10s, no Defense) and ``turns_of_flight``. A veteran ignores a
        marked edge (the card still counts). When the extra damage destroys the unit, its
        crew's fate reads ``fate_die``: the destroying attack's natural Intensity die (000 step
        g; a Close Assault's highest die), or a function rolling it (a natural 19-20 draws the
        card before the hit's Intensity roll); ``None`` (rules revision 1, or no attack) reads
        the highest extra die.

        Args:
            reason: ``"half_endurance"`` or ``"special_roll"``.
            fate_die: a die face 1..10, a zero-argument function returning one, or ``None``.
        """
        if scorer == _AUTO:
            scorer = opponent(target.side)
        cards = self.cards
        if target.damage_card is not None or target.endurance <= 0:
            return []
        inst = self.damage_deck.draw(self.dice)
        if inst is None:
            return [DamageDeckEmpty(f"no Damage card left for {self._n(target)}", target.uid)]
        card = _card(cards, target)
        edge = cards.damage_card(inst).side_for(card.unit_type)
        target.damage_card = inst
        target.damage_turns = edge.turns
        ignored = edge.veteran_ignores and _is_veteran(cards, target, self.units)
        events: list[CombatEvent] = [
            DamageCardDrawn(
                f"{self._n(target)} draws Damage card {inst}: {edge.describe(cards.rules)}"
                + (" (ignored by its veterans)" if ignored else ""),
                target.uid,
                inst,
                edge.title,
                reason,
                ignored,
                edge.turns,
            )
        ]
        if ignored:
            return events
        extra = sum(e.value for e in edge.effects if e.kind == EffectKind.EXTRA_DAMAGE)
        if extra:
            roll = self.dice.roll(f"extra damage ({edge.title}) on {self._n(target)}", f"{extra}d10")
            before = target.endurance
            target.endurance = before - roll.result
            events.append(
                ExtraDamage(
                    f"{roll}: {self._n(target)} Endurance {before} -> {target.endurance}",
                    target.uid,
                    roll,
                    roll.result,
                    before,
                    target.endurance,
                )
            )
            if target.endurance <= 0:
                die = fate_die() if callable(fate_die) else fate_die
                events += self.destroy(
                    target,
                    scorer=scorer,
                    by=by,
                    cause="extra_damage",
                    fate_die=max(roll.faces) if die is None else int(die),
                    ctx=ctx,
                )
                return events
        tof = sum(e.value for e in edge.effects if e.kind == EffectKind.TURNS_OF_FLIGHT)
        if tof and card.unit_type == "aircraft":
            before = int(target.flight_turns)
            target.flight_turns = max(0, before + tof)
            events.append(
                FlightTurnsChanged(
                    f"{self._n(target)}: Turns of Flight {before} -> {target.flight_turns}",
                    target.uid,
                    before,
                    target.flight_turns,
                )
            )
        return events

    def destroy(
        self,
        target: UnitLike,
        *,
        scorer: str | None,
        by: tuple[str, ...] = (),
        cause: str = "damage",
        fate_die: int | None = None,
        crew_destroyed: bool = False,
        ctx: DefenseContext | None = None,
    ) -> list[CombatEvent]:
        """Destroy ``target`` (step g, R6.6): Endurance 0, victory points, crew fate.

        The crew's fate comes from ``fate_die`` (the destroying hit's natural Intensity die):
        1-3 survives (under its Reserves deck), 4-6 captured (2x its cost), 7-10 destroyed
        (its cost). ``crew_destroyed`` (natural 19-20 destruction) destroys it outright. A
        capture needs a scorer, and in ``classic`` a ground unit of the captor in play
        (``ctx.captor_has_ground_unit``); otherwise the crew survives.
        """
        cards = self.cards
        card = _card(cards, target)
        target.endurance = 0
        vp = card.cost if scorer else 0
        events: list[CombatEvent] = [
            UnitDestroyed(
                f"{self._n(target)} is destroyed" + (f": {vp} VP to {scorer}" if scorer else " (no points)"),
                target.uid,
                card.id,
                card.unit_type,
                target.side,
                scorer,
                vp,
                cause,
                tuple(by),
                card.unit_type == "vehicle",
            )
        ]
        crew = _crew_of(self.units, target)
        if crew is None or crew.endurance <= 0:
            return events
        ccard = _card(cards, crew)
        if crew_destroyed or fate_die is None:
            fate = "destroyed"
        else:
            fate = cards.rules.crew_fate(fate_die)
        if fate == "captured" and (
            scorer is None
            or (self.variant == "classic" and ctx is not None and not ctx.captor_has_ground_unit)
        ):
            fate = "survives"
        cvp = (
            0
            if scorer is None
            else {
                "survives": 0,
                "captured": ccard.cost * cards.rules.capture_multiplier,
                "destroyed": ccard.cost,
            }[fate]
        )
        die = "" if fate_die is None or crew_destroyed else f" (die {fate_die})"
        events.append(
            CrewFate(
                f"{self._n(crew)} {fate}{die}" + (f": {cvp} VP to {scorer}" if cvp else ""),
                crew.uid,
                target.uid,
                fate,
                None if crew_destroyed else fate_die,
                scorer,
                cvp,
            )
        )
        return events

    # -- close assault (000) ----------------------------------------------------------------
    def close_assault(
        self,
        assaulters: Sequence[UnitLike],
        target: UnitLike,
        ctx: DefenseContext,
        *,
        command_cards: Sequence[str] = (),
        bonus: BonusPolicy | None = None,
    ) -> list[CombatEvent]:
        """A Close Assault by three or more infantry on a vehicle (000; R6.6: adjacent to it).

        At resolution the infantry still able to attack are counted; fewer than three foils it
        (:class:`CloseAssaultFoiled`). One to-hit roll with the best attack value vs vehicles
        of the group; on a hit roll 1d10 per assaulting unit, sum (doubled on a natural 18) -
        effective Defense, no Damage Index; crew fate from the highest die. Natural 19-20 as
        for any attack; a classic natural 2-3 is a plain miss (no weapon to misdirect).

        Raises:
            CombatError: when the target is not a vehicle or a played card does not fit.
        """
        cards = self.cards
        ids = tuple(u.uid for u in assaulters)
        if target.endurance <= 0:
            return [
                AttackVoid(
                    f"close assault void: {self._n(target)} is gone (R6.2)",
                    ",".join(ids),
                    target.uid,
                    f"{target.uid} destroyed",
                )
            ]
        tcard = _card(cards, target)
        if tcard.unit_type != "vehicle":
            raise CombatError(f"close assault on {self._n(target)}: only vehicles are Close Assaulted (000)")
        ready, _ = close_assault_problems(cards, assaulters, target, self.units, self.events_in_play)
        bad_cards = _command_card_problems(cards, tcard, command_cards, close_assault=True)
        if bad_cards:
            raise CombatError(f"close assault on {self._n(target)}: " + "; ".join(bad_cards))
        if len(ready) < cards.rules.close_assault_min:
            return [
                CloseAssaultFoiled(
                    f"close assault on {self._n(target)} foiled: only {len(ready)} infantry left",
                    ids,
                    target.uid,
                    tuple(u.uid for u in ready),
                )
            ]
        av = close_assault_attack_value(cards, ready)
        assert av is not None
        side = ready[0].side
        rid = tuple(u.uid for u in ready)
        mods = _close_assault_modifiers(
            cards, ready, target, ctx, self.units, self.events_in_play, command_cards
        )
        events: list[CombatEvent] = [
            CloseAssaultStarted(
                f"close assault by {', '.join(self._n(u) for u in ready)} on {self._n(target)} (needs {av})",
                rid,
                target.uid,
                av,
            )
        ]
        use = (
            bool(bonus(BonusRequest("to_hit", 0, rid[0], target.uid, None, av, sum(v for _, v in mods))))
            if bonus
            else False
        )
        roll = self.dice.roll(
            f"close assault to hit -> {self._n(target)} (needs {av})", "2d10", mods, command_card=use
        )
        outcome = classify_roll(roll.natural, roll.result, av, self.variant, cards)
        if outcome == "friendly_fire":
            outcome = "miss"
        events.append(
            ToHit(
                f"{roll}: {_OUTCOME_TEXT[outcome]}",
                rid[0],
                target.uid,
                "close assault",
                None,
                0,
                av,
                roll,
                outcome,
            )
        )
        if outcome == "miss":
            return events
        if outcome == "special":
            if self.variant == "classic" or target.damage_card is not None:
                return events + self.destroy(
                    target, scorer=side, by=rid, cause="special_roll", crew_destroyed=True, ctx=ctx
                )
            # the assault dice are the Intensity of a Close Assault: rolled for the crew's fate
            # when the extra damage destroys the target first (revision 2, 000 step g)
            fresh = (
                None
                if self.rules_revision < 2
                else (
                    lambda: max(
                        self.dice.roll(
                            f"close assault dice ({len(ready)} infantry) on {self._n(target)} (crew fate)",
                            f"{len(ready)}d10",
                        ).faces
                    )
                )
            )
            events += self.draw_damage_card(
                target, reason="special_roll", scorer=side, by=rid, ctx=ctx, fate_die=fresh
            )
            if target.endurance <= 0:
                return events
        use = bool(bonus(BonusRequest("assault_dice", 0, rid[0], target.uid))) if bonus else False
        dice_roll = self.dice.roll(
            f"close assault dice ({len(ready)} infantry) on {self._n(target)}",
            f"{len(ready)}d10",
            command_card=use,
        )
        doubled = outcome == "double"
        raw = dice_roll.result * (2 if doubled else 1)
        return events + self._damage(
            target, ctx, dice_roll, raw, doubled, 0, max(dice_roll.faces), side, rid, "close assault"
        )


_OUTCOME_TEXT = {
    "miss": "miss",
    "hit": "hit",
    "double": "hit, natural 18: Intensity doubled",
    "special": "natural 19-20: special hit",
    "friendly_fire": "natural 2-3: friendly fire",
}


# --------------------------------------------------------------------------------------------
# End Turn and leaving play
# --------------------------------------------------------------------------------------------


def end_turn(cards: CardSet, units: Mapping[str, UnitLike]) -> list[CombatEvent]:
    """End Turn for every unit in play (R5.6), in uid order.

    For each unit with Endurance > 0: Command cards of duration ``"turn"`` expire (removed
    from the unit; :class:`CommandCardExpired` -- the game discards them); the Damage-card
    counter counts down (:class:`DamageEffectEnded` at 0); an aircraft's Turns of Flight count
    down (:class:`AircraftReturns` at 0; its bombs are reset for the next flight); finally
    Current Endurance recovers to Full without a Damage card, to Half with one.
    """
    events: list[CombatEvent] = []
    for uid in sorted(units):
        u = units[uid]
        if u.endurance <= 0:
            continue
        card = cards.unit(u.card)
        keep = []
        for inst in u.command_cards:
            c = cards.command_or_event(inst)
            if isinstance(c, CommandCard) and c.duration == "turn":
                events.append(CommandCardExpired(f"{c.title} leaves {_name(cards, u)}", u.uid, inst))
            else:
                keep.append(inst)
        if len(keep) != len(u.command_cards):
            u.command_cards[:] = keep
        if u.damage_card is not None and u.damage_turns is not None and u.damage_turns > 0:
            u.damage_turns -= 1
            if u.damage_turns == 0:
                edge = cards.damage_card(u.damage_card).side_for(card.unit_type)
                events.append(
                    DamageEffectEnded(f"{edge.title} on {_name(cards, u)} ends", u.uid, u.damage_card)
                )
        if card.unit_type == "aircraft":
            u.flight_turns = int(u.flight_turns) - 1
            if u.flight_turns <= 0:
                u.flight_turns = 0
                u.bombs_used = ()
                events.append(
                    AircraftReturns(f"{_name(cards, u)} has spent its Turns of Flight", u.uid, u.crew)
                )
        want = card.endurance_half if u.damage_card is not None else card.endurance_full
        if u.endurance != want:
            before = u.endurance
            u.endurance = want
            events.append(
                EnduranceRecovered(
                    f"{_name(cards, u)} Endurance {before} -> {want}"
                    f" ({'Half: it has a Damage card' if u.damage_card else 'Full'})",
                    u.uid,
                    before,
                    want,
                )
            )
    return events


def leave_play(unit: UnitLike, damage_deck: Deck, command_discard: list[str] | None = None) -> list[str]:
    """Clear a unit leaving play: its Damage card to the Damage discard pile, its Command cards
    to ``command_discard`` (000: "any associated Command or Damage cards are cleared").

    Returns:
        the card instances moved.
    """
    moved: list[str] = []
    if unit.damage_card is not None:
        damage_deck.discard_card(unit.damage_card)
        moved.append(unit.damage_card)
        unit.damage_card = None
        unit.damage_turns = None
    if unit.command_cards:
        if command_discard is not None:
            command_discard.extend(unit.command_cards)
        moved.extend(unit.command_cards)
        unit.command_cards[:] = []
    return moved


def victory_points(cards: CardSet, card_id: str, captured: bool = False) -> int:
    """Victory points for destroying (its cost) or capturing (twice its cost) a card (R6.6, R10).

    >>> from hexwar.rules.cards import default_cards
    >>> victory_points(default_cards(), "de_tiger_i#1"), victory_points(default_cards(), "de_tiger_i", captured=True)
    (24, 48)
    """
    cost = cards.unit(card_id).cost
    return cost * cards.rules.capture_multiplier if captured else cost


def events_json(events: Iterable[CombatEvent]) -> list[dict[str, Any]]:
    """The events as JSON-ready dicts."""
    return [e.to_json() for e in events]
