"""``UseCommandCard`` (R4.3): play a Command card for its effect, in any phase it names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import resolution
from ..commands import UseCommandCard
from ..events import Recorder
from ..state import Phase
from .common import artillery_room, card_phase, observers
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: UseCommandCard) -> str | None:
    """Why the card may not be played now (R4.3), or ``None``."""
    return resolution.command_card_problem(state, cmd, card_phase(state))


def apply(state: GameState, cmd: UseCommandCard, rec: Recorder) -> None:
    """Play the card: on a declared attack, under a unit, or at once (instant)."""
    resolution.play_command_card(state, cmd, rec)


def options(state: GameState, side: str) -> Iterator[UseCommandCard]:
    """Every playable card now. In the artillery step they are offered only while the side can
    still call a mission and has an observer; in the Draw phase only before drawing (the order
    of the round-1 listing, which computer players' choices depend on)."""
    if state.phase == Phase.ARTILLERY and not (artillery_room(state, side) and observers(state, side)):
        return
    if state.phase == Phase.DRAW and side in state.drawn:
        return
    yield from resolution.command_card_options(state, side, card_phase(state))


ACTION = Action(UseCommandCard, check, apply, options)
