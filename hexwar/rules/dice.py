"""The dice service: one seeded generator per game, every roll recorded (R1).

R1.1: d6 and d10; a d10 face of 0 reads as 10, so d10 faces are 1..10 here.
R1.2: all randomness comes from one ``numpy.random.Generator`` per game and every roll is
logged with its purpose, dice, faces, modifiers and result.
R1.3: the Command-card bonus (+1, at most one per roll) is an explicit, logged modifier.

>>> d = Dice(7)
>>> r = d.roll("initiative", "1d10", modifiers=[("veteran", 1)])
>>> 1 <= r.faces[0] <= 10 and r.result == r.natural + 1
True
>>> d.log[0].purpose
'initiative'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

__all__ = ["COMMAND_CARD_BONUS", "Dice", "DiceSpecError", "Roll", "parse_dice"]

T = TypeVar("T")

COMMAND_CARD_BONUS = ("command card", 1)  # R1.3
_SPEC = re.compile(r"^(\d+)d(6|10)$")


class DiceSpecError(ValueError):
    """Raised for a dice expression other than ``NdS`` with S in {6, 10} (R1.1)."""


def parse_dice(spec: str) -> tuple[int, int]:
    """Parse ``"2d10"`` into ``(count, sides)``; only d6 and d10 exist (R1.1).

    Raises:
        DiceSpecError: naming the expression when it is malformed.

    >>> parse_dice("2d6")
    (2, 6)
    """
    m = _SPEC.match(spec.strip().lower()) if isinstance(spec, str) else None
    if not m or int(m.group(1)) < 1:
        raise DiceSpecError(f"bad dice {spec!r}: expected e.g. '1d6', '2d10' (d6 or d10 only)")
    return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded roll (R1.2).

    Attributes:
        purpose: what the roll decides, e.g. ``"to hit: T-34/76 -> Tiger I"``.
        dice: the expression rolled, ``"2d10"``.
        faces: each die's face (d10: 1..10, R1.1).
        modifiers: ``(name, value)`` pairs added to the natural sum.
        natural: sum of the faces before modifiers.
        result: ``natural`` plus all modifiers.
    """

    purpose: str
    dice: str
    faces: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    natural: int
    result: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the roll, for the game log."""
        return {
            "purpose": self.purpose,
            "dice": self.dice,
            "faces": list(self.faces),
            "modifiers": [[n, v] for n, v in self.modifiers],
            "natural": self.natural,
            "result": self.result,
        }

    def __str__(self) -> str:
        mods = "".join(f" {v:+d} {n}" for n, v in self.modifiers)
        return f"{self.purpose}: {self.dice} {list(self.faces)}{mods} = {self.result}"


@dataclass
class Dice:
    """Seeded dice for one game; the only source of randomness in the rules (R1.2).

    Args:
        seed: an integer seed, a ``numpy.random.SeedSequence`` or an existing
            ``numpy.random.Generator`` (for the simulation harness's per-trial streams).

    Attributes:
        rng: the game's generator.
        log: every roll and random draw made so far, in order.
    """

    seed: int | np.random.SeedSequence | np.random.Generator = 0
    rng: np.random.Generator = field(init=False, repr=False)
    log: list[Roll] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.seed, np.random.Generator):
            self.rng = self.seed
        else:
            self.rng = np.random.default_rng(self.seed)

    def roll(
        self,
        purpose: str,
        dice: str,
        modifiers: Iterable[tuple[str, int]] = (),
        command_card: bool = False,
    ) -> Roll:
        """Roll ``dice`` for ``purpose``, apply ``modifiers``, record and return the roll.

        Args:
            purpose: text for the log.
            dice: ``"NdS"``, S in {6, 10}; d10 faces are 1..10 (R1.1).
            modifiers: ``(name, value)`` pairs added to the natural sum.
            command_card: the player discarded a Command card for +1 (R1.3).

        Raises:
            DiceSpecError: for a malformed ``dice``.
        """
        count, sides = parse_dice(dice)
        faces = tuple(int(f) for f in self.rng.integers(1, sides + 1, size=count))
        mods = tuple((str(n), int(v)) for n, v in modifiers)
        if command_card:
            mods = mods + (COMMAND_CARD_BONUS,)
        natural = sum(faces)
        roll = Roll(purpose, f"{count}d{sides}", faces, mods, natural, natural + sum(v for _, v in mods))
        self.log.append(roll)
        return roll

    def d6(self, purpose: str) -> int:
        """Roll and record one d6; return its face 1..6."""
        return self.roll(purpose, "1d6").result

    def d10(self, purpose: str) -> int:
        """Roll and record one d10; return its face 1..10 (0 reads as 10, R1.1)."""
        return self.roll(purpose, "1d10").result

    def shuffle(self, purpose: str, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place with the game's generator; the draw is logged."""
        order = self.rng.permutation(len(items))
        shuffled = [items[i] for i in order]
        items[:] = shuffled
        self.log.append(Roll(purpose, "shuffle", tuple(int(i) for i in order), (), 0, 0))

    def choice(self, purpose: str, options: Sequence[T]) -> T:
        """Pick one of ``options`` uniformly with the game's generator; logged.

        Raises:
            ValueError: if ``options`` is empty.
        """
        if not options:
            raise ValueError(f"{purpose}: nothing to choose from")
        i = int(self.rng.integers(0, len(options)))
        self.log.append(Roll(purpose, f"choice of {len(options)}", (i,), (), i, i))
        return options[i]
