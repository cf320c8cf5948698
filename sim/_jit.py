"""The one home of the project's Numba options.

Every kernel is decorated with :func:`njit` from here so that caching and the error model are
chosen once: ``cache=True`` makes a second CLI call start fast, ``error_model="numpy"`` lets
divisions behave like NumPy (no Python exception checks in hot loops). ``nopython`` is implied
by ``numba.njit``; object mode is never used.

Why a dispatcher of our own: Numba compiles a kernel called from another kernel for the exact
types of the call, so ``_harm(st, S, e, dmg, -1, cause)`` and ``_harm(st, S, e, dmg, a, cause)``
became two specialisations (``Literal[int](-1)`` and ``int64``). Each specialisation is a library
that every caller links in and re-optimises whole, so compile time grew with every constant
argument in the engine. :class:`_PlainArgs` compiles callees for the plain (non-literal) types
instead: one specialisation per kernel, the same machine code for every call.
"""

from __future__ import annotations

import numba
from numba.core import types
from numba.core.registry import CPUDispatcher

JIT_OPTIONS = {"cache": True, "error_model": "numpy", "nogil": True}


class _PlainArgs(CPUDispatcher):
    """A CPU dispatcher resolving calls from other kernels on ``types.unliteral`` argument types."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; extra keyword arguments (``parallel``) are added."""
    options = {**JIT_OPTIONS, **kwargs}
    if args and callable(args[0]) and len(args) == 1:
        return _plain(numba.njit(**options)(args[0]))
    decorate = numba.njit(*args, **options)
    return lambda func: _plain(decorate(func))


def _plain(disp):
    """The dispatcher as :class:`_PlainArgs` (unchanged under ``NUMBA_DISABLE_JIT``: a function)."""
    if type(disp) is CPUDispatcher:
        disp.__class__ = _PlainArgs
    return disp
