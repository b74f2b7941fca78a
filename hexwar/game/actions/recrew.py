"""``Recrew`` (R5.2): a crew card from hand onto a crewless unit on the map."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import resolution, ruleset
from ..commands import Recrew
from ..events import Recorder
from ..state import card_of
from .commit import hand_crews, new_unit
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: Recrew) -> str | None:
    """The crew card is in hand and fits the unit, which is the side's, crewless and not aloft."""
    if cmd.crew not in state.hand_units[cmd.side]:
        return f"{cmd.crew} is not in your hand"
    u = state.units.get(cmd.unit)
    if u is None or u.side != cmd.side:
        return f"{cmd.unit} is not a unit of yours in play"
    if u.crew is not None:
        return f"{cmd.unit} already has a crew"
    if not ruleset.crew_fits(u.card, card_of(cmd.crew)):
        return f"{ruleset.card_name(card_of(cmd.crew))} cannot crew {ruleset.card_name(u.card)}"
    if u.aloft:
        return f"{cmd.unit} is aloft"
    return None


def apply(state: GameState, cmd: Recrew, rec: Recorder) -> None:
    """The crew joins the unit; crewing a captured unit forfeits its capture points (000)."""
    u = state.units[cmd.unit]
    c = new_unit(state, cmd.crew, cmd.side, u.hex, False)
    c.crewing = u.uid
    u.crew = c.uid
    rec.emit(
        "recrew",
        f"{cmd.side} puts {ruleset.card_name(c.uid)} ({c.uid}) on {ruleset.card_name(u.card)} ({u.uid})",
        unit=u.uid,
        crew=c.uid,
    )
    if u.owner != cmd.side:
        resolution.forfeit_capture(state, u.uid, rec)


def options(state: GameState, side: str) -> Iterator[Recrew]:
    """Every fitting crew card (one per card id) on every crewless unit of the side on the map."""
    _, crews, _ = hand_crews(state, side)
    for uid, u in sorted(state.units.items()):
        if u.side != side or u.crew is not None or not ruleset.needs_crew(u.card) or u.aloft:
            continue
        for c in crews.get(ruleset.crew_required(u.card) or "", []):
            yield Recrew(side, c, uid)


ACTION = Action(Recrew, check, apply, options)
