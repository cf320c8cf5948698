"""Sums and powers with the same bits on every machine: the convolutions, dot products and
integer powers that the game's kill-chance tables, the combat calculator's exact tables and the
Power Levels are built from.

Why not NumPy's own: ``np.dot``, ``@`` and ``np.convolve`` hand float64 sums to the BLAS library
(OpenBLAS in NumPy's wheels), which picks a kernel for the CPU it finds: SkylakeX's on an AMD Zen
4, Haswell's on a Zen 5 it does not know, Nehalem's or Katmai's on older machines. Each kernel
adds in its own order, so one table differed in its last bits from one machine to the next
(``OPENBLAS_CORETYPE`` shows it on a single machine: four different kill-chance tables from five
core types). Greedy compares kill chances read from that table, so on a Zen 5, 12 of the drift
suite's first 1,024 games went otherwise than on the Zen 4 that recorded them (stop 59): a run
split over a cluster's mixed machines was not the run one machine plays.

Why not Python's ``x ** k``: CPython hands a float power to the C library's ``pow``, and glibc
picks its ``pow`` for the CPU too: one built for FMA instructions on a CPU that has them, another
on one that has not. Both are within a fraction of a unit in the last place, but not the same
fraction: 161 of 200,000 random ``x ** k`` differed on this lab's Zen 5 with the FMA build masked
(``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA``), and so did the calculator's exact tables
(stop 60). :func:`power` multiplies instead.

Here every sum is element-wise arithmetic in a fixed order, or ``math.fsum`` (the correctly
rounded sum, whatever the order): IEEE-754 rounds each element the same on any CPU, so a table,
and every game that reads it, is bit-identical wherever it is built
(``tests/test_fixed_sums.py`` builds them under several OpenBLAS kernels and both ``pow``
builds).
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


def power(x: float, k: int) -> float:
    """``x ** k`` for a whole ``k >= 0``, by squaring and multiplying (the bits of ``k`` from the
    lowest): a fixed sequence of IEEE-754 products, so the same bits on any CPU, where ``x ** k``
    is the C library's ``pow`` (module doc). Exact to within a few units in the last place for
    the exponents the tables use (a hit count, at most a few dozen)."""
    if k < 0 or int(k) != k:
        raise ValueError("power needs a whole exponent >= 0")
    k = int(k)
    x = float(x)
    result = 1.0
    while k:
        if k & 1:
            result *= x
        x *= x
        k >>= 1
    return result
