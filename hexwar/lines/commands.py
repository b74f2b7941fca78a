"""Commands of the lines game: frozen, one per player action, JSON round-tripping (R11.1).

Every command names the ``seat`` that issues it: ``"german"`` / ``"soviet"`` in the 2-player
game, ``"german-front"``, ``"german-support"``, ``"soviet-front"``, ``"soviet-support"`` in the
4-player team game (000 Variants). Units and cards are named by card-instance id
(``"su_t34_76#1"``); lines are ``"front"`` and ``"rear"`` (aircraft take no line).

>>> c = Commit("soviet", "su_t34_76#1", "front", crew="su_tank_crew_regular#1")
>>> command_from_json(c.to_json()) == c
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from ..game.command_codec import IllegalCommand, _to_json_value, dataclass_command_from_json

__all__ = [
    "SEATS_2P",
    "SEATS_4P",
    "ALL_SEATS",
    "LINES",
    "IllegalLinesCommand",
    "LinesCommand",
    "ChooseHand",
    "Commit",
    "Recrew",
    "MoveLine",
    "MoveCrew",
    "Declare",
    "DeclareCloseAssault",
    "Resolve",
    "UseCommandCard",
    "Draw",
    "Discard",
    "EndPhase",
    "COMMAND_TYPES",
    "command_from_json",
    "side_of_seat",
]

SEATS_2P = ("german", "soviet")
SEATS_4P = ("german-front", "german-support", "soviet-front", "soviet-support")
ALL_SEATS = SEATS_2P + SEATS_4P
LINES = ("front", "rear")


def side_of_seat(seat: str) -> str:
    """``"german-front"`` -> ``"german"``; a 2-player seat is its side.

    >>> side_of_seat("soviet-support"), side_of_seat("german")
    ('soviet', 'german')
    """
    return seat.split("-", 1)[0]


class IllegalLinesCommand(IllegalCommand):
    """A command the rules do not allow now; nothing changed (an :class:`IllegalCommand`, so
    save replays report it like the hex game's).

    Attributes:
        command: the refused command.
        reason: why, naming the unit, line or card.
    """

    def __init__(self, command: LinesCommand | None, reason: str):
        super().__init__(None, reason)
        self.command = command  # type: ignore[assignment]


@dataclass(frozen=True)
class LinesCommand:
    """Base of all lines commands.

    Attributes:
        seat: the seat issuing it.
    """

    seat: str
    name: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"cmd": name, "seat": ..., field: value}``."""
        out: dict[str, Any] = {"cmd": self.name}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.metadata.get("optional") and v == f.default:  # added later: left out when unused
                continue
            out[f.name] = _to_json_value(v)
        return out

    def __str__(self) -> str:
        parts = [
            f"{k}={v}"
            for k, v in self.to_json().items()
            if k not in ("cmd", "seat") and v not in (None, False, [], ())
        ]
        return f"{self.seat} {self.name} " + " ".join(parts)

    @property
    def side(self) -> str:
        """The seat's side."""
        return side_of_seat(self.seat)


@dataclass(frozen=True)
class ChooseHand(LinesCommand):
    """000 setup: the 4 unit cards taken from the Reserves deck (crews count)."""

    cards: tuple[str, ...] = ()
    name: ClassVar[str] = "choose_hand"


@dataclass(frozen=True)
class Commit(LinesCommand):
    """Commitment: a unit card from hand onto ``line`` (``"front"``/``"rear"``; aircraft: ``None``),
    with its crew card and, for a halftrack with the infantry icon, an infantry unit (000)."""

    unit: str = ""
    line: str | None = None
    crew: str | None = None
    infantry: str | None = None
    name: ClassVar[str] = "commit"


@dataclass(frozen=True)
class Recrew(LinesCommand):
    """Commitment: a crew card from hand onto a crewless unit in play (000)."""

    unit: str = ""
    crew: str = ""
    name: ClassVar[str] = "recrew"


@dataclass(frozen=True)
class MoveLine(LinesCommand):
    """Commitment: an SPG ("Frontline or Rear Line") moves to the other line (000)."""

    unit: str = ""
    name: ClassVar[str] = "move_line"


@dataclass(frozen=True)
class MoveCrew(LinesCommand):
    """Classic (001) Commitment: a crew moves from one ground unit to another it can crew."""

    crew: str = ""
    unit: str = ""
    name: ClassVar[str] = "move_crew"


@dataclass(frozen=True)
class Declare(LinesCommand):
    """Combat: ``unit`` attacks ``target`` with up to two weapons (0-based indexes, R6.1);
    ``at_crew``: infantry fires at a Frontline gun's crew (000)."""

    unit: str = ""
    target: str = ""
    weapons: tuple[int, ...] = ()
    at_crew: bool = False
    name: ClassVar[str] = "declare"


@dataclass(frozen=True)
class DeclareCloseAssault(LinesCommand):
    """Combat: three or more Frontline infantry Close Assault a Frontline vehicle (000)."""

    units: tuple[str, ...] = ()
    target: str = ""
    name: ClassVar[str] = "declare_close_assault"


@dataclass(frozen=True)
class Resolve(LinesCommand):
    """Resolution: resolve your declared attack ``number`` (R6.2); ``bonus``: a Command card
    from hand discarded for +1 on its first to-hit roll (R1.3).

    ``bonus_rolls`` / ``bonus_cards`` (pairwise, issue 33): R1.3 on any other roll of the
    attack (000: "discarded before any die roll ... for a +1 Bonus to that die roll"), named as
    the hex game's (``to_hit:N``, ``intensity:N``, ``assault_dice``; see
    :func:`hexwar.lines.actions.resolve.attack_rolls`); each card is discarded when its roll is
    made. Left out of the JSON when unused, so older saves keep their command hashes.
    """

    number: int = 0
    bonus: str | None = None
    bonus_rolls: tuple[str, ...] = dataclasses.field(default=(), metadata={"optional": True})
    bonus_cards: tuple[str, ...] = dataclasses.field(default=(), metadata={"optional": True})
    name: ClassVar[str] = "resolve"


@dataclass(frozen=True)
class UseCommandCard(LinesCommand):
    """Play a Command card for its effect (R4.3), on ``unit`` when it acts on one."""

    card: str = ""
    unit: str | None = None
    name: ClassVar[str] = "use_card"


@dataclass(frozen=True)
class Draw(LinesCommand):
    """Draw Phase: one Command card, then ``extra`` sources (``"command"``/``"reserves"``, R5.5)."""

    extra: tuple[str, ...] = ()
    name: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Discard(LinesCommand):
    """Draw Phase: discard ``card`` to get down to the hand limits (R5.5)."""

    card: str = ""
    name: ClassVar[str] = "discard"


@dataclass(frozen=True)
class EndPhase(LinesCommand):
    """Done with the current phase."""

    name: ClassVar[str] = "end_phase"


COMMAND_TYPES: dict[str, type[LinesCommand]] = {
    c.name: c
    for c in (
        ChooseHand,
        Commit,
        Recrew,
        MoveLine,
        MoveCrew,
        Declare,
        DeclareCloseAssault,
        Resolve,
        UseCommandCard,
        Draw,
        Discard,
        EndPhase,
    )
}


def command_from_json(data: Any, where: str = "command") -> LinesCommand:
    """A command from :meth:`LinesCommand.to_json` output (the hex game's parser,
    :func:`hexwar.game.commands.dataclass_command_from_json`, with seats for sides).

    Raises:
        CommandFormatError: naming the field when anything is missing, unknown or mistyped.
    """
    cmd: LinesCommand = dataclass_command_from_json(
        data, COMMAND_TYPES, where, "seat", SEATS_2P + SEATS_4P, "lines command"
    )
    return cmd
