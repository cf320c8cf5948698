"""The batch SeedSequence hash (``sim.seeding``) against NumPy's own ``SeedSequence``.

Every game's random stream is child ``i`` of ``SeedSequence(root)``; the batch version must give
the very same words, or results would change with the code path that seeded them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from sim.rng import seed_states, seed_states_at
from sim.seeding import child_states


def _numpy_children(root, children, n_words):
    return np.stack([np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + (int(i),),
                                            pool_size=root.pool_size).generate_state(n_words)
                     for i in children])


@settings(max_examples=60, deadline=None)
@given(entropy=hs.one_of(hs.integers(0, 2**130), hs.lists(hs.integers(0, 2**40), max_size=7)),
       spawn_key=hs.lists(hs.integers(0, 2**34), max_size=3),
       pool_size=hs.sampled_from([4, 5, 8]),
       children=hs.lists(hs.integers(0, 2**32 + 5), min_size=1, max_size=6),
       n_words=hs.integers(1, 12))
def test_batch_children_equal_numpy_seedsequence(entropy, spawn_key, pool_size, children,
                                                 n_words):
    root = np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key), pool_size=pool_size)
    np.testing.assert_array_equal(child_states(root, children, n_words),
                                  _numpy_children(root, children, n_words))


@pytest.mark.parametrize("seed", [0, 1, 2026, 2**64 + 3])
def test_seed_states_are_the_spawned_children_in_any_order(seed):
    spawned = np.stack([c.generate_state(4, dtype=np.uint64)
                        for c in np.random.SeedSequence(seed).spawn(40)])
    np.testing.assert_array_equal(seed_states(seed, 40), spawned)
    np.testing.assert_array_equal(seed_states(seed, 15, start=25), spawned[25:])
    picked = [31, 2, 2, 17]
    np.testing.assert_array_equal(seed_states_at(seed, picked), spawned[picked])


def test_no_children_is_an_empty_batch():
    assert child_states(np.random.SeedSequence(3), [], 8).shape == (0, 8)
    assert seed_states(3, 0).shape == (0, 4)
