"""Campaign rule options as named switches (R11.3): 002's alternatives and advanced rules.

========================  =========================================================================
switch                    what it does (002)
========================  =========================================================================
``random_initiative``     Rules .1 alternative: the 1943 year-card draw decides the initiative in
                          every year, not only in 1943
``campaign_cards``        Rules .3: each side's campaign cards are in play (once per war each)
``advanced``              Advanced rules: both sides start with all 5 tactic cards (Field Marshal
                          rank) and with the campaign cards; event cards reshuffled every year
``events`` (1 or 2)       Advanced option 1/2: one or two event cards in play each year
``event_swap``            Advanced option 3: the winner of a battle may send one event card in
                          play to the bottom of the pile and reveal the next
``field_marshals``        Rules .3: both players reached Field Marshal in an earlier war, so both
                          begin with all 5 tactic cards
========================  =========================================================================

``battles`` says how a battle is decided: ``"cards"`` (002's score comparison), ``"hex"`` (a hex
scenario of the year played through :mod:`hexwar.game`) or ``"lines"`` (the Spearpoint card
game on lines, R11.1), see :mod:`hexwar.campaign.battles`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import HexwarError

__all__ = ["CampaignOptions", "BATTLE_MODES", "SWITCHES"]

BATTLE_MODES = ("cards", "lines", "hex")
SWITCHES = ("random_initiative", "campaign_cards", "advanced", "event_swap", "field_marshals")


@dataclass(frozen=True)
class CampaignOptions:
    """The rule options of one war (R11.3); see the module table.

    Raises:
        HexwarError: (from ``__post_init__``) for ``events`` other than 1 or 2 or an unknown
            ``battles`` mode.
    """

    random_initiative: bool = False
    campaign_cards: bool = False
    advanced: bool = False
    events: int = 1
    event_swap: bool = False
    field_marshals: bool = False
    battles: str = "cards"

    def __post_init__(self) -> None:
        if self.events not in (1, 2):
            raise HexwarError(f"events: expected 1 or 2 event cards a year, got {self.events!r}")
        if self.battles not in BATTLE_MODES:
            raise HexwarError(f"battles: expected one of {list(BATTLE_MODES)}, got {self.battles!r}")

    @property
    def uses_campaign_cards(self) -> bool:
        """Campaign cards are in play (``campaign_cards`` or ``advanced``)."""
        return self.campaign_cards or self.advanced

    @property
    def all_tactics_from_start(self) -> bool:
        """Both sides start at the highest rank (``advanced`` or ``field_marshals``)."""
        return self.advanced or self.field_marshals

    @property
    def reshuffle_events(self) -> bool:
        """All event cards are reshuffled at the end of each year (the advanced rules: whenever
        ``advanced``, two events a year or the event swap is used)."""
        return self.advanced or self.events == 2 or self.event_swap

    def names(self) -> list[str]:
        """The switches that are on, as their names (``["advanced", "events=2"]``)."""
        out = [s for s in SWITCHES if getattr(self, s)]
        if self.events != 1:
            out.append(f"events={self.events}")
        if self.battles != "cards":
            out.append(f"battles={self.battles}")
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict of every option."""
        return {
            "random_initiative": self.random_initiative,
            "campaign_cards": self.campaign_cards,
            "advanced": self.advanced,
            "events": self.events,
            "event_swap": self.event_swap,
            "field_marshals": self.field_marshals,
            "battles": self.battles,
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "options") -> CampaignOptions:
        """Parse :meth:`to_json` output.

        Raises:
            HexwarError: naming the field that is wrong.
        """
        if not isinstance(data, dict):
            raise HexwarError(f"{where}: expected an object of campaign options")
        known = set(cls().to_json())
        for k in data:
            if k not in known:
                raise HexwarError(f"{where}.{k}: unknown option; expected one of {sorted(known)}")
        for k in SWITCHES:
            if k in data and not isinstance(data[k], bool):
                raise HexwarError(f"{where}.{k}: expected true or false, got {data[k]!r}")
        ev = data.get("events", 1)
        if not isinstance(ev, int) or isinstance(ev, bool):
            raise HexwarError(f"{where}.events: expected 1 or 2, got {ev!r}")
        return cls(**{k: data[k] for k in data})
