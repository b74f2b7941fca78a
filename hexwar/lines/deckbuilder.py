"""The deck builder's model (000 setup; the card-table window's deck builder): a side's unit
cards with their full card text, the deck being built with a running point total, the crew
warning (000's tip), and saving to a deck file (``decks/*.toml``, written atomically).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import HexwarError
from ..fileio import atomic_write_text
from ..rules.cards import default_cards
from .scenario import DECK_FORMAT, LinesSide, deck_problems, restriction_problems

__all__ = ["DeckBuilder"]


@dataclass
class DeckBuilder:
    """A Reserves deck in the making for ``side`` within ``budget`` (min, max) points.

    Attributes:
        side: ``german`` or ``soviet``.
        budget: the point limits (80-100; 75 per deck in the 4-player game).
        role: 4-player commander role (``front`` / ``support``) or ``None``.
        cards: the card ids picked, in order.
        name: the deck's name (for the file).
        restrictions: a scenario side's Reserves restrictions (``max_card_cost``,
            ``exclude_types``), or ``None`` for the standard game.
    """

    side: str
    budget: tuple[int, int] = (80, 100)
    role: str | None = None
    cards: list[str] = field(default_factory=list)
    name: str = "my deck"
    restrictions: LinesSide | None = None

    def catalogue(self) -> list[tuple[str, str]]:
        """``(card id, full card text)`` of every unit card of the side, crews included; with a
        4-player ``role`` only that commander's units and the crews (000 4-player, R11.1)."""
        from .rules import role_of

        cs = default_cards()
        units = sorted(cs.side_units(self.side), key=lambda u: (u.unit_type, u.id))
        return [
            (u.id, u.help_text(cs))
            for u in units
            if (self.role is None or u.is_crew or role_of(u.id) == self.role)
            and not restriction_problems(self.restrictions, [u.id])
        ]

    def add(self, card_id: str) -> None:
        """Add a card.

        Raises:
            HexwarError: for a card that is not a unit card of the side.
        """
        u = default_cards().units.get(card_id)
        if u is None or u.side != self.side:
            raise HexwarError(f"{card_id!r} is not a {self.side} unit card")
        self.cards.append(card_id)

    def remove(self, card_id: str) -> None:
        """Remove one copy of a card (nothing if absent)."""
        if card_id in self.cards:
            self.cards.remove(card_id)

    @property
    def points(self) -> int:
        """The running point total."""
        cs = default_cards()
        return sum(cs.unit(c).cost for c in self.cards)

    def problems(self) -> tuple[list[str], list[str]]:
        """``(errors, warnings)``: points, side, role, the scenario's restrictions; the crew tip
        as a warning."""
        errors, warnings = deck_problems(self.side, list(self.cards), self.budget, self.role)
        return errors + restriction_problems(self.restrictions, self.cards), warnings

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the deck file (atomically, :func:`hexwar.fileio.atomic_write_text`); an existing
        file is replaced only when it is a hexwar deck file (never lost data).

        Raises:
            HexwarError: when the deck is not legal (points, side), the path is an existing file
                that is not a deck file, or the file cannot be written.
        """
        import tomlkit

        errors, _ = self.problems()
        if errors:
            raise HexwarError("the deck cannot be saved: " + "; ".join(errors))
        if not str(path).strip():
            raise HexwarError("the deck cannot be saved: no file name given")
        if os.path.isdir(path):
            raise HexwarError(f"{path}: is a folder; expected a deck file name such as decks/my_deck.toml")
        if os.path.exists(path):
            try:
                with open(path, encoding="utf-8", errors="replace") as fh:
                    head = fh.read(4096)
            except OSError as exc:
                raise HexwarError(f"{path}: cannot be read ({exc.strerror})") from None
            if DECK_FORMAT not in head:
                raise HexwarError(
                    f"{path}: exists and is not a hexwar deck file; not overwritten "
                    "(choose another file name)"
                )
        doc = tomlkit.document()
        doc.add(tomlkit.comment(f"hexwar deck file (Reserves deck, 000 setup): {self.points} points"))
        doc["format"] = DECK_FORMAT
        doc["schema_version"] = 1
        deck = tomlkit.table()
        deck["name"] = self.name
        deck["side"] = self.side
        deck["cards"] = list(self.cards)
        doc["deck"] = deck
        try:
            atomic_write_text(path, tomlkit.dumps(doc))
        except OSError as exc:
            raise HexwarError(f"{path}: cannot be written ({exc.strerror})") from None
