"""The live board re-linked inside a kernel, for tiles swapped and transformed in play.

Why re-stamping: a game's board is its arrays (``st.kind``, ``st.tile_pos``, ``st.move_nbr``,
``st.move_roll``, ``st.sight_nbr``, ``st.sight_flag``, ``st.twin``), built once per board by the
Python compiler (``sim.board.graph.compile_board``). A swap or transform changes only the one or
two grid positions it touches, so the kernel cuts those positions' 5×5 blocks out of the arrays
and stamps each new tile in from its local graph, precomputed per catalogue tile in
``Static.tile_fx`` (``sim/engine/tiles/fx_table.py``), then links the doorways facing its four
neighbours exactly as ``compile_board`` does. Tests compare the result with the Python
reference (``sim.board.swap`` + ``compile_board``) array for array. The bodies of water need no
stamping: they are per tile, and the water kernels read them from the tile standing at a
position now (``water_rolls._shore``: ``st.tiles`` and ``fx_table.TF_SHORE``), so a moved or
transformed tile crosses its own water as its rolled walls (``st.move_roll``) are stamped with it.

Book: "the two tiles trade positions on the board while keeping their orientation" (a stamp
never rotates); "Tiles can only be entered and exited through their connected doorways"; the
Apocalypse "cannot be ... transformed, tile-swapped over"; "A Spawn is a set of coordinates, not a
tile" (spawn spaces never move: the middle of a position's block is a space of any tile). What
stands in a tile moves with it: :mod:`sim.engine.tiles.swap_in_play`.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.geometry import APOCALYPSE, SPAN, VOID
from sim.board.graph import CROSS
from sim.catalogue.board_rules import GRID
from sim.catalogue.tile_layout import FLOOR, MAX_SIZE

from sim.engine.state import fields as L
from sim.engine.state.game_state import _board_changed
from sim.engine.tiles.fx_table import (TF_DOORS, TF_FEATURE, TF_KIND, TF_MOVE, TF_SIGHT, TF_SIZE, TF_SUIT,
                         TF_UNCOVERED)

BLOCK = MAX_SIZE  # a position's block of spaces (the biggest tile); SPAN spaces a row, GRID
#                  positions a row; CROSS: the sight flag of a tile boundary through two doorways;
#                  APOCALYPSE, VOID: codes in a position's tile column
FAR = 10 ** 6


@njit(inline="always")
def _doff(d):
    """Space-id step of direction d (sim.board.geometry.DIRS: N, NE, E, SE, S, SW, W, NW)."""
    dr = -1 if (d == 0 or d == 1 or d == 7) else (1 if (d == 3 or d == 4 or d == 5) else 0)
    dc = 1 if (d == 1 or d == 2 or d == 3) else (-1 if (d == 5 or d == 6 or d == 7) else 0)
    return dr * SPAN + dc


@njit(inline="always")
def _cell_space(p, cell):
    """Global space of cell (a, b) = divmod(cell, 5) of position p's block."""
    return ((p // GRID) * BLOCK + cell // BLOCK) * SPAN + (p % GRID) * BLOCK + cell % BLOCK


@njit(inline="always")
def _space_cell(s):
    return ((s // SPAN) % BLOCK) * BLOCK + (s % SPAN) % BLOCK


@njit(inline="always")
def _position_of(s):
    return ((s // SPAN) // BLOCK) * GRID + (s % SPAN) // BLOCK


@njit(inline="always")
def _middle(p):
    """The middle space of position p's block: a space of whatever tile stands there."""
    return _cell_space(p, 12)


@njit
def _settle(st, p, s):
    """A consolidated space that is no floor (water, a wall block: house ruling) gives way to
    the nearest floor space of the tile (fewest king steps, then lowest id)."""
    if st.kind[s] == FLOOR:
        return s
    best = s
    best_d = FAR
    for cell in range(BLOCK * BLOCK):
        x = _cell_space(p, cell)
        if st.kind[x] != FLOOR:
            continue
        dist = max(abs(x // SPAN - s // SPAN), abs(x % SPAN - s % SPAN))
        if dist < best_d:
            best, best_d = x, dist
    return best


@njit
def _spawn_now(st, S, team, k):
    """Where ``team``'s ``k``-th Spawn coordinate places a character now (placing, a summoned
    card, a revive "back in the team's Spawn"): its middle space, or, when a tile swapped or
    transformed in play put no floor there, the tile's nearest floor space (house ruling,
    docs/rulings.md "Spawn in play"); -1 when the coordinate is destroyed or has no floor."""
    s = S.spawn_space[team, k]
    p = st.tile_pos[s]
    if p < 0:
        return -1
    s = _settle(st, p, s)
    return s if st.kind[s] == FLOOR else -1


@njit
def _first_spawn(st, S, team):
    """The first of ``team``'s Spawn coordinates that places a character now (``_spawn_now``;
    -1: none does)."""
    for k in range(S.spawn_space.shape[1]):
        s = _spawn_now(st, S, team, k)
        if s >= 0:
            return s
    return -1


@njit
def _uncovered(S):
    """The Uncovered Tile's catalogue index."""
    return _uncovered_in(S.tile_fx)


@njit(inline="always")
def _uncovered_in(fx):
    """The Uncovered Tile's catalogue index, from the tile table ``S.tile_fx``."""
    for r in range(0, fx.shape[0], 2):
        if fx[r, TF_UNCOVERED] != 0:
            return r // 2
    return -1


@njit
def _tile_at(st, S, p):
    """The catalogue tile at position p now; VOID for a destroyed coordinate, APOCALYPSE while
    face-down ("When revealed it is treated as a 1x1 Tile": the Uncovered Tile)."""
    if st.pos_state[p] == L.VOIDED:
        return VOID
    t = st.tiles.tile[p]
    if t == APOCALYPSE and st.game.revealed != 0:
        return _uncovered(S)
    return t


@njit(inline="always")
def _far_tile(st, s):
    """The grid position of the tile of the far piece of the portal piece ``s`` stands on (-1:
    ``s`` is no piece, or off the board). R4:S5 "treated as standing on both components at the
    same time": an entity on a piece stands in both tiles, the one place this is computed."""
    far = st.twin[s] if s >= 0 else -1
    return st.tile_pos[far] if far >= 0 else -1


@njit
def _tile_seen_from(st, S, s, t):
    """The grid position of catalogue tile ``t`` where space ``s`` stands in it: ``s``'s own
    tile, else its portal twin's (R4:S5 "treated as standing on both components"); -1: neither.
    A catalogue tile is in play once, so the tile names its position. Why: an interactable
    reached through a portal acts from its own tile (``functions._legal_interact``,
    ``tile_effects._run_tile_control``), not from the user's."""
    p = st.tile_pos[s] if s >= 0 else -1
    if p >= 0 and _tile_at(st, S, p) == t:
        return p
    q = _far_tile(st, s)
    return q if q >= 0 and _tile_at(st, S, q) == t else -1


@njit
def _cut_links(nbr, aux, s):
    """Remove every link of ``nbr`` into and out of space s, with its ``aux`` code (a move's
    water-roll, a sight step's flags)."""
    for d in range(8):
        t = nbr[s, d]
        if t < 0:
            continue
        for d2 in range(8):
            if nbr[t, d2] == s:
                nbr[t, d2] = -1
                aux[t, d2] = 0
        nbr[s, d] = -1
        aux[s, d] = 0


@njit
def _clear(st, p):
    """Position p's block holds no space."""
    _board_changed(st)
    for cell in range(BLOCK * BLOCK):
        s = _cell_space(p, cell)
        if st.tile_pos[s] < 0 and st.kind[s] == 0:
            continue
        _cut_links(st.move_nbr, st.move_roll, s)
        _cut_links(st.sight_nbr, st.sight_flag, s)
        st.kind[s] = 0
        st.feature[s] = 0
        st.tile_pos[s] = -1


@njit
def _stamp(st, S, p, t):
    """Tile t's spaces and inner links into position p's (cleared) block."""
    _board_changed(st)
    fx = S.tile_fx
    row = 2 * t
    for cell in range(BLOCK * BLOCK):
        kind = fx[row, TF_KIND + cell]
        if kind == 0:
            continue
        s = _cell_space(p, cell)
        st.kind[s] = kind
        st.feature[s] = fx[row, TF_FEATURE + cell]  # ladders and platforms move with the tile
        st.tile_pos[s] = p
        for d in range(8):
            mv = fx[row, TF_MOVE + 8 * cell + d]
            if mv > 0:
                st.move_nbr[s, d] = s + _doff(d)
                st.move_roll[s, d] = mv - 1
            sg = fx[row, TF_SIGHT + 8 * cell + d]
            if sg > 0:
                st.sight_nbr[s, d] = s + _doff(d)
                st.sight_flag[s, d] = sg - 1
    st.tiles.tile[p] = t
    st.tiles.suit[p] = fx[row, TF_SUIT]


@njit(inline="always")
def _edge_cell(size, side, k):
    """Block cell of a ``size`` tile's edge space on ``side`` (0 N, 1 E, 2 S, 3 W) at line k."""
    o = (BLOCK - size) // 2
    if side == 0:
        return o * BLOCK + k
    if side == 2:
        return (o + size - 1) * BLOCK + k
    if side == 3:
        return k * BLOCK + o
    return k * BLOCK + o + size - 1


@njit
def _link_doorways(st, S, p):
    """Links between position p's doorways and its four neighbours' facing doorways: "Tiles can
    only be entered and exited through their connected doorways" (compile_board._doorways)."""
    t = _tile_at(st, S, p)
    if t < 0:
        return
    _board_changed(st)
    fx = S.tile_fx
    r0 = p // GRID
    c0 = p % GRID
    for side in range(4):
        if side == 0 and r0 == 0 or side == 2 and r0 == GRID - 1:
            continue
        if side == 3 and c0 == 0 or side == 1 and c0 == GRID - 1:
            continue
        q = p + (-GRID if side == 0 else (GRID if side == 2 else (1 if side == 1 else -1)))
        u = _tile_at(st, S, q)
        if u < 0:
            continue
        opp = (side + 2) % 4
        lines = fx[2 * t, TF_DOORS + side] & fx[2 * u, TF_DOORS + opp]
        d = 2 * side
        back = (d + 4) % 8
        for k in range(BLOCK):
            if (lines >> k) & 1 == 0:
                continue
            sa = _cell_space(p, _edge_cell(fx[2 * t, TF_SIZE], side, k))
            sb = _cell_space(q, _edge_cell(fx[2 * u, TF_SIZE], opp, k))
            if st.kind[sa] == 0 or st.kind[sb] == 0:
                continue
            st.sight_nbr[sa, d] = sb
            st.sight_nbr[sb, back] = sa
            st.sight_flag[sa, d] = CROSS
            st.sight_flag[sb, back] = CROSS
            if st.kind[sa] == FLOOR and st.kind[sb] == FLOOR:
                st.move_nbr[sa, d] = sb
                st.move_nbr[sb, back] = sa


@njit
def _tile_distance(st):
    """``st.tiles.dist``: fewest tile boundaries between two positions, portals
    linking theirs at no cost (the lower bound Static.pos_dist holds for the start board),
    recomputed after portals moved. A 0-1 breadth-first search from each position (a portal
    link costs 0, a step to a side neighbour 1): the same answer as Floyd-Warshall
    (static_tables._pos_dist, a test checks it) in a tenth of the work."""
    d = st.tiles.dist
    twin = st.twin
    tile_pos = st.tile_pos
    n = GRID * GRID
    links = np.empty((n, n), np.int64)  # per position, the positions its portals link
    n_links = np.zeros(n, np.int64)
    for s in range(twin.shape[0]):
        t = twin[s]
        if t >= 0 and tile_pos[s] >= 0 and tile_pos[t] >= 0 and tile_pos[s] != tile_pos[t]:
            a = tile_pos[s]
            links[a, n_links[a]] = tile_pos[t]
            n_links[a] += 1
    mid = n * n + 4 * n  # each push improves a distance: at most n*n + 4n pushes per side
    dq = np.empty(2 * mid + 2, np.int64)
    for src in range(n):
        for q in range(n):
            d[src, q] = FAR
        d[src, src] = 0
        head = mid
        tail = mid + 1
        dq[head] = src
        while head < tail:
            p = dq[head]
            head += 1
            dp = d[src, p]
            for k in range(n_links[p]):  # free: to the front
                q = links[p, k]
                if dp < d[src, q]:
                    d[src, q] = dp
                    head -= 1
                    dq[head] = q
            r = p // GRID
            c = p % GRID
            for k in range(4):  # a boundary crossed: to the back
                q = p - GRID if k == 0 else (p + GRID if k == 1 else (p - 1 if k == 2 else p + 1))
                if ((k == 0 and r == 0) or (k == 1 and r == GRID - 1) or (k == 2 and c == 0)
                        or (k == 3 and c == GRID - 1)):
                    continue
                if dp + 1 < d[src, q]:
                    d[src, q] = dp + 1
                    dq[tail] = q
                    tail += 1


@njit
def _reveal_in_place(st, S):
    """The reveal on a board whose tiles moved: "When revealed it is treated as a 1x1 Tile" —
    the Uncovered Tile is stamped at the Apocalypse's position into the live board (copying the
    start board's revealed arrays, as ``reveal._check_reveal`` does otherwise, would undo the
    swaps). False (nothing done) when no tile has moved."""
    if st.game.tile_changes == 0:
        return False
    p = S.ip[L.P_APOC_POS]
    if st.pos_state[p] == L.VOIDED:
        return True
    _clear(st, p)
    _stamp(st, S, p, _uncovered(S))
    st.tiles.tile[p] = APOCALYPSE  # the position still holds the (revealed) Apocalypse
    _link_doorways(st, S, p)
    return True
