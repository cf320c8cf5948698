"""``borrowed(a)``: the same array without its reference-counted owner, for the fields of the
game's StructRefs.

Why: every read of a StructRef's array field (``st.ent``) and every kernel that receives an array
takes and drops a reference on the array's owner (Numba's ``NRT_incref`` / ``NRT_decref``), and
those are atomic read-modify-writes. On a 2-core Intel Xeon (KVM) they were 54 % of a greedy
game's time (benchmarks/nrt_callers.py, docs/performance.md). An array whose owner pointer
(``meminfo``) is null skips the count: ``NRT_incref`` returns at its null check. A State or
Static stores each array twice: borrowed in the field the kernels read, and owned in its
``owners`` tuple, which keeps the memory alive for the object's life (no kernel rebinds a
field). Python reads the owned arrays (game_state._python_attributes), so no NumPy array that
Python holds can outlive its memory.

With ``NUMBA_DISABLE_JIT=1`` (the interpreted kernels) it is the identity.
"""

from __future__ import annotations

import numba
from numba.core import types
from numba.core.extending import intrinsic


if numba.config.DISABLE_JIT:
    def borrowed(a):
        return a
else:
    @intrinsic
    def borrowed(typingctx, arr):
        """``arr`` with ``meminfo = NULL`` (and no parent): data, shape and strides shared."""
        if not isinstance(arr, types.Array):
            return None

        def codegen(context, builder, sig, args):
            src = context.make_array(arr)(context, builder, value=args[0])
            out = context.make_array(arr)(context, builder)
            context.populate_array(out, data=src.data, shape=src.shape, strides=src.strides,
                                   itemsize=src.itemsize, meminfo=None)
            return out._getvalue()

        return arr(arr), codegen
