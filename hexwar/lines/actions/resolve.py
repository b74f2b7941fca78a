"""Combat, resolution (R6.2; 000 steps a-i): the seat whose choice it is resolves one of its
declared attacks through the hex game's :class:`~hexwar.rules.combat.CombatEngine` -- to-hit
2d10, rate of fire, specials 18 and 19-20 (classic: 2-3 friendly fire, 19-20 destroys),
Intensity + Damage Index - Defense, Damage cards, destruction, crew fate, Close Assault --
never a copy. A Command card may be discarded for +1 on the first to-hit roll (``bonus``) or
on any other roll of the attack (``bonus_rolls`` / ``bonus_cards``, R1.3; issue 33). An attack
whose attacker or target is gone, or that is no longer legal, is void: it is still its owner's
choice to resolve (docs/rules.md, "Lines rules decisions"), but no Command card is discarded for
it. Victory points are checked after every resolution (R10.1).
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


def attack_rolls(state: LinesState, a: Any) -> list[str]:
    """The rolls of declared attack ``a`` a Command card may add 1 to (R1.3, 000 "before any
    die roll"), in roll order, named as the hex game's: each to-hit roll ``to_hit:N`` (the
    first weapon's rate of fire, then the second's) with its Intensity ``intensity:N``; a Close
    Assault's ``to_hit:0`` and ``assault_dice``. Rate of fire counts the effects in force now."""
    if a.resolved:
        return []
    if a.close_assault:
        return ["to_hit:0", "assault_dice"]
    u = state.units.get(a.attackers[0])
    if u is None:
        return []
    ws = card(u.uid).weapons
    out: list[str] = []
    n = 0
    for i in a.weapons:
        if not 0 <= i < len(ws):
            continue
        rof = combat.rate_of_fire(
            cards(), u, ws[i], state.units, tuple(state.events_in_play), tuple(a.command_cards)
        )
        for _ in range(rof):
            out += [f"to_hit:{n}", f"intensity:{n}"]
            n += 1
    return out


def void_reason(state: LinesState, a: Any) -> str | None:
    """Why declared attack ``a`` would be void if resolved now (R6.2), or ``None``: its target
    is gone or no longer an enemy, its attacker is gone, the crew it targets is gone, or the
    cards no longer allow it (a Damage card's ``no_attack``; too few assaulters left)."""
    side = side_of_seat(a.seat)
    t = state.units.get(a.target)
    if t is None or t.side == side:
        return f"{a.target} is no longer an enemy unit in play"
    if a.close_assault:
        group = [state.units[x] for x in a.attackers if x in state.units]
        ready, _ = combat.close_assault_problems(cards(), group, t, state.units, tuple(state.events_in_play))
        return None if len(ready) >= cards().rules.close_assault_min else "too few infantry left to assault"
    attacker = state.units.get(a.attackers[0])
    if attacker is None:
        return f"{a.attackers[0]} is gone"
    victim = state.units.get(t.crew) if a.at_crew and t.crew else (None if a.at_crew else t)
    if victim is None:
        return f"{a.target} has no crew left to target"
    problems = combat.attack_problems(
        cards(),
        attacker,
        victim,
        AttackOrders(tuple(a.weapons), False, tuple(a.command_cards)),
        state.units,
        tuple(state.events_in_play),
    )
    return "; ".join(problems) if problems else None


def check(state: LinesState, cmd: Resolve) -> str | None:
    """Its own unresolved attack; each bonus card in hand, one per roll, none for a void attack."""
    if state.resolve_turn != cmd.seat:
        return f"it is {state.resolve_turn}'s choice of attack to resolve (R6.2)"
    a = state.attacks.get(cmd.number)
    if a is None or a.seat != cmd.seat:
        return f"you have no declared attack #{cmd.number}"
    if a.resolved:
        return f"attack #{cmd.number} is resolved already"
    if cmd.bonus is not None and cmd.bonus not in state.hand_commands[cmd.seat]:
        return f"{cmd.bonus} is not a Command card in your hand (R1.3 bonus)"
    if cmd.bonus is None and not cmd.bonus_rolls and not cmd.bonus_cards:
        return None
    void = void_reason(state, a)
    if void is not None:  # issue 33: a void attack rolls no die, so no card is discarded for one
        return f"attack #{cmd.number} is void ({void}): no Command card is discarded for it (R1.3, R6.2)"
    if len(cmd.bonus_rolls) != len(cmd.bonus_cards):
        return "give one Command card for each roll you add 1 to (R1.3)"
    if len(set(cmd.bonus_rolls)) != len(cmd.bonus_rolls) or (
        cmd.bonus is not None and "to_hit:0" in cmd.bonus_rolls
    ):
        return "at most one Command card per roll (R1.3)"
    spent = list(cmd.bonus_cards) + ([cmd.bonus] if cmd.bonus is not None else [])
    if len(set(spent)) != len(spent):
        return "each Command card buys one bonus (R1.3)"
    for c in cmd.bonus_cards:
        if c not in state.hand_commands[cmd.seat]:
            return f"{c} is not a Command card in your hand (R1.3 bonus)"
    rolls = attack_rolls(state, a)
    for r in cmd.bonus_rolls:
        if r not in rolls:
            return f"attack #{cmd.number} makes no roll {r!r}; its rolls are {', '.join(rolls)} (R1.3)"
    return None


def spend_bonus_policy(
    state: LinesState, seat: str, target: str, plan: dict[str, str], first_to_hit: bool, sink: Sink
) -> Any:
    """The R1.3 policy of a :class:`Resolve`: ``plan`` maps roll names to Command cards in the
    seat's hand, each discarded (and logged) when its roll is made, only for rolls against the
    attack's ``target`` (a classic friendly-fire victim's Intensity is never raised);
    ``first_to_hit``: the ``bonus`` card (already discarded) covers ``to_hit:0``."""
    plan = dict(plan)

    def policy(req: Any) -> bool:
        key = "assault_dice" if req.roll == "assault_dice" else f"{req.roll}:{req.number}"
        if first_to_hit and key == "to_hit:0":
            return True
        if req.target != target or key not in plan:
            return False
        c = plan.pop(key)
        state.hand_commands[seat].remove(c)
        state.command_discard.append(c)
        sink.add(BonusDiscarded(f"{seat} discards {name_cmd(c)} for +1 on {key} (R1.3)", seat, c, key))
        return True

    return policy


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
    t = state.units.get(a.target)
    target_uid = t.crew if t is not None and a.at_crew and t.crew else a.target
    pol = (
        spend_bonus_policy(
            state,
            cmd.seat,
            target_uid,
            dict(zip(cmd.bonus_rolls, cmd.bonus_cards, strict=True)),
            cmd.bonus is not None,
            sink,
        )
        if cmd.bonus_rolls
        else (bonus_on(to_hit=[0]) if cmd.bonus is not None else None)
    )
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
            if kinds and void_reason(state, a) is None:  # issue 33: no card spent on a void attack
                for c in sorted(kinds.values()):
                    yield Resolve(seat, n, c)


ACTION = Action(Resolve, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
