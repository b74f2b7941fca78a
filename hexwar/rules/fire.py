"""Building fires over turns: aging and ``burnout``, spread, fire damage (R5.1a-b, R8.4-R8.6).

Begin Turn (R5.1) handles fires in two steps:

a. **Spread** (R8.4): for every burning hex and every adjacent hex holding an intact, unburning
   building, roll 2d6 + 6; at or above that building's DR the fire spreads there. Every check of
   the step is rolled against the map as it was before the step, and the spreads are applied
   together afterwards, so a new fire does not spread in the step that lit it, and a building
   next to two fires gets two independent checks. Nobody may modify these rolls.
b. **Fire damage** (R8.5): each unit in a hex that was burning *before* step a rolls 2d6; 8 or
   more is a hit (the owner may discard a Command card for -1), resolved as a hit of Damage
   Index 4 (Intensity + 4 - effective Defense, the hex giving Defense -2, R6.7).

Fires burn for the rest of the game; in variant ``burnout`` (R8.6) a fire that has burned 3 full
turns leaves rubble, which puts it out (R8.3).

**Counting full turns** (``BattleMap.fire_turns``, docs/rules.md): at the start of step a every
fire already burning is aged first (:func:`age_fires`): in variant ``burnout`` a fire whose
counter has reached 3 burns out into rubble (before it could spread), every other fire's counter
goes up by one. A counter therefore holds the number of turns the fire burned from their
beginning: a fire lit during turn T (counter 0) counts turns T+1, T+2, T+3 and burns out at the
start of turn T+4; between turns the counter is exactly "full turns burned". Step b's "burning
before step a" is then read off the map: ``fire & (fire_turns >= 1)`` (fires lit by this step's
spread still have 0).

Two layers, one set of rules:

* the **array core** works on ``[..., H, W]`` arrays (a leading batch of trials for the
  simulation harness): :func:`neighbor_values`, :func:`age_fires`, :func:`spread_candidates`,
  :func:`spread_step`, :func:`fire_damage_eligible`, :func:`fire_damage_hits`;
* the **game path** (:func:`fire_spread_phase`, :func:`fire_damage_checks`) calls the same core
  at batch size 1 with faces rolled one by one through :class:`~hexwar.rules.dice.Dice` and
  returns events.

Seed 003's example: fire in D07 spreads into the stone building D08 on a roll of 9 (9 + 6 = 15 >=
14), and the rifles in D08 skip the fire damage check that turn.

>>> import numpy as np
>>> burning = np.zeros((1, 10, 10), bool); burning[0, 6, 3] = True     # D07
>>> dr = np.zeros((10, 10), np.int16); dr[7, 3] = 14                      # stone D08
>>> cand = spread_candidates(burning, dr)
>>> int(cand.sum()), bool(spread_step(burning, dr, np.array([9]))[0, 7, 3])   # one pair, rolled 9
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..model.hexgrid import DIRECTIONS, Hex
from .terrain_effects import (
    AIRCRAFT,
    EffectEvent,
    EffectRules,
    default_effects,
    defense_class,
    hex_text,
    terrain_defense_modifier,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..model.maps import BattleMap
    from .dice import Dice

__all__ = [
    "BURNOUT",
    "AgedFires",
    "FireBurnedOut",
    "FireDamageCheck",
    "FireHit",
    "FireSpreadCheck",
    "FiresAged",
    "SpreadPairs",
    "age_fires",
    "fire_damage_checks",
    "fire_damage_steps",
    "fire_damage_eligible",
    "fire_damage_hexes",
    "fire_damage_hits",
    "fire_spread_phase",
    "neighbor_shift",
    "neighbor_values",
    "spread_candidates",
    "spread_pairs",
    "spread_probability",
    "spread_step",
    "spread_step_rng",
]

BURNOUT = "burnout"  #: the rule variant name of R8.6


# -- neighbours on [..., H, W] arrays (odd-q, R2.2, R2.3) ------------------------------------
@cache
def neighbor_shift(direction: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """``((drow, dcol) for even columns, (drow, dcol) for odd columns)`` of ``direction`` 1..6.

    On an odd-q array ``[row, col]`` the neighbour of a hex in direction ``d`` (R2.3) lies at
    ``row + drow, col + dcol``, where ``drow`` depends on the column's parity.

    Raises:
        ValueError: if ``direction`` is not 1..6.

    >>> neighbor_shift(2), neighbor_shift(4)
    (((-1, 1), (0, 1)), ((1, 0), (1, 0)))
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be 1..6 (1 = N, clockwise), got {direction!r}")
    out = []
    for col in (0, 1):
        h = Hex.from_offset(col, 0).neighbor(direction)
        ncol, nrow = h.offset
        out.append((nrow, ncol - col))
    return out[0], out[1]


def _pad(a: np.ndarray, fill: Any) -> np.ndarray:
    H, W = a.shape[-2:]
    pad = np.full(a.shape[:-2] + (H + 2, W + 2), fill, dtype=a.dtype)
    pad[..., 1:-1, 1:-1] = a
    return pad


def _shift_padded(pad: np.ndarray, direction: int, out: np.ndarray | None = None) -> np.ndarray:
    H, W = pad.shape[-2] - 2, pad.shape[-1] - 2
    if out is None:
        out = np.empty(pad.shape[:-2] + (H, W), dtype=pad.dtype)
    for parity, (drow, dcol) in enumerate(neighbor_shift(direction)):
        out[..., :, parity::2] = pad[..., 1 + drow : 1 + drow + H, 1 + dcol + parity : 1 + dcol + W : 2]
    return out


def neighbor_values(a: np.ndarray, direction: int, fill: Any = 0) -> np.ndarray:
    """For every hex of ``a[..., H, W]``, the value of its neighbour in ``direction`` (R2.3).

    Off-map neighbours read ``fill``. Works on any leading batch dimensions (slicing, no
    per-hex Python loop).

    Args:
        a: an odd-q array ``[..., row, col]``.
        direction: 1..6 (1 = N, clockwise).
        fill: value for neighbours off the map.

    >>> a = np.arange(9).reshape(3, 3)
    >>> neighbor_values(a, 1, fill=-1).tolist()          # north: one row up
    [[-1, -1, -1], [0, 1, 2], [3, 4, 5]]
    """
    a = np.asarray(a)
    return _shift_padded(_pad(a, fill), direction)


# -- array core ------------------------------------------------------------------------------
class AgedFires(NamedTuple):
    """Result of :func:`age_fires` (arrays of the input shape ``[..., H, W]``).

    Attributes:
        burning: ``bool``: fires still burning.
        fire_turns: ``int16``: updated counters (0 where not burning).
        burned_out: ``bool``: fires that burned out into rubble now (variant ``burnout``).
    """

    burning: np.ndarray
    fire_turns: np.ndarray
    burned_out: np.ndarray


def age_fires(burning: np.ndarray, fire_turns: np.ndarray, burnout_turns: int | None = None) -> AgedFires:
    """Age the fires at the start of Begin Turn step a (R5.1a, R8.6).

    With ``burnout_turns`` (variant ``burnout``: 3) a fire whose counter has reached it has
    burned that many full turns and burns out into rubble; every other fire's counter goes up
    by one (the fire burns into this turn from its beginning).

    Args:
        burning: ``bool [..., H, W]`` fires now.
        fire_turns: ``int [..., H, W]`` counters (broadcastable to ``burning``).
        burnout_turns: full turns before a fire leaves rubble, or ``None`` (fires burn forever).

    Returns:
        :class:`AgedFires`; the caller turns ``burned_out`` into rubble.

    >>> a = age_fires(np.array([True, True, False]), np.array([2, 3, 0]), burnout_turns=3)
    >>> a.burning.tolist(), a.fire_turns.tolist(), a.burned_out.tolist()
    ([True, False, False], [3, 0, 0], [False, True, False])
    """
    burning = np.asarray(burning, dtype=bool)
    turns = np.asarray(fire_turns)
    if burnout_turns is not None:
        out = burning & (turns >= burnout_turns)
    else:
        out = np.zeros(burning.shape, dtype=bool)
    still = burning & ~out
    new_turns = turns.astype(np.int16, copy=True)
    new_turns += 1
    new_turns *= still
    return AgedFires(still, new_turns, out)


def spread_candidates(burning: np.ndarray, dr: np.ndarray, rubble: np.ndarray | None = None) -> np.ndarray:
    """``bool [..., 6, H, W]``: the (burning hex, adjacent building) pairs that roll for spread (R8.4).

    ``out[..., k, row, col]`` is True when the hex ``(row, col)`` holds an intact, unburning
    building (``dr > 0``, not burning, not rubble) and its neighbour in direction ``k + 1``
    burns. Each pair (target hex, direction to its burning source) is one independent check.

    Args:
        burning: ``bool [..., H, W]`` (a leading batch of trials allowed).
        dr: ``int [..., H, W]`` DR of intact buildings, 0 elsewhere
            (:meth:`~hexwar.model.maps.BattleMap.dr_array`), broadcastable to ``burning``.
        rubble: optional ``bool`` rubble mask (for batches where buildings fell during the run).
    """
    burning = np.asarray(burning, dtype=bool)
    target = (np.asarray(dr) > 0) & ~burning
    if rubble is not None:
        target &= ~np.asarray(rubble, dtype=bool)
    pad = _pad(burning, False)
    out = np.empty(burning.shape[:-2] + (6,) + burning.shape[-2:], dtype=bool)
    for k in range(6):
        _shift_padded(pad, k + 1, out[..., k, :, :])
        out[..., k, :, :] &= target
    return out


@cache
def _neighbor_flat(height: int, width: int) -> np.ndarray:
    """``intp [6, H*W]``: flat index ``row * W + col`` of each hex's neighbour in direction k+1, -1 off the map."""
    rows, cols = np.divmod(np.arange(height * width), width)
    out = np.full((6, height * width), -1, dtype=np.intp)
    for k in range(6):
        (dr_e, dc_e), (dr_o, dc_o) = neighbor_shift(k + 1)
        odd = (cols & 1).astype(bool)
        nr = rows + np.where(odd, dr_o, dr_e)
        nc = cols + np.where(odd, dc_o, dc_e)
        ok = (nr >= 0) & (nr < height) & (nc >= 0) & (nc < width)
        out[k, ok] = nr[ok] * width + nc[ok]
    return out


class SpreadPairs(NamedTuple):
    """The candidate pairs of one spread step (R8.4) in compact order.

    The order is the C order of ``np.nonzero(spread_candidates(...))``: leading batch index,
    then direction, then the target's row and column. Every array has length ``N`` (pairs).

    Attributes:
        lead: ``intp``: flat index over the leading batch dimensions (the trial for ``[B, H, W]``).
        direction: ``int8``: direction 1..6 from the target building to its burning neighbour.
        row, col: ``intp``: the target building's array position.
    """

    lead: np.ndarray
    direction: np.ndarray
    row: np.ndarray
    col: np.ndarray

    def per_trial(self, trials: int) -> np.ndarray:
        """``int64 [trials]``: how many spread checks each trial rolls (for per-trial streams)."""
        return np.bincount(self.lead, minlength=trials)


def spread_pairs(burning: np.ndarray, dr: np.ndarray, rubble: np.ndarray | None = None) -> SpreadPairs:
    """The candidate pairs of :func:`spread_candidates` as index arrays, found fast (R8.4).

    Equal to ``np.nonzero(spread_candidates(burning, dr, rubble))`` (tested) but computed from the
    few buildings next to a fire, without materializing the ``[..., 6, H, W]`` array: the hot
    path of the fire simulation.

    Args: as :func:`spread_candidates`.
    """
    burning = np.asarray(burning, dtype=bool)
    H, W = burning.shape[-2:]
    hw = H * W
    b2 = burning.reshape(-1, hw)
    target = (np.asarray(dr) > 0) & ~burning
    if rubble is not None:
        target &= ~np.asarray(rubble, dtype=bool)
    pad = _pad(burning, False)
    exposed = _shift_padded(pad, 1)
    scratch = np.empty_like(exposed)
    for d in range(2, 7):
        exposed |= _shift_padded(pad, d, scratch)
    exposed &= target
    flat = np.flatnonzero(exposed)
    lead, pos = np.divmod(flat, hw)
    nbr = _neighbor_flat(H, W)[:, pos]  # [6, M]
    src_burning = (nbr >= 0) & b2[lead[None, :], np.where(nbr >= 0, nbr, 0)]
    k_idx, m_idx = np.nonzero(src_burning)  # direction-major; reorder to (lead, direction, pos)
    order = np.lexsort((pos[m_idx], k_idx, lead[m_idx]))
    k_idx, m_idx = k_idx[order], m_idx[order]
    rows, cols = np.divmod(pos[m_idx], W)
    return SpreadPairs(lead[m_idx], (k_idx + 1).astype(np.int8), rows, cols)


def spread_step(
    burning: np.ndarray,
    dr: np.ndarray,
    rolls: np.ndarray,
    rubble: np.ndarray | None = None,
    spread_bonus: int | None = None,
    candidates: np.ndarray | SpreadPairs | None = None,
) -> np.ndarray:
    """One fire-spread step (R8.4, R5.1a): ``bool [..., H, W]`` burning after the step.

    Every candidate pair (:func:`spread_candidates`) spreads when ``roll + 6 >= DR`` of its
    target; all spreads are computed from ``burning`` as it was before the step and applied
    together (a new fire does not spread in this step).

    Args:
        burning: ``bool [..., H, W]`` fires before the step (after :func:`age_fires`).
        dr: ``int`` DRs broadcastable to ``burning`` (0: no intact building).
        rolls: the 2d6 totals (2..12) of the checks, in one of two layouts:

            * dense ``int [..., 6, H, W]``: ``rolls[..., k, row, col]`` for the pair (target
              ``(row, col)``, source its neighbour in direction ``k + 1``); entries of
              non-candidate pairs are ignored;
            * compact ``int [N]``: one total per candidate pair in the order of
              :func:`spread_pairs` (= C order of ``np.nonzero(spread_candidates(...))``: batch,
              then direction, row, column): the harness draws only ``N`` rolls, the game rolls
              them one by one in this order.
        rubble: optional ``bool`` rubble mask (see :func:`spread_candidates`).
        spread_bonus: added to each roll (default the effect data's 6).
        candidates: :func:`spread_pairs` or :func:`spread_candidates` of this step, if already
            computed.

    Raises:
        ValueError: when a compact ``rolls`` does not hold one total per candidate pair.
    """
    burning = np.asarray(burning, dtype=bool)
    bonus = default_effects().fire_spread_bonus if spread_bonus is None else spread_bonus
    dr = np.asarray(dr)
    rolls = np.asarray(rolls)
    new = np.array(burning, dtype=bool, copy=True, order="C")
    H, W = burning.shape[-2:]
    if rolls.ndim == 1:
        if isinstance(candidates, SpreadPairs):
            pairs = candidates
        elif candidates is not None:
            idx = np.nonzero(candidates)
            lead = (
                np.ravel_multi_index(idx[:-3], candidates.shape[:-3])
                if candidates.ndim > 3
                else np.zeros_like(idx[-1])
            )
            pairs = SpreadPairs(lead, (idx[-3] + 1).astype(np.int8), idx[-2], idx[-1])
        else:
            pairs = spread_pairs(burning, dr, rubble)
        n = pairs.lead.shape[0]
        if rolls.shape[0] != n:
            raise ValueError(
                f"compact rolls: expected one 2d6 total per candidate pair ({n}), got {rolls.shape[0]}"
            )
        pos = pairs.row * W + pairs.col
        if dr.ndim <= 2:
            target_dr = np.broadcast_to(dr, (H, W)).ravel()[pos]
        else:
            target_dr = np.broadcast_to(dr, burning.shape).reshape(-1, H * W)[pairs.lead, pos]
        ok = rolls.astype(np.int32) + bonus >= target_dr
        new.reshape(-1, H * W)[pairs.lead[ok], pos[ok]] = True
        return new
    cand = spread_candidates(burning, dr, rubble) if not isinstance(candidates, np.ndarray) else candidates
    ok = cand & (rolls.astype(np.int32) + bonus >= np.expand_dims(np.broadcast_to(dr, burning.shape), -3))
    return new | ok.any(axis=-3)


def spread_step_rng(
    burning: np.ndarray,
    dr: np.ndarray,
    rng: np.random.Generator,
    rubble: np.ndarray | None = None,
    spread_bonus: int | None = None,
) -> np.ndarray:
    """:func:`spread_step` with the rolls drawn from ``rng``: 2d6 for each candidate pair only.

    The faces are drawn as ``rng.integers(1, 7, size=(N, 2))`` in the compact pair order; the
    result depends on the batch (use per-trial generators where batch-size independence matters).
    """
    pairs = spread_pairs(burning, dr, rubble)
    faces = rng.integers(1, 7, size=(pairs.lead.shape[0], 2), dtype=np.int8)
    return spread_step(burning, dr, faces.sum(axis=1, dtype=np.int16), rubble, spread_bonus, candidates=pairs)


def spread_probability(dr: int, sources: int = 1, spread_bonus: int | None = None) -> Fraction:
    """Exact probability that fire spreads into a building of ``dr`` next to ``sources`` fires in one step.

    Each burning neighbour is an independent check (R8.4): ``1 - (1 - p) ** sources`` with
    ``p = P(2d6 + 6 >= DR)``.

    >>> spread_probability(13), spread_probability(14), spread_probability(15)
    (Fraction(7, 12), Fraction(5, 12), Fraction(5, 18))
    """
    bonus = default_effects().fire_spread_bonus if spread_bonus is None else spread_bonus
    p = sum((Fraction(6 - abs(s - 7), 36) for s in range(2, 13) if s + bonus >= dr), Fraction(0))
    return 1 - (1 - p) ** sources


def fire_damage_eligible(burning: np.ndarray, fire_turns: np.ndarray) -> np.ndarray:
    """``bool [..., H, W]``: hexes whose units take a fire damage check at step b (R8.5).

    Hexes burning before this turn's spread: ``burning & (fire_turns >= 1)`` after
    :func:`age_fires` (a fire lit by the spread of step a still has counter 0).
    """
    return np.asarray(burning, dtype=bool) & (np.asarray(fire_turns) >= 1)


def fire_damage_hits(totals: Any, command_card: Any = False, hit_on: int | None = None) -> Any:
    """Whether fire damage checks hit (R8.5): ``2d6 - (1 if Command card) >= 8``.

    Args:
        totals: 2d6 totals, int or any array.
        command_card: the owner discarded a Command card for -1 (bool or array).
        hit_on: the hit number (default the effect data's 8).

    >>> fire_damage_hits(9), fire_damage_hits(8, command_card=True), fire_damage_hits(np.array([7, 8])).tolist()
    (True, False, [False, True])
    """
    need = default_effects().fire_damage_hit_on if hit_on is None else hit_on
    res = np.asarray(totals) - np.asarray(command_card, dtype=np.int32) >= need
    return bool(res) if res.ndim == 0 else res


# -- events ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class FireBurnedOut(EffectEvent):
    """Variant ``burnout`` (R8.6): a fire that burned its full turns leaves rubble.

    Attributes:
        hex: the burned-out building's hex.
        turns: full turns it burned.
    """

    hex: Hex
    turns: int

    def apply(self, battlemap: BattleMap) -> None:
        """Rubble replaces the building and the fire goes out (R8.3)."""
        battlemap.set_rubble(self.hex)

    def __str__(self) -> str:
        return f"The fire in {hex_text(self.hex)} burned {self.turns} full turns and burns out: rubble"


@dataclass(frozen=True)
class FiresAged(EffectEvent):
    """The fires burning at the start of a turn count one more turn (R8.6 counter).

    Attributes:
        hexes: the burning hexes, in map array order (row, then column).
        turns: their counters after this event, aligned with ``hexes``.
    """

    hexes: tuple[Hex, ...]
    turns: tuple[int, ...]

    def apply(self, battlemap: BattleMap) -> None:
        """Set each hex's ``fire_turns`` counter."""
        for h, t in zip(self.hexes, self.turns, strict=True):
            battlemap.fire_turns[battlemap.index(h)] = t
        battlemap.version += 1

    def __str__(self) -> str:
        return "Fires burning into this turn: " + ", ".join(
            f"{hex_text(h)} ({t})" for h, t in zip(self.hexes, self.turns, strict=True)
        )


@dataclass(frozen=True)
class FireSpreadCheck(EffectEvent):
    """One spread check from a burning hex into an adjacent building (R8.4).

    Attributes:
        from_hex: the burning hex.
        to_hex: the building hex.
        faces: the two d6 faces.
        total: ``sum(faces) + 6``.
        dr: the building's DR.
        spread: ``total >= dr``: the fire spreads (applied with all of the step's spreads).
    """

    from_hex: Hex
    to_hex: Hex
    faces: tuple[int, ...]
    total: int
    dr: int
    spread: bool

    def apply(self, battlemap: BattleMap) -> None:
        """Set the building burning (counter 0: it did not burn before this turn's spread)."""
        if self.spread:
            battlemap.set_fire(self.to_hex)
            battlemap.fire_turns[battlemap.index(self.to_hex)] = 0

    def __str__(self) -> str:
        verdict = "the fire spreads" if self.spread else "no spread"
        return (
            f"Fire spread {hex_text(self.from_hex)} -> {hex_text(self.to_hex)}: 2d6 {list(self.faces)} + "
            f"{self.total - sum(self.faces)} = {self.total} vs DR {self.dr}: {verdict}"
        )


@dataclass(frozen=True)
class FireDamageCheck(EffectEvent):
    """One unit's fire damage check (R8.5).

    Attributes:
        hex: the burning hex.
        unit: the unit's id.
        faces: the two d6 faces.
        command_card: the owner discarded a Command card for -1.
        total: ``sum(faces)`` (-1 with the card).
        hit: ``total >= 8``: the unit takes a hit of Damage Index 4 (events follow).
    """

    hex: Hex
    unit: str
    faces: tuple[int, ...]
    command_card: bool
    total: int
    hit: bool

    def __str__(self) -> str:
        card = " -1 command card" if self.command_card else ""
        verdict = "hit (Damage Index 4)" if self.hit else "no damage"
        return f"Fire damage check for {self.unit} in {hex_text(self.hex)}: 2d6 {list(self.faces)}{card} = {self.total}: {verdict}"


# -- game path -------------------------------------------------------------------------------
def _hex_of(row: int, col: int) -> Hex:
    return Hex.from_offset(int(col), int(row))


def fire_spread_phase(
    battlemap: BattleMap,
    dice: Dice,
    variants: Collection[str] = frozenset(),
    effects: EffectRules | None = None,
) -> list[EffectEvent]:
    """Begin Turn step a (R5.1a): age the fires (``burnout``, R8.6), then roll every spread check (R8.4).

    Runs the array core at batch size 1: :func:`age_fires`, then :func:`spread_pairs` on the
    aged fires; the spread checks are rolled one by one through ``dice`` (``"2d6"`` with the
    logged ``("fire spread", +6)``, nothing else) in the compact pair order (direction from the
    target to its source 1..6, then target row, then column) and fed to :func:`spread_step`.

    Does not change the map. Apply the returned events in order
    (:func:`~hexwar.rules.terrain_effects.apply_events`): burn-outs, the counters
    (:class:`FiresAged`), then all spread checks, so all spreads land after the step.

    Args:
        battlemap: the map.
        dice: the game's dice.
        variants: active rule variants; ``"burnout"`` turns on R8.6's burn-out.
        effects: effect numbers; default the package's.
    """
    eff = effects or default_effects()
    limit = eff.burnout_turns if BURNOUT in variants else None
    aged = age_fires(battlemap.fire[None], battlemap.fire_turns[None], limit)
    events: list[EffectEvent] = []
    for _, row, col in np.argwhere(aged.burned_out):
        h = _hex_of(row, col)
        events.append(FireBurnedOut(h, int(battlemap.fire_turns[row, col])))
    burning_rc = np.argwhere(aged.burning[0])
    if len(burning_rc):
        events.append(
            FiresAged(
                tuple(_hex_of(r, c) for r, c in burning_rc),
                tuple(int(aged.fire_turns[0, r, c]) for r, c in burning_rc),
            )
        )
    dr = battlemap.dr_array()
    rubble = battlemap.rubble[None] | aged.burned_out
    pairs = spread_pairs(aged.burning, dr, rubble)
    totals = np.zeros(len(pairs.lead), dtype=np.int16)
    checks = []
    for i, (k, row, col) in enumerate(zip(pairs.direction, pairs.row, pairs.col, strict=True)):
        to_hex = _hex_of(row, col)
        from_hex = to_hex.neighbor(int(k))
        roll = dice.roll(
            f"fire spread {hex_text(from_hex)} -> {hex_text(to_hex)} (DR {int(dr[row, col])})",
            "2d6",
            modifiers=[("fire spread", eff.fire_spread_bonus)],
        )
        totals[i] = roll.natural
        checks.append((from_hex, to_hex, roll, int(dr[row, col])))
    after = spread_step(aged.burning, dr, totals, rubble, eff.fire_spread_bonus, candidates=pairs)
    for from_hex, to_hex, roll, dr_t in checks:
        spread = roll.result >= dr_t
        assert not spread or after[0][battlemap.index(to_hex)]  # the core and the log agree
        events.append(FireSpreadCheck(from_hex, to_hex, roll.faces, roll.result, dr_t, spread))
    return events


def fire_damage_hexes(battlemap: BattleMap) -> list[Hex]:
    """Hexes whose units take the fire damage check of step b (R8.5), in array order.

    Call after applying step a's events: hexes burning with counter >= 1
    (:func:`fire_damage_eligible`), i.e. burning before this turn's spread.
    """
    return [_hex_of(r, c) for r, c in np.argwhere(fire_damage_eligible(battlemap.fire, battlemap.fire_turns))]


#: ``resolve_hit(unit, hex, damage_index, terrain_modifier, dice) -> events``: the combat
#: engine applies one hit of Damage Index ``damage_index`` (4) to ``unit`` (Intensity 1d10 +
#: DI - effective Defense, R6.5), the hex giving ``terrain_modifier`` (-2 in a fire, R6.7).
FireHit = Callable[[Any, Hex, int, int, "Dice"], Iterable[Any]]


def fire_damage_checks(
    battlemap: BattleMap,
    units: Iterable[tuple[Hex, Any]],
    dice: Dice,
    resolve_hit: FireHit,
    uses_command_card: Callable[[Any], bool] | None = None,
    effects: EffectRules | None = None,
) -> list[Any]:
    """Begin Turn step b (R5.1b, R8.5): the fire damage checks of units in hexes burning before step a.

    Call after applying step a's events. For every ``(hex, unit)`` of ``units`` in an eligible
    hex (:func:`fire_damage_hexes`; aircraft are skipped) roll 2d6 through ``dice``, with a
    ``("command card", -1)`` modifier when ``uses_command_card(unit)`` says the owner discards a
    Command card (R1.3); at 8 or more the unit takes a hit of Damage Index 4 resolved by
    ``resolve_hit`` with the hex's terrain modifier (-2, R6.7).

    Args:
        battlemap: the map after step a.
        units: ``(hex, unit)`` pairs of ground units on the map, in resolution order; each unit
            has ``.id`` and ``.defense_class`` (as :class:`~hexwar.rules.artillery.TargetUnit`).
        dice: the game's dice.
        resolve_hit: the combat engine's hit application (see :data:`FireHit`).
        uses_command_card: the owner's choice per unit (default: never).
        effects: effect numbers; default the package's.

    Returns:
        :class:`FireDamageCheck` events, each followed by ``resolve_hit``'s events on a hit.
    """
    eff = effects or default_effects()
    units = list(units)
    events: list[Any] = []
    for ev in fire_damage_steps(battlemap, units, dice, uses_command_card, effects):
        events.append(ev)
        if ev.hit:
            unit = next(u for h, u in units if h == ev.hex and str(u.id) == ev.unit)
            mod = terrain_defense_modifier(battlemap, ev.hex, defense_class(unit.defense_class), eff)
            events.extend(resolve_hit(unit, ev.hex, eff.fire_damage_index, mod, dice))
    return events


def fire_damage_steps(
    battlemap: BattleMap,
    units: Iterable[tuple[Hex, Any]],
    dice: Dice,
    uses_command_card: Callable[[Any], bool] | None = None,
    effects: EffectRules | None = None,
) -> Iterator[FireDamageCheck]:
    """Begin Turn step b (R5.1b, R8.5) as a sequence of :class:`FireDamageCheck` events.

    The same checks and rolls as :func:`fire_damage_checks`; on a hit (``ev.hit``) the caller
    resolves the hit of Damage Index :attr:`EffectRules.fire_damage_index` (the game through
    its combat engine) before asking for the next check. Nothing here changes the map or the
    caller's state.

    Args: as :func:`fire_damage_checks`, without ``resolve_hit``.
    """
    eff = effects or default_effects()
    eligible = fire_damage_eligible(battlemap.fire, battlemap.fire_turns)
    for h, unit in list(units):
        if not battlemap.in_bounds(h) or not eligible[battlemap.index(h)]:
            continue
        cls = defense_class(unit.defense_class)
        if cls == AIRCRAFT:
            continue
        card = bool(uses_command_card(unit)) if uses_command_card else False
        roll = dice.roll(
            f"fire damage check: {unit.id} in {hex_text(h)} (hit on {eff.fire_damage_hit_on}+)",
            "2d6",
            modifiers=[("command card", -1)] if card else [],
        )
        hit = bool(fire_damage_hits(roll.natural, card, eff.fire_damage_hit_on))
        yield FireDamageCheck(h, str(unit.id), roll.faces, card, roll.result, hit)
