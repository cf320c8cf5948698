"""Each rarity's band, and how far a card's distance to it is known.

A rarity's band runs halfway to the medians of its neighbours (:func:`band_edges`). The medians
are estimates, so the edges move with the study's luck; a card judged against an edge that is
taken as known is judged with too short an interval. :func:`edge_distance_se` gives the
standard error of each card's distance to each edge, the edges' error and the card's own
together (the card's own rating is one of the values its rarity's median is taken from, so the
two are drawn together, not added as if independent). The rarity study's flags, in-band tests
and remedies use it (sim/runner/rarity.py, sim/runner/remedy.py; docs/intervals.md, "The band
edges' error"). Pure statistics: ratings, their standard errors and the cards' rarities in.
"""

from __future__ import annotations

import numpy as np

from .rarity_order import ORDER_DRAWS, ORDER_SEED, bootstrap_draws


def band_edges(median: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each rarity's band: halfway to the medians of the nearest rarities below and above that
    have cards in play (open at the ends), widened when needed to hold its own median — when the
    medians come out of order, halfway to a neighbour can lie beyond a rarity's own median, and
    its typical card would be called an outlier; NaN for a rarity with no card in play.

    ``median`` is one row of medians per rarity, or many (``[draws, rarities]``, the bootstrap's:
    a rarity counts as in play when its column is not all NaN)."""
    median = np.asarray(median, float)
    have = np.flatnonzero(~np.isnan(np.atleast_2d(median)).all(axis=0))
    low = np.full(median.shape, np.nan)
    high = np.full(median.shape, np.nan)
    for j, r in enumerate(have):
        own = median[..., r]
        low[..., r] = (np.minimum((median[..., have[j - 1]] + own) / 2, own) if j > 0
                       else -np.inf)
        high[..., r] = (np.maximum((own + median[..., have[j + 1]]) / 2, own)
                        if j + 1 < have.size else np.inf)
    return low, high


def edge_distance_se(rating, rating_se, rarity, played, n_rarities: int, *,
                     draws: int = ORDER_DRAWS, seed: int = ORDER_SEED
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Per card, the standard error of (rating - its band's bottom edge) and of (rating - its
    top edge): a parametric bootstrap, every card in play redrawn from N(rating, rating_se)
    (the order test's draws: the same fixed ``seed``), the medians and edges taken again from
    each draw, and the spread of the card's drawn rating minus its drawn edge.

    Where an edge is open (the lowest or highest rarity), where a card is out of play, or where
    the draws cannot rebuild the edges (a card in play without a finite standard error), the
    card's own ``rating_se`` stands, as before the edges' error was counted. The cards' ratings
    are drawn independently (the centring correlation of 72 cards is about -1/71), as in
    :func:`sim.analysis.rarity_order.order_test`."""
    rating = np.asarray(rating, float)
    se = np.asarray(rating_se, float)
    rarity = np.asarray(rarity, np.int64)
    played = np.asarray(played, bool)
    se_low, se_high = se.copy(), se.copy()
    cards = np.flatnonzero(played)
    if cards.size == 0 or not np.all(np.isfinite(se[cards])):
        return se_low, se_high
    drawn, medians = bootstrap_draws(rating, se, cards, rarity, np.unique(rarity[cards]),
                                     n_rarities, draws, seed)                 # [draws, cards]
    low, high = band_edges(medians)
    for edges, out in ((low, se_low), (high, se_high)):
        gap = drawn - edges[:, rarity[cards]]                                  # [draws, cards]
        with np.errstate(invalid="ignore"):
            spread = np.std(gap, axis=0, ddof=1)
        out[cards] = np.where(np.isfinite(spread), spread, se[cards])
    return se_low, se_high


__all__ = ["band_edges", "edge_distance_se"]
