"""Combat feedback on the play screen (issue 36): after an attack is resolved or an artillery
mission called, by the person or by the computer, each roll is shown in turn with its dice,
its modifiers, the number it needed and whether it succeeded, then the screen pauses a moment
before the game goes on. A key or a click skips the pause; ``hexwar play --fast`` turns it off.

The rolls come from the game's own :class:`~hexwar.game.events.RollEvent` s (R1.2) and their
number needed and success from :func:`hexwar.game.luck.luck_of_roll` (the to-hit rolls name it,
``"(needs N)"``, R6.3; naturals that always hit, R6.4, count as hits); artillery accuracy rolls
say ``"(hits on N+)"`` (R9.3). No rules here and no pyglet: events in, display rows out, timed
by the controller's clock.

>>> feed = CombatFeed(step=0.5, linger=1.0)
>>> feed.start("attack", [RollRow("to hit", "2d10", (4, 8), (), 12, 11, True)], now=10.0)
>>> feed.revealed(10.0), feed.pausing(10.9), feed.pausing(11.1)
(1, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..game.commands import Command, DeclareCloseAssault, Resolve, TargetArtillery
from ..game.luck import luck_of_roll

__all__ = ["CombatFeed", "FeedbackMixin", "RollRow", "roll_rows", "SHOWN_COMMANDS"]

#: The commands whose rolls are shown one by one (attacks resolved R6.2, artillery R9.3).
SHOWN_COMMANDS = (Resolve, TargetArtillery, DeclareCloseAssault)

_HITS_ON = re.compile(r"\(hits on (\d+)\+\)")
_NEEDS = re.compile(r"\s*\((needs \d+|hits on \d+\+)\)")
_UID = re.compile(r"\s*\[[^\]]*#\d+\]")


@dataclass(frozen=True)
class RollRow:
    """One roll as the feedback box shows it.

    Attributes:
        label: what the roll decided, in words (unit ids and the "needs" note left out).
        dice: the dice expression (``"2d10"``).
        faces: each die's face (R1.1).
        modifiers: ``(name, value)`` pairs added to the natural sum.
        result: natural sum plus modifiers.
        needed: the result it needed, or None (intensity, drift direction).
        success: whether it succeeded, or None when it needed nothing.
    """

    label: str
    dice: str
    faces: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    result: int
    needed: int | None = None
    success: bool | None = None

    def text(self) -> str:
        """The row in words: ``"to hit: 2d10 [4, 8] -1 green crew = 11, needs 12: miss"``."""
        mods = "".join(f" {v:+d} {n}" for n, v in self.modifiers)
        out = f"{self.label}: {self.dice} [{', '.join(map(str, self.faces))}]{mods} = {self.result}"
        if self.needed is not None:
            out += f", needs {self.needed}: " + ("hit" if self.success else "miss")
        return out


def roll_rows(
    events: Iterable[Any], always: frozenset[int] = frozenset(), never: frozenset[int] = frozenset()
) -> list[RollRow]:
    """The :class:`RollRow` of every roll among ``events`` (R1.2), in order; shuffles and
    random choices (a wreck counter's look) are left out. ``always`` / ``never``: the natural
    to-hit sums that hit / miss whatever is needed (R6.4; the classic variant's friendly fire)."""
    out = []
    for e in events:
        roll = getattr(e, "roll", None)
        if getattr(e, "kind", "") != "roll" or roll is None or not str(roll.dice)[:1].isdigit():
            continue
        purpose = str(roll.purpose)
        try:
            luck = luck_of_roll(roll, always=always, never=never)
        except ValueError:
            continue
        needed, success = luck.needed, luck.success
        m = _HITS_ON.search(purpose)
        if needed is None and m is not None:  # artillery accuracy (R9.3): the natural roll
            needed = int(m.group(1))
            success = roll.result >= needed
        label = _UID.sub("", _NEEDS.sub("", purpose)).strip()
        out.append(
            RollRow(
                label,
                str(roll.dice),
                tuple(roll.faces),
                tuple(roll.modifiers),
                int(roll.result),
                needed,
                success,
            )
        )
    return out


@dataclass
class CombatFeed:
    """The rolls of the last attack or mission, revealed one every ``step`` seconds, then a
    pause of ``linger`` seconds (see module doc).

    Args:
        step: seconds between two rolls; ``0`` turns the feedback off (``--fast``).
        linger: seconds the whole result stays before the game goes on.

    Attributes:
        title: what was resolved (``"Soviet (computer): resolves attack 2 ..."``).
        rows: its rolls.
        started: clock time the first roll was shown.
        skipped: a key or click ended the pause.
    """

    step: float = 0.7
    linger: float = 1.6
    title: str = ""
    rows: list[RollRow] = field(default_factory=list)
    started: float = 0.0
    skipped: bool = False

    @property
    def on(self) -> bool:
        """The feedback is shown at all (not ``--fast``)."""
        return self.step > 0

    def start(self, title: str, rows: list[RollRow], now: float) -> None:
        """Show ``rows`` under ``title`` from clock time ``now`` (nothing when off or empty)."""
        if not self.on or not rows:
            return
        self.title, self.rows, self.started, self.skipped = title, list(rows), now, False

    def clear(self) -> None:
        """Hide the box."""
        self.rows = []
        self.title = ""

    def ends_at(self) -> float:
        """Clock time the pause ends (every roll shown plus ``linger``)."""
        return self.started + self.step * max(0, len(self.rows) - 1) + self.linger

    def revealed(self, now: float) -> int:
        """How many rows are shown at clock time ``now`` (all once skipped)."""
        if not self.rows:
            return 0
        if self.skipped:
            return len(self.rows)
        return max(1, min(len(self.rows), 1 + int((now - self.started) / self.step + 1e-9)))

    def pausing(self, now: float) -> bool:
        """True while the game waits for the rolls to be read (the computer does not act)."""
        return bool(self.rows) and not self.skipped and now < self.ends_at()

    def skip(self) -> bool:
        """A key or click: show every roll and end the pause. True when there was a pause."""
        was = bool(self.rows) and not self.skipped
        self.skipped = True
        return was


class FeedbackMixin:
    """The combat-feedback part of :class:`~hexwar.ui.controller.PlayController`: starts the
    feed after a shown command (:data:`SHOWN_COMMANDS`) and hides it after any other."""

    feed: CombatFeed
    state: Any
    clock: Any
    ai: dict[str, Any]
    _touch: Any

    def feed_after(self, cmd: Command, events: list[Any]) -> None:
        """Called with every command applied and its events: shows its rolls (R1.2) when it
        resolved an attack or called artillery, else hides the last ones once their pause is
        over."""
        if isinstance(cmd, SHOWN_COMMANDS):
            from ..rules.cards import default_cards
            from .pacing import describe_command

            r = default_cards().rules
            classic = "classic" in tuple(self.state.variants or ())
            rows = roll_rows(
                events, frozenset(r.special), frozenset(r.friendly_fire) if classic else frozenset()
            )
            side = str(getattr(cmd, "side", ""))
            who = side.capitalize() + (" (computer)" if side in self.ai else "")
            what = describe_command(self.state, cmd)
            n = cmd.attack if isinstance(cmd, Resolve) else None
            a = self.state.attacks.get(n) if n is not None else None
            if a is not None:  # the attack in words: attacker > target (R6.2)
                from ..game import ruleset

                tgt = (
                    ruleset.card_name(a.target)
                    if a.target
                    else f"building {self.state.hex_label(a.building)}"
                )
                what = f"attack {n}: {ruleset.card_name(a.attackers[0])} > {tgt}"
            self.feed.start(f"{who}: {what}", rows, self.clock.now())
        elif self.feed.rows and not self.feed.pausing(self.clock.now()):
            self.feed.clear()

    def dismiss_feedback(self) -> None:
        """A click on the rolls' box: end the pause and put the box away."""
        self.feed.skip()
        self.feed.clear()
        self._touch()

    def skip_feedback(self) -> bool:
        """A key or click while the rolls are shown: end the pause (True when it did)."""
        if self.feed.skip():
            self._touch()
            return True
        return False
