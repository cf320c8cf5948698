"""Confidence intervals for win rates: one proportion, 4-team win shares, differences, paired means.

Why these methods:
- Wilson score (default) for one win rate: near-nominal coverage even for small n or rates near
  0/1, where the textbook Wald interval p +- z sqrt(p(1-p)/n) undercovers badly
  (Brown, Cai & DasGupta, "Interval Estimation for a Binomial Proportion", Stat. Sci. 16, 2001;
  Wilson, JASA 22, 1927). Clopper-Pearson "exact" (Biometrika 26, 1934) is offered when a
  guaranteed (conservative) coverage matters more than width.
- Goodman's simultaneous intervals for multinomial shares (Technometrics 7, 1965): all four teams'
  win shares are covered *together* with probability >= the confidence level (approximately).
  Goodman's interval is algebraically the Wilson interval with the Bonferroni quantile
  chi2_{1, 1-alpha/k} = z_{1-alpha/(2k)}^2, so one code path serves both names.
- Newcombe's hybrid score interval ("method 10", Stat. Med. 17:873-890, 1998) for the difference
  of two independent win rates: it combines the two Wilson intervals (square-and-add) and keeps
  good coverage where the Wald difference interval fails.
- Paired mean difference for duplicate play: the same board seed played by both configurations
  gives paired outcomes; the mean of per-seed differences with its standard error sd/sqrt(n) and a
  Student t interval (the paired t interval, e.g. Rice, "Mathematical Statistics", 11.3).

Every function is vectorised: counts broadcast against each other, results keep their shape.
Intervals with zero trials are nan.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scipy.special import betaincinv
from scipy.stats import norm, t as student_t

__all__ = [
    "MeanDifference",
    "clopper_pearson_interval",
    "multinomial_interval",
    "newcombe_difference_interval",
    "paired_mean_difference",
    "proportion_interval",
    "wilson_interval",
    "z_value",
]


def _check_confidence(confidence: float) -> float:
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    return confidence


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard normal critical value z_{1 - (1 - confidence)/2} (1.959964 for 95 %)."""
    return float(norm.ppf(1.0 - (1.0 - _check_confidence(confidence)) / 2.0))


def _counts(successes, trials) -> tuple[np.ndarray, np.ndarray]:
    k, n = np.broadcast_arrays(np.asarray(successes, dtype=float), np.asarray(trials, dtype=float))
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= successes <= trials")
    return k.astype(float), n.astype(float)


def _wilson(k: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        centre = (k + z2 / 2.0) / (n + z2)
        half = z * np.sqrt(n) / (n + z2) * np.sqrt(p * (1.0 - p) + z2 / (4.0 * n))
    lower = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
    upper = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    # Exact end points when all or nothing was observed (no rounding fuzz around 0 and 1).
    lower = np.where((k == 0) & (n > 0), 0.0, lower)
    upper = np.where((k == n) & (n > 0), 1.0, upper)
    return lower, upper


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval (without continuity correction) for a binomial proportion.

    The set of p not rejected by the score test |k - n p| / sqrt(n p (1 - p)) <= z
    (Wilson 1927). Returns ``(lower, upper)`` arrays (floats for scalar input); it agrees with
    ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``.
    """
    k, n = _counts(successes, trials)
    lower, upper = _wilson(k, n, z_value(confidence))
    return _out(lower), _out(upper)


def clopper_pearson_interval(successes, trials, confidence: float = 0.95):
    """Clopper-Pearson "exact" interval: inverts two one-sided binomial tests (1934).

    Lower = Beta(alpha/2; k, n-k+1) quantile (0 if k = 0), upper = Beta(1-alpha/2; k+1, n-k)
    quantile (1 if k = n). Coverage is at least the nominal level for every p (conservative).
    Matches ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")``.
    """
    k, n = _counts(successes, trials)
    alpha = 1.0 - _check_confidence(confidence)
    safe_a_lo = np.where(k > 0, k, 1.0)
    safe_b_hi = np.where(n - k > 0, n - k, 1.0)
    # the Beta quantile as scipy.special.betaincinv (the inverse of the regularized incomplete
    # beta function, which beta.ppf also computes) without beta.ppf's argument checks, which
    # took nine tenths of a call: the drift gate asks thousands of times per interval
    lower = np.where(k > 0, betaincinv(safe_a_lo, n - k + 1.0, alpha / 2.0), 0.0)
    upper = np.where(n - k > 0, betaincinv(k + 1.0, safe_b_hi, 1.0 - alpha / 2.0), 1.0)
    lower = np.where(n > 0, lower, np.nan)
    upper = np.where(n > 0, upper, np.nan)
    return _out(lower), _out(upper)


def proportion_interval(successes, trials, confidence: float = 0.95, method: str = "wilson"):
    """Interval for a win rate: ``method`` is "wilson" (default) or "exact" (Clopper-Pearson)."""
    if method == "wilson":
        return wilson_interval(successes, trials, confidence)
    if method in ("exact", "clopper-pearson"):
        return clopper_pearson_interval(successes, trials, confidence)
    raise ValueError(f"unknown method {method!r}; use 'wilson' or 'exact'")


def multinomial_interval(counts, confidence: float = 0.95, method: str = "goodman"):
    """Simultaneous intervals for the k category shares of multinomial ``counts`` (last axis).

    ``method="goodman"`` (Goodman 1965): each share gets the Wilson interval at the Bonferroni
    level 1 - alpha/k, i.e. chi-square quantile A = chi2_{1, 1-alpha/k}:
    (A + 2 n_i +- sqrt(A (A + 4 n_i (N - n_i) / N))) / (2 (N + A)).
    ``method="exact"`` uses Bonferroni-adjusted Clopper-Pearson intervals instead (conservative).
    Why simultaneous: a 4-team balance report asks "are *all* teams inside their bands"; four
    separate 95 % intervals would jointly cover only about 81-85 % of the time.

    Returns ``(lower, upper)`` with the shape of ``counts``.
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 0 or counts.shape[-1] < 2:
        raise ValueError("counts needs a last axis with at least two categories")
    if np.any(counts < 0):
        raise ValueError("counts must be non-negative")
    k = counts.shape[-1]
    alpha = 1.0 - _check_confidence(confidence)
    level = 1.0 - alpha / k  # Bonferroni: each of the k intervals at level 1 - alpha/k
    total = np.broadcast_to(counts.sum(axis=-1, keepdims=True), counts.shape)
    if method == "goodman":
        return wilson_interval(counts, total, level)
    if method == "exact":
        return clopper_pearson_interval(counts, total, level)
    raise ValueError(f"unknown method {method!r}; use 'goodman' or 'exact'")


def newcombe_difference_interval(successes1, trials1, successes2, trials2,
                                 confidence: float = 0.95):
    """Newcombe's hybrid score interval for p1 - p2 of two independent proportions (method 10).

    With Wilson limits (l_i, u_i) of each proportion and d = p1 - p2:
    lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2), upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
    Returns ``(difference, lower, upper)``. Reproduces Newcombe's (1998) Table II, e.g.
    56/70 - 48/80: 0.2000 (0.0524, 0.3339).
    """
    z = z_value(confidence)
    k1, n1 = _counts(successes1, trials1)
    k2, n2 = _counts(successes2, trials2)
    l1, u1 = _wilson(k1, n1, z)
    l2, u2 = _wilson(k2, n2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    lower = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    upper = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return _out(d), _out(lower), _out(upper)


@dataclass(frozen=True)
class MeanDifference:
    """Mean of paired differences with standard error and a Student t confidence interval."""

    mean: np.ndarray | float
    se: np.ndarray | float
    lower: np.ndarray | float
    upper: np.ndarray | float
    n: int
    confidence: float


def paired_mean_difference(x, y=None, confidence: float = 0.95, axis: int = 0) -> MeanDifference:
    """Mean difference of paired outcomes x - y (or of ready-made differences ``x`` if y is None).

    Duplicate play pairs the two configurations on the same board seed, so the seed's luck is
    common to both and cancels in the difference; the standard error is sd(d)/sqrt(n) with the
    sample standard deviation (ddof = 1) of the n per-seed differences, and the interval is the
    paired t interval mean +- t_{n-1, 1-alpha/2} * se. Outcomes may be wins (0/1), scores or
    per-seed averages of a block; pairs along ``axis``, other axes are independent columns.
    """
    d = np.asarray(x, dtype=float)
    if y is not None:
        d = d - np.asarray(y, dtype=float)
    d = np.moveaxis(d, axis, 0)
    n = d.shape[0]
    if n < 2:
        raise ValueError("need at least two pairs for a standard error")
    alpha = 1.0 - _check_confidence(confidence)
    mean = d.mean(axis=0)
    se = d.std(axis=0, ddof=1) / np.sqrt(n)
    t = student_t.ppf(1.0 - alpha / 2.0, n - 1)
    return MeanDifference(_out(mean), _out(se), _out(mean - t * se), _out(mean + t * se), n,
                          confidence)


def _out(a):
    a = np.asarray(a, dtype=float)
    return float(a) if a.ndim == 0 else a
