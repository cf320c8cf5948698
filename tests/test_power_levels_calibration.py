"""`bwlab power-levels` (levels, `--validate-budget`) and `bwlab compare-systems`, audited against
planted truths (POWER_AUDIT.md).

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

from sim.analysis import power_level as pl

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


def _budget_studies(within_chances, reps: int, seed: int):
    """(verdicts, within shares) of ``reps`` validations: 24 within-budget sets of
    ``within_chances``, 24 over-budget sets of :data:`UNFAIR`, scored as the command scores."""
    rng = np.random.default_rng(seed)
    within = np.arange(SETS) < SETS // 2
    chances = np.where(within[:, None], within_chances, UNFAIR)
    verdicts, shares = [], []
    for _ in range(reps):
        fair = pl.largest_gap(_rates(rng, chances)) <= TOL
        s = pl.fair_shares(fair, within, LEVEL)
        verdicts.append(pl.budget_verdict(s.within, s.over, s.difference))
        shares.append(s.within)
    return np.array(verdicts), shares


@pytest.mark.xfail(strict=True, reason="budget_verdict reads each set's point estimate as its "
                   "fairness: truly fair sets read unfair through 256 games' dice, 'does not "
                   "predict'/'helps but does not make games fair' 21.5 % against <= 5 %")
def test_a_budget_whose_sets_are_all_fair_is_not_said_to_leave_them_unfair():
    """Printed: "The team budget does not predict fairness here: N of 24 sets within budget 10
    were not fair …" (``does_not``) or "… helps but does not make games fair here: only k of 24
    …" (``helps``); budget_verdict's docstring: ``does_not`` false at most alpha, ``helps``
    at most alpha (two ends at alpha / 2). Planted: every within-budget set is fair (chances 29,
    27, 23, 21 %: every team within 25 % ± 5), every over-budget set unfair (35, 25, 20, 20 %):
    the budget predicts fairness. 1,000 validations of 48 sets x 256 games (seed 11): measured
    ``does_not`` 10.9 %, ``helps`` 10.6 %, together 21.5 % (docs/intervals.md's planted figure,
    0-2.6 %, planted the sets' fairness itself, not their games)."""
    verdicts, _ = _budget_studies(FAIR_EDGE, 1000, 11)
    false = int(np.isin(verdicts, ["does_not", "helps"]).sum())
    assert not _too_high(false, verdicts.size, ALPHA), false


@pytest.mark.xfail(strict=True, reason="fair_shares' Clopper-Pearson interval is for the share "
                   "of sets whose 256-game estimate is within 25 % +- 5, not the share of fair "
                   "sets: 0.2 % coverage of a planted 100 % (perfectly fair sets)")
def test_the_within_budget_fair_share_covers_the_share_of_fair_sets():
    """Printed: "within budget and fair by simulation (every team 25 % ± 5): x % (a–b), k of
    24" and, in the first line, "… k of 24 sets within budget 10 were fair (…; a–b %)", a 95 %
    interval. Planted: every within-budget set perfectly fair (25 % each): the share is 100 %.
    The interval reaches 100 % only when all 24 estimates land within 5 points: measured 0.2 %
    of 1,000 validations (seed 12), the estimates' fair share 77 % on average."""
    _, shares = _budget_studies(np.full(4, 0.25), 1000, 12)
    covered = sum(s.low <= 1.0 <= s.high for s in shares)
    assert not _too_low(covered, len(shares), LEVEL), covered


# -- the agreement lines: correlations with 256-game rates, read as with the teams' chances --------

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


@pytest.mark.xfail(strict=True, reason="the validation correlates level totals with 256-game "
                   "rates; the dice attenuate every agreement, so the intervals miss the "
                   "agreement with the teams' chances (coverage 5-23 % against 95 %)")
@pytest.mark.parametrize("kind", ["mean_rho", "favourite", "spread_gap"])
def test_the_agreement_intervals_cover_the_agreement_with_the_teams_chances(kind):
    """Printed: "rank correlation within a game, level totals vs simulated win rates: +0.79
    (+0.73 – +0.86)", "budget's favourite … is the simulation's: 93.3 % (70.2–98.8)",
    "spread of totals vs largest simulated gap from 25 % (Spearman over sets): +0.53 (+0.29 –
    +0.71)"; docs/rulings-peers.md reads them as the levels' information about who wins ("a
    higher total does mean a likelier win"; "the four-step scale loses some of what the ratings
    know (0.79 against 0.83)"). Planted: chances 25 % + 3 points a level + N(0, 2 points);
    truths against the chances (2*10^5 sets): mean rho 0.837, favourite 0.876, spread-gap 0.689;
    against 256-game rates 0.68, 0.69, 0.42. 400 validations of 48 sets (seed 6), 95 % intervals:
    measured coverage 5.3 %, 21.8 %, 23.0 %. The estimand moves with [validate] games."""
    hit, given = _coverage(kind, _truth(kind, of_chances=True), 400, 6)
    assert given >= 390
    assert not _too_low(hit, given, LEVEL), (hit, given)


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
    per-card claim: POWER_AUDIT.md). One-sided binomial at 1 % against a 5 % miss."""
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
