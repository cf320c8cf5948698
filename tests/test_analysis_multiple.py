"""Multiple-testing adjustments against scipy and hand-computed Holm examples."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from sim.analysis.multiple import (
    adjust,
    benjamini_hochberg,
    benjamini_yekutieli,
    bonferroni,
    holm,
    reject,
)


def test_holm_hand_computed_example():
    # Four hypotheses with p = 0.01, 0.04, 0.03, 0.005 (the example on Wikipedia's Holm page):
    # sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06.
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_array_equal(reject(p, 0.05, "holm"), [True, False, False, True])
    np.testing.assert_allclose(bonferroni(p), [0.04, 0.16, 0.12, 0.02])


def test_holm_second_hand_example_with_ties_and_cap():
    # m = 5: sorted 0.001*5 = 0.005, 0.012*4 = 0.048, 0.012*3 = 0.036 -> 0.048, 0.3*2 = 0.6, 0.9*1 -> 0.9
    p = np.array([0.3, 0.012, 0.9, 0.001, 0.012])
    np.testing.assert_allclose(holm(p), [0.6, 0.048, 0.9, 0.005, 0.048])
    # Holm is never less powerful than Bonferroni.
    assert np.all(holm(p) <= bonferroni(p))


def test_benjamini_hochberg_matches_scipy_hand_and_axis():
    p = [0.01, 0.04, 0.03, 0.005]
    # Sorted: 0.005*4/1 = 0.02, 0.01*4/2 = 0.02, 0.03*4/3 = 0.04, 0.04*4/4 = 0.04.
    np.testing.assert_allclose(benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])
    rng = np.random.default_rng(8)
    many = rng.random((6, 40)) ** 3
    np.testing.assert_allclose(benjamini_hochberg(many), stats.false_discovery_control(many, axis=-1),
                               rtol=1e-10)
    np.testing.assert_allclose(benjamini_hochberg(many, axis=0),
                               stats.false_discovery_control(many, axis=0), rtol=1e-10)
    np.testing.assert_allclose(benjamini_yekutieli(many),
                               stats.false_discovery_control(many, axis=-1, method="by"), rtol=1e-10)


def test_order_invariance_and_dispatch():
    rng = np.random.default_rng(3)
    p = rng.random(25)
    perm = rng.permutation(25)
    for method in ("bonferroni", "holm", "bh", "by"):
        np.testing.assert_allclose(adjust(p, method)[perm], adjust(p[perm], method))
        adj = adjust(p, method)
        assert np.all(adj >= p) and np.all(adj <= 1)
    with pytest.raises(ValueError):
        adjust(p, "sidak")
    with pytest.raises(ValueError):
        holm([0.1, np.nan])
    with pytest.raises(ValueError):
        reject(p, alpha=0)


def test_fdr_and_fwer_control_by_simulation():
    """Seeded: 40 nulls + 10 strong effects, 1000 families; Holm FWER and BH FDR <= 0.05 + noise.

    Power: against a family-wise error rate of 2 alpha (0.10) the FWER check fails with
    probability 0.9992 (its SD at 0.10 over 1,000 families is 0.0095, the bound 0.07); no
    correction at all (1 - 0.95^40 = 0.87) fails surely; a correct Holm fails it with
    probability 0.002. A BH no stronger than Holm fails the last line."""
    rng = np.random.default_rng(12)
    z = rng.normal(size=(1000, 50))
    z[:, :10] += 3.5
    p = stats.norm.sf(z)
    null = np.zeros(50, dtype=bool)
    null[10:] = True
    holm_rej = reject(p, 0.05, "holm")
    assert np.mean(np.any(holm_rej & null, axis=1)) <= 0.05 + 0.02
    bh_rej = reject(p, 0.05, "bh")
    fdp = np.sum(bh_rej & null, axis=1) / np.maximum(bh_rej.sum(axis=1), 1)
    assert fdp.mean() <= 0.05 * 40 / 50 + 0.015   # BH controls FDR at m0/m * q
    assert bh_rej[:, :10].mean() > holm_rej[:, :10].mean()   # and is more powerful


@settings(max_examples=150, deadline=None)
@given(arrays(np.float64, st.integers(1, 30), elements=st.floats(0, 1)))
def test_adjustments_keep_the_order_of_p_values_and_rank_methods(p):
    order = np.argsort(p, kind="stable")
    for method in ("bonferroni", "holm", "bh", "by"):
        adj = adjust(p, method)
        assert np.all(np.diff(adj[order]) >= -1e-15)
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
    assert np.all(benjamini_hochberg(p) <= holm(p) + 1e-15)
    assert np.all(holm(p) <= bonferroni(p) + 1e-15)
    assert np.all(benjamini_hochberg(p) <= benjamini_yekutieli(p) + 1e-15)
