"""Line scenarios (``mode = "lines"`` scenario files, 000's scenario-card form) and deck files.

A line scenario is a hexwar scenario file with ``mode = "lines"`` and no map::

    format = "hexwar-scenario"
    schema_version = 1
    mode = "lines"

    [scenario]
    id = "lines"
    name = "Standard game on lines"
    description = "..."                # the scenario card's situation text
    seed = 1943
    players = 2                        # 2, or 4 (000 4-player team variant)
    victory_points = 51                # default 51 (2 players) / 76 (4 players)
    overrun = true
    turns = 0                          # turn limit (0: none); then the higher score wins
    rules = []                         # "classic" (001)
    events = []                        # Event card ids shuffled into the Command deck
    events_in_play = []                # Event card ids in play from the start (special rules)
    special_rules = ["..."]            # scenario-card text shown to players (never interpreted)

    [sides.german]
    budget = 100                       # Reserves deck points (4 players: per seat, 75)
    minimum = 80
    pool = ["de_pz_iv_g", ...]         # cards a random deck may use (default: all of the side)
    reserves = ["de_tiger_i", ...]     # or a fixed deck (2 players)
    hand = ["de_tiger_i", ...]         # a fixed starting hand (else chosen, 000 setup)
    initiative = 1                     # initiative modifier
    victory_points = 40                # a side's own target (special win condition)
    no_aircraft_before = 3             # Reserves restriction: no aircraft committed before turn 3
    max_card_cost = 16                 # Reserves restriction: no unit card above 16 points
    exclude_types = ["vehicle"]        # Reserves restriction: unit types kept out of the deck

    [[sides.german.units]]             # starting units in play: not in the Reserves budget
    card = "de_pak40"
    line = "front"                     # "front", "rear" or "air"
    crew = "de_artillery_crew_regular"

    [win]
    hold = { side = "soviet", turn = 6 }  # soviet wins at the end of turn 6 if it still holds
                                          # its Frontline with a ground unit

Deck files (``decks/*.toml``, ``--deck german=FILE``)::

    format = "hexwar-deck"
    schema_version = 1
    [deck]
    name = "Kursk panzer group"
    side = "german"
    cards = ["de_tiger_i", "de_tank_crew_veteran", ...]

validated for the side, known cards and points (80-100; 75 in the 4-player game); a unit that
needs a crew without a crew card of its type in the deck is a warning (000's tip), not an error.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError, Problem, ValidationError, clip
from ..fileio import read_text
from ..formats import lines_file  # its models are made at the first lines scenario validated
from ..formats.migrate import DECK_FORMAT  # the one spelling (the deck model re-exports it)
from ..game.events import Recorder
from ..game.rolllog import RollLog
from ..model.documents import Lenient, merge_problems, read_lenient
from ..rules.cards import build_command_deck, build_damage_deck, card_id_of, default_cards
from ..rules.dice import Dice
from .commands import SEATS_2P, SEATS_4P, Commit, side_of_seat
from .events import LinesLogEvent, SetupDone
from .rules import Sink, finish, role_of, seat_for_card
from .state import SIDES, LinesState

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "LinesSide",
    "StartingUnit",
    "LinesScenario",
    "parse_lines_scenario",
    "load_deck",
    "deck_problems",
    "validate_deck_file",
    "DECK_FORMAT",
    "random_deck",
    "restriction_problems",
]

LINE_KEYS = ("front", "rear", "air")


@dataclass(frozen=True)
class StartingUnit:
    """A unit that begins in play (000 scenario cards): not counted in the Reserves deck."""

    card: str
    line: str
    crew: str | None = None
    seat: str | None = None


@dataclass(frozen=True)
class LinesSide:
    """One side's setup (000 scenario card: Reserves deck restrictions, starting units)."""

    budget: int = 100
    minimum: int = 80
    pool: tuple[str, ...] = ()
    reserves: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    initiative: int = 0
    victory_points: int | None = None
    no_aircraft_before: int = 0
    max_card_cost: int = 0
    exclude_types: tuple[str, ...] = ()
    units: tuple[StartingUnit, ...] = ()


@dataclass
class LinesScenario:
    """A loaded line scenario (definitions only)."""

    id: str
    name: str
    sides: dict[str, LinesSide]
    description: str = ""
    path: Path | None = None
    seed: int = 0
    players: int = 2
    victory_points: int = 51
    overrun: bool = True
    turns: int = 0
    variants: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    special_rules: tuple[str, ...] = ()
    events_in_play: tuple[str, ...] = ()
    hold: tuple[str, int] | None = None
    content_hash: str = ""
    reference: str = field(default="", compare=False)
    mode: str = "lines"
    objectives: tuple[()] = ()  # no objective hexes on lines (the common result code asks)
    decks: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats: ``german``/``soviet`` or the four team seats."""
        return SEATS_2P if self.players == 2 else SEATS_4P

    def victory_points_for(self, state: LinesState) -> dict[str, int]:
        """Each side's points target (R10.1; a side's own target from the scenario card)."""
        return {s: self.sides[s].victory_points or self.victory_points for s in SIDES}

    def initiative_bonus(self, side: str) -> int:
        """The scenario's initiative modifier for ``side``."""
        return self.sides[side].initiative

    def commit_problem(self, state: LinesState, cmd: Commit) -> str | None:
        """Scenario restrictions on a commitment (aircraft before turn N)."""
        ss = self.sides[side_of_seat(cmd.seat)]
        if ss.no_aircraft_before and state.turn < ss.no_aircraft_before and cmd.line is None:
            return f"{self.name}: no aircraft before turn {ss.no_aircraft_before} (scenario special rule)"
        return None

    def end_turn_victory(self, state: LinesState, sink: Sink) -> None:
        """Scenario win conditions at End Turn: holding the Frontline, the turn limit."""
        if self.hold is not None and state.turn == self.hold[1]:
            side = self.hold[0]
            if state.lines[side]["front"]:
                finish(state, sink, side, "objectives")
                return
        if self.turns and state.turn >= self.turns:
            g, s_ = state.vp["german"], state.vp["soviet"]
            finish(state, sink, "german" if g > s_ else "soviet" if s_ > g else None, "turn limit")

    def with_decks(self, decks: dict[str, tuple[str, ...]]) -> LinesScenario:
        """A copy whose named seats use the given Reserves decks (card ids; ``--deck``)."""
        import copy

        sc = copy.copy(self)
        sc.decks = dict(decks)
        return sc

    def setup_json(self) -> dict[str, Any]:
        """What a save must keep beyond the scenario file: the ``--deck`` Reserves decks."""
        return {"decks": {k: list(v) for k, v in sorted(self.decks.items())}} if self.decks else {}

    def with_setup(self, setup: dict[str, Any]) -> LinesScenario:
        """The scenario with a save's :meth:`setup_json` applied.

        Raises:
            HexwarError: naming the bad seat or card.
        """
        decks = setup.get("decks", {})
        if not isinstance(decks, dict):
            raise HexwarError("decks: expected {seat: [card ids]}")
        out: dict[str, tuple[str, ...]] = {}
        for seat, ids in decks.items():
            if seat not in self.seats and seat not in SIDES:
                raise HexwarError(f"decks.{clip(seat, quote=False)}: not a seat of {self.id}")
            if not isinstance(ids, list) or not all(isinstance(c, str) for c in ids):
                raise HexwarError(f"decks.{seat}: expected a list of unit card ids")
            if len(ids) > 100:  # 100 points at most, no card below 1 (fresh9b: was "expected a list")
                raise HexwarError(f"decks.{seat}: {len(ids)} cards; a Reserves deck holds at most 100")
            errors, _ = deck_problems(side_of_seat(seat), ids, (0, 10_000))
            if errors:
                raise HexwarError(f"decks.{seat}: " + "; ".join(errors))
            out[seat] = tuple(ids)
        return self.with_decks(out)

    def new_game(self, seed: int | None = None, variants: tuple[str, ...] | None = None) -> LinesState:
        """A new game ready for its first command (000 Standard Game Setup / the scenario card)."""
        return new_game(self, seed, variants)


# -- decks ---------------------------------------------------------------------------------
def seat_budget(sc: LinesScenario, side: str) -> tuple[int, int]:
    """(minimum, maximum) points of one Reserves deck of ``side``."""
    ss = sc.sides[side]
    return ss.minimum, ss.budget


def deck_problems(
    side: str, card_ids: list[str], budget: tuple[int, int] = (80, 100), role: str | None = None
) -> tuple[list[str], list[str]]:
    """``(errors, warnings)`` of a Reserves deck (000 setup): cards of ``side``, points within
    ``budget``; ``role`` (4-player) keeps the deck to that commander's units. Warning: a unit
    that needs a crew has no crew card of its type in the deck (000's tip)."""
    cards = default_cards()
    errors: list[str] = []
    warnings: list[str] = []
    total = 0
    types = set()
    for cid in card_ids:
        u = cards.units.get(card_id_of(cid))
        if u is None:
            errors.append(f"unknown unit card {clip(cid)}")
            continue
        shown = clip(cid, quote=False)  # "de_tiger_i#" and any suffix is that card: cut it
        if u.side != side:
            errors.append(f"{shown} is a {u.side} card, not {side}")
        if role is not None and not u.is_crew and role_of(u.id) != role:
            errors.append(f"{shown} is a {role_of(u.id)} unit, not for the {role} commander (000 4-player)")
        total += u.cost
        types.add(u.unit_type)
    lo, hi = budget
    if not lo <= total <= hi:
        errors.append(f"the deck costs {total} points; expected {lo}..{hi} (000 setup)")
    for cid in sorted(set(card_ids)):
        u = cards.units.get(card_id_of(cid))
        if u is not None and u.needs_crew and u.crew not in types:
            warnings.append(f"{u.name} needs {u.crew.replace('_', ' ')} but the deck has none (000 tip)")
    return list(dict.fromkeys(errors)), warnings  # a card given twice is one problem (fresh9b)


def restriction_problems(side_cfg: LinesSide | None, card_ids: list[str] | tuple[str, ...]) -> list[str]:
    """The scenario card's Reserves restrictions a deck breaks (000 scenario cards): a unit over
    ``max_card_cost`` points, a unit of an excluded type (``exclude_types``); crews are never
    restricted. ``[]`` when ``side_cfg`` is ``None`` or the deck keeps them."""
    if side_cfg is None:
        return []
    cards = default_cards()
    out: list[str] = []
    for cid in dict.fromkeys(card_id_of(c) for c in card_ids):
        u = cards.units.get(cid)
        if u is None or u.is_crew:
            continue
        if side_cfg.max_card_cost and u.cost > side_cfg.max_card_cost:
            out.append(
                f"{u.name} costs {u.cost} points; this scenario allows at most {side_cfg.max_card_cost} a card"
            )
        if u.unit_type in side_cfg.exclude_types:
            out.append(f"{u.name}: no {u.unit_type.replace('_', ' ')} units in this scenario's Reserves")
    return out


def load_deck(
    path: str | os.PathLike[str], points: tuple[int, int] | None = (1, 100)
) -> tuple[str, tuple[str, ...], list[str]]:
    """Read a deck file: ``(side, card ids, crew warnings)``; points are checked by the game
    (its limits depend on the number of players): here only within ``points`` (``None``: not
    at all, the hex game's :func:`~hexwar.game.actions.build_deck.deck_problem` judges them).

    Raises:
        ValidationError: naming the file and field.
    """
    from ..fileio import loads_toml

    src = str(path)
    data = loads_toml(read_text(Path(path), kind=DECK_FORMAT), src)  # syntax, depth, dates: named errors
    from ..formats.deck_file import DeckFile
    from ..model.filemodel import check

    doc, probs = check(DeckFile, data, src)
    deck = data.get("deck")
    if doc is not None:
        side, cards_ = doc.deck.side, list(doc.deck.cards)
    elif not isinstance(deck, dict):
        raise ValidationError(probs)
    else:  # the model refused a part: the cards are still checked when they are a list of ids
        side = deck["side"] if deck.get("side") in SIDES else "german"
        raw = deck.get("cards")
        ok = isinstance(raw, list) and all(isinstance(c, str) for c in raw) and len(raw) <= 100
        cards_ = [str(c) for c in raw] if ok and isinstance(raw, list) else []
    errors, warnings = deck_problems(str(side), list(cards_), points or (0, 10**9))
    probs += [Problem(src, "deck.cards", e) for e in errors]
    if probs:
        raise ValidationError(probs)
    return str(side), tuple(cards_), warnings


def validate_deck_file(path: str) -> None:
    """Validator of ``hexwar-deck`` files (registered in VALIDATORS); 000's crew tip is printed
    as a warning on stderr, not an error.

    Raises:
        ValidationError: listing every problem.
    """
    import click

    _, _, warnings = load_deck(path)
    for w in warnings:
        click.echo(f"warning: {path}: {w}", err=True)


def random_deck(
    side: str,
    budget: tuple[int, int],
    pool: tuple[str, ...],
    dice: Dice,
    role: str | None = None,
    restrictions: LinesSide | None = None,
) -> list[str]:
    """A random Reserves deck within the limits (000 setup), every unit that needs a crew with
    one (regular quality when the pool has it), like the hex standard game's random decks."""
    cards = default_cards()
    lo, hi = budget
    ids = list(pool) or [u.id for u in cards.side_units(side, crews=True)]
    units = [c for c in ids if not cards.unit(c).is_crew and (role is None or role_of(c) == role)]
    if restrictions is not None:
        if restrictions.max_card_cost:
            units = [c for c in units if cards.unit(c).cost <= restrictions.max_card_cost]
        units = [c for c in units if cards.unit(c).unit_type not in restrictions.exclude_types]
    crews = [c for c in ids if cards.unit(c).is_crew] or [u.id for u in cards.side_units(side) if u.is_crew]
    for _attempt in range(20):
        deck: list[str] = []
        total = 0
        for _ in range(60):
            fitting = []
            for u in sorted(units):
                uc = cards.unit(u)
                crew = None
                if uc.needs_crew:
                    cands = sorted(
                        (c for c in crews if cards.unit(c).unit_type == uc.crew),
                        key=lambda c: (cards.unit(c).quality != "regular", c),
                    )
                    if not cands:
                        continue
                    crew = cands[0]
                price = uc.cost + (cards.unit(crew).cost if crew else 0)
                if total + price <= hi and deck.count(u) < 3:
                    fitting.append((u, crew, price))
            if not fitting:
                break
            u, crew, price = dice.choice(f"{side} Reserves deck card ({hi - total} points left)", fitting)
            deck.append(u)
            if crew:
                deck.append(crew)
            total += price
        if total >= lo:
            return deck
    raise HexwarError(f"could not build a {side} Reserves deck of {lo}..{hi} points from the pool")


# -- new game ------------------------------------------------------------------------------
def new_game(
    sc: LinesScenario, seed: int | None = None, variants: tuple[str, ...] | None = None
) -> LinesState:
    """Set up a game of ``sc`` (000 Standard Game Setup and the scenario card)."""
    from collections import Counter

    from .actions.commit import place
    from .turn import begin_play

    cards = default_cards()
    seed = sc.seed if seed is None else int(seed)
    vs = tuple(v for v in (sc.variants if variants is None else variants) if v != "standard")
    dice = Dice(seed)
    rec: Recorder[LinesLogEvent] = Recorder()
    dice.log = RollLog(rec)  # the recorder is given to the dice once (R1.2)
    seats = sc.seats
    state = LinesState(scenario=sc, dice=dice, seed=seed, variants=vs, seats=seats, recorder=rec)
    for s in seats:
        state.reserves[s] = []
        state.hand_units[s] = []
        state.hand_commands[s] = []
        state.pending[s] = {}
    rec.begin()
    sink = rec
    counts: Counter[str] = Counter()
    all_cards: list[str] = []

    def inst(cid: str) -> str:
        counts[cid] += 1
        x = f"{cid}#{counts[cid]}"
        all_cards.append(x)
        return x

    sink.add(
        SetupDone(
            f"{sc.name}: seed {seed}, rules {', '.join(vs) or 'standard'}, seats {', '.join(seats)}",
            sc.id,
            seed,
            vs,
            seats,
        )
    )
    state.command_deck = list(build_command_deck(cards, dice, sc.events).cards)
    state.damage_deck = list(build_damage_deck(cards, dice).cards)
    all_cards.extend(state.command_deck + state.damage_deck)
    for ev in sc.events_in_play:  # scenario special rule: an Event in play from the start
        x = f"{ev}#start"
        state.events_in_play.append(x)
        state.event_turns[x] = -1
        all_cards.append(x)
    for seat in seats:
        side = side_of_seat(seat)
        ss = sc.sides[side]
        role = None if len(seats) == 2 else seat.split("-", 1)[1]
        if seat in sc.decks:
            deck = list(sc.decks[seat])
        elif side in sc.decks and len(seats) == 2:
            deck = list(sc.decks[side])
        elif ss.reserves and len(seats) == 2:
            deck = list(ss.reserves)
        else:
            deck = random_deck(side, seat_budget(sc, side), ss.pool, dice, role, ss)
        state.reserves[seat] = [inst(c) for c in deck]
    for side in SIDES:
        for su in sc.sides[side].units:
            seat = su.seat or seat_for_card(state, side, su.card)
            uid = inst(su.card)
            crew = inst(su.crew) if su.crew else None
            u = place(state, seat, uid, None if su.line == "air" else su.line, crew, None)
            u.entered = 0
            if crew:
                state.units[crew].entered = 0
    for seat in seats:
        ss = sc.sides[side_of_seat(seat)]
        if ss.hand and len(seats) == 2:
            for c in ss.hand:
                x = next(i for i in state.reserves[seat] if card_id_of(i) == c)
                state.reserves[seat].remove(x)
                state.hand_units[seat].append(x)
            dice.shuffle(f"shuffle {seat} Reserves deck", state.reserves[seat])
            state.done.add(seat)
        elif not state.reserves[seat]:
            state.done.add(seat)
    state.all_cards = tuple(all_cards)
    state.overrun = {s: 0 for s in SIDES}
    try:
        begin_play(state, sink)
    finally:
        state.log.extend(rec.take())
    return state


# -- parsing -------------------------------------------------------------------------------
def parse_lines_scenario(
    data: dict[str, Any], text: str, path: Path | None, compiled: Any = None
) -> LinesScenario:
    """Validate a ``mode = "lines"`` scenario's TOML data (every problem collected, R11.1).

    The shape is the typed model's (:class:`hexwar.formats.lines_file.LinesScenarioFile`, issue
    34); then what it cannot say: Event cards that exist, unit card ids of each side, the decks'
    points (000 setup), starting units' lines, crews and seats, and that a random deck can be
    dealt (000 scenario cards).

    Args:
        data: the parsed TOML.
        text: its text (hashed into the content hash).
        path: the file it came from.
        compiled: the validated document of ``text`` from its compiled form
            (:func:`hexwar.model.compiled_docs.lookup`, issue 35), read instead of ``data``.

    Raises:
        ValidationError: listing every problem (file, field, expectation).
    """
    cards = default_cards()
    src = str(path) if path is not None else "<memory>"
    if compiled is not None:  # the validated document of these bytes (load_scenario found it)
        read: Lenient[Any] = Lenient(compiled, [], frozenset())
    else:
        read = read_lenient(lines_file.LinesScenarioFile, data, src)
    if read.value is None:
        raise ValidationError(read.problems)
    doc = read.value
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    sc = doc.scenario
    for key in ("events", "events_in_play"):
        for i, e in enumerate(getattr(sc, key)):
            if not cards.is_event(e):
                bad(
                    f"scenario.{key}[{i}]",
                    f"unknown Event card {e!r}; expected one of {sorted(cards.events)}",
                )
    sides = {side: _lines_side(side, getattr(doc.sides, side), sc.players, bad) for side in SIDES}
    if not problems and not read.problems:  # issue 33 (fuzz): validate what new_game will do
        for side, ss in sides.items():
            if not ss.reserves or sc.players == 4:  # the game deals it a random deck
                _dealable(side, ss, sc.players, bad)
    problems = merge_problems(read.problems, read.semantic(problems))
    if problems:
        raise ValidationError(problems)
    hold = doc.win.hold if doc.win is not None else None
    return LinesScenario(
        id=sc.id,
        name=sc.name,
        sides=sides,
        description=sc.description,
        path=path,
        seed=sc.seed,
        players=sc.players,
        victory_points=sc.victory_points or (51 if sc.players == 2 else 76),
        overrun=sc.overrun,
        turns=sc.turns,
        variants=tuple(v for v in sc.rules if v != "standard"),
        events=tuple(sc.events),
        special_rules=tuple(sc.special_rules),
        events_in_play=tuple(sc.events_in_play),
        hold=(hold.side, hold.turn) if hold is not None else None,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
        reference=path.stem if path is not None else sc.id,
    )


def _lines_side(side: str, t: lines_file.LinesSideFile, players: int, bad: Any) -> LinesSide:
    """One side of a line scenario: budget and minimum, card ids of the side, the fixed deck's
    points and hand (000 setup), the starting units (000 scenario cards)."""
    cards = default_cards()
    w = f"sides.{side}"
    budget = t.budget if t.budget is not None else (100 if players == 2 else 75)
    minimum = t.minimum if t.minimum is not None else min(80 if players == 2 else 60, budget)
    if minimum > budget:
        bad(f"{w}.minimum", f"{minimum} is above the budget {budget}")
    for key in ("pool", "reserves", "hand"):
        for i, c in enumerate(getattr(t, key)):
            u = cards.units.get(c)
            if u is None or u.side != side:
                bad(f"{w}.{key}[{i}]", f"expected a {side} unit card id, got {c!r}")
    reserves, hand = t.reserves, t.hand
    if reserves:
        for e in deck_problems(side, list(reserves), (minimum, budget))[0]:
            bad(f"{w}.reserves", e)
    if hand:
        if not reserves:
            bad(f"{w}.hand", "a fixed hand needs a fixed reserves list")
        elif any(hand.count(c) > reserves.count(c) for c in hand):
            bad(f"{w}.hand", "names cards the reserves list does not hold")
    units = []
    for i, ut in enumerate(t.units):
        su = _starting_unit(side, ut, f"{w}.units[{i}]", players, bad)
        if su is not None:
            units.append(su)
    return LinesSide(
        budget,
        minimum,
        tuple(t.pool),
        tuple(reserves),
        tuple(hand),
        t.initiative,
        t.victory_points,
        t.no_aircraft_before,
        t.max_card_cost,
        tuple(t.exclude_types),
        tuple(units),
    )


_LINE_OF = {
    "frontline": ("front",),
    "rear": ("rear",),
    "aircraft": ("air",),
    "frontline_or_rear": ("front", "rear"),
}


def _starting_unit(
    side: str, ut: lines_file.LinesUnit, uw: str, players: int, bad: Any
) -> StartingUnit | None:
    """A unit in play at the start: a unit card of the side on a line it may take, with its
    crew (R4.1), on a seat of the side."""
    cards = default_cards()
    u = cards.units.get(ut.card)
    if u is None or u.side != side or u.is_crew:
        bad(f"{uw}.card", f"expected a {side} unit card id (not a crew), got {ut.card!r}")
        return None
    allowed = _LINE_OF[u.line]
    line = ut.line or allowed[0]
    if line not in allowed:
        bad(f"{uw}.line", f"{u.name} is committed to {' or '.join(allowed)}, not {line!r}")
        return None
    crew = ut.crew
    if u.needs_crew:
        cu = cards.units.get(crew) if crew is not None else None
        if cu is None or cu.unit_type != u.crew or cu.side != side:
            bad(f"{uw}.crew", f"{u.name} needs a {side} {u.crew.replace('_', ' ')} card id, got {crew!r}")
            return None
    elif crew is not None:
        bad(f"{uw}.crew", f"{u.name} needs no crew")
        return None
    seat = ut.seat
    if seat is not None and (
        seat not in (SEATS_4P if players == 4 else SEATS_2P) or side_of_seat(seat) != side
    ):
        bad(f"{uw}.seat", f"expected a {side} seat of this game, got {seat!r}")
        seat = None
    return StartingUnit(u.id, line, crew, seat)


def _dealable(side: str, ss: LinesSide, players: int, bad: Any) -> None:
    """A random Reserves deck can be dealt from the pool within the points (000 setup)."""
    for role in (None,) if players == 2 else ("front", "support"):
        for trial in range(3):
            try:
                random_deck(side, (ss.minimum, ss.budget), ss.pool, Dice(trial), role, ss)
            except HexwarError as exc:
                bad(f"sides.{side}.budget", f"{exc} (budget {ss.budget}, minimum {ss.minimum})")
                return


def load_lines_scenario(path: str | os.PathLike[str]) -> LinesScenario:
    """Load a line scenario through the common scenario loader (which branches on ``mode``).

    Raises:
        ValidationError: listing every problem; HexwarError: when it is not a line scenario.
    """
    from ..game.scenario import load_scenario

    sc = load_scenario(path)
    if not isinstance(sc, LinesScenario):
        raise HexwarError(f'{path}: not a line scenario (mode = "lines")')
    return sc
