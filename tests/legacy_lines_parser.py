"""The line scenario parser before issue 34 gave the line scenario its model (main at 83fb709),
kept as a frozen test oracle for tests/test_lines_model_equivalence.py. Not used by hexwar."""

# ruff: noqa
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from hexwar.errors import HexwarError, Problem, ValidationError
from hexwar.lines.commands import SEATS_2P, SEATS_4P, side_of_seat
from hexwar.lines.state import SIDES
from hexwar.lines.scenario import LinesScenario, LinesSide, StartingUnit, deck_problems, random_deck
from hexwar.rules.cards import default_cards
from hexwar.rules.dice import Dice


def old_parse_lines_scenario(data: dict[str, Any], text: str, path: Path | None) -> LinesScenario:
    """Validate a ``mode = "lines"`` scenario's TOML data (every problem collected).

    Raises:
        ValidationError: listing every problem (file, field, expectation).
    """
    from hexwar.game.scenario import KNOWN_VARIANTS, SCENARIO_FORMAT, SCENARIO_SCHEMA_VERSION

    # the id pattern the old loader held (game/scenario.py no longer has it since fd4aeaf moved
    # the checks out; the frozen parser keeps its own copy, as legacy_scenario_loader does)
    _ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

    cards = default_cards()
    src = str(path) if path is not None else "<memory>"
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    def known(table: dict[str, Any], where: str, keys: set[str]) -> None:
        for k in table:
            if k not in keys:
                bad(f"{where}.{k}" if where else k, f"unknown field; expected one of {sorted(keys)}")

    def get_int(t: dict[str, Any], k: str, where: str, lo: int, hi: int, default: int) -> int:
        v = t.get(k, default)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            bad(f"{where}.{k}", f"expected an integer {lo}..{hi}, got {v!r}")
            return default
        return v

    def get_strs(t: dict[str, Any], k: str, where: str) -> tuple[str, ...]:
        v = t.get(k, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            bad(f"{where}.{k}", "expected a list of text")
            return ()
        return tuple(v)

    known(data, "", {"format", "schema_version", "mode", "scenario", "sides", "win"})
    if data.get("format", SCENARIO_FORMAT) != SCENARIO_FORMAT:
        bad("format", f'expected "{SCENARIO_FORMAT}"')
    if data.get("schema_version", SCENARIO_SCHEMA_VERSION) != SCENARIO_SCHEMA_VERSION:
        bad("schema_version", f"expected {SCENARIO_SCHEMA_VERSION}")
    sc = data.get("scenario")
    if not isinstance(sc, dict):
        bad("scenario", "missing [scenario] table")
        sc = {}
    known(
        sc,
        "scenario",
        {
            "id",
            "name",
            "description",
            "seed",
            "players",
            "victory_points",
            "overrun",
            "turns",
            "rules",
            "events",
            "special_rules",
            "events_in_play",
        },
    )
    sid = sc.get("id")
    if not isinstance(sid, str) or not _ID_RE.match(sid):
        bad("scenario.id", f"expected 1-64 letters, digits, '-' or '_', got {sid!r}")
        sid = "lines"
    name = sc.get("name")
    if not isinstance(name, str):
        bad("scenario.name", "missing: expected text")
        name = sid
    desc = sc.get("description", "")
    if not isinstance(desc, str):
        bad("scenario.description", "expected text")
        desc = ""
    players = get_int(sc, "players", "scenario", 2, 4, 2)
    if players not in (2, 4):
        bad("scenario.players", f"expected 2 or 4, got {players}")
        players = 2
    vp = get_int(sc, "victory_points", "scenario", 1, 10_000, 51 if players == 2 else 76)
    overrun = sc.get("overrun", True)
    if not isinstance(overrun, bool):
        bad("scenario.overrun", "expected true or false")
        overrun = True
    variants = []
    for i, v in enumerate(get_strs(sc, "rules", "scenario")):
        if v not in KNOWN_VARIANTS or v == "burnout":
            bad(f"scenario.rules[{i}]", f'expected "standard" or "classic" on lines, got {v!r}')
        elif v != "standard":
            variants.append(v)
    events = get_strs(sc, "events", "scenario")
    started = get_strs(sc, "events_in_play", "scenario")
    for key, lst in (("events", events), ("events_in_play", started)):
        for i, e in enumerate(lst):
            if not cards.is_event(e):
                bad(
                    f"scenario.{key}[{i}]",
                    f"unknown Event card {e!r}; expected one of {sorted(cards.events)}",
                )
    sides_raw = data.get("sides")
    if not isinstance(sides_raw, dict):
        bad("sides", "missing [sides.german] and [sides.soviet]")
        sides_raw = {}
    known(sides_raw, "sides", set(SIDES))
    sides: dict[str, LinesSide] = {}
    default_budget = 100 if players == 2 else 75
    for side in SIDES:
        t = sides_raw.get(side, {})
        w = f"sides.{side}"
        if not isinstance(t, dict):
            bad(w, "expected a table")
            t = {}
        known(
            t,
            w,
            {
                "budget",
                "minimum",
                "pool",
                "reserves",
                "hand",
                "initiative",
                "victory_points",
                "no_aircraft_before",
                "max_card_cost",
                "exclude_types",
                "units",
            },
        )
        budget = get_int(t, "budget", w, 1, 200, default_budget)
        minimum = get_int(t, "minimum", w, 0, 200, min(80 if players == 2 else 60, budget))
        if minimum > budget:
            bad(f"{w}.minimum", f"{minimum} is above the budget {budget}")
        pool = get_strs(t, "pool", w)
        reserves = get_strs(t, "reserves", w)
        hand = get_strs(t, "hand", w)
        for key, lst in (("pool", pool), ("reserves", reserves), ("hand", hand)):
            for i, c in enumerate(lst):
                u = cards.units.get(c)
                if u is None or u.side != side:
                    bad(f"{w}.{key}[{i}]", f"expected a {side} unit card id, got {c!r}")
        if reserves:
            errs, _ = deck_problems(side, list(reserves), (minimum, budget))
            for e in errs:
                bad(f"{w}.reserves", e)
        if hand:
            if not reserves:
                bad(f"{w}.hand", "a fixed hand needs a fixed reserves list")
            elif any(hand.count(c) > reserves.count(c) for c in hand):
                bad(f"{w}.hand", "names cards the reserves list does not hold")
        exclude = get_strs(t, "exclude_types", w)
        units = []
        for i, ut in enumerate(t.get("units", []) if isinstance(t.get("units", []), list) else []):
            uw = f"{w}.units[{i}]"
            if not isinstance(ut, dict):
                bad(uw, "expected a table {card, line, crew}")
                continue
            known(ut, uw, {"card", "line", "crew", "seat"})
            uc = ut.get("card")
            u = cards.units.get(uc) if isinstance(uc, str) else None
            if u is None or u.side != side or u.is_crew:
                bad(f"{uw}.card", f"expected a {side} unit card id (not a crew), got {uc!r}")
                continue
            line = ut.get(
                "line",
                {"frontline": "front", "rear": "rear", "aircraft": "air", "frontline_or_rear": "front"}[
                    u.line
                ],
            )
            allowed = {
                "frontline": ("front",),
                "rear": ("rear",),
                "aircraft": ("air",),
                "frontline_or_rear": ("front", "rear"),
            }[u.line]
            if line not in allowed:
                bad(f"{uw}.line", f"{u.name} is committed to {' or '.join(allowed)}, not {line!r}")
                continue
            crew = ut.get("crew")
            if u.needs_crew:
                cu = cards.units.get(crew) if isinstance(crew, str) else None
                if cu is None or cu.unit_type != u.crew or cu.side != side:
                    bad(
                        f"{uw}.crew",
                        f"{u.name} needs a {side} {u.crew.replace('_', ' ')} card id, got {crew!r}",
                    )
                    continue
            elif crew is not None:
                bad(f"{uw}.crew", f"{u.name} needs no crew")
                continue
            seat = ut.get("seat")
            if seat is not None and (
                seat not in (SEATS_4P if players == 4 else SEATS_2P) or side_of_seat(seat) != side
            ):
                bad(f"{uw}.seat", f"expected a {side} seat of this game, got {seat!r}")
                seat = None
            units.append(StartingUnit(u.id, line, crew, seat))
        sv = t.get("victory_points")
        if sv is not None and (not isinstance(sv, int) or isinstance(sv, bool) or not 1 <= sv <= 10_000):
            bad(f"{w}.victory_points", f"expected an integer 1..10000, got {sv!r}")
            sv = None
        sides[side] = LinesSide(
            budget,
            minimum,
            pool,
            reserves,
            hand,
            get_int(t, "initiative", w, -5, 5, 0),
            sv,
            get_int(t, "no_aircraft_before", w, 0, 100, 0),
            get_int(t, "max_card_cost", w, 0, 100, 0),
            exclude,
            tuple(units),
        )
        if not problems and (not reserves or players == 4):  # the game deals it a random deck
            for role in (None,) if players == 2 else ("front", "support"):
                for trial in range(3):  # issue 33 (fuzz): validate what new_game will do
                    try:
                        random_deck(side, (minimum, budget), pool, Dice(trial), role, sides[side])
                    except HexwarError as exc:
                        bad(f"{w}.budget", f"{exc} (budget {budget}, minimum {minimum})")
                        break
                else:
                    continue
                break
    hold = None
    win = data.get("win", {})
    if not isinstance(win, dict):
        bad("win", "expected a table")
        win = {}
    known(win, "win", {"hold"})
    if "hold" in win:
        h = win["hold"]
        if (
            not isinstance(h, dict)
            or h.get("side") not in SIDES
            or not isinstance(h.get("turn"), int)
            or isinstance(h.get("turn"), bool)
            or not 1 <= h["turn"] <= 1000
        ):
            bad("win.hold", 'expected { side = "german" or "soviet", turn = 1..1000 }')
        else:
            hold = (str(h["side"]), int(h["turn"]))
    turns = get_int(sc, "turns", "scenario", 0, 1000, 0)
    if problems:
        raise ValidationError(problems)
    return LinesScenario(
        id=str(sid),
        name=str(name),
        sides=sides,
        description=desc,
        path=path,
        seed=get_int(sc, "seed", "scenario", 0, 2**63 - 1, 0),
        players=players,
        victory_points=vp,
        overrun=bool(overrun),
        turns=turns,
        variants=tuple(variants),
        events=events,
        special_rules=get_strs(sc, "special_rules", "scenario"),
        events_in_play=started,
        hold=hold,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
        reference=path.stem if path is not None else str(sid),
    )
