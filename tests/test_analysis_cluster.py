"""Clustered proportions (sim/analysis/cluster.py): Korn & Graubard's interval against
Clopper-Pearson where it must equal it, and against a planted truth where the symmetric
interval fails (docs/intervals.md, "The seat rates")."""

from __future__ import annotations

import numpy as np

from sim.analysis.cluster import (clustered_mean, clustered_share_interval,
                                  korn_graubard_interval, t_quantile)
from sim.analysis.intervals import clopper_pearson_interval, wilson_interval

BOARDS, GAMES_PER_BOARD = 16, 16


def test_korn_graubard_is_clopper_pearson_for_independent_trials():
    """Independent trials: the effective number is n itself (se^2 = p (1 - p) / n) and the df
    factor (t_{n-1} / t_{n-1})^2 is 1, so the interval is Clopper-Pearson's exactly."""
    n = 120
    k = np.array([0, 1, 17, 60, 119, 120], dtype=float)
    p = k / n
    lo, hi = korn_graubard_interval(p, np.sqrt(p * (1 - p) / n), n, n - 1)
    cp_lo, cp_hi = clopper_pearson_interval(k, n)
    np.testing.assert_allclose(lo, cp_lo, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(hi, cp_hi, rtol=1e-9, atol=1e-12)


def test_fewer_degrees_of_freedom_widen_the_interval():
    """The df factor shrinks the effective number: 15 df is wider than 255 at the same se."""
    narrow = korn_graubard_interval(0.2, 0.03, 256, 255)
    wide = korn_graubard_interval(0.2, 0.03, 256, 15)
    assert wide[0] < narrow[0] < 0.2 < narrow[1] < wide[1]


def test_clustered_share_is_wilson_for_independent_games():
    """No boards: Wilson's interval on 30 of 100 (up to the CR1 factor 100/99 in the design
    effect, which moves the ends by about 0.001)."""
    y = np.r_[np.ones(30), np.zeros(70)]
    np.testing.assert_allclose(clustered_share_interval(y), wilson_interval(30, 100), atol=2e-3)


def _skewed_boards(rng, reps: int, a: float, b: float):
    """Per replicate: 16 boards whose own rates are Beta(a, b) (a few boards favour the side
    strongly, most hardly), 16 games on each; (estimate, clustered se, games, board ids)."""
    board = np.repeat(np.arange(BOARDS), GAMES_PER_BOARD)
    for _ in range(reps):
        rate = rng.beta(a, b, BOARDS)
        y = (rng.random((BOARDS, GAMES_PER_BOARD)) < rate[:, None]).astype(float).ravel()
        m = clustered_mean(y[:, None], board)
        yield float(m.rate[0]), float(m.se[0]), y, board


def test_korn_graubard_covers_skewed_boards_where_the_symmetric_interval_misses_low():
    """Planted truth a / (a + b) = 0.15 with board rates Beta(0.6, 3.4): the real games' seat
    pathology (design effect about 5, a low estimate with a small se). Over 2,000 replicates
    (seed 7) Korn & Graubard's interval, from the se and from the games
    (``clustered_share_interval``), covers within [94 %, 97.5 %] and leaves the truth above it
    at most 4.5 % of the time. Measured at 4,000 replicates: 95.8 % (3.1 % above); the symmetric
    rate +- t se interval 92.0 % (7.4 % above), as on the real games (92.0 %, 6.7 %).

    Power against the symmetric interval: coverage 0.920 with sd 0.006 lies below 0.94 with
    probability > 0.9999, and 7.4 % above with sd 0.0059 exceeds 4.5 % with probability
    > 0.9999 (the test checks it on the same replicates). A calibrated interval at 95.8 %
    leaves the window with probability about 0.0005."""
    truth, t = 0.6 / 4.0, t_quantile(0.95, BOARDS - 1)
    kg, games, symmetric = [], [], []
    for p, se, y, board in _skewed_boards(np.random.default_rng(7), 2000, 0.6, 3.4):
        kg.append(korn_graubard_interval(p, se, y.size, BOARDS - 1))
        games.append(clustered_share_interval(y, board))
        symmetric.append((p - t * se, p + t * se))
    for intervals in (kg, games):
        lo, hi = np.array(intervals).T
        assert 0.94 <= np.mean((lo <= truth) & (truth <= hi)) <= 0.975
        assert np.mean(truth > hi) <= 0.045
    lo, hi = np.array(symmetric).T
    assert np.mean((lo <= truth) & (truth <= hi)) < 0.94 and np.mean(truth > hi) > 0.045


def test_the_design_effect_floor_keeps_games_that_anticorrelate_at_their_count():
    """Boards on which the share is almost fixed (each board: 4 games, about one of them won, as
    a duplicate deal between equals gives) have a design effect below 1. The default floor
    (``min_deff`` = 1) never credits them with more than their games; a lower floor does, and
    narrows the interval (the ladder's match rates take such a floor); a floor of 0 or less is
    refused."""
    import pytest

    from sim.analysis.cluster import design_effect, effective_trials

    rng = np.random.default_rng(54)
    boards = np.repeat(np.arange(40), 4)
    won = np.zeros(160)
    won[np.arange(40) * 4 + rng.integers(0, 4, 40)] = 1      # one win a board ...
    won[rng.choice(160, 6, replace=False)] = 1                # ... and a few more
    k1, n1 = effective_trials(won, boards)
    k0, n0 = effective_trials(won, boards, min_deff=0.1)
    assert n1 == 160 and k1 == won.sum()
    assert n0 > 160 and np.isclose(k0 / n0, won.mean())
    deff = design_effect(won, boards)
    assert deff < 1 and np.isclose(n0, 160 / max(0.1, deff))
    assert np.isnan(design_effect(won, np.zeros(160)))                # one board
    assert np.isnan(design_effect(np.zeros(8), np.arange(8)))          # a rate of 0
    low1, high1 = clustered_share_interval(won, boards)
    low0, high0 = clustered_share_interval(won, boards, min_deff=0.1)
    assert high0 - low0 < high1 - low1
    with pytest.raises(ValueError, match="min_deff"):
        effective_trials(won, boards, min_deff=0.0)


def test_a_rare_ending_is_covered_at_the_clustering_the_real_games_show():
    """A rare ending's share (1-2 %, as "no winner" or a rare way to end can be) with board
    rates Beta: intraclass correlation 0.08, the strongest the shipped drift baseline's games
    show (rotation cap, 128 boards of 32 games; "no winner" 0.0015), on 64 boards of 16 games.
    Over 2,000 replicates per truth (seed 56) ``clustered_share_interval`` covers at its stated
    95 % (one-sided binomial test of the misses against 5 %, p > 0.01; measured 94.9 % and
    94.1 %). Wilson on the games as if independent, the interval the clustering replaces,
    ignores the design effect of about 2.2 (measured 84.1 % and 83.3 %: the test checks its
    misses exceed 7 % on the same replicates). Known limit, docs/intervals.md: at twice this clustering and more, a
    rare share on 16 boards is covered less (ICC 1/6: 90.5 %), since few events say little of
    the clustering and none say nothing."""
    from scipy import stats

    rng, icc, boards, per_board, runs = np.random.default_rng(56), 0.08, 64, 16, 2000
    board = np.repeat(np.arange(boards), per_board)
    for truth in (0.01, 0.02):
        a, b = truth * (1 / icc - 1), (1 - truth) * (1 / icc - 1)
        missed = naive_missed = 0
        for _ in range(runs):
            rates = rng.beta(a, b, boards)
            y = (rng.random((boards, per_board)) < rates[:, None]).ravel().astype(float)
            lo, hi = clustered_share_interval(y, board)
            missed += not lo <= truth <= hi
            lo, hi = wilson_interval(y.sum(), y.size)
            naive_missed += not lo <= truth <= hi
        assert stats.binomtest(missed, runs, 0.05, alternative="greater").pvalue > 0.01, missed
        assert naive_missed / runs > 0.07, naive_missed


def _random_games(rng, games):
    """``games`` four-team games of five cards each from 24, finishing in random order."""
    teams = np.zeros((4 * games, 24))
    for t in range(teams.shape[0]):
        teams[t, rng.choice(24, 5, replace=False)] = 1
    items = np.arange(teams.shape[0]).reshape(-1, 4)
    return teams, items, np.argsort(rng.random(items.shape), axis=1)


def test_the_jackknife_in_blocks_is_the_one_batch_to_the_bit(monkeypatch):
    """The leave-one-board-out pseudo-inverses go PINV_BLOCK boards at a time, each block a
    progress tick (``tick``): the covariance is the single batch's exactly (each matrix is
    inverted on its own either way), and the ticks count every board once."""
    from sim.analysis import composition

    teams, items, places = _random_games(np.random.default_rng(3), 600)
    boards = np.arange(600) % 150
    ticks = []
    monkeypatch.setattr(composition, "PINV_BLOCK", 64)
    blocks = composition.composition_strengths(teams, items, places, clusters=boards,
                                               jackknife=True, tick=ticks.append)
    monkeypatch.setattr(composition, "PINV_BLOCK", 10**9)
    batch = composition.composition_strengths(teams, items, places, clusters=boards,
                                              jackknife=True)
    assert np.array_equal(blocks.cov, batch.cov)
    assert ticks == [64, 64, 22]


def test_the_jackknife_of_the_shipped_rarity_study_ticks_more_than_once():
    """The shipped rarity study (experiments/rarity.toml) has 64 boards: in blocks of 64 its
    progress line read "fitting the card ratings (the boards' jackknife): 0/64 boards" for
    10 s and then jumped to done (README "Progress": done/total and the time left). With the
    default block the 64 boards tick in several steps, each board counted once."""
    from sim.analysis import composition

    teams, items, places = _random_games(np.random.default_rng(4), 256)
    ticks = []
    composition.composition_strengths(teams, items, places, clusters=np.arange(256) % 64,
                                      jackknife=True, tick=ticks.append)
    assert sum(ticks) == 64 and len(ticks) >= 8, ticks
