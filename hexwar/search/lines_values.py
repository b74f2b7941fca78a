"""Exact-odds values of the card game on lines that the hard lines player's switched-off
variants read (issue 31; R6, R6.2): the expected victory points of resolving one declared
attack now (``LUCK_ADJUST``: a rollout's luck taken off its score) and what a side's units on
the table threaten next turn (``THREAT_WEIGHT``); and the hard player's draw, which names no
more cards of a deck than it holds. Split from :mod:`hexwar.search.lines` so the
search module stays under 600 lines; both read the table only, never a hidden card (R12.1).
"""

from __future__ import annotations

from ..lines.actions.declare import weapon_choices
from ..lines.actions.resolve import void_reason
from ..lines.commands import Draw, LinesCommand, Resolve
from ..lines.odds import close_assault_line_odds, declare_odds
from ..lines.rules import card, fighting, legal_targets
from ..lines.state import LinesState
from ..rules.combat import CombatError

__all__ = ["expected_resolution_vp", "fieldable_draw", "sane_draw", "threat"]


def expected_resolution_vp(state: LinesState, cmd: Resolve) -> float | None:
    """The exact expected victory points resolving ``cmd`` now scores for its side (R6; 0 for a
    void attack, R6.2), with the Command card's +1 it names (R1.3); ``None`` when the odds
    cannot say (+1 on other rolls, or an attack combat refuses).

    Args:
        state: the game before ``cmd`` (read only).
        cmd: a :class:`Resolve` of the seat to act.

    Returns:
        Victory points (>= 0) or ``None``.
    """
    a = next((x for x in state.attacks.values() if x.number == cmd.number), None)
    if a is None or a.resolved or cmd.bonus_rolls or cmd.bonus_cards:
        return None
    if void_reason(state, a) is not None:
        return 0.0
    try:
        if a.close_assault:
            if cmd.bonus:
                return None
            return float(close_assault_line_odds(state, a.attackers, a.target).expected_vp)
        return float(
            declare_odds(
                state,
                a.attackers[0],
                a.target,
                a.weapons,
                a.at_crew,
                tuple(a.command_cards),
                bonus=cmd.bonus is not None,
            ).expected_vp
        )
    except (CombatError, ValueError, KeyError):
        return None


def threat(state: LinesState, side: str) -> float:
    """What ``side``'s units on the table threaten next turn: for each of its fighting units
    (not riding as a crew), the best exact expected victory points (R6,
    :func:`hexwar.lines.odds.declare_odds`) of one attack on an enemy unit its lines reach,
    summed, and no more on one target than its cost (the dice are not rolled: a noiseless look
    one turn past the horizon).

    Args:
        state: the game (read only; only the table is read, nothing hidden).
        side: ``"german"`` or ``"soviet"``.

    Returns:
        Victory points (>= 0).
    """
    on: dict[str, float] = {}
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.side != side or u.crewing is not None or not fighting(u):
            continue
        best, best_t = 0.0, ""
        n = len(card(uid).weapons)
        for target, at_crew, _line in legal_targets(state, u):
            for ws in weapon_choices(n):
                try:
                    ev = declare_odds(state, uid, target, ws, at_crew).expected_vp
                except CombatError:  # a weapon that cannot affect this target
                    continue
                if ev > best:
                    best, best_t = ev, target
        if best_t:
            on[best_t] = on.get(best_t, 0.0) + best
    return sum(min(v, float(card(t).cost)) for t, v in on.items())


def sane_draw(state: LinesState, cmd: LinesCommand) -> bool:
    """A draw names no more cards of a deck than it holds (issue 31; 000 Draw Phase); any other
    command is sane.

    Args:
        state: the game (read only).
        cmd: a legal command of the seat to act.
    """
    if isinstance(cmd, Draw):
        return cmd.extra.count("reserves") <= len(state.reserves[cmd.seat]) and cmd.extra.count(
            "command"
        ) + 1 <= max(1, len(state.command_deck))
    return True


def fieldable_draw(state: LinesState, seat: str, legal: list[LinesCommand]) -> Draw | None:
    """The hard player's draw (000 Draw Phase: one Command card and two chosen sources): as
    many Reserves cards as the hand lacks units it could commit next turn (a crew card with no
    unit for it fields nothing, a unit without its crew neither): none with 3 or more fieldable
    units, one with 2, two with fewer; never more than the Reserves deck holds, and the Command
    deck's cards only while it has them (issue 31).

    Args:
        state: the game (the seat's own hand is read, nothing hidden).
        seat: the drawing seat.
        legal: its legal commands now.

    Returns:
        The :class:`Draw` among ``legal``, or ``None`` when no draw is legal.
    """
    draws = [c for c in legal if isinstance(c, Draw)]
    if not draws:
        return None
    hand = state.hand_units[seat]
    crews = [card(c).unit_type for c in hand if card(c).is_crew]
    fieldable = 0
    for c in sorted(hand):
        cc = card(c)
        if cc.is_crew:
            continue
        if cc.needs_crew:
            if cc.crew in crews:
                crews.remove(cc.crew)
                fieldable += 1
        else:
            fieldable += 1
    want = 2 if fieldable <= 1 else 1 if fieldable == 2 else 0
    left = len(state.reserves[seat])
    want = min(want, left)
    if not state.command_deck:
        want = left
    sane = [d for d in draws if sane_draw(state, d)] or draws
    return min(sane, key=lambda d: (abs(d.extra.count("reserves") - want), d.extra))
