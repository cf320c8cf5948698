"""``random``: uniform over the legal actions — the baseline every other policy must beat."""

from __future__ import annotations

from sim._jit import njit
from sim.rng import roll


@njit
def _random_action(st, mask, count):
    """The ``r``-th legal action, ``r`` uniform in 1..count (from the game's own stream)."""
    s0, s1, s2, s3 = st.rng[0], st.rng[1], st.rng[2], st.rng[3]
    r, s0, s1, s2, s3 = roll(count, s0, s1, s2, s3)
    st.rng[0], st.rng[1], st.rng[2], st.rng[3] = s0, s1, s2, s3
    for a in range(mask.shape[0]):
        if mask[a]:
            r -= 1
            if r == 0:
                return a
    return 0
