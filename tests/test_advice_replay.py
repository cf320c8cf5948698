"""Independent-replay audit of the printed advice (2026-12-06): calibration conditional on the
selection that makes the advice.

``bwlab rarity --remedy`` remedies only a card the study *flagged* (its rating's distance to the
band's edge past the Holm bar). The remedy measured the changed card as the study's rating plus
a paired shift, so every check and the confirmation shared the error e0 that selected the card:
conditional on the flag, e0 leans the way the card was flagged (winner's curse), and a change
whose truth lies outside the band was advised in far more than alpha of the remedies a designer
is shown. tests/test_remedy_calibration.py planted e0 unconditionally (every planted study a
remedy), which is why it passed. The remedy now measures each outlier on a base study played
afresh (``sim.runner.remedy.base_seed``; tests/test_remedy.py checks that the printed rating is
that study's).

Planted world: the lab's own :func:`sim.runner.remedy_search.settle` on the adversarial chains
of test_remedy_calibration's first test (every stat's first step leaves the card just above its
band, its second jumps just below it; the study's error alone); the card truly plays 1-3
standard errors above its band's top (a true outlier), and a remedy happens only when the study
flags it: one-sided z past Holm's first bar over the 72 shipped cards, norm.isf(0.05 / 72) =
3.19 (the lab's t on 63 boards' df is a little stricter, which only strengthens the selection).
Measured with the flag's own rating: 832 of 4,000 flagged remedies (20.8 %) advised a change
whose truth lies outside the band (3 standard errors out: 5.8 %; with fine steps on a band just
wide enough to hold an interval, 1 standard error out: 36 %). The audit's replays of real
advice (fairness --suggest, draft, rarity --remedy) found the printed intervals covering fresh
replays at their rates; the third test pins that for a confirmed set chosen among eight.
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


def _false_landings(rng, se0: float, truth_card: float, base_error_of) -> tuple[int, int]:
    """Flagged remedies and those advising a change whose truth is outside the band, over
    4,000 flagged remedies: the study's error ``e0`` flags the card (one-sided z past Holm's
    first bar), and ``base_error_of(e0)`` is the error of the rating the checks move."""
    cands, truth = _adversarial_chains()
    remedies = false = 0
    while remedies < 4000:
        e0 = rng.normal(0.0, se0)             # the flagging study's error of the card's rating
        if (truth_card + e0 - BAND[1]) / se0 <= Z_FLAG:
            continue                          # not flagged: no remedy is searched
        remedies += 1
        e = base_error_of(e0)

        def check(i: int, confirm: bool) -> Check:  # the base rating + the shift (exact)
            r = truth[i] + e
            half = Z * se0
            return Check(i, cands[i], r, r - half, r + half, 0.0, 100)

        status, proposal, _, _, _ = settle(cands, check, BAND[0], BAND[1], -1, se0, Z)
        false += status == LANDS and not BAND[0] <= truth[proposal.index] <= BAND[1]
    return remedies, false


def test_a_remedy_measured_on_the_study_that_flagged_it_would_land_falsely_too_often():
    """Why ``remedies`` plays a base study of its own (sim/runner/remedy.py): measured from the
    flagging study's rating (its error selected the card), a true outlier 2 standard errors
    above its band gets a change advised as landing whose truth is outside the band in far more
    than 5 % of flagged remedies (one-sided binomial test at 1 %: it is above; measured 832 of
    4,000, 20.8 %, the remedy as it was until the audit)."""
    se0 = 0.04
    n, false = _false_landings(np.random.default_rng(20261206), se0, BAND[1] + 2.0 * se0,
                               lambda e0: e0)
    assert binomtest(false, n, ALPHA, alternative="greater").pvalue < 0.01, false


@pytest.mark.parametrize("out", [1.0, 2.0, 3.0])
def test_a_remedy_measured_on_a_fresh_base_study_lands_falsely_in_at_most_alpha(out):
    """The remedy as it is: the card flagged by the study's error, its changes measured on a
    base study played afresh (an error of the same size, independent of the flag). A true
    outlier 1, 2 or 3 standard errors above its band: the share of flagged remedies advising a
    change whose truth is outside the band is not above 5 % (one-sided binomial test at 1 %,
    4,000 flagged remedies each)."""
    se0 = 0.04
    rng = np.random.default_rng(20261207 + int(out))
    n, false = _false_landings(rng, se0, BAND[1] + out * se0,
                               lambda e0: rng.normal(0.0, se0))
    assert binomtest(false, n, ALPHA, alternative="greater").pvalue > 0.01, false


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
