"""Compile a :class:`Board` into the arrays the movement and sight kernels walk.

Why a compiled graph: every book rule about *which* step is allowed (walls, doorways, diagonals
only inside a tile, water, portals) is decided here once, in plain Python, per board; the Numba
kernels then only follow ``int16`` neighbour tables and never need to know what a tile is.

* ``move_nbr[s, d]`` — the space one step from ``s`` in direction ``d`` for movement, or -1;
  ``move_roll[s, d]`` — 1 for a water wall, 2 for a fire wall (the step needs a water-roll).
* ``sight_nbr[s, d]`` / ``sight_flag[s, d]`` — the next space of a straight line, with flags
  CROSS (a tile boundary through two doorways), WATER (over a water edge), DOOR.
* ``twin[s]`` — the other component of the portal on ``s``, or -1.
* water bodies (per tile): ``space_bodies[s]`` lists the bodies next to ``s``; body ``b``'s
  walkable neighbours are ``body_members[body_start[b]:body_start[b + 1]]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.catalogue.board_rules import GRID, BoardRules
from sim.catalogue.tile_layout import (BLOCK, DOOR, FIRE_WALL, FLOOR, GAP, MAX_SIZE, NONE, OPEN,
                                       WATER, WATER_EDGE, WATER_WALL)

from .geometry import DIRS, E, N_SPACES, S, Board, local_space, portal_spaces, space_id

CROSS, WATER_FLAG, DOOR_FLAG = 1, 2, 4
ROLL_WATER_WALL, ROLL_FIRE_WALL = 1, 2
MAX_BODIES = 4  # a space has four sides, so at most four bodies of water touch it


@dataclass(frozen=True)
class BoardGraph:
    kind: np.ndarray         # int8[n]: NONE, FLOOR, WATER, BLOCK
    feature: np.ndarray      # int8[n]
    tile_pos: np.ndarray     # int32[n]: position index row*7+column, -1 if not a space
    move_nbr: np.ndarray     # int16[n, 8] (NBR_DTYPE)
    move_roll: np.ndarray    # int8[n, 8]
    sight_nbr: np.ndarray    # int16[n, 8] (NBR_DTYPE)
    sight_flag: np.ndarray   # int8[n, 8]
    twin: np.ndarray         # int32[n]
    space_bodies: np.ndarray  # int32[n, 4]
    body_start: np.ndarray   # int32[bodies + 1]
    body_members: np.ndarray  # int32[...]
    rules: BoardRules
    n_pieces: int = 0        # portal pieces on the board (sizes the sight kernel's stack)


def _edge_between(edge_e, edge_s, i, j, di, dj) -> int:
    """The edge crossed by an orthogonal step from (i, j)."""
    if di == 0:
        return int(edge_e[i, min(j, j + dj)])
    return int(edge_s[min(i, i + di), j])


def _corner_edges(edge_e, edge_s, i, j, di, dj) -> list[int]:
    """The four edges meeting at the corner a diagonal step from (i, j) passes through."""
    ci, cj = min(i, i + di), min(j, j + dj)
    return [int(edge_e[ci, cj]), int(edge_e[ci + 1, cj]), int(edge_s[ci, cj]),
            int(edge_s[ci, cj + 1])]


# The neighbour tables hold space ids (< 1,225) or -1: int16 halves them to 19.6 kB each, so the
# reach and sight searches, which load a row per space they visit, miss the cache less.
NBR_DTYPE = np.int16
assert N_SPACES < np.iinfo(NBR_DTYPE).max


def compile_board(board: Board, catalogue, rules: BoardRules) -> BoardGraph:
    n = N_SPACES
    kind = np.zeros(n, np.int8)
    feature = np.zeros(n, np.int8)
    tile_pos = np.full(n, -1, np.int32)
    move_nbr = np.full((n, 8), -1, NBR_DTYPE)
    move_roll = np.zeros((n, 8), np.int8)
    sight_nbr = np.full((n, 8), -1, NBR_DTYPE)
    sight_flag = np.zeros((n, 8), np.int8)
    bodies: list[list[int]] = []
    near: dict[int, list[int]] = {}
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            if t < 0:
                continue  # void / face-down Apocalypse: "cannot be traversed, attacked over"
            size = int(catalogue.size[t])
            steps = _tile_steps(size, catalogue.space[t], catalogue.edge_e[t], catalogue.edge_s[t])
            # the tile's spaces' global ids, local space i * size + j at ids[i * size + j]:
            # increasing with it, so the tile's steps and sorted bodies map over in order
            ids = np.array([local_space((R, C), i, j, size) for i in range(size)
                            for j in range(size)], np.int64)
            kind[ids] = catalogue.space[t][:size, :size].ravel()
            feature[ids] = catalogue.feature[t][:size, :size].ravel()
            tile_pos[ids] = R * GRID + C
            # each space's row is its tile's alone here (the doorways below link tiles)
            move_nbr[ids] = np.where(steps.move_nbr >= 0, ids[steps.move_nbr], -1)
            move_roll[ids] = steps.move_roll
            sight_nbr[ids] = np.where(steps.sight_nbr >= 0, ids[steps.sight_nbr], -1)
            sight_flag[ids] = steps.sight_flag
            for local in steps.bodies:
                members = [int(ids[x]) for x in local]
                for s in members:
                    near.setdefault(s, []).append(len(bodies))
                bodies.append(members)
    _doorways(board, catalogue, rules, kind, move_nbr, sight_nbr, sight_flag)
    twin = np.full(n, -1, np.int32)
    for a, b in portal_spaces(board, catalogue):
        twin[a], twin[b] = b, a
    space_bodies = np.full((n, MAX_BODIES), -1, np.int32)
    for s, bs in near.items():
        space_bodies[s, :len(bs)] = bs
    starts = np.zeros(len(bodies) + 1, np.int32)
    starts[1:] = np.cumsum([len(b) for b in bodies]) if bodies else []
    members = np.array([s for b in bodies for s in b], np.int32)
    return BoardGraph(kind, feature, tile_pos, move_nbr, move_roll, sight_nbr, sight_flag, twin,
                      space_bodies, starts, members, rules, int((twin >= 0).sum()))


@dataclass(frozen=True)
class _TileSteps:
    """One tile's steps inside itself, in its local space ids ``i * size + j``: what
    :func:`_inside` and :func:`_water_bodies` make of its layout."""
    move_nbr: np.ndarray    # int64[size * size, 8], a local id or -1
    move_roll: np.ndarray   # int8[size * size, 8]
    sight_nbr: np.ndarray   # int64[size * size, 8], a local id or -1
    sight_flag: np.ndarray  # int8[size * size, 8]
    bodies: tuple           # each body of water's floor neighbours, local ids, sorted


_TILE_STEPS: dict = {}


def _tile_steps(size: int, sp, ee, es) -> _TileSteps:
    """A tile layout's :class:`_TileSteps`, worked out once per layout and kept (keyed by the
    layout's arrays' bytes). Why: a board repeats a few layouts in its 48 tiles and a study
    builds hundreds of boards, each twice (face-down and revealed Apocalypse); stepping every
    space of every tile in Python was most of a board's set-up time."""
    key = (size, sp.shape, sp.tobytes(), ee.shape, ee.tobytes(), es.shape, es.tobytes())
    steps = _TILE_STEPS.get(key)
    if steps is None:
        m = size * size
        ids = [[i * size + j for j in range(size)] for i in range(size)]
        move_nbr, sight_nbr = np.full((m, 8), -1, np.int64), np.full((m, 8), -1, np.int64)
        move_roll, sight_flag = np.zeros((m, 8), np.int8), np.zeros((m, 8), np.int8)
        for i in range(size):
            for j in range(size):
                _inside(ids, sp, ee, es, i, j, size, move_nbr, move_roll, sight_nbr, sight_flag)
        for table in (move_nbr, move_roll, sight_nbr, sight_flag):
            table.setflags(write=False)
        steps = _TILE_STEPS[key] = _TileSteps(move_nbr, move_roll, sight_nbr, sight_flag,
                                              tuple(_water_bodies(ids, sp, ee, es, size)))
    return steps


def _inside(ids, sp, ee, es, i, j, size, move_nbr, move_roll, sight_nbr, sight_flag) -> None:
    """Steps from (i, j) to its neighbours in the same tile ("diagonally ... inside the same tile")."""
    s = ids[i][j]
    for d, (di, dj) in enumerate(DIRS):
        ni, nj = i + di, j + dj
        if not (0 <= ni < size and 0 <= nj < size):
            continue
        t = ids[ni][nj]
        if di == 0 or dj == 0:
            edge = _edge_between(ee, es, i, j, di, dj)
            # Movement: walls stop it; water and fire walls need a roll; doors are passable.
            if sp[i, j] == FLOOR and sp[ni, nj] == FLOOR:
                if edge in (OPEN, DOOR):
                    move_nbr[s, d] = t
                elif edge in (WATER_WALL, FIRE_WALL):
                    move_nbr[s, d] = t
                    move_roll[s, d] = ROLL_WATER_WALL if edge == WATER_WALL else ROLL_FIRE_WALL
            # Sight: "Tile walls ... allow attacks through"; fire and water walls too; gaps block.
            if edge != GAP:
                sight_nbr[s, d] = t
                sight_flag[s, d] = (WATER_FLAG if edge == WATER_EDGE else 0) | \
                                   (DOOR_FLAG if edge == DOOR else 0)
        else:
            corner = _corner_edges(ee, es, i, j, di, dj)
            sides = (sp[i, nj], sp[ni, j])
            if (sp[i, j] == FLOOR and sp[ni, nj] == FLOOR and all(e == OPEN for e in corner)
                    and BLOCK not in sides):
                move_nbr[s, d] = t
            if not any(e in (GAP, DOOR) for e in corner):
                sight_nbr[s, d] = t
                sight_flag[s, d] = WATER_FLAG if WATER_EDGE in corner else 0


def _doorways(board, catalogue, rules, kind, move_nbr, sight_nbr, sight_flag) -> None:
    """Links between facing doorways: the only way from one tile into another, never diagonal."""
    for R in range(GRID):
        for C in range(GRID):
            a = board.tile_at((R, C))
            if a < 0:
                continue
            for (dR, dC), side_a, side_b, d in (((0, 1), 1, 3, E), ((1, 0), 2, 0, S)):
                R2, C2 = R + dR, C + dC
                if R2 >= GRID or C2 >= GRID:
                    continue
                b = board.tile_at((R2, C2))
                if b < 0 or not (catalogue.doorways[a, side_a] and catalogue.doorways[b, side_b]):
                    continue
                back = (d + 4) % 8
                for sa, sb in _facing(R, C, int(catalogue.size[a]), R2, C2, int(catalogue.size[b]), dR,
                                      rules.doorway):
                    if kind[sa] == NONE or kind[sb] == NONE:
                        continue
                    sight_nbr[sa, d], sight_nbr[sb, back] = sb, sa
                    sight_flag[sa, d] = sight_flag[sb, back] = CROSS
                    if kind[sa] == FLOOR and kind[sb] == FLOOR:
                        move_nbr[sa, d], move_nbr[sb, back] = sb, sa


def _facing(R, C, size_a, R2, C2, size_b, vertical, mode):
    """Pairs of facing edge spaces that are doorways (``doorway`` in rules.toml)."""
    half = MAX_SIZE // 2
    oa, ob = (MAX_SIZE - size_a) // 2, (MAX_SIZE - size_b) // 2
    if mode == "middle":
        lines = [half]
    else:  # full_edge: every line both tiles have
        lines = range(max(oa, ob), min(oa + size_a, ob + size_b))
    pairs = []
    for k in lines:
        if vertical:  # a above b, lines are columns
            pairs.append((space_id(R * MAX_SIZE + oa + size_a - 1, C * MAX_SIZE + k),
                          space_id(R2 * MAX_SIZE + ob, C2 * MAX_SIZE + k)))
        else:
            pairs.append((space_id(R * MAX_SIZE + k, C * MAX_SIZE + oa + size_a - 1),
                          space_id(R2 * MAX_SIZE + k, C2 * MAX_SIZE + ob)))
    return pairs


def _water_bodies(ids, sp, ee, es, size) -> list[list[int]]:
    """Bodies of water of one tile and, for each, the floor spaces orthogonally next to it.

    Water spaces, water edges touching them and water edges sharing an end point form one body.
    """
    parent: dict = {}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        parent[find(a)] = find(b)

    for i in range(size):
        for j in range(size):
            if sp[i, j] == WATER:
                parent[("s", i, j)] = ("s", i, j)
            if j + 1 < size and ee[i, j] == WATER_EDGE:
                parent[("e", i, j)] = ("e", i, j)
            if i + 1 < size and es[i, j] == WATER_EDGE:
                parent[("h", i, j)] = ("h", i, j)
    if not parent:
        return []

    def ends(x):  # corner points an edge touches (corner (a, b) = row line a, column line b)
        k, i, j = x
        return {(i, j + 1), (i + 1, j + 1)} if k == "e" else {(i + 1, j), (i + 1, j + 1)}

    def sides(i, j):  # water elements on the four sides of space (i, j)
        out = [("e", i, j), ("e", i, j - 1), ("h", i, j), ("h", i - 1, j)]
        out += [("s", i + di, j + dj) for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        return [x for x in out if x in parent]

    elems = list(parent)
    for x in elems:
        if x[0] == "s":
            for y in sides(x[1], x[2]):
                union(x, y)
    edges = [x for x in elems if x[0] != "s"]
    for a in range(len(edges)):
        for b in range(a + 1, len(edges)):
            if ends(edges[a]) & ends(edges[b]):
                union(edges[a], edges[b])
    members: dict = {}
    for i in range(size):
        for j in range(size):
            if sp[i, j] != FLOOR:
                continue
            for x in sides(i, j):
                members.setdefault(find(x), set()).add(ids[i][j])
    return [sorted(m) for _, m in sorted(members.items(), key=lambda kv: min(kv[1]))]
