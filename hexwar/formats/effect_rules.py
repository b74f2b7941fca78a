"""Every card effect kind with its value rule and the cards it may be on (R4.3), in a module of
its own.

Plain data with no imports, so that the card definitions (:mod:`hexwar.rules.cards.definitions`)
take it without importing the card file models: a game's start reads the shipped cards from
their compiled form (:mod:`hexwar.rules.cards.shipped`, issue 35) and builds no card model. The
card file models (:mod:`hexwar.formats.card_vocab`) check effects against it.
"""

from __future__ import annotations

__all__ = ["EFFECT_RULES"]

_ALL = frozenset({"damage", "command", "event"})
_NOT_DAMAGE = frozenset({"command", "event"})
#: effect kind -> (value rule, the cards it may be on); value rule: "none" (no value), "signed"
#: (a non-zero integer) or "positive" (an integer >= 1). R4.3; the help texts are in
#: :mod:`hexwar.rules.cards.definitions`.
EFFECT_RULES: dict[str, tuple[str, frozenset[str]]] = {
    "defense": ("signed", _ALL),
    "attack": ("signed", _ALL),
    "exposed": ("signed", _ALL),
    "damage_index": ("signed", _ALL),
    "rate_of_fire": ("signed", _ALL),
    "no_second_weapon": ("none", _ALL),
    "no_attack": ("none", _ALL),
    "immobilized": ("none", _ALL),
    "extra_damage": ("positive", frozenset({"damage"})),
    "movement": ("signed", _ALL),
    "move_cost": ("signed", _NOT_DAMAGE),
    "turns_of_flight": ("signed", _ALL),
    "initiative": ("signed", _NOT_DAMAGE),
    "draw": ("signed", _NOT_DAMAGE),
    "remove_damage_card": ("none", frozenset({"command"})),
    "commit_from_reserves": ("positive", _NOT_DAMAGE),
    "artillery_accuracy": ("signed", _NOT_DAMAGE),
    "no_aircraft": ("none", _NOT_DAMAGE),
    "close_assault": ("signed", _NOT_DAMAGE),
}
