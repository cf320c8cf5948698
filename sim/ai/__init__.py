"""Policies that play Board Wars: ``random`` (uniform over legal actions) and ``greedy`` (best
expected value now from the exact combat tables). Both are Numba kernels so the jitted game loop
can call them; :mod:`policy` wraps them for Python callers."""
