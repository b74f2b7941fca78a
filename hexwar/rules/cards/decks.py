"""Decks of card instances: the Command, Damage and Reserves decks (R4.3, R5.5, 000 setup)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..dice import Dice
from .cardset import CardSet
from .definitions import CardError, card_id_of, instance_id

__all__ = ["Deck", "auto_reserves", "build_command_deck", "build_damage_deck", "build_reserves_deck"]


# --------------------------------------------------------------------------------------------
# Decks: card instances, shuffling and drawing with the game's Dice (R4.3, R5.5)
# --------------------------------------------------------------------------------------------


@dataclass
class Deck:
    """A mutable deck of card instances (ids only, so it serializes to JSON).

    A Deck may wrap lists owned by a game state (``Deck("damage", state.damage_deck,
    state.damage_discard, reshuffle=True)``): it only ever changes them in place.

    Attributes:
        name: ``"command"``, ``"damage"`` or ``"reserves:<side>"``.
        cards: instance ids; index 0 is the top of the deck.
        discard: the discard pile (Command: cards that left the game, R5.5; Damage: cards
            cleared from units, reshuffled into the deck when it runs out).
        reshuffle: when the deck is empty, shuffle the discard pile in as a new deck (the
            Damage deck does; Command discards leave the game; Reserves never discard).
    """

    name: str
    cards: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    reshuffle: bool = False

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, dice: Dice | None = None) -> str | None:
        """Take the top card; ``None`` when the deck (and any reshuffle) is empty.

        Args:
            dice: the game's :class:`~hexwar.rules.dice.Dice`, needed only when an empty
                reshuffling deck shuffles its discard pile back in (logged as a shuffle).

        Raises:
            CardError: when a reshuffle is needed and no ``dice`` was given.
        """
        if not self.cards and self.reshuffle and self.discard:
            if dice is None:
                raise CardError(f"the {self.name} deck must be reshuffled: pass the game's Dice")
            self.cards[:] = self.discard  # in place: a Deck may wrap a game state's own lists
            self.discard.clear()
            dice.shuffle(f"reshuffle {self.name} deck", self.cards)
        if not self.cards:
            return None
        return self.cards.pop(0)

    def put_under(self, instance: str) -> None:
        """Put a card at the bottom (a discarded unit card, a surviving crew, R5.5)."""
        self.cards.append(instance)

    def discard_card(self, instance: str) -> None:
        """Put a card on the discard pile."""
        self.discard.append(instance)

    def composition(self, include_discard_if_empty: bool = True) -> Counter[str]:
        """Card ids (not instances) left to draw, with counts, order unknown to players.

        When the deck is empty and reshuffles, the discard pile is what the next draw comes
        from, so it is returned instead.
        """
        src = self.cards
        if not src and self.reshuffle and include_discard_if_empty:
            src = self.discard
        return Counter(card_id_of(c) for c in src)

    def instances(self) -> list[str]:
        """Every instance this deck holds (deck and discard pile)."""
        return list(self.cards) + list(self.discard)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "name": self.name,
            "cards": list(self.cards),
            "discard": list(self.discard),
            "reshuffle": self.reshuffle,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deck:
        """Rebuild a deck from :meth:`to_json` output.

        Raises:
            CardError: when a field is missing or of the wrong type.
        """
        try:
            cards, discard = list(data["cards"]), list(data.get("discard", []))
            if not all(isinstance(c, str) for c in cards + discard):
                raise TypeError
            return cls(str(data["name"]), cards, discard, bool(data.get("reshuffle", False)))
        except (KeyError, TypeError):
            raise CardError("bad deck data: expected name, cards (list of card ids), discard") from None


def build_command_deck(cards: CardSet, dice: Dice, events: Iterable[str] = ()) -> Deck:
    """The shuffled Command deck: every Command card's copies (50) plus chosen Events (000).

    Events are *added* to the 50 Command cards and shuffled in ("masked" as Command cards).
    Instance ids are ``"<id>#<copy>"``, copies numbered from 1.

    Raises:
        CardError: for an unknown Event id or an Event chosen twice.
    """
    inst = [
        instance_id(c.id, n)
        for c in sorted(cards.command.values(), key=lambda c: c.id)
        for n in range(1, c.copies + 1)
    ]
    seen: set[str] = set()
    for e in events:
        if e not in cards.events:
            raise CardError(f"unknown Event card {e!r}; expected one of {sorted(cards.events)}")
        if e in seen:
            raise CardError(f"Event {e!r} chosen twice")
        seen.add(e)
        inst.append(instance_id(e, 1))
    dice.shuffle("shuffle command deck", inst)
    return Deck("command", inst)


def build_damage_deck(cards: CardSet, dice: Dice) -> Deck:
    """The shuffled 25-card Damage deck (reshuffles its discard pile when it runs out)."""
    inst = [instance_id(d, 1) for d in sorted(cards.damage)]
    dice.shuffle("shuffle damage deck", inst)
    return Deck("damage", inst, reshuffle=True)


def reserves_problems(
    cards: CardSet, side: str, unit_ids: Sequence[str], check_budget: bool = True
) -> list[str]:
    """Why a list of unit card ids is not a legal Reserves deck for ``side`` (empty: legal).

    Checks: every id is a unit card of that side; the total cost is within the rules'
    80..100 points (000 Standard Game Setup) when ``check_budget``.
    """
    out: list[str] = []
    total = 0
    for cid in unit_ids:
        u = cards.units.get(card_id_of(cid))
        if u is None:
            out.append(f"unknown unit card {cid!r}")
        elif u.side != side:
            out.append(f"{cid} is a {u.side} card, not {side}")
        else:
            total += u.cost
    lo, hi = cards.rules.reserves_min, cards.rules.reserves_max
    if check_budget and not lo <= total <= hi:
        out.append(f"the Reserves deck costs {total} points; expected {lo}..{hi}")
    return out


def build_reserves_deck(
    cards: CardSet, side: str, unit_ids: Sequence[str], dice: Dice | None = None, check_budget: bool = True
) -> Deck:
    """A side's Reserves deck from unit card ids (duplicates allowed, 000).

    Instance ids number the copies of each card: ``["su_t34_76", "su_t34_76"]`` gives
    ``su_t34_76#1`` and ``su_t34_76#2``. Shuffled with ``dice`` when given.

    Raises:
        CardError: listing every reason the deck is not legal (:func:`reserves_problems`).
    """
    probs = reserves_problems(cards, side, unit_ids, check_budget)
    if probs:
        raise CardError(f"{side} Reserves deck: " + "; ".join(probs))
    counts: Counter[str] = Counter()
    inst = []
    for cid in unit_ids:
        cid = card_id_of(cid)
        counts[cid] += 1
        inst.append(instance_id(cid, counts[cid]))
    if dice is not None:
        dice.shuffle(f"shuffle {side} reserves", inst)
    return Deck(f"reserves:{side}", inst)


def auto_reserves(
    cards: CardSet,
    side: str,
    dice: Dice,
    budget: int | None = None,
    minimum: int | None = None,
    max_copies: int = 3,
) -> list[str]:
    """Pick a random legal Reserves deck (unit card ids) for ``side`` within the budget.

    Random cards are added until nothing more fits the budget; every unit that needs a crew
    is added together with a crew card of that type (random quality), so the deck can field
    all its units. Uses ``dice.choice`` (logged).

    Args:
        budget: maximum points (default the rules' 100).
        minimum: minimum points (default the rules' 80).
        max_copies: at most this many copies of one non-crew card.

    Raises:
        CardError: if no legal deck was found (cannot happen with the shipped cards).
    """
    hi = cards.rules.reserves_max if budget is None else budget
    lo = cards.rules.reserves_min if minimum is None else minimum
    pool = [u for u in cards.side_units(side, crews=False)]
    picked: list[str] = []
    total = 0
    for _ in range(200):
        room = hi - total
        counts = Counter(picked)
        options = []
        for u in pool:
            crew_cost = (
                min((c.cost for c in cards.crew_cards(side, u.crew)), default=0) if u.needs_crew else 0
            )
            if counts[u.id] < max_copies and u.cost + crew_cost <= room:
                options.append(u)
        if not options:
            break
        u = dice.choice(f"{side} reserves pick", options)
        picked.append(u.id)
        total += u.cost
        if u.needs_crew:
            crews = [c for c in cards.crew_cards(side, u.crew) if c.cost <= hi - total]
            crew = dice.choice(f"{side} reserves crew", crews)
            picked.append(crew.id)
            total += crew.cost
    if not lo <= total <= hi:
        raise CardError(f"could not build a {side} Reserves deck of {lo}..{hi} points (got {total})")
    return picked
