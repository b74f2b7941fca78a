"""Per-trial random streams for the simulation harness: one SeedSequence child per trial (R1.2).

The harness runs many independent trials of the same rules at once (numpy over a leading batch
axis). For the result of a run to depend on the seed alone, never on how the trials are cut
into batches, every trial owns its random stream, and every die of a trial is found by *what it
decides*, never by how many dice other trials rolled before it.

Trial keys
    Trial ``i`` of a run with seed ``s`` is keyed by the state of the ``i``-th child of
    ``numpy.random.SeedSequence(s)``: ``SeedSequence(s).spawn(n)[i].generate_state(1,
    np.uint64)[0]`` (one 64-bit word). :func:`trial_keys` computes exactly these words for a whole
    range of trials with numpy (the per-child hashing of SeedSequence vectorized over the
    spawn key; the tests compare it with numpy's own SeedSequence), so a million keys take
    milliseconds instead of the seconds a Python loop over ``spawn`` would.

Counter-based dice
    A trial's stream is a function of its key and a 64-bit *counter* naming the decision:
    ``word = mix64(mix64(key + counter * GOLDEN) ^ key)`` (SplitMix64's finalizer, twice), one
    64-bit word per counter, from which :func:`d6_pair` takes two d6 faces (the high and the low
    32 bits, each scaled to 1..6 by a multiply-shift: ``face = (w32 * 6 >> 32) + 1``; the
    bias of that scaling is below 6 / 2**32 = 1.4e-9 per face, far under any Monte Carlo error).
    The counters the harness uses are built by :func:`artillery_counter` (mission, slot) and
    :func:`fire_counter` (turn, spread direction, building hex): the roll of a given spread
    check in a given trial is the same whatever else happened in other trials or batches, which
    also makes parameter sweeps use common random numbers.

Both the keys and the words are pure functions, so the game-side tests can replay one trial's
dice through the game's own :class:`~hexwar.rules.dice.Dice` (see ``tests/test_sim_rules.py``).

>>> k = trial_keys(42, 0, 3)
>>> bool(k[1] == np.random.SeedSequence(42).spawn(3)[1].generate_state(1, np.uint64)[0])
True
>>> a, b = d6_pair(trial_words(k, artillery_counter(0, 0)))
>>> a.shape, bool(((1 <= a) & (a <= 6)).all())
((3,), True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import HexwarError

__all__ = [
    "GOLDEN",
    "MAX_SEED_BITS",
    "MAX_TRIALS",
    "SeedError",
    "artillery_counter",
    "batches",
    "check_seed",
    "d6_pair",
    "fire_counter",
    "mix64",
    "trial_keys",
    "trial_words",
]

MASK32 = 0xFFFFFFFF
# numpy.random.SeedSequence constants (numpy/random/bit_generator.pyx, O'Neill's seed_seq_fe)
_POOL_SIZE = 4
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_KEY_WORDS = 2  # uint32 words of a trial key: generate_state(1, np.uint64)

GOLDEN = np.uint64(0x9E3779B97F4A7C15)  #: SplitMix64's increment (odd): spaces the counters
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

MAX_TRIALS = 2**32 - 1  #: trial indices must fit one 32-bit word of the spawn key
MAX_SEED_BITS = 256  #: seeds are integers 0 <= seed < 2**256

# counter layout: stream tag in the top byte
_TAG_ARTILLERY = 1
_TAG_FIRE = 2


class SeedError(HexwarError):
    """A seed or trial range the harness cannot use; the message says what was expected."""


def check_seed(seed: Any) -> int:
    """Return ``seed`` as a Python int, or raise :class:`SeedError` (non-negative, < 2**256).

    >>> check_seed(7)
    7
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise SeedError(f"seed must be a whole number, got {seed!r}")
    s = int(seed)
    if s < 0 or s.bit_length() > MAX_SEED_BITS:
        raise SeedError(f"seed must be 0 <= seed < 2**{MAX_SEED_BITS}, got {s}")
    return s


def _words32(n: int) -> list[int]:
    """Little-endian 32-bit words of a non-negative int (``[0]`` for 0), as SeedSequence does."""
    if n == 0:
        return [0]
    out = []
    while n:
        out.append(n & MASK32)
        n >>= 32
    return out


def _hashmix_scalar(value: int, hc: int) -> tuple[int, int]:
    value = (value ^ hc) & MASK32
    hc = (hc * _MULT_A) & MASK32
    value = (value * hc) & MASK32
    value ^= value >> _XSHIFT
    return value, hc


def _mix_scalar(x: int, y: int) -> int:
    r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & MASK32
    return r ^ (r >> _XSHIFT)


def _prefix(seed: int) -> tuple[list[int], int]:
    """The SeedSequence pool after mixing the run entropy of ``seed`` (padded to the pool size,
    as it is whenever a spawn key follows), and the hash constant where the spawn key starts."""
    run = _words32(seed)
    run = run + [0] * max(0, _POOL_SIZE - len(run))
    hc = _INIT_A
    mixer = [0] * _POOL_SIZE
    for i in range(_POOL_SIZE):
        mixer[i], hc = _hashmix_scalar(run[i], hc)
    for i_src in range(_POOL_SIZE):
        for i_dst in range(_POOL_SIZE):
            if i_src != i_dst:
                h, hc = _hashmix_scalar(mixer[i_src], hc)
                mixer[i_dst] = _mix_scalar(mixer[i_dst], h)
    for i_src in range(_POOL_SIZE, len(run)):
        for i_dst in range(_POOL_SIZE):
            h, hc = _hashmix_scalar(run[i_src], hc)
            mixer[i_dst] = _mix_scalar(mixer[i_dst], h)
    return mixer, hc


def trial_keys(seed: int, start: int, stop: int) -> np.ndarray:
    """Keys of trials ``start .. stop-1``: ``uint64 [stop - start]``.

    Element ``j`` equals ``numpy.random.SeedSequence(seed).spawn(stop)[start + j].generate_state(1,
    np.uint64)[0]`` (tested), computed for all trials at once: the spawn key word is mixed into
    the two pool words that word is made of, with numpy ``uint32`` arithmetic.

    Args:
        seed: the run's seed, ``0 <= seed < 2**256``.
        start, stop: trial index range, ``0 <= start <= stop <= 2**32``.

    Raises:
        SeedError: for a bad seed or range.
    """
    seed = check_seed(seed)
    if not (0 <= start <= stop <= MAX_TRIALS + 1):
        raise SeedError(f"trial range {start}..{stop} must lie within 0..{MAX_TRIALS + 1}")
    mixer, hc = _prefix(seed)
    # constants of each step: hashmix's constant before and after, L * mixer[d], generate_state's
    steps = []
    hb = _INIT_B
    for d in range(_KEY_WORDS):
        h_in = hc
        hc = (hc * _MULT_A) & MASK32
        b_in = hb
        hb = (hb * _MULT_B) & MASK32
        steps.append(
            (
                np.uint32(h_in),
                np.uint32(hc),
                np.uint32((_MIX_MULT_L * mixer[d]) & MASK32),
                np.uint32(b_in),
                np.uint32(hb),
            )
        )
    mr, xs, s32 = np.uint32(_MIX_MULT_R), np.uint32(_XSHIFT), np.uint64(32)
    n = stop - start
    keys = np.empty(n, dtype=np.uint64)
    chunk = 1 << 15  # stays in cache
    w = np.empty(min(n, chunk), dtype=np.uint32)
    v = np.empty_like(w)
    t = np.empty_like(w)
    wide = np.empty(w.shape, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for c0 in range(0, n, chunk):
            m = min(chunk, n - c0)
            wc, vc, tc, widec = w[:m], v[:m], t[:m], wide[:m]
            out = keys[c0 : c0 + m]
            # the spawn key word of each trial: start + c0 + j (< 2**32)
            np.add(np.arange(m, dtype=np.uint32), np.uint32((start + c0) & MASK32), out=wc)
            for d, (ha, hb_, lm, ba, bb) in enumerate(steps):
                # hashmix(w, hc) = ((w ^ hc) * (hc * MULT_A)), xor-shift
                np.bitwise_xor(wc, ha, out=vc)
                np.multiply(vc, hb_, out=vc)
                np.right_shift(vc, xs, out=tc)
                np.bitwise_xor(vc, tc, out=vc)
                # pool[d] = mix(mixer[d], that) = (L * mixer[d] - R * that), xor-shift
                np.multiply(vc, mr, out=vc)
                np.subtract(lm, vc, out=vc)
                np.right_shift(vc, xs, out=tc)
                np.bitwise_xor(vc, tc, out=vc)
                # generate_state's word d from pool[d]
                np.bitwise_xor(vc, ba, out=vc)
                np.multiply(vc, bb, out=vc)
                np.right_shift(vc, xs, out=tc)
                np.bitwise_xor(vc, tc, out=vc)
                if d == 0:
                    out[...] = vc
                else:  # little-endian: word 1 is the high half
                    widec[...] = vc
                    np.left_shift(widec, s32, out=widec)
                    np.bitwise_or(out, widec, out=out)
    return keys


def mix64(x: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """SplitMix64's finalizer on a ``uint64`` array, in place; returns ``x``.

    Args:
        x: ``uint64`` array, changed in place.
        scratch: optional ``uint64`` array of ``x``'s shape for the shifted copies.
    """
    t = np.empty_like(x) if scratch is None else scratch
    with np.errstate(over="ignore"):
        np.right_shift(x, np.uint64(30), out=t)
        np.bitwise_xor(x, t, out=x)
        np.multiply(x, _M1, out=x)
        np.right_shift(x, np.uint64(27), out=t)
        np.bitwise_xor(x, t, out=x)
        np.multiply(x, _M2, out=x)
        np.right_shift(x, np.uint64(31), out=t)
        np.bitwise_xor(x, t, out=x)
    return x


def trial_words(keys: np.ndarray, counter: Any) -> np.ndarray:
    """One random 64-bit word per trial and counter: ``uint64`` of the broadcast shape.

    ``word = mix64(mix64(key + counter * GOLDEN) ^ key)``: SplitMix64's output function on
    the trial's own Weyl sequence, mixed once more with the key so that two trials whose Weyl
    sequences happen to overlap still give different words.

    Args:
        keys: ``uint64 [B]`` trial keys (:func:`trial_keys`), or keys picked per element
            (``keys[lead]`` for the pairs of a spread step).
        counter: ``uint64`` scalar or array (broadcast against ``keys``) naming the decision
            (see :func:`artillery_counter`, :func:`fire_counter`).
    """
    c = np.asarray(counter, dtype=np.uint64)
    with np.errstate(over="ignore"):
        x = np.multiply(c, GOLDEN)
        x = np.add(x, keys)
        t = np.empty_like(x)
        mix64(x, t)
        np.bitwise_xor(x, keys, out=x)
        mix64(x, t)
    return x


def d6_pair(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two d6 faces 1..6 (``int8``) from each 64-bit word: the high and the low 32 bits (R1.1).

    ``face = (w32 * 6 >> 32) + 1``: each face value has probability ``1/6`` within ``1.4e-9``.
    """
    s32, six = np.uint64(32), np.uint64(6)
    t = np.right_shift(words, s32)
    t *= six
    t >>= s32
    a = t.astype(np.int8)
    np.bitwise_and(words, np.uint64(MASK32), out=t)
    t *= six
    t >>= s32
    b = t.astype(np.int8)
    a += 1
    b += 1
    return a, b


def artillery_counter(mission: Any, slot: int) -> Any:
    """The counter of one artillery decision: mission ``0..``, slot 0 = accuracy and direction
    d6 (high, low face), slot 1 = the building attack's 2d6 (R9.3, R8.2).

    Returns a ``uint64`` scalar or array like ``mission``.
    """
    m = np.asarray(mission, dtype=np.uint64)
    return (np.uint64(_TAG_ARTILLERY) << np.uint64(56)) | (m << np.uint64(8)) | np.uint64(slot)


def fire_counter(turn: Any, direction: Any, flat_pos: Any, hexes: int) -> Any:
    """The counter of one fire-spread check (R8.4): turn ``1..``, the direction ``1..6`` from the
    building to its burning neighbour, and the building's flat index ``row * width + col`` on a
    map of ``hexes = width * height`` hexes. Its word gives the check's two d6 faces.

    Returns ``uint64`` (scalar or array of the broadcast shape).
    """
    t = np.asarray(turn, dtype=np.uint64)
    d = np.asarray(direction, dtype=np.uint64) - np.uint64(1)
    p = np.asarray(flat_pos, dtype=np.uint64)
    inner = d * np.uint64(hexes) + p  # < 6 * 250_000 < 2**21
    return (np.uint64(_TAG_FIRE) << np.uint64(56)) | (t << np.uint64(32)) | inner


def batches(trials: int, batch_size: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` trial ranges of at most ``batch_size`` covering ``0..trials``.

    Raises:
        SeedError: for a negative trial count, too many trials, or a batch size below 1.

    >>> list(batches(5, 2))
    [(0, 2), (2, 4), (4, 5)]
    """
    if not isinstance(trials, int | np.integer) or trials < 0 or trials > MAX_TRIALS:
        raise SeedError(f"trials must be 0..{MAX_TRIALS}, got {trials!r}")
    if not isinstance(batch_size, int | np.integer) or batch_size < 1:
        raise SeedError(f"batch size must be a whole number >= 1, got {batch_size!r}")
    for s in range(0, int(trials), int(batch_size)):
        yield s, min(int(trials), s + int(batch_size))
