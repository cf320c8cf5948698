"""Planted-truth calibration with real games (issue #19, item 3): the null of four teams of
identical cards, where each team's chance to win is exactly 1/4 by symmetry.

The full suite is ``benchmarks/calibration.py`` (200+ replications); this slow test runs fewer
and checks the same claims with a binomial bound: the 95 % intervals of the fairness check cover
the truth at their stated rate with boards shared by several duplicate blocks (16 boards for 64
blocks), and the sequential check calls the null "unfair" no more often than its alpha."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sim.runner.calibration import coverage, leave_one_out, replicate, with_planted

ROOT = Path(__file__).resolve().parents[1]
REPS, GAMES, BOARDS = 48, 256, 16


@pytest.fixture(scope="module")
def null_runs():
    def run(catalogue, teams):
        return replicate(catalogue, teams, reps=REPS, games=GAMES, boards=BOARDS, round_games=64,
                         seed=20)
    return with_planted(ROOT / "cards", 1.0, run)


@pytest.mark.slow
def test_null_intervals_cover_one_quarter_at_their_stated_rate(null_runs):
    """Each team's 95 % interval covers 1/4: over 4 x 48 intervals the number covering is
    consistent with 95 % (two-sided binomial test at 1 %: an SE 1.5x too small covers about
    80 %, which this rejects with power above 0.99: P(two-sided binomtest(Binom(192, 0.80),
    192, 0.95).pvalue <= 0.01) = 0.99995)."""
    share, spread = coverage(null_runs.rate, null_runs.se, np.full_like(null_runs.rate, 0.25),
                             null_runs.df)
    n = null_runs.rate.size
    assert stats.binomtest(round(share * n), n, 0.95).pvalue > 0.01, (share, spread)
    assert 0.8 <= spread / _t_sd(null_runs.df) <= 1.25, spread


def _t_sd(df) -> float:
    """The SD of a t variable on ``df`` degrees of freedom: what the z-spread should be with
    few boards (1.07 on 15)."""
    df = float(np.mean(df))
    return float(np.sqrt(df / (df - 2)))


@pytest.mark.slow
def test_seat_rate_intervals_cover_with_boards_shared_by_blocks(null_runs):
    """The seat effect varies from board to board (spawns and tiles favour seats differently), so
    its intervals must be clustered by board. Truth: each seat's rate pooled over the other 47
    replications (its error is a seventh of one replication's). Same binomial test, same power
    (192 intervals: 0.99995 against an interval that covers 80 %)."""
    truth = leave_one_out(null_runs.seat)
    share, spread = coverage(null_runs.seat, null_runs.seat_se, truth, null_runs.df)
    n = null_runs.seat.size
    assert stats.binomtest(round(share * n), n, 0.95).pvalue > 0.01, (share, spread)
    assert 0.8 <= spread / _t_sd(null_runs.df) <= 1.25, spread


@pytest.mark.slow
def test_the_null_is_rarely_called_unfair(null_runs):
    """False "unfair" verdicts at most alpha = 0.05 (one-sided binomial test at 1 %).

    Power is below 0.99 here, and stated as such: with 48 replications the test fails at 7
    verdicts or more, P(Binom(48, 0.15) >= 7) = 0.59 against 3 alpha, 0.97 against 0.25 and
    0.996 only against 0.30. More replications are not cheap (each plays 256 games); the
    verdict's error rate is tested with power 0.992 by
    tests/test_analysis_fairness.py::test_sequential_false_alarm_rate_is_at_most_alpha."""
    unfair = int(np.sum(null_runs.verdict == "unfair"))
    assert stats.binomtest(unfair, REPS, 0.05, alternative="greater").pvalue > 0.01, unfair
