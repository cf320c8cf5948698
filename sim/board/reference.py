"""Plain-Python reference searches, for tests and the benchmark.

Why a second implementation: the Numba kernels use bucketed levels and a stack of ray origins;
these use a textbook ``heapq`` Dijkstra over explicit states, on Python lists. Agreement on random
generated boards is evidence both follow the compiled graph the same way. (Both read the same
compiled graph, so the rule statements themselves are checked by the rule tests.)
"""

from __future__ import annotations

import heapq

import numpy as np

from fractions import Fraction

from sim.catalogue.tile_layout import WATER

from .geometry import DIRS, SPAN
from .graph import CROSS, DOOR_FLAG, WATER_FLAG, BoardGraph

_DIR_INDEX = {(int(dr), int(dc)): d for d, (dr, dc) in enumerate(DIRS)}


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

    any_angle = r.sight_lines == "any_angle"
    lined: dict = {}

    def emerge(t, c, tp, wp):
        """Range reaching portal piece ``t`` "emerges from the other component"; the twin is
        reached at ``c`` (an entity on it stands on ``t`` too), lines go on from it at ``ct``."""
        out[twin[t]] = min(out.get(twin[t], 1 << 30), c)
        ct, tpt = c, tp
        if r.portal_is_boundary and tile_pos[twin[t]] != tile_pos[t]:
            ct += r.cross_tile_penalty if (per_boundary or not tp) else 0
            tpt = 1
        if ct <= max_range:
            origin(twin[t], ct, tpt, wp)

    def origin(s, cost, tp, wp):
        out[s] = min(out.get(s, 1 << 30), cost)
        for d in range(8):
            key = (s, d, tp, wp, True)
            if cost < seen.get(key, 1 << 30):
                seen[key] = cost
                heapq.heappush(heap, (cost, s, d, tp, wp, True))
        if any_angle and cost < lined.get((s, tp, wp), 1 << 30):
            lined[(s, tp, wp)] = cost
            for t in range(len(kind)):
                if t == s or tile_pos[t] != tile_pos[s] or tile_pos[t] < 0:
                    continue
                line = ref_line_cost(graph, s, t, wp)
                if line is None or cost + line[0] > max_range:
                    continue
                out[t] = min(out.get(t, 1 << 30), cost + line[0])
                if twin[t] >= 0:
                    emerge(t, cost + line[0], tp, line[1])

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
            emerge(t, c, tp, wp)
        if not fl & DOOR_FLAG:
            key = (t, d, tp, wp, False)
            if c < seen.get(key, 1 << 30):
                seen[key] = c
                heapq.heappush(heap, (c, t, d, tp, wp, False))
    res = np.full(graph.kind.shape[0], -1, np.int32)
    for s, c in out.items():
        res[s] = c
    return res


def ref_line_cost(graph: BoardGraph, a: int, b: int, water_paid: int = 0):
    """(range, water paid) of the straight line from space ``a`` to space ``b`` of one tile at an
    angle off the eight rays (``lines._line_cost``), or None when it is blocked or on a ray. A
    second method: every crossing of a row or column boundary is an exact fraction of the way
    along the segment, sorted; crossings at the same fraction (a corner) make a diagonal step."""
    r = graph.rules
    (r0, c0), (r1, c1) = divmod(a, SPAN), divmod(b, SPAN)
    dr, dc = r1 - r0, c1 - c0
    if dr == 0 or dc == 0 or abs(dr) == abs(dc):
        return None
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    at: dict[Fraction, list[int]] = {}
    for k in range(abs(dc)):
        at.setdefault(Fraction(2 * k + 1, 2 * abs(dc)), [0, 0])[1] = sc
    for k in range(abs(dr)):
        at.setdefault(Fraction(2 * k + 1, 2 * abs(dr)), [0, 0])[0] = sr
    lo, hi = sorted((abs(dr), abs(dc)))
    cost = lo * r.diagonal_range_cost + (hi - lo) * r.range_cost
    cur = a
    for t in sorted(at):
        d = _DIR_INDEX[tuple(at[t])]
        nx = int(graph.sight_nbr[cur, d])
        fl = int(graph.sight_flag[cur, d])
        if nx < 0 or fl & DOOR_FLAG:
            return None
        if fl & WATER_FLAG or (cur != a and graph.kind[cur] == WATER):
            cost += r.water_penalty if (r.water_count == "per_water" or not water_paid) else 0
            water_paid = 1
        cur = nx
    assert cur == b, (a, b, cur)
    return cost, water_paid
