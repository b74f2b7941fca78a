"""Off-board artillery: targeting, accuracy, drift, and the strike's attacks (R9, seed 003).

R9 in one paragraph: a side with missions targets any hex in LOS of one of its ground units and
places the artillery marker there facing north (R9.2). It rolls 1d6 (+1 with the Command-card
bonus, R1.3) and hits on 3-6 (Germans) or 4-6 (Soviets) (a scenario may change these). On a miss
the strike drifts as many hexes as the *unmodified* die showed, in the direction of a second d6
(R2.3: 1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW) (R9.3). A strike landing off the map has no effect and
is logged as such. At the landing hex it attacks every unit (aircraft never), one by one, and
then the building (R9.4, R8.2-R8.4).

Two layers, one set of rules:

* the **vectorized core** :func:`drift_landing` maps dice faces to landing hexes for any number
  of strikes at once (numpy arrays with a leading batch dimension). The simulation harness feeds
  it millions of faces; :func:`exact_landing_distribution` feeds it the 36 face pairs;
* the **game path** :func:`artillery_steps` (and :func:`resolve_artillery` around it) rolls
  the same faces one at a time through the game's :class:`~hexwar.rules.dice.Dice` (so every
  roll is logged, R1.2), feeds them to :func:`drift_landing` at batch size 1 and yields events.

Seed 003's example (R9.5): the Soviet rolls a 2 and misses by 2 hexes, then a 1: the strike lands
2 hexes north of the target.

>>> land = drift_landing((3, 6), accuracy_faces=[2], direction_faces=[1], hit_on=4, width=10, height=10)
>>> bool(land.hit[0]), int(land.drift[0]), Hex.from_offset(int(land.col[0]), int(land.row[0])).label
(False, 2, 'D05')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import DIRECTION_NAMES, DIRECTIONS, Hex
from ..model.los import line_of_sight
from .buildings import BuildingAttackKind, attack_building
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
    "ArtilleryMarkerPlaced",
    "ArtilleryMarkerRemoved",
    "ArtilleryStrike",
    "ArtilleryTargetError",
    "ArtilleryUnitAttack",
    "Landing",
    "TargetUnit",
    "UnitAttack",
    "drift_landing",
    "exact_landing_distribution",
    "landing_histogram",
    "map_sees",
    "resolve_artillery",
    "artillery_steps",
    "roll_strike",
    "sample_strike_faces",
    "strike_hits",
    "target_artillery",
    "target_problem",
]


def _build_drift_table() -> np.ndarray:
    """``int16 [2 parity, 2 miss, 7 accuracy, 8 direction, 4]``: (dcol, drow, drift, direction).

    On an odd-q grid the offset step of a straight drift depends only on the target column's
    parity, so every landing is the target's ``(col, row)`` plus a table entry (R2.2, R2.3).
    Entries of a hit (miss = 0), or of a face outside 1..6, are all 0.
    """
    t = np.zeros((2, 2, 7, 8, 4), dtype=np.int16)
    for parity in (0, 1):
        for acc in range(1, 7):
            for d in range(1, 7):
                dq, dr = DIRECTIONS[d]
                q, r = parity + dq * acc, dr * acc  # target at (col parity, row 0): axial (parity, 0)
                row = r + (q - (q & 1)) // 2
                t[parity, 1, acc, d] = (q - parity, row, acc, d)
    return t


_DRIFT_TABLE = _build_drift_table()
_DRIFT_FLAT = [np.ascontiguousarray(_DRIFT_TABLE[..., i].ravel()) for i in range(4)]


class ArtilleryTargetError(HexwarError):
    """A target the rules do not allow (R9.2): off the map or seen by no friendly ground unit."""


# -- vectorized core -------------------------------------------------------------------------
def strike_hits(accuracy_faces: Any, hit_on: Any, bonus: Any = 0) -> np.ndarray:
    """``bool`` array: which accuracy rolls hit (R9.3): ``face + bonus >= hit_on``.

    Args:
        accuracy_faces: d6 faces 1..6, any shape.
        hit_on: the side's hit number (Germans 3, Soviets 4), scalar or broadcastable array.
        bonus: the Command-card bonus (0 or 1, R1.3), scalar or broadcastable array.

    Raises:
        ValueError: for a face outside 1..6.

    >>> strike_hits([1, 2, 3, 4], hit_on=4).tolist(), strike_hits([3], hit_on=4, bonus=1).tolist()
    ([False, False, False, True], [True])
    """
    acc = np.asarray(accuracy_faces)
    if acc.size and (acc.min() < 1 or acc.max() > 6):
        raise ValueError(f"accuracy d6 faces must be 1..6, got {acc.min()}..{acc.max()}")
    if np.ndim(hit_on) == 0 and np.ndim(bonus) == 0:
        return np.asarray(acc >= int(hit_on) - int(bonus))
    return np.asarray(acc.astype(np.int16) + np.asarray(bonus) >= np.asarray(hit_on))


@dataclass(frozen=True)
class Landing:
    """Where a batch of strikes landed (R9.3); every field is an array of the batch shape ``[B]``.

    Attributes:
        hit: ``bool``: the accuracy roll hit (no drift).
        drift: ``int16``: hexes drifted: the unmodified accuracy face on a miss, 0 on a hit.
        direction: ``int16``: drift direction 1..6 (R2.3) on a miss, 0 on a hit.
        col, row: ``int32``: odd-q offset landing hex (may lie off the map).
        on_map: ``bool``: the landing hex is on the ``width`` x ``height`` map.

    ``q`` and ``r`` (axial, ``int32``) are computed from ``col``/``row`` when asked for.
    """

    hit: np.ndarray
    drift: np.ndarray
    direction: np.ndarray
    col: np.ndarray
    row: np.ndarray
    on_map: np.ndarray

    @property
    def q(self) -> np.ndarray:
        """``int32``: axial q of each landing (= its column, R2.1)."""
        return self.col

    @property
    def r(self) -> np.ndarray:
        """``int32``: axial r of each landing."""
        return self.row - (self.col - (self.col & 1)) // 2

    def hexes(self) -> list[Hex | None]:
        """The landing hexes as :class:`Hex` (``None`` where off the map), flattened."""
        return [
            Hex.from_offset(int(c), int(r)) if ok else None
            for c, r, ok in zip(self.col.ravel(), self.row.ravel(), self.on_map.ravel(), strict=True)
        ]

    def flat_index(self, width: int) -> np.ndarray:
        """``int64``: ``row * width + col`` of each landing, ``-1`` where off the map."""
        return np.where(self.on_map, self.row.astype(np.int64) * width + self.col, -1)


def drift_landing(
    target_offsets: Any,
    accuracy_faces: Any,
    direction_faces: Any,
    hit_on: Any,
    bonus: Any = 0,
    *,
    width: int,
    height: int,
) -> Landing:
    """Landing hexes of a batch of strikes from their dice faces (R9.3, R2.3). Pure, vectorized.

    A strike hits when ``accuracy + bonus >= hit_on``; on a miss it drifts ``accuracy`` hexes
    (the unmodified face) in direction ``direction`` (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW), a
    straight line of axial steps ``DIRECTIONS[direction] * accuracy``. Implemented as one table
    lookup per strike (the offset step depends only on the target column's parity), so it runs
    at tens of millions of strikes per second.

    Args:
        target_offsets: odd-q offset ``(col, row)`` of the target: shape ``[2]`` (one target for
            the whole batch) or ``[B, 2]``.
        accuracy_faces: ``int [B]`` accuracy d6 faces 1..6.
        direction_faces: ``int [B]`` direction d6 faces 1..6; ignored where the strike hits
            (there 0 is allowed, as the game rolls no direction die on a hit).
        hit_on: the side's hit number, scalar or ``[B]`` (a sweep).
        bonus: Command-card bonus 0/1, scalar or ``[B]``.
        width, height: map size in hexes, for ``on_map``.

    Returns:
        a :class:`Landing` of ``[B]`` arrays.

    Raises:
        ValueError: for faces outside 1..6 (direction faces: where the strike misses) or a
            malformed target.
    """
    tgt = np.asarray(target_offsets)
    if tgt.shape[-1:] != (2,) or tgt.ndim > 2:
        raise ValueError(f"target_offsets must have shape [2] or [B, 2] (col, row), got {tgt.shape}")
    acc = np.asarray(accuracy_faces)
    dirf = np.asarray(direction_faces)
    hit = strike_hits(acc, hit_on, bonus)
    if dirf.size and (dirf.min() < 1 or dirf.max() > 6):
        dm = np.broadcast_to(dirf, hit.shape)[~hit]
        if dm.size and (dm.min() < 1 or dm.max() > 6):
            raise ValueError(
                f"direction d6 faces must be 1..6 where a strike misses, got {dm.min()}..{dm.max()}"
            )
        dirf = np.where(hit, 0, dirf)  # a hit needs no direction die (the game passes 0)
    tcol = tgt[..., 0].astype(np.int32)
    trow = tgt[..., 1].astype(np.int32)
    code = acc.astype(np.intp)
    code *= 8
    code += dirf
    if np.ndim(hit_on) == 0 and np.ndim(bonus) == 0 and tcol.ndim == 0:
        # one target, one hit number: a table for this call with the hitting faces zeroed
        need = int(hit_on) - int(bonus)
        table = _DRIFT_TABLE[int(tcol) & 1, 1].copy()
        table[max(need, 0) :] = 0
        flat = [np.ascontiguousarray(table[..., i].ravel()) for i in range(4)]
    else:
        np.add(code, 56, out=code, where=~hit)
        if tcol.ndim:
            code += (tcol & 1).astype(np.intp) * 112
        elif int(tcol) & 1:
            code += 112
        flat = _DRIFT_FLAT
    col = np.take(flat[0], code).astype(np.int32)
    col += tcol
    row = np.take(flat[1], code).astype(np.int32)
    row += trow
    drift = np.take(flat[2], code)
    direction = np.take(flat[3], code)
    on_map = (col >= 0) & (col < width) & (row >= 0) & (row < height)
    return Landing(np.asarray(hit), drift, direction, col, row, on_map)


def sample_strike_faces(
    rng: np.random.Generator, size: int | tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """Draw accuracy and direction d6 faces for ``size`` strikes from ``rng`` (R1.2).

    Returns ``(accuracy, direction)``, two ``int8`` arrays of shape ``size`` (the direction face
    is drawn for every strike, used only on misses). For the simulation harness; the game rolls
    through :class:`~hexwar.rules.dice.Dice` instead (see :func:`roll_strike`).
    """
    shape = (size,) if isinstance(size, int) else tuple(size)
    faces = rng.integers(1, 7, size=(2, *shape), dtype=np.int8)
    return faces[0], faces[1]


def landing_histogram(landing: Landing, width: int, height: int) -> tuple[np.ndarray, int]:
    """Count landings per hex: ``(int64 [height, width], off-map count)``."""
    n = width * height
    idx = landing.row.astype(np.intp).ravel() * width
    idx += landing.col.ravel()
    idx[~landing.on_map.ravel()] = n  # one extra bin for off-map landings
    counts = np.bincount(idx, minlength=n + 1)
    return counts[:n].reshape(height, width), int(counts[n])


def exact_landing_distribution(
    target: Hex,
    hit_on: int,
    bonus: int = 0,
    width: int | None = None,
    height: int | None = None,
) -> dict[Hex | None, Fraction]:
    """The exact landing distribution of one strike (R9.3): every face pair has probability 1/36.

    Computed by feeding all 36 (accuracy, direction) face pairs through :func:`drift_landing`.

    Args:
        target: the target hex.
        hit_on: the side's hit number; bonus: the Command-card bonus (0/1).
        width, height: the map size; when given, all off-map landings are summed under ``None``.

    >>> d = exact_landing_distribution(Hex(0, 0), hit_on=4)
    >>> d[Hex(0, 0)], d[Hex(0, -2)], len(d)
    (Fraction(1, 2), Fraction(1, 36), 19)

    Answers are remembered (the AI rates every candidate hex each turn, issue 22); each call
    returns a new dict.
    """
    return dict(_landing_items(target, hit_on, bonus, width, height))


@lru_cache(maxsize=4096)
def _landing_items(
    target: Hex, hit_on: int, bonus: int, width: int | None, height: int | None
) -> tuple[tuple[Hex | None, Fraction], ...]:
    """:func:`exact_landing_distribution`'s items, in its order (computed once per arguments)."""
    acc, dirf = np.meshgrid(np.arange(1, 7), np.arange(1, 7), indexing="ij")
    col, row = target.offset
    big = 1 << 20
    land = drift_landing(
        (col, row),
        acc.ravel(),
        dirf.ravel(),
        hit_on,
        bonus,
        width=width if width is not None else big,
        height=height if height is not None else big,
    )
    out: dict[Hex | None, Fraction] = {}
    step = Fraction(1, 36)
    for q, r, ok in zip(land.q, land.r, land.on_map, strict=True):
        key: Hex | None = Hex(int(q), int(r)) if (ok or width is None) else None
        out[key] = out.get(key, Fraction(0)) + step
    return tuple(out.items())


# -- targeting (R9.2) ------------------------------------------------------------------------
def map_sees(battlemap: BattleMap) -> Callable[[Hex, Hex], bool]:
    """The map's own LOS test (R3) as a ``sees(a, b)`` query: ``line_of_sight(...).visible``."""

    def sees(a: Hex, b: Hex) -> bool:
        return line_of_sight(battlemap, a, b).status != "blocked"

    return sees


def target_problem(
    battlemap: BattleMap,
    target: Hex,
    observers: Iterable[Hex],
    sees: Callable[[Hex, Hex], bool] | None = None,
) -> str | None:
    """Why ``target`` may not be targeted (R9.2), or ``None`` when one observer sees it.

    Args:
        battlemap: the map.
        target: the hex to be targeted.
        observers: hexes of the side's ground units (aircraft are not observers).
        sees: ``sees(a, b)``: LOS from ``a`` to ``b`` is not blocked; default
            :func:`map_sees` (``hexwar.model.los.line_of_sight`` on ``battlemap``).
    """
    sees = sees or map_sees(battlemap)
    if not battlemap.in_bounds(target):
        return f"target {hex_text(target)} is off the map"
    obs = list(observers)
    if not obs:
        return "the side has no ground unit on the map to observe the target"
    if any(sees(o, target) for o in obs):
        return None
    return f"no friendly ground unit has LOS to {hex_text(target)}"


@dataclass(frozen=True)
class ArtilleryMarkerPlaced(EffectEvent):
    """A side placed the artillery marker on its target hex, facing north (R9.2).

    Attributes:
        side: ``"german"`` or ``"soviet"``.
        target: the target hex.
        observer: the hex of a friendly ground unit that sees it.
    """

    side: str
    target: Hex
    observer: Hex

    def apply(self, battlemap: BattleMap) -> None:
        """Put the marker on the map (``battlemap.artillery_marker``)."""
        battlemap.artillery_marker = self.target
        battlemap.version += 1

    def __str__(self) -> str:
        return (
            f"{self.side.capitalize()} artillery targets {hex_text(self.target)} (observer in "
            f"{hex_text(self.observer)}); marker placed facing north"
        )


def target_artillery(
    battlemap: BattleMap,
    side: str,
    target: Hex,
    observers: Iterable[Hex],
    sees: Callable[[Hex, Hex], bool] | None = None,
) -> ArtilleryMarkerPlaced:
    """Target ``target`` with an off-board mission (R9.2); the event places the marker.

    Args: see :func:`target_problem`; ``side`` is the firing side.

    Raises:
        ArtilleryTargetError: saying why when the target is not allowed.
    """
    sees = sees or map_sees(battlemap)
    obs = list(observers)
    problem = target_problem(battlemap, target, obs, sees)
    if problem:
        raise ArtilleryTargetError(f"{side} artillery cannot target {hex_text(target)}: {problem}")
    observer = next(o for o in obs if sees(o, target))
    return ArtilleryMarkerPlaced(side, target, observer)


# -- resolution (R9.3, R9.4) -----------------------------------------------------------------
@dataclass(frozen=True)
class ArtilleryStrike(EffectEvent):
    """Where one off-board artillery strike came down (R9.3).

    Attributes:
        side: the firing side.
        target: the targeted hex.
        accuracy_roll: the unmodified accuracy d6 face.
        command_card: the Command-card bonus (+1) was used on the accuracy roll.
        hit_on: the hit number used.
        hit: the strike hit the target.
        drift: hexes drifted (the unmodified face; 0 on a hit).
        direction: drift direction 1..6 (R2.3), 0 on a hit.
        landing: the landing hex (may lie off the map).
        off_map: the strike landed off the map: no effect.
    """

    side: str
    target: Hex
    accuracy_roll: int
    command_card: bool
    hit_on: int
    hit: bool
    drift: int
    direction: int
    landing: Hex
    off_map: bool

    def __str__(self) -> str:
        mod = " +1 command card" if self.command_card else ""
        head = (
            f"{self.side.capitalize()} artillery at {hex_text(self.target)}: accuracy 1d6 = "
            f"{self.accuracy_roll}{mod} (hits on {self.hit_on}+)"
        )
        if self.hit:
            return f"{head}: on target"
        where = (
            f"drifts {self.drift} {'hex' if self.drift == 1 else 'hexes'} {DIRECTION_NAMES[self.direction]}"
        )
        if self.off_map:
            return f"{head}: misses, {where}, off the map: no effect"
        return f"{head}: misses, {where} to {hex_text(self.landing)}"


@dataclass(frozen=True)
class ArtilleryUnitAttack(EffectEvent):
    """The strike attacks one unit in the landing hex (R9.4); the combat engine's events follow.

    Attributes:
        side: the firing side.
        hex: the landing hex.
        unit: the unit's id.
        terrain_modifier: the terrain Defense modifier the unit gets (R6.7).
    """

    side: str
    hex: Hex
    unit: str
    terrain_modifier: int

    def __str__(self) -> str:
        return (
            f"{self.side.capitalize()} artillery attacks {self.unit} in {hex_text(self.hex)} "
            f"(terrain Defense {self.terrain_modifier:+d})"
        )


@dataclass(frozen=True)
class ArtilleryMarkerRemoved(EffectEvent):
    """The mission is resolved and the marker leaves the map.

    Attributes:
        side: the side whose mission ended.
    """

    side: str

    def apply(self, battlemap: BattleMap) -> None:
        """Remove the marker (``battlemap.artillery_marker = None``)."""
        battlemap.artillery_marker = None
        battlemap.version += 1

    def __str__(self) -> str:
        return f"{self.side.capitalize()} artillery mission resolved; marker removed"


@dataclass(frozen=True)
class TargetUnit:
    """A unit in the landing hex, as the artillery rules need to see it.

    Attributes:
        id: the unit's id (named by the :class:`ArtilleryUnitAttack` that announces its attack).
        defense_class: ``"soft"``, ``"armored"``, ``"aircraft"`` or a unit type (R6.8).
    """

    id: str
    defense_class: str


#: ``attack_unit(unit, hex, terrain_modifier, dice) -> events``: resolves one artillery attack on
#: one unit with the mission's weapon through the combat engine (R6), the unit getting
#: ``terrain_modifier`` (R6.7) as terrain Defense. It may apply its events to the game at once
#: (a destroyed vehicle's wreck then protects the next unit attacked).
UnitAttack = Callable[[Any, Hex, int, "Dice"], Iterable[Any]]


def roll_strike(
    battlemap: BattleMap,
    side: str,
    target: Hex,
    dice: Dice,
    hit_on: int | None = None,
    command_card: bool = False,
    effects: EffectRules | None = None,
) -> ArtilleryStrike:
    """Roll one strike's accuracy and drift through ``dice`` and find where it lands (R9.3).

    Dice: ``"1d6"`` for accuracy (with the ``("command card", +1)`` modifier when used), then
    only on a miss a second ``"1d6"`` for the direction; both logged. The faces go through
    :func:`drift_landing` at batch size 1.

    Args:
        battlemap: the map (its size decides off-map landings).
        side: the firing side; picks the hit number from the effect data unless ``hit_on`` is given.
        target: the target hex (on the map).
        dice: the game's dice.
        hit_on: the scenario's hit number for this side, if it changes the default.
        command_card: discard a Command card for +1 on the accuracy roll (R1.3).

    Raises:
        MapError: when the target is off the map.
        ValueError: for a side without a hit number.
    """
    battlemap.index(target)
    eff = effects or default_effects()
    need = int(hit_on) if hit_on is not None else eff.side_hit_on(side)
    acc = dice.roll(
        f"{side} artillery accuracy at {hex_text(target)} (hits on {need}+)", "1d6", command_card=command_card
    ).natural
    bonus = 1 if command_card else 0
    direction = 0
    if not bool(strike_hits(acc, need, bonus)):
        direction = dice.roll(
            f"{side} artillery drift direction (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW)", "1d6"
        ).natural
    land = drift_landing(
        target.offset, [acc], [direction], need, bonus, width=battlemap.width, height=battlemap.height
    )
    landing = Hex(int(land.q[0]), int(land.r[0]))
    return ArtilleryStrike(
        side,
        target,
        acc,
        command_card,
        need,
        bool(land.hit[0]),
        int(land.drift[0]),
        int(land.direction[0]),
        landing,
        not bool(land.on_map[0]),
    )


def resolve_artillery(
    battlemap: BattleMap,
    side: str,
    target: Hex,
    dice: Dice,
    damage_index: int,
    units_at: Callable[[Hex], Sequence[Any]],
    attack_unit: UnitAttack,
    hit_on: int | None = None,
    command_card: bool = False,
    effects: EffectRules | None = None,
) -> list[Any]:
    """Resolve one off-board artillery mission on ``target`` (R9.3, R9.4).

    In order: the strike (:func:`roll_strike`); if it landed on the map, one attack on every
    unit ``units_at(landing)`` returns (aircraft skipped), each announced by an
    :class:`ArtilleryUnitAttack` and resolved by ``attack_unit``; then one attack on the
    building there (:func:`~hexwar.rules.buildings.attack_building`, kind artillery, the
    mission's Damage Index); finally :class:`ArtilleryMarkerRemoved`. Units are attacked before
    the building, so they keep the building's modifier against the attack that destroys it (R8.3).

    This is :func:`artillery_steps` with ``attack_unit`` called on each announced unit, for
    the simulation harness and tests (whose ``attack_unit`` changes nothing); the game drives
    :func:`artillery_steps` itself. The rule code does not change the map: apply the returned
    events in order
    (:func:`~hexwar.rules.terrain_effects.apply_events`; the combat engine's unit events are the
    game's to apply).

    Args:
        battlemap: the map.
        side: the firing side.
        target: the targeted hex (the marker's hex).
        dice: the game's dice.
        damage_index: the mission weapon's Damage Index (R9.1), used against the building.
        units_at: the units in a hex, as objects with ``.id`` and ``.defense_class``
            (:class:`TargetUnit` or the game's own), in the order to attack them.
        attack_unit: the combat engine's attack of the mission weapon on one unit (see
            :data:`UnitAttack`).
        hit_on: the scenario's hit number, if not the default of ``side``.
        command_card: the Command-card bonus on the accuracy roll.
        effects: effect numbers; default the package's.

    Returns:
        the events, in order.
    """
    listed: dict[Hex, list[Any]] = {}

    def units_once(x: Hex) -> list[Any]:
        listed[x] = list(units_at(x))
        return listed[x]

    events: list[Any] = []
    for ev in artillery_steps(
        battlemap, side, target, dice, damage_index, units_once, hit_on, command_card, effects
    ):
        events.append(ev)
        if isinstance(ev, ArtilleryUnitAttack):
            unit = next(u for u in listed[ev.hex] if str(u.id) == ev.unit)
            events.extend(attack_unit(unit, ev.hex, ev.terrain_modifier, dice))
    return events


def artillery_steps(
    battlemap: BattleMap,
    side: str,
    target: Hex,
    dice: Dice,
    damage_index: int,
    units_at: Callable[[Hex], Sequence[Any]],
    hit_on: int | None = None,
    command_card: bool = False,
    effects: EffectRules | None = None,
) -> Iterator[Any]:
    """One off-board artillery mission on ``target`` as a sequence of events (R9.3, R9.4).

    Yields the :class:`ArtilleryStrike`; if it landed on the map, one
    :class:`ArtilleryUnitAttack` per unit ``units_at(landing)`` lists (aircraft skipped); then
    the building attack (kind artillery, the mission's Damage Index) if there is a building;
    finally :class:`ArtilleryMarkerRemoved`. The caller resolves each announced unit attack
    (the game through its combat engine) and applies its losses *before* asking for the next
    event: the terrain modifier of the next unit is read then, so a wreck just placed counts
    (R8.1). Nothing here changes the map or calls back into the caller's state; the map
    events are the caller's to apply, in order.

    Args: as :func:`resolve_artillery`, without ``attack_unit``.
    """
    strike = roll_strike(battlemap, side, target, dice, hit_on, command_card, effects)
    yield strike
    if not strike.off_map:
        h = strike.landing
        for unit in list(units_at(h)):
            cls = defense_class(unit.defense_class)
            if cls == AIRCRAFT:  # R9.4: aircraft are never hit
                continue
            mod = terrain_defense_modifier(battlemap, h, cls, effects)
            yield ArtilleryUnitAttack(side, h, str(unit.id), mod)
        b = attack_building(
            battlemap,
            h,
            BuildingAttackKind.ARTILLERY,
            damage_index,
            dice,
            attacker=f"{side.capitalize()} artillery",
            effects=effects,
        )
        if b is not None:
            yield b
    yield ArtilleryMarkerRemoved(side)
