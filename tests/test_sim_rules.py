"""The harness simulates the game's own rules: play the game's artillery and fire steps with one
trial's dice and compare with the harness's result for that trial (R8.4, R8.6, R9.3, R9.4).

:class:`TrialDice` is the game's :class:`~hexwar.rules.dice.Dice` with the artillery and fire-spread
rolls taken from a harness trial's stream (:mod:`hexwar.sim.seeding`): mission ``m``'s accuracy and
direction faces from ``artillery_counter(m, 0)``, its building attack from ``artillery_counter(m, 1)``,
a spread check's 2d6 from ``fire_counter(turn, direction, building)``. Every other roll (initiative,
fire damage...) comes from the game's own generator. The game code itself is not touched: it is
played through the rule functions it calls (``resolve_artillery``, ``fire_spread_phase``) and
through the game engine (``resolution.artillery_mission``, the turn machine's Begin Turn).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.artillery import ArtilleryStrike, resolve_artillery
from hexwar.rules.dice import COMMAND_CARD_BONUS, Dice, Roll
from hexwar.rules.fire import fire_spread_phase
from hexwar.rules.terrain_effects import apply_events
from hexwar.sim.artillery import BURNING, INTACT, RUBBLED, simulate_artillery
from hexwar.sim.fire import simulate_fire
from hexwar.sim.seeding import artillery_counter, d6_pair, fire_counter, trial_keys, trial_words

H = Hex.from_label
_BUILDING = re.compile(r"^\w+ artillery vs .+ in (\S+) \(AV vs DR")
_SPREAD = re.compile(r"^fire spread (\S+) -> (\S+) ")


class TrialDice(Dice):
    """Game dice whose artillery and fire-spread rolls are harness trial ``trial`` of ``seed``."""

    def __init__(self, seed: int, trial: int, width: int, height: int, other: Dice | None = None):
        super().__init__(1234)
        if other is not None:  # keep the game's own generator and log for every other roll
            self.rng = other.rng
            self.log = other.log
        self.key = trial_keys(seed, trial, trial + 1)
        self.width, self.height = width, height
        self.mission = 0
        self.turn = 0
        self.replayed = 0

    def _pair(self, counter: int) -> tuple[int, int]:
        a, b = d6_pair(trial_words(self.key, counter))
        return int(a[0]), int(b[0])

    def _faces(self, purpose: str) -> tuple[int, ...] | None:
        if "artillery accuracy" in purpose:
            return self._pair(artillery_counter(self.mission, 0))[:1]
        if "artillery drift direction" in purpose:
            return self._pair(artillery_counter(self.mission, 0))[1:]
        if _BUILDING.match(purpose):
            return self._pair(artillery_counter(self.mission, 1))
        m = _SPREAD.match(purpose)
        if m:
            src, dst = H(m.group(1)), H(m.group(2))
            direction = next(d for d in range(1, 7) if dst.neighbor(d) == src)
            col, row = dst.offset
            return self._pair(
                fire_counter(self.turn, direction, row * self.width + col, self.width * self.height)
            )
        return None

    def roll(self, purpose, dice, modifiers=(), command_card=False):  # type: ignore[override]
        faces = self._faces(purpose)
        if faces is None:
            return super().roll(purpose, dice, modifiers, command_card)
        assert len(faces) == int(dice[0]), (purpose, dice)
        mods = tuple((str(n), int(v)) for n, v in modifiers) + ((COMMAND_CARD_BONUS,) if command_card else ())
        r = Roll(purpose, dice, faces, mods, sum(faces), sum(faces) + sum(v for _, v in mods))
        self.log.append(r)
        self.replayed += 1
        return r


def town(width: int = 14, height: int = 10) -> BattleMap:
    m = BattleMap.new(width, height)
    kinds = ["wood_building", "stone_building", "reinforced_building"]
    for i, (dc, dr) in enumerate((a, b) for a in range(3) for b in range(3)):
        m.set_terrain(Hex.from_offset(5 + dc, 1 + dr), kinds[i % 3])  # F02..H04
    m.set_terrain(H("I03"), "wood_building")
    return m


def state_of(m: BattleMap, h: Hex) -> int:
    r, c = m.index(h)
    return RUBBLED if m.rubble[r, c] else BURNING if m.fire[r, c] else INTACT


@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_the_games_artillery_rule_functions_give_the_harness_trials(seed):
    m0 = town()
    target, missions, trials, di = H("G03"), 3, 40, 10
    r = simulate_artillery(
        m0, target, hit_on=4, damage_index=di, missions=missions, trials=trials, seed=seed, keep_trials=True
    )
    for trial in range(trials):
        m = m0.copy()
        dice = TrialDice(seed, trial, m.width, m.height)
        for k in range(missions):
            dice.mission = k
            evs = resolve_artillery(
                m, "soviet", target, dice, di, units_at=lambda h: [], attack_unit=lambda *a: []
            )
            apply_events(m, evs)
            strike = next(e for e in evs if isinstance(e, ArtilleryStrike))
            col, row = strike.landing.offset
            flat = -1 if strike.off_map else row * m.width + col
            assert flat == r.trial_landings[trial, k], f"seed {seed} trial {trial} mission {k}"
        got = [state_of(m, h) for h in r.building_hexes]
        assert got == r.trial_states[trial].tolist(), f"seed {seed} trial {trial}: buildings differ"
        assert dice.replayed >= missions  # the game rolled through the trial's stream


@pytest.mark.parametrize(("seed", "burnout"), [(5, False), (6, True), (99, True)])
def test_the_games_fire_spread_phase_gives_the_harness_trials(seed, burnout):
    from hexwar.cli.basic import resolve_map

    m0 = resolve_map("kharkov")
    dr = m0.dr_array()
    rows, cols = np.nonzero(dr > 0)
    ign = [Hex.from_offset(int(cols[i]), int(rows[i])) for i in (10, len(rows) // 2, len(rows) - 7)]
    T, trials = 6, 12
    r = simulate_fire(m0, ign, T, trials=trials, seed=seed, burnout=burnout, keep_trials=True)
    variants = {"burnout"} if burnout else set()
    for trial in range(trials):
        m = m0.copy()
        for h in ign:
            m.set_fire(h)
            m.fire_turns[m.index(h)] = 0
        dice = TrialDice(seed, trial, m.width, m.height)
        for t in range(1, T + 1):
            dice.turn = t
            apply_events(m, fire_spread_phase(m, dice, variants))
            assert (m.fire == r.trial_burning[trial, t]).all(), f"seed {seed} trial {trial} turn {t}"
            assert ((m.rubble & ~m0.rubble) == r.trial_rubble[trial, t]).all()
        assert dice.replayed == len(dice.log) > 0


SCENARIO = """
format = "hexwar-scenario"
schema_version = 1

[scenario]
id = "sim-check"
name = "Harness check"
map = "town.json"
seed = 11
turns = 6
rules = {rules}

[sides.german]
deploy = ["A01:B10"]
reserves = ["de_grenadiers", "de_grenadiers", "de_pz_iv_g", "de_tank_crew_regular", "de_sdkfz_251"]
hand = ["de_grenadiers", "de_pz_iv_g", "de_tank_crew_regular", "de_sdkfz_251"]

[[sides.german.units]]
card = "de_pak40"
hex = "C08"
crew = "de_artillery_crew_regular"

[sides.soviet]
deploy = ["M01:N10"]
reserves = ["su_rifles", "su_rifles", "su_guards", "su_t34_76", "su_tank_crew_regular"]

[[sides.soviet.units]]
card = "su_rifles"
hex = "L08"

[sides.soviet.artillery]
missions = 3
weapon = {{ name = "122 mm M-30 battery", attack = {{ infantry = 9, vehicle = 12, gun = 10 }}, damage_index = 9 }}
"""


def scenario_game(tmp_path: Path, burnout: bool, seed: int):
    from hexwar.game.scenario import load_scenario

    town().save(tmp_path / "town.json")
    p = tmp_path / "check.toml"
    p.write_text(SCENARIO.format(rules='["burnout"]' if burnout else "[]"))
    return load_scenario(p).new_game(seed=seed)


@pytest.mark.parametrize(("seed", "burnout"), [(8, False), (9, True)])
def test_the_game_engines_begin_turn_gives_the_harness_trials(tmp_path, seed, burnout):
    turn = pytest.importorskip("hexwar.game.turn")
    begin = getattr(turn, "_begin_turn", None)
    if begin is None:  # pragma: no cover - the engine renamed its Begin Turn step
        pytest.skip("the game engine has no Begin Turn step to call")
    ign = [H("F02"), H("H04")]
    T, trials = 6, 8
    for trial in range(trials):
        state = scenario_game(tmp_path, burnout, seed=100 + trial)
        m0 = state.battlemap.copy()
        if trial == 0:
            r = simulate_fire(m0, ign, T, trials=trials, seed=seed, burnout=burnout, keep_trials=True)
        for h in ign:
            state.battlemap.set_fire(h)
            state.battlemap.fire_turns[state.battlemap.index(h)] = 0
        dice = TrialDice(seed, trial, m0.width, m0.height, other=state.dice)
        state.dice = dice
        for t in range(1, T + 1):
            dice.turn = t
            begin(state, turn.Sink(state))  # R5.1: fire spread, fire damage, initiative
            assert (state.battlemap.fire == r.trial_burning[trial, t]).all(), (
                f"seed {seed} trial {trial} turn {t}"
            )
            assert ((state.battlemap.rubble & ~m0.rubble) == r.trial_rubble[trial, t]).all()


@pytest.mark.parametrize("seed", [4, 40])
def test_the_game_engines_artillery_mission_gives_the_harness_trials(tmp_path, seed):
    from hexwar.game import resolution
    from hexwar.game.turn import Sink

    target, trials = H("G03"), 10
    for trial in range(trials):
        state = scenario_game(tmp_path, False, seed=200 + trial)
        art = state.scenario.sides["soviet"].artillery
        if trial == 0:
            r = simulate_artillery(
                state.battlemap.copy(),
                target,
                hit_on=4,
                damage_index=art.weapon.damage_index,
                missions=art.missions,
                trials=trials,
                seed=seed,
                keep_trials=True,
            )
        dice = TrialDice(seed, trial, state.battlemap.width, state.battlemap.height, other=state.dice)
        state.dice = dice
        sink = Sink(state)
        for k in range(art.missions):
            dice.mission = k
            resolution.artillery_mission(state, "soviet", target, False, sink)
        landings = [e.data for e in sink.events if e.kind == "artillery_strike"]
        assert len(landings) == art.missions
        for k, ev in enumerate(landings):
            h = H(ev["landing"]) if isinstance(ev["landing"], str) else Hex(*ev["landing"])
            flat = -1 if ev["off_map"] else h.offset[1] * state.battlemap.width + h.offset[0]
            assert flat == r.trial_landings[trial, k], f"seed {seed} trial {trial} mission {k}"
        got = [state_of(state.battlemap, h) for h in r.building_hexes]
        assert got == r.trial_states[trial].tolist(), f"seed {seed} trial {trial}"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20, 30))
def test_more_seeds_of_the_games_fire_steps_replay_harness_trials(seed):
    test_the_games_fire_spread_phase_gives_the_harness_trials(seed, seed % 2 == 0)
    test_the_games_artillery_rule_functions_give_the_harness_trials(seed)
