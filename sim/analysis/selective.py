"""Intervals for estimates the study chose because they crossed a bar: a flagged card's rating.

Why: ``bwlab rarity`` flags the cards whose rating lies beyond their band's edge by more than
the multiple-testing bar allows, and prints each flagged card's rating with an interval. The
card's own 95 % interval is calibrated over every card, not over the ones its error helped
across the bar: planted on the spread of true distances docs/advice.md measured, it held the
truth in 93.4 % of flags, and in 72 % for a card 2 standard errors beyond the edge (the
selection audit, tests/test_selection_calibration.py).

Method: the hybrid interval of Andrews, Kitagawa & McCloskey ("Inference on Winners", Quarterly
Journal of Economics 139(1), 2024, section 4). Conditional on being chosen, an estimate that
crossed the bar at ``bar`` has the distribution of ``estimate`` truncated to lie beyond it; the
interval that inverts that truncated law (Lee, Sun, Sun & Taylor, Annals of Statistics 44(3),
2016) covers at its level among the chosen, but runs off to tens of standard errors when the
estimate barely crossed. The hybrid also conditions on the estimate lying within the family's
simultaneous interval at a small level beta (the projection interval: every card's at once,
Bonferroni), and takes the conditional interval at level (alpha - beta) / (1 - beta) inside it:
it covers at 1 - alpha among the chosen, is never wider than the projection interval, and is
close to the card's own interval when the estimate lies far beyond the bar. beta = alpha / 10,
the authors' choice.

Not used: the projection (simultaneous) interval alone, which also covers but is about 1.7
times as wide as the card's own for every flagged card; the purely conditional interval (above).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BETA_SHARE", "halve", "hybrid_intervals", "marked_intervals",
           "rejection_thresholds", "upper_quantile"]

BETA_SHARE = 0.1      # beta = alpha / 10: the projection's share of the error (AKM's choice)
_HALVINGS = 50        # bisection steps: below 1e-15 of the search's span


def rejection_thresholds(p, chosen, alpha: float, adjusted) -> np.ndarray:
    """For each test in ``chosen`` (indices into ``p``), the largest p-value it could have had
    and still be rejected at ``alpha``, every other test's p-value as it is. ``adjusted``: the
    correction (p-values -> adjusted p-values along the last axis). Why this describes the
    choice: Bonferroni, Holm and the step-up procedures never un-reject a test whose p-value
    falls, so given the others a test is chosen exactly when its p-value is at most this."""
    p, chosen = np.asarray(p, float), np.asarray(chosen, np.int64)
    trial = np.repeat(p[None, :], chosen.size, axis=0)
    rows = np.arange(chosen.size)

    def rejected(mid):
        trial[rows, chosen] = mid
        return np.asarray(adjusted(trial))[rows, chosen] <= alpha

    return halve(rejected, np.zeros(chosen.size), np.full(chosen.size, alpha))[0]


def halve(rises, lo, hi, steps: int = _HALVINGS):
    """(lo, hi) after ``steps`` halvings of [``lo``, ``hi``] (arrays, each searched on its own)
    towards the point where ``rises(mid)`` turns false: where it holds the point lies above
    ``mid``. The one bisection of this module, of sim/analysis/fairness_call.py, of the p-values
    of sim/analysis/balance_change.py and sim/runner/rulings_compare.py."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        up = rises(mid)
        lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
    return lo, hi


def hybrid_intervals(estimate, se, bar, side, df, confidence: float, family: int,
                     beta_share: float = BETA_SHARE):
    """(low, high) for each true value behind an ``estimate`` (standard error ``se``; (estimate
    - truth) / se is t on ``df`` degrees of freedom, normal for None) chosen because it lay beyond
    ``bar`` on ``side`` (+1: at or above, -1: at or below), among ``family`` estimates that
    could have been chosen (the projection's Bonferroni count). ``beta_share``: beta / alpha
    (sim/analysis/fairness_call.py takes a smaller one, and says why). Module doc: the method."""
    side = np.asarray(side, float)
    # mirrored so every estimate was chosen for lying at or above its bar
    low, high = _upper_side(side * np.asarray(estimate, float), np.asarray(se, float),
                            side * np.asarray(bar, float), _tail(df), 1.0 - confidence,
                            family, beta_share)
    return np.where(side > 0, low, -high), np.where(side > 0, high, -low)


def _tail(df):
    """The error law's upper tail ``sf(z)`` and its inverse ``isf(q)``: t on ``df``, normal for
    None. Why scipy.special, not scipy.stats: the interval's bisections call the tail some 200
    times, and a frozen distribution's argument checks cost 20 times the function's own time."""
    from scipy.special import ndtr, ndtri, stdtr, stdtrit

    if df is None:
        return (lambda z: ndtr(-z)), (lambda q: -ndtri(q))
    return (lambda z: stdtr(df, -z)), (lambda q: -stdtrit(df, q))


def marked_intervals(estimate, se, df, p, alpha: float, confidence: float, adjusted):
    """(low, high) for each two-sided t test that ``adjusted`` (a correction: p-values -> adjusted
    p-values, Holm's for the drift gate's and rulings' endings) rejects at ``alpha``, given that
    mark; nan elsewhere. ``p`` must be each test's two-sided t p-value of ``estimate`` / ``se`` on
    ``df`` (a test without a standard error keeps nan: the caller shows its own interval). Given
    the others, a test is marked exactly when |estimate| lies beyond the critical value of the
    largest p-value still rejected (:func:`rejection_thresholds`) times its ``se``; the interval
    is the hybrid one (module doc) given the estimate's side, among all the tests."""
    estimate, se = np.asarray(estimate, float), np.asarray(se, float)
    df, p = np.broadcast_to(np.asarray(df), estimate.shape), np.asarray(p, float)
    low, high = np.full(estimate.shape, np.nan), np.full(estimate.shape, np.nan)
    marked = np.flatnonzero((np.asarray(adjusted(p)) <= alpha) & (se > 0) & (estimate != 0))
    if marked.size == 0:
        return low, high
    tau = rejection_thresholds(p, marked, alpha, adjusted)
    for i, t in zip(marked, tau):
        side = np.sign(estimate[i])
        bar = side * upper_quantile(t / 2, int(df[i])) * se[i]
        (low[i],), (high[i],) = hybrid_intervals([estimate[i]], [se[i]], [bar], [side],
                                                 int(df[i]), confidence, p.size)
    return low, high


def upper_quantile(q, df):
    """The error law's upper ``q`` quantile (t on ``df``, normal for None)."""
    return _tail(df)[1](np.asarray(q, float))


def _upper_side(x, se, bar, tail, alpha: float, family: int, share: float):
    """:func:`hybrid_intervals` for estimates ``x`` chosen for lying at or above ``bar``."""
    sf, isf = tail
    beta = alpha * share
    c = float(isf(beta / 2 / max(family, 1)))
    beyond = sf(c)
    level = (alpha - beta) / (1 - beta)
    bar = np.minimum(bar, x)     # an estimate is never below the bar that chose it

    def pivot(mu):
        """P(estimate >= x | chosen, within the projection; truth mu): increasing in mu."""
        start = np.maximum((bar - mu) / se, -c)
        here = np.clip((x - mu) / se, start, c)
        whole = sf(start) - beyond
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(whole > 0, (sf(here) - beyond) / whole, 0.0)

    # the pivot is 0 at x - c se and 1 at x + c se: each end lies in the projection
    return (_solve(pivot, x - c * se, x + c * se, level / 2),
            _solve(pivot, x - c * se, x + c * se, 1 - level / 2))


def _solve(pivot, lo, hi, target: float) -> np.ndarray:
    """Where the increasing ``pivot`` crosses ``target`` between ``lo`` and ``hi`` (arrays)."""
    lo, hi = halve(lambda mid: pivot(mid) < target, np.array(lo, float), np.array(hi, float))
    return (lo + hi) / 2
