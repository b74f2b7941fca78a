"""Campaign commands: the only way a war changes (DESIGN; 002, R11.2).

Each command is a frozen dataclass naming the ``side`` that issues it and card ids. Each has
one action module in :mod:`hexwar.campaign.actions` (check, apply, legal options).

==========================  ===============================================================
command                     when and what (002)
==========================  ===============================================================
``ChooseTactics``           start of a year: the tactic cards the rank allows (Rules .2)
``DeclareCampaignCard``     before a battle, in declaring order: play a campaign card
``PassCampaignCard``        before a battle: declare nothing
``PlaceBattleCard``         a battle: put one battle card face down (Rules .2)
``PlaceTacticCard``         a battle: put one tactic card face down, or ``tactic=None``: none
``SwapEvent``               after winning a battle (``event_swap``): send an event card in
                            play to the bottom of the pile and reveal the next
``KeepEvents``              after winning a battle: keep the event cards as they are
``BattleResult``            ``battles=hex|lines``: the winner of the game that fought the
                            battle (``side`` is ``"umpire"``: the program that ran it)
==========================  ===============================================================

>>> c = PlaceTacticCard("german", None)
>>> command_from_json(c.to_json()) == c
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import HexwarError, clip

__all__ = [
    "SIDES",
    "UMPIRE",
    "IllegalCommand",
    "CommandFormatError",
    "Command",
    "ChooseTactics",
    "DeclareCampaignCard",
    "PassCampaignCard",
    "PlaceBattleCard",
    "PlaceTacticCard",
    "SwapEvent",
    "KeepEvents",
    "BattleResult",
    "COMMAND_TYPES",
    "command_from_json",
]

SIDES = ("german", "soviet")
UMPIRE = "umpire"


class IllegalCommand(HexwarError):
    """A command the rules do not allow now; ``reason`` says why. The war is unchanged."""

    def __init__(self, command: Command, reason: str):
        super().__init__(f"illegal {command.kind} by {command.side}: {reason}")
        self.command = command
        self.reason = reason


class CommandFormatError(HexwarError):
    """A command read from a file that is not a well-formed campaign command."""


@dataclass(frozen=True)
class Command:
    """Base of every campaign command.

    Attributes:
        side: ``"german"`` or ``"soviet"`` (``"umpire"`` for :class:`BattleResult`).
    """

    side: str
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"cmd": kind, "side": ..., fields...}``; tuples become lists."""
        out: dict[str, Any] = {"cmd": self.kind}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


@dataclass(frozen=True)
class ChooseTactics(Command):
    """Choose this year's tactic cards (as many as the rank allows), 002 Rules .2."""

    tactics: tuple[str, ...] = ()
    kind: ClassVar[str] = "choose_tactics"

    def __str__(self) -> str:
        return f"{self.side}: choose tactic cards {', '.join(self.tactics)}"


@dataclass(frozen=True)
class DeclareCampaignCard(Command):
    """Declare a campaign card for this battle (002 Rules .3)."""

    card: str = ""
    kind: ClassVar[str] = "declare_campaign_card"

    def __str__(self) -> str:
        return f"{self.side}: declare campaign card {self.card}"


@dataclass(frozen=True)
class PassCampaignCard(Command):
    """Declare no campaign card for this battle."""

    kind: ClassVar[str] = "pass_campaign_card"

    def __str__(self) -> str:
        return f"{self.side}: no campaign card"


@dataclass(frozen=True)
class PlaceBattleCard(Command):
    """Place a battle card face down (002 Rules .2)."""

    card: str = ""
    kind: ClassVar[str] = "place_battle_card"

    def __str__(self) -> str:
        return f"{self.side}: place battle card {self.card}"


@dataclass(frozen=True)
class PlaceTacticCard(Command):
    """Place a tactic card face down, or ``tactic=None``: play none this battle."""

    tactic: str | None = None
    kind: ClassVar[str] = "place_tactic_card"

    def __str__(self) -> str:
        return (
            f"{self.side}: place tactic card {self.tactic}" if self.tactic else f"{self.side}: no tactic card"
        )


@dataclass(frozen=True)
class SwapEvent(Command):
    """Send the event card ``event`` (in play) to the bottom of the pile, reveal the next."""

    event: str = ""
    kind: ClassVar[str] = "swap_event"

    def __str__(self) -> str:
        return f"{self.side}: swap event {self.event}"


@dataclass(frozen=True)
class KeepEvents(Command):
    """Keep the event cards in play (decline the swap)."""

    kind: ClassVar[str] = "keep_events"

    def __str__(self) -> str:
        return f"{self.side}: keep the event cards"


@dataclass(frozen=True)
class BattleResult(Command):
    """The result of the game that fought this battle (``battles=hex|lines``).

    Attributes:
        winner: ``"german"``, ``"soviet"`` or ``None`` (the game was drawn: the initiative
            holder wins it, as a drawn card battle).
        game: the game's save file, relative to the campaign save's folder.
        game_hash: the final state hash of that game.
        scenario: the scenario (or line-game) id fought.
    """

    winner: str | None = None
    game: str = ""
    game_hash: str = ""
    scenario: str = ""
    kind: ClassVar[str] = "battle_result"

    def __str__(self) -> str:
        return f"battle result: {self.winner or 'drawn'} ({self.scenario})"


COMMAND_TYPES: dict[str, type[Command]] = {
    c.kind: c
    for c in (
        ChooseTactics,
        DeclareCampaignCard,
        PassCampaignCard,
        PlaceBattleCard,
        PlaceTacticCard,
        SwapEvent,
        KeepEvents,
        BattleResult,
    )
}


def command_from_json(data: Any, where: str = "command") -> Command:
    """Parse one command written by :meth:`Command.to_json`.

    Raises:
        CommandFormatError: naming ``where`` and the bad field.
    """
    if not isinstance(data, dict):
        raise CommandFormatError(f'{where}: expected an object with "cmd"')
    name = data.get("cmd")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None  # a list or object: no traceback
    if cls is None:
        raise CommandFormatError(f"{where}.cmd: expected one of {sorted(COMMAND_TYPES)}, got {clip(name)}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for k in data:
        if k != "cmd" and k not in fields:
            raise CommandFormatError(
                f"{where}.{clip(k, quote=False)}: unknown field of {cls.kind}; expected {sorted(fields)}"
            )
    kw: dict[str, Any] = {}
    for name in fields:
        if name not in data:
            continue
        v = data[name]
        if name == "tactics":
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise CommandFormatError(f"{where}.tactics: expected a list of tactic card ids")
            v = tuple(v)
        elif name in ("tactic", "winner"):
            if v is not None and not isinstance(v, str):
                raise CommandFormatError(f"{where}.{name}: expected text or null, got {clip(v)}")
        elif not isinstance(v, str):
            raise CommandFormatError(f"{where}.{name}: expected text, got {clip(v)}")
        kw[name] = v
    if "side" not in kw:
        raise CommandFormatError(f"{where}.side: missing")
    return cls(**kw)
