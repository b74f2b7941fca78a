"""How lucky each side was: every roll of a saved game with its exact odds before it was rolled,
and a summary per side (issue 36, the replay viewer; R1.1, R1.2, R6, R10).

Works for the three games alike (the hex game, the card game on lines, the campaign): all three
record each die as a :class:`~hexwar.game.events.RollEvent` holding a
:class:`~hexwar.rules.dice.Roll` (R1.2), so the luck of a roll is read from its dice expression
and its natural sum alone:

* :func:`dice_distribution` is the exact distribution of the natural sum of ``NdM`` (R1.1), by
  convolution in fractions; ``"choice of N"`` draws are uniform over the N choices.
* A roll whose purpose names the number it needs (``"... (needs 12)"``: the to-hit rolls,
  R6.3) also gets its exact chance of success, ``P(natural + modifiers >= needed)``, where the
  natural sums that always hit (R6.4: 19-20) count as successes and, in the classic variant,
  the friendly-fire naturals (2-3) as failures (the caller passes them: ``always`` /
  ``never``).
* For each roll, :class:`RollLuck` holds ``P(natural = x)``, ``P(natural >= x)`` and
  ``P(natural <= x)`` as they stood before the roll; its **percentile**
  ``P(< x) + P(= x) / 2`` is 1/2 on average for fair dice (a mid-rank), so the mean percentile
  of a side's rolls says how high it rolled; its **rarity** is the smaller tail,
  ``min(P(>= x), P(<= x))`` (the rarest roll of a game has the smallest).
* The hex game and the card game also compare victory points: each Declare's exact
  expected VP (:func:`hexwar.game.odds.declare_odds` / :func:`hexwar.lines.odds.declare_odds`,
  asked of the state just before the declaration) against the VP the side actually scored
  while its Resolve commands were applied (R10). The campaign has no attack odds: its summary
  holds the rolls only.

A roll is counted for the side whose command was being applied when it was rolled (the
automatic steps after a command, e.g. the next turn's initiative, count for that command's
side); rolls of automatic steps with no side count for ``"umpire"``.

>>> d = dice_distribution("2d10")
>>> d[2], d[11], d[20], sum(d.values())
(Fraction(1, 100), Fraction(1, 10), Fraction(1, 100), Fraction(1, 1))
>>> r = roll_luck_of("2d10", 19)
>>> r.p_at_least, r.p_at_most
(Fraction(3, 100), Fraction(99, 100))
>>> roll_luck_of("2d10", 9, needed=12, modifier=2).p_success  # 2d10 + 2 >= 12: 2d10 >= 10
Fraction(16, 25)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

__all__ = [
    "RollLuck",
    "SideLuck",
    "dice_distribution",
    "luck_of_roll",
    "roll_luck_of",
    "summarize",
]

_NDM = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*$", re.IGNORECASE)
_CHOICE = re.compile(r"^\s*choice of (\d+)\s*$", re.IGNORECASE)
_NEEDS = re.compile(r"\(needs (\d+)\)")


@lru_cache(maxsize=64)
def _ndm(n: int, m: int) -> tuple[tuple[int, Fraction], ...]:
    dist = {0: Fraction(1)}
    face = Fraction(1, m)
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for f in range(1, m + 1):
                nxt[s + f] = nxt.get(s + f, Fraction(0)) + p * face
        dist = nxt
    return tuple(sorted(dist.items()))


def dice_distribution(dice: str) -> dict[int, Fraction]:
    """The exact distribution of a roll's natural value.

    Args:
        dice: ``"NdM"`` (``"d6"``, ``"2d10"``; N from 1 to 10, M from 2 to 100: faces 1..M,
            R1.1) or ``"choice of N"`` (a uniform draw, natural 0..N-1).

    Returns:
        natural value -> probability (exact fractions summing to 1).

    Raises:
        ValueError: for anything else (a shuffle has no natural value to be lucky with).
    """
    m = _NDM.match(dice)
    if m:
        n, faces = int(m.group(1) or 1), int(m.group(2))
        if not (1 <= n <= 10 and 2 <= faces <= 100):
            raise ValueError(f"dice {dice!r}: expected 1-10 dice of 2-100 faces")
        return dict(_ndm(n, faces))
    c = _CHOICE.match(dice)
    if c:
        k = int(c.group(1))
        if k < 1:
            raise ValueError(f"dice {dice!r}: a choice of at least 1")
        return {i: Fraction(1, k) for i in range(k)}
    raise ValueError(f"dice {dice!r}: not NdM or 'choice of N'")


@dataclass(frozen=True)
class RollLuck:
    """One roll and its exact odds before it was rolled.

    Attributes:
        step: the index of the command (0-based) during which it was rolled.
        side: the side it counts for (see the module text).
        text: the roll's log line (purpose, dice, faces, modifiers, result).
        dice: the dice expression; natural: the natural value rolled.
        p_exact, p_at_least, p_at_most: ``P(natural = x)``, ``P(>= x)``, ``P(<= x)``.
        needed: the result the roll needed (``"(needs N)"`` in its purpose), or None.
        p_success: ``P(natural + modifiers >= needed)`` before the roll, or None.
        success: whether it succeeded (``result >= needed``), or None.
    """

    step: int
    side: str
    text: str
    dice: str
    natural: int
    p_exact: Fraction
    p_at_least: Fraction
    p_at_most: Fraction
    needed: int | None = None
    p_success: Fraction | None = None
    success: bool | None = None

    @property
    def percentile(self) -> Fraction:
        """``P(< x) + P(= x) / 2``: 1/2 on average for fair dice (higher: rolled high)."""
        return self.p_at_most - self.p_exact / 2

    @property
    def rarity(self) -> Fraction:
        """The smaller tail, ``min(P(>= x), P(<= x))``: how unusual the roll was."""
        return min(self.p_at_least, self.p_at_most)

    def odds_text(self) -> str:
        """``"needed 12: P(success) 45.0%; 2d10 = 19: P(=) 2.0%, P(>=) 3.0%, P(<=) 99.0%"``."""
        head = ""
        if self.needed is not None and self.p_success is not None:
            head = f"needed {self.needed}: P(success) {float(self.p_success):.1%}; "
        return head + (
            f"{self.dice} = {self.natural}: P(=) {float(self.p_exact):.1%}, "
            f"P(>=) {float(self.p_at_least):.1%}, P(<=) {float(self.p_at_most):.1%}"
        )


def roll_luck_of(
    dice: str,
    natural: int,
    step: int = 0,
    side: str = "",
    text: str = "",
    needed: int | None = None,
    modifier: int = 0,
    always: frozenset[int] = frozenset(),
    never: frozenset[int] = frozenset(),
) -> RollLuck:
    """The :class:`RollLuck` of rolling ``natural`` on ``dice`` (see :func:`dice_distribution`);
    with ``needed``, also the chance of success and whether it succeeded: a natural in
    ``never`` fails, one in ``always`` succeeds, any other when ``natural + modifier >= needed``.

    Raises:
        ValueError: for dice that are not ``NdM`` / ``choice of N``, or a natural value the
            dice cannot show.
    """
    d = dice_distribution(dice)
    if natural not in d:
        raise ValueError(f"{dice} cannot show {natural}")
    ge = sum((p for v, p in d.items() if v >= natural), Fraction(0))
    le = sum((p for v, p in d.items() if v <= natural), Fraction(0))
    ps = ok = None
    if needed is not None:

        def wins(v: int) -> bool:
            return v not in never and (v in always or v + modifier >= needed)

        ps = sum((p for v, p in d.items() if wins(v)), Fraction(0))
        ok = wins(natural)
    return RollLuck(
        step, side, text or f"{dice} {natural}", dice, natural, d[natural], ge, le, needed, ps, ok
    )


def luck_of_roll(
    roll: object,
    step: int = 0,
    side: str = "",
    always: frozenset[int] = frozenset(),
    never: frozenset[int] = frozenset(),
) -> RollLuck:
    """The :class:`RollLuck` of a recorded :class:`~hexwar.rules.dice.Roll` (its purpose's
    ``"(needs N)"`` read as the number needed, its modifiers summed; ``always`` / ``never``:
    the natural sums that hit / miss whatever is needed, for rolls that need a number).

    Raises:
        ValueError: as :func:`roll_luck_of` (e.g. a shuffle).
    """
    purpose = str(getattr(roll, "purpose", ""))
    m = _NEEDS.search(purpose)
    mods = sum(int(v) for _, v in getattr(roll, "modifiers", ()))
    return roll_luck_of(
        str(getattr(roll, "dice", "")),
        int(getattr(roll, "natural", 0)),
        step,
        side,
        str(roll),
        int(m.group(1)) if m else None,
        mods,
        always if m else frozenset(),
        never if m else frozenset(),
    )


@dataclass
class SideLuck:
    """One side's luck over a game.

    Attributes:
        side: the side.
        rolls: its rolls (see the module text for which count).
        expected_vp: the summed exact expected VP of its declarations, or None (campaign).
        actual_vp: the VP it scored while resolving its attacks, or None (campaign).
    """

    side: str
    rolls: list[RollLuck] = field(default_factory=list)
    expected_vp: float | None = None
    actual_vp: int | None = None

    @property
    def mean_percentile(self) -> float | None:
        """The mean percentile of its rolls (0.5 = average luck), or None without rolls."""
        return float(sum(r.percentile for r in self.rolls) / len(self.rolls)) if self.rolls else None

    @property
    def rarest(self) -> RollLuck | None:
        """Its rarest roll (smallest tail; the earliest on a tie), or None."""
        return min(self.rolls, key=lambda r: (r.rarity, r.step), default=None)

    def lines(self) -> list[str]:
        """The summary as readable lines (the replay viewer's luck panel, the terminal)."""
        out = [f"{self.side}: {len(self.rolls)} rolls"]
        mp = self.mean_percentile
        if mp is not None:
            word = "lucky" if mp > 0.55 else "unlucky" if mp < 0.45 else "about average"
            out[0] += f", mean percentile {mp:.0%} ({word})"
        if self.expected_vp is not None:
            out.append(f"  VP from attacks: expected {self.expected_vp:.1f}, scored {self.actual_vp}")
        r = self.rarest
        if r is not None:
            out.append(f"  rarest roll (step {r.step + 1}): {r.text}  [{r.odds_text()}]")
        return out


def summarize(
    rolls: Iterable[RollLuck],
    sides: Iterable[str],
    expected: dict[str, float] | None = None,
    actual: dict[str, int] | None = None,
) -> dict[str, SideLuck]:
    """Group ``rolls`` by side into :class:`SideLuck` (every side of ``sides`` present, in that
    order, then any other side a roll counts for); ``expected`` / ``actual``: VP per side, or
    None when the game has no attack odds."""
    out = {s: SideLuck(s) for s in sides}
    for r in rolls:
        out.setdefault(r.side, SideLuck(r.side)).rolls.append(r)
    for s, sl in out.items():
        if expected is not None:
            sl.expected_vp = float(expected.get(s, 0.0))
            sl.actual_vp = int((actual or {}).get(s, 0))
    return out
