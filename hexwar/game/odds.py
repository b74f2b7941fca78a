"""Exact pre-attack odds of a declaration in a game (R6): the play screen's odds panel and the
terminal game's ``odds N`` command ask the same function.

:func:`declare_odds` takes an attacker, a target and the chosen weapons as a
:class:`~hexwar.game.commands.Declare` would, checks each weapon with
:func:`hexwar.game.targeting.weapon_problem` (range, LOS, hindrance, fire mode: R3, R7), builds
the target's :func:`~hexwar.game.resolution.defense_context` and hands everything to
:func:`hexwar.rules.odds.attack_odds` with the game's own Damage deck (R6.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import HexwarError
from ..rules.cards import Deck
from ..rules.combat import AttackOrders, CombatError
from ..rules.odds import AttackOdds, attack_odds
from . import ruleset, targeting
from .resolution import defense_context

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState

__all__ = ["declare_odds", "odds_lines"]


def declare_odds(
    state: GameState, attacker: str, target: str, weapons: tuple[int, ...], at_crew: bool = False
) -> AttackOdds | None:
    """The exact outcome distribution of ``attacker`` firing ``weapons`` at ``target`` now.

    Args:
        state: the game.
        attacker, target: unit instance ids.
        weapons: weapon indexes (0-based, card order), up to two (R6.1).
        at_crew: R7.5, fire at a frontline gun's crew.

    Returns:
        the :class:`~hexwar.rules.odds.AttackOdds`, or ``None`` when a weapon may not fire at
        the target as chosen (or a unit is gone): no odds of an illegal attack are shown.
    """
    if not weapons or attacker not in state.units or target not in state.units:
        return None
    hind, indirect = 0, False
    for w in weapons:
        prob, mode, h = targeting.weapon_problem(state, attacker, target, w, at_crew)
        if prob:
            return None
        hind = max(hind, h)
        indirect = indirect or mode == targeting.FireMode.INDIRECT
    t = state.units[target]
    tgt = t.crew if at_crew and t.crew else target
    side = state.units[attacker].side
    ctx = defense_context(state, tgt, hind, side)
    deck = Deck("damage", list(state.damage_deck), list(state.damage_discard), reshuffle=True)
    try:
        return attack_odds(
            ruleset.cards(),
            state.units[attacker],
            state.units[tgt],
            AttackOrders(tuple(weapons), indirect),
            ctx,
            units=state.units,
            events_in_play=state.events_in_play,
            variant=state.variants,
            damage_deck=deck,
        )
    except (CombatError, HexwarError):
        return None


def odds_lines(odds: AttackOdds) -> list[str]:
    """The odds as plain text lines (percent, one decimal): destroyed, Damage card, damaged,
    no effect, miss, then the expected victory points and Endurance lost (R6, R10)."""
    rows = (
        ("destroyed", odds.destroyed),
        ("Damage card", odds.damage_card),
        ("damaged", odds.damaged),
        ("no effect", odds.no_effect),
        ("miss", odds.miss),
    )
    out = [f"{name:>12}: {100 * v:5.1f}%" for name, v in rows]
    out.append(
        f"expected {odds.expected_vp:.2f} VP, {odds.expected_damage:.2f} Endurance lost; "
        f"hit {100 * odds.hit:.0f}%"
    )
    return out
