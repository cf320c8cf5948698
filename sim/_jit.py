"""The one home of the project's Numba options.

Every kernel is decorated with :func:`njit` from here so that caching and the error model are
chosen once: ``cache=True`` makes a second CLI call start fast, ``error_model="numpy"`` lets
divisions behave like NumPy (no Python exception checks in hot loops). ``nopython`` is implied
by ``numba.njit``; object mode is never used.
"""

from __future__ import annotations

import numba

JIT_OPTIONS = {"cache": True, "error_model": "numpy", "nogil": True}


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; extra keyword arguments (``parallel``) are added."""
    options = {**JIT_OPTIONS, **kwargs}
    if args and callable(args[0]) and len(args) == 1:
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)
