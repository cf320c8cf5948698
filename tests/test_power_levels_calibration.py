"""`bwlab power-levels` (levels, `--validate-budget`) and `bwlab compare-systems`, audited against
planted truths (docs/power-levels-audit.md).

The validation scores each game set by its *simulated* win rates: 256 games a set, about 2.7
points of dice noise on each team's rate. The intervals over sets are calibrated for statistics
of those noisy rates (checked below: they pass), but the printed claims and the docs read them as
claims about the teams' chances ("N of N sets within budget were not fair", "a higher total does
mean a likelier win"): planted here with known chances, each game's winner drawn from them,
the validation's own scoring functions (``sim.analysis.power_level``) applied to the rates.

A set's rate is the plain mean of its games' values (``fairness_verdict(...).rate``, checked in
:func:`test_a_set_s_rate_is_the_mean_of_its_games`), so the studies draw each set's 256 winners
as one multinomial (no seat or board effects: the dice alone, the smallest noise a set has).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from sim.analysis import budget_fairness as bf, power_level as pl

ALPHA = 0.05
LEVEL = 1 - ALPHA
SETS, GAMES, TOL = 48, 256, 0.05           # cards/arena_budget.toml [validate]
SHARES = [18, 27, 17, 14]                  # [levels] shares


def _too_low(hits: int, n: int, rate: float) -> bool:
    """One-sided binomial at 1 %: ``hits`` of ``n`` is below ``rate``."""
    return binomtest(hits, n, rate, alternative="less").pvalue <= 0.01


def _too_high(hits: int, n: int, rate: float) -> bool:
    return binomtest(hits, n, rate, alternative="greater").pvalue <= 0.01


def _rates(rng, chances: np.ndarray, games: int = GAMES) -> np.ndarray:
    """Each set's simulated rates: ``games`` winners drawn from the set's chances."""
    return np.stack([rng.multinomial(games, p) for p in chances]) / games


def test_a_set_s_rate_is_the_mean_of_its_games():
    """The rate the validation scores (``fairness_verdict(values[g], ...).rate``, as in
    ``budget.validate_budget``) is each team's mean game value: what the studies below draw."""
    from sim.analysis.fairness import fairness_verdict, game_values

    rng = np.random.default_rng(0)
    winner = rng.choice(4, size=GAMES, p=[0.29, 0.27, 0.23, 0.21])
    values = game_values(winner).reshape(GAMES // 4, 4, 4)   # duplicate blocks of 4 games
    v = fairness_verdict(values, tolerance=TOL, alpha=ALPHA, clusters=np.arange(GAMES // 4))
    assert np.allclose(v.rate, np.bincount(winner, minlength=4) / GAMES)


# -- the budget's answer: "fair" is the point estimate of 256 games --------------------------------

FAIR_EDGE = np.array([0.29, 0.27, 0.23, 0.21])   # fair: every team within 25 % +- 5 (gap 4 points)
UNFAIR = np.array([0.35, 0.25, 0.20, 0.20])      # unfair: gap 10 points


def _no_call_intervals(rate, *_args, **_kwargs):
    """Stands in for ``fairness_call.called_intervals`` (nan: no interval given the call)."""
    return np.full(np.shape(rate), np.nan), np.full(np.shape(rate), np.nan)


def _set_verdicts(rng, chances: np.ndarray, games: int = GAMES) -> tuple[np.ndarray, np.ndarray]:
    """(status, rates) of sets whose ``games`` winners are drawn from each set's chances, in
    duplicate blocks of 4 games, each block on a board of its own, scored by
    ``fairness_verdict`` as ``budget.validate_budget`` scores them.

    Without the interval of a team given its call (``called_intervals``): it is printed in the
    verdict's text, never read here, and took three quarters of each verdict's time (these
    studies score some 70,000 sets). The status is decided by the teams' simultaneous
    intervals alone, before it: on 1,500 planted sets (256 to 2,048 games, fair to unfair, 253
    called unfair) the status, rates and intervals were identical with and without it."""
    from unittest import mock

    from sim.analysis import fairness
    from sim.analysis.fairness import fairness_verdict, game_values

    status, rate = [], []
    with mock.patch.object(fairness, "called_intervals", _no_call_intervals):
        for p in chances:
            values = game_values(rng.choice(4, size=games, p=p)).reshape(games // 4, 4, 4)
            v = fairness_verdict(values, tolerance=TOL, alpha=ALPHA,
                                 clusters=np.arange(games // 4))
            status.append(v.status)
            rate.append(v.rate)
    return np.array(status), np.stack(rate)


def _budget_studies(within_chances, reps: int, seed: int, games: int = GAMES):
    """(verdicts, within shares, old verdicts, old within shares) of ``reps`` validations: 24
    within-budget sets of ``within_chances``, 24 over-budget sets of :data:`UNFAIR`, scored as
    the command scores them now (``budget_fairness.fair_shares`` on each set's verdict) and as
    it scored them before (Clopper-Pearson on the sets whose point estimate is in the band)."""
    rng = np.random.default_rng(seed)
    within = np.arange(SETS) < SETS // 2
    chances = np.where(within[:, None], within_chances, UNFAIR)
    verdicts, shares, old_verdicts, old_shares = [], [], [], []
    for _ in range(reps):
        status, rate = _set_verdicts(rng, chances, games)
        fair = pl.largest_gap(rate) <= TOL
        s = bf.fair_shares(status, within, LEVEL, estimate=fair)
        verdicts.append(pl.budget_verdict(s.within, s.over, s.difference))
        shares.append(s.within)
        k_w, k_o = int((fair & within).sum()), int((fair & ~within).sum())
        w, o = pl.exact_share(k_w, SETS // 2, LEVEL), pl.exact_share(k_o, SETS // 2, LEVEL)
        old_verdicts.append(pl.budget_verdict(
            w, o, pl.difference_interval(k_w, SETS // 2, k_o, SETS // 2, LEVEL)))
        old_shares.append(w)
    return np.array(verdicts), shares, np.array(old_verdicts), old_shares


def test_a_budget_whose_sets_are_all_fair_is_not_said_to_leave_them_unfair():
    """Printed: "The team budget does not predict fairness here: …" (``does_not``) or "… helps
    but does not make games fair here: …" (``helps``); budget_verdict's docstring: each false
    at most alpha. Planted: every within-budget set fair (chances 29, 27, 23, 21 %: every team
    within 25 % ± 5), every over-budget set unfair (35, 25, 20, 20 %): the budget predicts
    fairness. 300 validations of 48 sets x 256 games (seed 11), one-sided binomial at 1 %
    against alpha. Before (each set's point estimate read as its fairness): 21.5 % of 1,000
    validations; the same studies scored the old way must fail the test (so it can fail). Now
    (the shares bounded from each set's own verdict): 0 %; at 256 games most sets are not
    settled, and the sentence says so."""
    verdicts, _, old, _ = _budget_studies(FAIR_EDGE, 300, 11)
    false = int(np.isin(verdicts, ["does_not", "helps"]).sum())
    assert not _too_high(false, verdicts.size, ALPHA), false
    assert _too_high(int(np.isin(old, ["does_not", "helps"]).sum()), old.size, ALPHA)


def test_the_within_budget_fair_share_covers_the_share_of_fair_sets():
    """Printed: "k of 24 sets within budget 10 were settled fair by their own 256 games and u
    unfair, so a–b % of such sets are fair", a 95 % interval. Planted: every within-budget set
    perfectly fair (25 % each): the share is 100 %. 300 validations (seed 12), one-sided
    binomial at 1 % against 95 %. Before (Clopper-Pearson on the sets whose estimate landed
    within 5 points): 0.2 % of 1,000 validations, and the same studies scored the old way must
    fail here; now the bound from the sets' verdicts: 100 %."""
    _, shares, _, old = _budget_studies(np.full(4, 0.25), 300, 12)
    covered = sum(s.low <= 1.0 <= s.high for s in shares)
    assert not _too_low(covered, len(shares), LEVEL), covered
    assert _too_low(sum(s.low <= 1.0 <= s.high for s in old), len(old), LEVEL)


@pytest.mark.parametrize("truth", [0.0, 0.5])
def test_the_fair_share_covers_a_mixed_truth_and_its_verdict_errs_at_most_alpha(truth):
    """The bound must hold wherever the sets' verdicts err, not only at 100 %: within-budget
    sets a planted share ``truth`` perfectly fair (25 % each), the rest unfair at the edge
    (31, 25, 22, 22 %: one point outside the band, so the dice settle them either way), over
    budget all unfair, 1,024 games a set (verdicts settle more sets). 120 validations (seed
    13): coverage of ``truth`` by the within share, one-sided binomial at 1 % against 95 %; and
    "predicts" (false: most within-budget sets are not fair) at most alpha."""
    rng = np.random.default_rng(13 + int(10 * truth))
    within = np.arange(SETS) < SETS // 2
    edge = np.array([0.31, 0.25, 0.22, 0.22])
    covered = false = 0
    for _ in range(120):
        fair_set = within & (np.arange(SETS) < truth * SETS // 2)
        chances = np.where(fair_set[:, None], 0.25, np.where(within[:, None], edge, UNFAIR))
        status, _ = _set_verdicts(rng, chances, 1024)
        s = bf.fair_shares(status, within, LEVEL)
        covered += s.within.low <= truth <= s.within.high
        false += pl.budget_verdict(s.within, s.over, s.difference) == "predicts"
    assert not _too_low(covered, 120, LEVEL), covered
    assert not _too_high(false, 120, ALPHA), false


def test_a_budget_that_predicts_fairness_is_told_so_when_the_sets_settle():
    """Not only cautious: within-budget sets perfectly fair, over-budget ones plainly unfair
    (35, 25, 20, 20 %), 2,048 games a set: the sets settle (at 1,024 a third of the fair ones
    do) and the verdict is "predicts" in most of 20 validations (seed 14)."""
    verdicts, _, _, _ = _budget_studies(np.full(4, 0.25), 20, 14, games=2048)
    assert (verdicts == "predicts").mean() > 0.9, verdicts


# -- the agreement lines: correlations with 256-game rates, not with the teams' chances ------------

SLOPE, EXTRA = 0.03, 0.02   # 3 points of chance a level, plus N(0, 2 points) the levels miss


def _agreement_sets(rng, sets: int, games: int | None = GAMES):
    """Level totals 7-11 and chances 25 % + SLOPE a level + N(0, EXTRA) (summing to 1); with
    ``games`` also their simulated rates."""
    totals = rng.integers(7, 12, size=(sets, 4))
    e = rng.normal(0, EXTRA, (sets, 4))
    p = 0.25 + SLOPE * (totals - totals.mean(1, keepdims=True)) + e - e.mean(1, keepdims=True)
    return totals, p, (None if games is None else _rates(rng, p, games))


def _spread(totals):
    return totals.max(1) - totals.min(1)


def _stat(kind: str, totals, scores):
    """The validation's statistic ``kind`` of level totals against per-set scores (rates):
    (estimate, low, high), as ``validate_budget`` computes it."""
    if kind == "mean_rho":
        m = pl.mean_rho(pl.per_game_spearman(totals, scores), LEVEL)
        return m.mean, m.low, m.high
    if kind == "favourite":
        s = pl.favourite_agreement(totals, scores, LEVEL)
        return s.rate, s.low, s.high
    return pl.spearman_interval(_spread(totals), pl.largest_gap(scores), LEVEL)[:3]


def _truth(kind: str, of_chances: bool, seed: int = 5, n: int = 200_000) -> float:
    """The statistic's value on ``n`` planted sets: against the chances (``of_chances``) or
    against 256-game rates (what the code estimates)."""
    totals, p, r = _agreement_sets(np.random.default_rng(seed), n)
    return float(_stat(kind, totals, p if of_chances else r)[0])


def _coverage(kind: str, truth: float, reps: int, seed: int) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    hit = given = 0
    for _ in range(reps):
        totals, _, rate = _agreement_sets(rng, SETS)
        _, low, high = _stat(kind, totals, rate)
        if np.isnan(low):
            continue
        given += 1
        hit += low <= truth <= high
    return hit, given


@pytest.mark.parametrize("kind", ["mean_rho", "favourite", "spread_gap"])
def test_the_agreement_with_simulated_rates_is_not_the_agreement_with_the_chances(kind):
    """Why the agreement lines now name the games they are about: read as agreement with the
    teams' chances (docs/rulings-peers.md before: "a higher total does mean a likelier win"),
    their intervals miss. Planted: chances 25 % + 3 points a level + N(0, 2 points); truths
    against the chances (2*10^5 sets): mean rho 0.837, favourite 0.876, spread-gap 0.689;
    against 256-game rates 0.68, 0.69, 0.42. 200 validations of 48 sets (seed 6): coverage of
    the chances' value far below 95 % (measured on 400: 5.3 %, 21.8 %, 23.0 %). The printed
    claim is the agreement with the rates of [validate] games a set, which the intervals hold
    (:func:`test_the_agreement_intervals_cover_their_own_estimand`), beside the dice's own
    ceiling (:func:`test_the_halves_agreement_intervals_cover_their_own_estimand`)."""
    hit, given = _coverage(kind, _truth(kind, of_chances=True), 200, 6)
    assert given >= 195
    assert _too_low(hit, given, LEVEL), (hit, given)


def _halves_stat(kind: str, rng, sets: int, games: int = GAMES):
    """The validation's statistic ``kind`` between the rates of two halves of each planted set's
    ``games`` games (``budget_fairness.half_agreement``): (estimate, low, high)."""
    _, p, _ = _agreement_sets(rng, sets, None)
    h = bf.half_agreement(_rates(rng, p, games // 2), _rates(rng, p, games // 2), games // 2,
                          LEVEL)
    if kind == "mean_rho":
        return h.rho.mean, h.rho.low, h.rho.high
    if kind == "favourite":
        return h.favourite.rate, h.favourite.low, h.favourite.high
    return h.gap[:3]


@pytest.mark.parametrize("kind", ["mean_rho", "favourite", "spread_gap"])
def test_the_halves_agreement_intervals_cover_their_own_estimand(kind):
    """Printed beside the agreement lines: "the dice alone, for scale: two halves of each set's
    games (128 each) agree at rank correlation …, favourite …, largest gap …". Its estimand:
    the statistic between two independent 128-game rates of the same teams (2*10^5 planted
    sets, seed 5); 400 validations of 48 sets (seed 9), one-sided binomial at 1 % against
    95 %."""
    truth = float(_halves_stat(kind, np.random.default_rng(5), 200_000)[0])
    rng = np.random.default_rng(9)
    hit = given = 0
    for _ in range(400):
        _, low, high = _halves_stat(kind, rng, SETS)
        if np.isnan(low):
            continue
        given += 1
        hit += low <= truth <= high
    assert given >= 390
    assert not _too_low(hit, given, LEVEL), (hit, given)


def test_the_report_says_what_its_agreement_lines_are_about():
    """The lines name the estimand (the simulated rates of [validate] games a set) and print
    the halves' agreement beside it; the fair shares are of sets settled by their own games."""
    from types import SimpleNamespace

    from sim.cli.power_levels import budget_conclusion, validation_lines

    rng = np.random.default_rng(10)
    totals, p, rate = _agreement_sets(rng, SETS)
    within = totals.max(1) <= 10
    status, _ = _set_verdicts(rng, p)
    s = bf.fair_shares(status, within, LEVEL, estimate=pl.largest_gap(rate) <= TOL)
    m = pl.mean_rho(pl.per_game_spearman(totals, rate), LEVEL)
    fav = pl.favourite_agreement(totals, rate, LEVEL)
    v = SimpleNamespace(
        built=within, budget=10, set_games=GAMES, boards_per_set=64, policy="greedy", seconds=1,
        rho_levels=m, rho_ratings=m, fav_levels=fav, fav_ratings=fav,
        spread_gap=pl.spearman_interval(_spread(totals), pl.largest_gap(rate), LEVEL),
        halves=bf.half_agreement(_rates(rng, p, 128), _rates(rng, p, 128), 128, LEVEL),
        fair_within=s.within, fair_over=s.over, fair_difference=s.difference, tolerance=TOL,
        confidence=LEVEL, levels_uncertain=0, cards_in_play=72)
    text = "\n".join(validation_lines(v))
    assert "agreement with the simulated win rates of 256 games a set" in text
    assert "two halves of each set's games (128 each) agree at rank correlation +" in text
    assert "settled fair" in text and "truly fair" in text
    first = budget_conclusion(v)
    assert "by their own 256 games" in first and first.endswith(".")


@pytest.mark.parametrize("kind", ["favourite", "spread_gap"])
def test_the_agreement_intervals_cover_their_own_estimand(kind):
    """What holds: against the statistic of 256-game rates (the code's estimand, 2*10^5 sets)
    Wilson's favourite share and the Fisher-z Spearman (integer spreads, many ties) cover at
    their rate: here 600 validations of 48 sets (seed 8): 94.5 % and 96.3 %, one-sided
    binomial at 1 % against 95 %. (The mean correlation's own estimand:
    tests/test_power_levels.py.)"""
    hit, given = _coverage(kind, _truth(kind, of_chances=False), 600, 8)
    assert given >= 590
    assert not _too_low(hit, given, LEVEL), (hit, given)


# -- the level table ----------------------------------------------------------------

def test_a_card_s_level_interval_holds_its_level_also_when_printed_sure():
    """Printed: each card's level, and "(levels a–b within its interval)" unless the ends of
    its rating's 95 % interval fall in one level (then the level alone: read as sure). Planted:
    72 true ratings N(0, 0.25), estimates N(rating, 0.08) (a card's se at 4,000 games), the
    rating's interval estimate ± 1.96 se, cuts ``quantile_cuts`` of Arena's shares on the
    estimates (the true level: the same cuts on the true ratings). 2,000 tables (seed 3), one
    card drawn at random per table (and one printed-sure card), so the hits are independent:
    exploration on all cards: 99.4 % of cards' true level within a–b; of the cards printed sure
    (18 %) 0.8 % sit at another level; every card of a table covered in 67 % of tables (a
    per-card claim: docs/power-levels-audit.md). One-sided binomial at 1 % against a 5 % miss."""
    rng = np.random.default_rng(3)
    theta = rng.normal(0, 0.25, 72)
    se = 0.08
    true = pl.levels_from_cuts(theta, pl.quantile_cuts(theta, SHARES))
    miss = sure_miss = n_sure = 0
    reps = 2000
    for _ in range(reps):
        est = theta + rng.normal(0, se, 72)
        cuts = pl.quantile_cuts(est, SHARES)
        lo = pl.levels_from_cuts(est - 1.96 * se, cuts)
        hi = pl.levels_from_cuts(est + 1.96 * se, cuts)
        out = (true < lo) | (true > hi)
        miss += bool(out[rng.integers(72)])
        sure = np.flatnonzero(lo == hi)
        if sure.size:
            n_sure += 1
            sure_miss += bool(out[rng.choice(sure)])
    assert n_sure >= 0.99 * reps
    assert not _too_high(miss, reps, ALPHA), miss
    assert not _too_high(sure_miss, n_sure, ALPHA), (sure_miss, n_sure)
