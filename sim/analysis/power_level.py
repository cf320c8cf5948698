"""Arena: The Contest's Power Levels and team budget, on Board Wars: pure functions.

Arena prints a Power Level (1-4) per character and caps each team: "The total power level of each
team must equal 10 or less." The lab derives the levels from simulated card ratings (a quantile
or fixed-threshold cut, ``cards/arena_budget.toml``), checks teams against the budget, drafts
with Arena's alternating pick order, and measures how well the budget's cheap prediction agrees
with full simulation. Everything here is arithmetic on arrays (randomness only through a
``Generator`` the caller seeds), so each rule is tested against hand-computed cases.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import norm, rankdata, t as student_t

from .cluster import SE_ROUNDING
from .intervals import clopper_pearson_interval, paired_mean_difference, wilson_interval

LEVELS = 4


# -- ratings -> levels --------------------------------------------------------------------------

def quantile_counts(n: int, shares) -> np.ndarray:
    """How many of ``n`` cards fall at or below each level 1..3: the cumulative shares of ``n``,
    rounded half up (so [18, 27, 17, 14] of 72 cards gives 17, 43, 59: levels of 17, 26, 16, 13)."""
    s = np.asarray(shares, float)
    cum = np.cumsum(s / s.sum())[:-1]
    return np.floor(n * cum + 0.5 + 1e-9).astype(np.int64)


def quantile_cuts(rating, shares) -> np.ndarray:
    """Rating cut points between levels 1|2, 2|3, 3|4 such that the cards ranked by rating fall
    into the levels in proportion to ``shares``: each cut lies halfway between the last card of
    one level and the first of the next (-inf / +inf when a level below / above is empty)."""
    r = np.sort(np.asarray(rating, float))
    n = r.size
    cuts = np.empty(LEVELS - 1)
    for k, c in enumerate(quantile_counts(n, shares)):
        cuts[k] = -np.inf if c <= 0 else np.inf if c >= n else (r[c - 1] + r[c]) / 2
    return cuts


def levels_from_cuts(rating, cuts) -> np.ndarray:
    """Level 1 + the number of cut points at or below each rating (a rating on a cut goes up)."""
    return 1 + np.searchsorted(np.asarray(cuts, float), np.asarray(rating, float),
                               side="right").astype(np.int64)


# -- the budget check ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BudgetCheck:
    totals: np.ndarray      # each team's total Power Level
    budget: int
    excess: np.ndarray      # total - budget: > 0 over by that much, <= 0 under by -excess
    within: bool            # Arena's rule: every team's total is at most the budget
    favourite: int          # the team with the highest total, -1 when two or more share it
    spread: int             # highest total - lowest total
    text: str


def budget_check(teams: np.ndarray, level: np.ndarray, budget: int, names=None) -> BudgetCheck:
    """Arena's check on four teams: "The total power level of each team must equal 10 or less."

    The verdict is Arena's literal rule (every team at most ``budget``); the favourite and the
    spread are what the levels predict beyond it (the strongest team, how far apart the teams are).
    """
    totals = np.asarray(level)[np.asarray(teams)].sum(axis=1).astype(np.int64)
    excess = totals - budget
    within = bool(np.all(excess <= 0))
    top = np.flatnonzero(totals == totals.max())
    favourite = int(top[0]) if top.size == 1 else -1
    names = list(names) if names is not None else [f"Team {k + 1}" for k in range(totals.size)]
    if within:
        text = (f"Within budget: every team's Power Level total is at most {budget} "
                f"(totals {', '.join(map(str, totals))}).")
    else:
        over = [f"{names[k]} {totals[k]} (over by {excess[k]})" for k in np.flatnonzero(excess > 0)]
        text = f"Over budget {budget}: " + "; ".join(over) + "."
    return BudgetCheck(totals, budget, excess, within, favourite,
                       int(totals.max() - totals.min()), text)


def budget_feasible(levels, budget: int, teams: int = 4, per_team: int = 5) -> bool:
    """Whether ``levels`` (one Power Level per card of a pool of ``teams * per_team``) can be
    split into ``teams`` teams of ``per_team`` cards each within ``budget``: exact, by search
    over how many cards of each level every team takes. Why exact: "an impossible budget says
    so" must never be a local search that merely failed to find a split."""
    from functools import lru_cache
    from itertools import combinations_with_replacement

    counts = tuple(int(np.sum(np.asarray(levels) == k)) for k in range(1, LEVELS + 1))
    if sum(counts) != teams * per_team:
        raise ValueError(f"a pool of {teams * per_team} cards, got {sum(counts)}")
    hands = set()
    for combo in combinations_with_replacement(range(LEVELS), per_team):
        if sum(k + 1 for k in combo) <= budget:
            hands.add(tuple(combo.count(k) for k in range(LEVELS)))

    @lru_cache(maxsize=None)
    def fits(left: tuple, n: int) -> bool:
        if n == 0:
            return True
        return any(all(h[k] <= left[k] for k in range(LEVELS))
                   and fits(tuple(left[k] - h[k] for k in range(LEVELS)), n - 1) for h in hands)

    return fits(counts, teams)


def can_finish(total: int, cost: int, left_after: int, others: np.ndarray, budget: int) -> bool:
    """Arena's look-ahead: taking a card of level ``cost`` must leave the team able to complete
    its remaining ``left_after`` picks within the budget, counting the cheapest cards still
    available (``others``, sorted ascending) — "if your Boss is power level 4 and the first Hero
    you select is power level 3, your total is 7. Your second Hero choice must have a power level
    lower than 3"."""
    return total + cost + int(others[:left_after].sum()) <= budget


# -- Arena's alternating pick order --------------------------------------------------------------

def alternating_draft(pool, level, rating, order, budget: int, enforce: bool = True,
                      per_team: int = 5) -> np.ndarray:
    """Teams pick one card each in ``order`` (0-based team indices), round after round, until
    every team holds ``per_team`` cards ("Teams alternate selecting Heroes"). Each pick is the
    strongest card left — highest Power Level, then highest rating, then lowest card index —
    that keeps the team able to finish within ``budget`` (when ``enforce``); when no card can,
    the team takes the cheapest card left (lowest level, then highest rating) and ends over."""
    pool = np.asarray(pool, np.int64)
    level, rating = np.asarray(level), np.asarray(rating, float)
    teams = [[] for _ in order]
    totals = [0] * len(order)
    left = list(pool[np.lexsort((pool, -rating[pool], -level[pool]))])  # strongest first
    for rnd in range(per_team):
        for t in order:
            after = per_team - rnd - 1
            pick = None
            for j, c in enumerate(left):
                others = np.sort(level[np.asarray(left[:j] + left[j + 1:], np.int64)]) \
                    if enforce else None
                if not enforce or can_finish(totals[t], int(level[c]), after, others, budget):
                    pick = j
                    break
            if pick is None:
                pick = min(range(len(left)), key=lambda j: (level[left[j]], -rating[left[j]],
                                                            left[j]))
            card = left.pop(pick)
            teams[t].append(card)
            totals[t] += int(level[card])
    return np.asarray(teams, np.int64)


def budget_draw(n_cards: int, level, order, budget: int, rng: np.random.Generator,
                per_team: int = 5) -> np.ndarray:
    """Four teams built the way Arena builds them, by players who pick at random: alternate picks
    in ``order``, each a uniformly random card among those that keep the team able to finish
    within the budget (the cheapest card when none can). Every team ends within the budget
    whenever the card set allows it."""
    level = np.asarray(level)
    free = np.ones(n_cards, bool)
    teams = np.zeros((len(order), per_team), np.int64)
    totals = np.zeros(len(order), np.int64)
    for rnd in range(per_team):
        for t in order:
            cand = np.flatnonzero(free)
            lv = level[cand]
            after = per_team - rnd - 1
            ok = np.array([can_finish(int(totals[t]), int(lv[i]), after,
                                      np.sort(np.delete(lv, i)), budget)
                           for i in range(cand.size)])
            c = int(rng.choice(cand[ok])) if ok.any() else int(cand[np.argmin(lv)])
            free[c] = False
            teams[t, rnd] = c
            totals[t] += level[c]
    return teams


# -- agreement of the budget with full simulation ------------------------------------------------

def per_game_spearman(pred, rate) -> np.ndarray:
    """Spearman's rank correlation within each game (rows) of a prediction and the simulated win
    rates, ties at average ranks; NaN where either is constant (the levels rank no team)."""
    a = rankdata(np.asarray(pred, float), axis=1)
    b = rankdata(np.asarray(rate, float), axis=1)
    a -= a.mean(axis=1, keepdims=True)
    b -= b.mean(axis=1, keepdims=True)
    den = np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (a * b).sum(axis=1) / np.where(den > 0, den, 1), np.nan)


SPEARMAN_MIN_PAIRS = 10  # Fieller, Hartley & Pearson's approximation is for n of 10 or more


def spearman_interval(x, y, confidence: float = 0.95) -> tuple[float, float, float, int]:
    """Spearman's rho over independent pairs with the Fisher-z interval whose standard error is
    sqrt(1.06 / (n - 3)) (Fieller, Hartley & Pearson 1957): (rho, low, high, n). Below
    :data:`SPEARMAN_MIN_PAIRS` pairs the interval is NaN (no interval): the approximation is
    for n >= 10, and 4 sets in perfect order printed "+1.00 (+1.00 – +1.00)"."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < 2:
        return np.nan, np.nan, np.nan, n
    rho = float(per_game_spearman(x[keep][None, :], y[keep][None, :])[0])
    if np.isnan(rho) or n < SPEARMAN_MIN_PAIRS:
        return rho, np.nan, np.nan, n
    z, half = np.arctanh(np.clip(rho, -0.999999, 0.999999)), \
        norm.ppf(0.5 + confidence / 2) * np.sqrt(1.06 / (n - 3))
    return rho, float(np.tanh(z - half)), float(np.tanh(z + half)), n


@dataclass(frozen=True)
class Share:
    """k of n with an interval: Wilson (:func:`share`) or Clopper-Pearson (:func:`exact_share`)."""

    k: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else float("nan")


def share(k: int, n: int, confidence: float = 0.95) -> Share:
    if n == 0:
        return Share(0, 0, float("nan"), float("nan"))
    lo, hi = wilson_interval(k, n, confidence)
    return Share(int(k), int(n), float(lo), float(hi))


def exact_share(k: int, n: int, confidence: float = 0.95) -> Share:
    """k of n with the Clopper-Pearson interval: at least the stated coverage for every rate and
    every n, which the budget's verdict needs on a few sets (Wilson's dips below it there)."""
    if n == 0:
        return Share(0, 0, float("nan"), float("nan"))
    lo, hi = clopper_pearson_interval(k, n, confidence)
    return Share(int(k), int(n), float(lo), float(hi))


@dataclass(frozen=True)
class MeanRho:
    mean: float
    low: float
    high: float
    n: int          # games with a defined correlation
    undefined: int  # games whose prediction ranks no team (all totals equal)


def mean_rho(rho, confidence: float = 0.95) -> MeanRho:
    """Mean of the per-game correlations with an interval over games (independent), clipped to
    [-1, 1] (3 sets once printed "+0.98 (+0.91 – +1.06)"); NaN (no interval) when every game gave
    the same correlation, where t has no width to give.

    The interval is the smallest one holding both the Student t interval and Hall's
    skewness-corrected t interval (:func:`_hall_interval`). Why: a game's correlation of four
    teams piles up at +1 with a tail below, so the mean is skewed, and a draw of few low games
    has a high mean *and* a small standard error: the plain t interval held a planted mean
    correlation of 0.91 (37 sets, the shipped output's size) in 91.5 % of 4,000 studies, 0.75
    over 48 sets in 93.4 % (tests/test_power_levels.py). Hall's correction (more room on the
    tail's side) alone was short where the t interval was not (8 sets at 0.95: 71 % against
    76 %), hence the two together."""
    rho = np.asarray(rho, float)
    ok = rho[~np.isnan(rho)]
    if ok.size < 2:
        return MeanRho(float(np.mean(ok)) if ok.size else np.nan, np.nan, np.nan, int(ok.size),
                       int(rho.size - ok.size))
    m = paired_mean_difference(ok, confidence=confidence)
    if not m.se > SE_ROUNDING:
        return MeanRho(float(m.mean), np.nan, np.nan, int(ok.size), int(rho.size - ok.size))
    low, high = _hall_interval(ok, confidence)
    return MeanRho(float(m.mean), max(-1.0, min(float(m.lower), low)),
                   min(1.0, max(float(m.upper), high)), int(ok.size), int(rho.size - ok.size))


def _hall_interval(x: np.ndarray, confidence: float) -> tuple[float, float]:
    """Hall's (1992) skewness-corrected interval for a mean (J. R. Stat. Soc. B 54, 221-228):
    the studentised mean T goes through g(T) = T + a T^2 + a^2 T^3 / 3 + a / 2, a = gamma /
    (3 sqrt(n)), gamma the sample skewness, a monotone map that removes T's skewness to second
    order; the interval is mean - s / sqrt(n) * g^-1(+-t_{n-1}), g^-1(v) = ((3 a (v - a / 2) +
    1)^(1/3) - 1) / a."""
    n = x.size
    mean, s = float(x.mean()), float(x.std(ddof=1))
    a = float(np.mean((x - mean) ** 3) / s ** 3) / (3.0 * np.sqrt(n))
    t = float(student_t.ppf(0.5 + confidence / 2.0, n - 1))

    def inverse(v: float) -> float:
        return v if abs(a) < 1e-12 else (np.cbrt(3.0 * a * (v - a / 2.0) + 1.0) - 1.0) / a

    step = s / np.sqrt(n)
    return mean - step * inverse(t), mean - step * inverse(-t)


def favourite_agreement(pred, rate, confidence: float = 0.95) -> Share:
    """How often the team the prediction ranks alone on top is the simulation's favourite
    (highest win rate); games where the top prediction is shared are left out (chance: 1/4)."""
    pred, rate = np.asarray(pred, float), np.asarray(rate, float)
    top = pred == pred.max(axis=1, keepdims=True)
    single = top.sum(axis=1) == 1
    hit = np.argmax(pred, axis=1) == np.argmax(rate, axis=1)
    return share(int((hit & single).sum()), int(single.sum()), confidence)


def largest_gap(rate, target: float = 0.25) -> np.ndarray:
    """Each game's largest distance of a team's chance to win from a fair 25 %."""
    return np.max(np.abs(np.asarray(rate, float) - target), axis=1)


# -- does the budget predict fairness? -----------------------------------------------------------

def difference_interval(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> tuple:
    """p1 - p2 of two independent proportions: (difference, low, high), NaN when a group is
    empty. Newcombe's square-and-add (MOVER, Zou & Donner 2008) on Clopper-Pearson limits:
    low = d - sqrt((p1 - l1)^2 + (u2 - p2)^2), high = d + sqrt((u1 - p1)^2 + (p2 - l2)^2).
    Why not Wilson's limits (Newcombe's method 10): on the few sets a validation plays it
    covered a planted difference of 0 in 88 % of 4-set studies (2 sets a side: 2 of 2 fair was
    "told apart" from 0 of 2 at 95 %); on Clopper-Pearson limits it covers at least the stated
    rate, 98 % pooled over 12 truths on 8-48 sets (tests/test_budget_validation.py)."""
    if not n1 or not n2:
        return (float("nan"),) * 3
    l1, u1 = clopper_pearson_interval(k1, n1, confidence)
    l2, u2 = clopper_pearson_interval(k2, n2, confidence)
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return (float(d), float(d - np.hypot(p1 - l1, u2 - p2)), float(d + np.hypot(u1 - p1, p2 - l2)))


MOSTLY = 0.5  # "most sets within the budget are fair"

VERDICTS = ("untested", "predicts", "helps", "helps_open", "does_not", "open")


def budget_verdict(within: Share, over: Share, difference) -> str:
    """Does the team budget predict fairness? Each answer is a claim its interval shows, so on
    too few sets (or sets of too few games) the answer is ``open`` (a difference of -66 to +66
    points once read "does not predict fairness"):

    - ``untested``: no set was within the budget;
    - ``predicts``: within-budget sets are fair more often (the difference's low end above 0)
      and most of them are fair (the within share's low end above 50 %);
    - ``helps``: fair more often, but most within-budget sets are not (its high end below 50 %);
    - ``helps_open``: fair more often; whether most of them are fair is open;
    - ``does_not``: most within-budget sets are not fair (the within share's high end below
      50 %), or the over-budget sets are fair more often (the difference's high end below 0);
    - ``open``: none of these is shown.

    The shares must be of *truly* fair sets (``budget_fairness.fair_shares``: bounds from each
    set's own verdict), not of sets whose simulated rates landed in the band: read off those,
    a budget whose sets were all fair was said "does not predict" or "helps but does not make
    games fair" in 21.5 % of planted validations (docs/power-levels-audit.md). ``does_not`` is the
    negation of ``predicts``. Each end read is one side of an interval at the caller's confidence
    that errs at most alpha / 2, and a verdict reads at most two ends, so each verdict is false with
    probability at most alpha. Planted truth: tests/test_budget_validation.py (fairness planted
    per set) and tests/test_power_levels_calibration.py (games planted per set)."""
    d_low, d_high = float(difference[1]), float(difference[2])
    if not within.n:
        return "untested"
    compared = over.n > 0 and not np.isnan(d_low)
    if compared and d_low > 0:
        return ("predicts" if within.low > MOSTLY else "helps" if within.high < MOSTLY
                else "helps_open")
    if within.high < MOSTLY or (compared and d_high < 0):
        return "does_not"
    return "open"
