"""Resolving attacks, artillery and fire on a game, and what follows from them (R6, R8-R10).

The dice-and-damage rules are the combat engine's (:mod:`hexwar.rules.combat`), the strike and
drift rules the artillery module's (:mod:`hexwar.rules.artillery`), fire the fire module's; this
module feeds them the game's units and applies what they report to the game state:

* a unit destroyed leaves play: its card is out of the game, any Damage card goes to the
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

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..hexgrid import Hex
from ..rules.cards import EffectKind
from ..rules.terrain_effects import EffectEvent, defense_class
from . import ruleset
from .commands import UseCommandCard
from .events import Event
from .state import Kill, Phase, card_of, other_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import Attack, GameState, UnitState

__all__ = [
    "TargetView",
    "resolve_attack",
    "artillery_mission",
    "fire_hit",
    "remove_unit",
    "score",
    "forfeit_capture",
    "return_to_reserves",
    "envelop_crewless",
    "expire_turn_cards",
    "command_card_problem",
    "play_command_card",
    "command_card_options",
    "event_drawn",
    "end_turn_events",
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
    return Event("score", f"{scorer} scores {pts} VP for {kind} {ruleset.card_name(uid)} ({uid}): "
                          f"{state.vp[scorer]} VP", {"side": scorer, "unit": uid, "kind": kind, "points": pts})


def forfeit_capture(state: GameState, uid: str, sink: Any) -> None:
    """000: crewing a captured unit instead of scoring it: the capture points are given back."""
    for k in list(state.kills):
        if k.uid == uid and k.kind == "captured":
            state.kills.remove(k)
            state.vp[k.scorer] -= k.points
            sink.emit("forfeit", f"{k.scorer} crews captured {ruleset.card_name(uid)} ({uid}) and gives up its "
                                 f"{k.points} VP: {state.vp[k.scorer]} VP", side=k.scorer, unit=uid, points=k.points)


def _clear_cards(state: GameState, u: UnitState) -> None:
    """000: when a unit leaves play its Command and Damage cards are cleared and discarded."""
    if u.damage_card is not None:
        state.damage_discard.append(u.damage_card)
        u.damage_card = None
        u.damage_turns = None
    for c in u.command_cards:
        state.command_discard.append(c)
    u.command_cards = []


def remove_unit(state: GameState, uid: str, how: str, scorer: str | None, sink: Any,
                crew_fate: str | None = None) -> list[Event]:
    """Take a unit (and its crew) out of play and move its cards (R6.6, R8.1, 000).

    Args:
        state: the game.
        uid: the unit leaving play.
        how: ``"destroyed"`` or ``"captured"``.
        scorer: the side scoring it (``None``: nobody, e.g. friendly fire in ``classic``).
        sink: where wreck events go (they are applied to the map at once).
        crew_fate: ``"survives"``, ``"captured"`` or ``"destroyed"`` for its crew, if it has
            one (R6.6); default ``"destroyed"``.

    Returns:
        the game events, in order (score, wreck, crew).
    """
    from ..rules.wrecks import drop_wreck, wreck_vehicle

    out: list[Event] = []
    u = state.units.pop(uid)
    name = ruleset.card_name(uid)
    _clear_cards(state, u)
    state.removed.append(uid)
    out.append(Event("removed", f"{name} ({uid}) is {how}", {"unit": uid, "how": how, "side": u.side}))
    if scorer is not None:
        out.append(score(state, scorer, uid, "captured" if how == "captured" else "destroyed"))
    if u.hex is not None and not u.aloft:
        if u.towing:
            ev = drop_wreck(state.battlemap, uid, u.hex, u.towing)
            ev.apply(state.battlemap)
            out.append(Event("wreck_dropped", str(ev), ev.to_json()))
            u.towing = None
        if how == "destroyed" and ruleset.is_vehicle(uid):
            ev = wreck_vehicle(state.battlemap, u.hex, ruleset.unit_card(uid).side, state.dice, vehicle=name)
            ev.apply(state.battlemap)
            out.append(Event("wreck_placed", str(ev), ev.to_json()))
    if u.crew is not None and u.crew in state.units:
        out.extend(_crew_leaves(state, u.crew, crew_fate or "destroyed", scorer))
    if u.crewing is not None and u.crewing in state.units:
        state.units[u.crewing].crew = None
    return out


def _crew_leaves(state: GameState, cid: str, fate: str, scorer: str | None) -> list[Event]:
    c = state.units.pop(cid)
    _clear_cards(state, c)
    name = ruleset.card_name(cid)
    if fate == "survives":
        state.reserves[c.owner].append(cid)
        return [Event("crew", f"{name} ({cid}) survives and goes under the {c.owner} Reserves deck (R6.6)",
                      {"unit": cid, "fate": fate})]
    state.removed.append(cid)
    out = [Event("crew", f"{name} ({cid}) is {fate} (R6.6)", {"unit": cid, "fate": fate})]
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

    A unit that needs a crew and has none, with an enemy ground unit adjacent (or nowhere to be
    supported from: no friendly crewed ground unit within 1 hex), passes to the enemy's
    control; the captor scores twice its cost (it may later crew it instead, giving the points
    back, :func:`forfeit_capture`). See docs/rules.md.
    """
    for uid, u in sorted(state.units.items()):
        if u.hex is None or u.aloft or u.crew is not None or not ruleset.needs_crew(u.card):
            continue
        enemy = other_side(u.side)
        near = [v for v in state.units.values() if v.hex is not None and not v.aloft and v.crewing is None
                and v.hex.distance(u.hex) <= 1 and v.uid != uid and ruleset.is_ground(v.card)]
        enemy_adj = any(v.side == enemy and not (ruleset.needs_crew(v.card) and v.crew is None) for v in near)
        friend = any(v.side == u.side and not (ruleset.needs_crew(v.card) and v.crew is None) for v in near)
        if enemy_adj and not friend:
            _clear_cards(state, u)
            u.side = enemy
            sink.emit("captured", f"crewless {ruleset.card_name(uid)} ({uid}) in {u.hex.label} is enveloped and "
                                  f"captured by {enemy} (000)", unit=uid, side=enemy)
            if u.owner != enemy:
                sink.add(score(state, enemy, uid, "captured"))


# -- the combat engine ---------------------------------------------------------------------------
def _units_view(state: GameState) -> dict[str, Any]:
    return state.units


def _apply_combat_events(state: GameState, evs: list[Any], scorer: str | None, sink: Any,
                         friendly_fire_scores: bool = True) -> list[Event]:
    """Turn the combat engine's events into game events and apply their consequences."""
    from ..rules import combat

    out: list[Event] = []
    for ev in evs:
        if isinstance(ev, EffectEvent):
            ev.apply(state.battlemap)
            d = ev.to_json()
            out.append(Event(d.pop("event", type(ev).__name__).lower(), str(ev), d))
            continue
        d = ev.to_json() if hasattr(ev, "to_json") else {}
        kind = combat.event_kind(ev) if hasattr(combat, "event_kind") else type(ev).__name__
        out.append(Event(kind, str(ev), d))
        if isinstance(ev, combat.UnitDestroyed):
            if ev.unit in state.units:
                s = scorer
                if getattr(ev, "friendly_fire", False) and not friendly_fire_scores:
                    s = None
                out.extend(remove_unit(state, ev.unit, "destroyed", s, sink, getattr(ev, "crew_fate", None)))
        elif isinstance(ev, getattr(combat, "CrewLost", ())):
            u = state.units.get(ev.unit)
            if u is not None and u.crew is not None:
                out.extend(_crew_leaves(state, u.crew, getattr(ev, "fate", "destroyed"), scorer))
                u.crew = None
        elif isinstance(ev, getattr(combat, "DamageCardDrawn", ())):
            pass  # the engine has put the card on the unit; the deck is the game's list
    return out


def resolve_attack(state: GameState, a: Attack, bonus: bool, sink: Any) -> None:
    """Resolve one declared attack through the combat engine (R6.2-R6.6) and apply the results.

    A flamethrower attack on a unit in a building also attacks the building (R8.2, 003).
    """
    from ..rules import combat

    evs = combat.resolve_declared(state, a, bonus=bonus)  # type: ignore[attr-defined]
    sink.rule_events(_apply_combat_events(state, evs, a.side, sink))
    _expire_attack_cards(state, a, sink)


def _expire_attack_cards(state: GameState, a: Attack, sink: Any) -> None:
    for uid in a.attackers:
        u = state.units.get(uid)
        if u is None:
            continue
        keep = []
        for c in u.command_cards:
            if ruleset.command_card(c).duration == "attack":
                state.command_discard.append(c)
            else:
                keep.append(c)
        u.command_cards = keep


def artillery_mission(state: GameState, side: str, h: Hex, bonus: bool, sink: Any) -> None:
    """Resolve one off-board mission on ``h`` (R9.3, R9.4) and apply what it did."""
    from ..rules import combat
    from ..rules.artillery import resolve_artillery

    art = state.scenario.sides[side].artillery
    assert art is not None
    acc = state.pending[side].get("artillery_accuracy", 0)
    hit_on = art.hit_on
    if acc:
        from ..rules.terrain_effects import default_effects

        hit_on = (hit_on if hit_on is not None else default_effects().side_hit_on(side)) - acc

    def units_at(x: Hex) -> list[TargetView]:
        return [TargetView(u.uid, state) for _, u in sorted(state.units.items())
                if u.hex == x and not u.aloft and u.crewing is None]

    def attack_unit(unit: TargetView, x: Hex, mod: int, dice: Any) -> list[Event]:
        if unit.id not in state.units:
            return []
        evs = combat.artillery_attack(state, side, art.weapon, unit.id, mod)  # type: ignore[attr-defined]
        return _apply_combat_events(state, evs, side, sink)

    evs = resolve_artillery(state.battlemap, side, h, state.dice, art.weapon.damage_index, units_at, attack_unit,
                            hit_on=hit_on, command_card=bonus)
    sink.rule_events(evs)


def fire_hit(state: GameState, uid: str, damage_index: int, sink: Any) -> list[Event]:
    """R8.5: a fire hit on ``uid``: Intensity + DI 4 - effective Defense; scored for the enemy."""
    from ..rules import combat

    if uid not in state.units:
        return []
    u = state.units[uid]
    evs = combat.fire_damage(state, uid, damage_index)  # type: ignore[attr-defined]
    return _apply_combat_events(state, evs, other_side(u.side), sink)


# -- Command cards (R4.3) ---------------------------------------------------------------------
_UNIT_KINDS = {EffectKind.DEFENSE, EffectKind.ATTACK, EffectKind.EXPOSED, EffectKind.DAMAGE_INDEX,
               EffectKind.RATE_OF_FIRE, EffectKind.TURNS_OF_FLIGHT, EffectKind.REMOVE_DAMAGE_CARD,
               EffectKind.CLOSE_ASSAULT, EffectKind.MOVEMENT}


def _needs_unit(card: Any) -> bool:
    return any(e.kind in _UNIT_KINDS for e in card.effects)


def command_card_problem(state: GameState, cmd: UseCommandCard, phase: str) -> str | None:
    """Why ``cmd`` may not be played now (R4.3), or ``None``.

    The card must be in hand, its phase must be now (``any`` always), and a card acting on a
    unit needs one of the side's units in play of a type it applies to.
    """
    if cmd.card not in state.hand_commands[cmd.side]:
        return f"{cmd.card} is not in your hand"
    card = ruleset.command_card(cmd.card)
    if card.phase not in (phase, "any"):
        return f"{card.title} is played in the {card.phase.replace('_', ' ')} phase, not now ({state.phase})"
    if _needs_unit(card):
        if cmd.unit is None:
            return f"{card.title} is played on one of your units: give unit=..."
        u = state.units.get(cmd.unit)
        if u is None or u.side != cmd.side or u.crewing is not None:
            return f"{cmd.unit} is not a unit of yours in play"
        if not card.applies_to_unit(ruleset.unit_type(u.uid)):
            return f"{card.title} applies to {', '.join(card.applies_to)} units, not {ruleset.unit_type(u.uid)}"
        if cmd.card and any(card_of(c) == card_of(cmd.card) for c in u.command_cards):
            return f"{ruleset.card_name(u.uid)} already has {card.title} (identical cards do not add up, 001)"
        kinds = {e.kind for e in card.effects}
        if EffectKind.REMOVE_DAMAGE_CARD in kinds and u.damage_card is None:
            return f"{ruleset.card_name(u.uid)} has no Damage card"
        if EffectKind.TURNS_OF_FLIGHT in kinds and not u.aloft:
            return f"{ruleset.card_name(u.uid)} is not an aircraft aloft"
        if card.duration == "attack" and phase == "combat":
            mine = [a for a in state.attacks.values() if u.uid in a.attackers and not a.resolved]
            if not mine and state.phase == Phase.RESOLUTION:
                return f"{ruleset.card_name(u.uid)} has no attack left to resolve this turn"
    elif cmd.unit is not None:
        return f"{card.title} is not played on a unit"
    kinds = {e.kind for e in card.effects}
    if EffectKind.COMMIT_FROM_RESERVES in kinds and not state.reserves[cmd.side]:
        return "your Reserves deck is empty"
    if EffectKind.DRAW in kinds and cmd.side in state.drawn:
        return "you have drawn already this turn"
    return None


def play_command_card(state: GameState, cmd: UseCommandCard, sink: Any) -> None:
    """Play a checked Command card: attach it to the unit, or apply an instant effect (R4.3)."""
    card = ruleset.command_card(cmd.card)
    state.hand_commands[cmd.side].remove(cmd.card)
    on = f" on {ruleset.card_name(cmd.unit)} ({cmd.unit})" if cmd.unit else ""
    sink.emit("command_card", f"{cmd.side} plays {card.title}{on}: {card.help_text()}", side=cmd.side, card=cmd.card,
              unit=cmd.unit)
    if card.duration != "instant" and cmd.unit is not None:
        state.units[cmd.unit].command_cards.append(cmd.card)
        return
    state.command_discard.append(cmd.card)
    for e in card.effects:
        _instant(state, cmd.side, cmd.unit, e, sink)


def _instant(state: GameState, side: str, uid: str | None, e: Any, sink: Any) -> None:
    k = e.kind
    if k == EffectKind.REMOVE_DAMAGE_CARD and uid is not None:
        u = state.units[uid]
        if u.damage_card is not None:
            state.damage_discard.append(u.damage_card)
            sink.emit("repair", f"the Damage card {u.damage_card} is removed from {ruleset.card_name(uid)} ({uid})",
                      unit=uid)
            u.damage_card = None
            u.damage_turns = None
    elif k == EffectKind.TURNS_OF_FLIGHT and uid is not None:
        state.units[uid].flight_turns = max(1, state.units[uid].flight_turns + e.value)
    elif k == EffectKind.COMMIT_FROM_RESERVES:
        for _ in range(e.value):
            if state.reserves[side]:
                c = state.reserves[side].pop(0)
                state.hand_units[side].append(c)
                sink.emit("reserves", f"{side} takes {ruleset.card_name(c)} ({c}) from the Reserves deck to commit",
                          side=side, card=c)
    elif k in (EffectKind.ARTILLERY_ACCURACY, EffectKind.INITIATIVE, EffectKind.DRAW):
        state.pending[side][k.value] = state.pending[side].get(k.value, 0) + e.value


def command_card_options(state: GameState, side: str, phase: str) -> Iterator[UseCommandCard]:
    """Every legal :class:`~hexwar.game.commands.UseCommandCard` of ``side`` now."""
    seen: set[str] = set()
    for c in state.hand_commands[side]:
        cid = card_of(c)
        if cid in seen:
            continue
        seen.add(cid)
        card = ruleset.command_card(c)
        if card.phase not in (phase, "any"):
            continue
        if _needs_unit(card):
            for uid in sorted(state.units):
                cmd = UseCommandCard(side, c, uid)
                if command_card_problem(state, cmd, phase) is None:
                    yield cmd
        else:
            cmd = UseCommandCard(side, c, None)
            if command_card_problem(state, cmd, phase) is None:
                yield cmd


def expire_turn_cards(state: GameState, u: UnitState, sink: Any) -> None:
    """End Turn: Command cards that last until End Turn (or one attack) are discarded."""
    keep = []
    for c in u.command_cards:
        if ruleset.command_card(c).duration in ("turn", "attack"):
            state.command_discard.append(c)
        else:
            keep.append(c)
    u.command_cards = keep


def event_drawn(state: GameState, card: str, sink: Any) -> None:
    """An Event card drawn (R5.5): it is now in play; instant parts apply at once."""
    ev = ruleset.command_card(card)
    state.event_turns[card] = ev.turns if ev.turns is not None else -1
    for e in ev.effects:
        if e.kind == EffectKind.COMMIT_FROM_RESERVES:
            for s in ([e.side] if e.side else ["german", "soviet"]):
                _instant(state, s, None, e, sink)


def end_turn_events(state: GameState, sink: Any) -> None:
    """End Turn: Events with a duration count down and leave play at 0 (to the discard)."""
    for c in list(state.events_in_play):
        t = state.event_turns.get(c, -1)
        if t > 0:
            t -= 1
            state.event_turns[c] = t
            if t == 0:
                state.events_in_play.remove(c)
                del state.event_turns[c]
                state.command_discard.append(c)
                sink.emit("event_ends", f"the Event {ruleset.card_name(c)} ends", card=c)
