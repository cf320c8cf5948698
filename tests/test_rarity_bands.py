"""The rarity bands and the error of a card's distance to them (sim/analysis/rarity_bands.py).

The bands are the lab's (docs/advice.md: halfway to the neighbouring rarities' medians); the
edges are estimates, and a card judged against them as if they were known is flagged too often.
The oracle tests compare the vectorised bootstrap with a slow one built from NumPy's median and
the one-row band rule; the planted-truth test shows the flags' false rate at the stated level
with the edges' error counted, and above it without.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest

from sim.analysis.rarity_bands import band_edges, edge_distance_se
from sim.analysis.rarity_order import order_noise
from sim.runner.rarity import band_tests
from tests._planted_kit import planted_band_study

RARITY = np.repeat(np.arange(6), 12)       # the shipped catalogue's shape: 6 rarities of 12


def test_band_edges_of_many_rows_are_the_one_row_rule_applied_to_each():
    """Halfway to the neighbours, open at the ends, widened to hold a rarity's own median when
    the medians come out of order, a rarity with no card in play skipped (docs/advice.md)."""
    rng = np.random.default_rng(1)
    rows = rng.normal(0.3 * np.arange(6), 0.2, (50, 6))
    rows[:, 3] = np.nan                                  # a rarity with no card in play
    low, high = band_edges(rows)
    for i, row in enumerate(rows):
        one_low, one_high = band_edges(row)
        np.testing.assert_array_equal(low[i], one_low)
        np.testing.assert_array_equal(high[i], one_high)
    assert np.isneginf(low[:, 0]).all() and np.isposinf(high[:, 5]).all()
    assert np.isnan(low[:, 3]).all()
    np.testing.assert_allclose(high[:, 2], np.maximum((rows[:, 2] + rows[:, 4]) / 2, rows[:, 2]))


def test_the_distance_error_is_the_slow_bootstrap_s():
    """The same draws as a slow reference that takes np.median of each rarity in each draw and
    applies the one-row band rule: the spread of every card's drawn rating minus its drawn
    edges agrees to rounding; open edges keep the card's own standard error."""
    rng = np.random.default_rng(2)
    rating = 0.3 * RARITY + rng.uniform(-0.15, 0.15, RARITY.size)
    se = rng.uniform(0.04, 0.07, RARITY.size)
    played = np.ones(RARITY.size, bool)
    played[[5, 40]] = False                                  # out of play: not in a median
    draws = 300
    se_low, se_high = edge_distance_se(rating, se, RARITY, played, 6, draws=draws, seed=7)
    cards = np.flatnonzero(played)
    drawn = order_noise(7, draws, cards.size) * se[cards] + rating[cards]
    gaps_low, gaps_high = np.empty((draws, cards.size)), np.empty((draws, cards.size))
    for d in range(draws):
        full = np.full(RARITY.size, np.nan)
        full[cards] = drawn[d]
        low, high = band_edges(np.array([np.median(full[cards][RARITY[cards] == r])
                                         for r in range(6)]))
        gaps_low[d], gaps_high[d] = drawn[d] - low[RARITY[cards]], drawn[d] - high[RARITY[cards]]
    inner_low = RARITY[cards] > 0
    inner_high = RARITY[cards] < 5
    np.testing.assert_allclose(se_low[cards][inner_low],
                               gaps_low[:, inner_low].std(axis=0, ddof=1), rtol=1e-10)
    np.testing.assert_allclose(se_high[cards][inner_high],
                               gaps_high[:, inner_high].std(axis=0, ddof=1), rtol=1e-10)
    np.testing.assert_array_equal(se_low[cards][~inner_low], se[cards][~inner_low])
    np.testing.assert_array_equal(se_high[cards][~inner_high], se[cards][~inner_high])
    np.testing.assert_array_equal(se_low[[5, 40]], se[[5, 40]])
    # the edges add error where it matters: the cards furthest out of their rarity (the ones a
    # flag can find) know their distance to the near edge less well than their rating (a
    # rarity's median card moves with its edges and can know it better); the lab's draws
    se_low, se_high = edge_distance_se(rating, se, RARITY, played, 6)
    top = [np.flatnonzero(RARITY == r)[np.argmax(rating[RARITY == r])] for r in range(5)]
    bottom = [np.flatnonzero(RARITY == r)[np.argmin(rating[RARITY == r])] for r in range(1, 6)]
    ratios = np.r_[se_high[top] / se[top], se_low[bottom] / se[bottom]]
    assert ratios.mean() > 1.02, ratios


def test_without_finite_errors_the_rating_s_own_error_stands():
    rating = 0.3 * RARITY.astype(float)
    se = np.full(RARITY.size, 0.05)
    se[3] = np.inf
    low, high = edge_distance_se(rating, se, RARITY, np.ones(RARITY.size, bool), 6)
    np.testing.assert_array_equal(low, se)
    np.testing.assert_array_equal(high, se)


def _flagged_on_its_edge(rng, spread: float, se: float = 0.056) -> tuple[bool, bool]:
    """One planted study (:func:`planted_band_study`) whose strongest Silver sits exactly on its
    true band's top edge: flagged strong at the raw one-sided 5 %, (the edges' error counted,
    the edges taken as known)? Both judge the same study, as two passes over the same seed did."""
    _, _, c, rating, _, (low, high) = planted_band_study(rng, 0.0, spread, se)
    ses = np.full(RARITY.size, se)
    played = np.ones(RARITY.size, bool)
    flagged = []
    for edge_se in (edge_distance_se(rating, ses, RARITY, played, 6), None):
        _, _, outlier = band_tests(rating, ses, low[RARITY], high[RARITY], played, None, 0.05,
                                   "none", edge_se)
        flagged.append(bool(outlier[c] > 0))
    return flagged[0], flagged[1]


def test_a_card_on_its_true_band_edge_is_flagged_at_the_stated_rate_only_with_the_edges_error():
    """Planted truth, 4,000 studies (cards spread uniformly 0.3 either side of their rarity's
    centre; the study's error 0.056, as the shipped 8,000-game study's): a card exactly on its
    band's true top edge is flagged strong at the raw one-sided 5 % in at most 5 % of studies
    (one-sided binomial test at 1 %) when the edges' error is counted; taken as known (the lab
    before this test) the flags are shown above 5 %. Measured over 6,000: 7.0 % known, 5.0 %
    counted; at a spread of 0.15, 6.4 % and 4.9 %."""
    n = 4000
    rng = np.random.default_rng(20261204)
    counted, known = np.sum([_flagged_on_its_edge(rng, 0.3) for _ in range(n)], axis=0)
    assert binomtest(int(counted), n, 0.05, alternative="greater").pvalue > 0.01, counted
    assert binomtest(int(known), n, 0.05, alternative="greater").pvalue < 0.01, known


def test_the_study_judges_its_cards_on_the_distance_error():
    """``rarity``'s study carries the distance errors and its flags and remedies use them: the
    stored errors are :func:`edge_distance_se` of its ratings, and ``distance_se`` is the larger
    of a card's two."""
    from sim.runner.rarity import study

    rng = np.random.default_rng(5)
    n = 3000
    strength = 0.2 * RARITY - 0.5
    seat_cards = np.stack([rng.permutation(RARITY.size)[:20].reshape(4, 5) for _ in range(n)])
    util = strength[seat_cards].sum(axis=2) + rng.gumbel(size=(n, 4))
    s = study(seat_cards, np.argmax(util, axis=1), RARITY, 6, boards=np.arange(n) % 32)
    low, high = edge_distance_se(s.rating, s.rating_se, RARITY, s.held > 0, 6)
    np.testing.assert_array_equal(s.edge_se_low, low)
    np.testing.assert_array_equal(s.edge_se_high, high)
    inner = (RARITY > 0) & (RARITY < 5)
    assert np.all(s.edge_se_high[inner] != s.rating_se[inner])
    c = int(np.flatnonzero(inner)[0])
    assert s.distance_se(c) == max(low[c], high[c])
