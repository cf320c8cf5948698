"""The items slice's own effects (opcodes from ``layout.OP_ITEM_FIRST``), run by
``effects._run_effect``.

CONTRACT STUB (to be replaced by the items slice). Must not import ``effects`` (it calls this
module); the slice's row reader is ``effects._fx``'s logic, repeated inline or passed as values.
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _run_item_effect(st, S, c, t, src, k, op):
    """Run opcode ``op`` of row (``src``, ``k``) for user ``c`` on target ``t``."""
    return
