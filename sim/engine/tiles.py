"""Tile functions in play: rewards bought with ticks, interactables, economies, deactivated,
frozen, swapped and transformed tiles (issue #5 item 3).

CONTRACT STUB (to be replaced by the tile-functions slice). ``State.tiles`` is
``int64[49, k]``: the state of the tile at each grid position; ``S.tile_fx`` one row per tile
of the catalogue (its function as an effect row plus the tile-specific columns); ``S.pos_tile``
the catalogue tile at each position when the game starts.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from . import layout as L


def tile_table(catalogue) -> np.ndarray:
    """``int64[tile, FX_SLOTS + extra]``: each catalogue tile's function (``S.tile_fx``)."""
    return np.zeros((1, L.FX_SLOTS), np.int64)


@njit
def _init_tiles(S):
    """The tiles' state when a game starts (``State.tiles``)."""
    return np.zeros((49, 1), np.int64)


@njit
def _end_turn_tile(st, S, c):
    """``c`` ends its turn: ticks, rewards ("A Tile Reward is a reward a character gets by
    ending their turn in a tile")."""
    return


@njit
def _legal_interact(st, S, c, mask, base):
    """Mark ``base + s`` for each space ``c`` may act on through an interactable within 1
    range; return how many."""
    return 0


@njit
def _apply_interact(st, S, c, s):
    """``c`` uses the interactable whose action targets space ``s``."""
    return
