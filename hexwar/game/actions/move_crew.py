"""``MoveCrew`` (R5.2, 001): move a crew from one ground unit to another in Commitment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import resolution, ruleset
from ..commands import MoveCrew
from ..events import Recorder
from ..state import card_of
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState, UnitState

__all__ = ["ACTION", "check", "apply", "options", "FIRST_REVISION"]

#: The rules revision that added the crew move (games saved before it never offered it, so
#: their sides still pass the Commitment phase where they passed it then).
FIRST_REVISION = 2


def _crew_problem(state: GameState, side: str, cid: str) -> str | None:
    c = state.units.get(cid)
    if c is None or c.side != side or not ruleset.is_crew(c.card):
        return f"{cid} is not a crew of yours in play"
    if c.hex is None or c.aloft:
        return f"{cid} is not on the map (only crews of ground units move, 001)"
    if c.crewing is not None:
        u = state.units.get(c.crewing)
        if u is None or not ruleset.is_ground(u.card):
            return f"{cid} crews no ground unit (001)"
    return None


def _fits(state: GameState, c: UnitState, u: UnitState) -> bool:
    return (
        u.uid != c.crewing
        and u.crew is None
        and u.hex is not None
        and not u.aloft
        and ruleset.is_ground(u.card)
        and ruleset.needs_crew(u.card)
        and ruleset.crew_fits(u.card, card_of(c.uid))
        and c.hex is not None
        and u.hex.distance(c.hex) <= 1
    )


def check(state: GameState, cmd: MoveCrew) -> str | None:
    """Rules revision 2; the crew is the side's, on the map (riding a ground unit or on its own
    under ``crews-fight``); the unit is the side's crewless ground unit the crew fits, in its
    hex or next to it (map reading of 001)."""
    if state.rules_revision < FIRST_REVISION:
        return "moving crews came with rules revision 2; this game was saved before it"
    bad = _crew_problem(state, cmd.side, cmd.crew)
    if bad is not None:
        return bad
    c = state.units[cmd.crew]
    u = state.units.get(cmd.unit)
    if u is None or u.side != cmd.side:
        return f"{cmd.unit} is not a unit of yours in play"
    if u.crew is not None:
        return f"{cmd.unit} already has a crew"
    if u.uid == c.crewing:
        return f"{cmd.crew} already crews {cmd.unit}"
    if not ruleset.crew_fits(u.card, card_of(cmd.crew)):
        return f"{ruleset.card_name(card_of(cmd.crew))} cannot crew {ruleset.card_name(u.card)}"
    if not _fits(state, c, u):
        return f"{cmd.unit} is not a crewless ground unit in or next to {cmd.crew}'s hex"
    return None


def apply(state: GameState, cmd: MoveCrew, rec: Recorder) -> None:
    """The crew leaves its unit (which stands crewless) and crews the other one; crewing a
    captured unit gives its capture points back (000, as ``recrew``)."""
    c = state.units[cmd.crew]
    u = state.units[cmd.unit]
    old = c.crewing
    if old is not None and old in state.units:
        state.units[old].crew = None
    c.crewing = u.uid
    c.hex = u.hex
    u.crew = c.uid
    state.cache.clear()
    src = f"from {ruleset.card_name(old)} ({old})" if old else "on foot"
    rec.emit(
        "move_crew",
        f"{cmd.side} moves {ruleset.card_name(c.uid)} ({c.uid}) {src} to {ruleset.card_name(u.card)} "
        f"({u.uid}) (001)",
        crew=c.uid,
        unit=u.uid,
        **{"from": old},
    )
    if u.owner != cmd.side:
        resolution.forfeit_capture(state, u.uid, rec)


def options(state: GameState, side: str) -> Iterator[MoveCrew]:
    """Every crew of the side on the map onto every crewless ground unit it may move to."""
    if state.rules_revision < FIRST_REVISION:
        return
    crews = [c for _, c in sorted(state.units.items()) if _crew_problem(state, side, c.uid) is None]
    if not crews:
        return
    empty = [u for _, u in sorted(state.units.items()) if u.side == side and u.crew is None]
    for c in crews:
        for u in empty:
            if _fits(state, c, u):
                yield MoveCrew(side, c.uid, u.uid)


ACTION = Action(MoveCrew, check, apply, options)
