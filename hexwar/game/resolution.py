"""Resolving attacks, artillery and fire on a game, and what follows from them (R6, R8-R10).

The dice-and-damage rules are the combat engine's (:mod:`hexwar.rules.combat`), the strike and
drift rules the artillery module's (:mod:`hexwar.rules.artillery`), fire the fire module's; this
module feeds them the game's units and applies what they report to the game state:

* a unit destroyed leaves play (:class:`~hexwar.rules.combat.UnitDestroyed`): its card is out of the game, any Damage card goes to the
  Damage discard, Command cards under it leave the game; a destroyed vehicle leaves a wreck
  (R8.1; a wreck it was towing drops in its hex); the destroying side scores its cost (R6.6,
  R10) - except friendly fire in ``classic`` (001: no points) and fire damage, which scores for
  the enemy of the unit's controller (docs/rules.md);
* its crew's fate (R6.6): survives (under its owner's Reserves deck), captured (twice its cost
  to the captor), destroyed (its cost);
* crewless units that nobody supports are enveloped at End Turn (docs/rules.md), and a side
  that puts a crew on a captured unit gives up the capture points (000);
* Command cards (R4.3): checked, played and expired here; Events drawn apply here.

Every kill is recorded as a :class:`~hexwar.game.state.Kill`, so victory points always equal
the costs of what each side destroyed plus twice what it captured (an invariant the tests check
after every command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.hexgrid import Hex
from ..rules import combat
from ..rules.artillery import ArtilleryUnitAttack, artillery_steps
from ..rules.buildings import BuildingAttackKind, attack_building
from ..rules.cards import Deck, Weapon
from ..rules.combat import AttackOrders, CombatEngine, DefenseContext, bonus_on, normalize_variant
from ..rules.fire import FireDamageCheck, fire_damage_steps
from ..rules.terrain_effects import default_effects, defense_class
from ..rules.wrecks import drop_wreck, wreck_vehicle
from . import ruleset
from .event_kinds import CrewEvent, ScoreEvent
from .events import Event, GameEvent, RuleEvent, UnitWreckEvent
from .state import Kill, card_of, other_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import Attack, GameState, UnitState

__all__ = [
    "TargetView",
    "resolve_attack",
    "artillery_mission",
    "fire_hit",
    "score",
    "forfeit_capture",
    "return_to_reserves",
    "envelop_crewless",
    "end_turn_units",
    "defense_context",
    "has_ground_unit",
    "end_turn_events",
    "fire_damage",
    "attack_rolls",
    "fights_afoot",
    "spend_bonus_policy",
]


class TargetView:
    """A unit as the artillery and fire rules see it: ``.id`` and ``.defense_class`` (R6.8)."""

    def __init__(self, uid: str, state: GameState):
        self.id = uid
        self.defense_class = defense_class(ruleset.unit_type(uid))


# -- scoring and leaving play ------------------------------------------------------------------
def score(state: GameState, scorer: str, uid: str, kind: str) -> Event:
    """Record a kill (R6.6, R10): ``kind`` ``"destroyed"`` scores the card's cost, ``"captured"``
    twice (the rules' capture multiplier)."""
    c = ruleset.cost(uid)
    mult = ruleset.cards().rules.capture_multiplier if kind == "captured" else 1
    pts = c * mult
    state.kills.append(Kill(scorer, uid, kind, pts, state.turn))
    state.vp[scorer] += pts
    return ScoreEvent(
        f"{scorer} scores {pts} VP for {kind} {ruleset.card_name(uid)} ({uid}): {state.vp[scorer]} VP",
        {"side": scorer, "unit": uid, "kind": kind, "points": pts},
    )


def forfeit_capture(state: GameState, uid: str, sink: Any) -> None:
    """000: crewing a captured unit instead of scoring it: the capture points are given back."""
    for k in list(state.kills):
        if k.uid == uid and k.kind == "captured":
            state.kills.remove(k)
            state.vp[k.scorer] -= k.points
            sink.emit(
                "forfeit",
                f"{k.scorer} crews captured {ruleset.card_name(uid)} ({uid}) and gives up its "
                f"{k.points} VP: {state.vp[k.scorer]} VP",
                side=k.scorer,
                unit=uid,
                points=k.points,
            )


def _clear_cards(state: GameState, u: UnitState) -> None:
    """000: when a unit leaves play its Command and Damage cards are cleared and discarded."""
    if u.damage_card is not None:
        state.damage_discard.append(u.damage_card)
        u.damage_card = None
        u.damage_turns = None
    for c in u.command_cards:
        state.command_discard.append(c)
    u.command_cards = []


def fights_afoot(state: GameState, crew: Any) -> bool:
    """Variant ``crews-fight`` (000's optional rule, R11.3): a surviving crew (fate 1-3) of a
    frontline ground unit (frontline or SPG card, on the map) whose card has an infantry profile
    (``fight_as_infantry`` in crews.toml: Regular and Veteran tank and gun crews) stays in the
    unit's hex as an infantry unit of its own instead of going under the Reserves deck."""
    if "crews-fight" not in state.variants or crew.hex is None or crew.aloft or crew.crewing is None:
        return False
    if not ruleset.weapons(card_of(crew.uid)):
        return False
    return ruleset.line(card_of(crew.crewing)) in ("frontline", "either")


def _crew_leaves(state: GameState, cid: str, fate: str, scorer: str | None) -> list[Event]:
    c = state.units.pop(cid)
    _clear_cards(state, c)
    name = ruleset.card_name(cid)
    if fate == "survives" and fights_afoot(state, c):
        crewed = c.crewing
        state.units[cid] = c  # back into play, on its own
        c.crewing = None
        c.endurance = ruleset.full_endurance(cid)
        c.mp_left = 0.0
        state.cache.clear()
        return [
            CrewEvent(
                f"{name} ({cid}) survives the loss of {ruleset.card_name(crewed or '')} and stays in "
                f"{c.hex.label if c.hex else '?'} to fight as infantry (variant crews-fight, 000)",
                {"unit": cid, "fate": "fights", "hex": c.hex.label if c.hex else None},
            )
        ]
    if fate == "survives":
        state.reserves[c.owner].append(cid)
        return [
            CrewEvent(
                f"{name} ({cid}) survives and goes under the {c.owner} Reserves deck (R6.6)",
                {"unit": cid, "fate": fate},
            )
        ]
    state.removed.append(cid)
    out: list[Event] = [CrewEvent(f"{name} ({cid}) is {fate} (R6.6)", {"unit": cid, "fate": fate})]
    if scorer is not None and scorer != c.owner:
        out.append(score(state, scorer, cid, "captured" if fate == "captured" else "destroyed"))
    return out


def return_to_reserves(state: GameState, uid: str, sink: Any, why: str) -> None:
    """An aircraft (with its pilot) goes under its owner's Reserves deck (R5.6)."""
    u = state.units.pop(uid)
    _clear_cards(state, u)
    state.reserves[u.owner].append(uid)
    txt = f"{ruleset.card_name(uid)} ({uid})"
    if u.crew is not None and u.crew in state.units:
        c = state.units.pop(u.crew)
        _clear_cards(state, c)
        state.reserves[c.owner].append(c.uid)
        txt += f" with {ruleset.card_name(c.uid)} ({c.uid})"
    sink.emit("withdraw", f"{txt} returns under the {u.owner} Reserves deck: {why} (R5.6)", unit=uid)


def envelop_crewless(state: GameState, sink: Any) -> None:
    """End Turn: crewless units enveloped by the enemy are captured (000, map reading).

    A unit that needs a crew and has none, with an enemy ground unit adjacent and no friendly
    crewed ground unit within 1 hex to support it (both conditions), passes to the enemy's
    control; the captor scores twice its cost (it may later crew it instead, giving the points
    back, :func:`forfeit_capture`). See docs/rules.md.
    """
    for uid, u in sorted(state.units.items()):
        if u.hex is None or u.aloft or u.crew is not None or not ruleset.needs_crew(u.card):
            continue
        enemy = other_side(u.side)
        near = [
            v
            for v in state.units.values()
            if v.hex is not None
            and not v.aloft
            and v.crewing is None
            and v.hex.distance(u.hex) <= 1
            and v.uid != uid
            and ruleset.is_ground(v.card)
        ]
        enemy_adj = any(v.side == enemy and not (ruleset.needs_crew(v.card) and v.crew is None) for v in near)
        friend = any(v.side == u.side and not (ruleset.needs_crew(v.card) and v.crew is None) for v in near)
        if enemy_adj and not friend:
            _clear_cards(state, u)
            u.side = enemy
            sink.emit(
                "captured",
                f"crewless {ruleset.card_name(uid)} ({uid}) in {u.hex.label} is enveloped and "
                f"captured by {enemy} (000)",
                unit=uid,
                side=enemy,
            )
            if u.owner != enemy:
                sink.add(score(state, enemy, uid, "captured"))
            else:  # retaken by its owner: the captor's points for it go
                forfeit_capture(state, uid, sink)


# -- the combat engine ---------------------------------------------------------------------------
class _DamageDeck:
    """The game's Damage deck lists seen as a :class:`hexwar.rules.cards.Deck` for one engine run."""

    def __init__(self, state: GameState):
        self.state = state
        self.deck = Deck("damage", state.damage_deck, state.damage_discard, reshuffle=True)

    def write_back(self) -> None:
        """The deck may have rebound its lists on a reshuffle: store them in the state again."""
        self.state.damage_deck = self.deck.cards
        self.state.damage_discard = self.deck.discard


def _engine(state: GameState) -> tuple[Any, _DamageDeck]:
    dd = _DamageDeck(state)
    eng = CombatEngine(
        ruleset.cards(),
        state.dice,
        dd.deck,
        state.units,
        variant=normalize_variant(state.variants),
        events_in_play=tuple(state.events_in_play),
        rules_revision=state.rules_revision,
    )
    return eng, dd


def has_ground_unit(state: GameState, side: str) -> bool:
    """The side has a ground unit on the map (000 capture in ``classic``, R6.6)."""
    return any(
        u.side == side
        and u.hex is not None
        and not u.aloft
        and u.crewing is None
        and ruleset.is_ground(u.card)
        for u in state.units.values()
    )


def defense_context(state: GameState, uid: str, hindrances: int = 0, attacker_side: str | None = None) -> Any:
    """The :class:`~hexwar.rules.combat.DefenseContext` of unit ``uid`` where it stands (R6.7)."""
    u = state.units[uid]
    captor = has_ground_unit(state, attacker_side or other_side(u.side))
    if u.hex is None or u.aloft:
        return DefenseContext(0, hindrances, captor)
    return DefenseContext.at(
        state.battlemap, u.hex, ruleset.unit_card(uid), hindrances=hindrances, captor_has_ground_unit=captor
    )


def _friendly_fire_policy(state: GameState) -> Any:
    """Classic 2-3 (R6.4): the opponent picks the firer's most valuable friendly unit that the
    weapon could legally target (affects it; in range and LOS for a ground firer; any for an
    aircraft); ties go to the lowest instance id. Off-board artillery has no friendly target
    (docs/rules.md)."""

    def policy(attacker: Any, weapon: Any, widx: int | None) -> Any:
        if attacker is None:
            return None
        best = None
        for uid, v in sorted(state.units.items()):
            if v.side != attacker.side or uid == attacker.uid or v.crewing is not None:
                continue
            if not weapon.affects(ruleset.unit_card(uid)):
                continue
            if not attacker.aloft and not v.aloft:
                if attacker.hex is None or v.hex is None or not weapon.in_range(attacker.hex.distance(v.hex)):
                    continue
                if not ruleset.sees(state, attacker.hex, v.hex)[0]:
                    continue
            key = (-ruleset.cost(uid), uid)
            if best is None or key < best[0]:
                best = (key, uid)
        if best is None:
            return None
        return state.units[best[1]], defense_context(state, best[1])

    return policy


def _apply_combat_events(state: GameState, evs: list[Any], sink: Any) -> list[GameEvent]:
    """Carry out what the combat engine's events mean for the game, keeping them typed
    (:class:`~hexwar.game.events.RuleEvent`): destroyed units leave play (cards, wrecks,
    score), crews meet their fate (R6.6)."""
    out: list[GameEvent] = []
    for ev in evs:
        out.append(RuleEvent(ev))
        if isinstance(ev, combat.UnitDestroyed):
            if ev.unit in state.units:
                out.extend(_unit_destroyed(state, ev))
        elif isinstance(ev, combat.CrewFate):
            if ev.crew in state.units:
                out.extend(_crew_leaves(state, ev.crew, ev.fate, ev.scorer))
    return out


def _unit_destroyed(state: GameState, ev: Any) -> list[GameEvent]:
    """UnitDestroyed (R6.6): out of the game; the engine's scorer gets its cost; wreck (R8.1)."""
    out: list[GameEvent] = []
    uid = ev.unit
    u = state.units.pop(uid)
    _clear_cards(state, u)
    state.removed.append(uid)
    if ev.scorer is not None:
        out.append(_record(state, ev.scorer, uid, "destroyed"))
    if u.hex is not None and not u.aloft:
        if u.towing:
            w = drop_wreck(state.battlemap, uid, u.hex, u.towing)
            w.apply(state.battlemap)
            out.append(UnitWreckEvent(w))
            u.towing = None
        if ev.wreck:
            wp = wreck_vehicle(
                state.battlemap,
                u.hex,
                ruleset.unit_card(uid).side,
                state.dice,
                vehicle=ruleset.card_name(uid),
            )
            wp.apply(state.battlemap)
            out.append(UnitWreckEvent(wp))
    if u.crewing is not None and u.crewing in state.units:
        state.units[u.crewing].crew = None  # a gun's crew shot away (R7.5): the gun stands crewless
    return out


def _record(state: GameState, scorer: str, uid: str, kind: str) -> Event:
    return score(state, scorer, uid, kind)


def attack_rolls(state: GameState, a: Attack) -> list[str]:
    """The rolls of declared attack ``a`` a Command card may add 1 to (R1.3), as named in
    :class:`~hexwar.game.commands.Resolve` ``bonus_rolls``, in roll order: each to-hit roll
    (``"to_hit:N"``: the first weapon's rate of fire, then the second's) followed by its
    Intensity (``"intensity:N"``); a Close Assault's ``"to_hit:0"`` and ``"assault_dice"``.
    A building attack has none (its AV roll takes no dice modifiers, R8.2). Rate of fire
    counts the effects in force now (R6.3)."""
    if a.building is not None or a.resolved:
        return []
    if a.close_assault:
        return ["to_hit:0", "assault_dice"]
    u = state.units.get(a.attackers[0])
    if u is None:
        return []
    out: list[str] = []
    n = 0
    ws = ruleset.weapons(u.card)
    for i in a.weapons:
        for _ in range(
            combat.rate_of_fire(
                ruleset.cards(), u, ws[i], state.units, tuple(state.events_in_play), tuple(a.command_cards)
            )
        ):
            out += [f"to_hit:{n}", f"intensity:{n}"]
            n += 1
    return out


def spend_bonus_policy(
    state: GameState, side: str, target: str, plan: dict[str, str], first_to_hit: bool = False
) -> Any:
    """The :data:`~hexwar.rules.combat.BonusPolicy` of a :class:`~hexwar.game.commands.Resolve`:
    ``plan`` maps roll names (:func:`attack_rolls`) to Command cards in ``side``'s hand; a card
    is discarded from the hand when its roll is made (R1.3), and only for a roll against the
    attack's ``target`` (a classic friendly-fire victim's Intensity is never raised).
    ``first_to_hit``: the round-1 ``bonus_card`` (already discarded) covers ``"to_hit:0"``."""
    plan = dict(plan)

    def policy(req: Any) -> bool:
        key = "assault_dice" if req.roll == "assault_dice" else f"{req.roll}:{req.number}"
        if first_to_hit and key == "to_hit:0":
            return True
        if req.target != target or key not in plan:
            return False
        card = plan.pop(key)
        state.hand_commands[side].remove(card)
        state.command_discard.append(card)
        return True

    return policy


def resolve_attack(
    state: GameState, a: Attack, bonus: bool, sink: Any, plan: dict[str, str] | None = None
) -> None:
    """Resolve one declared attack through the combat engine (R6.2-R6.6) and apply the results.

    A flamethrower that fired at a unit in a building then attacks the building (R8.2, 003).
    The attack's Command cards are discarded afterwards.

    Args:
        bonus: a Command card was discarded for +1 on the first to-hit roll (R1.3).
        plan: further R1.3 bonuses, roll name -> Command card (:func:`spend_bonus_policy`).
    """
    if a.building is not None:  # R8.2: infantry close combat against a building (no dice modifiers)
        u = state.units[a.attackers[0]]
        w = ruleset.weapons(u.card)[a.weapons[0]]
        ev = attack_building(
            state.battlemap,
            a.building,
            BuildingAttackKind.CLOSE_COMBAT,
            w.damage_index,
            state.dice,
            attacker=f"{ruleset.card_name(u.card)} ({u.uid})",
            attacker_hex=u.hex,
        )
        if ev is not None:
            sink.effect(ev)
        state.command_discard.extend(a.command_cards)
        a.command_cards = []
        return
    eng, dd = _engine(state)
    t = state.units[a.target]
    target_uid = t.crew if a.at_crew and t.crew is not None else a.target
    pol = (
        spend_bonus_policy(state, a.side, target_uid, plan, bonus)
        if plan
        else (bonus_on(to_hit=[0]) if bonus else None)
    )
    target = state.units[target_uid]
    ctx = defense_context(state, target_uid, a.hindrance, a.side)
    target_hex = t.hex
    if a.close_assault:
        evs = eng.close_assault(
            [state.units[x] for x in a.attackers if x in state.units],
            target,
            ctx,
            command_cards=tuple(a.command_cards),
            bonus=pol,
        )
    else:
        attacker = state.units[a.attackers[0]]
        orders = AttackOrders(tuple(a.weapons), a.indirect, tuple(a.command_cards))
        evs = eng.resolve_attack(
            attacker, target, orders, ctx, bonus=pol, friendly_fire=_friendly_fire_policy(state)
        )
    dd.write_back()
    sink.rule_events(_apply_combat_events(state, evs, sink))
    if not a.close_assault and target_hex is not None and a.attackers[0] in state.units:
        attacker = state.units[a.attackers[0]]
        flames = [i for i in a.weapons if ruleset.weapons(attacker.card)[i].flamethrower]
        for i in flames:
            w = ruleset.weapons(attacker.card)[i]
            ev = attack_building(
                state.battlemap,
                target_hex,
                BuildingAttackKind.FLAMETHROWER,
                w.damage_index,
                state.dice,
                attacker=f"{ruleset.card_name(attacker.card)} ({attacker.uid})",
            )
            if ev is not None:
                sink.effect(ev)
    for c in a.command_cards:
        state.command_discard.append(c)
    a.command_cards = []


def _artillery_weapon(side: str, w: Any) -> Any:
    pairs = tuple((k, w.attack[k]) for k in ("infantry", "vehicle", "gun") if k in w.attack)
    return Weapon(
        id=f"{side}_offboard_artillery",
        name=w.name,
        attack=pairs,
        rate_of_fire=w.rate_of_fire,
        damage_index=w.damage_index,
        range=0,
        indirect=True,
    )


def artillery_mission(state: GameState, side: str, h: Hex, bonus: bool, sink: Any) -> None:
    """Resolve one off-board mission on ``h`` (R9.3, R9.4) and apply what it did.

    The strike (accuracy, drift) and the building attack are :mod:`hexwar.rules.artillery`'s;
    each unit in the landing hex is attacked by the mission's weapon through the combat
    engine, its losses applied at once (a new wreck protects the next unit attacked).
    """
    art = state.scenario.sides[side].artillery
    assert art is not None
    acc = state.pending[side].get("artillery_accuracy", 0)
    hit_on = art.hit_on
    if acc:
        hit_on = (hit_on if hit_on is not None else default_effects().side_hit_on(side)) - acc
    weapon = _artillery_weapon(side, art.weapon)

    def units_at(x: Hex) -> list[TargetView]:
        return [
            TargetView(u.uid, state)
            for _, u in sorted(state.units.items())
            if u.hex == x and not u.aloft and u.crewing is None
        ]

    def attack_unit(ev: ArtilleryUnitAttack) -> list[GameEvent]:
        u = state.units.get(ev.unit)
        if u is None or weapon.attack_value(ruleset.target_type(u.uid)) is None:
            return []
        eng, dd = _engine(state)
        ctx = DefenseContext(ev.terrain_modifier, 0, has_ground_unit(state, side))
        evs = eng.fire_weapon(
            weapon, u, ctx, side=side, attacker=None, friendly_fire=_friendly_fire_policy(state)
        )
        dd.write_back()
        return _apply_combat_events(state, evs, sink)

    # the rules yield the mission step by step; the game attacks each unit announced (its
    # losses, a wreck, applied at once: a new wreck protects the next unit attacked, R8.1)
    evs: list[Any] = []
    for ev in artillery_steps(
        state.battlemap,
        side,
        h,
        state.dice,
        art.weapon.damage_index,
        units_at,
        hit_on=hit_on,
        command_card=bonus,
    ):
        evs.append(ev)
        if isinstance(ev, ArtilleryUnitAttack):
            evs.extend(attack_unit(ev))
    sink.rule_events(evs)


def fire_damage(state: GameState, sink: Any) -> None:
    """Begin Turn step b (R5.1b, R8.5): the fire damage checks of ground units in burning
    hexes; each hit is resolved by the combat engine at once (:func:`fire_hit`)."""
    units = [
        (u.hex, TargetView(u.uid, state))
        for _, u in sorted(state.units.items())
        if u.hex is not None and not u.aloft and u.crewing is None
    ]

    def lowered(view: Any) -> bool:  # R8.5: the owner's Command card set aside at the Draw (R1.3)
        u = state.units.get(view.id)
        return u is not None and state.pending[u.side].pop(f"fire_damage:{u.uid}", 0) > 0

    evs: list[Any] = []
    for ev in fire_damage_steps(state.battlemap, units, state.dice, lowered):
        evs.append(ev)
        if isinstance(ev, FireDamageCheck) and ev.hit:
            evs.extend(fire_hit(state, ev.unit, default_effects().fire_damage_index, sink))
    for side in state.pending:  # a lowering whose unit took no check (gone, changed sides) lapses
        for k in [k for k in state.pending[side] if k.startswith("fire_damage:")]:
            del state.pending[side][k]
    sink.rule_events(evs)


def fire_hit(state: GameState, uid: str, damage_index: int, sink: Any) -> list[GameEvent]:
    """R8.5: a fire hit on ``uid`` (Intensity + DI 4 - effective Defense in the burning hex);
    a unit destroyed by fire scores for the enemy of its controller (docs/rules.md)."""
    if uid not in state.units:
        return []
    u = state.units[uid]
    eng, dd = _engine(state)
    evs = eng.apply_hit(
        u, defense_context(state, uid), damage_index=damage_index, scorer=other_side(u.side), source="fire"
    )
    dd.write_back()
    return _apply_combat_events(state, evs, sink)


def end_turn_units(state: GameState, sink: Any) -> None:
    """End Turn for the units (R5.6) through :func:`hexwar.rules.combat.end_turn`: Command
    cards of one turn expire (to the discard), Damage-card counters and Turns of Flight count
    down (spent aircraft go under the Reserves deck with their pilots), Endurance recovers."""
    evs = combat.end_turn(ruleset.cards(), state.units)
    for ev in evs:
        sink.add(RuleEvent(ev))
        if isinstance(ev, combat.CommandCardExpired):
            state.command_discard.append(ev.card)
        elif isinstance(ev, combat.AircraftReturns) and ev.unit in state.units:
            return_to_reserves(state, ev.unit, sink, "its Turns of Flight are spent")


def end_turn_events(state: GameState, sink: Any) -> None:
    """End Turn: Events whose last turn this was leave play (to the discard pile)."""
    for c in list(state.events_in_play):
        last = state.event_turns.get(c, -1)
        if 0 <= last <= state.turn:
            state.events_in_play.remove(c)
            del state.event_turns[c]
            state.command_discard.append(c)
            sink.emit("event_ends", f"the Event {ruleset.card_name(c)} ends", card=c)
