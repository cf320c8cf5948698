"""Goodness-of-fit helpers for the Monte Carlo oracles (stated test: Pearson chi-square)."""

from __future__ import annotations

import numpy as np
from scipy import stats


def chi_square_pvalue(samples: np.ndarray, pmf: np.ndarray, min_expected: float = 5.0) -> float:
    """Pearson chi-square p-value of integer ``samples`` against ``pmf``, merging sparse bins.

    Adjacent damage values are pooled left to right until each bin expects at least
    ``min_expected`` draws (Cochran's rule), so the chi-square approximation holds.
    """
    n = samples.size
    observed = np.bincount(samples, minlength=pmf.size).astype(float)
    if observed.size > pmf.size:
        assert observed[pmf.size:].sum() == 0, "samples outside the support of the pmf"
        observed = observed[: pmf.size]
    expected = pmf * n
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(observed, expected):
        acc_o += o
        acc_e += e
        if acc_e >= min_expected:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 or acc_o > 0:
        obs_bins[-1] += acc_o
        exp_bins[-1] += acc_e
    obs_bins, exp_bins = np.array(obs_bins), np.array(exp_bins)
    exp_bins *= obs_bins.sum() / exp_bins.sum()
    return float(stats.chisquare(obs_bins, exp_bins).pvalue)
