"""``Static.tile_fx``: every catalogue tile's functions and local board, one table for the kernels.

Why one table: the interpreter reads a tile function's effect row where it reads an ability's or
an item's (``row._fx`` with ``FX_TILE``: row ``2 * tile + kind``, kind 0 the reward, 1 the
interactable), and a swap or transform in play re-stamps a tile's spaces into the game's live
board arrays from its precomputed local graph (``sim/engine/tiles/live_board.py``) — no Python, no
object mode, during a game. Both rows of a tile carry the tile's own columns (size, suit,
doorways, local graph), so either row answers a question about the tile.

Columns after the effect row (``fields.FX_*`` slots 0..13):

| columns | meaning |
|---|---|
| ``TF_PRICE`` | a reward's ticks, an interactable's coins |
| ``TF_WORTH`` | greedy's worth of the function, hundredths of a health unit (``[greedy]``) |
| ``TF_PIECE`` | 1: the interactable is a piece (I) of the tile; 0: the tile itself |
| ``TF_SIZE``, ``TF_SUIT`` | the tile's size and suit (-1: none) |
| ``TF_SPAWNABLE``, ``TF_UNCOVERED`` | may enter play by a transform; is the Uncovered Tile |
| ``TF_DOORS + side`` | N, E, S, W: bit k set = block line k is a doorway space on that side |
| ``TF_PORTALS`` | the tile's portal pieces |
| ``TF_COIN`` | greedy's worth of one coin (the same on every row), hundredths |
| ``TF_KIND + cell``, ``TF_FEATURE + cell`` | space and feature code of each of the 25 cells of a position's 5×5 block (``sim.board.geometry``: tiles are centred in it) |
| ``TF_MOVE + 8 cell + d`` | 0: no move from the cell in direction d; else 1 + the water-roll code |
| ``TF_SIGHT + 8 cell + d`` | 0: no line of sight step; else 1 + the sight flags |
| ``TF_SHORE + cell`` | bit ``c``: a water crossing from the cell may land on cell ``c`` (0: no body of water touches it) |

Why the shore as a mask per cell: "On a success, you may move into any other space adjacent to
that same body of water", and bodies are per tile (``sim.board.graph._water_bodies``), so where a
crossing lands depends only on the tile and the cell. Every action rolls once towards one space,
whichever body it crosses, so the union over the bodies next to a cell is all the game needs: one
read per space, no limit on bodies per tile (a 5×5 block has 25 cells: an ``int64`` holds them).
The kernels read it from the tile standing at a position now (``water_rolls._shore``), so a tile
swapped or transformed in play carries its water with it.
"""

from __future__ import annotations

import weakref

import numpy as np

from sim.board.geometry import VOID, Board, offset
from sim.board.graph import compile_board
from sim.catalogue.board_rules import GRID
from sim.catalogue.diagnostics import Problems
from sim.catalogue.tile_functions import check_assist_names, check_item_names, effect_code
from sim.catalogue.tile_layout import MAX_SIZE, PORTAL

from sim.engine.state import fields as L

CELLS = MAX_SIZE * MAX_SIZE
assert CELLS < 63  # TF_SHORE holds a block's cells as the bits of one int64
TF_PRICE, TF_WORTH, TF_PIECE, TF_SIZE, TF_SUIT, TF_SPAWNABLE, TF_UNCOVERED = range(14, 21)
TF_DOORS = 21  # 21..24
TF_PORTALS = 25
TF_COIN = 26  # a coin's worth to greedy ([greedy] coin), hundredths: the same on every row
TF_KIND = 27
TF_FEATURE = TF_KIND + CELLS
TF_MOVE = TF_FEATURE + CELLS
TF_SIGHT = TF_MOVE + 8 * CELLS
TF_SHORE = TF_SIGHT + 8 * CELLS
TF_WIDTH = TF_SHORE + CELLS
_HOME = (3, 3)  # where each tile is compiled alone to read its local graph
# each effect's worth for greedy: the [greedy] key and the slot it multiplies (None: once;
# "points": the amount, at least 1: a permanent buff is worth a permanent stat point a point, its
# "+0" one, a state such as green attacks or advantage, one point)
_WORTH = {"gain": ("stat_point", "amount"), "buff": ("stat_point", "points"),
          "item": ("item", None),
          "summon_card": ("summon", None), "assist": ("assist", None),
          "extra_action": ("extra_action", "amount"),
          "earn": ("coin", "amount"), "learn": ("learn", None)}


# tile_table depends on the catalogue only, yet every board's set-up asks for it: computed once
# per catalogue object (id -> (weak reference, table)), it no longer costs ~20 ms of every board.
_TABLES: dict[int, tuple] = {}


def tile_table(catalogue) -> np.ndarray:
    """``int64[2 * tile, TF_WIDTH]`` (``S.tile_fx``) from the catalogue's tiles (a copy of the
    table cached for that catalogue object)."""
    cached = _TABLES.get(id(catalogue))
    if cached is not None and cached[0]() is catalogue:
        return cached[1].copy()
    table = _tile_table(catalogue)
    _TABLES[id(catalogue)] = (weakref.ref(catalogue), table)
    return table.copy()


def _put_named(out: np.ndarray, slot: int, check, tiles, names) -> None:
    """Write into ``slot`` of each function row the index ``check`` resolves its name to (a
    bad name raises: the loader reported it already, so only a hand-built catalogue gets here)."""
    problems = Problems()
    named = check(tiles, names, problems)
    problems.raise_if_any()
    rows = named >= 0
    out[rows, slot] = named[rows]


def _tile_table(catalogue) -> np.ndarray:
    tiles = catalogue.tiles
    rules = catalogue.board_rules
    n = len(tiles)
    out = np.zeros((2 * n, TF_WIDTH), np.int64)
    out[:, :L.FX_SLOTS] = tiles.fx
    out[:, TF_PRICE] = tiles.fx_price
    items = getattr(catalogue, "items", None)
    if items is not None and any(tiles.fx_item):  # a named item: its index as the stat slot
        _put_named(out, L.FX_STAT, check_item_names, tiles, items.names)
    entities = getattr(catalogue, "entities", None)
    if entities is not None and any(tiles.fx_assist):  # ... an assist: its row as the amount
        _put_named(out, L.FX_AMOUNT, check_assist_names, tiles, entities.assist_names)
    for r in range(2 * n):
        out[r, TF_WORTH] = round(100 * _worth(out[r], tiles.greedy))
    out[:, TF_COIN] = round(100 * tiles.greedy["coin"])
    for t in range(n):
        rows = out[2 * t: 2 * t + 2]
        size = int(tiles.size[t])
        rows[:, TF_PIECE] = int(tiles.piece[t])
        rows[:, TF_SIZE] = size
        rows[:, TF_SUIT] = int(tiles.suit[t])
        rows[:, TF_SPAWNABLE] = int(tiles.spawnable[t])
        rows[:, TF_UNCOVERED] = int(t == tiles.uncovered)
        rows[:, TF_PORTALS] = int((tiles.feature[t, :size, :size] == PORTAL).sum())
        for side in range(4):
            if tiles.doorways[t, side]:
                rows[:, TF_DOORS + side] = _door_lines(size, rules.doorway)
        rows[:, TF_KIND:TF_WIDTH] = _local_graph(catalogue, t)
    return out


def _worth(row, greedy: dict) -> float:
    """Greedy's worth of a function whose value does not depend on the game (0 otherwise: a heal
    is valued in play, sim/ai/tile_values.py; a buff is this worth unless one is held)."""
    op = int(row[L.FX_OP])
    for name, (key, slot) in _WORTH.items():
        if op == effect_code(name):
            times = {"amount": int(row[L.FX_AMOUNT]), "points": max(int(row[L.FX_AMOUNT]), 1),
                     None: 1}[slot]
            return greedy[key] * times
    return 0.0


def _door_lines(size: int, mode: str) -> int:
    """Block lines of a side that are doorway spaces: the middle one ("doorway = middle"), or
    every line of the tile's edge ("full_edge")."""
    if mode == "middle":
        return 1 << (MAX_SIZE // 2)
    o = offset(size)
    return sum(1 << k for k in range(o, o + size))


def _local_graph(catalogue, t: int) -> np.ndarray:
    """The tile compiled alone (every other position void): its cells' space and feature codes,
    the links inside it and its cells' shores (``TF_SHORE``), in block coordinates (the same for
    every position)."""
    tiles = np.full((GRID, GRID), VOID, np.int32)
    tiles[_HOME] = t
    board = Board(tiles, catalogue.board_rules.team_spawns.copy())
    g = compile_board(board, catalogue.tiles, catalogue.board_rules)
    out = np.zeros(TF_WIDTH - TF_KIND, np.int64)
    span = GRID * MAX_SIZE
    for a in range(MAX_SIZE):
        for b in range(MAX_SIZE):
            cell = a * MAX_SIZE + b
            s = (_HOME[0] * MAX_SIZE + a) * span + _HOME[1] * MAX_SIZE + b
            out[cell] = g.kind[s]
            out[CELLS + cell] = g.feature[s]
            for d in range(8):
                if g.move_nbr[s, d] >= 0:
                    out[2 * CELLS + 8 * cell + d] = 1 + int(g.move_roll[s, d])
                if g.sight_nbr[s, d] >= 0:
                    out[10 * CELLS + 8 * cell + d] = 1 + int(g.sight_flag[s, d])
            out[18 * CELLS + cell] = _shore(g, s, span)
    return out


def _shore(g, s: int, span: int) -> int:
    """Bit ``cell`` set for each member of a body of water next to space ``s`` of the tile
    compiled at ``_HOME`` ("any other space adjacent to that same body of water"; ``s`` itself
    is one: a submerged character may escape back to it)."""
    mask = 0
    for b in g.space_bodies[s]:
        if b < 0:
            break
        for m in g.body_members[g.body_start[b]:g.body_start[b + 1]]:
            a, c = divmod(int(m), span)
            a -= _HOME[0] * MAX_SIZE
            c -= _HOME[1] * MAX_SIZE
            assert 0 <= a < MAX_SIZE and 0 <= c < MAX_SIZE  # bodies never cross a tile boundary
            mask |= 1 << (a * MAX_SIZE + c)
    return mask
