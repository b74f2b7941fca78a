"""The campaign card loader before issue 34 gave the campaign data its model (hexwar/campaign/cards.py
at 83fb709), kept as a frozen test oracle for tests/test_campaign_model_equivalence.py."""

# ruff: noqa
from __future__ import annotations

from pathlib import Path
from typing import Any

from hexwar.campaign.cards import (
    _SPECS,
    ARMS,
    DATA_DIR,
    FILE_FORMAT,
    FILE_KINDS,
    SCHEMA_VERSION,
    SIDES,
    BattleCard,
    CampaignCard,
    CampaignCards,
    CampaignEffectKind,
    CampaignRules,
    Effect,
    EventCard,
    HexBattleRules,
    Rank,
    TacticCard,
    YearCard,
)
from hexwar.errors import Problem, ValidationError
from hexwar.fileio import read_toml


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
            },
        )
        acc["rules"] = CampaignRules(
            battles_per_year=r.integer(data, "battles_per_year", "", 1, 20),
            wins_to_promote=r.integer(data, "wins_to_promote", "", 1, 20),
            years_to_win=r.integer(data, "years_to_win", "", 1, 5),
            events_per_year=r.integer(data, "events_per_year", "", 1, 2),
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


def old_validate_campaign_card_file(path: str) -> None:
    """Validate one campaign card file on its own (``hexwar validate``).

    Raises:
        ValidationError: with every problem found.
    """
    problems: list[Problem] = []
    _parse_file(read_toml(path), _Reader(str(path), problems), {})
    if problems:
        raise ValidationError(problems)


def old_load_campaign_cards(folder: str | Path = DATA_DIR) -> CampaignCards:
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
