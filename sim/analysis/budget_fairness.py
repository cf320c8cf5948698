"""Does the team budget predict fairness? The share of truly fair sets, bounded from each set's
own verdict, and the dice's ceiling on the agreement statistics.

Why not the share of sets whose simulated rates fall within 25 % ± tolerance (the command's
statistic before docs/power-levels-audit.md): a set of 256 games carries about 2.7 points of dice on
each rate, so the largest of four noisy gaps lands above the tolerance for many truly fair sets; the
Clopper-Pearson interval of that count is exact for *the chance that a set's estimate lands in the
band*, not for the share of fair sets. Planted (tests/test_power_levels_calibration.py):
every within-budget set perfectly fair, the interval held 100 % in 0.2 % of validations, and
the budget's verdict said "does not predict" / "helps but does not make games fair" of a budget
whose sets were all fair in 21.5 % of them (stated: at most 5 %).

Here each set counts by its own verdict (:func:`sim.analysis.fairness.fairness_verdict`: fair,
unfair, or not settled by its games), whose simultaneous intervals make a wrong settled verdict
a rare event (at most ``set_error``), and the share is bounded from both settled counts
(:func:`bound_share`). A set its games cannot settle counts as either, so the interval widens
with the dice instead of moving: with too few games a set, it says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import power_level as pl
from .fairness import FAIR, UNFAIR
from .intervals import clopper_pearson_interval


@dataclass(frozen=True)
class FairShare:
    """The share of truly fair sets among ``n``, from their verdicts: ``low``-``high`` holds it
    at the stated confidence; ``estimate`` (sets whose simulated rates lie within the band) is
    a description of the games played, biased low by the dice."""

    fair: int       # settled fair by their own games
    unfair: int     # settled unfair
    n: int
    low: float
    high: float
    estimate: int = 0

    @property
    def unsettled(self) -> int:
        return self.n - self.fair - self.unfair


def bound_share(fair: int, unfair: int, n: int, confidence: float = 0.95,
                set_error: float | None = None, estimate: int = 0) -> FairShare:
    """Interval for the chance pi that a set drawn this way is truly fair, from ``fair`` sets
    settled fair and ``unfair`` settled unfair among ``n`` independent sets.

    A set's verdict is wrong (a fair set settled unfair, or an unfair one settled fair) with
    probability at most ``set_error`` (default ``1 - confidence``: the verdicts'
    simultaneous level in ``budget.validate_budget``). So P(settled fair) <= pi + e (1 - pi)
    and P(settled unfair) <= (1 - pi) + e pi, hence
    pi >= (P(settled fair) - e) / (1 - e) and pi <= (1 - P(settled unfair)) / (1 - e).
    Each probability takes its one-sided Clopper-Pearson bound at alpha / 2 (exact for every
    n), so both ends hold together with probability at least ``confidence``. Sets not settled
    widen the interval: nothing is read into them."""
    if n == 0:
        return FairShare(0, 0, 0, float("nan"), float("nan"), 0)
    e = 1.0 - confidence if set_error is None else float(set_error)
    low_fair, _ = clopper_pearson_interval(int(fair), int(n), confidence)
    _, high_not_unfair = clopper_pearson_interval(int(n - unfair), int(n), confidence)
    low = max(0.0, (float(low_fair) - e) / (1.0 - e))
    high = min(1.0, float(high_not_unfair) / (1.0 - e))
    return FairShare(int(fair), int(unfair), int(n), low, high, int(estimate))


@dataclass(frozen=True)
class FairShares:
    within: FairShare    # truly fair sets among those within the budget
    over: FairShare      # ... among those over it
    difference: tuple    # (point estimates' difference at the games played, low, high)


def fair_shares(status, within, confidence: float = 0.95, set_error: float | None = None,
                estimate=None) -> FairShares:
    """The share of truly fair sets within and over the budget, from each set's verdict
    (``status``: "fair", "unfair", anything else not settled), and their difference.

    The difference's interval is [within low - over high, within high - over low] with each
    share at ``1 - alpha / 2``: each end fails only when one of two one-sided bounds at
    alpha / 4 does, so each end errs at most alpha / 2 and the interval covers at
    ``confidence`` (Bonferroni; no point estimate enters it). ``estimate`` (bool per set: its
    simulated rates within the band) gives the description only. The sets must be
    independent draws given the levels: each on its own boards and dice."""
    status, within = np.asarray(status).astype(str), np.asarray(within, bool)
    est = np.zeros(within.size, bool) if estimate is None else np.asarray(estimate, bool)
    wide = 1.0 - (1.0 - confidence) / 2.0

    def group(mask, conf):
        return bound_share(int(((status == FAIR) & mask).sum()),
                           int(((status == UNFAIR) & mask).sum()), int(mask.sum()), conf,
                           1.0 - confidence if set_error is None else set_error,
                           int((est & mask).sum()))

    w, o = group(within, confidence), group(~within, confidence)
    if not w.n or not o.n:
        return FairShares(w, o, (float("nan"),) * 3)
    w2, o2 = group(within, wide), group(~within, wide)
    return FairShares(w, o, (w.estimate / w.n - o.estimate / o.n, w2.low - o2.high,
                             w2.high - o2.low))


# -- the dice's ceiling on the agreement statistics ----------------------------------------------

@dataclass(frozen=True)
class HalfAgreement:
    """The agreement statistics between the win rates of two halves of each set's games: what
    the dice alone leave of a perfect agreement at that many games."""

    rho: pl.MeanRho      # mean per-set rank correlation, half vs half
    favourite: pl.Share  # the halves' favourites agree
    gap: tuple           # Spearman over sets of the halves' largest gaps from 25 %
    games: int           # games in each half


def half_rates(values) -> tuple[np.ndarray, np.ndarray]:
    """Each set's win rates from its even and from its odd duplicate blocks
    (``values[set, block, rotation, team]``): two independent halves, on boards of their own
    (block j on board j % b with an even b, so the halves share no board)."""
    v = np.asarray(values, float)
    return v[:, 0::2].mean(axis=(1, 2)), v[:, 1::2].mean(axis=(1, 2))


def half_agreement(rate_a, rate_b, games: int, confidence: float = 0.95) -> HalfAgreement:
    """The same statistics the validation gives the level totals, between the halves' rates.
    Why: the agreement of the levels with simulated rates falls with the dice (0.82 at 4,096
    games a set, 0.67 at 256 in the audit's plant, the same levels and chances), so a number
    alone cannot say whether the levels or the dice hold it down; two replays of the same
    teams agree only this well. The intervals are the validation's own (over independent
    sets), for these statistics at ``games`` games a half."""
    return HalfAgreement(pl.mean_rho(pl.per_game_spearman(rate_a, rate_b), confidence),
                         pl.favourite_agreement(rate_a, rate_b, confidence),
                         pl.spearman_interval(pl.largest_gap(rate_a), pl.largest_gap(rate_b),
                                              confidence), int(games))


__all__ = ["FairShare", "FairShares", "HalfAgreement", "bound_share", "fair_shares",
           "half_agreement", "half_rates"]
