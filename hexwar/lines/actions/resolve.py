"""Combat, resolution (R6.2; 000 steps a-i): the seat whose choice it is resolves one of its
declared attacks through the hex game's :class:`~hexwar.rules.combat.CombatEngine` -- to-hit
2d10, rate of fire, specials 18 and 19-20 (classic: 2-3 friendly fire, 19-20 destroys),
Intensity + Damage Index - Defense, Damage cards, destruction, crew fate, Close Assault --
never a copy. A Command card may be discarded for +1 on the first to-hit roll (R1.3). An
attack whose attacker or target is gone, or that is no longer legal, is void. Victory points
are checked after every resolution (R10.1).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...rules import combat
from ...rules.combat import AttackOrders, bonus_on
from ..commands import Resolve, side_of_seat
from ..events import BonusDiscarded, CombatHappened, Resolved
from ..rules import apply_combat_events, card, cards, check_points, defense_context, engine, envelop, name
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: Resolve) -> str | None:
    """Its own unresolved attack; the bonus card in hand."""
    if state.resolve_turn != cmd.seat:
        return f"it is {state.resolve_turn}'s choice of attack to resolve (R6.2)"
    a = state.attacks.get(cmd.number)
    if a is None or a.seat != cmd.seat:
        return f"you have no declared attack #{cmd.number}"
    if a.resolved:
        return f"attack #{cmd.number} is resolved already"
    if cmd.bonus is not None and cmd.bonus not in state.hand_commands[cmd.seat]:
        return f"{cmd.bonus} is not a Command card in your hand (R1.3 bonus)"
    return None


def friendly_fire_policy(state: LinesState) -> Any:
    """Classic 2-3 (R6.4): the opponent picks the firer's most valuable other unit the weapon
    can affect (ties: lowest instance id); see docs/lines.md."""

    def policy(attacker: Any, weapon: Any, widx: int | None) -> Any:
        if attacker is None:
            return None
        best = None
        for uid, v in sorted(state.units.items()):
            if v.side != attacker.side or uid == attacker.uid or v.crewing is not None:
                continue
            if not weapon.affects(card(uid)):
                continue
            key = (-card(uid).cost, uid)
            if best is None or key < best[0]:
                best = (key, uid)
        if best is None:
            return None
        return state.units[best[1]], defense_context(state, side_of_seat(state.units[best[1]].seat))

    return policy


def _void(state: LinesState, a: Any, why: str, sink: Sink) -> None:
    sink.add(
        CombatHappened(
            combat.AttackVoid(f"attack #{a.number} void: {why} (R6.2)", ",".join(a.attackers), a.target, why)
        )
    )


def apply(state: LinesState, cmd: Resolve, sink: Sink) -> None:
    """Resolve and apply; then envelopment and the victory-points check."""
    a = state.attacks[cmd.number]
    a.resolved = True
    side = side_of_seat(cmd.seat)
    if cmd.bonus is not None:
        state.hand_commands[cmd.seat].remove(cmd.bonus)
        state.command_discard.append(cmd.bonus)
        sink.add(
            BonusDiscarded(
                f"{cmd.seat} discards {name_cmd(cmd.bonus)} for +1 on the first to-hit roll (R1.3)",
                cmd.seat,
                cmd.bonus,
                "to_hit",
            )
        )
    pol = bonus_on(to_hit=[0]) if cmd.bonus is not None else None
    t = state.units.get(a.target)
    eng, dd = engine(state)
    evs: list[combat.CombatEvent] | None = None
    if t is None or t.side == side:
        _void(state, a, f"{a.target} is no longer an enemy unit in play", sink)
    elif a.close_assault:
        group = [state.units[x] for x in a.attackers if x in state.units]
        try:
            evs = eng.close_assault(
                group, t, defense_context(state, side), command_cards=tuple(a.command_cards), bonus=pol
            )
        except combat.CombatError as exc:
            _void(state, a, str(exc), sink)
    else:
        attacker = state.units.get(a.attackers[0])
        victim = state.units.get(t.crew) if a.at_crew and t.crew else (None if a.at_crew else t)
        if attacker is None:
            _void(state, a, f"{a.attackers[0]} is gone", sink)
        elif victim is None:
            _void(state, a, f"{name(a.target)} has no crew left to target", sink)
        else:
            try:
                evs = eng.resolve_attack(
                    attacker,
                    victim,
                    AttackOrders(tuple(a.weapons), False, tuple(a.command_cards)),
                    defense_context(state, side),
                    bonus=pol,
                    friendly_fire=friendly_fire_policy(state),
                )
            except combat.CombatError as exc:
                _void(state, a, str(exc), sink)
    dd.write_back()
    if evs is not None:
        apply_combat_events(state, evs, sink)
    state.command_discard.extend(a.command_cards)
    a.command_cards = []
    sink.add(Resolved(f"attack #{a.number} resolved", a.number, cmd.seat))
    envelop(state, sink)
    check_points(state, sink)


def name_cmd(inst: str) -> str:
    """A Command card's title and instance."""
    return f"{cards().command_or_event(inst).title} ({inst})"


def options(state: LinesState, seat: str) -> Iterator[Resolve]:
    """Each unresolved attack of the seat, without and with each Command card kind as bonus."""
    if state.resolve_turn != seat:
        return
    kinds: dict[str, str] = {}
    for c in state.hand_commands[seat]:
        kinds.setdefault(c.rsplit("#", 1)[0], c)
    for n, a in sorted(state.attacks.items()):
        if a.seat == seat and not a.resolved:
            yield Resolve(seat, n)
            for c in sorted(kinds.values()):
                yield Resolve(seat, n, c)


ACTION = Action(Resolve, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
