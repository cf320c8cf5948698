"""Plain-Python reference searches, for tests and the benchmark.

Why a second implementation: the Numba kernels use bucketed levels and a stack of ray origins;
these use a textbook ``heapq`` Dijkstra over explicit states, on Python lists. Agreement on random
generated boards is evidence both follow the compiled graph the same way. (Both read the same
compiled graph, so the rule statements themselves are checked by the rule tests.)
"""

from __future__ import annotations

import heapq

import numpy as np

from sim.catalogue.tile_layout import WATER

from .graph import CROSS, DOOR_FLAG, WATER_FLAG, BoardGraph


def ref_reachable(graph: BoardGraph, start: int, speed: int, max_rolls: int = 0
                  ) -> tuple[np.ndarray, np.ndarray]:
    nbr = graph.move_nbr.tolist()
    roll = graph.move_roll.tolist()
    twin = graph.twin.tolist()
    bodies = [[b for b in row if b >= 0] for row in graph.space_bodies.tolist()]
    starts, members = graph.body_start.tolist(), graph.body_members.tolist()
    step = int(graph.rules.move_cost)
    limited = max_rolls >= 0
    best: dict[tuple[int, int], int] = {(start, 0): 0}
    heap = [(0, 0, start)]
    while heap:
        cost, used, s = heapq.heappop(heap)
        if best.get((s, used), 1 << 30) < cost:
            continue
        moves = []
        if twin[s] >= 0:
            moves.append((twin[s], 0, 0))
        for b in bodies[s]:
            moves.extend((t, 0, 1) for t in members[starts[b]:starts[b + 1]] if t != s)
        for d in range(8):
            if nbr[s][d] >= 0:
                moves.append((nbr[s][d], step, 1 if roll[s][d] else 0))
        for t, dc, dr in moves:
            nc = cost + dc
            nu = used + dr if limited else 0
            if nc > speed or (limited and nu > max_rolls):
                continue
            if nc < best.get((t, nu), 1 << 30):
                best[(t, nu)] = nc
                heapq.heappush(heap, (nc, nu, t))
    n = graph.kind.shape[0]
    cost_out = np.full(n, -1, np.int32)
    roll_out = np.full(n, -1, np.int32)
    for (s, used), c in sorted(best.items(), key=lambda kv: (kv[1], kv[0][1])):
        if cost_out[s] < 0:
            cost_out[s], roll_out[s] = c, used
    return cost_out, roll_out


def ref_attack_costs(graph: BoardGraph, start: int, max_range: int) -> np.ndarray:
    """Dijkstra over ray states (space, direction, tile penalty paid, water paid, at origin)."""
    r = graph.rules
    nbr = graph.sight_nbr.tolist()
    flag = graph.sight_flag.tolist()
    kind = graph.kind.tolist()
    twin = graph.twin.tolist()
    tile_pos = graph.tile_pos.tolist()
    per_boundary = r.cross_tile_count == "per_boundary"
    per_water = r.water_count == "per_water"
    out: dict[int, int] = {start: 0}
    heap: list = []
    seen: dict = {}

    def origin(s, cost, tp, wp):
        out[s] = min(out.get(s, 1 << 30), cost)
        for d in range(8):
            key = (s, d, tp, wp, True)
            if cost < seen.get(key, 1 << 30):
                seen[key] = cost
                heapq.heappush(heap, (cost, s, d, tp, wp, True))

    origin(start, 0, 0, 0)
    if twin[start] >= 0:
        origin(twin[start], 0, 0, 0)
    while heap:
        cost, s, d, tp, wp, fresh = heapq.heappop(heap)
        if seen.get((s, d, tp, wp, fresh), 1 << 30) < cost:
            continue
        t = nbr[s][d]
        if t < 0:
            continue
        fl = flag[s][d]
        if fl & DOOR_FLAG and (not fresh or r.door_sight_range < 1):
            continue
        c = cost + (r.diagonal_range_cost if d % 2 else r.range_cost)
        if fl & CROSS:
            c += r.cross_tile_penalty if (per_boundary or not tp) else 0
            tp = 1
        if fl & WATER_FLAG or (not fresh and kind[s] == WATER):
            c += r.water_penalty if (per_water or not wp) else 0
            wp = 1
        if c > max_range or (fl & DOOR_FLAG and c > r.door_sight_range):
            continue
        out[t] = min(out.get(t, 1 << 30), c)
        if twin[t] >= 0:
            ct, tpt = c, tp
            if r.portal_is_boundary and tile_pos[twin[t]] != tile_pos[t]:
                ct += r.cross_tile_penalty if (per_boundary or not tp) else 0
                tpt = 1
            if ct <= max_range:
                origin(twin[t], ct, tpt, wp)
        if not fl & DOOR_FLAG:
            key = (t, d, tp, wp, False)
            if c < seen.get(key, 1 << 30):
                seen[key] = c
                heapq.heappush(heap, (c, t, d, tp, wp, False))
    res = np.full(graph.kind.shape[0], -1, np.int32)
    for s, c in out.items():
        res[s] = c
    return res
