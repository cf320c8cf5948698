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
standard errors. What it does not plant: the study's and the shift's errors share games
(docs/intervals.md, "Open"), and the band's edges are taken as known.
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
