"""Independent-replay audit of the printed advice (2026-12-06).

The remedy's calibration (tests/test_remedy_calibration.py) plants the study's error of the
card's rating, e0, unconditionally: every planted study is a remedy. But ``bwlab rarity
--remedy`` remedies only a card the study *flagged* (its rating's distance to the band's edge
past the Holm bar), and the search's checks and the confirmation both measure the changed card
as the study's rating plus a paired shift: the same e0 that selected the card. Conditional on
the flag, e0 leans the way the card was flagged (winner's curse), and the confirmation, which
shares it, cannot undo it. A change whose truth lies outside the band is then advised in far
more than alpha of the remedies a designer is shown.

Planted world: the lab's own :func:`sim.runner.remedy_search.settle` on the adversarial chains
of test_remedy_calibration's first test (every stat's first step leaves the card just above its
band, its second jumps just below it; the study's error alone, the mix where the lab measured
4.6 % unconditionally); the card truly plays 2 standard errors above its band's top (a true
outlier), and a remedy happens only when the study flags it: one-sided z past Holm's first bar
over the 72 shipped cards, norm.isf(0.05 / 72) = 3.19 (the lab's t on 63 boards' df is a
little stricter, which only strengthens the selection). Measured here: 832 of 4,000 flagged
remedies (20.8 %) advise a change whose truth lies outside the band; the control below, the same
card with every study remedied, stays near alpha. The same card 3 standard errors out: 5.8 %.
Not only adversarial steps: with fine steps (four stats, 0.02-0.08 a step) on a band just wide
enough to hold an interval (0.3 against a half-width of 0.127), a card 1 standard error out
lands falsely in 1,080 of 3,000 flagged remedies (36 %, mostly just below the band's bottom),
one 2 out in 5.3 %. A fix: measure the changed card against a base rating the flag did not select
(games held out of the study's flag, or replayed with fresh dice), not the study's own.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest, norm

from sim.runner.remedy_search import LANDS, Candidate, Check, settle

Z = float(norm.ppf(0.975))
BAND = (-0.1, 0.2)
ALPHA = 0.05
Z_FLAG = float(norm.isf(ALPHA / 72))     # Holm's first bar over the 72 shipped cards


def _adversarial_chains(stats: int = 8):
    """test_remedy_calibration._chains with every stat's first step just above the band and
    its second just below it."""
    rows = []
    for s in range(stats):
        for k, rating in enumerate((BAND[1] + 0.001, BAND[0] - 0.001), start=1):
            rows.append((k * (s + 1.5), s, k, rating))
    rows.sort()
    return ([Candidate(f"s{s}", 10, 10 - k, 0.0, -delta) for delta, s, k, _ in rows],
            [r[3] for r in rows])


@pytest.mark.xfail(strict=True, reason=(
    "winner's curse in --remedy: the card is remedied only when the study flags it, and the "
    "search and the confirmation both reuse that study's rating (its error selected the card), "
    "so conditional on the flag a change whose truth is outside the band lands in ~21 % of "
    "remedies, not <= 5 %"))
def test_a_remedy_of_a_flagged_card_lands_falsely_in_at_most_alpha():
    """One-sided binomial test at 1 % that the share of flagged remedies advising a change
    whose truth is outside the band is not above 5 % (4,000 flagged remedies, fixed seed)."""
    rng = np.random.default_rng(20261206)
    se0 = 0.04
    truth_card = BAND[1] + 2.0 * se0          # a true outlier, 2 standard errors out
    cands, truth = _adversarial_chains()
    remedies = false = 0
    while remedies < 4000:
        e0 = rng.normal(0.0, se0)             # the study's error of the card's rating
        if (truth_card + e0 - BAND[1]) / se0 <= Z_FLAG:
            continue                          # not flagged: no remedy is searched
        remedies += 1

        def check(i: int, confirm: bool) -> Check:  # the study's rating + the shift (exact)
            r = truth[i] + e0
            half = Z * se0
            return Check(i, cands[i], r, r - half, r + half, 0.0, 100)

        status, proposal, _, _, _ = settle(cands, check, BAND[0], BAND[1], -1, se0, Z)
        false += status == LANDS and not BAND[0] <= truth[proposal.index] <= BAND[1]
    assert binomtest(false, remedies, ALPHA, alternative="greater").pvalue > 0.01, false


def test_the_same_remedy_unconditionally_stays_near_alpha():
    """The control: the same planted card with every study remedied (flagged or not), as
    test_remedy_calibration plants it, is calibrated (one-sided binomial test at 1 %; measured
    164 of 4,000, 4.1 %)."""
    rng = np.random.default_rng(20261207)
    se0 = 0.04
    cands, truth = _adversarial_chains()
    false = 0
    for _ in range(4000):
        e0 = rng.normal(0.0, se0)

        def check(i: int, confirm: bool) -> Check:
            r = truth[i] + e0
            return Check(i, cands[i], r, r - Z * se0, r + Z * se0, 0.0, 100)

        status, proposal, _, _, _ = settle(cands, check, BAND[0], BAND[1], -1, se0, Z)
        false += status == LANDS and not BAND[0] <= truth[proposal.index] <= BAND[1]
    assert binomtest(false, 4000, ALPHA, alternative="greater").pvalue > 0.01, false


def test_a_confirmed_set_s_intervals_cover_its_truth_though_it_was_chosen_among_eight():
    """fairness --suggest and draft print the first of up to eight proposals the check calls
    fair, with its intervals from the games that chose it. Planted: eight proposals a search,
    each with one team's true chance drawn uniformly from 25-31 % (some outside the 20-30 %
    band) and the others equal, judged as draft judges them (at most 1,024 games, a look every
    256, 256 boards; sim.runner.confirm.confirm over the lab's fairness_verdict). Conditional on
    a confirmation, all four printed intervals cover the planted truth, and no confirmed set is
    truly outside the band, in at least 95 % of searches (one-sided binomial tests at 1 %).
    Measured here: 36 confirmed of 150 searches, 35 of them covered, none outside (45, 45 and 0
    of 200 at another seed). Real games agree: ``draft --random 20 --seed 4 --games 4096``
    confirms a split at 2,048 games (gap from 25 % 1.6 points) that two replays of 4,096 games
    on seeds 2004 and 3004 call fair again (gaps 2.6 and 1.8 points, every team covered)."""
    from types import SimpleNamespace

    from sim.analysis.fairness import OPEN, fairness_verdict
    from sim.runner.confirm import confirm

    rng = np.random.default_rng(20261208)

    def judge_for(truths):
        def judge(teams, games, round_games=256, boards=256):
            truth = truths[int(teams[0, 0])]
            n = games // 4
            y = np.eye(4)[rng.choice(4, size=(n, 4), p=truth)]
            board = np.arange(n) % boards
            looks = -(-games // round_games)
            for stop in range(round_games // 4, n + 1, round_games // 4):
                v = fairness_verdict(y[:stop], tolerance=0.05, max_looks=looks,
                                     clusters=board[:stop])
                if v.status != OPEN:
                    break
            return SimpleNamespace(verdict=v, games=4 * stop)
        return judge

    confirmed = missed = false = 0
    for _ in range(150):
        tops = rng.uniform(0.25, 0.31, 8)
        truths = [np.array([a, (1 - a) / 3, (1 - a) / 3, (1 - a) / 3])[rng.permutation(4)]
                  for a in tops]
        res = confirm([(k, np.full((4, 5), k)) for k in range(8)], judge_for(truths),
                      budget=8 * 1024, per_check=1024)
        if res.confirmed is None:
            continue
        confirmed += 1
        t, v = truths[res.confirmed.label], res.confirmed.report.verdict
        missed += not np.all((v.lower <= t) & (t <= v.upper))
        false += bool(np.any(np.abs(t - 0.25) > 0.05))
    assert confirmed >= 10, confirmed
    assert binomtest(missed, confirmed, ALPHA, alternative="greater").pvalue > 0.01, missed
    assert binomtest(false, confirmed, ALPHA, alternative="greater").pvalue > 0.01, false
