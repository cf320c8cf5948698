"""Does Bronze < ... < GOAT Series hold? The rarity order as a three-way verdict with its error
rates stated (``bwlab rarity``, the report, ``rarity --policies``, the rulings' verdict changes).

Why not the medians' point order: the Diamond and Legendary medians lie 0.05-0.12 apart against
a rating standard error of about 0.078 (docs/advice.md), so the point order flipped from run to
run and a study with 70 of 72 cards undecided still declared the order broken. Planted truth
(tests/test_rarity_order.py): with those two rarities 0.05 apart the point rule said "does not
hold" in 16 % of studies; this test in none. Pure statistics: ratings, their standard errors and
the cards' rarities in, the verdict out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

HOLDS, DOES_NOT_HOLD, NOT_SETTLED = "holds", "does not hold", "not settled"
ORDER_ALPHA = 0.05      # family-wise level of the rarity order's verdict
ORDER_DRAWS = 2000      # parametric bootstrap draws of the medians
ORDER_SEED = 20260221   # SeedSequence(ORDER_SEED): the draws, the same for every study and worker


@dataclass(frozen=True)
class OrderTest:
    """The rarity order tested pair by pair (:func:`order_test`). Per adjacent pair of rarities
    in play (``lower`` < ``upper``, rarity indices): the difference of medians (upper minus
    lower), its bootstrap standard error, the one-sided p-value in the direction of the
    difference, that p-value times the number of pairs (Bonferroni, capped at 1) and the pair's
    status: "in order", "reversed" or "not settled"."""

    verdict: str               # HOLDS, DOES_NOT_HOLD or NOT_SETTLED
    alpha: float
    lower: np.ndarray
    upper: np.ndarray
    difference: np.ndarray
    se: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    status: np.ndarray
    draws: int = ORDER_DRAWS
    df: int | None = None       # t degrees of freedom of the tests (None: normal)
    reason: str = ""            # why nothing could be tested (no standard errors), else ""

    def pairs(self, rarities) -> list[dict]:
        """JSON rows, one per adjacent pair in play."""
        return [{"lower": rarities[lo], "upper": rarities[hi], "difference": _num(d),
                 "se": _num(se), "p_value": float(p), "p_adjusted": float(q), "status": str(st)}
                for lo, hi, d, se, p, q, st in zip(self.lower, self.upper, self.difference,
                                                   self.se, self.p_value, self.p_adjusted,
                                                   self.status)]

    def as_dict(self, rarities) -> dict:
        return {"verdict": self.verdict, "alpha": self.alpha, "correction": "bonferroni",
                "method": "parametric bootstrap of the medians, N(rating, rating_se) per card",
                "draws": self.draws, "df": self.df, "reason": self.reason or None,
                "pairs": self.pairs(rarities)}

    def level_words(self) -> str:
        """How the verdict was reached: "one-sided tests of the 5 adjacent pairs in play,
        Bonferroni, family-wise 5 %"."""
        return (f"one-sided tests of the {self.lower.size} adjacent pairs in play, "
                f"Bonferroni, family-wise {100 * self.alpha:g} %")

    def detail(self, rarities) -> str:
        """Every pair behind a verdict other than "holds": "Legendary below Diamond (median
        difference -0.300, SE 0.072); Bronze < Silver not settled (median difference +0.040,
        SE 0.060); ... Legendary < GOAT Series in order (...)"; the reason when nothing could be
        tested. The pairs shown in order are listed too: the line counts "the 5 adjacent pairs"
        and used to list only the 4 that were not in order."""
        if self.reason:
            return self.reason
        out = []
        for lo, hi, d, se, st in zip(self.lower, self.upper, self.difference, self.se,
                                     self.status):
            numbers = f"(median difference {d:+.3f}, SE {se:.3f})"
            if st == "reversed":
                out.append(f"{rarities[hi]} below {rarities[lo]} {numbers}")
            else:
                out.append(f"{rarities[lo]} < {rarities[hi]} {st} {numbers}")
        return "; ".join(out)


def _num(x) -> float | None:
    return float(x) if np.isfinite(x) else None


def order_test(rating, rating_se, rarity, played, n_rarities: int, *, alpha: float = ORDER_ALPHA,
               df: int | None = None, draws: int = ORDER_DRAWS,
               seed: int = ORDER_SEED) -> OrderTest:
    """Does Bronze < ... < GOAT Series hold? A three-way verdict from each card's rating and its
    standard error, at family-wise level ``alpha``; a pure function of its arguments.

    Only cards in play (``played``) count, and rarities with none in play are skipped, as for the
    medians. Each adjacent pair of rarities in play (K pairs) is tested on the difference of
    its medians, upper minus lower: its standard error is that of a parametric bootstrap
    (``draws`` redraws of every card's rating from N(rating, rating_se), the medians taken
    again; fixed ``seed``, so the verdict is reproducible and independent of the worker count),
    the statistic difference / SE is referred to t on ``df`` (a board-clustered fit; None:
    normal), one-sided in the direction of the estimate, and the p-value is multiplied by K
    (Bonferroni). A pair whose adjusted p-value is at most ``alpha`` is "in order" or
    "reversed", otherwise "not settled". The verdict: "does not hold" when some pair is
    reversed, "holds" when every pair is in order, else "not settled". Guarantees (up to the
    normal approximation of the median difference): if the order truly holds (ties included)
    "does not hold" comes with probability at most ``alpha``; if some pair is truly tied or
    reversed "holds" comes with probability at most ``alpha`` / K. The cards' ratings are taken
    as independent (the centring correlation of 72 cards is about -1/71).

    A study without boards has model-based standard errors (the games taken as independent,
    normal reference): the verdict is then as calibrated as those SEs, too narrow when games
    share boards. Without standard errors (``rating_se`` None) nothing is claimed: "not
    settled", with the reason. A card in play with a non-finite standard error leaves the pairs
    of its rarity not settled. Fewer than two rarities in play: nothing to order, "holds" (as
    ``ordered``)."""
    rating = np.asarray(rating, float)
    rarity = np.asarray(rarity, np.int64)
    played = np.asarray(played, bool)
    have = [r for r in range(n_rarities) if np.any(played & (rarity == r))]
    lower, upper = np.array(have[:-1], np.int64), np.array(have[1:], np.int64)
    k = lower.size
    med = np.full(n_rarities, np.nan)
    for r in have:
        med[r] = np.median(rating[played & (rarity == r)])
    diff = med[upper] - med[lower]
    if rating_se is None:
        nan = np.full(k, np.nan)
        return OrderTest(NOT_SETTLED if k else HOLDS, alpha, lower, upper, diff, nan,
                         np.ones(k), np.ones(k), np.full(k, NOT_SETTLED, dtype=object), 0, df,
                         "no standard errors: the order cannot be tested")
    boot = _bootstrap_medians(rating, np.asarray(rating_se, float), rarity, played, have,
                              n_rarities, draws, seed)
    with np.errstate(invalid="ignore"):
        se = np.std(boot[:, upper] - boot[:, lower], axis=0, ddof=1)
    p = _one_sided_p(diff, se, df)
    p_adj = np.minimum(1.0, k * p)
    shown = p_adj <= alpha
    status = np.where(shown & (diff > 0), "in order",
                      np.where(shown & (diff < 0), "reversed", NOT_SETTLED)).astype(object)
    verdict = (DOES_NOT_HOLD if np.any(status == "reversed") else
               HOLDS if np.all(status == "in order") else NOT_SETTLED)
    return OrderTest(verdict, alpha, lower, upper, diff, se, p, p_adj, status, draws, df)


def _bootstrap_medians(rating, se_card, rarity, played, have, n_rarities: int, draws: int,
                       seed: int) -> np.ndarray:
    """[draws, rarities]: each rarity's median of its cards in play, every card's rating drawn
    from N(rating, se) (NaN for a rarity with no card in play or a card without a finite SE)."""
    cards = np.flatnonzero(played)
    cards = cards[np.argsort(rarity[cards], kind="stable")]       # each rarity's cards together
    return bootstrap_draws(rating, se_card, cards, rarity, have, n_rarities, draws, seed)[1]


def bootstrap_draws(rating, se_card, cards, rarity, have, n_rarities: int, draws: int,
                    seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The cards ``cards``' ratings redrawn from N(rating, se), ``[draws, cards]`` in that order
    (column j from the j-th column of :func:`order_noise`), and each rarity's median of them,
    ``[draws, rarities]`` (NaN for a rarity not in ``have`` or with a card without a finite
    SE). The order test's medians and the band edges' errors (``sim.analysis.rarity_bands``)
    come from here."""
    drawn = order_noise(seed, draws, cards.size) * se_card[cards]  # [draws, cards]
    drawn += rating[cards]
    boot = np.full((draws, n_rarities), np.nan)
    for r in have:
        cols = drawn[:, rarity[cards] == r]
        if np.all(np.isfinite(cols)):  # else NaN: not settled
            boot[:, r] = _row_medians(cols)
    return drawn, boot


def _row_medians(x: np.ndarray) -> np.ndarray:
    """np.median(x, axis=1) of finite values, by one sort (several times faster here)."""
    n = x.shape[1]
    s = np.sort(x, axis=1)
    return 0.5 * (s[:, (n - 1) // 2] + s[:, n // 2])


def _one_sided_p(diff, se, df) -> np.ndarray:
    """One-sided p-value of each difference in the direction of its sign (t on ``df``, None:
    normal); 0 for a non-zero difference with SE 0 (exact ratings), 1 where either is not
    finite or the difference is 0 with SE 0."""
    from scipy.stats import norm, t as student_t

    ok = np.isfinite(diff) & np.isfinite(se)
    p = np.ones(diff.size)
    pos = ok & (se > 0)
    z = np.abs(diff[pos]) / se[pos]
    p[pos] = norm.sf(z) if df is None else student_t.sf(z, df)
    p[ok & (se == 0) & (diff != 0)] = 0.0
    return p


def order_noise(seed: int, draws: int, n: int) -> np.ndarray:
    """Standard normal draws [draws, n] of the order test's bootstrap, from SeedSequence(seed):
    the same for the same (seed, draws, n), whoever computes them."""
    key = (int(seed), int(draws), int(n))
    z = _NOISE.get(key)
    if z is None:
        if len(_NOISE) > 16:
            _NOISE.clear()
        z = np.random.default_rng(np.random.SeedSequence(seed)).standard_normal((draws, n))
        z.setflags(write=False)
        _NOISE[key] = z
    return z


_NOISE: dict[tuple[int, int, int], np.ndarray] = {}
