"""Tile swaps, transforms and consolidation, carrying entities and Components along.

Book: "When this happens the tile and everything in it remain unchanged; the two tiles trade
positions on the board while keeping their orientation"; "When the destination is an Uncovered
Tile ... The moving tile simply moves onto it and covers it up"; "every entity and Component
standing on that Uncovered Tile is picked up and placed into the tile that has arrived over them";
consolidation: 1×1 → "the middle space", 3×3 → 5×5 "mapped onto the middle 3×3", 5×5 → 3×3 "folds
inward ... into nine regions". The Apocalypse "cannot be ... transformed, tile-swapped over".

Entities and Components are given as global space ids (``geometry``); the functions return a new
:class:`Board` and the new space of every entity, in the same order. Spawns are coordinates and
never move ("those three positions stay that team's spawn point").
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.tile_layout import PORTAL

from .geometry import MAX_SIZE, Board, local_space, offset, space_rc


@njit(inline="always")
def consolidate(i, j, from_size, to_size):
    """Where local space (i, j) of a ``from_size`` tile lands in a ``to_size`` tile.

    One definition for the board's swaps below (called from Python) and the engine's
    (``sim/engine/tiles/swap_in_play.py``, inlined into its kernels)."""
    if from_size == to_size:
        return i, j
    if from_size == 1 or to_size == 1:
        # "A 1x1 Tile, entering a larger tile lands in the middle space"; anything entering a 1×1
        # has only its one space ("Contents always settle into the concentric center").
        return to_size // 2, to_size // 2
    if from_size < to_size:
        # "keeps its coordinates, mapped onto the middle 3×3 of the larger tile"
        d = (to_size - from_size) // 2
        return i + d, j + d
    # "The larger tile divides into nine regions laid out exactly like the smaller tile": the 2×2
    # corner blocks go to the corners, the middle to the middle, the edge runs to the edge spaces.
    h = from_size // 2
    fi = 0 if i < h else (1 if i == h else 2)
    fj = 0 if j < h else (1 if j == h else 2)
    return fi, fj


def _locate(board: Board, catalogue, space: int) -> tuple[tuple[int, int], int, int]:
    r, c = space_rc(space)
    pos = (r // MAX_SIZE, c // MAX_SIZE)
    t = board.tile_at(pos)
    if t < 0:
        raise ValueError(f"space {space} is not on a tile")
    size = int(catalogue.size[t])
    i, j = r - pos[0] * MAX_SIZE - offset(size), c - pos[1] * MAX_SIZE - offset(size)
    if not (0 <= i < size and 0 <= j < size):
        raise ValueError(f"space {space} is not a space of the tile at {pos}")
    return pos, i, j


def _movable(board: Board, pos) -> None:
    if board.tile_at(pos) < 0:
        raise ValueError(f"position {tuple(pos)} holds the face-down Apocalypse or a void: it "
                         "cannot be transformed or tile-swapped over")


def swap_tiles(board: Board, catalogue, moving, dest, entities=()) -> tuple[Board, np.ndarray]:
    """Move the tile at ``moving`` to ``dest``: the two trade places, or, when ``dest`` is an
    Uncovered Tile, the moving tile covers it and the position it left shows an Uncovered Tile."""
    moving, dest = tuple(moving), tuple(dest)
    _movable(board, moving)
    _movable(board, dest)
    ents = np.asarray(entities, np.int64).copy()
    if moving == dest:
        return board.copy(), ents
    ta, tb = board.tile_at(moving), board.tile_at(dest)
    covers = tb == catalogue.uncovered and ta != catalogue.uncovered
    new = board.copy()
    new.tiles[dest], new.tiles[moving] = ta, tb
    size_a, size_b = int(catalogue.size[ta]), int(catalogue.size[tb])
    for k, s in enumerate(ents):
        pos, i, j = _locate(board, catalogue, int(s))
        if pos == moving:
            ents[k] = local_space(dest, i, j, size_a)
        elif pos == dest:
            if covers:  # picked up and placed into the arriving tile, consolidated
                ii, jj = consolidate(i, j, size_b, size_a)
                ents[k] = local_space(dest, ii, jj, size_a)
            else:
                ents[k] = local_space(moving, i, j, size_b)
    for comp in new.portals.reshape(-1, 4):  # portal pieces travel with their tiles
        p = (int(comp[0]), int(comp[1]))
        if p == moving:
            comp[0], comp[1] = dest
        elif p == dest:
            comp[0], comp[1] = moving
    return new, ents


def transform_tile(board: Board, catalogue, pos, new_tile: int, entities=()
                   ) -> tuple[Board, np.ndarray]:
    """Replace the tile at ``pos`` by ``new_tile`` ("a chosen tile that is not already in play"),
    consolidating everything standing in it into the new size."""
    pos = tuple(pos)
    _movable(board, pos)
    if not 0 <= new_tile < len(catalogue):
        raise ValueError(f"no tile {new_tile}")
    if new_tile != catalogue.uncovered and np.any(board.tiles == new_tile):
        raise ValueError(f"{catalogue.names[new_tile]!r} is already in play")
    old = board.tile_at(pos)
    old_size, new_size = int(catalogue.size[old]), int(catalogue.size[new_tile])
    new = board.copy()
    new.tiles[pos] = new_tile
    ents = np.asarray(entities, np.int64).copy()
    for k, s in enumerate(ents):
        p, i, j = _locate(board, catalogue, int(s))
        if p == pos:
            ii, jj = consolidate(i, j, old_size, new_size)
            ents[k] = local_space(pos, ii, jj, new_size)
    # The old tile's portal pieces leave with it; a new tile's own pair of pieces links up.
    keep = [k for k in range(len(new.portals))
            if not any((int(r), int(c)) == pos for r, c, _, _ in new.portals[k])]
    portals = [new.portals[k] for k in keep]
    pieces = np.argwhere(catalogue.feature[new_tile, :new_size, :new_size] == PORTAL)
    if len(pieces) == 2:
        portals.append(np.array([[pos[0], pos[1], *pieces[0]], [pos[0], pos[1], *pieces[1]]],
                                np.int32))
    new.portals = np.array(portals, np.int32).reshape(-1, 2, 4)
    return new, ents
