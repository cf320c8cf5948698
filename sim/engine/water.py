"""Water-rolls in play, submerged entities and falls from platforms and ladders.

CONTRACT STUB (to be replaced by the water slice).
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _legal_water(st, S, c, mask, base):
    """Mark ``base + s`` for each space ``c`` may try to reach by water-rolls; return how many."""
    return 0


@njit
def _apply_water(st, S, c, s):
    """``c`` rolls for water towards space ``s``."""
    return
