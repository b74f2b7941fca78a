"""What-if simulation of a scenario's battlefield over turns (``hexwar sim scenario``).

The designer's question: "if the Soviets shell the church three times over three turns, how
likely is it rubble or burning by turn 3, and how likely are the units inside hit or
destroyed?". Each trial is a real game of the scenario, run by the game engine itself
(:meth:`Scenario.new_game <hexwar.game.scenario.Scenario.new_game>` and ``state.apply``), so
everything happens as in play and in the R5.1 order: Begin Turn fire spread (R8.4), fire damage
checks (R8.5), initiative, then the planned off-board artillery missions (R9) with the
scenario's own missions, per-turn limit, hit numbers and weapon, every unit in the landing hex
attacked by the combat engine (R6, R9.4), buildings rubbled or set alight (R8.2-R8.4), wrecks
placed (R8.1), burnout (R8.6) when the variant is on. The players do nothing else: no
commitments, moves or attacks; each Draw phase draws Command cards and discards to the hand
limits (R5.5), so Event cards still come up as they would.

A mission that the game refuses (no friendly ground unit sees the hex, R9.2; no missions left
or the per-turn limit reached, R9.1) is not fired, and the report counts it with the game's
reason, as the game would refuse it in play.

Ignitions (``--ignite HEX@TURN``) set the building in ``HEX`` alight at the start of turn
``TURN``'s player phases, as an artillery fire would be (so it first spreads at the Begin Turn
of ``TURN + 1``); turn 0 means burning before the game starts (it spreads in turn 1's R5.1a).

Exact values: when the plan is one mission in turn 1 and nothing else (no ignition, no fire
burning within 7 hexes of the target at the start, which could spread into a landing hex
first) and the game fires it in every trial, the first-turn probabilities are also computed exactly: the landing
distribution of :func:`~hexwar.rules.artillery.exact_landing_distribution` times the
combat engine's exact odds (:func:`~hexwar.rules.odds.weapon_odds`) for each unit in its hex,
and :func:`~hexwar.rules.buildings.building_outcome_probabilities` for each building. A unit
attacked after a vehicle of the same hex has no exact value (the wreck drawn for a destroyed
vehicle changes its Defense, R8.1).

Trials have their own seeds from ``SeedSequence(seed).spawn`` (R1.2), so a run is repeatable.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex, HexLabelError
from .scenario_tally import ScenarioSimError, UnitRow, _Tally

__all__ = [
    "MAX_TRIALS",
    "MAX_TURNS",
    "Ignition",
    "PlannedMission",
    "ScenarioPlan",
    "ScenarioSimError",
    "ScenarioSimResult",
    "parse_ignite",
    "parse_target",
    "load_plan",
    "simulate_scenario",
    "scenario_with",
    "scenario_field_names",
    "SCENARIO_FIELDS",
    "POINTS_RANGE",
]

MAX_TURNS = 30  #: the longest what-if run, in turns
MAX_TRIALS = 1_000_000  #: the most trials of one run


@dataclass(frozen=True)
class PlannedMission:
    """One planned off-board mission (R9): ``side`` calls it on ``hex`` in turn ``turn`` (>= 1)."""

    side: str
    hex: Hex
    turn: int


@dataclass(frozen=True)
class Ignition:
    """A building set alight in ``hex`` at the start of turn ``turn``'s player phases (0: before play)."""

    hex: Hex
    turn: int


@dataclass(frozen=True)
class ScenarioPlan:
    """What the what-if run does: missions and ignitions, in turn order."""

    missions: tuple[PlannedMission, ...] = ()
    ignitions: tuple[Ignition, ...] = ()

    def describe(self) -> str:
        """One line for titles: ``"3 soviet missions on G06 (turns 1-3); fire at J10 in turn 0"``."""
        parts = []
        by: dict[tuple[str, Hex], list[int]] = {}
        for m in self.missions:
            by.setdefault((m.side, m.hex), []).append(m.turn)
        for (side, h), turns in by.items():
            n = len(turns)
            parts.append(
                f"{n} {side} mission{'s' if n != 1 else ''} on {h.label} (turn{'s' if n != 1 else ''} "
                f"{_turns_text(turns)})"
            )
        for ig in self.ignitions:
            parts.append(f"fire at {ig.hex.label} in turn {ig.turn}")
        return "; ".join(parts) or "no missions"


def _turns_text(turns: Sequence[int]) -> str:
    t = sorted(turns)
    if len(t) > 2 and t == list(range(t[0], t[-1] + 1)):
        return f"{t[0]}-{t[-1]}"
    return ",".join(str(x) for x in t)


def _parse_turns(text: str, where: str, lo: int) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        a, sep, b = part.partition("-")
        try:
            if sep:
                x, y = int(a), int(b)
                if y < x or y - x > MAX_TURNS:
                    raise ValueError
                out.extend(range(x, y + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise ScenarioSimError(
                f"{where}: expected turns such as 2, 1,3 or 1-3, got {part[:20]!r}"
            ) from None
    for t in out:
        if not lo <= t <= MAX_TURNS:
            raise ScenarioSimError(f"{where}: turn {t} is outside {lo}..{MAX_TURNS}")
    return out


def _hex_on(scenario: Any, label: str, where: str) -> Hex:
    try:
        h = Hex.from_label(label.strip())
    except HexLabelError as exc:
        raise ScenarioSimError(f"{where}: {exc}") from None
    bm = scenario.battlemap
    if not bm.in_bounds(h):
        raise ScenarioSimError(f"{where}: {h.label} is off the {bm.width}x{bm.height} map")
    return h


def _artillery_sides(scenario: Any) -> list[str]:
    return [s for s, ss in scenario.sides.items() if ss.artillery is not None]


def parse_target(text: str, scenario: Any) -> list[PlannedMission]:
    """Parse ``--target [SIDE:]HEX@TURNS`` (``soviet:G06@1-3``, ``G06@1,2``): one mission per turn.

    The side may be left out when only one side of the scenario has off-board artillery.

    Raises:
        ScenarioSimError: naming the option and what was expected.
    """
    where = f"--target {text[:40]!r}"
    body, at, turns = text.partition("@")
    if not at:
        raise ScenarioSimError(f"{where}: expected [SIDE:]HEX@TURNS such as soviet:G06@1-3")
    side, colon, label = body.rpartition(":")
    sides = _artillery_sides(scenario)
    if not sides:
        raise ScenarioSimError(f"{where}: the scenario gives no side off-board artillery (R9.1)")
    if colon:
        side = side.strip().lower()
        if side not in scenario.sides:
            raise ScenarioSimError(
                f"{where}: unknown side {side[:20]!r}; expected one of {sorted(scenario.sides)}"
            )
        if side not in sides:
            raise ScenarioSimError(f"{where}: {side} has no off-board artillery in this scenario")
    else:
        if len(sides) > 1:
            raise ScenarioSimError(
                f"{where}: both sides have artillery; say which, e.g. {sides[0]}:{label.strip()}@{turns}"
            )
        side = sides[0]
    h = _hex_on(scenario, label, where)
    return [PlannedMission(side, h, t) for t in _parse_turns(turns, where, 1)]


def parse_ignite(text: str, scenario: Any) -> Ignition:
    """Parse ``--ignite HEX@TURN`` (``J10@0``: burning before play; ``J10@2``: set alight in turn 2).

    Raises:
        ScenarioSimError: when the hex is off the map, holds no building, or the turn is bad.
    """
    where = f"--ignite {text[:40]!r}"
    label, at, turn = text.partition("@")
    h = _hex_on(scenario, label, where)
    if scenario.battlemap.building_at(h) is None:
        raise ScenarioSimError(f"{where}: {h.label} holds no building to set alight (R8.4)")
    turns = _parse_turns(turn if at else "0", where, 0)
    if len(turns) != 1:
        raise ScenarioSimError(f"{where}: one turn per ignition")
    return Ignition(h, turns[0])


def load_plan(path: str | Path, scenario: Any) -> ScenarioPlan:
    """Read a plan file (TOML)::

        [[mission]]
        side = "soviet"       # optional when one side has artillery
        hex = "G06"
        turns = [1, 2, 3]     # or turn = 1

        [[ignite]]
        hex = "J10"
        turn = 0

    Raises:
        ScenarioSimError: naming the file and field (nothing read is executed).
    """
    from ..fileio import loads_toml, read_text

    p = Path(path)
    try:
        data = loads_toml(read_text(p, max_bytes=1 << 20), str(p))  # dates refused too
    except HexwarError as exc:
        raise ScenarioSimError(str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioSimError(f"{p}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"mission", "ignite"})
    if unknown:
        raise ScenarioSimError(f"{p}: unknown table {unknown[0]!r}; expected [[mission]] and [[ignite]]")
    missions: list[PlannedMission] = []
    ignitions: list[Ignition] = []
    for i, m in enumerate(_tables(data.get("mission", []), p, "mission")):
        where = f"{p}: mission[{i}]"
        bad = sorted(set(m) - {"side", "hex", "turn", "turns"})
        if bad:
            raise ScenarioSimError(f"{where}.{bad[0]}: unknown field; expected side, hex, turn or turns")
        turns = m.get("turns", [m["turn"]] if "turn" in m else None)
        if (
            not isinstance(turns, list)
            or not turns
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in turns)
        ):
            raise ScenarioSimError(f"{where}.turns: expected a list of turn numbers (or turn = N)")
        if not isinstance(m.get("hex"), str):
            raise ScenarioSimError(f'{where}.hex: expected a hex label such as "G06"')
        side = m.get("side")
        spec = (f"{side}:" if isinstance(side, str) else "") + f"{m['hex']}@{','.join(str(t) for t in turns)}"
        try:
            missions.extend(parse_target(spec, scenario))
        except ScenarioSimError as exc:
            raise ScenarioSimError(f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    for i, g in enumerate(_tables(data.get("ignite", []), p, "ignite")):
        where = f"{p}: ignite[{i}]"
        if not isinstance(g.get("hex"), str) or not isinstance(g.get("turn", 0), int):
            raise ScenarioSimError(f'{where}: expected hex = "J10" and turn = N')
        try:
            ignitions.append(parse_ignite(f"{g['hex']}@{g.get('turn', 0)}", scenario))
        except ScenarioSimError as exc:
            raise ScenarioSimError(f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    return ScenarioPlan(tuple(missions), tuple(ignitions))


def _tables(v: Any, p: Path, name: str) -> list[dict[str, Any]]:
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise ScenarioSimError(f"{p}: {name}: expected [[{name}]] tables")
    return v


# --------------------------------------------------------------------------------------------
# the run
# --------------------------------------------------------------------------------------------
@dataclass
class ScenarioSimResult:
    """Counts of a what-if run; every probability is a count over ``trials``.

    Attributes:
        scenario: the scenario id; plan: the plan; turns: turns simulated; trials; seed;
        variants: rule variants in force.
        units: the ground units on the map at the start (:class:`UnitRow`).
        attacked, hit, damage_card, destroyed: ``int64 [turns, units]``: trials in which, by
            the end of each turn, the unit had been attacked by artillery (a strike landed in
            its hex, R9.4) / hit (a to-hit roll of an attack hit it, or a fire damage check
            did, R6.3, R8.5) / drawn a Damage card and was not destroyed (R6.5) / destroyed.
            Rows are starting places: a unit is its side, card, hex and order there.
        crew_fate: per unit with a crew: Counter of ``survives`` / ``captured`` / ``destroyed``.
        buildings: building hexes tracked (every building of the map at the start).
        rubble, burning: ``int64 [turns, buildings]``: trials with the building rubble /
            burning at the end of each turn (before End Turn).
        areas: area name -> its building indexes into ``buildings``.
        area_burned: ``int64 [turns, areas]`` sum over trials of the area's buildings burning or
            rubble; area_all: trials in which every building of the area was.
        lanes: area name -> the LOS lanes (pairs of deploy-zone hexes) open at the start that
            cross the area; lanes_closed: ``int64 [turns, areas]`` sum over trials of those
            lanes blocked at the end of each turn.
        landings: ``int64 [turns, height, width]`` strikes landing in each hex during each turn.
        fired: per planned mission index, trials in which the game fired it;
        refused: per mission index, the game's reasons for refusing it, counted.
        ended: ``int64 [turns]`` trials whose game was over by the end of each turn.
        exact: per unit id and per building label, exact first-turn values when computed.
        start_burning, start_rubble: ``bool [buildings]`` at the start (after turn-0 ignitions).
        targets: the plan's target and ignition hexes.
    """

    scenario: str
    plan: ScenarioPlan
    turns: int
    trials: int
    seed: int
    variants: tuple[str, ...]
    units: list[UnitRow]
    attacked: np.ndarray
    hit: np.ndarray
    damage_card: np.ndarray
    destroyed: np.ndarray
    crew_fate: dict[str, Counter[str]]
    buildings: list[Hex]
    rubble: np.ndarray
    burning: np.ndarray
    areas: dict[str, list[int]]
    area_burned: np.ndarray
    area_all: np.ndarray
    lanes: dict[str, list[tuple[Hex, Hex]]]
    lanes_closed: np.ndarray
    landings: np.ndarray
    fired: list[int]
    refused: list[Counter[str]]
    ended: np.ndarray
    exact: dict[str, dict[str, Fraction | float]] = field(default_factory=dict)
    start_burning: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    start_rubble: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    targets: tuple[Hex, ...] = ()


class _IdlePlayers:
    """Commands for the sides of a what-if game: the plan's missions, else end every phase."""

    def __init__(self, plan: ScenarioPlan):
        from ..game.commands import Discard, Draw, EndPhase, IllegalCommand, TargetArtillery

        self.plan = plan
        self.Discard, self.Draw, self.EndPhase = Discard, Draw, EndPhase
        self.IllegalCommand, self.TargetArtillery = IllegalCommand, TargetArtillery

    def run(
        self,
        st: Any,
        turns: int,
        on_events: Callable[[list[Any], int], None],
        on_turn_end: Callable[[int], None],
        fired: list[int],
        refused: list[Counter[str]],
        before_artillery: Callable[[Any], None] | None = None,
    ) -> None:
        ignited: set[int] = set()
        called: set[tuple[int, str]] = set()
        guard = 0
        while not st.over and st.turn <= turns:
            guard += 1
            if guard > 20000:
                raise ScenarioSimError(
                    f"turn {st.turn}: the what-if game does not move on (phase {st.phase})"
                )
            side = st.to_act
            phase = _phase(st)
            if st.turn not in ignited and phase != "setup":
                ignited.add(st.turn)
                for ig in self.plan.ignitions:
                    if ig.turn == st.turn and ig.turn >= 1:
                        _ignite(st.battlemap, ig.hex)
            if phase == "setup":
                cmd = st.legal_commands()[0]
            elif phase == "artillery" and (st.turn, side) not in called:
                if not called and before_artillery is not None:
                    before_artillery(st)
                called.add((st.turn, side))
                for i, m in enumerate(self.plan.missions):
                    if m.turn != st.turn or m.side != side:
                        continue
                    if st.to_act != side or _phase(st) != phase:
                        refused[i][
                            f"{side} has no artillery mission left to call this turn (R9.1: missions, "
                            f"per_turn)"
                        ] += 1
                        continue
                    try:
                        on_events(st.apply(self.TargetArtillery(side=side, hex=m.hex)), st.turn)
                        fired[i] += 1
                    except self.IllegalCommand as exc:
                        refused[i][_reason(exc)] += 1
                continue
            elif phase == "draw":
                on_turn_end(st.turn)
                opts = st.legal_commands()
                draws = [c for c in opts if isinstance(c, self.Draw)]
                cmd = next((c for c in draws if tuple(c.extra) == ("command", "command")), None) or (
                    draws[0] if draws else opts[0]
                )
            else:
                cmd = self.EndPhase(side=side)
            t0 = st.turn
            try:
                evs = st.apply(cmd)
            except self.IllegalCommand:
                evs = st.apply(st.legal_commands()[0])
            on_events(evs, t0)


def _fire_near(bm: Any, target: Hex) -> bool:
    """A fire that could reach a landing hex of a strike on ``target`` before it lands (the
    turn's spread, R5.1a, comes first): burning within the largest drift + 1 hexes (R9.3)."""
    from .artillery import MAX_DRIFT

    return any(bm.has_fire(h) and h.distance(target) <= MAX_DRIFT + 1 for h in bm.hexes())


def _reason(exc: Exception) -> str:
    """The game's refusal without the command's own description in front."""
    text = str(exc)
    return (text.rsplit(": ", 1)[-1] if ": " in text else text)[:160]


def _phase(st: Any) -> str:
    return str(getattr(st.phase, "value", st.phase))


def _ignite(bm: Any, h: Hex) -> None:
    if bm.building_at(h) is not None and not bm.has_fire(h) and not bm.has_rubble(h):
        bm.set_fire(h)


def simulate_scenario(
    scenario: Any,
    plan: ScenarioPlan,
    turns: int = 3,
    trials: int = 1000,
    seed: int = 0,
    variants: tuple[str, ...] | None = None,
    areas: dict[str, tuple[Hex, ...]] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> ScenarioSimResult:
    """Run ``trials`` what-if games of ``scenario`` for ``turns`` turns (see the module text).

    Args:
        scenario: a loaded :class:`~hexwar.game.scenario.Scenario`.
        plan: missions and ignitions.
        turns: turns to simulate (1..MAX_TURNS).
        trials: number of games (1..MAX_TRIALS).
        seed: the run's seed (trial seeds from ``SeedSequence(seed).spawn``).
        variants: rule variants (default the scenario's).
        areas: named areas to report (default :func:`~hexwar.game.areas.scenario_areas`).
        progress: called with the number of trials finished since the last call.

    Returns:
        a :class:`ScenarioSimResult`.

    Raises:
        ScenarioSimError: for out-of-range turns or trials.
    """
    import dataclasses

    from ..game.areas import scenario_areas

    if not 1 <= turns <= MAX_TURNS:
        raise ScenarioSimError(f"--turns: expected 1..{MAX_TURNS}, got {turns}")
    if not 1 <= trials <= MAX_TRIALS:
        raise ScenarioSimError(f"--trials: expected 1..{MAX_TRIALS}, got {trials}")
    areas = scenario_areas(scenario) if areas is None else areas
    tally = _Tally(scenario, turns, areas, len(plan.missions))
    start = scenario
    if any(ig.turn == 0 for ig in plan.ignitions):  # burning before play: on the scenario's own map
        bm = scenario.battlemap.copy()
        for ig in plan.ignitions:
            if ig.turn == 0:
                _ignite(bm, ig.hex)
        start = dataclasses.replace(scenario, battlemap=bm)
    single = len(plan.missions) == 1 and plan.missions[0].turn == 1 and not plan.ignitions
    players = _IdlePlayers(plan)
    seeds = [int(s.generate_state(1, dtype=np.uint32)[0]) for s in np.random.SeedSequence(seed).spawn(trials)]
    for n, s in enumerate(seeds):
        st = start.new_game(seed=s, variants=variants)
        tally.start_trial(st)

        def before_artillery(st: Any, first: bool = n == 0) -> None:
            if first and single and st.turn == 1 and not _fire_near(st.battlemap, plan.missions[0].hex):
                tally.exact = _exact_first_turn(st, plan.missions[0], tally.units, tally.buildings)

        def on_turn_end(turn: int, st: Any = st) -> None:
            tally.snap[turn] = tally.picture(st.battlemap)

        players.run(st, turns, tally.on_events, on_turn_end, tally.fired, tally.refused, before_artillery)
        tally.end_trial(st)
        if progress is not None:
            progress(1)
    if single and tally.fired[0] != trials:  # the exact values assume the strike is fired
        tally.exact = {}
    c = tally.counts
    return ScenarioSimResult(
        scenario=scenario.id,
        plan=plan,
        turns=turns,
        trials=trials,
        seed=seed,
        variants=tuple(variants if variants is not None else scenario.variants),
        units=tally.units,
        attacked=c["attacked"],
        hit=c["hit"],
        damage_card=c["damage_card"],
        destroyed=c["destroyed"],
        crew_fate=tally.crew_fate,
        buildings=tally.buildings,
        rubble=tally.rubble,
        burning=tally.burning,
        areas=tally.area_b,
        area_burned=tally.area_burned,
        area_all=tally.area_all,
        lanes=tally.lanes,
        lanes_closed=tally.lanes_closed,
        landings=tally.landings,
        fired=tally.fired,
        refused=tally.refused,
        ended=tally.ended,
        exact=tally.exact,
        start_burning=np.array([start.battlemap.has_fire(h) for h in tally.buildings], bool),
        start_rubble=np.array([start.battlemap.has_rubble(h) for h in tally.buildings], bool),
        targets=tuple(dict.fromkeys([m.hex for m in plan.missions] + [g.hex for g in plan.ignitions])),
    )


def _exact_first_turn(
    st: Any, m: PlannedMission, units: list[UnitRow], buildings: list[Hex]
) -> dict[str, dict[str, Fraction | float]]:
    """Exact turn-1 values of one mission (see the module text), from the rules' own functions."""
    from ..game import ruleset
    from ..game.resolution import _artillery_weapon, has_ground_unit
    from ..rules.artillery import exact_landing_distribution
    from ..rules.buildings import BuildingAttackKind, BuildingResult, building_outcome_probabilities
    from ..rules.combat import DefenseContext
    from ..rules.odds import weapon_odds
    from ..rules.terrain_effects import default_effects, defense_class, terrain_defense_modifier

    art = st.scenario.sides[m.side].artillery
    hit_on = art.hit_on if art.hit_on is not None else default_effects().side_hit_on(m.side)
    bm = st.battlemap
    land = exact_landing_distribution(m.hex, hit_on, 0, bm.width, bm.height)
    weapon = _artillery_weapon(m.side, art.weapon)
    cards = ruleset.cards()
    out: dict[str, dict[str, Fraction | float]] = {}
    by_hex: dict[Hex, list[UnitRow]] = {}
    for u in units:
        by_hex.setdefault(u.hex, []).append(u)
    deck = Counter(x.rsplit("#", 1)[0] for x in st.damage_deck)
    for h, us in by_hex.items():
        p = land.get(h, Fraction(0))
        vehicle_before = False
        for u in us:
            # R9.4: every unit of the landing hex is attacked, the firing side's own too
            row: dict[str, Fraction | float] = {"attacked": p}
            if (
                not vehicle_before
                and weapon.attack_value(ruleset.target_type(u.uid.rsplit("#", 1)[0])) is not None
            ):
                cls = defense_class(ruleset.unit_type(u.uid.rsplit("#", 1)[0]))
                ctx = DefenseContext(terrain_defense_modifier(bm, h, cls), 0, has_ground_unit(st, m.side))
                o = weapon_odds(
                    cards,
                    weapon,
                    st.units[u.uid],
                    ctx,
                    units=st.units,
                    events_in_play=tuple(st.events_in_play),
                    variant=st.variants,
                    damage_deck=deck,
                )
                fp = float(p)
                row.update(
                    {
                        "hit": fp * o.hit,
                        "damage_card": fp * o.damage_card,
                        "destroyed": fp * o.destroyed,
                        "crew_survives": fp * o.crew_survives,
                        "crew_captured": fp * o.crew_captured,
                        "crew_destroyed": fp * o.crew_destroyed,
                    }
                )
            elif weapon.attack_value(ruleset.target_type(u.uid.rsplit("#", 1)[0])) is None:
                row.update({"hit": 0.0, "damage_card": 0.0, "destroyed": 0.0})  # not affected
            if u.unit_type == "vehicle":
                vehicle_before = True
            out[u.uid] = row
    for h in buildings:
        p = land.get(h, Fraction(0))
        if not p:
            continue
        b = bm.building_at(h)
        assert b is not None
        probs = building_outcome_probabilities(art.weapon.damage_index, b.dr, BuildingAttackKind.ARTILLERY)
        out[h.label] = {"rubble": p * probs[BuildingResult.RUBBLE], "burning": p * probs[BuildingResult.FIRE]}
    return out


# --------------------------------------------------------------------------------------------
# the scenario fields a sweep varies (the sweep itself: hexwar.sim.scenario_sweep)
# --------------------------------------------------------------------------------------------
#: ``sides.SIDE.artillery.FIELD`` a sweep may set, with its range (R9.1, R9.3)
SCENARIO_FIELDS = {"missions": (1, 50), "per_turn": (1, 20), "hit_on": (1, 7), "damage_index": (0, 30)}
POINTS_RANGE = (0, 500)  #: the range of ``objectives.NAME.points`` (R10.2)


def scenario_field_names(scenario: Any) -> list[str]:
    """The scenario fields a sweep may vary (see :func:`scenario_with`), for messages."""
    names = ["target", "ignite", "scenario.victory_points"]
    for side, ss in sorted(scenario.sides.items()):
        if ss.artillery is not None:
            names += [
                f"sides.{side}.artillery.{f}" for f in ("missions", "per_turn", "hit_on", "damage_index")
            ]
    names += [f"objectives.{o.name or o.hex.label}.points" for o in scenario.objectives]
    return names


def scenario_with(scenario: Any, name: str, value: int) -> Any:
    """``scenario`` with one field set, as if its file said so.

    Args:
        name: ``scenario.victory_points``, ``sides.SIDE.artillery.missions`` / ``.per_turn`` /
            ``.hit_on`` (R9.1, R9.3) / ``.damage_index`` (its weapon's DI, R9.1), or
            ``objectives.NAME.points`` (NAME: the objective's name or hex label, R10.2).
        value: the new value.

    Raises:
        ScenarioSimError: for a field the scenario does not have or a value out of range,
            naming the field and what was expected.
    """
    import dataclasses

    def check(lo: int, hi: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ScenarioSimError(f"--vary {name}={value}: expected a whole number {lo}..{hi}")

    parts = name.split(".")
    if name == "scenario.victory_points":
        check(1, 1000)
        return dataclasses.replace(scenario, victory_points=value)
    if len(parts) == 4 and parts[0] == "sides" and parts[2] == "artillery" and parts[3] in SCENARIO_FIELDS:
        side, fld = parts[1], parts[3]
        ss = scenario.sides.get(side)
        if ss is None or ss.artillery is None:
            raise ScenarioSimError(
                f"--vary {name}: {side[:20]!r} has no off-board artillery in this scenario; "
                f"fields: {', '.join(scenario_field_names(scenario))}"
            )
        check(*SCENARIO_FIELDS[fld])
        art = ss.artillery
        if fld == "damage_index":
            art = dataclasses.replace(art, weapon=dataclasses.replace(art.weapon, damage_index=value))
        else:
            art = dataclasses.replace(art, **{fld: value})
        sides = dict(scenario.sides)
        sides[side] = dataclasses.replace(ss, artillery=art)
        return dataclasses.replace(scenario, sides=sides)
    if len(parts) >= 3 and parts[0] == "objectives" and parts[-1] == "points":
        key = ".".join(parts[1:-1])
        objs = list(scenario.objectives)
        hits = [i for i, o in enumerate(objs) if key in (o.name, o.hex.label)]
        if not hits:
            raise ScenarioSimError(
                f"--vary {name}: no objective {key[:40]!r}; fields: "
                f"{', '.join(scenario_field_names(scenario))}"
            )
        check(*POINTS_RANGE)
        for i in hits:
            objs[i] = dataclasses.replace(objs[i], points=value)
        return dataclasses.replace(scenario, objectives=tuple(objs))
    raise ScenarioSimError(
        f"--vary {name}: not a field a scenario sweep can vary; expected one of "
        f"{', '.join(scenario_field_names(scenario))}"
    )
