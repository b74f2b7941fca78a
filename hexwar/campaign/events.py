"""Campaign events: typed, frozen records of what happened (DESIGN: commands -> events).

:meth:`CampaignState.apply <hexwar.campaign.state.CampaignState.apply>` returns the events a
command caused, in order; every random draw is a :class:`RandomDraw` at the moment it is made
(R1.2). Events stay typed until the save/log boundary, where :func:`event_to_json` and
:func:`log_lines` turn them into JSON (byte-identical for the same seed and commands).
:func:`describe` is the one place that turns an event into a readable line, optionally for a
side's view (R12.1: the opponent's face-down cards stay hidden).

>>> e = BattleWon("german", 1941, 3, "draw: initiative", 6, 6)
>>> event_to_json(e)["kind"]
'battle_won'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import CampaignCards

__all__ = [
    "CampaignEvent",
    "RandomDraw",
    "YearBegins",
    "InitiativeDrawn",
    "EventRevealed",
    "EventDiscarded",
    "EventsReshuffled",
    "TacticsChosen",
    "BattleBegins",
    "CampaignCardDeclared",
    "CampaignCardPassed",
    "CardPlaced",
    "TacticRevealed",
    "BattleCardsRevealed",
    "BattleScored",
    "BattleWon",
    "BattleStalemate",
    "Promoted",
    "EventSwapped",
    "BattleFought",
    "YearWon",
    "WarOver",
    "event_to_json",
    "log_lines",
    "describe",
]


@dataclass(frozen=True)
class CampaignEvent:
    """Base of every campaign event; ``kind`` is its JSON name."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class RandomDraw(CampaignEvent):
    """A random draw from the war's generator (R1.2): ``purpose``, options, result indices."""

    purpose: str
    options: int
    result: tuple[int, ...]
    kind: ClassVar[str] = "random_draw"


@dataclass(frozen=True)
class YearBegins(CampaignEvent):
    """A new year card is in play; ``initiative`` holds the initiative card (002 Rules .1)."""

    year: int
    initiative: str
    kind: ClassVar[str] = "year_begins"


@dataclass(frozen=True)
class InitiativeDrawn(CampaignEvent):
    """The year-card draw for the initiative (002 Rules .1: 1943, or every year)."""

    year: int
    german: int
    soviet: int
    holder: str
    kind: ClassVar[str] = "initiative_drawn"


@dataclass(frozen=True)
class EventRevealed(CampaignEvent):
    """An event card is revealed from the top of the pile and is in play."""

    event: str
    kind: ClassVar[str] = "event_revealed"


@dataclass(frozen=True)
class EventDiscarded(CampaignEvent):
    """An event card leaves play at the end of its year (basic rules)."""

    event: str
    kind: ClassVar[str] = "event_discarded"


@dataclass(frozen=True)
class EventsReshuffled(CampaignEvent):
    """Every event card is shuffled into a new pile (the advanced rules' end of year)."""

    cards: int
    kind: ClassVar[str] = "events_reshuffled"


@dataclass(frozen=True)
class TacticsChosen(CampaignEvent):
    """A side's tactic cards for this year (002 Rules .2), shown once both have chosen."""

    side: str
    tactics: tuple[str, ...]
    kind: ClassVar[str] = "tactics_chosen"


@dataclass(frozen=True)
class BattleBegins(CampaignEvent):
    """Battle ``number`` (1..7) of ``year`` begins."""

    year: int
    number: int
    kind: ClassVar[str] = "battle_begins"


@dataclass(frozen=True)
class CampaignCardDeclared(CampaignEvent):
    """A campaign card is declared for this battle (002 Rules .3)."""

    side: str
    card: str
    kind: ClassVar[str] = "campaign_card_declared"


@dataclass(frozen=True)
class CampaignCardPassed(CampaignEvent):
    """A side declares no campaign card this battle."""

    side: str
    kind: ClassVar[str] = "campaign_card_passed"


@dataclass(frozen=True)
class CardPlaced(CampaignEvent):
    """A side places a card face down: ``what`` is ``"battle"``, ``"tactic"`` or ``"none"``
    (no tactic card); ``card`` is hidden from the other side's view (R12.1)."""

    side: str
    what: str
    card: str | None
    kind: ClassVar[str] = "card_placed"


@dataclass(frozen=True)
class TacticRevealed(CampaignEvent):
    """A side's tactic card is turned over (first, 002 Rules .2); ``cancelled`` by the
    opponent's Counter-Intelligence."""

    side: str
    tactic: str | None
    cancelled: bool
    kind: ClassVar[str] = "tactic_revealed"


@dataclass(frozen=True)
class BattleCardsRevealed(CampaignEvent):
    """Both battle cards are turned over (002 Rules .2)."""

    german: str
    soviet: str
    kind: ClassVar[str] = "battle_cards_revealed"


@dataclass(frozen=True)
class BattleScored(CampaignEvent):
    """The final scores and each step that made them: ``(label, change)`` pairs in the order
    of 002 Rules .2 (battle card, event modifiers, tactic bonus, then the campaign card)."""

    german: int
    soviet: int
    german_steps: tuple[tuple[str, int], ...]
    soviet_steps: tuple[tuple[str, int], ...]
    kind: ClassVar[str] = "battle_scored"


@dataclass(frozen=True)
class BattleFought(CampaignEvent):
    """``battles=hex|lines``: the game that fought the battle and its winner."""

    scenario: str
    winner: str | None
    game: str
    kind: ClassVar[str] = "battle_fought"


@dataclass(frozen=True)
class BattleWon(CampaignEvent):
    """``side`` wins battle ``number`` of ``year`` and claims its battle cards (002 Rules .4)."""

    side: str
    year: int
    number: int
    reason: str
    german: int
    soviet: int
    kind: ClassVar[str] = "battle_won"


@dataclass(frozen=True)
class BattleStalemate(CampaignEvent):
    """Nobody wins the battle (``side``'s Fighting Withdrawal); its cards go to the stalemate pile."""

    side: str
    year: int
    number: int
    kind: ClassVar[str] = "battle_stalemate"


@dataclass(frozen=True)
class Promoted(CampaignEvent):
    """``side`` is promoted to ``rank`` (order 1..5) for winning 2 battles this year."""

    side: str
    rank: int
    kind: ClassVar[str] = "promoted"


@dataclass(frozen=True)
class EventSwapped(CampaignEvent):
    """Advanced option 3: ``old`` goes to the bottom of the pile, ``new`` is revealed."""

    side: str
    old: str
    new: str
    kind: ClassVar[str] = "event_swapped"


@dataclass(frozen=True)
class YearWon(CampaignEvent):
    """The year's card goes to ``side``: more battles won, or the initiative holder in a tied year
    (``tied_year`` in rules.toml); ``None``: a tied year under 002's rule, nobody (002 Rules .4)."""

    year: int
    side: str | None
    german_wins: int
    soviet_wins: int
    kind: ClassVar[str] = "year_won"


@dataclass(frozen=True)
class WarOver(CampaignEvent):
    """The war is over: ``winner`` (``None``: a drawn war) and why."""

    winner: str | None
    reason: str
    kind: ClassVar[str] = "war_over"


def event_to_json(e: CampaignEvent) -> dict[str, Any]:
    """``{"kind": ..., fields...}`` (tuples as lists): the one serializer at the save/log edge."""
    out: dict[str, Any] = {"kind": e.kind}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        out[f.name] = _jsonable(v)
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def log_lines(events: Iterable[CampaignEvent]) -> str:
    """The events as JSON lines (sorted keys, one per line, trailing newline)."""
    return "".join(json.dumps(event_to_json(e), sort_keys=True, ensure_ascii=False) + "\n" for e in events)


def _side(s: str | None) -> str:
    return s.capitalize() if s else "nobody"


def describe(e: CampaignEvent, cards: CampaignCards, viewer: str | None = None) -> str:
    """One readable line for ``e``; with ``viewer`` a side (or ``"spectator"``), the other
    side's face-down cards are shown as "a card face down" and an event pile shuffle without
    its order (R12.1: no side sees the order of a deck, or it knows every coming year's event).
    ``viewer=None`` (replays, the umpire) shows every draw.

    >>> from .cards import default_campaign_cards
    >>> describe(CardPlaced("soviet", "battle", "su_tank_corps"), default_campaign_cards(), viewer="german")
    'Soviet places a battle card face down'
    >>> describe(YearBegins(1941, "german"), default_campaign_cards())
    '== 1941: Barbarossa; German holds the initiative'
    """
    t = cards.title
    if isinstance(e, RandomDraw):
        if viewer is not None and "event" in e.purpose:  # R12.1: never the order of a deck
            return f"the event pile is shuffled ({e.options} cards)"
        return f"draw ({e.purpose}): {list(e.result)} of {e.options}"
    if isinstance(e, YearBegins):
        title = t(cards.year(e.year).id)  # 002's year cards are titled "1941: Barbarossa"
        head = title if title.startswith(str(e.year)) else f"{e.year}: {title}"
        return f"== {head}; {_side(e.initiative)} holds the initiative"
    if isinstance(e, InitiativeDrawn):
        return f"initiative draw: German draws {e.german}, Soviet draws {e.soviet}: {_side(e.holder)} takes the initiative"
    if isinstance(e, EventRevealed):
        return f"event card revealed: {t(e.event)}"
    if isinstance(e, EventDiscarded):
        return f"event card discarded: {t(e.event)}"
    if isinstance(e, EventsReshuffled):
        return f"all {e.cards} event cards reshuffled into a new pile"
    if isinstance(e, TacticsChosen):
        if viewer is not None and viewer != e.side and not e.tactics:
            return f"{_side(e.side)} has chosen tactic cards"
        return f"{_side(e.side)} takes tactic cards: {', '.join(t(x) for x in e.tactics) or 'none'}"
    if isinstance(e, BattleBegins):
        return f"-- {e.year}, battle {e.number}"
    if isinstance(e, CampaignCardDeclared):
        return f"{_side(e.side)} declares the campaign card {t(e.card)}"
    if isinstance(e, CampaignCardPassed):
        return f"{_side(e.side)} declares no campaign card"
    if isinstance(e, CardPlaced):
        if e.what == "none":
            return (
                f"{_side(e.side)} places no tactic card"
                if viewer in (None, e.side)
                else f"{_side(e.side)} is done placing"
            )
        if viewer is not None and viewer != e.side:
            return f"{_side(e.side)} places a {e.what} card face down"
        return f"{_side(e.side)} places {t(e.card or '')} face down"
    if isinstance(e, TacticRevealed):
        if e.tactic is None:
            return f"{_side(e.side)} played no tactic card"
        return f"{_side(e.side)} reveals {t(e.tactic)}" + (" (cancelled)" if e.cancelled else "")
    if isinstance(e, BattleCardsRevealed):
        return f"battle cards: {t(e.german)} vs {t(e.soviet)}"
    if isinstance(e, BattleScored):

        def steps(s: tuple[tuple[str, int], ...]) -> str:
            return " ".join(f"{v:+d} {lbl}" if i else f"{v} {lbl}" for i, (lbl, v) in enumerate(s))

        return f"score: German {e.german} ({steps(e.german_steps)}) - Soviet {e.soviet} ({steps(e.soviet_steps)})"
    if isinstance(e, BattleFought):
        return f"battle fought as {e.scenario}: {_side(e.winner)} wins the game (saved to {e.game})"
    if isinstance(e, BattleWon):
        return f"{_side(e.side)} wins battle {e.number} of {e.year} ({e.reason})"
    if isinstance(e, BattleStalemate):
        return f"{_side(e.side)} withdraws: battle {e.number} of {e.year} is won by nobody"
    if isinstance(e, Promoted):
        return f"{_side(e.side)} is promoted to {cards.ranks[e.rank - 1].title}"
    if isinstance(e, EventSwapped):
        return f"{_side(e.side)} sends {t(e.old)} to the bottom of the pile and reveals {t(e.new)}"
    if isinstance(e, YearWon):
        if e.side is None:
            return f"{e.year} is tied {e.german_wins}-{e.soviet_wins}: nobody wins the year card"
        if e.german_wins == e.soviet_wins:
            return (
                f"{e.year} is tied {e.german_wins}-{e.soviet_wins}: the year card goes to the initiative "
                f"holder, {_side(e.side)}"
            )
        return f"{_side(e.side)} wins the {e.year} year card ({e.german_wins}-{e.soviet_wins} in battles)"
    if isinstance(e, WarOver):
        return f"=== the war is over: {_side(e.winner) + ' wins' if e.winner else 'a draw'} ({e.reason})"
    return e.kind
