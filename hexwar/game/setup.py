"""Starting a game of a scenario (000 Standard Game Setup, Scenario Games; R4.3, R10.2).

:func:`new_game` builds a :class:`~hexwar.game.state.GameState`:

1. one :class:`~hexwar.rules.dice.Dice` for the whole game from the seed (R1.2);
2. the Command deck with the scenario's Events shuffled in and the Damage deck, built and
   shuffled by :mod:`hexwar.rules.cards`; card instances (``"<card id>#<n>"``) for each
   side's Reserves deck (a fixed list, or built at random from a point budget of 80-100 with
   the game's dice, crews added for units that need them) and for the fixed starting units,
   which are not part of any deck (R10.2);
3. the starting units are placed on their hexes with their crews;
4. each side's starting hand: the scenario's fixed ``hand``, or chosen by the side with a
   :class:`~hexwar.game.commands.ChooseHand` command in the ``setup`` phase;
5. once both hands are chosen the Reserves decks are shuffled and each side is dealt its
   Command cards (an Event drawn now is shuffled back and replaced, 000), and turn 1 begins
   (done by :mod:`hexwar.game.turn`). Every roll of the setup is recorded by the game's
   :class:`~hexwar.game.events.Recorder`, which the dice log is given once here.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..errors import HexwarError
from ..rules.cards import CardError, auto_reserves, build_command_deck, build_damage_deck
from ..rules.dice import Dice
from . import ruleset
from .commands import SIDES
from .event_kinds import PlaceEvent, SetupEvent
from .events import Event, Recorder
from .rolllog import RollLog  # re-exported: its home is light (issue 35)
from .sight import after_setup
from .state import GameState, Phase, UnitState
from .turn import STANDARD_TURNS, TurnSequence

if TYPE_CHECKING:  # pragma: no cover
    from .scenario import Scenario, SideSetup

__all__ = ["new_game", "build_budget_deck", "RollLog", "SetupError", "POOL_MAX_COPIES"]

POOL_MAX_COPIES = 3  # R10.4: the copy limit of every shipped scenario's pool-built decks (max_copies)


class SetupError(HexwarError):
    """A scenario that cannot be set up (reported by validation with its field path).

    Attributes:
        where: the scenario field (``"scenario.events"``).
    """

    def __init__(self, where: str, message: str):
        super().__init__(message)
        self.where = where


class _Ids:
    """Hands out card-instance ids ``"<card id>#<n>"``, numbered per card id from 1."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.all: list[str] = []

    def __call__(self, card_id: str) -> str:
        self.counts[card_id] += 1
        uid = f"{card_id}#{self.counts[card_id]}"
        self.all.append(uid)
        return uid


def build_budget_deck(
    side: str, budget: int, pool: tuple[str, ...], dice: Dice, max_copies: int = 0
) -> list[str]:
    """A Reserves deck of at most ``budget`` points drawn at random (000 Standard Game Setup).

    Without a ``pool`` this is :func:`hexwar.rules.cards.auto_reserves` (every unit that needs
    a crew comes with one). With a ``pool`` (a scenario's list of allowed cards) the same kind
    of draw is made from the pool only: repeatedly one pool card that still fits with a crew
    from the pool it needs (the cheapest), picked with ``dice`` (logged), until nothing fits.
    A pool draw holds at most ``max_copies`` copies of one unit card (R10.4; the shipped
    scenarios set :data:`POOL_MAX_COPIES`, 3; 0 = no limit, what a scenario file without the
    field gets, so round-1 saves replay); crew cards are not limited (one comes with each unit
    that needs it). The draw without a pool always holds at most 3 copies (000, auto_reserves).

    Args:
        side: ``"german"`` or ``"soviet"``.
        budget: points (80..100).
        pool: card ids to choose from (empty: every card of the side).
        dice: the game's dice.
        max_copies: at most this many copies of one unit card in a pool draw (0: no limit).

    Returns:
        card ids, in the order drawn (the deck is shuffled later).
    """
    c = ruleset.cards()
    if not pool:
        return auto_reserves(c, side, dice, budget=budget, minimum=min(budget, c.rules.reserves_min))
    units = sorted({x for x in pool if not ruleset.is_crew(x)})
    crews = sorted({x for x in pool if ruleset.is_crew(x)}, key=lambda x: (ruleset.cost(x), x))
    deck: list[str] = []
    total = 0
    while True:
        fitting = []
        for u in units:
            if max_copies and deck.count(u) >= max_copies:  # R10.4
                continue
            need = ruleset.crew_required(u)
            crew = None
            if need is not None and need != "infantry":
                crew = next((x for x in crews if ruleset.crew_fits(u, x)), None)
                if crew is None:
                    continue
            price = ruleset.cost(u) + (ruleset.cost(crew) if crew else 0)
            if total + price <= budget:
                fitting.append((u, crew, price))
        if not fitting:
            break
        u, crew, price = dice.choice(
            f"{side} Reserves deck card from the pool ({budget - total} points left)", fitting
        )
        deck.append(u)
        if crew:
            deck.append(crew)
        total += price
    return deck


def _place(state: GameState, ids: _Ids, side: str, card: str, hex_, crew: str | None) -> list[Event]:
    uid = ids(card)
    u = UnitState(
        uid, side, side, hex_, aloft=hex_ is None, endurance=ruleset.full_endurance(card), entered=0
    )
    if u.aloft:
        u.flight_turns = ruleset.turns_of_flight(card)
    state.units[uid] = u
    if crew:
        cid = ids(crew)
        state.units[cid] = UnitState(
            cid,
            side,
            side,
            hex_,
            aloft=u.aloft,
            crewing=uid,
            endurance=ruleset.full_endurance(crew),
            entered=0,
        )
        u.crew = cid
    where = state.hex_label(hex_)
    return [
        PlaceEvent(
            f"{side} starts with {ruleset.card_name(card)} ({uid}) in {where}",
            {"unit": uid, "hex": where, "crew": u.crew},
        )
    ]


def new_game(
    scenario: Scenario,
    seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    engine: TurnSequence | None = None,
) -> GameState:
    """A new game of ``scenario`` ready for its first command (see the module docstring).

    Args:
        scenario: the loaded scenario.
        seed: the game's seed; default the scenario's.
        variants: rule variants; default the scenario's (``"standard"`` is dropped: it means
            none of the others).
        engine: the turn sequence and its actions; default the standard game's
            (:data:`hexwar.game.turn.STANDARD_TURNS`). A game mode with more actions passes
            ``TurnSequence(STANDARD.with_actions(...))``.

    Returns:
        the state, in the ``setup`` phase when a side must choose its hand, else already at
        turn 1's first decision.
    """
    seed = scenario.seed if seed is None else int(seed)
    vs = tuple(v for v in (scenario.variants if variants is None else variants) if v != "standard")
    battlemap = scenario.battlemap.copy()
    sink = Recorder(battlemap)
    dice = Dice(seed)
    dice.log = RollLog(sink)
    state = GameState(
        scenario=scenario,
        battlemap=battlemap,
        dice=dice,
        variants=vs,
        seed=seed,
        engine=engine or STANDARD_TURNS,
        recorder=sink,
    )
    sink.begin()
    ids = _Ids()
    sink.add(
        SetupEvent(
            f"{scenario.name}: seed {seed}, rules {', '.join(vs) or 'standard'}",
            {"scenario": scenario.id, "seed": seed, "variants": list(vs)},
        )
    )
    # decks (R4.3): the cards module builds and shuffles the Command and Damage decks
    try:
        cmd_deck = build_command_deck(ruleset.cards(), dice, scenario.events)
    except CardError as exc:
        raise SetupError("scenario.events", str(exc)) from None
    dmg_deck = build_damage_deck(ruleset.cards(), dice)
    state.command_deck = list(cmd_deck.cards)
    state.damage_deck = list(dmg_deck.cards)
    ids.all.extend(state.command_deck + state.damage_deck)
    for side in SIDES:
        ss: SideSetup = scenario.sides[side]
        deck = (
            list(ss.reserves)
            if ss.reserves
            else build_budget_deck(side, ss.budget or 100, ss.pool, dice, ss.max_copies)
        )
        state.reserves[side] = [ids(c) for c in deck]
        if ss.artillery is not None:
            state.artillery_left[side] = ss.artillery.missions
    # fixed starting units (R10.2)
    for side in SIDES:
        for su in scenario.sides[side].units:
            for ev in _place(state, ids, side, su.card, su.hex, su.crew):
                sink.add(ev)
    for o in scenario.objectives:
        state.objective_holders[o.hex] = o.holder
    # hands fixed by the scenario
    for side in SIDES:
        ss = scenario.sides[side]
        if ss.hand:
            for c in ss.hand:
                inst = next((i for i in state.reserves[side] if i.rsplit("#", 1)[0] == c), None)
                if inst is None:
                    raise SetupError(
                        f"sides.{side}.hand", f"{c!r} is not (or not often enough) in the Reserves deck"
                    )
                state.reserves[side].remove(inst)
                state.hand_units[side].append(inst)
            state.done.add(side)
        elif ss.hand_size == 0 or not state.reserves[side]:
            state.done.add(side)
    state.all_cards = tuple(ids.all)
    state.phase = Phase.SETUP
    (engine or STANDARD_TURNS).begin_play(state)
    after_setup(state)  # R12.1/R12.2: under fog, the other side's setup is seen only where sighted
    return state
