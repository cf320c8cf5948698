"""What every peer combat model returns, and the Monte Carlo plumbing they share.

Why one result type: ``bwlab combat --system`` and ``bwlab compare-systems`` treat every game
alike — a pmf of the damage one attack deals (in the game's own health units), the chance that
one roll or duel succeeds, the target's health and the chance it dies — so a new peer model only
has to fill these in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim._jit import njit
from sim.combat.exact import PmfMoments
from sim.rng import next_u64, seed_states

CHUNK = 65536  # resolutions per seed unit: chunk c draws from child c of SeedSequence(seed)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@dataclass(frozen=True)
class PeerDistribution(PmfMoments):
    """Damage of one attack: ``pmf[k]`` = P(damage == k), exact."""

    pmf: np.ndarray
    p_success: float        # chance one strike / duel / attack card succeeds (system's own unit)
    health: int             # the target's health in the same units as damage
    kill_probability: float  # P(the target dies from this attack)
    extra: dict = field(default_factory=dict)

    def p_at_least(self, h: float) -> float:
        """P(damage >= h)."""
        k = np.arange(self.pmf.size)
        return float(self.pmf[k >= h].sum())


@dataclass(frozen=True)
class PeerSamples:
    damage: np.ndarray  # int64 per resolution
    killed: np.ndarray  # bool per resolution


@njit(inline="always")
def uniform01(s0, s1, s2, s3):
    """A double in [0, 1) from the top 53 bits of one xoshiro output: (u, s0, s1, s2, s3)."""
    r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
    return np.float64(r >> np.uint64(11)) * _TO_UNIT, s0, s1, s2, s3


def chunk_states(seed: int, n: int, first_chunk: int = 0) -> np.ndarray:
    """One xoshiro state per chunk of ``CHUNK`` resolutions (bit-identical for any thread count);
    ``first_chunk`` continues one long stream: chunk ``c`` of this call is chunk
    ``first_chunk + c`` of a single call, so a caller can sample block by block (and count the
    blocks) with the dice one call would roll."""
    if n < 0:
        raise ValueError("n must be >= 0")
    return seed_states(seed, max(1, -(-n // CHUNK)), start=first_chunk)


def two_point(p: float, low: int, high: int) -> np.ndarray:
    """pmf of ``high`` with chance p, else ``low`` (low <= high)."""
    pmf = np.zeros(max(low, high) + 1)
    pmf[low] += 1.0 - p
    pmf[high] += p
    return pmf
