"""Combat, declaration (R6.1; 000 Legal Targets): one target per unit with up to two weapons.

Frontline units and Rear Line SPGs target the enemy Frontline; Rear Line units the Frontline or
the Rear Line; aircraft anything; any weapon with an aircraft value may target aircraft;
underscored values cannot affect Defense 2+; infantry may target a Frontline gun's crew (not a
Rear Line gun's); a Rear Line SPG fires only its 1st weapon at the Frontline. The card checks
are the combat engine's :func:`hexwar.rules.combat.attack_problems`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from ..commands import Declare
from ..events import Declared
from ..rules import card, declaration_problem, declared_units, fighting, legal_targets, name
from ..state import LineAttack
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


def check(state: LinesState, cmd: Declare) -> str | None:
    """Lines, then cards (see the module docstring)."""
    return declaration_problem(state, cmd.seat, cmd.unit, cmd.target, tuple(cmd.weapons), cmd.at_crew)


def apply(state: LinesState, cmd: Declare, sink: Sink) -> None:
    """Record the attack; it cannot change this turn."""
    n = len(state.attacks) + 1
    state.attacks[n] = LineAttack(n, cmd.seat, (cmd.unit,), cmd.target, tuple(cmd.weapons), cmd.at_crew)
    t = state.units[cmd.target]
    what = f"the crew of {name(cmd.target)}" if cmd.at_crew and t.crew else name(cmd.target)
    ws = ", ".join(card(cmd.unit).weapons[i].name for i in cmd.weapons)
    sink.add(
        Declared(
            f"{cmd.seat} declares #{n}: {name(cmd.unit)} -> {what} with {ws}",
            n,
            cmd.seat,
            (cmd.unit,),
            cmd.target,
            tuple(cmd.weapons),
            cmd.at_crew,
            False,
        )
    )


def weapon_choices(n: int) -> list[tuple[int, ...]]:
    """Single weapons and pairs in card order."""
    return [(i,) for i in range(n)] + list(combinations(range(n), 2))


def options(state: LinesState, seat: str) -> Iterator[Declare]:
    """Every legal target with every legal weapon choice, for each unit that has not declared."""
    declared = declared_units(state)
    for uid, u in sorted(state.units.items()):
        if u.seat != seat or u.crewing is not None or uid in declared or not fighting(u):
            continue
        n = len(card(uid).weapons)
        for target, at_crew, _line in legal_targets(state, u):
            for ws in weapon_choices(n):
                cmd = Declare(seat, uid, target, ws, at_crew)
                if check(state, cmd) is None:
                    yield cmd


ACTION = Action(Declare, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
