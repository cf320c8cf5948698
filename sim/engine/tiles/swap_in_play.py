"""Swapping and transforming tiles in play, and where their contents land.

Book: "the two tiles trade positions on the board while keeping their orientation"; "When the
destination is an Uncovered Tile ... The moving tile simply moves onto it and covers it up" and
"every entity and Component standing on that Uncovered Tile is picked up and placed into the tile
that has arrived over them"; "Transforming a tile will result in an existing tile on the board
being transformed into a chosen tile that is not already in play"; Consolidation ("Contents always
settle into the concentric center of the new tile"). Portal pieces travel with their tiles; a
transformed tile's pieces leave with it. The board arrays are re-stamped by
:mod:`sim.engine.tiles.live_board`; this module moves everything standing in the tiles (entities, items
on the floor, a CPU's leash, the tiles' deactivated and frozen states) and logs the change.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.swap import consolidate
from sim.catalogue.tile_layout import PORTAL
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.state.game_state import _board_changed
from sim.engine.log.events import _log
from sim.engine.entities.timed_states import _end_state
from sim.engine.tiles.live_board import (BLOCK, GRID, SPAN, _cell_space, _clear, _link_doorways, _position_of,
                         _settle, _space_cell, _stamp, _tile_at, _tile_distance, _uncovered)
from sim.engine.tiles.fx_table import TF_FEATURE, TF_KIND, TF_SIZE, TF_SPAWNABLE, TF_SUIT


@njit(inline="always")
def _shift(p, q):
    """Space-id offset from position p's block to position q's."""
    return ((q // GRID) - (p // GRID)) * BLOCK * SPAN + ((q % GRID) - (p % GRID)) * BLOCK


@njit
def _moved(st, S, s, p, q, a, b, covers):
    """Where a content on space s goes when the tile a at p moves to q and the tile b at q
    moves to p (``covers``: b is an Uncovered Tile the arriving a covers, its contents picked
    up into a)."""
    if s < 0:
        return s
    pos = _position_of(s)
    if pos == p:
        return s + _shift(p, q)
    if pos == q:
        if covers:
            fx = S.tile_fx
            sb = fx[2 * b, TF_SIZE]
            sa = fx[2 * a, TF_SIZE]
            o = (BLOCK - sb) // 2
            cell = _space_cell(s)
            i, j = consolidate(cell // BLOCK - o, cell % BLOCK - o, sb, sa)
            o2 = (BLOCK - sa) // 2
            return _cell_space(q, (i + o2) * BLOCK + j + o2)
        return s - _shift(p, q)
    return s



@njit
def _swap_tile_states(tiles, p, q):
    """Positions p and q trade their tiles' deactivated and frozen states (until and by)."""
    tiles.off[p], tiles.off[q] = tiles.off[q], tiles.off[p]
    tiles.off_by[p], tiles.off_by[q] = tiles.off_by[q], tiles.off_by[p]
    tiles.frozen[p], tiles.frozen[q] = tiles.frozen[q], tiles.frozen[p]
    tiles.frozen_by[p], tiles.frozen_by[q] = tiles.frozen_by[q], tiles.frozen_by[p]


@njit
def _swap(st, S, p, q, by):
    """The tile at p moves to q: the two trade places, or it covers the Uncovered Tile at q.
    Everything in both tiles travels with its tile (entities, items on the floor, portal pieces,
    the tiles' deactivated / frozen states): "the tile and everything in it remain unchanged"."""
    _board_changed(st)
    p = np.int64(p)
    q = np.int64(q)
    a = _tile_at(st, S, p)
    b = _tile_at(st, S, q)
    unc = _uncovered(S)
    covers = b == unc and a != unc
    # portal links touching either block, remembered before the blocks are cut
    pairs = np.empty((4 * BLOCK * BLOCK, 2), np.int64)
    n_pairs = 0
    for w in range(2):
        pos = p if w == 0 else q
        for cell in range(BLOCK * BLOCK):
            s = _cell_space(pos, cell)
            t = st.twin[s]
            if t >= 0:
                pairs[n_pairs, 0] = s
                pairs[n_pairs, 1] = t
                n_pairs += 1
                st.twin[s] = -1
                st.twin[t] = -1
    _swap_tile_states(st.tiles, p, q)
    _clear(st, p)
    _clear(st, q)
    _stamp(st, S, q, a)
    _stamp(st, S, p, b)
    _link_doorways(st, S, p)
    _link_doorways(st, S, q)
    for i in range(n_pairs):
        s = _moved(st, S, pairs[i, 0], p, q, a, b, covers)
        t = _moved(st, S, pairs[i, 1], p, q, a, b, covers)
        st.twin[s] = t
        st.twin[t] = s
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0:
            continue
        pos = _position_of(s)
        if pos == p or pos == q:
            x = _moved(st, S, s, p, q, a, b, covers)
            ent.space[e] = _settle(st, _position_of(x), x)
            home = ent.home[e]  # a CPU is leashed to its tile, wherever the tile goes
            if home == p and pos == p:
                ent.home[e] = q
            elif home == q and pos == q and not covers:
                ent.home[e] = p
    _carry_floor(st, S, p, q, a, b, covers)
    if n_pairs > 0:  # the tile distances change only with the portal links (none moved else)
        _tile_distance(st)
    st.game.tile_changes += 1
    _log(st, L.EV_SWAP, p, q, a, b, by, 1 if covers else 0)


@njit
def _carry_floor(st, S, p, q, a, b, covers):
    """Items lying in either tile travel with it (Components, consolidated like entities;
    ``State.floor`` rows are ``[item, space]``)."""
    fl = st.floor
    for f in range(fl.shape[0]):
        s = fl[f, L.FL_SPACE]
        if fl[f, L.FL_ITEM] < 0 or s < 0:
            continue
        pos = _position_of(s)
        if pos == p or pos == q:
            x = _moved(st, S, s, p, q, a, b, covers)
            fl[f, L.FL_SPACE] = _settle(st, _position_of(x), x)


@njit
def _transform(st, S, p, n, by):
    """The tile at p becomes tile n ("a chosen tile that is not already in play"), its contents
    consolidated into n's size; the old tile's portal pieces leave with it ("The link is
    severed") and n's own pair links up."""
    _board_changed(st)
    fx = S.tile_fx
    old = _tile_at(st, S, p)
    so = fx[2 * old, TF_SIZE]
    sn = fx[2 * n, TF_SIZE]
    _leave_states(st, p)
    # whether a portal link from p to another position is cut (the only links between tiles:
    # the new tile's own pair lies in p)
    severed = False
    for cell in range(BLOCK * BLOCK):
        s = _cell_space(p, cell)
        t = st.twin[s]
        if t >= 0:
            severed = severed or st.tile_pos[t] != st.tile_pos[s]
            st.twin[t] = -1
            st.twin[s] = -1
    _clear(st, p)
    _stamp(st, S, p, n)
    _link_doorways(st, S, p)
    _link_portals(st, fx, p, n)
    oo = (BLOCK - so) // 2
    on = (BLOCK - sn) // 2
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0 or _position_of(s) != p:
            continue
        cell = _space_cell(s)
        i, j = consolidate(cell // BLOCK - oo, cell % BLOCK - oo, so, sn)
        ent.space[e] = _settle(st, p, _cell_space(p, (i + on) * BLOCK + j + on))
        # the water it was stuck in leaves play with the old tile (house ruling, docs/rulings.md
        # "Water on a moved tile"), as the old tile's freeze does
        ent.submerged[e] = 0
    fl = st.floor
    for f in range(fl.shape[0]):
        s = fl[f, L.FL_SPACE]
        if fl[f, L.FL_ITEM] >= 0 and s >= 0 and _position_of(s) == p:
            cell = _space_cell(s)
            i, j = consolidate(cell // BLOCK - oo, cell % BLOCK - oo, so, sn)
            fl[f, L.FL_SPACE] = _settle(st, p, _cell_space(p, (i + on) * BLOCK + j + on))
    if severed:  # the tile distances change only with the links between tiles
        _tile_distance(st)
    st.game.tile_changes += 1
    _log(st, L.EV_TRANSFORM, p, old, n, by, 0, 0)


@njit
def _transform_choice(st, S, c, draw):
    """The tile a transform brings ("a chosen tile that is not already in play"; house ruling):
    the first one of the user's suit (its Homefield) in tile index order, which is name order
    (sim.catalogue.tiles), else, with ``draw``, one drawn uniformly from the game's stream, else
    the first; -1 when none is out of play. Out of play: a league tile allowed to spawn that no
    position names (a destroyed tile is removed from the game: its coordinate still names it)."""
    fx = S.tile_fx
    n_tiles = fx.shape[0] // 2
    out = np.ones(n_tiles, np.bool_)
    tiles = st.tiles
    for q in range(GRID * GRID):  # one pass over the positions, not one per tile
        t = tiles.tile[q]
        if 0 <= t < n_tiles:
            out[t] = False
    uncovered = _uncovered(S)
    suit = st.ent.suit[c]
    count = 0
    first = -1
    for n in range(n_tiles):
        out[n] = out[n] and fx[2 * n, TF_SPAWNABLE] != 0 and n != uncovered
        if out[n]:
            if fx[2 * n, TF_SUIT] == suit:
                return n
            if first < 0:
                first = n
            count += 1
    if count == 0 or not draw:
        return first
    rng = st.rng
    r, s0, s1, s2, s3 = roll(count, rng[0], rng[1], rng[2], rng[3])
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    for n in range(n_tiles):
        if out[n]:
            r -= 1
            if r == 0:
                return n
    return first


@njit
def _leave_states(st, p):
    """The old tile's states leave with it: whoever its freeze held thaws ("for as long as the
    tile is" frozen), and the new tile arrives neither deactivated nor frozen."""
    frozen = st.tiles.frozen[p]
    if frozen != 0:
        for e in range(st.ent.shape[0]):
            s = st.ent.space[e]
            if (s >= 0 and _position_of(s) == p and st.ent.frozen[e] == frozen
                    and st.ent.frozen_by[e] == -1):
                _end_state(st, e, L.FROZEN)
    st.tiles.off[p] = 0
    st.tiles.frozen[p] = 0
    st.tiles.off_by[p] = -1
    st.tiles.frozen_by[p] = -1


@njit
def _link_portals(st, fx, p, n):
    """Tile ``n``, now at position p: its two portal pieces (if it has them) link up."""
    _board_changed(st)
    first = -1
    for cell in range(BLOCK * BLOCK):
        if fx[2 * n, TF_KIND + cell] != 0 and fx[2 * n, TF_FEATURE + cell] == PORTAL:
            s = _cell_space(p, cell)
            if first < 0:
                first = s
            else:
                st.twin[first] = s
                st.twin[s] = first
                first = -2
