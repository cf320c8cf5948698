"""Sums with the same bits on every machine: the convolutions and dot products that the game's
kill-chance tables, the combat calculator's exact tables and the Power Levels are built from.

Why not NumPy's own: ``np.dot``, ``@`` and ``np.convolve`` hand float64 sums to the BLAS library
(OpenBLAS in NumPy's wheels), which picks a kernel for the CPU it finds: SkylakeX's on an AMD Zen
4, Haswell's on a Zen 5 it does not know, Nehalem's or Katmai's on older machines. Each kernel
adds in its own order, so one table differed in its last bits from one machine to the next
(``OPENBLAS_CORETYPE`` shows it on a single machine: four different kill-chance tables from five
core types). Greedy compares kill chances read from that table, so on a Zen 5, 12 of the drift
suite's first 1,024 games went otherwise than on the Zen 4 that recorded them (stop 59): a run
split over a cluster's mixed machines was not the run one machine plays.

Here every sum is element-wise arithmetic in a fixed order, or ``math.fsum`` (the correctly
rounded sum, whatever the order): IEEE-754 rounds each element the same on any CPU, so a table,
and every game that reads it, is bit-identical wherever it is built
(``tests/test_fixed_sums.py`` builds them under several OpenBLAS kernels).
"""

from __future__ import annotations

import math

import numpy as np


def convolve(a, b) -> np.ndarray:
    """What ``np.convolve(a, b)`` ("full") gives: ``out[i]`` = sum over j of ``long[i - j] *
    short[j]``, added for j = 0, 1, ... in turn, where ``short`` is the shorter of the two (``b``
    on a tie). One vector operation per entry of the shorter operand: a die's faces, a hit
    count."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.ndim != 1 or b.ndim != 1 or a.size == 0 or b.size == 0:
        raise ValueError("convolve needs two non-empty 1-D arrays")
    long, short = (b, a) if a.size < b.size else (a, b)
    out = np.zeros(long.size + short.size - 1)
    for j, weight in enumerate(short):
        out[j:j + long.size] += long * weight
    return out


def dot(a, b) -> float:
    """The dot product of two 1-D arrays, correctly rounded (``math.fsum`` of the products)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("dot needs two 1-D arrays of one length")
    return math.fsum((a * b).tolist())


def matvec(m, v) -> np.ndarray:
    """``m @ v`` for a 2-D ``m`` and a short ``v`` (a card's colours), its columns added left to
    right."""
    m, v = np.asarray(m, np.float64), np.asarray(v, np.float64)
    if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.size:
        raise ValueError("matvec needs an (n, k) matrix and a vector of k")
    out = np.zeros(m.shape[0])
    for k in range(v.size):
        out += m[:, k] * v[k]
    return out
