"""Monte Carlo of off-board artillery missions on a real map (R9.3, R9.4, R8.2-R8.4).

Each trial fires ``missions`` missions of one side at one target hex, one after the other (as
when they are all called in the same Begin Turn, R5.1d: no fire spreads between them). Every
mission runs the game's own rule functions, vectorized over the trials of a batch:

1. accuracy and drift: :func:`hexwar.rules.artillery.drift_landing` on the accuracy and
   direction d6 faces (R9.3; a strike landing off the map has no effect);
2. the building in the landing hex: AV = 2d6 + Damage Index
   (:func:`hexwar.rules.buildings.attack_value`) against its DR
   (:func:`hexwar.rules.buildings.outcome_codes`): AV = DR rubble, AV >= DR + 1 fire (R8.3,
   R8.4). A fire result on a burning building changes nothing, rubble puts a fire out, a rubble
   hex is not attacked again (docs/rules.md).

The units in the landing hex are each attacked once per strike (R9.4), so the expected number
of attacks a unit receives is the expected number of strikes landing in its hex; the harness
counts landings per hex, and the combat itself stays the combat engine's.

Dice come from the trial's own stream (:mod:`hexwar.sim.seeding`): mission ``m``'s accuracy
and direction faces are the two faces of the word at ``artillery_counter(m, 0)``, its building
attack's 2d6 the two faces at ``artillery_counter(m, 1)``. Results are integer counts summed
over trials, so they are identical for any batch size.

>>> from hexwar.model.maps import BattleMap
>>> m = BattleMap.new(12, 12)
>>> r = simulate_artillery(m, Hex.from_label("F06"), hit_on=4, damage_index=9, trials=1000, seed=1)
>>> r.strikes, int(r.landing_counts.sum()) + r.off_map
(1000, 1000)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from ..rules.artillery import drift_landing, exact_landing_distribution
from ..rules.buildings import FIRE, RUBBLE, BuildingAttackKind, attack_value, outcome_codes
from .seeding import artillery_counter, batches, check_seed, d6_pair, trial_keys, trial_words

__all__ = [
    "BURNING",
    "INTACT",
    "MAX_DRIFT",
    "RUBBLED",
    "ArtilleryResult",
    "ArtillerySimError",
    "simulate_artillery",
]

INTACT, BURNING, RUBBLED = 0, 1, 2  #: building states tracked per trial
MAX_DRIFT = 6  #: the largest drift, an unmodified d6 face (R9.3)
DEFAULT_BATCH = 1 << 16


class ArtillerySimError(HexwarError):
    """Bad input to the artillery simulation; the message names the field and what was expected."""


@dataclass(frozen=True)
class ArtilleryResult:
    """Counts of an artillery simulation; all probabilities derive from these integers.

    Attributes:
        target: the target hex.
        hit_on: the hit number used (R9.3); bonus: the Command-card bonus (0/1, R1.3).
        damage_index: the mission weapon's Damage Index (R9.1).
        missions: missions per trial; trials: number of trials; seed: the run's seed.
        width, height: map size in hexes.
        landing_counts: ``int64 [height, width]`` strikes landing in each hex, over all trials
            and missions (``strikes = trials * missions`` in total with the off-map ones).
        off_map: strikes that landed off the map (no effect, R9.3).
        building_hexes: the building hexes tracked (intact at the start, where a strike can
            land), in map array order.
        building_dr: ``int16 [K]`` their DRs as simulated.
        building_start: ``int8 [K]`` their state at the start (:data:`INTACT` or
            :data:`BURNING`).
        rubble_counts, fire_counts: ``int64 [K]`` trials ending with the building rubble /
            burning after all missions (R8.3, R8.4).
        fire_started_counts: ``int64 [K]`` trials in which some strike set it alight.
        trial_landings: ``int32 [trials, missions]`` flat landing index ``row * width + col``
            (``-1`` off the map), kept only when asked for.
        trial_states: ``int8 [trials, K]`` final building states, kept only when asked for.
    """

    target: Hex
    hit_on: int
    bonus: int
    damage_index: int
    missions: int
    trials: int
    seed: int
    width: int
    height: int
    landing_counts: np.ndarray
    off_map: int
    building_hexes: tuple[Hex, ...]
    building_dr: np.ndarray
    building_start: np.ndarray
    rubble_counts: np.ndarray
    fire_counts: np.ndarray
    fire_started_counts: np.ndarray
    trial_landings: np.ndarray | None = field(default=None, repr=False)
    trial_states: np.ndarray | None = field(default=None, repr=False)

    @property
    def strikes(self) -> int:
        """Strikes fired in all: ``trials * missions``."""
        return self.trials * self.missions

    def landing_probability(self) -> np.ndarray:
        """``float64 [height, width]``: estimated probability that one strike lands in each hex."""
        return self.landing_counts / max(self.strikes, 1)

    def off_map_share(self) -> float:
        """Estimated probability that one strike lands off the map."""
        return self.off_map / max(self.strikes, 1)

    def expected_attacks(self) -> np.ndarray:
        """``float64 [height, width]``: expected strikes per trial landing in each hex, i.e. the
        expected number of artillery attacks on each unit standing there (R9.4)."""
        return self.landing_counts / max(self.trials, 1)


def _validate(
    battlemap: BattleMap,
    target: Hex,
    hit_on: int,
    bonus: int,
    damage_index: int,
    missions: int,
    trials: int,
    dr: np.ndarray | None,
) -> np.ndarray:
    if not isinstance(target, Hex):
        raise ArtillerySimError(f"target must be a Hex, got {target!r}")
    if not battlemap.in_bounds(target):
        raise ArtillerySimError(
            f"target {target.label} is off the {battlemap.width} x {battlemap.height} map "
            f"(A01..{Hex.from_offset(battlemap.width - 1, battlemap.height - 1).label})"
        )
    for name, v, lo, hi in (
        ("hit_on", hit_on, 1, 7),
        ("bonus", bonus, 0, 1),
        ("damage_index", damage_index, 0, 30),
        ("missions", missions, 1, 1000),
        ("trials", trials, 0, 2**32 - 1),
    ):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not lo <= v <= hi:
            raise ArtillerySimError(f"{name} must be a whole number {lo}..{hi}, got {v!r}")
    if dr is None:
        return battlemap.dr_array()
    dr = np.asarray(dr)
    if dr.shape != (battlemap.height, battlemap.width):
        raise ArtillerySimError(
            f"dr array has shape {dr.shape}; expected (height, width) = "
            f"({battlemap.height}, {battlemap.width})"
        )
    return dr.astype(np.int16)


def simulate_artillery(
    battlemap: BattleMap,
    target: Hex,
    *,
    hit_on: int,
    damage_index: int,
    missions: int = 1,
    bonus: int = 0,
    trials: int = 100_000,
    seed: int = 0,
    batch_size: int = DEFAULT_BATCH,
    dr: np.ndarray | None = None,
    keep_trials: bool = False,
    progress: Callable[[int], Any] | None = None,
) -> ArtilleryResult:
    """Simulate ``trials`` x ``missions`` off-board artillery strikes at ``target`` (R9.3, R9.4, R8.2-R8.4).

    Args:
        battlemap: the map (its size decides off-map landings; its buildings, rubble and fires
            the building outcomes). Not changed.
        target: the target hex (on the map).
        hit_on: the side's hit number (Germans 3, Soviets 4, or the scenario's).
        damage_index: the mission weapon's Damage Index (AV = 2d6 + DI against DR).
        missions: missions per trial, resolved one after the other at the same target.
        bonus: 1 when the firing side discards a Command card on each accuracy roll (R1.3).
        trials: number of trials (each with its own SeedSequence child, :mod:`~hexwar.sim.seeding`).
        seed: the run's seed.
        batch_size: trials per numpy batch (memory); does not change the result.
        dr: optional ``int [height, width]`` DR array replacing the map's (parameter sweeps).
        keep_trials: also return each trial's landings and final building states.
        progress: called with the number of trials finished after each batch.

    Returns:
        an :class:`ArtilleryResult`.

    Raises:
        ArtillerySimError: for an off-map target or a parameter out of range.
        SeedError: for a bad seed or batch size.
    """
    seed = check_seed(seed)
    dr_map = _validate(battlemap, target, hit_on, bonus, damage_index, missions, trials, dr)
    W, H = battlemap.width, battlemap.height
    hw = H * W
    tcol, trow = target.offset
    # buildings a strike can reach: intact (DR > 0) hexes of the exact landing distribution
    reach = [h for h in exact_landing_distribution(target, hit_on, bonus, W, H) if h is not None]
    near = sorted((battlemap.index(h) for h in reach), key=lambda rc: rc)
    near = [(r, c) for r, c in near if dr_map[r, c] > 0]
    K = len(near)
    bhexes = tuple(Hex.from_offset(c, r) for r, c in near)
    bdr = np.array([dr_map[r, c] for r, c in near], dtype=np.int16)
    bstart = np.array([BURNING if battlemap.fire[r, c] else INTACT for r, c in near], dtype=np.int8)
    lut = np.full(hw + 1, -1, dtype=np.intp)  # flat landing index (hw = off map) -> building k
    for k, (r, c) in enumerate(near):
        lut[r * W + c] = k
    landing = np.zeros(hw + 1, dtype=np.int64)
    rubble_counts = np.zeros(K, dtype=np.int64)
    fire_counts = np.zeros(K, dtype=np.int64)
    started_counts = np.zeros(K, dtype=np.int64)
    keep_land = np.empty((trials, missions), dtype=np.int32) if keep_trials else None
    keep_state = np.empty((trials, K), dtype=np.int8) if keep_trials else None
    kind = BuildingAttackKind.ARTILLERY
    for start, stop in batches(trials, batch_size):
        n = stop - start
        keys = trial_keys(seed, start, stop)
        state = np.repeat(bstart[:, None], n, axis=1)  # [K, n]: building-major, so sums are contiguous
        started = np.zeros((K, n), dtype=bool)
        for m in range(missions):
            acc, direction = d6_pair(trial_words(keys, artillery_counter(m, 0)))
            land = drift_landing((tcol, trow), acc, direction, hit_on, bonus, width=W, height=H)
            flat = land.row.astype(np.intp)
            flat *= W
            flat += land.col
            flat[~land.on_map] = hw
            landing += np.bincount(flat, minlength=hw + 1)
            if keep_land is not None:
                keep_land[start:stop, m] = np.where(flat == hw, -1, flat)
            if K == 0:
                continue
            kk = lut[flat]
            sel = np.flatnonzero(kk >= 0)
            kk = kk[sel]
            standing = state[kk, sel] != RUBBLED  # R8.3: rubble is not attacked again
            sel, kk = sel[standing], kk[standing]
            if sel.size == 0:
                continue
            f1, f2 = d6_pair(trial_words(keys[sel], artillery_counter(m, 1)))
            av = attack_value(f1.astype(np.int16) + f2, damage_index, kind)
            code = outcome_codes(av, bdr[kk], kind)
            lit = (code == FIRE) & (state[kk, sel] == INTACT)
            state[kk[lit], sel[lit]] = BURNING
            started[kk[lit], sel[lit]] = True
            rub = code == RUBBLE
            state[kk[rub], sel[rub]] = RUBBLED
        if K:
            rubble_counts += np.count_nonzero(state == RUBBLED, axis=1)
            fire_counts += np.count_nonzero(state == BURNING, axis=1)
            started_counts += np.count_nonzero(started, axis=1)
        if keep_state is not None:
            keep_state[start:stop] = state.T
        if progress is not None:
            progress(n)
    return ArtilleryResult(
        target=target,
        hit_on=int(hit_on),
        bonus=int(bonus),
        damage_index=int(damage_index),
        missions=int(missions),
        trials=int(trials),
        seed=seed,
        width=W,
        height=H,
        landing_counts=landing[:hw].reshape(H, W),
        off_map=int(landing[hw]),
        building_hexes=bhexes,
        building_dr=bdr,
        building_start=bstart,
        rubble_counts=rubble_counts,
        fire_counts=fire_counts,
        fire_started_counts=started_counts,
        trial_landings=keep_land,
        trial_states=keep_state,
    )
