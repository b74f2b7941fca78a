"""``Resolve`` (R6.2): resolve one of your declared attacks (alternating, initiative first)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .. import resolution, victory
from ..commands import Resolve
from ..events import Recorder
from ..state import other_side
from .common import bonus_problem
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options"]


def check(state: GameState, cmd: Resolve) -> str | None:
    """The attack exists, is the side's and unresolved; the bonus card is in hand (R1.3)."""
    a = state.attacks.get(cmd.attack)
    if a is None:
        return f"there is no declared attack number {cmd.attack} this turn"
    if a.side != cmd.side:
        return f"attack {cmd.attack} is the {a.side}'s"
    if a.resolved:
        return f"attack {cmd.attack} is already resolved"
    return bonus_problem(state, cmd.side, cmd.bonus_card)


def apply(state: GameState, cmd: Resolve, rec: Recorder) -> None:
    """Resolve the attack through the combat engine; victory is checked after it (R10)."""
    a = state.attacks[cmd.attack]
    if cmd.bonus_card is not None:
        state.hand_commands[cmd.side].remove(cmd.bonus_card)
        state.command_discard.append(cmd.bonus_card)
    resolution.resolve_attack(state, a, cmd.bonus_card is not None, rec)
    a.resolved = True
    ev = victory.check_points(state)
    if ev is not None:
        rec.add(ev)
        return
    state.resolve_turn = other_side(cmd.side)


def options(state: GameState, side: str) -> Iterator[Resolve]:
    """Every unresolved attack of the side, by number."""
    for n, a in sorted(state.attacks.items()):
        if a.side == side and not a.resolved:
            yield Resolve(side, n)


ACTION = Action(Resolve, check, apply, options)
