"""The semantic checks of a hex scenario file (R4, R5.2, R10, R12.4): what the typed model
(:mod:`hexwar.formats.scenario_file`) cannot say, run by :func:`hexwar.game.scenario.build_scenario`
after the model and before :func:`~hexwar.game.scenario.check_setup`.

:class:`ScenarioChecks` reads the map file, checks that cards exist and suit their side, that
hexes are on the map, deploy zones, decks and hands, starting units and stacking, objectives and
the hold victory, the battlefield (fires, rubble, mines, crossings), night turns and that the
game can end, and builds the :class:`~hexwar.game.scenario.Scenario` when the map was read. Every
problem names the scenario file and the field (``sides.german.units[2].hex``), all at once.

Split from ``game/scenario.py`` (round 3) so the loader module stays under 1,000 lines; it sits
below that module (it builds its types; the loader imports it when it builds a scenario).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Problem, ValidationError, clip
from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap
from ..rules.cards import SIDES
from . import ruleset
from .areas import parse_areas
from .limits import HARD_TURN_CAP
from .scenario import (
    BUDGET_RANGE,
    ArtillerySetup,
    ArtilleryWeapon,
    Battlefield,
    HoldVictory,
    Objective,
    Scenario,
    SideSetup,
    StartingUnit,
    _resolve_map,
    apply_battlefield,
    parse_zone,
)

if TYPE_CHECKING:
    from ..formats.scenario_file import ScenarioFile, UnitPlacement
    from ..formats.scenario_file import SideSetup as SideFile

__all__ = ["ScenarioChecks", "max_points"]


class ScenarioChecks:
    """What the scenario model cannot say, checked on a typed :class:`ScenarioFile`: the map
    file, cards that exist and suit their side (R4), hexes on the map, deploy zones (R5.2),
    decks and hands (000 Standard Game Setup, R5.5), starting units and stacking (R5.2, R10.2),
    objectives and the hold victory (R10.1, R10.2), the battlefield (R10.3, R10.5, R10.8), night
    turns (R10.6) and that the game can end (R12.4). Problems collect in :attr:`problems`.

    Args:
        src: the file's name as problems show it (``"<memory>"`` for text).
        path: the scenario file (its folder anchors the map path), or ``None``.
        doc: the file as the typed model read it.
        battlemap: the map already read (the compiled path), or ``None`` to read ``doc``'s.
        map_path: that map's file, or ``None``.
    """

    def __init__(
        self,
        src: str,
        path: Path | None,
        doc: ScenarioFile,
        battlemap: BattleMap | None,
        map_path: Path | None,
    ) -> None:
        self.ruleset = ruleset
        self.src, self.path, self.doc = src, path, doc
        self.battlemap, self.map_path = battlemap, map_path
        self.problems: list[Problem] = []
        self.turn_cap = doc.scenario.turns or HARD_TURN_CAP

    def bad(self, where: str, msg: str) -> None:
        """Record a problem at field ``where`` (``sides.german.deploy``) of the scenario file."""
        self.problems.append(Problem(self.src, where, msg))

    def run(self) -> Scenario | None:
        """Every check; the scenario (without its content hash) when the map was read."""
        sc = self.doc.scenario
        if sc.turns > HARD_TURN_CAP:
            self.bad("scenario.turns", f"expected an integer 0..{HARD_TURN_CAP}, got {sc.turns}")
        variants = [v for v in dict.fromkeys(sc.rules) if v != "standard"]
        if sc.fog and "fog" not in variants:  # R12.2: `fog = true` is the same as rules = ["fog"]
            variants.append("fog")
        night: list[int] = []  # R10.6
        for i, n in enumerate(sc.night):
            if n > self.turn_cap:
                self.bad(f"scenario.night[{i}]", f"expected a turn number 1..{self.turn_cap}, got {n}")
            elif n not in night:
                night.append(n)
        self.read_map()
        events = self.events()
        sides = self.sides()
        objectives = self.objectives()
        hold = self.hold(objectives)
        bm = self.battlemap
        areas = (
            parse_areas(self.doc.areas if "areas" in self.doc.model_fields_set else None, bm, self.bad)
            if bm
            else {}
        )
        battlefield = self.battlefield_of()
        if bm is not None:
            self.mines_and_crossings(battlefield, sides)
            if battlefield:  # R10.3: placed on a copy; the map file stays as it is
                bm = bm.copy()
                for where, msg in apply_battlefield(bm, battlefield):
                    self.bad(where, msg)
        if len(sides) == 2:
            self.points_and_end(sides)
        if bm is None:
            return None
        return Scenario(
            id=sc.id,
            name=sc.name or sc.id,
            description=sc.description,
            path=self.path,
            map_path=self.map_path,
            battlemap=bm,
            seed=sc.seed,
            turns=sc.turns,
            victory_points=sc.victory_points or 51,
            overrun=sc.overrun,
            guns_move=sc.guns_move,
            variants=tuple(variants),
            events=tuple(events),
            sides=sides,
            objectives=tuple(objectives),
            hold=hold,
            areas=areas,
            reference=self.path.stem if self.path is not None else sc.id,
            override_reserves=sc.override_reserves,
            battlefield=battlefield,
            night=tuple(night),
            ground=sc.ground,
        )

    def read_map(self) -> None:
        """The map: the editor's (checked in memory) or the file ``scenario.map`` names."""
        if self.battlemap is not None:
            return
        self.map_path = _resolve_map(self.doc.scenario.map, self.path, self.bad)
        if self.map_path is not None:
            try:
                self.battlemap = BattleMap.load(self.map_path)
            except ValidationError as exc:
                for p in exc.problems:
                    self.bad("scenario.map", f"map file is broken: {p}")

    def hex_at(self, label: str, where: str) -> Hex | None:
        """The hex ``label`` names when it lies on the map (R2.2)."""
        try:
            h = Hex.from_label(label)
        except HexLabelError as exc:
            self.bad(where, str(exc))
            return None
        bm = self.battlemap
        if bm is not None and not bm.in_bounds(h):
            self.bad(where, f"hex {h.label} is off the map ({bm.width} x {bm.height} hexes)")
            return None
        return h

    def events(self) -> list[str]:
        """Event card ids shuffled into the Command deck, each once (R4.3)."""
        events: list[str] = []
        for i, e in enumerate(self.doc.scenario.events):
            where = f"scenario.events[{i}]"
            if not self.ruleset.is_event(e):
                self.bad(where, f"unknown Event card {clip(e)}; expected one of {self.ruleset.event_ids()}")
            elif e in events:
                self.bad(
                    where,
                    f"Event {clip(e)} is already chosen (scenario.events[{events.index(e)}]): the Command deck "
                    "holds each Event card once (R4.3)",
                )
            else:
                events.append(e)
        return events

    def sides(self) -> dict[str, SideSetup]:
        """Both sides' setups; starting stacks and overlapping deploy zones (R5.2)."""
        sides: dict[str, SideSetup] = {}
        occupancy: dict[Hex, list[str]] = {}
        for side in SIDES:
            sides[side] = self.side(side, getattr(self.doc.sides, side), occupancy)
        for h, ss in occupancy.items():
            if len(ss) > 3:
                self.bad(f"hex {h.label}", f"{len(ss)} starting ground units; the stacking limit is 3 (R5.2)")
            if len(set(ss)) > 1:
                self.bad(f"hex {h.label}", "starting units of both sides in one hex")
        both = sorted(set(sides["german"].deploy) & set(sides["soviet"].deploy))
        if both:
            self.bad("sides", f"the deploy zones overlap in {len(both)} hexes, e.g. {both[0].label}")
        return sides

    def deploy(self, t: SideFile, where: str) -> list[Hex]:
        """The deploy zone's hexes in file order without repeats (R5.2)."""
        bm = self.battlemap
        deploy: list[Hex] = []
        seen: set[Hex] = set()
        for i, z in enumerate(t.deploy):
            zw = f"{where}.deploy[{i}]"
            try:
                hexes = parse_zone(z)
            except HexLabelError as exc:
                self.bad(zw, str(exc))
                continue
            off = [h for h in hexes if bm is not None and not bm.in_bounds(h)]
            if bm is not None and off:
                self.bad(
                    zw,
                    f"{clip(z)} reaches off the map ({len(off)} hex{'es' if len(off) != 1 else ''}, "
                    f"e.g. {off[0].label}); the map is {bm.width} x {bm.height} hexes",
                )
                continue
            for h in hexes:
                if h not in seen:
                    seen.add(h)
                    deploy.append(h)
        return deploy

    def cards(self, ids: list[str], side: str, where: str) -> list[str]:
        """The unit card ids of ``ids`` that exist and belong to ``side`` (R4.1)."""
        out = []
        for i, c in enumerate(ids):
            prob = self.ruleset.unit_card_problem(c, side)
            if prob:
                self.bad(f"{where}[{i}]", prob)
            else:
                out.append(c)
        return out

    def side(self, side: str, t: SideFile, occupancy: dict[Hex, list[str]]) -> SideSetup:
        """One side: deploy zone, Reserves deck or budget, hand, starting units, artillery."""
        where = f"sides.{side}"
        given = t.model_fields_set
        deploy = self.deploy(t, where)
        reserves = self.cards(t.reserves, side, f"{where}.reserves")
        pool = self.cards(t.pool, side, f"{where}.pool")
        hand = self.cards(t.hand, side, f"{where}.hand")
        if reserves and t.budget is not None:
            self.bad(where, "give either a fixed 'reserves' list or a 'budget', not both")
        if not reserves and t.budget is None and "reserves" not in given:
            self.bad(
                where,
                f"missing 'reserves' (a list of unit card ids) or 'budget' ({BUDGET_RANGE[0]}..{BUDGET_RANGE[1]} points)",
            )
        if "max_copies" in given and t.budget is None:
            self.bad(
                f"{where}.max_copies",
                "limits a 'budget' deck drawn from the pool; this side has a fixed 'reserves' list",
            )
        if hand:
            if len(hand) > 7:
                self.bad(f"{where}.hand", f"{len(hand)} cards; the hand limit is 7 unit cards (R5.5)")
            if reserves:
                rest = list(reserves)
                for c in hand:
                    if c in rest:
                        rest.remove(c)
                    else:
                        self.bad(
                            f"{where}.hand", f"{clip(c)} is not (or not often enough) in the Reserves deck"
                        )
            elif t.budget is not None:
                self.bad(f"{where}.hand", "a fixed hand needs a fixed 'reserves' list")
        units: list[StartingUnit] = []
        for i, u in enumerate(t.units):
            su = self.unit(side, u, f"{where}.units[{i}]", occupancy)
            if su is not None:
                units.append(su)
        art = t.artillery
        return SideSetup(
            side,
            tuple(deploy),
            tuple(reserves),
            t.budget,
            tuple(pool),
            tuple(hand),
            t.hand_size if t.hand_size is not None else 4,
            t.command_cards if t.command_cards is not None else 3,
            tuple(units),
            None
            if art is None
            else ArtillerySetup(
                art.missions,
                ArtilleryWeapon(
                    art.weapon.name or "artillery",
                    {
                        k: v
                        for k in ("infantry", "vehicle", "gun")
                        if (v := getattr(art.weapon.attack, k)) is not None
                    },
                    art.weapon.damage_index,
                    art.weapon.rate_of_fire,
                ),
                art.per_turn,
                art.hit_on,
            ),
            t.initiative,
            t.max_copies or 0,
        )

    def unit(
        self, side: str, u: UnitPlacement, uw: str, occupancy: dict[Hex, list[str]]
    ) -> StartingUnit | None:
        """A fixed starting unit (R10.2): a card of the side, its crew (R4.1), where it may stand."""
        rs, cid, crew = self.ruleset, u.card, u.crew
        prob = rs.unit_card_problem(cid, side)
        if prob:
            self.bad(f"{uw}.card", prob)
            return None
        if crew is not None and (prob := rs.unit_card_problem(crew, side)):
            self.bad(f"{uw}.crew", prob)
            crew = None
        prob = rs.crew_problem(cid, crew)
        if prob:
            self.bad(uw, prob)
        hx: Hex | None = None
        if rs.is_aircraft(cid):
            if u.hex is not None:
                self.bad(f"{uw}.hex", "aircraft start aloft: give no hex")
        elif rs.is_crew(cid):
            self.bad(f"{uw}.card", f"{clip(cid)} is a crew card; give it as the 'crew' of the unit it rides")
        else:
            if u.hex is None:
                self.bad(f"{uw}.hex", f"expected a hex label like 'D07', got {clip(None)}")
                return None
            hx = self.hex_at(u.hex, f"{uw}.hex")
            if hx is None:
                return None
            bm = self.battlemap
            if bm is not None and not rs.can_stand(bm, hx, cid):
                self.bad(
                    f"{uw}.hex", f"{rs.card_name(cid)} may not stand in {hx.label} ({bm.terrain_at(hx).name})"
                )
            occupancy.setdefault(hx, []).append(side)
        return StartingUnit(cid, hx, crew)

    def objectives(self) -> list[Objective]:
        """The objective hexes (R10.2), each once."""
        out: list[Objective] = []
        for i, o in enumerate(self.doc.objectives):
            oh = self.hex_at(o.hex, f"objectives[{i}].hex")
            if oh is None:
                continue
            if any(x.hex == oh for x in out):
                self.bad(f"objectives[{i}].hex", f"{oh.label} is already an objective")
            out.append(Objective(oh, o.name, o.points, o.holder))
        return out

    def hold(self, objectives: list[Objective]) -> HoldVictory | None:
        """``[victory.hold]`` (R10.2): a turn that comes, and objectives to hold."""
        ht = self.doc.victory.hold if self.doc.victory is not None else None
        if ht is None:
            return None
        if not objectives:
            self.bad("victory.hold", "needs at least one [[objectives]] hex")
        if ht.turn > self.turn_cap:  # a turn after the turn limit never comes (R10.2)
            self.bad("victory.hold.turn", f"expected an integer 1..{self.turn_cap}, got {ht.turn}")
            return None
        return HoldVictory(ht.side, ht.turn)

    def battlefield_of(self) -> Battlefield:
        """The ``[battlefield]`` table (R10.3, R10.5, R10.8): each hex on the map, listed once."""
        t = self.doc.battlefield
        if t is None:
            return Battlefield()
        lists: dict[str, list[Hex]] = {}
        for key in ("fires", "rubble", "mines", "crossings"):
            out: list[Hex] = []
            for i, lab in enumerate(getattr(t, key)):
                h = self.hex_at(lab, f"battlefield.{key}[{i}]")
                if h is None:
                    continue
                if h in out:
                    self.bad(
                        f"battlefield.{key}[{i}]",
                        f"{h.label} is already listed (battlefield.{key}[{out.index(h)}])",
                    )
                    continue
                out.append(h)
            lists[key] = out
        wrecks: list[tuple[Hex, str]] = []
        for lab, ids in t.wrecks.items():
            h = self.hex_at(lab, f"battlefield.wrecks.{lab}")
            if h is not None:
                wrecks.extend((h, w) for w in ids)
        return Battlefield(
            tuple(lists["fires"]),
            tuple(lists["rubble"]),
            tuple(wrecks),
            frozenset(lists["mines"]),
            tuple(lists["crossings"]),
        )

    def mines_and_crossings(self, battlefield: Battlefield, sides: dict[str, SideSetup]) -> None:
        """R10.5, R10.8: where mines and river crossings may lie."""
        bm = self.battlemap
        assert bm is not None
        zones = {h: s for s, ss in sides.items() for h in ss.deploy}
        for h in sorted(battlefield.mines, key=lambda x: x.offset):
            if h in zones:
                self.bad(
                    "battlefield.mines",
                    f"{h.label} lies in the {zones[h]} deploy zone: units are committed there (R5.2)",
                )
            elif all(math.isinf(bm.terrain_at(h).move_cost(m)) for m in ("foot", "tracked", "wheeled")):
                self.bad("battlefield.mines", f"{h.label} is {bm.terrain_at(h).name}: no unit can enter it")
        for i, h in enumerate(battlefield.crossings):
            if not math.isinf(bm.terrain_at(h).move_cost("foot")):
                self.bad(
                    f"battlefield.crossings[{i}]",
                    f"{h.label} is {bm.terrain_at(h).name}, not water foot "
                    "units cannot enter: a crossing is a river hex (R10.8)",
                )

    def points_and_end(self, sides: dict[str, SideSetup]) -> None:
        """000 Standard Game Setup: 80-100 point decks; R12.4: every game can end."""
        sc, rs = self.doc.scenario, self.ruleset
        standard = not any(ss.units for ss in sides.values())
        if standard and not sc.override_reserves:  # issue 13 item 12
            for sname, sset in sides.items():
                pts = sum(rs.cost(c) for c in sset.reserves)
                if sset.reserves and not BUDGET_RANGE[0] <= pts <= BUDGET_RANGE[1]:
                    self.bad(
                        f"sides.{sname}.reserves",
                        f"{pts} points; a standard game's Reserves deck holds "
                        f"{BUDGET_RANGE[0]}-{BUDGET_RANGE[1]} points (000 Standard Game Setup). A scenario that "
                        "changes this says so with scenario.override_reserves = true",
                    )
        if sc.turns != 0:
            return
        vp_target = sc.victory_points or 51
        gain = {s: max_points(sides[other], rs) for s, other in (("german", "soviet"), ("soviet", "german"))}
        if not sc.overrun:
            self.bad(
                "scenario.turns",
                "0 (no turn limit) with scenario.overrun = false: the game could never end; "
                "give a turn limit or allow the Overrun (R12.4)",
            )
        elif max(gain.values()) < vp_target:
            self.bad(
                "scenario.turns",
                f"0 (no turn limit) and scenario.victory_points = {vp_target} cannot be reached "
                f"(at most German {gain['german']}, Soviet {gain['soviet']} points, every enemy "
                "unit captured): give a turn limit or a reachable target (R12.4)",
            )


def max_points(enemy: SideSetup, ruleset: Any) -> int:
    """The most victory points a side can score against ``enemy``: every enemy card captured
    (R6.6, R10.1; capture scores double)."""
    mult = ruleset.cards().rules.capture_multiplier
    total = sum(ruleset.cost(c) for c in enemy.reserves) if enemy.reserves else (enemy.budget or 0)
    for u in enemy.units:
        total += ruleset.cost(u.card) + (ruleset.cost(u.crew) if u.crew else 0)
    return int(total * mult)
