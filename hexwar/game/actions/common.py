"""Helpers shared by several actions: observers, stacking, hand limits, bonus cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.hexgrid import Hex
from ...rules.cards import EffectKind
from .. import movement as mv
from .. import ruleset
from ..state import HAND_LIMIT_COMMAND, HAND_LIMIT_UNITS, Phase, other_side

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = [
    "observers",
    "artillery_room",
    "bonus_problem",
    "ground_count",
    "enemy_in",
    "within_limits",
    "draw_possible",
    "extra_draws",
    "card_phase",
]


def observers(state: GameState, side: str) -> list[Hex]:
    """Hexes of ``side``'s ground units on the map that can spot for artillery (R9.2), by offset."""
    return sorted(
        {
            u.hex
            for u in state.units.values()
            if u.side == side
            and u.hex is not None
            and not u.aloft
            and u.crewing is None
            and ruleset.is_ground(u.card)
        },
        key=lambda h: h.offset,
    )


def artillery_room(state: GameState, side: str) -> bool:
    """``side`` may still call an off-board mission this turn (R9.1: missions left, per turn)."""
    art = state.scenario.sides[side].artillery
    if art is None or state.artillery_left[side] <= 0:
        return False
    called = sum(1 for c in state.artillery_calls if c[0] == side)
    return called < art.per_turn


def bonus_problem(state: GameState, side: str, card: str | None) -> str | None:
    """Why Command card ``card`` cannot be spent as a roll bonus now (R1.3), or ``None``."""
    if card is None:
        return None
    if card not in state.hand_commands[side]:
        return f"Command card {card} is not in your hand (R1.3 bonus)"
    return None


def ground_count(state: GameState, side: str, h: Hex) -> int:
    """How many ground units of ``side`` stand in hex ``h`` (R5.2 stacking)."""
    _, cnt = mv.occupancy(state)
    col, row = h.offset
    return int(cnt[side][row, col])


def enemy_in(state: GameState, side: str, h: Hex) -> bool:
    """Hex ``h`` holds a unit of ``side``'s enemy."""
    occ, _ = mv.occupancy(state)
    col, row = h.offset
    return bool(occ[other_side(side)][row, col])


def within_limits(state: GameState, side: str) -> bool:
    """``side``'s hand is within the hand limits (R5.5)."""
    return (
        len(state.hand_commands[side]) <= HAND_LIMIT_COMMAND
        and len(state.hand_units[side]) <= HAND_LIMIT_UNITS
    )


def draw_possible(state: GameState, side: str) -> bool:
    """There is a card left for ``side`` to draw (R5.5)."""
    return bool(state.command_deck or state.reserves[side])


def extra_draws(state: GameState, side: str) -> int:
    """R5.5: two extra cards, plus Draw effects of Events and Command cards played (min 0)."""
    return max(0, 2 + ruleset.side_effects(state, side, EffectKind.DRAW) + state.pending[side].get("draw", 0))


_PHASE_OF = {
    Phase.COMMITMENT: "commitment",
    Phase.MOVEMENT: "movement",
    Phase.DECLARATION: "combat",
    Phase.RESOLUTION: "combat",
    Phase.DRAW: "draw",
    Phase.ARTILLERY: "begin_turn",
}


def card_phase(state: GameState) -> str:
    """The Command-card timing name of the current phase (R4.3): ``"movement"``, ``"combat"`` ..."""
    return _PHASE_OF.get(state.phase, "")
