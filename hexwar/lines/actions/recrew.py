"""Commitment: a crew card from hand onto a crewless unit in play (000: to replace a
destroyed or captured crew; or to take over a captured crewless unit, giving up its capture
points)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import Recrew
from ..events import Recrewed
from ..rules import card, forfeit, name
from ..state import LineUnit
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: Recrew) -> str | None:
    """Crew in hand, of the type the unit needs; the unit the seat's, in play, crewless."""
    if cmd.crew not in state.hand_units[cmd.seat]:
        return f"{cmd.crew} is not in your hand"
    u = state.units.get(cmd.unit)
    if u is None or u.seat != cmd.seat or u.crewing is not None:
        return f"{cmd.unit} is not a unit of yours in play"
    c = card(cmd.unit)
    if not c.needs_crew:
        return f"{c.name} needs no crew"
    if u.crew is not None:
        return f"{c.name} has a crew"
    if card(cmd.crew).unit_type != c.crew:
        return f"{card(cmd.crew).name} is not a {c.crew.replace('_', ' ')}"
    return None


def apply(state: LinesState, cmd: Recrew, sink: Sink) -> None:
    """The crew rides the unit; a captured unit's capture points go back (000)."""
    state.hand_units[cmd.seat].remove(cmd.crew)
    u = state.units[cmd.unit]
    state.units[cmd.crew] = LineUnit(
        cmd.crew,
        cmd.seat,
        u.side,
        cmd.seat,
        None,
        card(cmd.crew).endurance_full,
        crewing=cmd.unit,
        entered=state.turn,
    )
    u.crew = cmd.crew
    sink.add(Recrewed(f"{cmd.seat} puts {name(cmd.crew)} on {name(cmd.unit)}", cmd.seat, cmd.unit, cmd.crew))
    if u.captured:
        forfeit(state, sink, cmd.unit)
        u.captured = False


def options(state: LinesState, seat: str) -> Iterator[Recrew]:
    """Each crewless unit with each fitting crew kind in hand."""
    hand = sorted(state.hand_units[seat])
    for uid, u in sorted(state.units.items()):
        if u.seat != seat or u.crew is not None or u.crewing is not None or not card(uid).needs_crew:
            continue
        kinds: set[str] = set()
        for x in hand:
            k = x.rsplit("#", 1)[0]
            if k not in kinds and card(x).unit_type == card(uid).crew:
                kinds.add(k)
                yield Recrew(seat, uid, x)


ACTION = Action(Recrew, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
