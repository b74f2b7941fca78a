"""Commitment (000 "Commitment and Lines"): a unit card from hand onto its line, with its crew,
and for a halftrack with the infantry icon together with an infantry unit; aircraft go aloft on
no line with their Turns of Flight. No limit per turn. Committing a new ground unit resets the
enemy's Overrun count (R10.1). ``classic`` (001): commitment is hidden until every seat is done.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...rules.cards import EffectKind
from ..commands import Commit, side_of_seat
from ..events import Committed, OverrunCount
from ..rules import card, cards, classic, event_has, name
from ..state import LineUnit, other_side
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def lines_for(cid: str) -> tuple[str | None, ...]:
    """Where a card commits: ``("front",)``, ``("rear",)``, ``("front", "rear")`` for SPGs, or
    ``(None,)`` for aircraft (no line)."""
    c = card(cid)
    return {
        "frontline": ("front",),
        "rear": ("rear",),
        "frontline_or_rear": ("front", "rear"),
        "aircraft": (None,),
    }[c.line]


def _in_hand(state: LinesState, seat: str) -> list[str]:
    return state.hand_units[seat]


def check(state: LinesState, cmd: Commit) -> str | None:
    """The unit and its crew / infantry in hand, the right line, crews only with a unit they crew."""
    hand = _in_hand(state, cmd.seat)
    if cmd.unit not in hand:
        return f"{cmd.unit} is not in your hand"
    c = card(cmd.unit)
    if c.is_crew:
        return (
            f"{c.name} is a crew: commit it with a unit it can crew, or onto a crewless unit (recrew) (000)"
        )
    if cmd.line not in lines_for(cmd.unit):
        want = " or ".join("no line (aircraft)" if x is None else x for x in lines_for(cmd.unit))
        return f"{c.name} is committed to {want}, not {cmd.line}"
    if c.unit_type == "aircraft":
        if event_has(state, side_of_seat(cmd.seat), EffectKind.NO_AIRCRAFT):
            return "an Event keeps aircraft on the ground: aircraft may not be committed"
    extra = state.scenario.commit_problem(state, cmd)
    if extra:
        return extra
    if c.needs_crew:
        if cmd.crew is None:
            return (
                f"{c.name} needs {c.crew.replace('_', ' ')}: commit it with a crew card from your hand (000)"
            )
        if cmd.crew not in hand:
            return f"{cmd.crew} is not in your hand"
        if card(cmd.crew).unit_type != c.crew:
            return f"{card(cmd.crew).name} is not a {c.crew.replace('_', ' ')}"
    elif cmd.crew is not None:
        return f"{c.name} needs no crew"
    if c.crew == "infantry":
        if cmd.infantry is None:
            return f"{c.name} is a halftrack with the infantry icon: commit it with an infantry unit (000)"
        if cmd.infantry not in hand or cmd.infantry in (cmd.unit, cmd.crew):
            return f"{cmd.infantry} is not in your hand"
        if card(cmd.infantry).unit_type != "infantry":
            return f"{card(cmd.infantry).name} is not infantry"
    elif cmd.infantry is not None:
        return f"{c.name} carries no infantry"
    return None


def place(
    state: LinesState,
    seat: str,
    uid: str,
    line: str | None,
    crew: str | None,
    sink: Sink | None,
    owner: str | None = None,
) -> LineUnit:
    """Put ``uid`` (and its crew) into play on ``line`` (``None``: aloft) for ``seat``."""
    side = side_of_seat(seat)
    c = card(uid)
    where = "air" if line is None else line
    tof = c.turns_of_flight or 0
    if where == "air":  # Events such as Luftwaffe Air Superiority (+1 Turns of Flight)
        for inst in state.events_in_play:
            for e in cards().command_or_event(inst).effects:
                if e.kind == EffectKind.TURNS_OF_FLIGHT and e.applies_to(side, "aircraft"):
                    tof = max(1, tof + e.value)
    u = LineUnit(
        uid, owner or seat, side, seat, where, c.endurance_full, entered=state.turn, flight_turns=tof
    )
    state.units[uid] = u
    state.lines[side][where].append(uid)
    if crew is not None:
        state.units[crew] = LineUnit(
            crew, owner or seat, side, seat, None, card(crew).endurance_full, crewing=uid, entered=state.turn
        )
        u.crew = crew
    if where != "air":
        enemy = other_side(side)
        if state.overrun[enemy] and sink is not None:
            state.overrun[enemy] = 0
            sink.add(
                OverrunCount(
                    f"{side} commits a new ground unit: the {enemy} Overrun count resets (000)", enemy, 0
                )
            )
        state.overrun[enemy] = 0
    return u


def carry_out(state: LinesState, cmd: Commit, sink: Sink) -> None:
    """Move the cards from hand into play (used at once, or at the classic reveal)."""
    hand = state.hand_units[cmd.seat]
    for x in (cmd.unit, cmd.crew, cmd.infantry):
        if x is not None and x in hand:
            hand.remove(x)
    place(state, cmd.seat, cmd.unit, cmd.line, cmd.crew, sink)
    if cmd.infantry is not None:
        place(state, cmd.seat, cmd.infantry, "front", None, sink)
    where = "aloft" if cmd.line is None else f"to the {'Frontline' if cmd.line == 'front' else 'Rear Line'}"
    with_ = (f" with {name(cmd.crew)}" if cmd.crew else "") + (
        f" and {name(cmd.infantry)}" if cmd.infantry else ""
    )
    sink.add(
        Committed(
            f"{cmd.seat} commits {name(cmd.unit)}{with_} {where}",
            cmd.seat,
            cmd.unit,
            "air" if cmd.line is None else cmd.line,
            cmd.crew,
            cmd.infantry,
        )
    )


def apply(state: LinesState, cmd: Commit, sink: Sink) -> None:
    """000: into play at once; classic (001): set aside face down until the reveal."""
    if classic(state):
        hand = state.hand_units[cmd.seat]
        for x in (cmd.unit, cmd.crew, cmd.infantry):
            if x is not None:
                hand.remove(x)
        state.hidden.append(cmd)
        sink.add(
            Committed(
                f"{cmd.seat} sets a unit aside to commit (hidden until the reveal, 001)",
                cmd.seat,
                "",
                "hidden",
                None,
            )
        )
        return
    carry_out(state, cmd, sink)


def options(state: LinesState, seat: str) -> Iterator[Commit]:
    """Every unit in hand on each of its lines, with each fitting crew kind (one instance of each
    crew card kind) and, for halftracks, each infantry kind."""
    hand = sorted(state.hand_units[seat])
    seen: set[tuple[str, ...]] = set()
    for uid in hand:
        c = card(uid)
        if c.is_crew:
            continue
        crews: list[str | None] = [None]
        if c.needs_crew:
            crews = []
            kinds: set[str] = set()
            for x in hand:
                if card(x).unit_type == c.crew and x.rsplit("#", 1)[0] not in kinds:
                    kinds.add(x.rsplit("#", 1)[0])
                    crews.append(x)
        infs: list[str | None] = [None]
        if c.crew == "infantry":
            infs = []
            kinds = set()
            for x in hand:
                if x != uid and card(x).unit_type == "infantry" and x.rsplit("#", 1)[0] not in kinds:
                    kinds.add(x.rsplit("#", 1)[0])
                    infs.append(x)
        for line in lines_for(uid):
            for crew in crews:
                for inf in infs:
                    key = (
                        uid.rsplit("#", 1)[0],
                        str(line),
                        str(crew and crew.rsplit("#", 1)[0]),
                        str(inf and inf.rsplit("#", 1)[0]),
                    )
                    if key in seen:
                        continue
                    cmd = Commit(seat, uid, line, crew, inf)
                    if check(state, cmd) is None:
                        seen.add(key)
                        yield cmd


ACTION = Action(Commit, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
