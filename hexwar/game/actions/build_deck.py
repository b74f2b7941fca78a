"""``BuildDeck`` (000 Standard Game Setup, R4.3): a side builds its own Reserves deck.

The rulebook's standard game has each player *create* a Reserves deck of 80-100 points from
the side's unit cards (multiples allowed). A scenario with a point ``budget`` deals each side
a deck at random from its ``pool`` (:func:`hexwar.game.setup.build_budget_deck`); in the setup
phase, before choosing its hand, a side may replace that deck with one it builds within the
same limits the deal keeps (:func:`deck_problem`). The command is in the log, so a save
replays it exactly (R1.2); the deck's cards are the side's secret: its ``"deck"`` event is
cut to a count for everyone else (:func:`hexwar.game.view.event_for`, R12.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import HexwarError, clip
from .. import ruleset
from ..commands import BuildDeck
from ..events import Recorder
from ..state import card_of
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..scenario import SideSetup
    from ..state import GameState

__all__ = [
    "ACTION",
    "check",
    "apply",
    "deck_problem",
    "deck_problems",
    "deck_limits",
    "crew_shortfalls",
    "DEFAULT_MAX_COPIES",
]

DEFAULT_MAX_COPIES = 3
"""Copies of one unit card in a built deck when the scenario gives no pool (the draw without a
pool holds at most 3 too, :func:`hexwar.rules.cards.auto_reserves`)."""


def deck_limits(ss: SideSetup) -> tuple[int, int, int]:
    """``(least points, most points, copies of one unit card; 0 = no limit)`` of a deck built
    for the side setup ``ss`` (000: 80..budget points, R4.3; R10.4 copies).

    Raises:
        HexwarError: when the side has no point budget (a fixed deck is not rebuilt).
    """
    if ss.budget is None or ss.reserves:
        raise HexwarError("this side plays the scenario's fixed Reserves deck")
    lo = min(int(ss.budget), int(ruleset.cards().rules.reserves_min))
    copies = ss.max_copies if ss.pool else DEFAULT_MAX_COPIES
    return lo, int(ss.budget), int(copies)


def deck_problem(ss: SideSetup, side: str, cards: Sequence[str]) -> str | None:
    """Why ``cards`` is not a deck ``side`` may build under the side setup ``ss``, or ``None``:
    the first of :func:`deck_problems`.

    Args:
        ss: the side's scenario setup.
        side: ``"german"`` or ``"soviet"``.
        cards: unit card ids, repeats allowed.
    """
    found = deck_problems(ss, side, cards)
    return found[0] if found else None


def deck_problems(ss: SideSetup, side: str, cards: Sequence[str]) -> list[str]:
    """Every reason ``cards`` is not a deck ``side`` may build under ``ss`` (``[]``: a legal deck),
    in this order: the side may not build one, an empty deck, each card that is not a unit card
    of the side or not in the scenario's ``pool``, the points, each card over its copies, each
    crew the deck lacks.

    The limits are the dealt deck's: unit cards of the side, from the scenario's ``pool`` when
    it has one; points from the rulebook's 80 (or the budget, if lower) up to the scenario's
    ``budget`` (000, R4.3); at most ``max_copies`` copies of one unit card (R10.4; 3 without a
    pool), crews not counted; every unit that needs a tank crew, artillery crew or pilot brings
    its own crew card (R4.1; the deal's rule, so every deck can field its units). The points,
    copies and crews are judged only once every card is a known unit card of the side.

    Args:
        ss: the side's scenario setup.
        side: ``"german"`` or ``"soviet"``.
        cards: unit card ids, repeats allowed.
    """
    try:
        lo, hi, copies = deck_limits(ss)
    except HexwarError as exc:
        return [str(exc)]
    if not cards:
        return ["an empty Reserves deck"]
    pool = set(ss.pool)
    out: list[str] = []
    for c in dict.fromkeys(cards):
        if not isinstance(c, str) or "#" in c:
            out.append(f"{clip(c)}: name a unit card id (de_pz_iv_h), not a card instance")
            continue
        bad = ruleset.unit_card_problem(c, side)
        if bad is not None:
            out.append(bad)
        elif pool and c not in pool:
            out.append(f"{c} is not in the scenario's pool for {side}")
    if any(not isinstance(c, str) or "#" in c or ruleset.unit_card_problem(c, side) for c in cards):
        return out
    total = sum(ruleset.cost(c) for c in cards)
    if not lo <= total <= hi:
        out.append(f"the deck costs {total} points; it must cost {lo}-{hi} (000 Standard Game Setup)")
    if copies:
        for c, n in sorted(Counter(cards).items()):
            if not ruleset.is_crew(c) and n > copies:
                out.append(f"{n} copies of {c}; at most {copies} (R10.4)")
    return out + crew_shortfalls(cards)


def crew_shortfalls(cards: Sequence[str]) -> list[str]:
    """Each kind of crew a deck of unit card ids ``cards`` lacks (R4.1: every unit that needs a
    tank crew, artillery crew or pilot brings its own crew card; infantry for halftracks is not
    a crew card), as :func:`deck_problem` words it, in the crews' name order; ``[]`` when every
    such unit has its crew. The deck builder shows them all live (:func:`deck_problem` gives
    the first).

    Raises:
        KeyError / HexwarError: for an id that is not a unit card (:func:`deck_problem` checks
            the ids first).
    """
    crews = Counter(ruleset.unit_type(c) for c in cards if ruleset.is_crew(c))
    need: Counter[str] = Counter()
    for c in cards:
        req = None if ruleset.is_crew(c) else ruleset.crew_required(c)
        if req is not None and req != "infantry":
            need[req] += 1
    return [
        f"{n} {'unit needs' if n == 1 else 'units need'} a {kind.replace('_', ' ')} and the deck has {crews[kind]} (R4.1)"
        for kind, n in sorted(need.items())
        if crews[kind] < n
    ]


def check(state: GameState, cmd: BuildDeck) -> str | None:
    """Setup, before the side's hand is chosen, and a legal deck (:func:`deck_problem`)."""
    if cmd.side in state.done:
        return "the starting hand is chosen: the Reserves deck is built before it"
    ss = state.scenario.sides[cmd.side]
    if ss.hand:
        return "this side's starting hand is fixed by the scenario"
    return deck_problem(ss, cmd.side, cmd.cards)


def apply(state: GameState, cmd: BuildDeck, rec: Recorder) -> None:
    """Replace the side's Reserves deck: the dealt instances leave the game, the built cards
    get fresh instance ids (``"<card id>#<n>"``, the lowest numbers not in use); shuffled
    with the other deck at the end of setup like a dealt one."""
    old = set(state.reserves[cmd.side])
    keep = [c for c in state.all_cards if c not in old]
    used = set(keep)
    nxt: Counter[str] = Counter()
    deck: list[str] = []
    for c in cmd.cards:
        while True:
            nxt[c] += 1
            uid = f"{c}#{nxt[c]}"
            if uid not in used:
                break
        used.add(uid)
        deck.append(uid)
    state.reserves[cmd.side] = deck
    state.all_cards = tuple(keep + deck)
    rec.emit(
        "deck",
        f"{cmd.side} builds its Reserves deck: {len(deck)} cards, "
        f"{sum(ruleset.cost(card_of(c)) for c in deck)} points",
        side=cmd.side,
        cards=list(deck),
    )


ACTION = Action(BuildDeck, check, apply, None)
