"""The cards' tests against their rarity's band, the flags, and a flagged card's rating interval
given its flag (sim/analysis/selective.py says why).

``bwlab rarity`` flags a card when its one-sided test against its band's edge survives the
study's correction over the cards in play (:func:`sim.runner.rarity.band_tests`). Given the other
cards' tests and the band's edges, the card was flagged exactly when its rating lay beyond a bar:
the edge plus the test's critical value for the largest p-value the correction would still
have rejected, times the distance's standard error. Its printed interval is the hybrid
interval of a rating chosen for lying beyond that bar.
"""

from __future__ import annotations

import numpy as np

from sim.analysis.multiple import adjust
from sim.analysis.selective import hybrid_intervals, rejection_thresholds, upper_quantile

__all__ = ["band_tests", "flag_intervals", "inside_tests"]


def flag_intervals(rating, se, p, outlier, band, played, df, confidence: float,
                   correction: str, edge_se=None):
    """(low, high) per card: the flagged cards' rating intervals given their flags (nan for a
    card not flagged). ``p``: the cards' one-sided p-values before correction, ``outlier``:
    the flags (-1, 0, +1), ``band``: (low edges, high edges), ``df``: the ratings' degrees of
    freedom (None: normal); the rest as for :func:`band_tests`, which made ``p`` and the flags."""
    rating, se = np.asarray(rating, float), np.asarray(se, float)
    low, high = np.full(rating.shape, np.nan), np.full(rating.shape, np.nan)
    in_play = np.flatnonzero(np.asarray(played))      # the family the correction adjusts over
    flagged = np.flatnonzero(np.asarray(outlier)[in_play] != 0)
    if flagged.size == 0:
        return low, high
    alpha = 1.0 - confidence
    tests = np.clip(np.asarray(p, float)[in_play], 0.0, 1.0)
    tau = rejection_thresholds(tests, flagged, alpha, _correction(correction))
    cards = in_play[flagged]
    side = np.asarray(outlier)[cards]
    se_low, se_high = (se, se) if edge_se is None else edge_se
    critical = upper_quantile(tau, df)
    bar = np.where(side > 0, np.asarray(band[1])[cards] + critical * np.asarray(se_high)[cards],
                   np.asarray(band[0])[cards] - critical * np.asarray(se_low)[cards])
    low[cards], high[cards] = hybrid_intervals(rating[cards], se[cards], bar, side, df,
                                               confidence, in_play.size)
    return low, high


def _correction(name: str):
    """The study's correction as a function of p-values along the last axis."""
    return (lambda p: p) if name == "none" else (lambda p: adjust(p, name))


def inside_tests(rating, se, band_low, band_high, played, df, alpha: float, correction: str,
                 edge_se=None) -> np.ndarray:
    """Per card: shown inside its band? Two one-sided tests (H0: rating <= the bottom edge, or
    >= the top edge; the larger p-value answers both), adjusted over the cards in play like the
    outlier flags. An open edge (the lowest or highest rarity) needs no test. ``edge_se``
    (se_low, se_high): the standard errors of the distances to the edges (the edges' error
    counted, :func:`edge_distance_se`); None: the edges taken as known (``se`` for both)."""
    rating, se = np.asarray(rating, float), np.asarray(se, float)
    se_low, se_high = (se, se) if edge_se is None else edge_se
    dist = _rating_distribution(df)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_low = np.where(np.isneginf(band_low), 0.0, dist.sf((rating - band_low) / se_low))
        p_high = np.where(np.isposinf(band_high), 0.0, dist.sf((band_high - rating) / se_high))
    _, p_adj = _corrected(np.nan_to_num(np.maximum(p_low, p_high), nan=1.0), se, played,
                          correction)
    return played & (p_adj <= alpha)


def band_tests(rating, se, band_low, band_high, played, df, alpha: float, correction: str,
               edge_se=None):
    """Per card: the one-sided p-value that it lies outside its band on the side its rating
    leans to (H0: rating <= the top edge for a card above its band's middle, >= the bottom edge
    otherwise; t on ``df`` for a clustered fit, else normal), adjusted over the cards in play,
    and the flags (-1 weak, +1 strong) where the adjusted p-value is at most ``alpha``. Why
    corrected: the study tests every card at once (``sim.analysis.multiple``). ``edge_se`` as
    for :func:`inside_tests`."""
    rating, se = np.asarray(rating, float), np.asarray(se, float)
    se_low, se_high = (se, se) if edge_se is None else edge_se
    dist = _rating_distribution(df)
    with np.errstate(invalid="ignore", divide="ignore"):
        z_high = (rating - band_high) / se_high     # > 0: above the top edge
        z_low = (band_low - rating) / se_low        # > 0: below the bottom edge
    up = np.nan_to_num(z_high, nan=-np.inf) >= np.nan_to_num(z_low, nan=-np.inf)
    z = np.where(up, z_high, z_low)
    p, p_adj = _corrected(np.where(np.isfinite(z), dist.sf(np.nan_to_num(z, nan=0.0)), 1.0),
                          se, played, correction)
    outlier = np.where(p_adj <= alpha, np.where(up, 1, -1), 0)
    return p, p_adj, outlier


def _rating_distribution(df):
    """The ratings' reference distribution: t on ``df`` for a board-clustered fit, else normal."""
    from scipy.stats import norm, t as student_t

    return norm if df is None else student_t(df)


def _corrected(p, se, played, correction: str):
    """(p, adjusted p) of the cards' tests: 1 for a card out of play or without a standard
    error, the others adjusted together (``sim.analysis.multiple``) — the outlier flags and
    the in-band tests share this, so both families are corrected the same way."""
    p = np.where(played & (se > 0), np.clip(p, 0.0, 1.0), 1.0)
    p_adj = np.ones_like(p)
    if played.any():
        p_adj[played] = p[played] if correction == "none" else adjust(p[played], correction)
    return p, p_adj
