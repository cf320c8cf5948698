"""Win-rate intervals against scipy and published worked examples."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from sim.analysis.intervals import (
    clopper_pearson_interval,
    multinomial_interval,
    newcombe_difference_interval,
    paired_mean_difference,
    proportion_interval,
    wilson_interval,
    z_value,
)

CASES = [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (1, 4), (37, 100), (250, 1000), (1, 5000),
         (4999, 5000), (12345, 40000)]


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_matches_scipy(confidence):
    k, n = np.array(CASES).T
    lower, upper = wilson_interval(k, n, confidence)
    for i, (ki, ni) in enumerate(CASES):
        ref = stats.binomtest(int(ki), int(ni)).proportion_ci(confidence, method="wilson")
        assert lower[i] == pytest.approx(ref.low, abs=1e-9)
        assert upper[i] == pytest.approx(ref.high, abs=1e-9)


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.999])
def test_clopper_pearson_matches_scipy(confidence):
    k, n = np.array(CASES).T
    lower, upper = clopper_pearson_interval(k, n, confidence)
    for i, (ki, ni) in enumerate(CASES):
        ref = stats.binomtest(int(ki), int(ni)).proportion_ci(confidence, method="exact")
        assert lower[i] == pytest.approx(ref.low, abs=1e-11)
        assert upper[i] == pytest.approx(ref.high, abs=1e-11)


def test_vectorised_shapes_scalars_and_dispatch():
    k = np.array([[1, 2, 3], [4, 5, 6]])
    lower, upper = proportion_interval(k, 10, method="exact")
    assert lower.shape == upper.shape == (2, 3)
    lo, hi = proportion_interval(3, 10)
    assert isinstance(lo, float) and isinstance(hi, float)
    assert (lo, hi) == wilson_interval(3, 10)
    assert np.isnan(wilson_interval(0, 0)[0])
    assert z_value(0.95) == pytest.approx(stats.norm.ppf(0.975), abs=1e-10)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        proportion_interval(1, 10, method="wald")
    with pytest.raises(ValueError):
        wilson_interval(1, 10, confidence=95)


def test_goodman_equals_wilson_at_bonferroni_level_and_chi2_formula():
    counts = np.array([412, 270, 198, 120])
    n, k, alpha = counts.sum(), 4, 0.05
    lower, upper = multinomial_interval(counts, 0.95)
    # Goodman (1965): A = chi2_{1, 1 - alpha/k}, limits (A + 2 n_i -+ sqrt(A (A + 4 n_i (N - n_i) / N))) / (2 (N + A))
    a = stats.chi2.ppf(1 - alpha / k, 1)
    root = np.sqrt(a * (a + 4 * counts * (n - counts) / n))
    np.testing.assert_allclose(lower, (a + 2 * counts - root) / (2 * (n + a)), rtol=1e-12)
    np.testing.assert_allclose(upper, (a + 2 * counts + root) / (2 * (n + a)), rtol=1e-12)
    for i in range(k):
        ref = stats.binomtest(int(counts[i]), int(n)).proportion_ci(1 - alpha / k, method="wilson")
        assert (lower[i], upper[i]) == pytest.approx((ref.low, ref.high), abs=1e-9)
    exact_lo, exact_hi = multinomial_interval(counts, 0.95, method="exact")
    assert np.all(exact_lo <= lower + 1e-3) and np.all(exact_hi >= upper - 1e-3)


def test_goodman_simultaneous_coverage_by_simulation():
    """All four shares covered together in >= ~95 % of 2000 seeded 4-team samples."""
    rng = np.random.default_rng(2024)
    p = np.array([0.34, 0.27, 0.22, 0.17])
    counts = rng.multinomial(400, p, size=2000)
    lower, upper = multinomial_interval(counts, 0.95)
    covered = np.all((lower <= p) & (p <= upper), axis=1).mean()
    # Bonferroni is conservative; the separate 95 % Wilson intervals cover jointly far less.
    assert covered >= 0.94
    wl, wu = wilson_interval(counts, 400, 0.95)
    assert np.all((wl <= p) & (p <= wu), axis=1).mean() < covered


# Newcombe (1998), Stat. Med. 17:873-890, Table II, method 10 (score, no continuity correction).
NEWCOMBE_TABLE_II = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
    ((0, 10, 0, 10), (-0.2775, 0.2775)),
    ((10, 10, 0, 20), (0.6791, 1.0000)),
    ((10, 10, 0, 10), (0.6075, 1.0000)),
]


@pytest.mark.parametrize("counts,expected", NEWCOMBE_TABLE_II)
def test_newcombe_reproduces_published_table(counts, expected):
    d, lower, upper = newcombe_difference_interval(*counts)
    assert d == pytest.approx(counts[0] / counts[1] - counts[2] / counts[3])
    assert round(lower, 4) == pytest.approx(expected[0], abs=1e-12)
    assert round(upper, 4) == pytest.approx(expected[1], abs=1e-12)


def test_newcombe_fagerland_perondi_example():
    # Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017), ch. 4:
    # Perondi et al. (2004) 7/34 vs 1/34, Newcombe hybrid score 0.1765 (0.0189 to 0.3404).
    d, lower, upper = newcombe_difference_interval(7, 34, 1, 34)
    assert (round(d, 4), round(lower, 4), round(upper, 4)) == (0.1765, 0.0189, 0.3404)


def test_newcombe_vectorised_and_antisymmetric():
    k1, n1, k2, n2 = np.array([56, 9, 5]), np.array([70, 10, 56]), np.array([48, 3, 0]), np.array([80, 10, 29])
    d, lo, hi = newcombe_difference_interval(k1, n1, k2, n2)
    d2, lo2, hi2 = newcombe_difference_interval(k2, n2, k1, n1)
    np.testing.assert_allclose(d, -d2)
    np.testing.assert_allclose(lo, -hi2)
    np.testing.assert_allclose(hi, -lo2)


def test_paired_mean_difference_matches_scipy_ttest_rel():
    rng = np.random.default_rng(5)
    seed_luck = rng.normal(0, 1, 60)
    x = seed_luck + rng.normal(0.3, 0.5, 60)
    y = seed_luck + rng.normal(0.0, 0.5, 60)
    res = paired_mean_difference(x, y, confidence=0.9)
    ref = stats.ttest_rel(x, y)
    ci = ref.confidence_interval(0.9)
    assert res.mean == pytest.approx(np.mean(x - y), abs=1e-14)
    assert res.se == pytest.approx(stats.sem(x - y), rel=1e-9)
    assert (res.lower, res.upper) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res.n == 60
    # Columns are independent comparisons.
    both = paired_mean_difference(np.stack([x, y], 1), np.stack([y, x], 1))
    np.testing.assert_allclose(both.mean, [res.mean, -res.mean])
    with pytest.raises(ValueError):
        paired_mean_difference([1.0])


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 10**6), frac=st.floats(0, 1), confidence=st.floats(0.5, 0.999))
def test_intervals_contain_the_estimate_and_nest_by_level(n, frac, confidence):
    k = int(round(frac * n))
    for method in ("wilson", "exact"):
        lower, upper = proportion_interval(k, n, confidence, method)
        assert 0.0 <= lower <= k / n + 1e-12 and k / n - 1e-12 <= upper <= 1.0
        wider_lo, wider_hi = proportion_interval(k, n, min(0.9999, confidence + 0.0005), method)
        assert wider_lo <= lower + 1e-12 and upper <= wider_hi + 1e-12
