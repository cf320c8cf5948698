"""How many of ``n`` attacks hit, each with the same chance: the binomial probabilities that
greedy's kill tables weigh (``sim.ai.values._kill_table``), tabled once per board by the
defender's threshold (``Static.hits``).

Why a table: the kill table ran the recurrence P(k) = P(k - 1) (n - k + 1) / k p / q at every
score of an attack, two divisions in a chain per hit count (a sixth of greedy's act
search). The table holds the very values it computed (the same recurrence, in the same order
of operations, for the same types), so no choice moves by an ulp.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit


@njit
def _hits_pmf(n, p, out):
    """``out[k]`` = P(k of ``n`` attacks hit), each with chance ``p``."""
    q = 1.0 - p
    prob = q ** n  # P(k = 0 hits)
    for k in range(n + 1):
        if k > 0:
            if q == 0.0:
                prob = 1.0 if k == n else 0.0
            else:
                prob = prob * (n - k + 1) / k * p / q
        out[k] = prob


@njit
def _hit_chance(die, threshold):
    """A defense die of ``die`` faces misses at or below ``threshold`` (``attack._threshold``)."""
    return max(die - threshold, 0) / die


def hit_table(die: int, max_threshold: int, max_attacks: int) -> np.ndarray:
    """``float64[threshold, n, k]``: P(k of n attacks hit) against ``threshold`` (0 up to
    ``max_threshold``), n and k up to ``max_attacks``; the entries beyond k = n stay 0."""
    out = np.zeros((max_threshold + 1, max_attacks + 1, max_attacks + 1))
    for threshold in range(max_threshold + 1):
        p = _hit_chance(np.int64(die), np.int64(threshold))
        for n in range(max_attacks + 1):
            _hits_pmf(np.int64(n), p, out[threshold, n])
    return out
