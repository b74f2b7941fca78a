"""Mutable per-unit state for the combat engine: ids and quantities only (DESIGN.md).

The combat engine (:mod:`hexwar.rules.combat`) and the odds (:mod:`hexwar.rules.odds`) read
and change units through the structural protocol :class:`UnitLike`. Any object with these
attributes works: the game's own ``hexwar.game.state.UnitState`` does, and so does the small
:class:`UnitState` here (used by the card-game mode, the CLI, tests and simulations).

Conventions the engine relies on:

* ``uid`` is the unit card's instance id (``"de_tiger_i#1"``); ``card`` its card id.
* Crews are units of their own; a crewed unit names its crew by instance id in ``crew``, and
  the engine finds the crew's state in the ``units`` mapping it is given.
* A unit is out of the fight once ``endurance <= 0`` (the engine sets 0 on destruction and
  reports it with a ``UnitDestroyed`` event; the game then removes the unit and moves its cards).

>>> from hexwar.rules.cards import default_cards
>>> u = new_unit(default_cards(), "su_t34_76#1", crew="su_tank_crew_veteran#1")
>>> u.card, u.side, u.endurance, u.crew
('su_t34_76', 'soviet', 14, 'su_tank_crew_veteran#1')
>>> UnitState.from_json(u.to_json()) == u
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..errors import HexwarError
from ..model.hexgrid import Hex
from .cards import CardSet, card_id_of

__all__ = ["UnitLike", "UnitState", "new_unit", "roster"]


@runtime_checkable
class UnitLike(Protocol):
    """What the combat engine needs of a unit's state (R4.1, R6).

    Attributes:
        uid: the unit card's instance id, unique in the game.
        card: the unit card id (``card_id_of(uid)``).
        side: the side controlling the unit now.
        endurance: Current Endurance (R6.5); ``<= 0`` means destroyed.
        crew: the instance id of the crew riding this unit, or ``None``.
        damage_card: the Damage card instance under the unit, or ``None`` (R6.6).
        damage_turns: End Turns left of the Damage card's temporary effect; ``None`` when
            permanent or no card (R5.6).
        immobilized: immobilized by rubble (R8.3); a Damage card's immobilization is read
            from the card.
        command_cards: Command card instances under the unit (R4.3).
        bombs_used: indexes of bomb weapons dropped this flight (R7.4).
        flight_turns: Turns of Flight left (aircraft, R5.6).
    """

    uid: str
    side: str
    endurance: int
    crew: str | None
    damage_card: str | None
    damage_turns: int | None
    immobilized: bool
    command_cards: list[str]
    bombs_used: tuple[int, ...]
    flight_turns: int

    @property
    def card(self) -> str:  # pragma: no cover - protocol
        """The unit card id."""
        ...


@dataclass
class UnitState:
    """A unit in play, for the card game, the CLI, tests and simulations (:class:`UnitLike`).

    Attributes:
        uid: the unit card's instance id (``"de_tiger_i#1"``).
        side: the controlling side.
        endurance: Current Endurance.
        crew: the crew's instance id (its own :class:`UnitState` lives in the same roster).
        damage_card: Damage card instance under the unit.
        damage_turns: End Turns left of its temporary effect (``None``: permanent / none).
        immobilized: immobilized by rubble (R8.3).
        command_cards: Command card instances under the unit.
        bombs_used: bomb weapon indexes used this flight.
        flight_turns: Turns of Flight left (aircraft).
        hex: the unit's hex, or ``None`` (aloft, off-map, card game).
    """

    uid: str
    side: str
    endurance: int
    crew: str | None = None
    damage_card: str | None = None
    damage_turns: int | None = None
    immobilized: bool = False
    command_cards: list[str] = field(default_factory=list)
    bombs_used: tuple[int, ...] = ()
    flight_turns: int = 0
    hex: Hex | None = None

    @property
    def card(self) -> str:
        """The unit card id (``uid`` without ``#n``)."""
        return card_id_of(self.uid)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict; the hex as ``[q, r]``."""
        return {
            "uid": self.uid,
            "side": self.side,
            "endurance": self.endurance,
            "crew": self.crew,
            "damage_card": self.damage_card,
            "damage_turns": self.damage_turns,
            "immobilized": self.immobilized,
            "command_cards": list(self.command_cards),
            "bombs_used": list(self.bombs_used),
            "flight_turns": self.flight_turns,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> UnitState:
        """Rebuild from :meth:`to_json` output.

        Raises:
            HexwarError: naming the missing or malformed field.
        """
        try:
            h = d.get("hex")
            return cls(
                uid=str(d["uid"]),
                side=str(d["side"]),
                endurance=int(d["endurance"]),
                crew=d.get("crew"),
                damage_card=d.get("damage_card"),
                damage_turns=d.get("damage_turns"),
                immobilized=bool(d.get("immobilized", False)),
                command_cards=[str(c) for c in d.get("command_cards", [])],
                bombs_used=tuple(int(i) for i in d.get("bombs_used", [])),
                flight_turns=int(d.get("flight_turns", 0)),
                hex=None if h is None else Hex(int(h[0]), int(h[1])),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise HexwarError(f"bad unit state {d!r}: {exc}") from None


def new_unit(
    cards: CardSet, uid: str, *, crew: str | None = None, endurance: int | None = None, hex: Hex | None = None
) -> UnitState:
    """A fresh unit of card instance ``uid`` at Full Endurance (aircraft with full Turns of Flight).

    Args:
        cards: the card set.
        uid: the unit card's instance id (a bare card id gets ``"#1"``).
        crew: the crew's instance id, if any (its state is created separately).
        endurance: Current Endurance (default Full).
        hex: where it stands.

    Raises:
        CardError: for an unknown card.
        HexwarError: for an endurance outside 1..Full.
    """
    if "#" not in uid:
        uid = f"{uid}#1"
    card = cards.unit(uid)
    e = card.endurance_full if endurance is None else endurance
    if not 1 <= e <= card.endurance_full:
        raise HexwarError(f"{uid}: endurance {e} outside 1..{card.endurance_full}")
    return UnitState(
        uid=uid, side=card.side, endurance=e, crew=crew, flight_turns=card.turns_of_flight or 0, hex=hex
    )


def roster(cards: CardSet, *specs: tuple[str, str | None]) -> dict[str, UnitState]:
    """Units and their crews by instance id, from ``(unit uid, crew uid or None)`` pairs.

    >>> from hexwar.rules.cards import default_cards
    >>> sorted(roster(default_cards(), ("de_tiger_i#1", "de_tank_crew_regular#1")))
    ['de_tank_crew_regular#1', 'de_tiger_i#1']
    """
    out: dict[str, UnitState] = {}
    for uid, crew in specs:
        u = new_unit(cards, uid, crew=crew)
        out[u.uid] = u
        if crew is not None:
            c = new_unit(cards, crew)
            out[c.uid] = c
    return out
