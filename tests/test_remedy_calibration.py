"""Calibration of the remedy's advice (sim/runner/remedy.py) under planted truth.

A remedy says a stat change *lands* a card in its rarity's band when the checked rating's whole
95 % interval lies inside the band. The search checks up to ``max_checks`` candidates and picks
the smallest whose interval came out inside, a selection among noisy checks; :func:`settle`
then replays that change on games of its own before it is advice. Does a change whose true
rating lies outside the band get advised in more than alpha = 5 % of remedies?

The planted world runs the lab's own :func:`settle` (search, confirmation, verdict) on checks
whose measured rating is the planted true rating after the change plus the study's error (one
draw, shared by every check of the card and by the confirmation, as the study's rating is) plus
the check's own error (one draw per check), with the interval the lab computes from the two
standard errors; the last test plants the games themselves, so that the study's and the
shift's errors share games as they do in the lab. The band's edges are known in the first
three; the fourth estimates them from the planted study's noisy medians, as the lab does, and
judges the card on the error of its distance to them (sim/analysis/rarity_bands.py).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binomtest, norm

from sim.runner.remedy import LANDS, Candidate, Check, settle

Z = float(norm.ppf(0.975))
BAND = (-0.1, 0.2)       # the card's band (log-strength), as the study's Gold-to-Diamond bands
ALPHA = 0.05


def _chains(stats: int, steps_of) -> tuple[list[Candidate], list[float]]:
    """Candidates of ``stats`` stats, ranked by power delta as :func:`candidates` ranks them;
    ``steps_of(s)`` gives stat s's true ratings after its 1st, 2nd, ... step."""
    rows = []
    for s in range(stats):
        for k, rating in enumerate(steps_of(s), start=1):
            rows.append((k * (s + 1.5), s, k, rating))
    rows.sort()
    cands = [Candidate(f"s{s}", 10, 10 - k, 0.0, -delta) for delta, s, k, _ in rows]
    return cands, [r[3] for r in rows]


def _run(rng, cands, truth, se0, se_check):
    """One nerf through the lab's :func:`settle`: (advised, advised falsely)."""
    e0 = rng.normal(0.0, se0)

    def check(i: int, confirm: bool) -> Check:  # the confirmation: the same e0, its own dice
        r = truth[i] + e0 + rng.normal(0.0, se_check)
        half = Z * math.sqrt(se0 ** 2 + se_check ** 2)
        return Check(i, cands[i], r, r - half, r + half, 0.0, 100)

    status, proposal, _, _, _ = settle(cands, check, BAND[0], BAND[1], -1, se0, Z)
    landed = status == LANDS
    return landed, landed and not BAND[0] <= truth[proposal.index] <= BAND[1]


def test_a_change_whose_truth_lies_outside_the_band_lands_in_at_most_alpha_of_remedies():
    """Adversarial: every stat's first step leaves the card just above its band and its second
    jumps just below it, so no change truly lands and every check is a chance to land by noise
    (up to 16 checks). Over 4,000 remedies for each of three error mixes (the study's error
    alone, both, the check's alone) the share advised must not be shown above 5 % (one-sided
    binomial test at 1 %). Measured on 20,000 each: 4.6 %, 2.1 %, 0.8 %. Without the
    confirmation the same search advised 28 % and 31 % in the last two (the selection among
    noisy checks); the study's error alone is shared by the confirmation, so there it stays
    near the single interval's 2.5 % a side."""
    rng = np.random.default_rng(20261204)
    edge = 0.001
    for se0, se_check in ((0.04, 0.0), (0.02, 0.03), (0.0, 0.04)):
        cands, truth = _chains(8, lambda s: [BAND[1] + edge, BAND[0] - edge])
        false = sum(_run(rng, cands, truth, se0, se_check)[1] for _ in range(4000))
        assert binomtest(false, 4000, ALPHA, alternative="greater").pvalue > 0.01, (se0, false)


def _run_on_estimated_edges(rng, edges_counted: bool, spread=0.3, se=0.056) -> bool:
    """One nerf whose band comes from a planted study: 6 rarities of 12 cards 0.3 apart, spread
    uniformly ``spread`` either side, each rating seen with error N(0, se); the strongest
    Silver is the outlier (0.2 above its true band), and every stat's first step leaves it just
    above its *true* band's top edge, its second just below the true bottom edge. Its checks
    share the study's error of its rating (as in the first test, the study's error alone: the
    mix nearest alpha there). Advised falsely?"""
    from sim.analysis.rarity_bands import edge_distance_se
    from tests._planted_kit import planted_band_study

    rarity, truth, c, rating, (low, high), (est_low, est_high) = planted_band_study(
        rng, 0.2, spread, se)
    se0 = se
    if edges_counted:
        d_low, d_high = edge_distance_se(rating, np.full(rarity.size, se), rarity,
                                         np.ones(rarity.size, bool), 6)
        se0 = max(d_low[c], d_high[c])
    cands, after = _chains(8, lambda s: [high[2] + 0.001, low[2] - 0.001])
    e0 = rating[c] - truth[c]

    def check(i: int, confirm: bool) -> Check:
        r = after[i] + e0
        return Check(i, cands[i], r, r - Z * se0, r + Z * se0, 0.0, 100)

    status, proposal, _, _, _ = settle(cands, check, est_low[2], est_high[2], -1, se0, Z)
    return status == LANDS and not low[2] <= after[proposal.index] <= high[2]


def test_a_change_lands_falsely_in_at_most_alpha_though_the_band_is_estimated():
    """The adversarial remedy of the first test on a band the study estimated (the lab's own
    :func:`band_edges`, :func:`edge_distance_se` and :func:`settle`): over 3,000 remedies the
    share advised although the change's truth lies outside the true band is not shown above 5 %
    (one-sided binomial test at 1 %). Measured over 6,000: 4.0 % (spread 0.3) and 4.3 % (0.15)
    with the edges' error counted; 5.8 % and 5.6 % with the edges taken as known (the lab
    before this test)."""
    rng = np.random.default_rng(4912)
    false = sum(_run_on_estimated_edges(rng, True) for _ in range(3000))
    assert binomtest(false, 3000, ALPHA, alternative="greater").pvalue > 0.01, false


def test_random_monotone_stats_land_falsely_under_alpha_and_often_when_a_change_fits():
    """Random cards 0.1 to 0.4 above the band top, four stats each moving the rating by its own
    0.02-0.15 a step, eight steps (study and check errors 0.02 each). False advice per remedy
    stays under 5 % (measured 1 in 2,000); and the search is useful: when some change truly sits
    in the middle half of the band, it is advised in 1,729 of 1,993 (86.8 %; asked: > 75 %).
    The search it replaced stopped at the smallest change whose *rating* entered the band and
    advised 828 (41.5 %), the rest "unsettled" with their interval across the near edge."""
    rng = np.random.default_rng(4905)
    remedies = false = fits = found = 0
    for _ in range(2000):
        start = BAND[1] + rng.uniform(0.1, 0.4)
        moves = rng.uniform(0.02, 0.15, 4)
        cands, truth = _chains(4, lambda s: [start - k * moves[s] for k in range(1, 9)])
        landed, wrong = _run(rng, cands, truth, 0.02, 0.02)
        remedies += 1
        false += wrong
        quarter = (BAND[1] - BAND[0]) / 4
        if any(BAND[0] + quarter <= t <= BAND[1] - quarter for t in truth):
            fits += 1
            found += landed
    assert binomtest(false, remedies, ALPHA, alternative="greater").pvalue > 0.01, false
    assert fits > 500 and found > 0.75 * fits, (found, fits)


def test_the_rating_after_a_change_covers_the_planted_one_though_its_games_are_the_study_s():
    """The interval of a checked change (sim/runner/remedy.py: the study's rating plus the paired
    shift of the card's replayed games, half-width z * sqrt(se_study^2 + (t/z * se_shift)^2))
    combines two errors as if independent, though the replayed games are some of the study's own.
    Planted: 24 cards of six rarities (log-strengths 0.2 apart), 3,000 games on 32 boards, each
    board shifting each card by N(0, 0.4); the change lowers a card's strength by 0.3, and its
    replays reuse each game's own luck (the same Gumbel draws: common random numbers, as the
    engine's same dice). The estimand is the changed card's rating over boards, from one fit of
    40,000 games on 10,000 boards with the change. For two cards (a Gold, a Legendary), 300
    replayed games each (the shipped budget's 130-210 per check, and more), over 100 studies the
    share of the two intervals that cover is not shown below 95 % (one-sided t-test over studies
    at 1 %; measured 95.5 %, and with the study's jackknife since stop 54 95.5 % again and 95.7 %
    over 600 on another seed). Measured for one card over 1,500 studies (the sandwich): 95.0 % at
    300 replayed games and 95.0 % at 1,000 (40 % of its games; 93.0 % over the first 200 studies
    tried, the draw's); the two errors correlate by -0.09 there, so the sum of variances errs
    wide."""
    from scipy.stats import ttest_1samp

    from sim.analysis.shift import offsets, paired_shift
    from sim.runner.rarity import study
    from sim.runner.remedy import _shift_scale

    rarity = np.repeat(np.arange(6), 4)
    strength = 0.2 * rarity - 0.5
    cards, drop, spread, boards, n, per_check = (9, 17), 0.3, 0.4, 32, 3000, 300

    def world(rng, games, n_boards):
        seat_cards = np.stack([rng.permutation(rarity.size)[:20].reshape(4, 5)
                               for _ in range(games)])
        suits = rng.normal(0.0, spread, (n_boards, rarity.size))[np.arange(games) % n_boards]
        luck = rng.gumbel(size=(games, 4))

        def winners(s):
            util = np.take_along_axis(s[None, :] + suits, seat_cards.reshape(games, -1),
                                      1).reshape(games, 4, 5).sum(axis=2)
            return np.argmax(util + luck, axis=1)
        return seat_cards, winners

    def changed(c):
        s = strength.copy()
        s[c] -= drop
        return s

    truth = {}
    for c in cards:
        seat_cards, winners = world(np.random.default_rng(c), 40000, 10000)
        # the rating needs no boards
        truth[c] = study(seat_cards, winners(changed(c)), rarity, 6).rating[c]
    rng = np.random.default_rng(4908)
    covered = []
    for _ in range(100):
        seat_cards, winners = world(rng, n, boards)
        won = winners(strength)
        s = study(seat_cards, won, rarity, 6, boards=np.arange(n) % boards)
        hits = []
        for c in cards:
            holds = np.argwhere(seat_cards == c)[:per_check]
            g, seat = holds[:, 0], holds[:, 1]
            rest = s.rating[seat_cards[g]].sum(axis=2)
            rest[np.arange(g.size), seat] -= s.rating[c]
            board = (np.arange(n) % boards)[g]
            sh = paired_shift(offsets(rest, seat), won[g] == seat, np.ones(g.size, bool),
                              winners(changed(c))[g] == seat, np.ones(g.size, bool),
                              prior=float(s.rating[c]), l2=1.0, clusters=board)
            half = Z * math.sqrt(s.rating_se[c] ** 2
                                 + (_shift_scale(board, Z, 0.95) * sh.se) ** 2)
            hits.append(abs(s.rating[c] + sh.delta - truth[c]) <= half)
        covered.append(np.mean(hits))
    assert ttest_1samp(covered, 0.95, alternative="less").pvalue > 0.01, np.mean(covered)
