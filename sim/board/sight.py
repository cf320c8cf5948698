"""Range and line of sight: which spaces a character at a space can attack with range R.

Book: "It only costs 1 range to attack an enemy on an adjacent space"; "if you cannot draw a
straight line from yourself to them, you cannot attack them"; "It costs an extra range as a
penalty when attacking across tiles, and an extra range when attacking over a body of water";
"Within a single tile that line may be diagonal ... There is no diagonal line of sight between two
tiles"; "If a portal component falls within your range, this range carries through the portal. It
emerges from the other component and continues in any direction the attacker chooses."

A straight line is one of the eight compass rays (house ruling, docs/rulings). Rays leave a tile
only through facing doorways (``graph.py``), so a line between tiles is always orthogonal.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.tile_layout import NONE, WATER

from .graph import CROSS, DOOR_FLAG, WATER_FLAG, BoardGraph


def attack_costs(graph: BoardGraph, start: int, max_range: int) -> np.ndarray:
    """``int32[n]``: the least range needed to attack each space from ``start`` (-1: not within
    ``max_range`` or not in line of sight). ``start`` itself costs 0."""
    n = graph.kind.shape[0]
    if not (0 <= start < n) or graph.kind[start] == NONE:
        raise ValueError(f"start {start} is not a space of a tile")
    if max_range < 0:
        raise ValueError(f"range must be >= 0, got {max_range}")
    out = np.empty(n, np.int32)
    _sight(graph.sight_nbr, graph.sight_flag, graph.kind, graph.twin, graph.tile_pos, int(start),
           *_params(graph, max_range), out)
    return out


def attackable(graph: BoardGraph, start: int, max_range: int) -> np.ndarray:
    """``bool[n]``: spaces a character on ``start`` with range ``max_range`` can attack."""
    return attack_costs(graph, start, max_range) >= 0


def attack_costs_many(graph: BoardGraph, starts, max_range: int) -> np.ndarray:
    """:func:`attack_costs` for many start spaces in one kernel call: ``int32[k, n]``."""
    starts = np.asarray(starts, np.int64).ravel()
    n = graph.kind.shape[0]
    if starts.size and (starts.min() < 0 or starts.max() >= n):
        raise ValueError(f"start spaces must be in [0, {n})")
    if starts.size and np.any(graph.kind[starts] == NONE):
        raise ValueError("every start must be a space of a tile")
    if max_range < 0:
        raise ValueError(f"range must be >= 0, got {max_range}")
    out = np.empty((starts.size, n), np.int32)
    _sight_many(graph.sight_nbr, graph.sight_flag, graph.kind, graph.twin, graph.tile_pos, starts,
                *_params(graph, max_range), out)
    return out


def _params(graph: BoardGraph, max_range: int) -> tuple:
    """The kernel's scalar arguments, from rules.toml [board]."""
    r = graph.rules
    # each portal piece can restart the eight rays once per (range value, penalty flags)
    stack_cap = 4 * (max_range + 2) * max(graph.n_pieces, 1) + 8
    return (int(max_range), int(r.range_cost), int(r.diagonal_range_cost),
            int(r.cross_tile_penalty), r.cross_tile_count == "per_boundary",
            int(r.water_penalty), r.water_count == "per_water", bool(r.portal_is_boundary),
            int(r.door_sight_range), stack_cap)


@njit
def _sight_many(sight_nbr, sight_flag, kind, twin, tile_pos, starts, max_range, range_cost,
                diag_cost, tile_pen, per_boundary, water_pen, per_water, portal_boundary,
                door_range, stack_cap, out):
    for k in range(starts.shape[0]):
        _sight(sight_nbr, sight_flag, kind, twin, tile_pos, starts[k], max_range, range_cost,
               diag_cost, tile_pen, per_boundary, water_pen, per_water, portal_boundary,
               door_range, stack_cap, out[k])


@njit
def _sight(sight_nbr, sight_flag, kind, twin, tile_pos, start, max_range, range_cost, diag_cost,
           tile_pen, per_boundary, water_pen, per_water, portal_boundary, door_range, stack_cap,
           out):
    """``out[s]``: the least range needed to attack ``s`` from ``start`` (-1: not attackable)."""
    best = _rays(sight_nbr, sight_flag, kind, twin, tile_pos, start, max_range, range_cost,
                 diag_cost, tile_pen, per_boundary, water_pen, per_water, portal_boundary,
                 door_range, stack_cap)
    for s in range(best.shape[0]):
        out[s] = best[s] if best[s] <= max_range else -1


# a hot loop kept in one function (docs/performance.md, "Long kernels kept whole")
@njit
def _rays(sight_nbr, sight_flag, kind, twin, tile_pos, start, max_range, range_cost, diag_cost,
          tile_pen, per_boundary, water_pen, per_water, portal_boundary, door_range, stack_cap):
    """Cast the eight rays from the start (and from its portal twin); each portal piece a ray
    reaches within range starts eight new rays from the other piece with the range left.
    Origins carry (cost, tile penalty paid, water penalty paid) for the "once" counting modes.
    Returns a fresh ``int32[n]``: the least range needed per space, above ``max_range`` where a
    space cannot be attacked (the game reads only the spaces entities stand on, so it skips the
    board-wide copy that :func:`_sight` makes)."""
    # The best cost per portal origin and penalty flags lives in a short list (``seen``), not a
    # [spaces, 4] table cleared per call: only the start, its twin and portal pieces are ever
    # origins. ``best_out`` is a fresh local (not ``out``) so the compiler knows no other array
    # aliases it in the ray loop.
    n = sight_nbr.shape[0]
    inf = np.int32(1 << 30)
    best_out = np.full(n, inf, np.int32)
    # one allocation for the origin stack and the seen list (space, flags, best cost each)
    work = np.empty((2 * stack_cap + 2, 3), np.int64)
    o_space = work[:stack_cap, 0]
    o_cost = work[:stack_cap, 1]
    o_flags = work[:stack_cap, 2]
    seen = work[stack_cap:]
    n_seen = 0
    o_space[0] = start
    o_cost[0] = 0
    o_flags[0] = 0
    top = 1
    seen[0, 0] = start
    seen[0, 1] = 0
    seen[0, 2] = 0
    n_seen = 1
    best_out[start] = 0
    tw = twin[start]  # "An entity standing on either component is treated as standing on both"
    if tw >= 0:
        o_space[1] = tw
        o_cost[1] = 0
        o_flags[1] = 0
        top = 2
        seen[1, 0] = tw
        seen[1, 1] = 0
        seen[1, 2] = 0
        n_seen = 2
        best_out[tw] = 0
    while top > 0:
        top -= 1
        origin = o_space[top]
        c0 = o_cost[top]
        f0 = o_flags[top]
        if _seen_cost(seen, n_seen, origin, f0) < c0:
            continue
        for d in range(8):
            cur = origin
            c = c0
            tile_paid = f0 & 1
            water_paid = (f0 >> 1) & 1
            steps = 0
            while True:
                nx = sight_nbr[cur, d]
                if nx < 0:
                    break
                fl = sight_flag[cur, d]
                door = (fl & DOOR_FLAG) != 0
                if door and (steps > 0 or door_range < 1):
                    break  # a door is seen across only from the space touching it
                c += diag_cost if d % 2 == 1 else range_cost
                if fl & CROSS:  # R3:S2:A3 cross-tile penalty
                    if per_boundary or tile_paid == 0:
                        c += tile_pen
                    tile_paid = 1
                if (fl & WATER_FLAG) != 0 or (steps > 0 and kind[cur] == WATER):
                    if per_water or water_paid == 0:
                        c += water_pen
                    water_paid = 1
                if c > max_range or (door and c > door_range):
                    break
                steps += 1
                if c < best_out[nx]:
                    best_out[nx] = c
                t = twin[nx]
                if t >= 0:  # range "emerges from the other component"
                    ct = c
                    tp = tile_paid
                    if portal_boundary and tile_pos[t] != tile_pos[nx]:
                        if per_boundary or tp == 0:
                            ct += tile_pen
                        tp = 1
                    if ct <= max_range:
                        if ct < best_out[t]:
                            best_out[t] = ct
                        key = tp | (water_paid << 1)
                        if ct < _seen_cost(seen, n_seen, t, key) and top < stack_cap:
                            n_seen = _set_seen(seen, n_seen, t, key, ct)
                            o_space[top] = t
                            o_cost[top] = ct
                            o_flags[top] = key
                            top += 1
                if door:
                    break
                cur = nx
    return best_out


@njit(inline="always")
def _seen_cost(seen, n_seen, space, flags):
    """The best cost an origin (space, penalty flags) was reached with (2**30 if never)."""
    for i in range(n_seen):
        if seen[i, 0] == space and seen[i, 1] == flags:
            return seen[i, 2]
    return 1 << 30


@njit(inline="always")
def _set_seen(seen, n_seen, space, flags, cost):
    for i in range(n_seen):
        if seen[i, 0] == space and seen[i, 1] == flags:
            seen[i, 2] = cost
            return n_seen
    seen[n_seen, 0] = space
    seen[n_seen, 1] = flags
    seen[n_seen, 2] = cost
    return n_seen + 1
