"""The board as positions, tiles and a global grid of spaces.

Why a 35×35 space grid: "The Space, not the tile, is the fundamental unit of movement, range, and
line of sight", yet tiles of 1×1, 3×3 and 5×5 spaces share one 7×7 grid of positions. Every
position is given a 5×5 block of the global grid and a tile fills the *centred* sub-block of its
size. Two things the book states then come for free:

* consolidation 1×1 → bigger ("lands in the middle space") and 3×3 → 5×5 ("mapped onto the middle
  3×3") leave global coordinates unchanged (only the 5×5 → 3×3 fold moves anything);
* the middle rows and columns of neighbouring positions line up whatever the tile sizes, so the
  doorway in the middle of one tile's side faces the doorway of its neighbour.

Cells of a block outside the tile are not spaces. A space's id is ``row * 35 + column``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.catalogue.board_rules import GRID, layer_of

from sim.catalogue.tile_layout import MAX_SIZE

SPAN = GRID * MAX_SIZE        # 35 spaces a side
N_SPACES = SPAN * SPAN
VOID = -1                     # a destroyed coordinate: "a void that functions identically to the
APOCALYPSE = -2               # face-down Apocalypse tile" — untraversable, blocks line of sight

# the eight directions, clockwise from north; odd indices are diagonal
DIRS = np.array([(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)], np.int64)
N, NE, E, SE, S, SW, W, NW = range(8)
SIDE_DIR = {"N": N, "E": E, "S": S, "W": W}


def offset(size: int) -> int:
    """Where a tile of ``size`` starts inside its 5×5 block (centred)."""
    return (MAX_SIZE - size) // 2


def space_id(row: int, col: int) -> int:
    return row * SPAN + col


def space_rc(space: int) -> tuple[int, int]:
    return divmod(int(space), SPAN)


def local_space(pos: tuple[int, int], i: int, j: int, size: int) -> int:
    """Global id of space (i, j) of a ``size`` tile standing at ``pos``."""
    o = offset(size)
    return space_id(pos[0] * MAX_SIZE + o + i, pos[1] * MAX_SIZE + o + j)


def layers_grid() -> np.ndarray:
    """int8[7, 7]: the spawn layer of every position (Schedule A: 1 centre ... 4 outer ring)."""
    return np.array([[layer_of(r, c) for c in range(GRID)] for r in range(GRID)], np.int8)


@dataclass
class Board:
    """What sits where: a tile (catalogue index), VOID or APOCALYPSE at each of the 49 positions.

    ``portals[k]`` are the two components of portal k as (row, column, i, j) of position and local
    space; they are one portal split across two locations and move with their tiles.
    """

    tiles: np.ndarray                       # int32[7, 7]
    spawns: np.ndarray                      # int32[team, 3, 2] positions (from rules.toml)
    portals: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 4), np.int32))

    def copy(self) -> "Board":
        return Board(self.tiles.copy(), self.spawns.copy(), self.portals.copy())

    def tile_at(self, pos) -> int:
        return int(self.tiles[pos[0], pos[1]])


def tile_size(board: Board, catalogue, pos) -> int:
    """Size of the tile at ``pos``; 0 for a void or the face-down Apocalypse (no spaces)."""
    t = board.tile_at(pos)
    return int(catalogue.size[t]) if t >= 0 else 0


def portal_spaces(board: Board, catalogue) -> list[tuple[int, int]]:
    """Global space ids of both components of every portal still on the board."""
    out = []
    for comp in board.portals:
        ids = []
        for r, c, i, j in comp:
            size = tile_size(board, catalogue, (r, c))
            if size == 0 or i >= size or j >= size:
                break
            ids.append(local_space((int(r), int(c)), int(i), int(j), size))
        if len(ids) == 2:
            out.append((ids[0], ids[1]))
    return out
