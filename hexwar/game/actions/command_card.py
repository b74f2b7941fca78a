"""``UseCommandCard`` (R4.3): play a Command card for its effect, in any phase it names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...rules import combat
from ...rules.cards import EffectKind
from .. import ruleset
from ..commands import UseCommandCard
from ..events import Recorder
from ..state import Attack, Phase, card_of
from .common import artillery_room, card_phase, observers
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = [
    "ACTION",
    "check",
    "apply",
    "options",
    "command_card_problem",
    "play_command_card",
    "command_card_options",
    "event_drawn",
]


_UNIT_KINDS = {
    EffectKind.DEFENSE,
    EffectKind.ATTACK,
    EffectKind.EXPOSED,
    EffectKind.DAMAGE_INDEX,
    EffectKind.RATE_OF_FIRE,
    EffectKind.TURNS_OF_FLIGHT,
    EffectKind.REMOVE_DAMAGE_CARD,
    EffectKind.CLOSE_ASSAULT,
    EffectKind.MOVEMENT,
}


def _needs_unit(card: Any) -> bool:
    return any(e.kind in _UNIT_KINDS for e in card.effects)


def _open_attack(state: GameState, uid: str) -> Attack | None:
    for a in state.attacks.values():
        if uid in a.attackers and not a.resolved:
            return a
    return None


def command_card_problem(state: GameState, cmd: UseCommandCard, phase: str) -> str | None:
    """Why ``cmd`` may not be played now (R4.3), or ``None``.

    The card must be in hand and its phase now (``any`` always). A card acting on a unit
    needs one of the side's units in play of a type it applies to; a card of duration
    ``attack`` is played on a declared, unresolved attack of that unit (the combat engine
    checks it fits the attack: :func:`hexwar.rules.combat.attack_problems`).
    """
    if cmd.card not in state.hand_commands[cmd.side]:
        return f"{cmd.card} is not in your hand"
    card = ruleset.command_card(cmd.card)
    if card.phase not in (phase, "any"):
        return f"{card.title} is played in the {card.phase.replace('_', ' ')} phase, not now ({state.phase})"
    kinds = {e.kind for e in card.effects}
    if card.duration == "attack":
        if cmd.unit is None:
            return f"{card.title} is played on one of your units' declared attacks: give unit=..."
        a = _open_attack(state, cmd.unit)
        if a is None or a.side != cmd.side:
            return f"{cmd.unit} has no declared attack waiting to be resolved"
        if a.building is not None:
            return "Command cards are not played on attacks against buildings (R8.2: no dice modifiers)"
        cards_now = tuple(a.command_cards) + (cmd.card,)
        if a.target not in state.units:  # a state rebuilt from a view: the target left sight (R12.2)
            return f"the target of attack {a.number} is out of sight now"
        if a.close_assault:
            assaulters = [state.units[x] for x in a.attackers if x in state.units]
            _, probs = combat.close_assault_problems(
                ruleset.cards(),
                assaulters,
                state.units[a.target],
                state.units,
                state.events_in_play,
                cards_now,
            )
        else:
            t = state.units[a.target]
            tgt = state.units[t.crew] if a.at_crew and t.crew in state.units else t
            orders = combat.AttackOrders(tuple(a.weapons), a.indirect, cards_now)
            probs = combat.attack_problems(
                ruleset.cards(), state.units[a.attackers[0]], tgt, orders, state.units, state.events_in_play
            )
        return probs[0] if probs else None
    if _needs_unit(card):
        if cmd.unit is None:
            return f"{card.title} is played on one of your units: give unit=..."
        u = state.units.get(cmd.unit)
        if u is None or u.side != cmd.side or u.crewing is not None:
            return f"{cmd.unit} is not a unit of yours in play"
        if not card.applies_to_unit(ruleset.unit_type(u.uid)):
            return (
                f"{card.title} applies to {', '.join(card.applies_to)} units, not {ruleset.unit_type(u.uid)}"
            )
        if any(card_of(c) == card_of(cmd.card) for c in u.command_cards):
            return f"{ruleset.card_name(u.uid)} already has {card.title} (identical cards do not add up, 001)"
        if EffectKind.REMOVE_DAMAGE_CARD in kinds and u.damage_card is None:
            return f"{ruleset.card_name(u.uid)} has no Damage card"
        if EffectKind.TURNS_OF_FLIGHT in kinds and not u.aloft:
            return f"{ruleset.card_name(u.uid)} is not an aircraft aloft"
    elif cmd.unit is not None:
        return f"{card.title} is not played on a unit"
    if EffectKind.COMMIT_FROM_RESERVES in kinds and not state.reserves[cmd.side]:
        return "your Reserves deck is empty"
    if EffectKind.DRAW in kinds and cmd.side in state.drawn:
        return "you have drawn already this turn"
    return None


def play_command_card(state: GameState, cmd: UseCommandCard, sink: Any) -> None:
    """Play a checked Command card (R4.3): on a declared attack (duration ``attack``), under a
    unit (``turn``, ``permanent``), or at once (``instant``: then discarded)."""
    card = ruleset.command_card(cmd.card)
    state.hand_commands[cmd.side].remove(cmd.card)
    on = f" on {ruleset.card_name(cmd.unit)} ({cmd.unit})" if cmd.unit else ""
    sink.emit(
        "command_card",
        f"{cmd.side} plays {card.title}{on}: {card.help_text()}",
        side=cmd.side,
        card=cmd.card,
        unit=cmd.unit,
    )
    if card.duration == "attack" and cmd.unit is not None:
        a = _open_attack(state, cmd.unit)
        assert a is not None
        a.command_cards.append(cmd.card)
        return
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
            sink.emit(
                "repair",
                f"the Damage card {u.damage_card} is removed from {ruleset.card_name(uid)} ({uid})",
                unit=uid,
            )
            u.damage_card = None
            u.damage_turns = None
    elif k == EffectKind.TURNS_OF_FLIGHT and uid is not None:
        state.units[uid].flight_turns = max(1, state.units[uid].flight_turns + e.value)
    elif k == EffectKind.COMMIT_FROM_RESERVES:
        for _ in range(e.value):
            if state.reserves[side]:
                c = state.reserves[side].pop(0)
                state.hand_units[side].append(c)
                sink.emit(
                    "reserves",
                    f"{side} takes {ruleset.card_name(c)} ({c}) from the Reserves deck to commit",
                    side=side,
                    card=c,
                )
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
        if _needs_unit(card) or card.duration == "attack":
            for uid in sorted(state.units):
                cmd = UseCommandCard(side, c, uid)
                if command_card_problem(state, cmd, phase) is None:
                    yield cmd
        else:
            cmd = UseCommandCard(side, c, None)
            if command_card_problem(state, cmd, phase) is None:
                yield cmd


def event_drawn(state: GameState, card: str, sink: Any) -> None:
    """An Event card drawn (R5.5): it is now in play; instant parts apply at once.

    An Event lasting N turns covers the N turns after the one it is drawn in (it is drawn in
    the Draw phase, when this turn's fighting is over): it leaves play at the End Turn of turn
    ``drawn + N`` (``event_turns`` holds that turn number; -1: the rest of the game).
    """
    ev = ruleset.command_card(card)
    state.event_turns[card] = state.turn + ev.turns if ev.turns is not None else -1
    for e in ev.effects:
        if e.kind == EffectKind.COMMIT_FROM_RESERVES:
            for s in [e.side] if e.side else ["german", "soviet"]:
                _instant(state, s, None, e, sink)


def check(state: GameState, cmd: UseCommandCard) -> str | None:
    """Why the card may not be played now (R4.3), or ``None``."""
    return command_card_problem(state, cmd, card_phase(state))


def apply(state: GameState, cmd: UseCommandCard, rec: Recorder) -> None:
    """Play the card: on a declared attack, under a unit, or at once (instant)."""
    play_command_card(state, cmd, rec)


def options(state: GameState, side: str) -> Iterator[UseCommandCard]:
    """Every playable card now. In the artillery step they are offered only while the side can
    still call a mission and has an observer; in the Draw phase only before drawing (the order
    of the round-1 listing, which computer players' choices depend on)."""
    if state.phase == Phase.ARTILLERY and not (artillery_room(state, side) and observers(state, side)):
        return
    if state.phase == Phase.DRAW and side in state.drawn:
        return
    yield from command_card_options(state, side, card_phase(state))


ACTION = Action(UseCommandCard, check, apply, options)
