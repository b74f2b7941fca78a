"""Exact odds of a line attack: :func:`hexwar.rules.odds.attack_odds` (the same function
``hexwar odds`` prints) fed with the game's units, Damage deck, Events and variant (R6).

:func:`declare_odds` remembers its answers (issue 31: the hard player's rollouts asked the same
odds again and again, about 60% of their time). The key is every input the odds read: the
attacking unit and the unit it fires at, each with the crew riding it (every field of the
:class:`~hexwar.lines.state.LineUnit`; the combat rules reach other units only through
``unit.crew``), the weapons, the Command cards, the bonus, whether the attacking side has a
ground unit (the defense context), the Events in play, the variant, the Damage deck's
composition (card ids and copies; the odds never read its order) and the card set. The answers
are frozen :class:`~hexwar.rules.odds.AttackOdds`, shared safely; :func:`declare_odds_uncached`
computes afresh (tests/test_lines_odds_cache.py compares the two over many seeded positions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..rules.cards import card_id_of
from ..rules.combat import AttackOrders, CombatError
from ..rules.odds import AttackOdds, attack_odds, close_assault_odds
from .commands import side_of_seat
from .rules import cards, defense_context

if TYPE_CHECKING:  # pragma: no cover
    from ..rules.cards import CardSet
    from .state import LinesState

__all__ = ["declare_odds", "declare_odds_uncached", "declare_odds_cache_clear", "close_assault_line_odds"]

CACHE_LIMIT = 20_000
"""Answers :func:`declare_odds` keeps at most (the memo is emptied when it is full; a few tens of
megabytes)."""

_cache: dict[tuple[Any, ...], AttackOdds | str] = {}
_cache_cards: list[CardSet | None] = [None]
_compositions: dict[tuple[str, ...], tuple[tuple[str, int], ...]] = {}
_unit_fields: tuple[str, ...] | None = None
_unit_getter: Any = None
_unit_type: type | None = None


def declare_odds_cache_clear() -> None:
    """Forget every remembered answer of :func:`declare_odds` (tests; never needed for
    correctness: the key holds every input)."""
    _cache.clear()
    _compositions.clear()


def _composition(deck: list[str]) -> tuple[tuple[str, int], ...]:
    """The Damage deck's composition, ``((card id, copies), ...)`` sorted, remembered by the
    deck's cards in order (a deck changes only when a card is drawn or reshuffled)."""
    key = tuple(deck)
    got = _compositions.get(key)
    if got is None:
        if len(_compositions) >= CACHE_LIMIT:
            _compositions.clear()
        got = _compositions[key] = tuple(sorted(Counter(card_id_of(c) for c in deck).items()))
    return got


def _unit_key(u: Any) -> tuple[Any, ...] | None:
    """Every field of a :class:`LineUnit` (lists as tuples), or ``None`` for no unit."""
    if u is None:
        return None
    return tuple(tuple(v) if type(v) is list else v for v in _unit_getter(u))


def _key(
    state: LinesState,
    a: Any,
    victim: Any,
    weapons: tuple[int, ...],
    command_cards: tuple[str, ...],
    bonus: bool,
    deck: list[str],
) -> tuple[Any, ...] | None:
    global _unit_fields, _unit_getter, _unit_type
    if _unit_type is None:
        from .state import LineUnit

        _unit_type = LineUnit
        _unit_fields = tuple(f.name for f in fields(LineUnit))
        _unit_getter = attrgetter(*_unit_fields)
    units = state.units
    ac = units.get(a.crew) if a.crew else None
    vc = units.get(victim.crew) if victim.crew else None
    kinds = {type(x) for x in (a, victim, ac, vc) if x is not None}
    if kinds != {_unit_type}:
        return None  # not a line unit: no memo (its fields are not known)
    return (
        _unit_key(a),
        _unit_key(ac),
        _unit_key(victim),
        _unit_key(vc),
        tuple(weapons),
        tuple(command_cards),
        bool(bonus),
        defense_context(state, side_of_seat(a.seat)),
        tuple(state.events_in_play),
        state.variants,
        _composition(deck),
    )


def declare_odds(
    state: LinesState,
    unit: str,
    target: str,
    weapons: tuple[int, ...],
    at_crew: bool = False,
    command_cards: tuple[str, ...] = (),
    bonus: bool = False,
) -> AttackOdds:
    """The exact outcome distribution of ``unit`` firing ``weapons`` at ``target`` now (R6),
    remembered by every input it reads (module docstring): the same answer as
    :func:`declare_odds_uncached`, in a fraction of the time when asked again.

    Args:
        state: the game (read only).
        unit, target: card-instance ids of units in play.
        weapons: weapon indices (0-based) in firing order.
        at_crew: fire at the crew riding ``target`` (R7.5).
        command_cards: Command cards played on the attack.
        bonus: the Command-card +1 on the first to-hit roll (R1.3).

    Raises:
        CombatError: when the card rules do not allow it.
        KeyError: when ``unit``, ``target`` (or its crew, with ``at_crew``) is not in play.
    """
    cs = cards()
    if _cache_cards[0] is not cs:
        _cache.clear()
        _cache_cards[0] = cs
    a = state.units[unit]
    t = state.units[target]
    victim = state.units[t.crew] if at_crew and t.crew else t
    deck = state.damage_deck if state.damage_deck else state.damage_discard
    key = _key(state, a, victim, weapons, command_cards, bonus, deck)
    if key is None:
        return declare_odds_uncached(state, unit, target, weapons, at_crew, command_cards, bonus)
    got = _cache.get(key)
    if got is None:
        try:
            got = declare_odds_uncached(state, unit, target, weapons, at_crew, command_cards, bonus)
        except CombatError as exc:
            got = str(exc)
        if len(_cache) >= CACHE_LIMIT:
            _cache.clear()
        _cache[key] = got
    if isinstance(got, str):
        raise CombatError(got)
    return got


def declare_odds_uncached(
    state: LinesState,
    unit: str,
    target: str,
    weapons: tuple[int, ...],
    at_crew: bool = False,
    command_cards: tuple[str, ...] = (),
    bonus: bool = False,
) -> AttackOdds:
    """:func:`declare_odds` worked out afresh (no memo): the reference the memo is tested against.

    Raises:
        CombatError: when the card rules do not allow it.
        KeyError: when a named unit is not in play.
    """
    a = state.units[unit]
    t = state.units[target]
    victim = state.units[t.crew] if at_crew and t.crew else t
    deck = state.damage_deck if state.damage_deck else state.damage_discard
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
    """The exact outcome distribution of a Close Assault now (R6, 000 Close Assault).

    Raises:
        CombatError: when the card rules do not allow it.
    """
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
