"""Scripted dice for hand-worked rule tests: the rules roll exactly the faces a test lists.

``scripted_dice(3, 5)`` is a :class:`~hexwar.rules.dice.Dice` whose generator hands out 3, then
5, checks each face lies in the range the rule asked for, and fails the test when the rule asks
for one die more than scripted; ``assert_all_used(dice)`` fails when it asked for fewer.
"""

from __future__ import annotations

import numpy as np

from hexwar.rules.dice import Dice


class ScriptedRng:
    """Stands in for a Dice's numpy Generator: hands out scripted faces and checks their range."""

    def __init__(self, faces):
        self.faces = list(faces)

    def integers(self, low, high, size=None, dtype=None):
        n = 1 if size is None else int(np.prod(size))
        if len(self.faces) < n:
            raise AssertionError(
                f"the rules rolled more dice than scripted ({n} wanted, {len(self.faces)} left)"
            )
        out = [self.faces.pop(0) for _ in range(n)]
        assert all(low <= f < high for f in out), f"scripted faces {out} outside {low}..{high - 1}"
        return out[0] if size is None else np.array(out).reshape(size)

    def permutation(self, n):
        return np.arange(n)


def scripted_dice(*faces: int) -> Dice:
    """A Dice that rolls exactly ``faces`` in order (d10 faces 1..10, d6 faces 1..6)."""
    d = Dice(0)
    d.rng = ScriptedRng(faces)  # type: ignore[assignment]
    return d


def assert_all_used(dice: Dice) -> None:
    """Fail when the rules rolled fewer dice than the test scripted."""
    left = dice.rng.faces  # type: ignore[attr-defined]
    assert left == [], f"scripted faces left over: {left}"
