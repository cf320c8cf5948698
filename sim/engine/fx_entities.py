"""The entities slice's own effects (opcodes from ``layout.OP_ENT_FIRST``), run by
``effects._run_effect``.

CONTRACT STUB (to be replaced by the entities slice). Must not import ``effects`` (it calls this
module); the slice's row reader is ``effects._fx``'s logic, repeated inline or passed as values.
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _run_entity_effect(st, S, c, t, src, k, op):
    """Run opcode ``op`` of row (``src``, ``k``) for user ``c`` on target ``t``."""
    return
