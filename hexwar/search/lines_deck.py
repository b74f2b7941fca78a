"""The ``hard`` lines player's Reserves deck (000 Standard Game Setup, R4.3; issue 31).

The rulebook has each player *create* an 80-100 point Reserves deck (75 a commander in the
4-player game) from the side's unit cards; hexwar deals a random one within the limits
(:func:`hexwar.lines.scenario.random_deck`) unless a seat gives its own (``--deck``, the deck
builder). The ``normal`` player keeps the deal; the ``hard`` player builds its own, as the hard
hex player does (:mod:`hexwar.search.hexdeck`), from public knowledge only (the scenario card:
its own pool, limits and restrictions, the enemy's pool; R12.1):

* **exchange rate**: for each unit card the seat may take (its commander's units in the
  4-player game, within the scenario card's restrictions), the victory points one of its
  attacks is expected to take off the enemy's cards and one of theirs off it, each averaged
  over the enemy's pool by the exact odds of the combat rules
  (:func:`hexwar.search.hexdeck.attack_value`, the same weapons and Damage Index as the card
  game's, R6); the rate is ``off / max(def, DEF_FLOOR)``;
* **the deck** (:func:`hexwar.search.hexdeck.fill_by_rate`, the hard hex player's): cards best rate first, each with its crew (the regular crew of its kind, R4.1),
  up to :data:`COPIES` copies, while the points allow; aircraft take at most
  :data:`hexwar.search.hexdeck.AIR_SHARE` of the points; the deck must pass the game's own
  checks (:func:`hexwar.lines.scenario.deck_problems`, the scenario card's restrictions),
  otherwise the seat keeps the deal.

A pure function of the scenario card, so a game's decks do not depend on its seed and the deck
goes into the save's ``setup.decks`` (R1.2: a save replays exactly). Measured (docs/lines.md,
"The hard player's own deck"): the standard player with this deck against the standard player
with a dealt one won 283 of 300 games of ``lines`` and 114 of 150 of ``lines-4p``.
"""

from __future__ import annotations

from typing import Any

from ..lines.commands import side_of_seat
from ..lines.rules import role_of
from ..lines.scenario import deck_problems, default_cards, restriction_problems, seat_budget
from .hexdeck import AIR_SHARE, DEF_FLOOR, exchange, fill_by_rate

__all__ = ["COPIES", "plan_lines_deck", "with_hard_decks"]

COPIES = 3
"""Copies of one unit card a built deck holds at most (as the dealt decks, 000 setup)."""

_RATES: dict[tuple[str, str, str | None], list[tuple[float, str, str, int]]] = {}


def _pool(sc: Any, side: str) -> list[str]:
    """The card ids ``side`` may draw its deck from: the scenario card's pool, or every card."""
    cards = default_cards()
    return list(sc.sides[side].pool) or [u.id for u in cards.side_units(side, crews=True)]


def _rated(sc: Any, seat: str) -> list[tuple[float, str, str, int]]:
    """``(rate, card, crew, points)`` of every unit card ``seat`` may take, best rate first."""
    cards = default_cards()
    side = side_of_seat(seat)
    enemy = "soviet" if side == "german" else "german"
    role = None if len(sc.seats) == 2 else seat.split("-", 1)[1]
    key = (repr(sorted(_pool(sc, side))) + repr(sorted(_pool(sc, enemy))), seat, role)
    hit = _RATES.get(key)
    if hit is not None:
        return hit
    pool = _pool(sc, side)
    crews = sorted({c for c in pool if cards.unit(c).is_crew})
    units = sorted({c for c in pool if not cards.unit(c).is_crew and (role is None or role_of(c) == role)})
    units = [u for u in units if not restriction_problems(sc.sides[side], [u])]
    theirs = sorted({c for c in _pool(sc, enemy) if not cards.unit(c).is_crew})
    table = exchange(units, theirs)
    out = []
    for u in units:
        uc = cards.unit(u)
        crew = ""
        if uc.needs_crew:
            fits = sorted(
                (c for c in crews if cards.unit(c).unit_type == uc.crew),
                key=lambda c: (cards.unit(c).quality != "regular", cards.unit(c).cost, c),
            )
            if not fits:
                continue
            crew = fits[0]
        price = uc.cost + (cards.unit(crew).cost if crew else 0)
        off, dfn = table[u]
        out.append((off / max(dfn, DEF_FLOOR), u, crew, price))
    out.sort(key=lambda x: (-x[0], x[3], x[1]))
    if len(_RATES) > 32:
        _RATES.clear()
    _RATES[key] = out
    return out


def plan_lines_deck(sc: Any, seat: str) -> tuple[str, ...] | None:
    """The Reserves deck the ``hard`` player builds for ``seat`` of the line scenario ``sc``
    (module docstring), or ``None`` when the seat plays the scenario card's fixed deck or no
    deck the rules allow comes out (the seat keeps the deal).

    Args:
        sc: a :class:`hexwar.lines.scenario.LinesScenario`.
        seat: one of ``sc.seats`` (``german``, or ``german-front`` in the 4-player game).

    Returns:
        card ids in the order picked (each unit followed by its crew).
    """
    cards = default_cards()
    side = side_of_seat(seat)
    ss = sc.sides[side]
    if ss.reserves and len(sc.seats) == 2:
        return None
    lo, hi = seat_budget(sc, side)
    deck = fill_by_rate(
        _rated(sc, seat), hi, COPIES, AIR_SHARE * hi, lambda u: cards.unit(u).unit_type == "aircraft"
    )
    role = None if len(sc.seats) == 2 else seat.split("-", 1)[1]
    errors, _warnings = deck_problems(side, deck, (lo, hi), role)
    if errors or restriction_problems(ss, deck):
        return None
    return tuple(deck)


def with_hard_decks(sc: Any, levels: dict[str, str]) -> Any:
    """``sc`` with a built deck (:func:`plan_lines_deck`) for every seat ``levels`` names
    ``hard`` whose deck would be dealt at random: not one given already (``--deck``, a save's
    ``setup.decks``) nor the scenario card's fixed deck. ``sc`` itself is not changed.

    Args:
        sc: a :class:`hexwar.lines.scenario.LinesScenario`.
        levels: ``{seat or side: player name}`` of the computer seats (a side names both of its
            seats in the 4-player game).
    """
    built: dict[str, tuple[str, ...]] = {}
    for seat in sc.seats:
        side = side_of_seat(seat)
        level = levels.get(seat, levels.get(side))
        if level != "hard" or seat in sc.decks or (side in sc.decks and len(sc.seats) == 2):
            continue
        deck = plan_lines_deck(sc, seat)
        if deck is not None:
            built[seat] = deck
    return sc.with_decks({**sc.decks, **built}) if built else sc
