"""Per-trial random streams of the simulation harness (R1.2; hexwar.sim.seeding)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.sim.seeding import (
    SeedError,
    artillery_counter,
    batches,
    check_seed,
    d6_pair,
    fire_counter,
    trial_keys,
    trial_words,
)


def numpy_key(seed: int, i: int) -> np.uint64:
    """What numpy itself gives the i-th child of SeedSequence(seed)."""
    return np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**64 + 5, 2**127 + 3, 2**200 + 17])
def test_trial_keys_are_the_seed_sequence_children(seed):
    n = 40
    ref = [c.generate_state(1, np.uint64)[0] for c in np.random.SeedSequence(seed).spawn(n)]
    assert trial_keys(seed, 0, n).tolist() == [int(x) for x in ref], f"seed {seed}"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**128), start=st.integers(0, 2**32 - 70_000), n=st.integers(0, 70_000))
def test_any_range_of_trial_keys_matches_numpy(seed, start, n):
    keys = trial_keys(seed, start, start + n)
    assert keys.shape == (n,)
    for j in {0, n // 2, n - 1} if n else ():
        assert keys[j] == numpy_key(seed, start + j), f"seed {seed} trial {start + j}"


def test_last_trial_index_fits_one_spawn_word():
    assert trial_keys(5, 2**32 - 1, 2**32)[0] == numpy_key(5, 2**32 - 1)
    with pytest.raises(SeedError):
        trial_keys(5, 2**32, 2**32 + 1)


def test_keys_do_not_depend_on_how_trials_are_batched():
    whole = trial_keys(9, 0, 100_000)
    parts = np.concatenate([trial_keys(9, s, e) for s, e in batches(100_000, 32_771)])
    assert (whole == parts).all()


@pytest.mark.parametrize("bad", [-1, 2**256, 1.5, "7", True, None])
def test_bad_seeds_are_refused_with_a_sentence(bad):
    with pytest.raises(SeedError, match="seed must be"):
        check_seed(bad)


def test_batches_cover_every_trial_once_and_refuse_nonsense():
    assert list(batches(0, 5)) == []
    assert list(batches(7, 3)) == [(0, 3), (3, 6), (6, 7)]
    with pytest.raises(SeedError):
        list(batches(5, 0))
    with pytest.raises(SeedError):
        list(batches(-1, 5))


def test_d6_faces_are_uniform_chi_square():
    # 600k faces from 300k words of consecutive trials: chi-square with 5 degrees of freedom
    words = trial_words(trial_keys(11, 0, 300_000), artillery_counter(0, 0))
    a, b = d6_pair(words)
    for faces in (a, b):
        counts = np.bincount(faces, minlength=7)[1:]
        assert counts.sum() == 300_000 and faces.min() == 1 and faces.max() == 6
        expected = 300_000 / 6
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 20.5, f"chi-square {chi2:.1f} (p < 0.001 at 5 df is 20.5)"


def test_the_two_faces_of_a_word_and_neighbouring_trials_are_independent():
    words = trial_words(trial_keys(12, 0, 200_000), artillery_counter(3, 1))
    a, b = d6_pair(words)
    # 36 cells of the joint table of (a, b) and of (a of trial i, a of trial i + 1)
    for x, y in ((a, b), (a[:-1], a[1:])):
        table = np.bincount((x.astype(int) - 1) * 6 + (y - 1), minlength=36)
        expected = x.size / 36
        chi2 = ((table - expected) ** 2 / expected).sum()
        assert chi2 < 66.6, f"chi-square {chi2:.1f} (p < 0.001 at 35 df is 66.6)"


def test_counters_name_distinct_decisions():
    c = {int(artillery_counter(m, s)) for m in range(50) for s in (0, 1)}
    f = {int(fire_counter(t, d, p, 704)) for t in range(1, 11) for d in range(1, 7) for p in range(0, 704, 7)}
    assert len(c) == 100 and len(f) == 10 * 6 * 101 and not c & f
    # a different counter gives a different word for the same trial
    k = trial_keys(1, 0, 1000)
    assert (trial_words(k, artillery_counter(0, 0)) != trial_words(k, artillery_counter(0, 1))).all()
