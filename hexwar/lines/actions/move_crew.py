"""Classic (001) Commitment: "Players may move Crews of ground Units from one Unit to another".
The crew leaves its unit (which stands crewless) for a crewless unit of the type it crews; once
per crew per phase."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import MoveCrew
from ..events import CrewMoved
from ..rules import card, classic, name
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: MoveCrew) -> str | None:
    """Classic only; the crew rides a ground unit of the seat; the new unit is the seat's,
    crewless, on a line, and needs that crew type."""
    if not classic(state):
        return "crews move between units only under --rules classic (001)"
    c = state.units.get(cmd.crew)
    if c is None or c.crewing is None or c.seat != cmd.seat:
        return f"{cmd.crew} is not a crew of yours in play"
    if state.units[c.crewing].line == "air":
        return "a pilot stays with its aircraft (001: crews of ground units)"
    if cmd.crew in state.moved:
        return f"{name(cmd.crew)} has moved this phase already"
    u = state.units.get(cmd.unit)
    if u is None or u.seat != cmd.seat or u.crewing is not None or u.line not in ("front", "rear"):
        return f"{cmd.unit} is not a ground unit of yours in play"
    if u.crew is not None:
        return f"{name(cmd.unit)} has a crew"
    if card(cmd.unit).crew != card(cmd.crew).unit_type:
        return f"{card(cmd.crew).name} cannot crew {card(cmd.unit).name}"
    return None


def apply(state: LinesState, cmd: MoveCrew, sink: Sink) -> None:
    """Swap the crew over."""
    c = state.units[cmd.crew]
    old = c.crewing
    assert old is not None
    state.units[old].crew = None
    state.units[cmd.unit].crew = cmd.crew
    c.crewing = cmd.unit
    state.moved.add(cmd.crew)
    sink.add(
        CrewMoved(
            f"{cmd.seat} moves {name(cmd.crew)} from {name(old)} to {name(cmd.unit)} (001)",
            cmd.seat,
            cmd.crew,
            old,
            cmd.unit,
        )
    )


def options(state: LinesState, seat: str) -> Iterator[MoveCrew]:
    """Every legal crew move."""
    if not classic(state):
        return
    crews = [uid for uid, u in sorted(state.units.items()) if u.seat == seat and u.crewing is not None]
    targets = [
        uid
        for uid, u in sorted(state.units.items())
        if u.seat == seat and u.crewing is None and u.crew is None and card(uid).needs_crew
    ]
    for c in crews:
        for t in targets:
            cmd = MoveCrew(seat, c, t)
            if check(state, cmd) is None:
                yield cmd


ACTION = Action(MoveCrew, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
