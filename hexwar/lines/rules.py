"""Shared rules of the lines game: who may target whom, scoring, leaving play, envelopment,
the Frontline collapse and victory (000 "Commitment and Lines", "Combat", "Win Conditions";
R6, R10, R11.1). The dice-and-damage rules are the combat engine's, never copied here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..game.events import Recorder
from ..game.outcome import GameResult, Kill
from ..rules import combat
from ..rules.cards import CardSet, Deck, EffectKind, UnitCard, card_id_of, default_cards
from ..rules.combat import CombatEngine, DefenseContext, normalize_variant
from .commands import side_of_seat
from .events import (
    CaptureForfeited,
    CombatHappened,
    Enveloped,
    GameOver,
    LinesLogEvent,
    Scored,
    UnitLeft,
)
from .state import SIDES, LineUnit, Phase, other_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import LinesState

__all__ = [
    "Sink",
    "cards",
    "card",
    "role_of",
    "seat_for_card",
    "classic",
    "engine",
    "defense_context",
    "target_lines",
    "legal_targets",
    "attack_orders_ok",
    "apply_combat_events",
    "score",
    "leave_play",
    "envelop",
    "check_points",
    "finish",
    "has_ground_unit",
    "fighting",
    "OVERRUN_TURNS",
    "active_effect_total",
    "name",
]

OVERRUN_TURNS = 3  # R10.1


def cards() -> CardSet:
    """The shipped card set (the hex game's, R4)."""
    return default_cards()


def card(uid: str) -> UnitCard:
    """The unit card of an instance id."""
    return default_cards().unit(uid)


def name(uid: str) -> str:
    """``"Tiger I (de_tiger_i#1)"`` for the log."""
    return f"{card(uid).name} ({uid})"


Sink = Recorder[LinesLogEvent]
"""The recorder of the command being applied (the hex game's :class:`~hexwar.game.events.Recorder`
of the lines mode's events)."""


def classic(state: LinesState) -> bool:
    """``--rules classic`` (001) is in force."""
    return normalize_variant(state.variants) == "classic"


# -- 4-player roles (000 Variants) ----------------------------------------------------------
def role_of(cid: str) -> str:
    """``"front"`` (Frontline Commander: infantry, frontline guns, tanks and vehicles with their
    crews) or ``"support"`` (Support Commander: Rear Line artillery, SPGs, aircraft, pilots).
    Crew cards go with whichever role uses their type (tank crews front, artillery crews for
    both, pilots support): see docs/lines.md."""
    c = card(cid)
    if c.unit_type == "pilot" or c.line in ("rear", "aircraft", "frontline_or_rear"):
        return "support"
    return "front"


def seat_for_card(state: LinesState, side: str, cid: str) -> str:
    """The seat of ``side`` that controls a unit of card ``cid`` (captured units)."""
    if state.two_player:
        return side
    return f"{side}-{role_of(cid)}"


# -- engine ------------------------------------------------------------------------------
class _Damage:
    def __init__(self, state: LinesState):
        self.state = state
        self.deck = Deck("damage", state.damage_deck, state.damage_discard, reshuffle=True)

    def write_back(self) -> None:
        self.state.damage_deck = self.deck.cards
        self.state.damage_discard = self.deck.discard


def engine(state: LinesState) -> tuple[CombatEngine, Any]:
    """The hex game's :class:`~hexwar.rules.combat.CombatEngine` over this game's units, dice and
    Damage deck; call ``write_back()`` on the second value afterwards."""
    dd = _Damage(state)
    eng = CombatEngine(
        cards(),
        state.dice,
        dd.deck,
        state.units,
        variant=normalize_variant(state.variants),
        events_in_play=tuple(state.events_in_play),
    )
    return eng, dd


def has_ground_unit(state: LinesState, side: str) -> bool:
    """``side`` has a ground unit in play (001: needed to capture a crew)."""
    return bool(state.lines[side]["front"] or state.lines[side]["rear"])


def defense_context(state: LinesState, attacking_side: str) -> DefenseContext:
    """No terrain on lines: Defense is the card's plus card effects (R6.7 without the map)."""
    return DefenseContext(0, 0, has_ground_unit(state, attacking_side))


def fighting(u: LineUnit) -> bool:
    """Able to fight: crewed, or needs no crew (N/C); crews themselves are not."""
    c = card(u.uid)
    if c.is_crew:
        return False
    return not c.needs_crew or u.crew is not None


# -- targeting (000 Legal Targets) --------------------------------------------------------
def target_lines(state: LinesState, attacker: LineUnit) -> tuple[str, ...]:
    """Enemy lines the attacker may target: Frontline units and Rear Line SPGs -> the enemy
    Frontline; Rear Line units -> Frontline or Rear Line; aircraft -> any. Any weapon with an
    aircraft value may target aircraft (``"air"``), whatever the line."""
    c = card(attacker.uid)
    if attacker.line == "air":
        return ("front", "rear", "air")
    if attacker.line == "front":
        return ("front", "air")
    if c.is_spg:
        return ("front", "air")
    return ("front", "rear", "air")


def weapon_line_ok(
    state: LinesState, attacker: LineUnit, target_line: str, weapons: tuple[int, ...]
) -> str | None:
    """Line restrictions on the weapons (000): a Rear Line SPG fires only its 1st weapon at the
    Frontline, secondary weapons at aircraft only; ``"air"`` targets need an aircraft value
    (the engine checks the value itself)."""
    c = card(attacker.uid)
    if attacker.line == "rear" and c.is_spg and target_line != "air":
        if any(i != 0 for i in weapons):
            return (
                f"{c.name} is an SPG on the Rear Line: only its 1st weapon ({c.weapons[0].name}) fires at the "
                "Frontline (000); the others at aircraft only"
            )
    return None


def declared_units(state: LinesState) -> set[str]:
    """Units that have declared an attack this turn (one target per unit, R6.1)."""
    return {x for a in state.attacks.values() for x in a.attackers}


def legal_targets(state: LinesState, attacker: LineUnit) -> Iterator[tuple[str, bool, str]]:
    """``(target uid, at_crew, target line)`` for every enemy the attacker's lines reach:
    units on those lines, and the crew of an enemy Frontline gun for infantry (000: not a Rear
    Line gun's crew)."""
    enemy = other_side(attacker.side)
    is_inf = card(attacker.uid).unit_type == "infantry"
    for line in target_lines(state, attacker):
        for uid in state.lines[enemy][line]:
            yield uid, False, line
            t = state.units[uid]
            if is_inf and line == "front" and t.crew is not None and card(uid).unit_type == "gun":
                yield uid, True, line


def declaration_problem(
    state: LinesState,
    seat: str,
    uid: str,
    target: str,
    weapons: tuple[int, ...],
    at_crew: bool,
    command_cards: tuple[str, ...] = (),
) -> str | None:
    """Why ``uid`` may not declare this attack (lines, then the engine's :func:`attack_problems`)."""
    u = state.units.get(uid)
    if u is None or u.crewing is not None or u.seat != seat:
        return f"{uid} is not a unit of {seat} in play"
    if uid in declared_units(state):
        return f"{name(uid)} has declared its attack this turn (one target per unit, R6.1)"
    t = state.units.get(target)
    if t is None or t.crewing is not None or t.side == u.side:
        return f"{target} is not an enemy unit in play"
    tline = t.line or ""
    if tline not in target_lines(state, u):
        return (
            f"{name(uid)} on the {u.line} line may not target the enemy {tline} line "
            f"(000 Legal Targets: it may target {', '.join(target_lines(state, u))})"
        )
    if at_crew:
        if card(uid).unit_type != "infantry":
            return "only infantry may target a gun's crew (000)"
        if card(target).unit_type != "gun" or t.crew is None:
            return f"{name(target)} is not a crewed gun"
        if tline != "front":
            return f"{name(target)} is a Rear Line gun: its crew may not be targeted (000)"
    p = weapon_line_ok(state, u, tline, weapons)
    if p:
        return p
    victim = state.units[t.crew] if at_crew and t.crew else t
    probs = combat.attack_problems(
        cards(),
        u,
        victim,
        combat.AttackOrders(tuple(weapons), False, command_cards),
        state.units,
        state.events_in_play,
    )
    return probs[0] if probs else None


def attack_orders_ok(
    state: LinesState, seat: str, uid: str, target: str, weapons: tuple[int, ...], at_crew: bool
) -> bool:
    """True when the declaration is legal."""
    return declaration_problem(state, seat, uid, target, weapons, at_crew) is None


def close_assault_problem(state: LinesState, seat: str, uids: tuple[str, ...], target: str) -> str | None:
    """000 Close Assault: 3+ Frontline infantry of the seat that may affect vehicles, not yet
    declared, against an enemy Frontline vehicle (the engine checks the rest)."""
    if len(set(uids)) != len(uids):
        return "a unit is named twice"
    declared = declared_units(state)
    us = []
    for x in uids:
        u = state.units.get(x)
        if u is None or u.seat != seat or u.crewing is not None:
            return f"{x} is not a unit of {seat} in play"
        if u.line != "front":
            return f"{name(x)} is not on the Frontline (Close Assault is a Frontline action)"
        if x in declared:
            return f"{name(x)} has declared its attack this turn"
        us.append(u)
    t = state.units.get(target)
    if t is None or t.side == side_of_seat(seat) or t.crewing is not None:
        return f"{target} is not an enemy unit in play"
    if t.line != "front" or card(target).unit_type != "vehicle":
        return f"{name(target)} is not a vehicle on the enemy Frontline (000 Close Assault)"
    ready, probs = combat.close_assault_problems(cards(), us, t, state.units, state.events_in_play)
    if probs:
        return probs[0]
    if len(ready) != len(us):
        return "every unit of a Close Assault group must be infantry able to affect vehicles"
    return None


# -- scoring and leaving play -----------------------------------------------------------
def score(state: LinesState, sink: Sink, scorer: str, uid: str, how: str) -> None:
    """A kill (R10): cost for ``"destroyed"``, twice for ``"captured"``."""
    c = card(uid).cost
    pts = c * (cards().rules.capture_multiplier if how == "captured" else 1)
    state.kills.append(Kill(scorer, uid, how, pts, state.turn))
    state.vp[scorer] += pts
    sink.add(
        Scored(
            f"{scorer} scores {pts} VP for {how} {name(uid)}: {state.vp[scorer]} VP",
            scorer,
            uid,
            how,
            pts,
            state.vp[scorer],
        )
    )


def _clear(state: LinesState, u: LineUnit) -> tuple[str, ...]:
    """000: a unit leaving play clears its Command and Damage cards (discarded)."""
    moved: list[str] = []
    if u.damage_card is not None:
        state.damage_discard.append(u.damage_card)
        moved.append(u.damage_card)
        u.damage_card = None
        u.damage_turns = None
    for c in u.command_cards:
        state.command_discard.append(c)
        moved.append(c)
    u.command_cards = []
    return tuple(moved)


def leave_play(state: LinesState, sink: Sink, uid: str, where: str, why: str) -> None:
    """Take ``uid`` out of play: ``"removed"`` (out of the game) or ``"reserves"`` (under its
    owner's Reserves deck); its line entry and cards are cleared (000)."""
    u = state.units.pop(uid)
    if u.line is not None and uid in state.lines[u.side][u.line]:
        state.lines[u.side][u.line].remove(uid)
    if u.crewing is not None and u.crewing in state.units:
        state.units[u.crewing].crew = None
    cleared = _clear(state, u)
    if where == "reserves":
        state.reserves[u.owner].append(uid)
    else:
        state.removed.append(uid)
    text = "goes under its Reserves deck" if where == "reserves" else "leaves the game"
    sink.add(UnitLeft(f"{name(uid)} {text}: {why}", uid, where, cleared))


def apply_combat_events(state: LinesState, evs: list[combat.CombatEvent], sink: Sink) -> None:
    """Log the engine's events and carry out what the game must: destroyed units leave play and
    score (R6.6), crews meet their fate (survive: under the Reserves; captured / destroyed: out,
    scored), aircraft return (R5.6)."""
    for ev in evs:
        sink.add(CombatHappened(ev))
        if isinstance(ev, combat.UnitDestroyed) and ev.unit in state.units:
            # a gun's crew shot away (000): leave_play leaves the gun standing crewless
            leave_play(state, sink, ev.unit, "removed", "destroyed")
            if ev.scorer is not None:
                score(state, sink, ev.scorer, ev.unit, "destroyed")
        elif isinstance(ev, combat.CrewFate) and ev.crew in state.units:
            if ev.fate == "survives":
                leave_play(
                    state, sink, ev.crew, "reserves", "its unit was destroyed; the crew survives (R6.6)"
                )
            else:
                leave_play(state, sink, ev.crew, "removed", f"crew {ev.fate} (R6.6)")
                if ev.scorer is not None:
                    score(
                        state, sink, ev.scorer, ev.crew, "captured" if ev.fate == "captured" else "destroyed"
                    )
        elif isinstance(ev, combat.AircraftReturns) and ev.unit in state.units:
            u = state.units[ev.unit]
            crew = u.crew
            leave_play(state, sink, ev.unit, "reserves", "its Turns of Flight are spent (000 End Turn)")
            if crew is not None and crew in state.units:
                leave_play(state, sink, crew, "reserves", "the pilot returns with its aircraft")
        elif isinstance(ev, combat.CommandCardExpired):
            state.command_discard.append(ev.card)


def forfeit(state: LinesState, sink: Sink, uid: str) -> None:
    """000: crewing a captured unit instead of scoring it gives the capture points back."""
    for k in list(state.kills):
        if k.uid == uid and k.kind == "captured":
            state.kills.remove(k)
            state.vp[k.scorer] -= k.points
            sink.add(
                CaptureForfeited(
                    f"{k.scorer} crews captured {name(uid)} and gives up its {k.points} VP",
                    k.scorer,
                    uid,
                    k.points,
                )
            )


def envelop(state: LinesState, sink: Sink) -> None:
    """000: a crewless unit left on a Frontline whose other units are all gone is enveloped and
    captured by the opponent (twice its cost). It joins the captor's line of the same name,
    crewless, until the captor crews it (then the points go back, :func:`forfeit`). 001
    (classic): a capture needs an enemy ground unit in play."""
    for side in SIDES:
        front = state.on_line(side, "front")
        crewless = [u for u in front if card(u.uid).needs_crew and u.crew is None]
        if not crewless or len(crewless) != len(front):
            continue
        enemy = other_side(side)
        if classic(state) and not has_ground_unit(state, enemy):
            continue
        for u in crewless:
            state.lines[side]["front"].remove(u.uid)
            _clear(state, u)
            u.side = enemy
            u.seat = seat_for_card(state, enemy, u.uid)
            u.captured = side_of_seat(u.owner) != enemy
            state.lines[enemy]["front"].append(u.uid)
            sink.add(
                Enveloped(
                    f"crewless {name(u.uid)} is enveloped on the {side} Frontline and captured by {enemy} "
                    "(000)",
                    u.uid,
                    enemy,
                )
            )
            if side_of_seat(u.owner) != enemy:
                score(state, sink, enemy, u.uid, "captured")
            else:
                forfeit(state, sink, u.uid)
        if not state.lines[side]["front"]:
            state.collapse.add(side)


def finish(state: LinesState, sink: Sink, winner: str | None, reason: str) -> None:
    """End the game (R10)."""
    state.result = GameResult(winner, reason, state.turn, dict(state.vp))
    state.phase = Phase.OVER
    state.to_act = None
    sink.add(
        GameOver(f"Game over: {state.result}", winner, reason, state.turn, tuple(sorted(state.vp.items())))
    )


def check_points(state: LinesState, sink: Sink) -> bool:
    """R10.1: 51 points (76 in the 4-player game, or the scenario's) win at once, checked after
    every resolution. Returns True when the game ended."""
    if state.result is not None:
        return True
    target = state.scenario.victory_points_for(state)
    reached = [s for s in SIDES if state.vp[s] >= target[s]]
    if not reached:
        return False
    if len(reached) == 2:
        g, s_ = state.vp["german"], state.vp["soviet"]
        finish(state, sink, "german" if g > s_ else "soviet" if s_ > g else None, "points")
    else:
        finish(state, sink, reached[0], "points")
    return True


def active_effect_total(state: LinesState, side: str, kind: EffectKind) -> int:
    """Sum of Event effects of ``kind`` in play for ``side`` (initiative, draw, ...)."""
    total = 0
    for inst in state.events_in_play:
        ev = cards().command_or_event(inst)
        for e in ev.effects:
            if e.kind == kind and (e.side is None or e.side == side):
                total += e.value
    return total


def event_has(state: LinesState, side: str, kind: EffectKind) -> bool:
    """An Event in play has an effect of ``kind`` for ``side`` (e.g. ``no_aircraft``)."""
    for inst in state.events_in_play:
        for e in cards().command_or_event(inst).effects:
            if e.kind == kind and (e.side is None or e.side == side):
                return True
    return False


def card_id(uid: str) -> str:
    """The card id of an instance."""
    return card_id_of(uid)
