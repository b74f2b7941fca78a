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
    tied_year: str = "initiative"
    """Who takes the card of a year tied in battles won: ``"initiative"`` (hexwar's rule, the
    holder of the initiative card, as in a drawn battle; docs/campaign.md "How wars end") or
    ``"nobody"`` (002 as written: the card stays unclaimed)."""


TIED_YEAR_RULES = ("initiative", "nobody")
"""The values of ``tied_year`` in rules.toml (:class:`CampaignRules`)."""


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
    def __init__(self, src: str, problems: list[Problem]):
        self.src = src
        self.problems = problems

    def bad(self, where: str, msg: str) -> None:
        self.problems.append(Problem(self.src, where, msg))

    def text(self, t: dict[str, Any], key: str, where: str, required: bool = True) -> str:
        v = t.get(key)
        if v is None and not required:
            return ""
        if not isinstance(v, str) or (required and not v.strip()):
            self.bad(f"{where}.{key}", f"expected text, got {v!r}")
            return ""
        return v

    def integer(self, t: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
        v = t.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            self.bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {v!r}")
            return lo
        return v

    def keys(self, t: dict[str, Any], where: str, known: set[str]) -> None:
        for k in t:
            if k not in known:
                self.bad(f"{where}.{k}", f"unknown field; expected one of {sorted(known)}")

    def side(self, t: dict[str, Any], where: str) -> str:
        v = t.get("side")
        if v not in SIDES:
            self.bad(f"{where}.side", f'expected "german" or "soviet", got {v!r}')
            return "german"
        return str(v)


def _header(data: dict[str, Any], r: _Reader) -> str:
    if data.get("format") != FILE_FORMAT:
        r.bad("format", f'expected "{FILE_FORMAT}", got {data.get("format")!r}')
    if data.get("schema_version") != SCHEMA_VERSION:
        r.bad("schema_version", f"expected {SCHEMA_VERSION}, got {data.get('schema_version')!r}")
    kind = data.get("kind")
    if kind not in FILE_KINDS:
        r.bad("kind", f"expected one of {list(FILE_KINDS)}, got {kind!r}")
        return ""
    return str(kind)


def _effects(t: dict[str, Any], where: str, on: str, r: _Reader) -> tuple[Effect, ...]:
    raw = t.get("effects")
    if not isinstance(raw, list) or not raw:
        r.bad(f"{where}.effects", "expected a non-empty list of { kind = ..., ... } tables")
        return ()
    out: list[Effect] = []
    for i, e in enumerate(raw):
        w = f"{where}.effects[{i}]"
        if not isinstance(e, dict):
            r.bad(w, "expected a table { kind = ... }")
            continue
        try:
            kind = CampaignEffectKind(str(e.get("kind")))
        except ValueError:
            r.bad(
                f"{w}.kind", f"expected one of {[k.value for k in CampaignEffectKind]}, got {e.get('kind')!r}"
            )
            continue
        takes_value, allowed_on, selects, _ = _SPECS[kind]
        if on not in allowed_on:
            r.bad(
                f"{w}.kind", f"{kind.value!r} is not allowed on {on} cards (allowed on {sorted(allowed_on)})"
            )
            continue
        known = (
            {"kind"}
            | ({"value"} if takes_value else set())
            | ({"arm"} | ({"side"} if on == "events" else set()) if selects else set())
        )
        r.keys(e, w, known)
        value = 0
        if takes_value:
            value = r.integer(e, "value", w, -9, 9)
            if value == 0:
                r.bad(f"{w}.value", "expected a non-zero score change")
        side = e.get("side")
        if side is not None and side not in SIDES:
            r.bad(f"{w}.side", f'expected "german" or "soviet", got {side!r}')
            side = None
        arm = e.get("arm")
        if arm is not None and arm not in ARMS:
            r.bad(f"{w}.arm", f"expected one of {list(ARMS)}, got {arm!r}")
            arm = None
        out.append(Effect(kind, value, side, arm))
    return tuple(out)


def _table(data: dict[str, Any], name: str, r: _Reader) -> dict[str, dict[str, Any]]:
    t = data.get(name)
    if not isinstance(t, dict) or not t:
        r.bad(name, f"expected [{name}.ID] tables")
        return {}
    out: dict[str, dict[str, Any]] = {}
    for cid, body in t.items():
        if not isinstance(body, dict):
            r.bad(f"{name}.{cid}", "expected a table")
            continue
        out[cid] = body
    return out


def _parse_file(data: dict[str, Any], r: _Reader, acc: dict[str, Any]) -> None:
    kind = _header(data, r)
    header = {"format", "schema_version", "kind"}
    if kind == "rules":
        r.keys(
            data,
            "",
            header
            | {
                "battles_per_year",
                "wins_to_promote",
                "years_to_win",
                "events_per_year",
                "tied_year",
            },
        )
        tied = r.text(data, "tied_year", "", required=False) or "initiative"
        if tied not in TIED_YEAR_RULES:
            r.bad("tied_year", f"expected one of {', '.join(TIED_YEAR_RULES)}, got {tied!r}")
            tied = "initiative"
        acc["rules"] = CampaignRules(
            battles_per_year=r.integer(data, "battles_per_year", "", 1, 20),
            wins_to_promote=r.integer(data, "wins_to_promote", "", 1, 20),
            years_to_win=r.integer(data, "years_to_win", "", 1, 5),
            events_per_year=r.integer(data, "events_per_year", "", 1, 2),
            tied_year=tied,
        )
    elif kind == "years":
        r.keys(data, "", header | {"year"})
        ys = []
        for cid, t in _table(data, "year", r).items():
            w = f"year.{cid}"
            r.keys(t, w, {"year", "title", "initiative"})
            ini = t.get("initiative")
            if ini not in ("german", "soviet", "draw"):
                r.bad(f"{w}.initiative", f'expected "german", "soviet" or "draw", got {ini!r}')
                ini = "draw"
            ys.append(YearCard(cid, r.integer(t, "year", w, 1939, 1950), r.text(t, "title", w), str(ini)))
        ys.sort(key=lambda y: y.year)
        for a, b in zip(ys, ys[1:], strict=False):
            if b.year != a.year + 1:
                r.bad("year", f"years must follow one another; {a.year} is followed by {b.year}")
        acc["years"] = tuple(ys)
    elif kind == "ranks":
        r.keys(data, "", header | {"rank"})
        rs = []
        for cid, t in _table(data, "rank", r).items():
            w = f"rank.{cid}"
            r.keys(t, w, {"order", "title", "tactic_cards"})
            rs.append(
                Rank(
                    cid,
                    r.integer(t, "order", w, 1, 10),
                    r.text(t, "title", w),
                    r.integer(t, "tactic_cards", w, 0, 5),
                )
            )
        rs.sort(key=lambda x: x.order)
        if [x.order for x in rs] != list(range(1, len(rs) + 1)):
            r.bad("rank", f"expected orders 1..{len(rs)} without gaps, got {[x.order for x in rs]}")
        acc["ranks"] = tuple(rs)
    elif kind == "battle":
        r.keys(data, "", header | {"battle"})
        out: dict[str, BattleCard] = {}
        for cid, t in _table(data, "battle", r).items():
            w = f"battle.{cid}"
            r.keys(t, w, {"side", "title", "arm", "value", "note"})
            arm = t.get("arm")
            if arm not in ARMS:
                r.bad(f"{w}.arm", f"expected one of {list(ARMS)}, got {arm!r}")
                arm = ARMS[0]
            out[cid] = BattleCard(
                cid,
                r.side(t, w),
                r.text(t, "title", w),
                str(arm),
                r.integer(t, "value", w, 0, 20),
                r.text(t, "note", w, required=False),
            )
        acc["battle"] = out
    elif kind == "tactics":
        r.keys(data, "", header | {"tactic"})
        acc["tactics"] = {}
        for cid, t in _table(data, "tactic", r).items():
            w = f"tactic.{cid}"
            r.keys(t, w, {"title", "effects", "note"})
            acc["tactics"][cid] = TacticCard(
                cid, r.text(t, "title", w), _effects(t, w, "tactics", r), r.text(t, "note", w, required=False)
            )
    elif kind == "campaign":
        r.keys(data, "", header | {"campaign"})
        acc["campaign"] = {}
        for cid, t in _table(data, "campaign", r).items():
            w = f"campaign.{cid}"
            r.keys(t, w, {"side", "title", "effects", "note"})
            acc["campaign"][cid] = CampaignCard(
                cid,
                r.side(t, w),
                r.text(t, "title", w),
                _effects(t, w, "campaign", r),
                r.text(t, "note", w, required=False),
            )
    elif kind == "hex_battles":
        r.keys(data, "", header | {"year", "min_units"})
        per: dict[int, tuple[str, ...]] = {}
        years = data.get("year", {})
        if not isinstance(years, dict):
            r.bad("year", "expected a table YEAR = [scenario names]")
            years = {}
        for y, names in years.items():
            if not (str(y).isdigit() and 1939 <= int(y) <= 1950):
                r.bad(f"year.{y}", "expected a year 1939..1950")
                continue
            if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
                r.bad(f"year.{y}", "expected a list of scenario names")
                continue
            per[int(y)] = tuple(names)
        acc["hex_battles"] = HexBattleRules(per, r.integer(data, "min_units", "", 0, 50))
    elif kind == "events":
        r.keys(data, "", header | {"event"})
        acc["events"] = {}
        for cid, t in _table(data, "event", r).items():
            w = f"event.{cid}"
            r.keys(t, w, {"title", "effects", "note"})
            acc["events"][cid] = EventCard(
                cid, r.text(t, "title", w), _effects(t, w, "events", r), r.text(t, "note", w, required=False)
            )


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
