"""The hard lines player's own policy, :class:`HardLinesAI` (issue 31; R6.2 resolution order).

A measured-but-off variant of the standard player (:class:`hexwar.lines.ai.LinesAI`) for the
searching side of :mod:`hexwar.search.lines` (switched by its ``HARD_POLICY``): it changes only
the order in which the side resolves its declared attacks. Measured against ``normal`` it did
no better than the shipped player (docs/lines.md, "Tried in the sixth session"); it is kept,
with its tests, so the figures can be replayed. The ``easy`` level's player
(:class:`EasyLinesPlayer`, a quarter of its choices random) is here too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..lines.actions.resolve import void_reason
from ..lines.ai import LinesAI
from ..lines.commands import SEATS_2P, SEATS_4P, LinesCommand, Resolve, side_of_seat
from ..lines.odds import close_assault_line_odds, declare_odds
from ..lines.state import LinesState
from ..rules.combat import CombatError
from .lines_values import sane_draw

__all__ = ["HardLinesAI", "EasyLinesPlayer"]


class HardLinesAI(LinesAI):
    """The hard player's own policy: the standard player (:class:`hexwar.lines.ai.LinesAI`)
    except the order of its resolutions (R6.2: the sides alternate, and an attack whose attacker
    is gone is void). It resolves first the attack worth most *now*: the chance it destroys its
    target times the victory points that target's own unresolved attacks are expected to take
    (a destroyed attacker's attack is void), plus, for each of its attackers, the chance that
    unit is destroyed by the enemy attacks on it times this attack's expected victory points
    (an attack fired before its unit dies is not lost); a hundredth of the expected victory
    points breaks ties; void attacks come last. The Command card's +1 follows the standard rule.

    Args:
        seat: the seat it plays.
        seed: the game's seed (as :class:`LinesAI`).
    """

    name = "standard"  # its generator is the standard player's (it draws nothing from it)

    @staticmethod
    def attack_odds(state: LinesState, a: Any) -> Any:
        """Exact odds of declared attack ``a`` as it stands (R6; ``None`` when combat refuses it)."""
        try:
            if a.close_assault:
                return close_assault_line_odds(state, a.attackers, a.target)
            return declare_odds(state, a.attackers[0], a.target, a.weapons, a.at_crew, tuple(a.command_cards))
        except (CombatError, ValueError, KeyError):
            return None

    def resolution_scores(self, state: LinesState) -> dict[int, float]:
        """Each unresolved attack of :attr:`seat` by number: what resolving it now is worth
        (the class docstring; victory points, ``-inf`` for a void attack)."""
        side = side_of_seat(self.seat)
        pending: dict[str, float] = {}  # enemy unit -> expected VP its unresolved attacks take
        danger: dict[str, float] = {}  # own unit -> chance the enemy attacks on it destroy it
        for e in state.attacks.values():
            if e.resolved or side_of_seat(e.seat) == side or void_reason(state, e) is not None:
                continue
            o = self.attack_odds(state, e)
            if o is None:
                continue
            for x in e.attackers:
                pending[x] = pending.get(x, 0.0) + o.expected_vp / len(e.attackers)
            danger[e.target] = danger.get(e.target, 0.0) + o.destroyed
        out: dict[int, float] = {}
        for a in state.attacks.values():
            if a.resolved or a.seat != self.seat:
                continue
            o = None if void_reason(state, a) is not None else self.attack_odds(state, a)
            if o is None:
                out[a.number] = -math.inf
                continue
            v = o.destroyed * pending.get(a.target, 0.0) + 0.01 * o.expected_vp
            for x in a.attackers:
                v += min(1.0, danger.get(x, 0.0)) * o.expected_vp
            out[a.number] = v
        return out

    def _resolution(self, state: LinesState) -> LinesCommand | None:
        std = super()._resolution(state)
        if not isinstance(std, Resolve):
            return std
        scores = self.resolution_scores(state)
        number = max(sorted(scores), key=lambda n: scores[n])
        if number == std.number:
            return std
        a = next(x for x in state.attacks.values() if x.number == number)
        return Resolve(self.seat, number, self.bonus_card(state, a))


class EasyLinesPlayer:
    """The ``easy`` lines player for learners: the standard player, except that a quarter of its
    choices (drawn from its own seeded generator) are a uniformly random legal command.

    Args:
        seat: the seat it plays.
        seed: the game's seed.
    """

    name = "easy"
    MISTAKES = 0.25

    def __init__(self, seat: str, seed: int = 0):
        self.seat = seat
        self.side = seat
        self.inner = LinesAI(seat, seed)
        seats = SEATS_2P + SEATS_4P
        self.rng = np.random.default_rng(
            np.random.SeedSequence([int(seed) & 0xFFFFFFFF, seats.index(seat), 7])
        )

    def choose(self, state: LinesState) -> LinesCommand:
        """The standard player's command, or (with probability :attr:`MISTAKES`) a random legal one.

        Raises:
            HexwarError: when it is not this seat's turn.
        """
        cmd = self.inner.choose(state)
        if self.rng.random() < self.MISTAKES:
            legal = [c for c in state.legal_commands(self.seat) if sane_draw(state, c)]
            if legal:
                return legal[int(self.rng.integers(len(legal)))]
        return cmd
