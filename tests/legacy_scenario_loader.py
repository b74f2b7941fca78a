"""The hex scenario loader before issue 34 (main at 83fb709), kept as a frozen test oracle.

``old_build_scenario`` is ``hexwar.game.scenario.build_scenario`` as it was before the typed
model took over its shape checks: the schema first, then hand-written checks of every field
(``get_int``, ``get_str``, ``unknown_keys`` ...). tests/test_scenario_model_equivalence.py
compares it with the new loader on every shipped scenario and a seeded fuzz corpus. Not used by
hexwar itself; do not change it (it is what the new loader is compared with).
"""

# ruff: noqa
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from hexwar.errors import Problem, ValidationError, clip
from hexwar.formats.migrate import upgrade
from hexwar.formats.schema import merge_problems, schema_problems
from hexwar.game.areas import MAX_AREAS, parse_area_hexes
from hexwar.game.commands import SIDES
from hexwar.game.limits import HARD_TURN_CAP
from hexwar.game.modes import MODES, known_modes, mode_hook
from hexwar.game.scenario import (
    BUDGET_RANGE,
    KNOWN_VARIANTS,
    SCENARIO_FORMAT,
    SCENARIO_SCHEMA_VERSION,
    TARGET_TYPES,
    ArtillerySetup,
    ArtilleryWeapon,
    Battlefield,
    HoldVictory,
    Objective,
    Scenario,
    SideSetup,
    StartingUnit,
    _resolve_map,
    _scenario_hash,
    apply_battlefield,
    check_setup,
    parse_zone,
)
from hexwar.game.scenario_checks import max_points as _max_points
from hexwar.game.special import GROUNDS
from hexwar.model.hexgrid import Hex, HexLabelError
from hexwar.model.maps import BattleMap

_ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_NAME_MAX = 40


def parse_areas(  # the [areas] reader as it was (hexwar/game/areas.py at 83fb709)
    table: Any, battlemap: BattleMap, bad: Callable[[str, str], None]
) -> dict[str, tuple[Hex, ...]]:
    """Parse a scenario's ``[areas]`` table (name -> hex list), collecting every problem.

    Raises nothing: problems go to ``bad(field_path, expected)``.
    """
    if table is None:
        return {}
    if not isinstance(table, dict):
        bad("areas", "expected an [areas] table of name = [hex labels or ranges]")
        return {}
    if len(table) > MAX_AREAS:
        bad("areas", f"at most {MAX_AREAS} areas, got {len(table)}")
        return {}
    out: dict[str, tuple[Hex, ...]] = {}
    for name, items in table.items():
        where = f"areas.{str(name)[:_NAME_MAX]}"
        if not str(name).strip() or len(str(name)) > _NAME_MAX:
            bad(where, f"an area name of 1 to {_NAME_MAX} characters")
            continue
        hexes = parse_area_hexes(items, battlemap, where, bad)
        if hexes:
            out[str(name)] = hexes
    return out


def old_build_scenario(
    data: dict[str, Any],
    text: str,
    path: Path | None = None,
    battlemap: BattleMap | None = None,
    map_path: Path | None = None,
) -> Scenario:
    """Validate parsed scenario ``data`` (the TOML ``text`` it came from) and build the
    :class:`Scenario`; then set a game of it up (:func:`check_setup`), so whatever passes here
    also starts (issue 13 item 1). The one validator: :func:`load_scenario`,
    :func:`parse_scenario` and :meth:`hexwar.game.scenario_file.ScenarioFile.validate` call it.

    Args:
        data: the parsed TOML.
        text: its text (hashed into :attr:`Scenario.content_hash`).
        path: the file (map paths resolve relative to it; problems name it).
        battlemap: check against this map instead of loading ``scenario.map`` (the editor's
            unsaved map); ``map_path`` is where it will be saved.

    Raises:
        ValidationError: listing every problem.
    """
    from hexwar.game import ruleset

    src = str(path) if path is not None else "<memory>"
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    # R11.1: a scenario of another game mode is built by that mode (mode = "lines", hexwar.game.modes)
    mode = data.get("mode", "hex")
    if mode != "hex":
        if mode not in MODES:
            raise ValidationError(
                [Problem(src, "mode", f"expected one of {list(known_modes())}, got {clip(mode)}")]
            )
        return mode_hook(mode, "parse_scenario")(data, text, path)  # type: ignore[no-any-return]
    data = {k: v for k, v in data.items() if k != "mode"}
    # issue 19: upgrade an older schema_version in memory, then check the JSON Schema
    # (hexwar schema scenario) first; the checks below add what needs cards and the map.
    structural: list[Problem] = []
    try:
        data, _ = upgrade(data, "scenario", src)
    except ValidationError as exc:
        structural += exc.problems
        data = dict(data, schema_version=SCENARIO_SCHEMA_VERSION)
    structural += schema_problems(data, "scenario", src)

    def unknown_keys(table: dict[str, Any], where: str, known: set[str]) -> None:
        for k in table:
            if k not in known:
                bad(f"{where}.{k}" if where else k, f"unknown field; expected one of {sorted(known)}")

    def get_int(
        table: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int | None
    ) -> int | None:
        if key not in table:
            return default
        v = table[key]
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {clip(v)}")
            return default
        return v

    def get_str(
        table: dict[str, Any], key: str, where: str, default: str | None = None, required: bool = False
    ) -> str | None:
        if key not in table:
            if required:
                bad(f"{where}.{key}", "missing")
            return default
        v = table[key]
        if not isinstance(v, str):
            bad(f"{where}.{key}", f"expected text, got {clip(v)}")
            return default
        return v

    def get_list(table: dict[str, Any], key: str, where: str) -> list[Any]:
        v = table.get(key, [])
        if not isinstance(v, list):
            bad(f"{where}.{key}", f"expected a list, got {clip(v)}")
            return []
        return v

    unknown_keys(
        data,
        "",
        {"format", "schema_version", "scenario", "sides", "objectives", "victory", "areas", "battlefield"},
    )
    if "format" in data and data["format"] != SCENARIO_FORMAT:
        bad("format", f'expected "{SCENARIO_FORMAT}", got {clip(data["format"])}')
    if data.get("schema_version", SCENARIO_SCHEMA_VERSION) != SCENARIO_SCHEMA_VERSION:
        bad("schema_version", f"expected {SCENARIO_SCHEMA_VERSION}, got {clip(data.get('schema_version'))}")
    sc = data.get("scenario")
    if not isinstance(sc, dict):
        bad("scenario", "missing [scenario] table")
        sc = {}
    unknown_keys(
        sc,
        "scenario",
        {
            "id",
            "name",
            "description",
            "map",
            "seed",
            "turns",
            "victory_points",
            "overrun",
            "guns_move",
            "rules",
            "events",
            "override_reserves",
            "fog",
            "night",
            "ground",
        },
    )
    override_reserves = sc.get("override_reserves", False)
    if not isinstance(override_reserves, bool):
        bad("scenario.override_reserves", "expected true or false")
        override_reserves = True
    sid = get_str(sc, "id", "scenario", required=True) or "scenario"
    if not _ID_RE.match(sid):
        bad("scenario.id", f"expected 1-64 letters, digits, '-' or '_', got {clip(sid)}")
    name = get_str(sc, "name", "scenario", required=True) or sid
    description = get_str(sc, "description", "scenario", "") or ""
    seed = get_int(sc, "seed", "scenario", 0, 2**63 - 1, 0) or 0
    turns = get_int(sc, "turns", "scenario", 0, HARD_TURN_CAP, 0) or 0
    vp_target = get_int(sc, "victory_points", "scenario", 1, 10_000, 51) or 51
    overrun = sc.get("overrun", True)
    if not isinstance(overrun, bool):
        bad("scenario.overrun", "expected true or false")
        overrun = True
    guns_move = sc.get("guns_move", False)
    if not isinstance(guns_move, bool):
        bad("scenario.guns_move", "expected true or false")
        guns_move = False
    variants: list[str] = []
    fog = sc.get("fog", False)  # R12.2: `fog = true` is the same as rules = ["fog"]
    if not isinstance(fog, bool):
        bad("scenario.fog", "expected true or false")
        fog = False
    for i, v in enumerate(get_list(sc, "rules", "scenario")):
        if v not in KNOWN_VARIANTS:
            bad(f"scenario.rules[{i}]", f"unknown rule variant {clip(v)}; expected one of {KNOWN_VARIANTS}")
        elif v != "standard" and v not in variants:
            variants.append(v)
    if fog and "fog" not in variants:
        variants.append("fog")
    night: list[int] = []  # R10.6, R10.7
    for i, n in enumerate(get_list(sc, "night", "scenario")):
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= (turns or HARD_TURN_CAP):
            bad(f"scenario.night[{i}]", f"expected a turn number 1..{turns or HARD_TURN_CAP}, got {clip(n)}")
        elif n not in night:
            night.append(n)
    ground = sc.get("ground", "dry")
    if ground not in GROUNDS:
        bad("scenario.ground", f"expected one of {list(GROUNDS)}, got {clip(ground)}")
        ground = "dry"

    # map
    if "map" not in sc:
        bad("scenario.map", "missing: a shipped map name or a path relative to the scenario")
    elif battlemap is not None:  # the editor's map, checked in memory
        pass
    else:
        map_path = _resolve_map(sc["map"], path, bad)
        if map_path is not None:
            try:
                battlemap = BattleMap.load(map_path)
            except ValidationError as exc:
                for p in exc.problems:
                    bad("scenario.map", f"map file is broken: {p}")

    def on_map(h: Hex, where: str) -> bool:
        if battlemap is not None and not battlemap.in_bounds(h):
            bad(where, f"hex {h.label} is off the map ({battlemap.width} x {battlemap.height} hexes)")
            return False
        return True

    def parse_hex(v: Any, where: str) -> Hex | None:
        if not isinstance(v, str):
            bad(where, f"expected a hex label like 'D07', got {clip(v)}")
            return None
        try:
            h = Hex.from_label(v)
        except HexLabelError as exc:
            bad(where, str(exc))
            return None
        return h if on_map(h, where) else None

    # events
    events: list[str] = []
    for i, e in enumerate(get_list(sc, "events", "scenario")):
        where = f"scenario.events[{i}]"
        if not isinstance(e, str):
            bad(where, "expected an Event card id")
        elif not ruleset.is_event(e):
            bad(where, f"unknown Event card {clip(e)}; expected one of {ruleset.event_ids()}")
        elif e in events:
            bad(
                where,
                f"Event {clip(e)} is already chosen (scenario.events[{events.index(e)}]): the Command deck "
                "holds each Event card once (R4.3)",
            )
        else:
            events.append(e)

    # sides
    sides_t = data.get("sides")
    if not isinstance(sides_t, dict):
        bad("sides", "missing [sides.german] and [sides.soviet] tables")
        sides_t = {}
    for k in sides_t:
        if k not in SIDES:
            bad(f"sides.{k}", f"unknown side; expected one of {SIDES}")
    sides: dict[str, SideSetup] = {}
    occupancy: dict[Hex, list[str]] = {}
    for side in SIDES:
        where = f"sides.{side}"
        t = sides_t.get(side)
        if not isinstance(t, dict):
            bad(where, "missing table")
            continue
        unknown_keys(
            t,
            where,
            {
                "deploy",
                "reserves",
                "budget",
                "pool",
                "hand",
                "hand_size",
                "command_cards",
                "units",
                "artillery",
                "initiative",
                "max_copies",
            },
        )
        deploy: list[Hex] = []
        zone = get_list(t, "deploy", where)
        if not zone:
            bad(f"{where}.deploy", "expected at least one hex label or rectangle like 'A01:C22'")
        for i, z in enumerate(zone):
            zw = f"{where}.deploy[{i}]"
            if not isinstance(z, str):
                bad(zw, f"expected a hex label or rectangle, got {clip(z)}")
                continue
            try:
                hexes = parse_zone(z)
            except HexLabelError as exc:
                bad(zw, str(exc))
                continue
            off = [h for h in hexes if battlemap is not None and not battlemap.in_bounds(h)]
            if off:
                bad(
                    zw,
                    f"{clip(z)} reaches off the map ({len(off)} hex{'es' if len(off) != 1 else ''}, e.g. {off[0].label}); "
                    f"the map is {battlemap.width} x {battlemap.height} hexes"
                    if battlemap
                    else "off the map",
                )
                continue
            for h in hexes:
                if h not in deploy:
                    deploy.append(h)

        def card_list(key: str, sd: str = side, w: str = where, tbl: dict[str, Any] = t) -> list[str]:
            out = []
            for i, c in enumerate(get_list(tbl, key, w)):
                cw = f"{w}.{key}[{i}]"
                if not isinstance(c, str):
                    bad(cw, f"expected a unit card id, got {clip(c)}")
                    continue
                prob = ruleset.unit_card_problem(c, sd)
                if prob:
                    bad(cw, prob)
                    continue
                out.append(c)
            return out

        reserves = card_list("reserves")
        budget = get_int(t, "budget", where, BUDGET_RANGE[0], BUDGET_RANGE[1], None)
        pool = card_list("pool")
        if reserves and budget is not None:
            bad(where, "give either a fixed 'reserves' list or a 'budget', not both")
        if not reserves and budget is None and "reserves" not in t:
            bad(
                where,
                f"missing 'reserves' (a list of unit card ids) or 'budget' ({BUDGET_RANGE[0]}..{BUDGET_RANGE[1]} points)",
            )
        hand = card_list("hand")
        hand_size = get_int(t, "hand_size", where, 0, 7, 4) or 0
        cmd_cards = get_int(t, "command_cards", where, 0, 5, 3)
        initiative = get_int(t, "initiative", where, -9, 9, 0) or 0
        max_copies = get_int(t, "max_copies", where, 0, 20, 0) or 0
        if "max_copies" in t and budget is None:
            bad(
                f"{where}.max_copies",
                "limits a 'budget' deck drawn from the pool; this side has a fixed 'reserves' list",
            )
        if hand:
            if len(hand) > 7:
                bad(f"{where}.hand", f"{len(hand)} cards; the hand limit is 7 unit cards (R5.5)")
            if reserves:
                rest = list(reserves)
                for c in hand:
                    if c in rest:
                        rest.remove(c)
                    else:
                        bad(f"{where}.hand", f"{clip(c)} is not (or not often enough) in the Reserves deck")
            elif budget is not None:
                bad(f"{where}.hand", "a fixed hand needs a fixed 'reserves' list")
        units: list[StartingUnit] = []
        for i, u in enumerate(get_list(t, "units", where)):
            uw = f"{where}.units[{i}]"
            if not isinstance(u, dict):
                bad(uw, "expected a table with card, hex and optional crew")
                continue
            unknown_keys(u, uw, {"card", "hex", "crew"})
            cid = get_str(u, "card", uw, required=True)
            if cid is None:
                continue
            prob = ruleset.unit_card_problem(cid, side)
            if prob:
                bad(f"{uw}.card", prob)
                continue
            crew = get_str(u, "crew", uw)
            if crew is not None:
                prob = ruleset.unit_card_problem(crew, side)
                if prob:
                    bad(f"{uw}.crew", prob)
                    crew = None
            prob = ruleset.crew_problem(cid, crew)
            if prob:
                bad(uw, prob)
            hx: Hex | None = None
            if ruleset.is_aircraft(cid):
                if "hex" in u:
                    bad(f"{uw}.hex", "aircraft start aloft: give no hex")
            elif ruleset.is_crew(cid):
                bad(f"{uw}.card", f"{clip(cid)} is a crew card; give it as the 'crew' of the unit it rides")
            else:
                hx = parse_hex(u.get("hex"), f"{uw}.hex")
                if hx is None:
                    continue
                if battlemap is not None and not ruleset.can_stand(battlemap, hx, cid):
                    bad(
                        f"{uw}.hex",
                        f"{ruleset.card_name(cid)} may not stand in {hx.label} ({battlemap.terrain_at(hx).name})",
                    )
                occupancy.setdefault(hx, []).append(side)
            units.append(StartingUnit(cid, hx, crew))
        art: ArtillerySetup | None = None
        if "artillery" in t:
            art = _parse_artillery(t["artillery"], f"{where}.artillery", bad, get_int, get_str, unknown_keys)
        sides[side] = SideSetup(
            side,
            tuple(deploy),
            tuple(reserves),
            budget,
            tuple(pool),
            tuple(hand),
            hand_size,
            cmd_cards if cmd_cards is not None else 3,
            tuple(units),
            art,
            initiative,
            max_copies,
        )
    for h, ss in occupancy.items():
        if len(ss) > 3:
            bad(f"hex {h.label}", f"{len(ss)} starting ground units; the stacking limit is 3 (R5.2)")
        if len(set(ss)) > 1:
            bad(f"hex {h.label}", "starting units of both sides in one hex")
    if len(sides) == 2 and set(sides["german"].deploy) & set(sides["soviet"].deploy):
        both = sorted(set(sides["german"].deploy) & set(sides["soviet"].deploy))
        bad("sides", f"the deploy zones overlap in {len(both)} hexes, e.g. {both[0].label}")

    # objectives and victory
    objectives: list[Objective] = []
    objs = data.get("objectives", [])
    if not isinstance(objs, list):
        bad("objectives", "expected [[objectives]] tables")
        objs = []
    for i, o in enumerate(objs):
        ow = f"objectives[{i}]"
        if not isinstance(o, dict):
            bad(ow, "expected a table with hex, name, points, holder")
            continue
        unknown_keys(o, ow, {"hex", "name", "points", "holder"})
        oh = parse_hex(o.get("hex"), f"{ow}.hex")
        holder = o.get("holder")
        if holder is not None and holder not in SIDES:
            bad(f"{ow}.holder", f"expected one of {SIDES}")
            holder = None
        pts = get_int(o, "points", ow, 0, 1000, 0) or 0
        if oh is not None:
            if any(x.hex == oh for x in objectives):
                bad(f"{ow}.hex", f"{oh.label} is already an objective")
            objectives.append(Objective(oh, get_str(o, "name", ow, "") or "", pts, holder))
    hold: HoldVictory | None = None
    vic = data.get("victory", {})
    if not isinstance(vic, dict):
        bad("victory", "expected a table")
        vic = {}
    unknown_keys(vic, "victory", {"hold"})
    if "hold" in vic:
        ht = vic["hold"]
        if not isinstance(ht, dict):
            bad("victory.hold", "expected a table with side and turn")
        else:
            unknown_keys(ht, "victory.hold", {"side", "turn"})
            hs = ht.get("side")
            if hs not in SIDES:
                bad("victory.hold.side", f"expected one of {SIDES}")
            # a turn after the turn limit never comes: the victory could never be checked (R10.2)
            ht_turn = get_int(ht, "turn", "victory.hold", 1, turns or HARD_TURN_CAP, None)
            if "turn" not in ht:
                bad("victory.hold.turn", "missing: the turn at whose end the objectives are checked")
            if not objectives:
                bad("victory.hold", "needs at least one [[objectives]] hex")
            if hs in SIDES and ht_turn is not None:
                hold = HoldVictory(str(hs), ht_turn)

    areas = parse_areas(data.get("areas"), battlemap, bad) if battlemap is not None else {}
    battlefield = _parse_battlefield(data.get("battlefield", {}), parse_hex, bad, unknown_keys)
    if battlemap is not None:  # R10.5, R10.8: where mines and crossings may lie
        zones = {h: s for s, ss in sides.items() for h in ss.deploy}
        for h in sorted(battlefield.mines, key=lambda x: x.offset):
            if h in zones:
                bad(
                    "battlefield.mines",
                    f"{h.label} lies in the {zones[h]} deploy zone: units are committed there (R5.2)",
                )
            elif all(
                math.isinf(battlemap.terrain_at(h).move_cost(m)) for m in ("foot", "tracked", "wheeled")
            ):
                bad("battlefield.mines", f"{h.label} is {battlemap.terrain_at(h).name}: no unit can enter it")
        for i, h in enumerate(battlefield.crossings):
            if not math.isinf(battlemap.terrain_at(h).move_cost("foot")):
                bad(
                    f"battlefield.crossings[{i}]",
                    f"{h.label} is {battlemap.terrain_at(h).name}, not water foot "
                    "units cannot enter: a crossing is a river hex (R10.8)",
                )
    if battlemap is not None and battlefield:  # R10.3: placed on a copy; the map file stays as it is
        battlemap = battlemap.copy()
        for where, msg in apply_battlefield(battlemap, battlefield):
            bad(where, msg)
    if len(sides) == 2:
        standard = not any(ss.units for ss in sides.values())
        if standard and not override_reserves:  # 000 Standard Game Setup: 80-100 points (issue 13 item 12)
            for sname, sset in sides.items():
                pts = sum(ruleset.cost(c) for c in sset.reserves)
                if sset.reserves and not BUDGET_RANGE[0] <= pts <= BUDGET_RANGE[1]:
                    bad(
                        f"sides.{sname}.reserves",
                        f"{pts} points; a standard game's Reserves deck holds "
                        f"{BUDGET_RANGE[0]}-{BUDGET_RANGE[1]} points (000 Standard Game Setup). A scenario that "
                        "changes this says so with scenario.override_reserves = true",
                    )
        if turns == 0:  # R12.4: every game ends
            gain = {
                s: _max_points(sides[other], ruleset)
                for s, other in (("german", "soviet"), ("soviet", "german"))
            }
            if not overrun:
                bad(
                    "scenario.turns",
                    "0 (no turn limit) with scenario.overrun = false: the game could never end; "
                    "give a turn limit or allow the Overrun (R12.4)",
                )
            elif max(gain.values()) < vp_target:
                bad(
                    "scenario.turns",
                    f"0 (no turn limit) and scenario.victory_points = {vp_target} cannot be reached "
                    f"(at most German {gain['german']}, Soviet {gain['soviet']} points, every enemy "
                    "unit captured): give a turn limit or a reachable target (R12.4)",
                )
    problems = merge_problems(structural, problems)
    if problems:
        raise ValidationError(problems)
    assert battlemap is not None
    ref = path.stem if path is not None else sid
    scenario = Scenario(
        id=sid,
        name=name,
        description=description,
        path=path,
        map_path=map_path,
        battlemap=battlemap,
        seed=seed,
        turns=turns,
        victory_points=vp_target,
        overrun=overrun,
        guns_move=guns_move,
        variants=tuple(variants),
        events=tuple(events),
        sides=sides,
        objectives=tuple(objectives),
        hold=hold,
        areas=areas,
        content_hash=_scenario_hash(text, battlemap),
        reference=ref,
        override_reserves=override_reserves,
        battlefield=battlefield,
        night=tuple(night),
        ground=str(ground),
    )
    problems = check_setup(scenario)
    if problems:
        raise ValidationError(problems)
    return scenario


def _parse_battlefield(t: Any, parse_hex: Any, bad: Any, unknown_keys: Any) -> Battlefield:
    """The ``[battlefield]`` table (R10.3): ``fires`` and ``rubble`` lists of hex labels,
    ``wrecks`` a table of hex label -> wreck counter ids. Problems go to ``bad`` by field path."""
    if not isinstance(t, dict):
        bad("battlefield", "expected a table with fires, rubble and wrecks")
        return Battlefield()
    unknown_keys(t, "battlefield", {"fires", "rubble", "wrecks", "mines", "crossings"})
    lists: dict[str, list[Hex]] = {}
    for key in ("fires", "rubble", "mines", "crossings"):
        v = t.get(key, [])
        out: list[Hex] = []
        if not isinstance(v, list):
            bad(f"battlefield.{key}", f"expected a list of hex labels, got {clip(v)}")
            v = []
        for i, lab in enumerate(v):
            h = parse_hex(lab, f"battlefield.{key}[{i}]")
            if h is None:
                continue
            if h in out:
                bad(
                    f"battlefield.{key}[{i}]",
                    f"{h.label} is already listed (battlefield.{key}[{out.index(h)}])",
                )
                continue
            out.append(h)
        lists[key] = out
    wrecks: list[tuple[Hex, str]] = []
    wt = t.get("wrecks", {})
    if not isinstance(wt, dict):
        bad("battlefield.wrecks", "expected a table of hex label = [wreck counter ids]")
        wt = {}
    for lab, ids in wt.items():
        h = parse_hex(lab, f"battlefield.wrecks.{lab}")
        if not isinstance(ids, list):
            bad(f"battlefield.wrecks.{lab}", f"expected a list of wreck counter ids, got {clip(ids)}")
            continue
        for i, w in enumerate(ids):
            if not isinstance(w, str):
                bad(f"battlefield.wrecks.{lab}[{i}]", f"expected a wreck counter id, got {clip(w)}")
            elif h is not None:
                wrecks.append((h, w))
    return Battlefield(
        tuple(lists["fires"]),
        tuple(lists["rubble"]),
        tuple(wrecks),
        frozenset(lists["mines"]),
        tuple(lists["crossings"]),
    )


def _parse_artillery(
    t: Any, where: str, bad: Any, get_int: Any, get_str: Any, unknown_keys: Any
) -> ArtillerySetup | None:
    if not isinstance(t, dict):
        bad(where, "expected a table with missions and weapon")
        return None
    unknown_keys(t, where, {"missions", "per_turn", "hit_on", "weapon"})
    missions = get_int(t, "missions", where, 0, 100, None)
    if missions is None and "missions" not in t:  # a bad value is already reported by get_int
        bad(f"{where}.missions", "missing: the number of missions for the game")
    per_turn = get_int(t, "per_turn", where, 1, 10, 1)
    hit_on = get_int(t, "hit_on", where, 1, 7, None)
    w = t.get("weapon")
    weapon: ArtilleryWeapon | None = None
    ww = f"{where}.weapon"
    if not isinstance(w, dict):
        bad(ww, "missing: { name, attack = { infantry, vehicle, gun }, damage_index }")
    else:
        unknown_keys(w, ww, {"name", "attack", "damage_index", "rate_of_fire"})
        wname = get_str(w, "name", ww, required=True) or "artillery"
        di = get_int(w, "damage_index", ww, 0, 30, None)
        if di is None and "damage_index" not in w:
            bad(f"{ww}.damage_index", "missing")
        rof = get_int(w, "rate_of_fire", ww, 1, 4, 1)
        att = w.get("attack")
        attack: dict[str, int] = {}
        if not isinstance(att, dict) or not att:
            bad(f"{ww}.attack", "expected a table of attack values, e.g. { infantry = 10, vehicle = 14 }")
        else:
            for k, v in att.items():
                if k not in TARGET_TYPES or k == "aircraft":
                    bad(
                        f"{ww}.attack.{k}",
                        "expected one of infantry, vehicle, gun (artillery never hits aircraft, R9.4)",
                    )
                elif not isinstance(v, int) or isinstance(v, bool) or not 2 <= v <= 25:
                    bad(f"{ww}.attack.{k}", f"expected an attack value 2..25 (2d10 target), got {clip(v)}")
                else:
                    attack[k] = v
        if di is not None:
            weapon = ArtilleryWeapon(wname, attack, di, rof or 1)
    if weapon is None or missions is None:
        return None
    return ArtillerySetup(missions, weapon, per_turn or 1, hit_on)
