"""Using, picking up and dropping items: their legal actions and their effects.

CONTRACT STUB (to be replaced by the items slice). The items block of the action space
(``actions._item_base``, length ``actions._item_actions``): use held item k on entity e
(``k * M + e``), on space s (``2M + k * N + s``), pick up floor item f (``2M + 2N + f``), drop
held item k (``2M + 2N + F_CAP + k``).
"""

from __future__ import annotations

from sim._jit import njit


@njit
def _legal_items(st, S, c, mask, base):
    """Mark ``c``'s item actions in ``mask[base:]``; return how many."""
    return 0


@njit
def _apply_item(st, S, c, a):
    """Play item action ``a`` (an offset into the items block) for ``c``."""
    return
