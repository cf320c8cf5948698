"""Many children of one ``numpy.random.SeedSequence`` at once: their ``generate_state`` words,
computed for a whole batch with NumPy array arithmetic.

Why: every game draws from child ``i`` of ``SeedSequence(root)``, and building that child and
hashing its pool in Python costs ~35 µs — a few per cent of a game. The children of one parent
differ only in the last word of their entropy, and SeedSequence's hash (O'Neill's ``seed_seq_fe``
mixing, as NumPy implements it in ``numpy/random/bit_generator.pyx``) applies the same sequence
of multipliers to every child, so the batch hashes as arrays. The result is bit-identical to
``SeedSequence(entropy, spawn_key=key + (i,), pool_size=p).generate_state(n, uint32)`` (a test
compares them on random roots); anything this module does not cover (entropy that is not an
int or a sequence of ints, spawn-key words of 2**32 or more) falls back to NumPy itself.
"""

from __future__ import annotations

import numpy as np

# SeedSequence's constants (numpy/random/bit_generator.pyx)
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
XSHIFT = 16
MASK32 = 0xFFFFFFFF


def _words(x) -> list[int] | None:
    """NumPy's ``_coerce_to_uint32_array`` for a non-negative int or a sequence of them
    (little-endian 32-bit words; 0 is one word); None for anything else."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        x = int(x)
        if x < 0:
            return None
        out = [x & MASK32]
        x >>= 32
        while x:
            out.append(x & MASK32)
            x >>= 32
        return out
    if isinstance(x, (list, tuple, np.ndarray)):
        out = []
        for v in x:
            w = _words(v)
            if w is None:
                return None
            out.extend(w)
        return out
    return None


class _Hash:
    """``hashmix`` with its running constant: the constant does not depend on the data, so one
    instance serves a whole batch of children."""

    def __init__(self) -> None:
        self.const = INIT_A

    def __call__(self, value: np.ndarray) -> np.ndarray:
        value = value ^ np.uint32(self.const)
        self.const = (self.const * MULT_A) & MASK32
        value = value * np.uint32(self.const)
        return value ^ (value >> np.uint32(XSHIFT))


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    result = np.uint32(MIX_MULT_L) * x - np.uint32(MIX_MULT_R) * y
    return result ^ (result >> np.uint32(XSHIFT))


def child_states(root: np.random.SeedSequence, children, n_words: int) -> np.ndarray:
    """``uint32[len(children), n_words]``: ``generate_state(n_words, uint32)`` of the listed
    children of ``root`` (child ``i`` is the one ``root.spawn`` would make ``i``-th)."""
    children = np.asarray(children, np.int64).ravel()
    n = children.size
    run = _words(root.entropy)
    prefix = _words(list(root.spawn_key))
    pool_size = root.pool_size
    if n == 0:
        return np.empty((0, n_words), np.uint32)
    if run is None or prefix is None or children.min() < 0 or children.max() >= 2**32:
        return np.stack([np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + (int(i),),
                                                pool_size=pool_size).generate_state(n_words)
                         for i in children])
    if len(run) < pool_size:  # NumPy pads the run entropy when there is a spawn key
        run = run + [0] * (pool_size - len(run))
    with np.errstate(over="ignore"):
        entropy = [np.full(n, w, np.uint32) for w in run + prefix]
        entropy.append(children.astype(np.uint32))
        hashmix = _Hash()
        pool = [hashmix(entropy[i]) if i < len(entropy) else hashmix(np.zeros(n, np.uint32))
                for i in range(pool_size)]
        for i_src in range(pool_size):
            for i_dst in range(pool_size):
                if i_src != i_dst:
                    pool[i_dst] = _mix(pool[i_dst], hashmix(pool[i_src]))
        for i_src in range(pool_size, len(entropy)):
            for i_dst in range(pool_size):
                pool[i_dst] = _mix(pool[i_dst], hashmix(entropy[i_src]))
        out = np.empty((n, n_words), np.uint32)
        const = INIT_B
        for i_dst in range(n_words):
            value = pool[i_dst % pool_size] ^ np.uint32(const)
            const = (const * MULT_B) & MASK32
            value = value * np.uint32(const)
            out[:, i_dst] = value ^ (value >> np.uint32(XSHIFT))
    return out
