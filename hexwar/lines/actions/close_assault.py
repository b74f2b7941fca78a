"""Combat, declaration: a Close Assault by three or more Frontline infantry that may affect
vehicles on one enemy Frontline vehicle (000). Resolved by the combat engine's
:meth:`~hexwar.rules.combat.CombatEngine.close_assault` (foiled below 3 at resolution)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..commands import DeclareCloseAssault, side_of_seat
from ..events import Declared
from ..rules import card, close_assault_problem, declared_units, name
from ..state import LineAttack, other_side
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..rules import Sink
    from ..state import LinesState


MAX_GROUP = 8  # the exact odds handle up to 8 assault dice; larger groups are offered cut to 8


def check(state: LinesState, cmd: DeclareCloseAssault) -> str | None:
    """See :func:`hexwar.lines.rules.close_assault_problem`."""
    return close_assault_problem(state, cmd.seat, tuple(cmd.units), cmd.target)


def apply(state: LinesState, cmd: DeclareCloseAssault, sink: Sink) -> None:
    """Record the assault."""
    n = len(state.attacks) + 1
    state.attacks[n] = LineAttack(n, cmd.seat, tuple(cmd.units), cmd.target, (), False, True)
    sink.add(
        Declared(
            f"{cmd.seat} declares #{n}: Close Assault by {', '.join(name(x) for x in cmd.units)} on "
            f"{name(cmd.target)}",
            n,
            cmd.seat,
            tuple(cmd.units),
            cmd.target,
            (),
            False,
            True,
        )
    )


def options(state: LinesState, seat: str) -> Iterator[DeclareCloseAssault]:
    """For each enemy Frontline vehicle: the seat's free Frontline infantry that can assault
    (up to :data:`MAX_GROUP`), and the three of them with the best vehicle attack values."""
    declared = declared_units(state)
    inf = [
        u.uid
        for u in state.on_line(side_of_seat(seat), "front")
        if u.seat == seat
        and u.uid not in declared
        and card(u.uid).unit_type == "infantry"
        and any(w.attack_value("vehicle") is not None for w in card(u.uid).weapons)
    ]
    if len(inf) < 3:
        return
    best = sorted(inf, key=lambda x: (min(w.attack_value("vehicle") or 99 for w in card(x).weapons), x))[:3]
    groups = [tuple(sorted(inf[:MAX_GROUP]))] + ([tuple(sorted(best))] if len(inf) > 3 else [])
    for t in state.lines[other_side(side_of_seat(seat))]["front"]:
        for g in groups:
            cmd = DeclareCloseAssault(seat, g, t)
            if check(state, cmd) is None:
                yield cmd


ACTION = Action(DeclareCloseAssault, check, apply, options)
"""This command\'s rules (phases: see :data:`hexwar.lines.actions.LINES`)."""
