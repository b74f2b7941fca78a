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

__all__ = ["ACTION", "check", "apply", "options", "bonus_rolls", "rolls_problem"]


def check(state: GameState, cmd: Resolve) -> str | None:
    """The attack exists, is the side's and unresolved; the bonus card is in hand (R1.3)."""
    a = state.attacks.get(cmd.attack)
    if a is None:
        return f"there is no declared attack number {cmd.attack} this turn"
    if a.side != cmd.side:
        return f"attack {cmd.attack} is the {a.side}'s"
    if a.resolved:
        return f"attack {cmd.attack} is already resolved"
    bad = bonus_problem(state, cmd.side, cmd.bonus_card)
    if bad is not None or not (cmd.bonus_rolls or cmd.bonus_cards):
        return bad
    return rolls_problem(state, cmd)


def bonus_rolls(state: GameState, number: int) -> list[str]:
    """The roll names of declared attack ``number`` a Command card may add 1 to (R1.3;
    :func:`hexwar.game.resolution.attack_rolls`), ``[]`` for an unknown attack."""
    a = state.attacks.get(number)
    return [] if a is None else resolution.attack_rolls(state, a)


def rolls_problem(state: GameState, cmd: Resolve) -> str | None:
    """Why ``cmd``'s ``bonus_rolls`` / ``bonus_cards`` are not allowed (R1.3), or ``None``."""
    a = state.attacks[cmd.attack]
    if len(cmd.bonus_rolls) != len(cmd.bonus_cards):
        return "give one Command card for each roll you add 1 to (R1.3)"
    if a.building is not None:
        return "a close-combat attack on a building takes no dice modifiers (R8.2)"
    if len(set(cmd.bonus_rolls)) != len(cmd.bonus_rolls) or (
        cmd.bonus_card is not None and "to_hit:0" in cmd.bonus_rolls
    ):
        return "at most one Command card per roll (R1.3)"
    cards = list(cmd.bonus_cards) + ([cmd.bonus_card] if cmd.bonus_card is not None else [])
    if len(set(cards)) != len(cards):
        return "each Command card buys one bonus (R1.3)"
    for c in cmd.bonus_cards:
        if c not in state.hand_commands[cmd.side]:
            return f"Command card {c} is not in your hand (R1.3 bonus)"
    rolls = resolution.attack_rolls(state, a)
    for r in cmd.bonus_rolls:
        if r not in rolls:
            return f"attack {cmd.attack} makes no roll {r!r}; its rolls are {', '.join(rolls)} (R1.3)"
    return None


def apply(state: GameState, cmd: Resolve, rec: Recorder) -> None:
    """Resolve the attack through the combat engine; victory is checked after it (R10)."""
    a = state.attacks[cmd.attack]
    if cmd.bonus_card is not None:
        state.hand_commands[cmd.side].remove(cmd.bonus_card)
        state.command_discard.append(cmd.bonus_card)
    plan = dict(zip(cmd.bonus_rolls, cmd.bonus_cards, strict=True))
    resolution.resolve_attack(state, a, cmd.bonus_card is not None, rec, plan)
    a.resolved = True
    ev = victory.check_points(state)
    if ev is not None:
        rec.add(ev)
        return
    state.resolve_turn = other_side(cmd.side)


def options(state: GameState, side: str) -> Iterator[Resolve]:
    """Every unresolved attack of the side, by number; after each, with a Command card in hand,
    the same attack with the first card in hand on each one of its rolls (R1.3; more than
    one bonus per attack is legal too, just not listed)."""
    hand = state.hand_commands[side]
    for n, a in sorted(state.attacks.items()):
        if a.side == side and not a.resolved:
            yield Resolve(side, n)
            if hand:
                for r in resolution.attack_rolls(state, a):
                    yield Resolve(side, n, bonus_rolls=(r,), bonus_cards=(hand[0],))


ACTION = Action(Resolve, check, apply, options)
