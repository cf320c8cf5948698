"""The pieces of the interval given a flag (sim/analysis/selective.py), each against an exact
answer: the threshold a correction would still have passed, and the hybrid interval's shape.
Their coverage among the flagged cards is planted in tests/test_selection_calibration.py."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm, truncnorm

from sim.analysis.multiple import adjust
from sim.analysis.selective import BETA_SHARE, hybrid_intervals, rejection_thresholds


def test_bonferroni_s_threshold_is_alpha_over_the_family():
    """Bonferroni rejects p <= alpha / m whatever the others are."""
    p = np.random.default_rng(1).random(20)
    tau = rejection_thresholds(p, np.arange(20), 0.05, lambda q: adjust(q, "bonferroni"))
    assert np.allclose(tau, 0.05 / 20, rtol=1e-9)


@pytest.mark.parametrize("method", ["holm", "bh"])
def test_the_threshold_is_where_the_correction_stops_rejecting(method):
    """Holm and Benjamini-Hochberg given the others: at the threshold the test is rejected, a
    hair above it not (the step-down and step-up never un-reject a falling p-value)."""
    rng = np.random.default_rng(2)
    p = np.concatenate([rng.random(5) * 1e-3, rng.random(30)])
    chosen = np.arange(5)
    tau = rejection_thresholds(p, chosen, 0.05, lambda q: adjust(q, method))
    for i, t in zip(chosen, tau):
        for value, rejected in ((t, True), (t * (1 + 1e-9) + 1e-15, False)):
            trial = p.copy()
            trial[i] = value
            assert bool(adjust(trial, method)[i] <= 0.05) is rejected


def test_far_beyond_the_bar_the_interval_is_the_estimate_s_own():
    """An estimate 12 standard errors past its bar: the choice says nothing, so the hybrid
    interval is the plain one at level (alpha - beta) / (1 - beta) of the law truncated to the
    projection's window (+- c, the simultaneous critical value at beta over the family): the
    quantile q with sf(q) - sf(c) = level / 2 (1 - 2 sf(c)), both sides, mirrored."""
    alpha, family = 0.05, 72
    beta = alpha * BETA_SHARE
    c = norm.isf(beta / 2 / family)
    level = (alpha - beta) / (1 - beta)
    q = norm.isf(level / 2 * (1 - 2 * norm.sf(c)) + norm.sf(c))
    low, high = hybrid_intervals([5.0, -5.0], [0.25, 0.25], [2.0, -2.0], [1, -1], None, 0.95,
                                 family)
    assert np.allclose(low, [5.0 - q * 0.25, -5.0 - q * 0.25], atol=1e-9)
    assert np.allclose(high, [5.0 + q * 0.25, -5.0 + q * 0.25], atol=1e-9)


@pytest.mark.parametrize("estimate, bar", [(1.05, 1.0), (1.6, 1.0), (2.5, 1.0), (-1.8, -1.0)])
def test_the_hybrid_interval_matches_scipy_s_truncated_normal_on_a_grid(estimate, bar):
    """The hybrid interval is every truth mu inside the projection (estimate +- c, c the
    simultaneous critical value at beta over the family) under which the estimate is not in
    either (alpha - beta) / (1 - beta) / 2 tail of its law given the choice and the window:
    normal truncated to [max(bar, mu - c), mu + c], here from scipy.stats.truncnorm on a grid
    of 20,001 truths, against the module's bisection of its own formula; the first case is a
    card barely past its bar, the last one flagged below its band."""
    alpha, family = 0.05, 72
    beta = alpha * BETA_SHARE
    c = norm.isf(beta / 2 / family)
    level = (alpha - beta) / (1 - beta)
    side = 1 if estimate >= bar else -1
    x, b = side * estimate, side * bar
    mu = np.linspace(x - c, x + c, 20_001)[1:-1]
    start = np.maximum(b, mu - c)
    tail = truncnorm(start - mu, c, loc=mu).sf(x)
    kept = mu[(tail >= level / 2) & (tail <= 1 - level / 2)]
    low, high = hybrid_intervals([estimate], [1.0], [bar], [side], None, 0.95, family)
    ends = sorted(side * np.array([kept.min(), kept.max()]))
    step = 2 * c / 20_000
    assert low[0] == pytest.approx(ends[0], abs=2 * step)
    assert high[0] == pytest.approx(ends[1], abs=2 * step)


def test_a_marked_two_sided_test_s_interval_is_the_hybrid_one_beyond_its_bar():
    """``marked_intervals``: a two-sided t test marked by Holm gets the hybrid interval given
    its side beyond |t| = the critical value of its threshold (Holm with every other test far
    from rejected: alpha / m for the first step); an unmarked test and one without a standard
    error get nan (the caller keeps their own intervals)."""
    from scipy.stats import t as student_t

    from sim.analysis.multiple import holm
    from sim.analysis.selective import marked_intervals

    est, se, df = np.array([-0.031, 0.002, 0.05, 0.001]), np.array([0.01, 0.01, 0.0, 0.01]), 63
    p = np.where(se > 0, 2 * student_t.sf(np.abs(est) / np.where(se > 0, se, 1), df), 1.0)
    low, high = marked_intervals(est, se, df, p, 0.05, 0.95, holm)
    assert np.isnan(low[1:]).all() and np.isnan(high[1:]).all()
    bar = student_t.isf(0.05 / 4 / 2, df) * 0.01
    (lo,), (hi,) = hybrid_intervals([-0.031], [0.01], [-bar], [-1], df, 0.95, 4)
    assert (low[0], high[0]) == pytest.approx((lo, hi), abs=1e-9)
    assert lo < -0.031 < hi
