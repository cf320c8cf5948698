"""A false "fair": the GM's check and the advice built on it, on planted truths (the audit of
stop 48 found the false-"unfair" side calibrated, this side never tested).

A team set is *fair* when every team's interval lies inside 25 % ± tolerance; a set with one
team just outside that band (30.5 % against 20–30 %) is unfair, and calling it fair is the
error a GM would act on. ``fairness --suggest`` and ``draft`` confirm the first of up to N
proposals the check calls fair, so their error is the chance that any of N near-miss proposals
passes. Statistical tests, fixed seeds: one-sided binomial tests against alpha = 5 %, p > 0.01.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scipy.stats import binomtest

from sim.analysis.fairness import FAIR, fairness_verdict
from sim.runner.confirm import confirm
from tests._sequential_kit import sequential_check

NEAR_MISS = np.array([0.305, 0.235, 0.23, 0.23])  # one team just above the 20-30 % band


def test_a_team_just_outside_the_band_is_rarely_called_fair():
    rng = np.random.default_rng(4803)
    fair = sum(sequential_check(rng, NEAR_MISS, games=4000) == FAIR for _ in range(200))
    assert binomtest(fair, 200, 0.05, alternative="greater").pvalue > 0.01, fair


def test_confirming_the_first_fair_of_eight_near_misses_rarely_confirms_one():
    """The confirmation loop (sim/runner/confirm.py) over eight proposals, each in truth a near
    miss, judged with independent dice: the share of searches that confirm one stays under
    alpha, although each search makes eight tries."""
    rng = np.random.default_rng(4804)

    def judge(teams, games):
        n = games // 4
        y = np.eye(4)[rng.choice(4, size=(n, 4), p=NEAR_MISS)]
        v = fairness_verdict(y, tolerance=0.05, clusters=np.arange(n) % 256)
        return SimpleNamespace(verdict=v, games=games)

    searches, confirmed = 60, 0
    for _ in range(searches):
        res = confirm([(k, np.full((4, 5), k)) for k in range(8)], judge, budget=8 * 4000,
                      per_check=4000)
        confirmed += res.confirmed is not None
    assert binomtest(confirmed, searches, 0.05, alternative="greater").pvalue > 0.01, confirmed


def _searches_confirming(proposals: int, alpha: float, seed: int, searches: int = 40) -> int:
    """How many of ``searches`` confirmation searches over ``proposals`` proposals, each in
    truth a team at 30.1 % (just past the 20-30 % band, the worst near miss), confirm one."""
    from sim.analysis.fairness import fairness_verdict

    edge = np.array([0.301, 0.233, 0.233, 0.233])
    rng = np.random.default_rng(seed)

    def judge(teams, games):
        n = games // 4
        y = np.eye(4)[rng.choice(4, size=(n, 4), p=edge)]
        v = fairness_verdict(y, tolerance=0.05, alpha=alpha, clusters=np.arange(n) % 256)
        return SimpleNamespace(verdict=v, games=games)

    confirmed = 0
    for _ in range(searches):
        res = confirm([(k, np.full((4, 5), k)) for k in range(proposals)], judge,
                      budget=proposals * 4000, per_check=4000)
        confirmed += res.confirmed is not None
    return confirmed


def test_fifty_proposals_split_alpha_so_the_advice_stays_under_it():
    """--proposals goes up to 50 (fairness --suggest, draft): at the check's own 5 % each of 50
    near misses at the band's edge may pass, and the first that does is printed as advice (the
    statistics audit of stop 78 estimated about 12 %). sim.analysis.fairness.advice_alpha splits
    alpha past 8 proposals (8 = two sides x four teams, within which one check's false "fair"
    stays under alpha / 8): the searches that confirm one stay under alpha (one-sided binomial
    test, p > 0.01), where the unsplit 5 % confirms one far more often (p < 0.01); 40 searches."""
    from sim.analysis.fairness import advice_alpha

    split = _searches_confirming(50, advice_alpha(0.05, 50), 7811)
    assert binomtest(split, 40, 0.05, alternative="greater").pvalue > 0.01, split
    unsplit = _searches_confirming(50, 0.05, 7812)
    assert binomtest(unsplit, 40, 0.05, alternative="greater").pvalue < 0.01, unsplit
    assert advice_alpha(0.05, 8) == 0.05 and advice_alpha(0.05, 3) == 0.05
