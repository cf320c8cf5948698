"""Movement: which spaces a character can reach with its Speed, and at what cost.

The book's four speed rules: "It costs 1 speed to move onto an adjacent space. Speed is always
spent per space, never per tile"; "a single-space tile costs 1 speed to enter like any other
space"; "You can only enter and exit a tile through its connected doorways"; "You can move
diagonally, but only between spaces inside the same tile". The compiled graph (``graph.py``)
already encodes which steps exist; this module searches it.

Water-rolls are random, so reachability is asked *given a number of successful rolls*
(``max_rolls``): a water crossing ("On a success, you may move into any other space adjacent to
that same body of water. This movement costs no speed") and a water or fire wall each take one
success. ``max_rolls=0`` is a dry move; ``max_rolls=-1`` is "Freely Cross Water" (every roll an
automatic success). ``sim.board.water`` samples how many successes a streak gives.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.tile_layout import FLOOR

from .graph import BoardGraph

UNLIMITED = -1


def reachable(graph: BoardGraph, start: int, speed: int, max_rolls: int = 0
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(cost, rolls)`` per space: least speed to reach it (-1 if out of reach) and the fewest
    successful water-rolls that cost needs."""
    n = graph.kind.shape[0]
    if not (0 <= start < n) or graph.kind[start] != FLOOR:
        raise ValueError(f"start {start} is not a floor space (water and wall blocks hold no one)")
    _check(speed, max_rolls)
    cost = np.empty(n, np.int32)
    rolls = np.empty(n, np.int32)
    _reach(graph.move_nbr, graph.move_roll, graph.twin, graph.space_bodies, graph.body_start,
           graph.body_members, int(start), int(speed), int(max_rolls), int(graph.rules.move_cost),
           cost, rolls)
    return cost, rolls


def _check(speed: int, max_rolls: int) -> None:
    if speed < 0:
        raise ValueError(f"speed must be >= 0, got {speed}")
    if max_rolls < UNLIMITED:
        raise ValueError(f"max_rolls must be >= 0 or -1 (unlimited), got {max_rolls}")


def reachable_many(graph: BoardGraph, starts, speed: int, max_rolls: int = 0
                   ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`reachable` for many start spaces at once (one kernel call): ``int32[k, n]`` each."""
    starts = np.asarray(starts, np.int64).ravel()
    n = graph.kind.shape[0]
    if starts.size and (starts.min() < 0 or starts.max() >= n):
        raise ValueError(f"start spaces must be in [0, {n})")
    if starts.size and np.any(graph.kind[starts] != FLOOR):
        raise ValueError("every start must be a floor space (water and wall blocks hold no one)")
    _check(speed, max_rolls)
    cost = np.empty((starts.size, n), np.int32)
    rolls = np.empty((starts.size, n), np.int32)
    _reach_many(graph.move_nbr, graph.move_roll, graph.twin, graph.space_bodies,
                graph.body_start, graph.body_members, starts, int(speed), int(max_rolls),
                int(graph.rules.move_cost), cost, rolls)
    return cost, rolls


@njit
def _reach_many(move_nbr, move_roll, twin, space_bodies, body_start, body_members, starts,
                speed, max_rolls, move_cost, cost, rolls):
    for k in range(starts.shape[0]):
        _reach(move_nbr, move_roll, twin, space_bodies, body_start, body_members, starts[k],
               speed, max_rolls, move_cost, cost[k], rolls[k])


@njit
def _reach(move_nbr, move_roll, twin, space_bodies, body_start, body_members, start, speed,
           max_rolls, move_cost, cost, rolls):
    """Bucketed Dijkstra over (space, rolls used): steps cost one level, portal links and water
    crossings cost nothing (they stay in the level)."""
    n = move_nbr.shape[0]
    limited = max_rolls >= 0
    layers = max_rolls + 1 if limited else 1
    inf = np.int32(1 << 30)
    dist = np.full((layers, n), inf, np.int32)
    cap = 2 * layers * n + 8
    cur = np.empty(cap, np.int64)
    nxt = np.empty(cap, np.int64)
    dist[0, start] = 0
    cur[0] = start
    ncur = 1
    max_steps = speed // move_cost
    for level in range(max_steps + 1):
        nnxt = 0
        i = 0
        while i < ncur:
            st = cur[i]
            i += 1
            layer = st // n
            s = st % n
            if dist[layer, s] != level:
                continue
            t = twin[s]  # "Crossing between the two costs nothing in itself"
            if t >= 0 and dist[layer, t] > level:
                dist[layer, t] = level
                cur[ncur] = layer * n + t
                ncur += 1
            if not limited or layer + 1 < layers:
                nl = layer + 1 if limited else 0
                for bi in range(space_bodies.shape[1]):
                    b = space_bodies[s, bi]
                    if b < 0:
                        break
                    for m in range(body_start[b], body_start[b + 1]):
                        t = body_members[m]
                        if t != s and dist[nl, t] > level:
                            dist[nl, t] = level
                            cur[ncur] = nl * n + t
                            ncur += 1
            if level == max_steps:
                continue
            for d in range(8):
                t = move_nbr[s, d]
                if t < 0:
                    continue
                nl = layer
                if move_roll[s, d] > 0 and limited:
                    if layer + 1 >= layers:
                        continue
                    nl = layer + 1
                if dist[nl, t] > level + 1:
                    dist[nl, t] = level + 1
                    nxt[nnxt] = nl * n + t
                    nnxt += 1
        cur, nxt = nxt, cur
        ncur = nnxt
    for s in range(n):
        best = inf
        used = -1
        for layer in range(layers):
            if dist[layer, s] < best:
                best = dist[layer, s]
                used = layer
        if best == inf:
            cost[s] = -1
            rolls[s] = -1
        else:
            cost[s] = best * move_cost
            rolls[s] = used if limited else 0
