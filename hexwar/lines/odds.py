"""Exact odds of a line attack: :func:`hexwar.rules.odds.attack_odds` (the same function
``hexwar odds`` prints) fed with the game's units, Damage deck, Events and variant (R6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.combat import AttackOrders
from ..rules.odds import AttackOdds, attack_odds, close_assault_odds
from .commands import side_of_seat
from .rules import cards, defense_context

if TYPE_CHECKING:  # pragma: no cover
    from .state import LinesState

__all__ = ["declare_odds", "close_assault_line_odds"]


def declare_odds(
    state: LinesState,
    unit: str,
    target: str,
    weapons: tuple[int, ...],
    at_crew: bool = False,
    command_cards: tuple[str, ...] = (),
    bonus: bool = False,
) -> AttackOdds:
    """The exact outcome distribution of ``unit`` firing ``weapons`` at ``target`` now.

    Raises:
        CombatError: when the card rules do not allow it.
    """
    a = state.units[unit]
    t = state.units[target]
    victim = state.units[t.crew] if at_crew and t.crew else t
    deck = state.damage_deck if state.damage_deck else state.damage_discard
    from collections import Counter

    from ..rules.cards import card_id_of

    comp = Counter(card_id_of(c) for c in deck)
    return attack_odds(
        cards(),
        a,
        victim,
        AttackOrders(tuple(weapons), False, tuple(command_cards)),
        defense_context(state, side_of_seat(a.seat)),
        units=state.units,
        events_in_play=state.events_in_play,
        variant=state.variants,
        damage_deck=comp,
        bonus_to_hit=[0] if bonus else (),
    )


def close_assault_line_odds(state: LinesState, units: tuple[str, ...], target: str) -> AttackOdds:
    """The exact outcome distribution of a Close Assault now."""
    from collections import Counter

    from ..rules.cards import card_id_of

    group = [state.units[x] for x in units]
    t = state.units[target]
    deck = state.damage_deck if state.damage_deck else state.damage_discard
    return close_assault_odds(
        cards(),
        group,
        t,
        defense_context(state, group[0].side),
        units=state.units,
        events_in_play=state.events_in_play,
        variant=state.variants,
        damage_deck=Counter(card_id_of(c) for c in deck),
    )
