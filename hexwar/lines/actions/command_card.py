"""Play a Command card for its effect (R4.3; 000 Components) -- the hex game's card data and
effect vocabulary. Phases on lines: ``commitment`` cards in Commitment, ``combat`` cards in
Declaration and Resolution (``attack`` cards on one of your declared, unresolved attacks),
``draw`` cards in the Draw Phase, and ``begin_turn`` cards in the Draw Phase for the next Begin
Turn (there is no decision step before initiative); ``any`` cards always. Artillery-accuracy
cards have nothing to act on without off-board artillery (they are still good for the +1 bonus).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...rules import combat
from ...rules.cards import CommandCard, EffectKind, card_id_of
from ..commands import UseCommandCard
from ..events import CommandCardPlayed, TakenFromReserves
from ..rules import card, cards, name
from ..state import Phase
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LineAttack, LinesState

_PHASES = {
    Phase.COMMITMENT: ("commitment", "any"),
    Phase.DECLARATION: ("combat", "any"),
    Phase.RESOLUTION: ("combat", "any"),
    Phase.DRAW: ("draw", "begin_turn", "any"),
}
_UNIT_KINDS = {
    EffectKind.DEFENSE,
    EffectKind.ATTACK,
    EffectKind.EXPOSED,
    EffectKind.DAMAGE_INDEX,
    EffectKind.RATE_OF_FIRE,
    EffectKind.TURNS_OF_FLIGHT,
    EffectKind.REMOVE_DAMAGE_CARD,
    EffectKind.CLOSE_ASSAULT,
}
_USELESS = {EffectKind.ARTILLERY_ACCURACY, EffectKind.MOVEMENT, EffectKind.MOVE_COST}


def _open_attack(state: LinesState, seat: str, uid: str) -> LineAttack | None:
    for a in state.attacks.values():
        if uid in a.attackers and not a.resolved and a.seat == seat:
            return a
    return None


def check(state: LinesState, cmd: UseCommandCard) -> str | None:
    """In hand, its phase now, a fitting unit when it acts on one (see the module docstring)."""
    if cmd.card not in state.hand_commands[cmd.seat]:
        return f"{cmd.card} is not in your hand"
    c = cards().command_or_event(cmd.card)
    if not isinstance(c, CommandCard):
        return f"{cmd.card} is an Event"
    if c.phase not in _PHASES.get(state.phase, ()):
        return f"{c.title} is played in the {c.phase.replace('_', ' ')} phase, not now ({state.phase})"
    kinds = {e.kind for e in c.effects}
    if kinds <= _USELESS:
        return f"{c.title} has nothing to act on in the lines game (discard it for +1 instead)"
    if c.duration == "attack":
        if cmd.unit is None:
            return f"{c.title} is played on one of your declared attacks: give unit=..."
        a = _open_attack(state, cmd.seat, cmd.unit)
        if a is None:
            return f"{cmd.unit} has no declared attack waiting to be resolved"
        now = tuple(a.command_cards) + (cmd.card,)
        t = state.units.get(a.target)
        if t is None:
            return "its target is gone"
        if a.close_assault:
            group = [state.units[x] for x in a.attackers if x in state.units]
            _, probs = combat.close_assault_problems(
                cards(), group, t, state.units, state.events_in_play, now
            )
        else:
            victim = state.units.get(t.crew) if a.at_crew and t.crew else t
            if victim is None:
                return "its target is gone"
            probs = combat.attack_problems(
                cards(),
                state.units[a.attackers[0]],
                victim,
                combat.AttackOrders(tuple(a.weapons), False, now),
                state.units,
                state.events_in_play,
            )
        return probs[0] if probs else None
    if kinds & _UNIT_KINDS:
        if cmd.unit is None:
            return f"{c.title} is played on one of your units: give unit=..."
        u = state.units.get(cmd.unit)
        if u is None or u.seat != cmd.seat or u.crewing is not None:
            return f"{cmd.unit} is not a unit of yours in play"
        if not c.applies_to_unit(card(cmd.unit).unit_type):
            return f"{c.title} applies to {', '.join(c.applies_to)} units, not {card(cmd.unit).unit_type}"
        if any(card_id_of(x) == card_id_of(cmd.card) for x in u.command_cards):
            return f"{name(cmd.unit)} already has {c.title} (identical cards do not add up, 001)"
        if EffectKind.REMOVE_DAMAGE_CARD in kinds and u.damage_card is None:
            return f"{name(cmd.unit)} has no Damage card"
        if EffectKind.TURNS_OF_FLIGHT in kinds and u.line != "air":
            return f"{name(cmd.unit)} is not an aircraft aloft"
    elif cmd.unit is not None:
        return f"{c.title} is not played on a unit"
    if EffectKind.COMMIT_FROM_RESERVES in kinds and not state.reserves[cmd.seat]:
        return "your Reserves deck is empty"
    if EffectKind.DRAW in kinds and cmd.seat in state.drawn:
        return "you have drawn already this turn"
    return None


def apply(state: LinesState, cmd: UseCommandCard, sink: Sink) -> None:
    """On an attack, under a unit (``turn`` / ``permanent``), or at once (``instant``)."""
    c = cards().command_or_event(cmd.card)
    assert isinstance(c, CommandCard)
    state.hand_commands[cmd.seat].remove(cmd.card)
    on = f" on {name(cmd.unit)}" if cmd.unit else ""
    sink.add(
        CommandCardPlayed(f"{cmd.seat} plays {c.title}{on}: {c.help_text()}", cmd.seat, cmd.card, cmd.unit)
    )
    if c.duration == "attack" and cmd.unit is not None:
        a = _open_attack(state, cmd.seat, cmd.unit)
        assert a is not None
        a.command_cards.append(cmd.card)
        return
    if c.duration != "instant" and cmd.unit is not None:
        state.units[cmd.unit].command_cards.append(cmd.card)
        return
    state.command_discard.append(cmd.card)
    for e in c.effects:
        k = e.kind
        if k == EffectKind.REMOVE_DAMAGE_CARD and cmd.unit is not None:
            u = state.units[cmd.unit]
            if u.damage_card is not None:
                state.damage_discard.append(u.damage_card)
                u.damage_card = None
                u.damage_turns = None
        elif k == EffectKind.TURNS_OF_FLIGHT and cmd.unit is not None:
            u = state.units[cmd.unit]
            u.flight_turns = max(1, u.flight_turns + e.value)
        elif k == EffectKind.COMMIT_FROM_RESERVES:
            for _ in range(e.value):
                if state.reserves[cmd.seat]:
                    x = state.reserves[cmd.seat].pop(0)
                    state.hand_units[cmd.seat].append(x)
                    sink.add(
                        TakenFromReserves(
                            f"{cmd.seat} takes {name(x)} from the Reserves deck to commit", cmd.seat, x
                        )
                    )
        elif k in (EffectKind.INITIATIVE, EffectKind.DRAW):
            p = state.pending.setdefault(cmd.seat, {})
            p[k.value] = p.get(k.value, 0) + e.value


def options(state: LinesState, seat: str) -> Iterator[UseCommandCard]:
    """Every legal play, one instance per card kind."""
    seen: set[str] = set()
    for inst in sorted(state.hand_commands[seat]):
        cid = card_id_of(inst)
        if cid in seen:
            continue
        seen.add(cid)
        c = cards().command_or_event(inst)
        if not isinstance(c, CommandCard) or c.phase not in _PHASES.get(state.phase, ()):
            continue
        if c.duration == "attack" or {e.kind for e in c.effects} & _UNIT_KINDS:
            for uid in sorted(state.units):
                cmd = UseCommandCard(seat, inst, uid)
                if check(state, cmd) is None:
                    yield cmd
        else:
            cmd = UseCommandCard(seat, inst, None)
            if check(state, cmd) is None:
                yield cmd


ACTION = Action(UseCommandCard, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
