"""Commitment: an SPG ("Frontline or Rear Line") moves between the lines (000; 001 mobile
artillery). Once per unit per Commitment Phase (hexwar's reading: a move, not a shuttle)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import MoveLine
from ..events import LineChanged
from ..rules import card, name
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: MoveLine) -> str | None:
    """The seat's SPG in play, not moved this phase."""
    u = state.units.get(cmd.unit)
    if u is None or u.seat != cmd.seat or u.crewing is not None:
        return f"{cmd.unit} is not a unit of yours in play"
    if not card(cmd.unit).is_spg:
        return f'{card(cmd.unit).name} is not an SPG: only "Frontline or Rear Line" units change lines (000)'
    if cmd.unit in state.moved:
        return f"{name(cmd.unit)} has changed lines this phase already"
    return None


def apply(state: LinesState, cmd: MoveLine, sink: Sink) -> None:
    """Front -> rear or rear -> front."""
    u = state.units[cmd.unit]
    old = u.line or "front"
    new = "rear" if old == "front" else "front"
    state.lines[u.side][old].remove(cmd.unit)
    state.lines[u.side][new].append(cmd.unit)
    u.line = new
    state.moved.add(cmd.unit)
    sink.add(
        LineChanged(
            f"{cmd.seat} moves {name(cmd.unit)} to the {'Frontline' if new == 'front' else 'Rear Line'}",
            cmd.seat,
            cmd.unit,
            new,
        )
    )


def options(state: LinesState, seat: str) -> Iterator[MoveLine]:
    """Each SPG of the seat not moved yet."""
    for uid in sorted(state.units):
        cmd = MoveLine(seat, uid)
        if state.units[uid].seat == seat and card(uid).is_spg and check(state, cmd) is None:
            yield cmd


ACTION = Action(MoveLine, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
