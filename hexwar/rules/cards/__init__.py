"""Spearpoint card definitions (R4): unit, crew, weapon, Command, Damage and Event cards, and decks.

Everything here is a *frozen definition* loaded once from the TOML files in
``hexwar/data/cards/`` (DESIGN.md: definitions vs state). Mutable per-unit state lives in
:mod:`hexwar.rules.units`; mutable decks (:class:`Deck`) hold card *instance ids* only, so a
game state that contains them serializes to small JSON.

Files (all ``format = "hexwar-cards"``, ``schema_version = 1``, and a ``kind``):

==================  ===========================================================================
``weapons.toml``    ``[weapon.<id>]``: attack values per target type, rate of fire, Damage
                    Index, range in hexes, underscore and flags (R4.2)
``units_*.toml``    ``[unit.<id>]`` of one side (R4.1): type, crew needed, Defense, Endurance,
                    cost, line, movement and mobility (map additions), weapon ids
``crews.toml``      crew qualities (green -1, regular 0, veteran +1, R4.1) and crew types;
                    the crew cards of both sides are generated from these tables
``command.toml``    Command card kinds with their number of copies (50 cards in all, R4.3)
``damage.toml``     the 25 Damage cards, each with one effect per target type (R4.3)
``events.toml``     Event cards that may be shuffled into the Command deck (000)
``combat.toml``     the numbers of the combat rules themselves (R6): special rolls, crew fate
                    bands, immobilized bonus, deck sizes, Reserves budget
==================  ===========================================================================

Card effects are typed data (:class:`Effect`: a kind from :class:`EffectKind` plus numbers),
never free text interpreted at run time (R4.3); every help text is generated from the data.

Card *instances* (one physical card) have ids ``"<card id>#<n>"``, e.g. ``"hull_down#2"``;
:func:`card_id_of` recovers the definition id. Each physical card exists exactly once across
decks, hands, discard piles and the map.

>>> cards = default_cards()
>>> tiger = cards.unit("de_tiger_i")
>>> tiger.defense, tiger.endurance_full, tiger.endurance_half
(8, 20, 10)
>>> tiger.weapons[0].attack_value("vehicle")
8
>>> card_id_of("hull_down#2")
'hull_down'

The package: :mod:`.definitions` (card types, effects, vocabulary), :mod:`.cardset`
(:class:`CardSet`), :mod:`.loader` (reading and validating the card files), :mod:`.shipped` (the
shipped cards in compiled form) and :mod:`.decks`.

Issue 35: :func:`default_cards` reads the shipped cards from their compiled form when it is
current (:func:`hexwar.rules.cards.shipped.compiled_cards`), so a game's start neither parses
the card files nor builds the card file models; :func:`load_cards` and
:func:`validate_card_file` live in :mod:`.loader`, which imports those models, and are imported
from it on first use (PEP 562 module ``__getattr__``; the one lazy import of the rules layer,
of a module below it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .cardset import (
    CardSet,
)
from .decks import (
    Deck,
    auto_reserves,
    build_command_deck,
    build_damage_deck,
    build_reserves_deck,
)
from .definitions import (
    CARD_FILES,
    CREW_REQUIREMENTS,
    CREW_TYPES,
    DURATIONS,
    LINES,
    PHASES,
    QUALITIES,
    SIDE_PREFIX,
    SIDES,
    TARGET_TYPES,
    UNIT_TYPES,
    VARIANTS,
    WEAPON_FLAGS,
    CardError,
    CombatRules,
    CommandCard,
    CrewQuality,
    DamageCard,
    DamageSide,
    Effect,
    EffectKind,
    EventCard,
    UnitCard,
    Weapon,
    card_id_of,
    instance_id,
    opponent,
    target_type_of,
)
from .shipped import default_cards

if TYPE_CHECKING:  # pragma: no cover
    from .loader import load_cards, validate_card_file

__all__ = [
    "CARD_FILES",
    "CREW_REQUIREMENTS",
    "CREW_TYPES",
    "DURATIONS",
    "LINES",
    "PHASES",
    "QUALITIES",
    "SIDES",
    "SIDE_PREFIX",
    "TARGET_TYPES",
    "UNIT_TYPES",
    "VARIANTS",
    "WEAPON_FLAGS",
    "CardError",
    "CardSet",
    "CombatRules",
    "CommandCard",
    "CrewQuality",
    "DamageCard",
    "DamageSide",
    "Deck",
    "Effect",
    "EffectKind",
    "EventCard",
    "UnitCard",
    "Weapon",
    "auto_reserves",
    "build_command_deck",
    "build_damage_deck",
    "build_reserves_deck",
    "card_id_of",
    "default_cards",
    "instance_id",
    "load_cards",
    "opponent",
    "target_type_of",
    "validate_card_file",
]

_FROM_LOADER = ("load_cards", "validate_card_file")


def __getattr__(name: str) -> Any:
    """PEP 562: :func:`load_cards` and :func:`validate_card_file`, imported from :mod:`.loader`
    on first use (it imports the card file models, which a game's start does not build).

    Raises:
        AttributeError: for any other name.
    """
    if name in _FROM_LOADER:
        return getattr(importlib.import_module(f"{__name__}.loader"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
