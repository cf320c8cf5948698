"""Items held, lying on the board, and changing hands (issue #5 item 2).

CONTRACT STUB (to be replaced by the items slice): the hooks the rest of the engine calls. This
module must not import ``effects``, ``death`` or ``combat`` (``death._kill`` calls
:func:`_drop_items`); using an item through the interpreter lives in ``item_use.py``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from . import layout as L


def item_table(catalogue) -> np.ndarray:
    """``int64[item type, FX_SLOTS + extra]``: one effect row per item type (``S.item_fx``)."""
    return np.zeros((1, L.FX_SLOTS), np.int64)


@njit
def _drop_items(st, S, e):
    """``e`` died: its items drop where it stood ("their items drop exactly where they were
    standing")."""
    return


@njit
def _end_turn_items(st, c):
    """``c`` ends its turn: the items it holds become usable ("A character must End their Turn
    with an Item in order to use it")."""
    return


@njit
def _grant_item(st, S, e, item):
    """Give item type ``item`` to ``e`` (a tile reward); False if it has no free slot."""
    return False
