"""Explicit, splittable random streams for Numba kernels: xoshiro256** states from SeedSequence.

Why our own generator: results must be bit-identical whatever the number of threads, workers or
the backend. Numba's global per-thread stream depends on scheduling, so every kernel instead takes
a state (four uint64 words) derived from ``numpy.random.SeedSequence(root)`` and a fixed unit of
work (a chunk of resolutions, a game). The state lives in local variables inside hot loops.

Reference: Blackman & Vigna, "Scrambled linear pseudorandom number generators" (xoshiro256**);
bounded integers by Lemire's multiply-shift with rejection (unbiased).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.seeding import child_states

_U32 = np.uint64(0xFFFFFFFF)


def seed_states(seed: int | np.random.SeedSequence, n: int, start: int = 0) -> np.ndarray:
    """``uint64[n, 4]`` xoshiro states for units ``start .. start + n - 1`` of ``seed``.

    Unit ``i`` always gets child ``i`` of ``SeedSequence(seed)`` (the same as ``spawn``), so a
    unit's stream does not depend on how units are batched or scheduled, and a batch far into a
    long run costs only its own ``n`` children.
    """
    return seed_states_at(seed, np.arange(start, start + n))


def seed_states_at(seed: int | np.random.SeedSequence, units) -> np.ndarray:
    """``uint64[len(units), 4]``: the states of the listed units (not consecutive: replaying
    chosen games), the same as :func:`seed_states` gives each."""
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    # generate_state(4, uint64) is generate_state(8, uint32) read as uint64 words
    out = child_states(root, units, 8).view(np.uint64).copy()
    zero = ~out.any(axis=1)
    out[zero, 0] = np.uint64(0x9E3779B97F4A7C15)  # the all-zero state xoshiro cannot leave
    return out


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def next_u64(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four locals: (output, s0, s1, s2, s3)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(inline="always")
def roll(faces, s0, s1, s2, s3):
    """An unbiased die roll in 1..faces (faces < 2**32): (roll, s0, s1, s2, s3)."""
    n = np.uint64(faces)
    r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
    m = (r >> np.uint64(32)) * n
    low = m & _U32
    if low < n:
        threshold = (np.uint64(0x100000000) - n) % n
        while low < threshold:
            r, s0, s1, s2, s3 = next_u64(s0, s1, s2, s3)
            m = (r >> np.uint64(32)) * n
            low = m & _U32
    return np.int64(m >> np.uint64(32)) + 1, s0, s1, s2, s3


@njit
def _fill_rolls(faces, state, out):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(out.shape[0]):
        out[i], s0, s1, s2, s3 = roll(faces, s0, s1, s2, s3)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return out


def rolls(faces: int, n: int, seed: int) -> np.ndarray:
    """``n`` rolls of a die with ``faces`` faces from ``seed`` (for tests and small tools)."""
    if not 1 <= faces < 2**32:
        raise ValueError(f"faces must be in [1, 2**32), got {faces}")
    state = seed_states(seed, 1)[0].copy()
    return _fill_rolls(np.int64(faces), state, np.empty(n, dtype=np.int64))

