"""Player commands: the only way to change a game (DESIGN; R5 turn sequence).

Each command is a frozen dataclass naming the ``side`` that issues it (``"german"`` or
``"soviet"``) and what it wants done, by card-instance id (``"su-t34-76#3"``) and hex. A
command is applied with :meth:`hexwar.game.state.GameState.apply`, which checks it against the
rules first: an illegal command raises :class:`IllegalCommand` with the reason and changes
nothing. Commands round-trip through JSON (:meth:`Command.to_json`,
:func:`command_from_json`); a save's command log is a list of such objects, hexes as labels.

========================  =================================================================
command                   when and what (rules)
========================  =================================================================
``BuildDeck``             setup: a side builds its own Reserves deck from the scenario's pool
                          and point budget (000 Standard Game Setup, R4.3), before its hand
``ChooseHand``            setup: the 4 unit cards a side starts with (000 Standard Game Setup)
``TargetArtillery``       R5.1d / R9.2: place an off-board artillery mission on a hex
``Commit``                R5.2: put a unit card from hand onto a deploy-zone hex (with crew,
                          with carried infantry for halftracks) or aloft (aircraft)
``Recrew``                R5.2: put a crew card from hand on a crewless unit on the map
``MoveCrew``              R5.2 (001): move a crew from one ground unit to a crewless one nearby
``Move``                  R5.3: move a ground unit along a path of adjacent hexes
``Tow``                   R8.1: hook up a wreck in or next to a tracked vehicle (2 MP)
``DropTow``               R8.1: drop a towed wreck in the vehicle's hex (no cost)
``Declare``               R6.1 / R7: one target and up to two weapons for one unit
``DeclareCloseAssault``   R6.6 (000 Close Assault): three or more adjacent infantry
``DeclareBuildingAttack`` R8.2: infantry attacks an adjacent building in close combat
``Resolve``               R6.2: resolve one of your declared attacks
``Draw``                  R5.5: the draw (one Command card, then two chosen sources)
``Discard``               R5.5: discard down to the hand limits
``UseCommandCard``        R4.3: play a Command card for its effect
``EndPhase``              done with the current phase (or step) for this side
``Undo``                  R12.3: take back the side's last Commit, Move or Declare of this
                          phase (before any die is rolled or hidden information revealed)
========================  =================================================================

>>> c = Move("soviet", "su-t34-76#1", (Hex.from_label("D07"), Hex.from_label("D06")))
>>> command_from_json(c.to_json()) == c
True
>>> c.to_json()["path"]
['D07', 'D06']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..model.hexgrid import Hex
from ..rules.cards import SIDES
from .command_codec import (
    DRAW_SOURCES,
    CommandFormatError,
    IllegalCommand,
    _to_json_value,
    dataclass_command_from_json,
    field_problem,
)

__all__ = [
    "SIDES",
    "DRAW_SOURCES",
    "IllegalCommand",
    "CommandFormatError",
    "Command",
    "BuildDeck",
    "ChooseHand",
    "TargetArtillery",
    "Commit",
    "Recrew",
    "MoveCrew",
    "Move",
    "Tow",
    "DropTow",
    "Declare",
    "DeclareCloseAssault",
    "DeclareBuildingAttack",
    "Resolve",
    "Draw",
    "Discard",
    "UseCommandCard",
    "EndPhase",
    "Undo",
    "COMMAND_TYPES",
    "command_from_json",
    "field_problem",
]


#: field metadata of optional fields added after round 1 (left out of the JSON at their default)
_OPTIONAL = {"optional": True}


@dataclass(frozen=True)
class Command:
    """Base of all commands.

    Attributes:
        side: the side issuing the command, ``"german"`` or ``"soviet"``.
    """

    side: str
    name: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"cmd": name, "side": ..., field: value}``; hexes as labels.

        Optional fields added after round 1 are left out at their default, so a command
        that does not use them has the JSON (and a save's command hash) it always had."""
        out: dict[str, Any] = {"cmd": self.name}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.metadata.get("optional") and v == f.default:
                continue
            out[f.name] = _to_json_value(v)
        return out

    def __str__(self) -> str:
        parts = [
            f"{k}={v}"
            for k, v in self.to_json().items()
            if k not in ("cmd", "side") and v not in (None, False, [], ())
        ]
        return f"{self.side} {self.name} " + " ".join(parts)


@dataclass(frozen=True)
class BuildDeck(Command):
    """Setup: the side replaces the Reserves deck the scenario dealt it with one it builds
    (000 Standard Game Setup: each player creates an 80-100 point deck; R4.3).

    Allowed for a side whose scenario gives a point ``budget`` (not a fixed ``reserves``
    list), before it chooses its hand; :func:`hexwar.game.actions.build_deck.check` lists the
    limits (points, pool, copies, crews). A side that never issues it plays the dealt deck.
    The deck is the side's secret (R12.1): the other side's view shows only its size.

    Attributes:
        cards: unit card ids (``"de_pz_iv_h"``, not instances), repeats allowed, crews
            included; the game numbers the instances (``"de_pz_iv_h#1"``...).
    """

    cards: tuple[str, ...] = ()
    name: ClassVar[str] = "build_deck"


@dataclass(frozen=True)
class ChooseHand(Command):
    """Setup: the side keeps these unit card instances from its Reserves deck as its hand.

    Attributes:
        cards: 4 card-instance ids from the side's Reserves deck (000 setup: crews count).
    """

    cards: tuple[str, ...] = ()
    name: ClassVar[str] = "choose_hand"


@dataclass(frozen=True)
class TargetArtillery(Command):
    """R5.1d / R9.2: call one off-board artillery mission on ``hex``.

    Attributes:
        hex: the target hex; must be in LOS of at least one friendly ground unit.
        bonus_card: a Command card instance discarded for +1 on the accuracy die (R1.3, R9.3).
    """

    hex: Hex | None = None
    bonus_card: str | None = None
    name: ClassVar[str] = "target_artillery"


@dataclass(frozen=True)
class Commit(Command):
    """R5.2: commit a unit card from hand.

    Attributes:
        unit: card-instance id of the unit in hand.
        hex: a hex of the side's deploy zone; ``None`` for an aircraft (goes aloft).
        crew: card-instance id of the crew card in hand the unit requires (tank crew,
            artillery crew, pilot), or ``None`` when it needs none.
        carry: for a halftrack whose crew requirement is infantry: the infantry card in hand
            committed with it into the same hex (000: not a crew; both then act freely).
    """

    unit: str = ""
    hex: Hex | None = None
    crew: str | None = None
    carry: str | None = None
    name: ClassVar[str] = "commit"


@dataclass(frozen=True)
class Recrew(Command):
    """R5.2 (000): put a crew card from hand on a crewless unit on the map.

    Replaces a lost crew of the side's own unit, or crews a captured enemy unit the side
    controls (then the side gives up the capture points for it, see docs/rules.md).

    Attributes:
        crew: crew card-instance id in hand.
        unit: the crewless unit's instance id on the map.
    """

    crew: str = ""
    unit: str = ""
    name: ClassVar[str] = "recrew"


@dataclass(frozen=True)
class MoveCrew(Command):
    """R5.2 (001): move a crew from one of the side's ground units to another during the
    Commitment phase (rules revision 2; docs/rules.md).

    Attributes:
        crew: the crew's instance id on the map (riding a ground unit, or standing on its own
            as infantry under variant ``crews-fight``).
        unit: the crewless ground unit it moves to, in the crew's hex or next to it.
    """

    crew: str = ""
    unit: str = ""
    name: ClassVar[str] = "move_crew"


@dataclass(frozen=True)
class Move(Command):
    """R5.3: move ``unit`` along ``path`` (adjacent hexes, not including its current hex).

    Attributes:
        unit: the unit's instance id.
        path: the hexes entered, in order; the last is the destination.
    """

    unit: str = ""
    path: tuple[Hex, ...] = ()
    name: ClassVar[str] = "move"


@dataclass(frozen=True)
class Tow(Command):
    """R8.1: hook up the top wreck in ``hex`` (the vehicle's hex or adjacent) for 2 MP.

    Attributes:
        unit: a tracked vehicle's instance id.
        hex: the wreck's hex.
    """

    unit: str = ""
    hex: Hex | None = None
    name: ClassVar[str] = "tow"


@dataclass(frozen=True)
class DropTow(Command):
    """R8.1: drop the wreck ``unit`` tows into its current hex, at no cost."""

    unit: str = ""
    name: ClassVar[str] = "drop_tow"


@dataclass(frozen=True)
class Declare(Command):
    """R6.1 / R7: declare one attack.

    Attributes:
        attacker: the attacking unit's instance id.
        target: the target unit's instance id.
        weapons: indexes (0-based, card order) of up to two weapons that can affect it.
        at_crew: R7.5: infantry fires at a frontline gun's crew instead of the gun.
    """

    attacker: str = ""
    target: str = ""
    weapons: tuple[int, ...] = ()
    at_crew: bool = False
    name: ClassVar[str] = "declare"


@dataclass(frozen=True)
class DeclareCloseAssault(Command):
    """000 Close Assault: three or more infantry adjacent to (or with) a vehicle assault it.

    Attributes:
        attackers: instance ids of the assaulting infantry (at least 3).
        target: the enemy vehicle's instance id.
    """

    attackers: tuple[str, ...] = ()
    target: str = ""
    name: ClassVar[str] = "declare_close_assault"


@dataclass(frozen=True)
class DeclareBuildingAttack(Command):
    """R8.2: an infantry unit attacks the intact building in an adjacent hex in close combat
    (AV = 2d6 + the weapon's Damage Index + 4 against the building's DR; fire or nothing, 003).

    Attributes:
        attacker: the infantry unit's instance id (this is its one attack of the turn).
        hex: the building's hex.
        weapon: the weapon (index, card order) whose Damage Index counts.
    """

    attacker: str = ""
    hex: Hex | None = None
    weapon: int = 0
    name: ClassVar[str] = "declare_building_attack"


@dataclass(frozen=True)
class Resolve(Command):
    """R6.2: resolve one of the side's declared attacks.

    Attributes:
        attack: the attack's number (``GameState.attacks`` key).
        bonus_card: a Command card instance discarded for +1 on the first to-hit roll (R1.3).
        bonus_rolls: R1.3 on any roll of the attack, named ``"to_hit:N"`` (the N-th to-hit
            roll of the attack from 0, counting the first weapon's rate of fire, then the
            second weapon's), ``"intensity:N"`` (the Intensity roll of the hit scored by to-hit
            roll N) or ``"assault_dice"`` (a Close Assault's damage dice); at most one bonus
            per roll (:func:`hexwar.game.actions.resolve.bonus_rolls` lists them).
        bonus_cards: the Command card instances spent on ``bonus_rolls``, pairwise; each is
            discarded when its roll is made (a roll never made keeps its card in hand).
    """

    attack: int = 0
    bonus_card: str | None = None
    bonus_rolls: tuple[str, ...] = field(default=(), metadata=_OPTIONAL)
    bonus_cards: tuple[str, ...] = field(default=(), metadata=_OPTIONAL)
    name: ClassVar[str] = "resolve"


@dataclass(frozen=True)
class Draw(Command):
    """R5.5: the side's draw: one Command card (Events apply and draw again), then two more.

    Attributes:
        extra: two sources, each ``"command"`` or ``"reserves"``, chosen before looking.
        initiative_card: R1.3: a Command card in hand (before the draw) discarded for +1 on
            the side's initiative roll of the next Begin Turn (R5.1c; every re-roll of a tie).
        fire_units: R1.3 / R8.5: the side's units in burning hexes whose fire damage check of
            the next Begin Turn (R5.1b) the owner lowers by 1 ...
        fire_cards: ... with these Command cards from hand, pairwise.
    """

    extra: tuple[str, ...] = ("command", "reserves")
    initiative_card: str | None = field(default=None, metadata=_OPTIONAL)
    fire_units: tuple[str, ...] = field(default=(), metadata=_OPTIONAL)
    fire_cards: tuple[str, ...] = field(default=(), metadata=_OPTIONAL)
    name: ClassVar[str] = "draw"


@dataclass(frozen=True)
class Discard(Command):
    """R5.5: discard a card from hand (Command cards leave the game, units go under Reserves)."""

    card: str = ""
    name: ClassVar[str] = "discard"


@dataclass(frozen=True)
class UseCommandCard(Command):
    """R4.3: play a Command card from hand for its effect in the phase it names.

    Attributes:
        card: the Command card instance id in hand.
        unit: the unit it is played on, when its effect needs one.
    """

    card: str = ""
    unit: str | None = None
    name: ClassVar[str] = "use_command_card"


@dataclass(frozen=True)
class EndPhase(Command):
    """The side is done with the current phase or step (R5: then the other side acts)."""

    name: ClassVar[str] = "end_phase"


@dataclass(frozen=True)
class Undo(Command):
    """Take back the side's last Commit, Move or Declare of the current phase (R12.3).

    Allowed until a die is rolled or hidden information is revealed after it; the undo is
    itself a command in the log, so a replay applies the undone command and then the undo.
    """

    name: ClassVar[str] = "undo"


COMMAND_TYPES: dict[str, type[Command]] = {
    c.name: c
    for c in (
        BuildDeck,
        ChooseHand,
        TargetArtillery,
        Commit,
        Recrew,
        MoveCrew,
        Move,
        Tow,
        DropTow,
        Declare,
        DeclareCloseAssault,
        DeclareBuildingAttack,
        Resolve,
        Draw,
        Discard,
        UseCommandCard,
        EndPhase,
        Undo,
    )
}


def command_from_json(data: Any, where: str = "command") -> Command:
    """Build a command from its JSON form (:meth:`Command.to_json`).

    Args:
        data: a dict with ``"cmd"``, ``"side"`` and the command's fields.
        where: prefix for error messages (e.g. ``"commands[12]"``).

    Raises:
        CommandFormatError: naming the field when anything is missing, unknown or mistyped.
    """
    cmd: Command = dataclass_command_from_json(data, COMMAND_TYPES, where, "side", SIDES)
    return cmd
