"""The win-rate interval of a team the fairness verdict calls favoured or disadvantaged, given
that call (selective inference).

Why: the verdict calls a team favoured exactly when its simultaneous interval (Korn & Graubard,
:func:`sim.analysis.variance.duplicate_win_rates`) lies wholly above the fair band, so printing
that same interval with the call prints the interval that happened to clear the edge. Given
the call, a team truly 0.25 to 0.5 points past the edge was covered in 63-79 % of calls
(docs/selection-audit-2.md, finding 1).

Method: the hybrid interval of Andrews, Kitagawa & McCloskey (:mod:`sim.analysis.selective`,
as ``bwlab rarity`` does for a flagged card) of an estimate chosen for lying beyond a bar. Two
things make it fit the verdict's own rule:

- the scale. Korn & Graubard's interval is Clopper-Pearson on the effective number of games
  n* = rate (1 - rate) / se^2, not rate +- t se: it is lopsided, and its width follows the rate.
  On the arcsine scale, asin(sqrt(rate)), the error of the rate has a constant standard error
  1 / (2 sqrt(n*)) and the interval is symmetric to first order, so the hybrid's location model
  (estimate - truth) / se ~ t on the boards' df holds there.
- the bar. The call is made where the interval's low end (high end, disadvantaged) clears the
  band's edge, so the bar is the rate at which Korn & Graubard's interval at the verdict's level
  (1 - alpha / (teams x looks)), on this team's n*, ends exactly at the edge: found by bisection
  of the same Clopper-Pearson rule, then carried to the arcsine scale.

The projection's family is the verdict's: teams x looks. Sequential checks are conditioned on the
call at the look that stopped, not on the earlier looks not calling (a further truncation that
tests/test_selection_calibration_more.py measured as covering at the shipped 16-look schedule).
"""

from __future__ import annotations

import numpy as np

from .cluster import SE_ROUNDING, t_quantile
from .intervals import clopper_pearson_interval
from .selective import halve, hybrid_intervals

__all__ = ["CALL_BETA_SHARE", "call_bar", "called_intervals", "hybrid_alpha"]

# beta / alpha of the hybrid's projection. Why not selective.BETA_SHARE (0.1): given a call at a
# truth on the edge (its chance alpha / (2 teams looks)), the projection misses with chance
# beta / alpha, so 10 % of such calls fell outside it (91.6 % coverage 0.34 se past the edge)
CALL_BETA_SHARE = 0.01


def hybrid_alpha(alpha: float, share: float = CALL_BETA_SHARE) -> float:
    """The error rate ``a`` to ask of the hybrid (beta = share a) so that, at a truth on the
    band's edge, covering given the projection (1 - (a - beta) / (1 - beta)) times the
    projection holding given the call (1 - beta / alpha) is 1 - alpha: 0.0423 at alpha 0.05.
    Beyond the edge the projection fails less often given a call, and the interval covers
    a little more."""
    def covers(a):
        beta = share * a
        return (1 - (a - beta) / (1 - beta)) * (1 - beta / alpha) > 1 - alpha

    return float(halve(covers, 0.0, alpha)[0])


def effective_games(rate, se, games: int) -> np.ndarray:
    """Korn & Graubard's effective number of games before the df shrink: rate (1 - rate) / se^2,
    or the games played where the standard error says nothing (a rate of 0 or 1, or se 0)."""
    rate, se = np.clip(np.asarray(rate, float), 0.0, 1.0), np.asarray(se, float)
    informative = (se > SE_ROUNDING) & (rate > 0) & (rate < 1)
    return np.where(informative, rate * (1 - rate) / np.where(informative, se, 1.0) ** 2,
                    float(games))


def call_bar(edge, side, n_star, games: int, df: int, level: float) -> np.ndarray:
    """The rate at which Korn & Graubard's ``level`` interval on ``n_star`` effective games
    (shrunk for the boards' ``df`` as the verdict's is) has its low end (``side`` +1) or high
    end (-1) exactly at ``edge``: the call's bar in rate units. Why by the interval's own rule:
    its ends are not rate -+ t se, so a bar of edge + t se misplaces the call."""
    edge, side = np.asarray(edge, float), np.asarray(side, float)
    n = np.asarray(n_star, float) * (t_quantile(level, games - 1)
                                     / t_quantile(level, max(df, 1))) ** 2
    def bar_above(mid):
        low_end, high_end = clopper_pearson_interval(mid * n, n, level)
        called = np.where(side > 0, low_end > edge, high_end < edge)
        # the low end grows with the rate: favoured, a calling rate has the bar below it;
        # disadvantaged, above it
        return called != (side > 0)

    lo, hi = halve(bar_above, np.where(side > 0, edge, 0.0), np.where(side > 0, 1.0, edge))
    return (lo + hi) / 2


def called_intervals(rate, se, side, edge, games: int, df: int, level: float, family: int,
                     confidence: float = 0.95):
    """(low, high) per team: its win-rate interval given the call where ``side`` is +1
    (favoured: called for its interval at ``level`` lying above ``edge``) or -1 (disadvantaged:
    below), nan where 0. ``family``: the verdict's teams x looks; ``df``: the boards' (G - 1);
    ``games``: the games behind each rate. Module doc: the method."""
    rate = np.clip(np.asarray(rate, float), 0.0, 1.0)
    side = np.asarray(side)
    low, high = np.full(rate.shape, np.nan), np.full(rate.shape, np.nan)
    k = np.flatnonzero(side != 0)
    if k.size == 0:
        return low, high
    n_star = effective_games(rate[k], np.asarray(se, float)[k], games)
    bar = call_bar(np.asarray(edge, float)[k], side[k], n_star, games, df, level)
    x, x_bar = np.arcsin(np.sqrt(rate[k])), np.arcsin(np.sqrt(bar))
    lo, hi = hybrid_intervals(x, 1.0 / (2.0 * np.sqrt(n_star)), x_bar, side[k], max(df, 1),
                              1 - hybrid_alpha(1 - confidence), family, CALL_BETA_SHARE)
    low[k] = np.sin(np.clip(lo, 0.0, np.pi / 2)) ** 2
    high[k] = np.sin(np.clip(hi, 0.0, np.pi / 2)) ** 2
    return low, high
