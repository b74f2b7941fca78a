"""The ``hard`` hex player's Reserves deck and starting hand (000 Standard Game Setup, R4.3).

In a scenario that gives a side a point ``budget`` (the standard game), the rulebook has each
player *create* an 80-100 point Reserves deck from the side's unit cards and then select the 4
starting units; hexwar deals the deck at random from the scenario's ``pool``
(:func:`hexwar.game.setup.build_budget_deck`) and lets a side replace it with one it builds
(:class:`~hexwar.game.commands.BuildDeck`). The ``normal`` player keeps the deal; the ``hard``
player builds its own here, from public knowledge only (the scenario file: its own pool and
budget, the enemy's pool, the map; R12.1):

* **exchange value** (:func:`exchange_table`): for each unit card of the side's pool, by the
  exact odds of the combat rules (:func:`hexwar.rules.odds.weapon_odds`, open ground, full
  Endurance), the victory points one of its attacks is expected to take off an enemy card of
  the enemy's pool (``off``: the destroyed chance x the card's cost, plus half the cost share of
  the Endurance expected lost) and the points one enemy attack is expected to take off it
  (``def``), each averaged over the enemy's pool. ``off / def`` is the card's exchange rate:
  the points it takes for every point it gives, so a deck's cost x rate is what its cards are
  expected to take before they are lost.
* **the map** (:func:`reach`): a unit that cannot move (a gun, 1 MP) fights only what comes
  within its weapon range of its deploy zone: its rate is scaled by that range over the
  distance between the two deploy zones (aircraft reach every hex).
* **the deck** (:func:`plan_deck`): cards best rate first (a unit that needs a crew counts with
  the cheapest crew of its kind, R4.1), each up to the copy limit (R10.4), while the points
  allow; aircraft take at most :data:`AIR_SHARE` of the budget (they fly
  for their Turns of Flight and go back under the deck, R5.6, so they can neither hold the map
  nor keep the side from an Overrun, R10.1); the points left go to ground units by rate. The
  deck must pass the game's own check (:func:`hexwar.game.actions.build_deck.deck_problem`);
  otherwise the player keeps the deal.
* **the hand**: the standard player's choice (its most valuable units with their crews) from
  the built deck.

Everything here is a pure function of the scenario (cached by its content hash), so a game's
decks do not depend on the seed at all and a save replays exactly (R1.2): the deck is the
``build_deck`` command in the log.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError
from ..game import ruleset
from ..game.actions.build_deck import deck_limits, deck_problem
from ..game.state import UnitState

if TYPE_CHECKING:  # pragma: no cover
    from ..game.scenario import Scenario

__all__ = [
    "AIR_SHARE",
    "DEF_FLOOR",
    "attack_value",
    "exchange",
    "exchange_table",
    "fill_by_rate",
    "reach",
    "plan_deck",
    "deck_rate",
]

AIR_SHARE = 0.55
"""Most of a built deck's budget spent on aircraft with their pilots (module docstring)."""
DEF_FLOOR = 0.25
"""Least ``def`` (victory points an enemy attack takes) a rate divides by, so a card the
enemy's pool can hardly hurt is not rated without bound."""

_TABLES: dict[tuple[str, str], dict[str, tuple[float, float]]] = {}


def _cards_of(scenario: Scenario, side: str) -> list[str]:
    """The unit cards (crews left out) ``side`` may have: its fixed deck, its pool, or every
    card of the side (a budget without a pool)."""
    ss = scenario.sides[side]
    ids = list(ss.reserves) or list(ss.pool)
    if not ids:
        ids = sorted(c for c, u in ruleset.cards().units.items() if u.side == side)
    return sorted({c for c in ids if not ruleset.is_crew(c)})


def attack_value(attacker: str, target: str) -> float:
    """Victory points one attack of ``attacker`` (its best weapon) is expected to take off a
    fresh ``target`` in the open (R6, exact odds): destroyed x cost + half the cost share of
    the Endurance expected lost."""
    from ..rules.combat.orders import CombatError, DefenseContext
    from ..rules.odds import weapon_odds

    cards = ruleset.cards()
    a = UnitState(f"{attacker}#1", "a", "a", None, endurance=ruleset.full_endurance(attacker))
    t = UnitState(f"{target}#1", "t", "t", None, endurance=ruleset.full_endurance(target))
    tt = ruleset.target_type(target)
    cost = float(ruleset.cost(target))
    full = max(1, ruleset.full_endurance(target))
    best = 0.0
    for w in ruleset.weapons(attacker):
        if w.attack_value(tt) is None:
            continue
        try:
            o = weapon_odds(cards, w, t, DefenseContext(), attacker=a)
        except CombatError:
            continue
        v = float(o.destroyed) * cost + 0.5 * cost * min(1.0, float(o.expected_damage) / full)
        best = max(best, v)
    return best


def exchange(mine: list[str], theirs: list[str]) -> dict[str, tuple[float, float]]:
    """``{card: (off, def)}`` for each of ``mine`` (unit card ids, crews left out) against the
    enemy cards ``theirs``: the victory points one of its attacks takes off them and one of
    theirs off it, each averaged over ``theirs`` (:func:`attack_value`, R6 exact odds). Shared
    by the hex deck (:func:`exchange_table`) and the lines deck
    (:mod:`hexwar.search.lines_deck`)."""
    n = max(1, len(theirs))
    return {
        c: (sum(attack_value(c, e) for e in theirs) / n, sum(attack_value(e, c) for e in theirs) / n)
        for c in mine
    }


def fill_by_rate(
    priced: list[tuple[float, str, str, int]], hi: int, copies: int, air_cap: float, is_air: Any
) -> list[str]:
    """The greedy deck of both hard players (000 setup, R4.3): over ``priced`` (``(rate, card,
    crew, points)``, best first), take the best card that still fits, again and again, while
    the points (``hi``), the copy limit (``copies``; 0: none) and the aircraft points
    (``air_cap``; ``is_air(card)``) allow.

    Returns:
        card ids in the order picked, each unit followed by its crew (``""``: none needed).
    """
    deck: list[str] = []
    count: Counter[str] = Counter()
    total = air = 0
    progress = True
    while progress:
        progress = False
        for _rate, u, crew, price in priced:
            flying = is_air(u)
            if total + price > hi or (copies and count[u] >= copies) or (flying and air + price > air_cap):
                continue
            deck += [u, crew] if crew else [u]
            count[u] += 1
            total += price
            air += price if flying else 0
            progress = True
            break
    return deck


def exchange_table(scenario: Scenario, side: str) -> dict[str, tuple[float, float]]:
    """``{card: (off, def)}`` for every unit card ``side`` may put in its deck (module
    docstring): victory points one of its attacks takes off the enemy's cards, and one of
    theirs off it, each averaged over the enemy's cards (R6 exact odds).

    Raises:
        HexwarError: for an unknown side.
    """
    if side not in scenario.sides:
        raise HexwarError(f"unknown side {side!r}")
    key = (scenario.content_hash, side)
    hit = _TABLES.get(key)
    if hit is not None:
        return hit
    enemy = next(s for s in scenario.sides if s != side)
    out = exchange(_cards_of(scenario, side), _cards_of(scenario, enemy))
    if len(_TABLES) > 32:
        _TABLES.clear()
    _TABLES[key] = out
    return out


def reach(scenario: Scenario, side: str, card: str) -> float:
    """Share of the fight a unit of ``card`` can take part in on the scenario's map, 0..1: 1 for
    a unit that moves (2+ MP) or flies; for one that does not, its longest weapon range over
    the distance between the two sides' deploy zones (R5.3; 1 when a side has no zone)."""
    if ruleset.is_aircraft(card) or ruleset.movement_points(card) >= 2:
        return 1.0
    enemy = next(s for s in scenario.sides if s != side)
    mine, theirs = scenario.sides[side].deploy, scenario.sides[enemy].deploy
    if not mine or not theirs:
        return 1.0
    dist = min(
        a.distance(b) for a in mine[:: max(1, len(mine) // 64)] for b in theirs[:: max(1, len(theirs) // 64)]
    )
    rng = max((w.range for w in ruleset.weapons(card)), default=0)
    return 1.0 if dist <= 0 else max(0.0, min(1.0, rng / dist))


def deck_rate(scenario: Scenario, side: str, card: str) -> float:
    """A unit card's exchange rate on the scenario's map: ``off x reach / max(def, DEF_FLOOR)``."""
    off, dfn = exchange_table(scenario, side)[card]
    return off * reach(scenario, side, card) / max(dfn, DEF_FLOOR)


def _crew_for(card: str, crews: list[str]) -> str | None:
    """The cheapest crew card of the pool ``card`` needs (R4.1), ``""`` when it needs none,
    ``None`` when the pool has none."""
    need = ruleset.crew_required(card)
    if need is None or need == "infantry":
        return ""
    fits = [c for c in crews if ruleset.crew_fits(card, c)]
    return min(fits, key=lambda c: (ruleset.cost(c), c)) if fits else None


def plan_deck(scenario: Scenario, side: str) -> list[str] | None:
    """The Reserves deck the ``hard`` player builds for ``side`` (module docstring), or ``None``
    when the side plays a fixed deck or no deck the rules allow comes out (keep the deal).

    Returns:
        card ids in the order picked (each unit followed by its crew).
    """
    ss = scenario.sides[side]
    try:
        _lo, hi, copies = deck_limits(ss)
    except HexwarError:
        return None
    pool = list(ss.pool) or sorted(c for c, u in ruleset.cards().units.items() if u.side == side)
    crews = sorted({c for c in pool if ruleset.is_crew(c)})
    units = _cards_of(scenario, side)
    priced: list[tuple[float, str, str, int]] = []  # (rate, card, crew, points)
    for u in units:
        crew = _crew_for(u, crews)
        if crew is None:
            continue
        price = ruleset.cost(u) + (ruleset.cost(crew) if crew else 0)
        priced.append((deck_rate(scenario, side, u), u, crew, price))
    priced.sort(key=lambda x: (-x[0], x[3], x[1]))
    deck = fill_by_rate(priced, hi, copies, AIR_SHARE * hi, ruleset.is_aircraft)
    if deck_problem(ss, side, deck) is not None:
        return None
    return deck
