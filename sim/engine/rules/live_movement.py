"""Movement and sight on a game's live board, and destroying a coordinate.

Why copies of the graph per game: "When a tile coordinate is destroyed, it is replaced by a 'void'
that functions identically to the face-down Apocalypse tile" — untraversable and blocking line of
sight — so each game cuts the links of its destroyed coordinates out of its own neighbour tables,
and the unchanged board kernels (:func:`sim.board.movement._reach`, :func:`sim.board.sight._sight`)
keep answering every question.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.graph import MAX_BODIES
from sim.board.movement import _reach
from sim.board.sight import (LISTED_RANGE, LISTED_SPACE, UNSEEN, WORK_COLS, SightRules,
                             _rays_into, rays_rows, stack_cap)

from sim.engine.state import fields as L
from sim.engine.state.decision import KEY_FIRST, KEY_GEN, KEY_RANGE, KEY_ROWS
from sim.engine.state.game_state import _board_changed
from sim.engine.tiles.live_board import BLOCK, _cell_space, _far_tile


# a hot loop kept in one function (docs/performance.md, "Long kernels kept whole")
@njit(inline="always")
def _reach_from(st, S, start, speed):
    """``st.decision.reach_cost[s]``: speed to reach s from ``start`` (-1 out of reach); the
    reached spaces are ``reached[:n_reached]`` (``sim/engine/state/decision.py``). Dry moves
    only: water-rolls are actions of their own (water.py).

    The same answer as :func:`sim.board.movement._reach` with ``max_rolls=0`` (a test checks it),
    but it touches only the spaces it reaches: a breadth-first search whose queue doubles as the
    list to reset next time, instead of clearing and scanning all 1,225 spaces per question.
    Portal twins are reached at no cost ("Crossing between the two costs nothing in itself"), so
    a space may be queued again when a cheaper way is found (label-correcting). The question
    it last answered (start, speed, the board's revision) is answered again from the buffers
    as they stand (``reach_from`` in state/decision.py).
    """
    # arrays hoisted into locals: reading one from the state inside the loop would be a load
    # through its pointer each time
    decision = st.decision
    rev = st.game.board_rev
    if (decision.n_reached >= 0 and decision.reach_from == start
            and decision.reach_speed == speed and decision.reach_rev == rev):
        return decision.n_reached  # the question just answered (state/decision.py)
    decision.reach_from, decision.reach_speed, decision.reach_rev = start, speed, rev
    cost = decision.reach_cost
    q = decision.reached
    twin = st.twin
    move_nbr = st.move_nbr
    move_roll = st.move_roll
    if decision.n_reached < 0:
        cost[:] = -1
    else:
        for i in range(decision.n_reached):
            cost[q[i]] = -1
    mc = S.ip[L.P_MOVE_COST]
    max_cost = (speed // mc) * mc
    cost[start] = 0
    q[0] = start
    head = 0
    tail = 1
    cap = q.shape[0] - 9
    while head < tail:
        # a queued space is never negative: indexing with it unsigned spares Numba's
        # negative-index fix-up (three instructions an array read, docs/performance.md)
        s = np.uint64(q[head])
        head += 1
        c = cost[s]
        t = twin[s]
        if t >= 0 and (cost[t] < 0 or cost[t] > c):
            cost[t] = c
            q[tail] = t
            tail += 1
        if c >= max_cost:
            continue
        for d in range(8):
            t = move_nbr[s, d]
            if t < 0 or move_roll[s, d] > 0:  # a wall needing a water-roll: not dry
                continue
            nc = c + mc
            if cost[t] < 0 or cost[t] > nc:
                cost[t] = nc
                q[tail] = t
                tail += 1
        if tail >= cap:  # pathological portal chains: fall back to the board kernel
            # max_rolls = 0: the board kernel never reads its bodies of water (no crossing is
            # dry), so it is handed none
            _reach(st.move_nbr, st.move_roll, st.twin, np.empty((0, MAX_BODIES), np.int32),
                   np.zeros(1, np.int32), np.empty(0, np.int32), start, speed, 0, mc, cost,
                   decision.sight)
            decision.n_reached = -1  # reset everything next time
            decision.sight_len = -1  # (the sight table was its scratch)
            n = 0
            for s2 in range(cost.shape[0]):
                if cost[s2] >= 0:
                    q[n] = s2
                    n += 1
            return n
    decision.n_reached = tail
    return tail


@njit(inline="always")
def _sight_from(st, S, start, max_range):
    """Per space, the least range needed to attack it from ``start``: attackable where it is at
    most ``max_range`` (the game reads only the spaces entities stand on; a space may show a
    range above ``max_range`` when the answer is a wider search's, and each caller compares with
    its own range, which never exceeds the one it asked for). The result is the decision's
    ``sight`` buffer, valid until the next search: each caller reads it at once.

    Why searches are kept: sight depends only on the start and the live board (no entity blocks
    a line), and half of a greedy game's searches ask again from a space searched before on the
    same board (the same character after moving back, a teammate on the same space, a CPU).
    Each search lists the spaces it reached in ``sight_list``; ``sight_keys[start]`` names its
    list while the board is unchanged (``sight_rev``) and answers every question from that start
    with a range no wider (state/decision.py)."""
    decision = st.decision
    sight = decision.sight
    keys = decision.sight_keys
    listed = decision.sight_list
    rev = st.game.board_rev
    if decision.sight_rev != rev:  # the board changed: every kept list is stale
        decision.sight_rev = rev
        decision.sight_gen += 1
        decision.sight_top = 0
    gen = decision.sight_gen
    kept = keys[start, KEY_GEN] == gen and keys[start, KEY_RANGE] >= max_range
    if kept and decision.sight_at == start and decision.sight_len >= 0:
        return sight  # the table holds this answer already
    _sight_clear(sight, listed, decision.sight_off, decision.sight_len)
    if kept:
        off = keys[start, KEY_FIRST]
        end = off + keys[start, KEY_ROWS]
        for i in range(off, end):
            sight[listed[i, LISTED_SPACE]] = listed[i, LISTED_RANGE]
    else:
        if decision.sight_top + sight.shape[0] > listed.shape[0]:  # the lists are full: a new
            decision.sight_gen += 1  # generation (a board's worth of room is left for one)
            decision.sight_top = 0
            gen = decision.sight_gen
        off = decision.sight_top
        end = _sight_search(st, S, start, max_range, sight, listed, off)
        decision.sight_top = end
        keys[start, KEY_GEN], keys[start, KEY_RANGE] = gen, max_range
        keys[start, KEY_FIRST], keys[start, KEY_ROWS] = off, end - off
    decision.sight_at, decision.sight_off, decision.sight_len = start, off, end - off
    return sight


@njit(inline="always")
def _sight_clear(sight, listed, off, length):
    """Reset the sight table to unseen: only the listed spaces (-1: all of them, after a search
    that used the table as scratch or a fresh decision)."""
    if length < 0:
        sight[:] = UNSEEN
    else:
        for i in range(off, off + length):
            sight[listed[i, LISTED_SPACE]] = UNSEEN


@njit(inline="always")
def _sight_search(st, S, start, max_range, sight, listed, at):
    """Cast the rays (``sight._rays_into``) with the rules' costs; the reached spaces are listed
    from ``listed[at]``; returns the end of the list."""
    ip = S.ip
    cap = stack_cap(max_range, ip[L.P_N_PIECES])
    rules = SightRules(max_range, ip[L.P_RANGE_COST], ip[L.P_DIAG_COST], ip[L.P_TILE_PEN],
                       ip[L.P_PER_BOUNDARY], ip[L.P_WATER_PEN], ip[L.P_PER_WATER],
                       ip[L.P_PORTAL_BOUNDARY], ip[L.P_DOOR_RANGE], ip[L.P_SIGHT_LINES], cap)
    work = st.decision.rays
    if work.shape[0] < rays_rows(cap):  # a longer search than the buffer holds (decision.py)
        work = np.empty((rays_rows(cap), WORK_COLS), np.int64)
    return _rays_into(st.sight_nbr, st.sight_flag, st.kind, st.twin, st.tile_pos, start, rules,
                      sight, work, listed, at)


@njit
def _cut(nbr, s):
    for d in range(8):
        t = nbr[s, d]
        if t >= 0:
            for d2 in range(8):
                if nbr[t, d2] == s:
                    nbr[t, d2] = -1
            nbr[s, d] = -1


@njit
def _void_position(st, p):
    """Turn every space of grid position ``p`` into void: no moves or sight into, out or through.
    A position's spaces all lie in its 5×5 block: only those 25 are visited."""
    _board_changed(st)
    tile_pos = st.tile_pos
    kind = st.kind
    twin = st.twin
    move_nbr = st.move_nbr
    sight_nbr = st.sight_nbr
    for cell in range(BLOCK * BLOCK):
        s = _cell_space(p, cell)
        if tile_pos[s] != p:
            continue
        _cut(move_nbr, s)
        _cut(sight_nbr, s)
        t = twin[s]
        if t >= 0:  # "If a portal disappears ... The link is severed"
            twin[t] = -1
            twin[s] = -1
        kind[s] = 0
        tile_pos[s] = -1


@njit(inline="always")
def _homefield(st, S, e):
    """R3:S2:A8 "When a character's suit matches the suit of the tile they are in" — on a portal
    component, the far component's tile too (R4:S5 "An entity standing on one component receives
    every effect that standing on the other component would grant it ... Both spaces apply in
    full"). The tile there now in both cases."""
    s = st.ent.space[e]
    suit = st.ent.suit[e]
    if s < 0 or suit < 0:
        return False
    p = st.tile_pos[s]
    if p >= 0 and st.tiles.suit[p] == suit:
        return True
    q = _far_tile(st, s)
    return q >= 0 and st.tiles.suit[q] == suit


@njit(inline="always")
def _linked_tile(st, p):
    """The grid position that a portal in tile ``p`` links it to (-1: none). R4:S5 "The two Portal
    components link the tiles they sit in. Tile-wide damage and tile-wide attacks therefore affect
    both tiles entirely".

    The portal is searched among the 25 spaces of ``p``'s block, in id order (a space of tile
    ``p`` lies in its block: ``tile_pos[s]`` is ``s``'s own position or -1), not among all 1,225:
    greedy asks at every tile-wide score (tests/test_position_scores.py checks it)."""
    tile_pos, twin = st.tile_pos, st.twin
    # (p -1, no tile: every space without one is looked at)
    for i in range(BLOCK * BLOCK if p >= 0 else twin.shape[0]):
        s = _cell_space(p, i) if p >= 0 else i
        far = twin[s]
        if far >= 0 and tile_pos[s] == p and tile_pos[far] >= 0 and tile_pos[far] != p:
            return tile_pos[far]
    return -1


@njit(inline="always")
def _in_tiles(st, s, p, q):
    """Whether space ``s`` lies in tile ``p`` or in its portal-linked tile ``q`` (-1: none)."""
    if s < 0:
        return False
    here = st.tile_pos[s]
    return here >= 0 and (here == p or here == q)


@njit(inline="always")
def _may_reach(st, S, space, team, steps):
    """Whether an opponent of ``team`` (a team, or -1 for a CPU: only characters) stands within
    ``steps`` tile boundaries of ``space`` — a cheap lower bound checked before a sight search."""
    tile_pos = st.tile_pos
    pos_dist = st.tiles.dist  # the live tile distance
    p = tile_pos[space]
    if p < 0:
        return False
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0 or ent.team[e] == team:
            continue
        if team < 0 and ent.team[e] < 0:
            continue  # CPUs attack characters only
        q = tile_pos[s]
        if q >= 0 and pos_dist[p, q] <= steps:
            return True
    return False
