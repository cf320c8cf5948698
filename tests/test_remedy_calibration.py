"""Calibration of the remedy search's "lands" verdict (sim/runner/remedy.py) under planted truth.

A remedy says a stat change *lands* a card in its rarity's band when the checked rating's whole
95 % interval lies inside the band. The search checks up to ``max_checks`` candidates and reports
the smallest that lands, so the verdict is the best of several noisy checks: does a change whose
true rating lies outside the band "land" more often than alpha = 5 % of remedies?

The planted world runs the lab's own :func:`search` and :func:`verdict` on checks whose measured
rating is the planted true rating after the change plus the study's error (one draw, shared by
every check of the card, as the study's rating is) plus the check's own error (one draw per
check), with the interval the lab computes from the two standard errors. What it does not plant:
the study's and the shift's errors share games (docs/intervals.md, "Open"), and the band's edges
are taken as known.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binomtest, norm

from sim.runner.remedy import LANDS, Candidate, Check, search, verdict

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
    e0 = rng.normal(0.0, se0)

    def measure(i: int) -> Check:
        r = truth[i] + e0 + rng.normal(0.0, se_check)
        half = Z * math.sqrt(se0 ** 2 + se_check ** 2)
        return Check(i, cands[i], r, r - half, r + half, 0.0, 100)

    status, proposal, _ = search(cands, measure, BAND[0], BAND[1], -1)
    status, _ = verdict(status, proposal, se0, Z, BAND[0], BAND[1])
    landed = status == LANDS
    return landed, landed and not BAND[0] <= truth[proposal.index] <= BAND[1]


def test_a_change_whose_truth_lies_outside_the_band_lands_in_at_most_alpha_of_remedies():
    """Adversarial: every stat's first step leaves the card just above its band and its second
    jumps just below it, so no change truly lands and every check is a chance to land by noise
    (up to 16 checks). Over 4,000 remedies for each of three error mixes (the study's error
    alone, both, the check's alone) the share that land must not be shown above 5 % (one-sided
    binomial test at 1 %). Measured on 20,000 each: 4.6 %, 4.8 %, 4.9 %: close to alpha but
    under it, since the first change whose rating enters the band ends the search of every later
    stat (the best-so-far bound), so the search does not multiply its chances."""
    rng = np.random.default_rng(20261204)
    edge = 0.001
    for se0, se_check in ((0.04, 0.0), (0.02, 0.03), (0.0, 0.04)):
        cands, truth = _chains(8, lambda s: [BAND[1] + edge, BAND[0] - edge])
        false = sum(_run(rng, cands, truth, se0, se_check)[1] for _ in range(4000))
        assert binomtest(false, 4000, ALPHA, alternative="greater").pvalue > 0.01, (se0, false)


def test_random_monotone_stats_land_falsely_under_alpha_and_often_when_a_change_fits():
    """Random cards 0.1 to 0.4 above the band top, four stats each moving the rating by its own
    0.02-0.15 a step, eight steps (study and check errors 0.02 each). False landings per remedy
    stay under 5 % (measured 8 of 2,000). What it costs: when some change truly sits in the
    middle half of the band, the remedy lands in 828 of 1,993 (41.5 %; asked: > 30 %) and is
    reported unsettled in the rest (1,165: the search stops at the smallest change whose rating
    enters the band, whose interval often still crosses the edge; docs/intervals.md). A search
    for the smallest change whose whole interval is past the edge lands in all 1,993 but, in
    the adversarial world above, falsely in 28 % of remedies: so it is not the lab's."""
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
    assert fits > 500 and found > 0.3 * fits, (found, fits)
