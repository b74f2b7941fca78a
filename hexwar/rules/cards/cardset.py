"""The :class:`CardSet`: every card definition of one card folder, looked up by id (R4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .definitions import (
    QUALITIES,
    CardError,
    CombatRules,
    CommandCard,
    CrewQuality,
    DamageCard,
    EventCard,
    UnitCard,
    Weapon,
    card_id_of,
)

__all__ = ["CardSet"]


@dataclass(frozen=True, eq=False)
class CardSet:
    """Every card definition of one ruleset, loaded once (:func:`default_cards`).

    Compared and hashed by identity (a loaded set is a value nobody rebuilds), so caches
    may key on it.

    Attributes:
        weapons, units, qualities, command, damage, events: read-only mappings by id.
        rules: :class:`CombatRules`.
        sources: the files the set was loaded from.
    """

    weapons: Mapping[str, Weapon]
    units: Mapping[str, UnitCard]
    qualities: Mapping[str, CrewQuality]
    command: Mapping[str, CommandCard]
    damage: Mapping[str, DamageCard]
    events: Mapping[str, EventCard]
    rules: CombatRules = field(default_factory=CombatRules)
    sources: tuple[str, ...] = ()

    def unit(self, card_id: str) -> UnitCard:
        """The unit card with id ``card_id`` (an instance id ``"id#n"`` works too).

        Raises:
            CardError: naming the id when no such card exists.
        """
        cid = card_id_of(card_id)
        try:
            return self.units[cid]
        except KeyError:
            raise CardError(f"unknown unit card {card_id!r}") from None

    def find_unit(self, name: str, side: str | None = None) -> UnitCard:
        """A unit card by id or by name, case-insensitively (for the CLI).

        Raises:
            CardError: when nothing or more than one card matches (the message lists them).
        """
        key = name.strip().lower()
        if not key:
            raise CardError("empty unit name: give a card id or name, e.g. de_tiger_i or 'Tiger I'")
        if key in self.units:
            return self.units[key]
        cands = [u for u in self.units.values() if side in (None, u.side)]
        exact = [u for u in cands if u.name.lower() == key or u.id.lower() == key]
        if len(exact) == 1:
            return exact[0]
        part = [u for u in cands if key in u.name.lower() or key in u.id.lower()]
        if len(part) == 1:
            return part[0]
        if not part:
            raise CardError(f"no unit card matches {name!r}")
        raise CardError(
            f"{name!r} matches several unit cards: " + ", ".join(f"{u.id} ({u.name})" for u in part)
        )

    def side_units(self, side: str, crews: bool = True) -> list[UnitCard]:
        """The unit cards of one side in id order (with or without crew cards)."""
        return sorted(
            (u for u in self.units.values() if u.side == side and (crews or not u.is_crew)),
            key=lambda u: u.id,
        )

    def crew_cards(self, side: str, crew_type: str) -> list[UnitCard]:
        """The crew cards of ``side`` of ``crew_type``, green to veteran."""
        order = {q: i for i, q in enumerate(QUALITIES)}
        return sorted(
            (u for u in self.units.values() if u.side == side and u.unit_type == crew_type),
            key=lambda u: order.get(u.quality or "", 9),
        )

    def crew_card(self, side: str, crew_type: str, quality: str = "regular") -> UnitCard:
        """The crew card of ``side``, ``crew_type`` and ``quality``.

        Raises:
            CardError: when no such crew card exists.
        """
        for u in self.crew_cards(side, crew_type):
            if u.quality == quality:
                return u
        raise CardError(f"no {quality} {crew_type} card for {side}")

    def quality_of(self, unit_card: UnitCard) -> CrewQuality | None:
        """The :class:`CrewQuality` of a crew card, else ``None``."""
        return self.qualities.get(unit_card.quality) if unit_card.quality else None

    def is_event(self, card_id: str) -> bool:
        """True when ``card_id`` (or an instance id) names an Event card."""
        return card_id_of(card_id) in self.events

    def command_or_event(self, card_id: str) -> CommandCard | EventCard:
        """The Command or Event card definition of an id or instance id.

        Raises:
            CardError: when it is neither.
        """
        cid = card_id_of(card_id)
        if cid in self.command:
            return self.command[cid]
        if cid in self.events:
            return self.events[cid]
        raise CardError(f"unknown Command or Event card {card_id!r}")

    def damage_card(self, card_id: str) -> DamageCard:
        """The Damage card of an id or instance id.

        Raises:
            CardError: when there is none.
        """
        try:
            return self.damage[card_id_of(card_id)]
        except KeyError:
            raise CardError(f"unknown Damage card {card_id!r}") from None
