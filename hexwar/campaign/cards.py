"""Campaign card definitions (002, R11.2): frozen, loaded from ``hexwar/data/campaign/*.toml``.

Every card effect is typed data (R4.3's idea extended to the campaign): an :class:`Effect`
of a closed :class:`CampaignEffectKind` with a value and optional selectors, checked per card
kind (an event may not ``cancel_opponent_tactic``, a tactic may not select an ``arm``...).
Nothing read from a file is ever interpreted as text at run time; every card's help text is
generated from its effects (:func:`effect_text`, :func:`card_help`).

The loader collects every problem of every file before it raises (:class:`ValidationError`),
each naming the file, the field (``tactic.bluff.effects[0].kind``) and what was expected.

>>> cards = default_campaign_cards()
>>> len(cards.battle_cards("german")), len(cards.tactics), len(cards.events)
(7, 5, 10)
>>> effect_text(cards.tactics["flank_attack"].effects[0])
'+3 to your armour battle score'
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import Problem, ValidationError
from ..fileio import read_toml

__all__ = [
    "SIDES",
    "ARMS",
    "FILE_FORMAT",
    "CampaignEffectKind",
    "Effect",
    "BattleCard",
    "TacticCard",
    "EventCard",
    "CampaignCard",
    "Rank",
    "YearCard",
    "CampaignRules",
    "CampaignCards",
    "HexBattleRules",
    "load_campaign_cards",
    "default_campaign_cards",
    "validate_campaign_card_file",
    "effect_text",
    "card_help",
    "DATA_DIR",
]

SIDES = ("german", "soviet")
ARMS = ("armour", "infantry", "artillery", "air")
FILE_FORMAT = "hexwar-campaign-cards"
SCHEMA_VERSION = 1
DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "campaign"
FILE_KINDS = ("rules", "years", "ranks", "battle", "tactics", "campaign", "events", "hex_battles")


class CampaignEffectKind(enum.StrEnum):
    """The closed vocabulary of campaign card effects (R4.3 extended, R11.2).

    The values are the TOML ``kind`` strings.
    """

    SCORE = "score"  # value: added to the owner's (event: the selected side's) battle score
    OPPONENT_SCORE = "opponent_score"  # value: added to the opponent's battle score
    CANCEL_OPPONENT_TACTIC = "cancel_opponent_tactic"  # the opponent's tactic card has no effect
    RETURNS_TO_HAND = "returns_to_hand"  # the card goes back to the hand after use (002: Bluff)
    WINS_DRAWS = "wins_draws"  # the owner wins a drawn battle, whoever holds the initiative
    LOSS_IS_STALEMATE = "loss_is_stalemate"  # a battle the owner would lose is won by nobody


# kind -> (takes a value, card kinds it may appear on, may select side/arm, help template)
_SPECS: dict[CampaignEffectKind, tuple[bool, frozenset[str], bool, str]] = {
    CampaignEffectKind.SCORE: (
        True,
        frozenset({"tactics", "campaign", "events"}),
        True,
        "{value:+d} to {whose}",
    ),
    CampaignEffectKind.OPPONENT_SCORE: (
        True,
        frozenset({"tactics", "campaign"}),
        False,
        "{value:+d} to the opponent's battle score",
    ),
    CampaignEffectKind.CANCEL_OPPONENT_TACTIC: (
        False,
        frozenset({"tactics"}),
        False,
        "the opponent's tactic card has no effect",
    ),
    CampaignEffectKind.RETURNS_TO_HAND: (
        False,
        frozenset({"tactics"}),
        False,
        "returns to your hand after use (not discarded)",
    ),
    CampaignEffectKind.WINS_DRAWS: (
        False,
        frozenset({"tactics", "campaign"}),
        False,
        "you win a drawn battle even without the initiative",
    ),
    CampaignEffectKind.LOSS_IS_STALEMATE: (
        False,
        frozenset({"tactics"}),
        False,
        "if you would lose, nobody wins the battle",
    ),
}


@dataclass(frozen=True, slots=True)
class Effect:
    """One typed card effect.

    Attributes:
        kind: what it does.
        value: its number (score points) for kinds that take one, else 0.
        side: events only: the side it applies to (``None``: both).
        arm: events/campaign/tactic ``score`` only: the arm of battle card it applies to
            (``None``: every arm).
    """

    kind: CampaignEffectKind
    value: int = 0
    side: str | None = None
    arm: str | None = None

    def applies(self, side: str, arm: str) -> bool:
        """Whether this effect's selectors match a battle card of ``side`` and ``arm``."""
        return (self.side is None or self.side == side) and (self.arm is None or self.arm == arm)


@dataclass(frozen=True, slots=True)
class BattleCard:
    """A battle card (002): one of a side's seven formations.

    Attributes:
        id: card id (``"de_panzer_division"``), unique over both sides.
        side: ``"german"`` or ``"soviet"``.
        title: display name.
        arm: armour | infantry | artillery | air (events select by arm).
        value: strength, the start of the battle score (002 Rules .2).
        note: flavour text (never interpreted).
    """

    id: str
    side: str
    title: str
    arm: str
    value: int
    note: str = ""


@dataclass(frozen=True, slots=True)
class TacticCard:
    """A tactic card (002 Rules .2); each side owns one copy of each.

    Attributes:
        id: card id.
        title: display name.
        effects: its typed effects.
        note: flavour text.
    """

    id: str
    title: str
    effects: tuple[Effect, ...]
    note: str = ""

    def has(self, kind: CampaignEffectKind) -> bool:
        """Whether the card carries an effect of ``kind``."""
        return any(e.kind == kind for e in self.effects)


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card (002 Rules .3): in play for a whole year (or until swapped)."""

    id: str
    title: str
    effects: tuple[Effect, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class CampaignCard:
    """A campaign card (002 Rules .3): usable once per war, cannot be countered."""

    id: str
    side: str
    title: str
    effects: tuple[Effect, ...]
    note: str = ""

    def has(self, kind: CampaignEffectKind) -> bool:
        """Whether the card carries an effect of ``kind``."""
        return any(e.kind == kind for e in self.effects)


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank of the rankings card: ``order`` 1 (Corporal) .. 5 (Field Marshal)."""

    id: str
    order: int
    title: str
    tactic_cards: int


@dataclass(frozen=True, slots=True)
class YearCard:
    """A year card: ``initiative`` is ``"german"``, ``"soviet"`` or ``"draw"`` (002 Rules .1)."""

    id: str
    year: int
    title: str
    initiative: str


@dataclass(frozen=True, slots=True)
class CampaignRules:
    """The campaign's numbers (``rules.toml``)."""

    battles_per_year: int = 7
    wins_to_promote: int = 2
    years_to_win: int = 3
    events_per_year: int = 1


@dataclass(frozen=True, slots=True)
class HexBattleRules:
    """``--battles hex``: shipped scenario names per year and the force-scaling floor."""

    scenarios: dict[int, tuple[str, ...]]
    min_units: int = 1


@dataclass(frozen=True)
class CampaignCards:
    """Every campaign definition, by id.

    Attributes:
        rules: the numbers.
        years: year cards in year order.
        ranks: ranks, lowest first.
        battle: battle cards by id (both sides).
        tactics: tactic cards by id (file order).
        campaign: campaign cards by id.
        events: event cards by id (file order: the order the deck starts in before a shuffle).
    """

    rules: CampaignRules
    years: tuple[YearCard, ...]
    ranks: tuple[Rank, ...]
    battle: dict[str, BattleCard]
    tactics: dict[str, TacticCard]
    campaign: dict[str, CampaignCard]
    events: dict[str, EventCard]
    hex_battles: HexBattleRules = HexBattleRules({})

    def __post_init__(self) -> None:
        by_side = {s: tuple(c.id for c in self.battle.values() if c.side == s) for s in SIDES}
        object.__setattr__(self, "_by_side", by_side)

    def battle_cards(self, side: str) -> tuple[str, ...]:
        """The ids of ``side``'s battle cards, in file order."""
        return self._by_side[side]  # type: ignore[attr-defined, no-any-return]

    def campaign_cards(self, side: str) -> tuple[str, ...]:
        """The ids of ``side``'s campaign cards, in file order."""
        return tuple(c.id for c in self.campaign.values() if c.side == side)

    def year(self, year: int) -> YearCard:
        """The year card of ``year``.

        Raises:
            KeyError: for a year without a card.
        """
        for y in self.years:
            if y.year == year:
                return y
        raise KeyError(year)

    def title(self, card_id: str) -> str:
        """The display title of any campaign card id (the id itself when unknown)."""
        for table in (self.battle, self.tactics, self.campaign, self.events):
            if card_id in table:
                return table[card_id].title  # type: ignore[attr-defined, no-any-return]
        for y in self.years:
            if y.id == card_id:
                return y.title
        return card_id


# -- help text -------------------------------------------------------------------------------
def effect_text(e: Effect, on: str = "tactics") -> str:
    """One effect as readable text, generated from its data.

    Args:
        e: the effect.
        on: the card kind it sits on (``"events"`` names the side instead of "your").

    >>> effect_text(Effect(CampaignEffectKind.SCORE, -2, side="german", arm="armour"), on="events")
    '-2 to the German armour battle score'
    """
    _, _, _, template = _SPECS[e.kind]
    if on == "events":
        who = f"the {e.side.capitalize()}" if e.side else "every"
        whose = f"{who} {e.arm + ' ' if e.arm else ''}battle score"
        return template.format(value=e.value, whose=whose)
    whose = f"your {e.arm + ' ' if e.arm else ''}battle score"
    return template.format(value=e.value, whose=whose)


def card_help(cards: CampaignCards, card_id: str) -> str:
    """The full help text of a card: title, value or effects, all generated from data.

    Raises:
        KeyError: for an unknown card id.
    """
    if card_id in cards.battle:
        b = cards.battle[card_id]
        return f"{b.title} ({b.side.capitalize()} {b.arm}): strength {b.value}"
    if card_id in cards.tactics:
        t = cards.tactics[card_id]
        return f"{t.title} (tactic): " + "; ".join(effect_text(e, "tactics") for e in t.effects)
    if card_id in cards.campaign:
        c = cards.campaign[card_id]
        return (
            f"{c.title} ({c.side.capitalize()} campaign card, once per war, cannot be countered): "
            + "; ".join(effect_text(e, "campaign") for e in c.effects)
        )
    if card_id in cards.events:
        ev = cards.events[card_id]
        return f"{ev.title} (event): " + "; ".join(effect_text(e, "events") for e in ev.effects)
    raise KeyError(card_id)


# -- loading -------------------------------------------------------------------------------
class _Reader:
    """One campaign file's problems, each naming the file."""

    def __init__(self, src: str, problems: list[Problem]):
        self.src = src
        self.problems = problems

    def bad(self, where: str, msg: str) -> None:
        self.problems.append(Problem(self.src, where, msg))


def _effects(effects: Any) -> tuple[Effect, ...]:
    return tuple(Effect(CampaignEffectKind(e.kind), e.value or 0, e.side, e.arm) for e in effects)


def _parse_file(data: dict[str, Any], r: _Reader, acc: dict[str, Any]) -> None:
    """Read one campaign file into ``acc`` (by kind): its typed model
    (:mod:`hexwar.formats.campaign_file`, issue 34) checks fields, types and each effect (what
    its kind takes, on which cards); then years that follow one another and rank orders without
    gaps (002). Problems go to ``r``."""
    from ..formats.campaign_file import CAMPAIGN_MODELS, CampaignHeader, CampaignKind
    from ..model.filemodel import check, read_lenient

    head, _ = check(CampaignKind, data, r.src)
    if head is None:
        r.problems.extend(check(CampaignHeader, data, r.src)[1])
        return
    read = read_lenient(CAMPAIGN_MODELS[head.kind], data, r.src)
    r.problems.extend(read.problems)
    m = read.value
    if m is None:
        return
    semantic = _Reader(r.src, [])
    if read.problems:  # counts across the files are made over cards read whole only
        acc = {}
    if head.kind == "rules":
        acc["rules"] = CampaignRules(m.battles_per_year, m.wins_to_promote, m.years_to_win, m.events_per_year)
    elif head.kind == "years":
        ys = sorted(
            (YearCard(cid, y.year, y.title, y.initiative) for cid, y in m.year.items()), key=lambda y: y.year
        )
        for a, b in zip(ys, ys[1:], strict=False):
            if b.year != a.year + 1:
                semantic.bad("year", f"years must follow one another; {a.year} is followed by {b.year}")
        acc["years"] = tuple(ys)
    elif head.kind == "ranks":
        rs = sorted(
            (Rank(cid, x.order, x.title, x.tactic_cards) for cid, x in m.rank.items()), key=lambda x: x.order
        )
        if [x.order for x in rs] != list(range(1, len(rs) + 1)):
            semantic.bad("rank", f"expected orders 1..{len(rs)} without gaps, got {[x.order for x in rs]}")
        acc["ranks"] = tuple(rs)
    elif head.kind == "battle":
        acc["battle"] = {
            cid: BattleCard(cid, c.side, c.title, c.arm, c.value, c.note) for cid, c in m.battle.items()
        }
    elif head.kind == "tactics":
        acc["tactics"] = {
            cid: TacticCard(cid, c.title, _effects(c.effects), c.note) for cid, c in m.tactic.items()
        }
    elif head.kind == "campaign":
        acc["campaign"] = {
            cid: CampaignCard(cid, c.side, c.title, _effects(c.effects), c.note)
            for cid, c in m.campaign.items()
        }
    elif head.kind == "hex_battles":
        acc["hex_battles"] = HexBattleRules({int(y): tuple(n) for y, n in m.year.items()}, m.min_units)
    elif head.kind == "events":
        acc["events"] = {
            cid: EventCard(cid, c.title, _effects(c.effects), c.note) for cid, c in m.event.items()
        }
    r.problems.extend(read.semantic(semantic.problems))


def validate_campaign_card_file(path: str) -> None:
    """Validate one campaign card file on its own (``hexwar validate``).

    Raises:
        ValidationError: with every problem found.
    """
    problems: list[Problem] = []
    _parse_file(read_toml(path), _Reader(str(path), problems), {})
    if problems:
        raise ValidationError(problems)


def load_campaign_cards(folder: str | Path = DATA_DIR) -> CampaignCards:
    """Load and cross-check every campaign card file of ``folder`` (R11.2).

    Cross-checks: one file of each kind; 7 battle cards per side (``battles_per_year``);
    5 tactic cards, one per rank's maximum; ids unique over all kinds; at least
    ``events_per_year`` x 2 event cards (so ``--events 2`` can be played).

    Raises:
        ValidationError: with every problem of every file.
    """
    folder = Path(folder)
    problems: list[Problem] = []
    acc: dict[str, Any] = {}
    files = sorted(folder.glob("*.toml"))
    seen_kinds: dict[str, str] = {}
    for f in files:
        data = read_toml(f)
        kind = data.get("kind")
        if isinstance(kind, str) and kind in seen_kinds:
            problems.append(
                Problem(str(f), "kind", f"a second {kind!r} file (the first is {seen_kinds[kind]})")
            )
            continue
        if isinstance(kind, str):
            seen_kinds[kind] = str(f)
        _parse_file(data, _Reader(str(f), problems), acc)
    src = str(folder)
    for k in FILE_KINDS:
        if k == "hex_battles":
            continue  # optional
        if k not in acc and k not in seen_kinds:
            problems.append(Problem(src, k, f"no campaign card file of kind {k!r} in {folder}"))
    rules: CampaignRules = acc.get("rules", CampaignRules())
    battle: dict[str, BattleCard] = acc.get("battle", {})
    for s in SIDES:
        n = sum(1 for c in battle.values() if c.side == s)
        if battle and n != rules.battles_per_year:
            problems.append(
                Problem(src, f"battle ({s})", f"{n} battle cards; expected {rules.battles_per_year} (002)")
            )
    ranks: tuple[Rank, ...] = acc.get("ranks", ())
    tactics: dict[str, TacticCard] = acc.get("tactics", {})
    if ranks and tactics and ranks[-1].tactic_cards != len(tactics):
        problems.append(
            Problem(
                src,
                "ranks",
                f"the highest rank chooses {ranks[-1].tactic_cards} tactic cards; "
                f"expected all {len(tactics)} (002 Rules .3)",
            )
        )
    if ranks and ranks[0].tactic_cards != 1:
        problems.append(
            Problem(src, "ranks", "the first rank (Corporal) chooses 1 tactic card (002 Rules .1)")
        )
    ids: dict[str, str] = {}
    for kind in ("battle", "tactics", "campaign", "events"):
        for cid in acc.get(kind, {}):
            if cid in ids:
                problems.append(Problem(src, cid, f"id used by both {ids[cid]} and {kind} cards"))
            ids[cid] = kind
    events: dict[str, EventCard] = acc.get("events", {})
    if events and len(events) < 2:
        problems.append(Problem(src, "events", "expected at least 2 event cards (--events 2)"))
    if problems:
        raise ValidationError(problems)
    return CampaignCards(
        rules,
        acc["years"],
        ranks,
        battle,
        tactics,
        acc["campaign"],
        events,
        acc.get("hex_battles", HexBattleRules({})),
    )


@functools.lru_cache(maxsize=1)
def default_campaign_cards() -> CampaignCards:
    """The package's campaign cards (loaded once)."""
    return load_campaign_cards(DATA_DIR)
