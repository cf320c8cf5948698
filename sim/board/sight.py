"""Range and line of sight: which spaces a character at a space can attack with range R.

Book: "It only costs 1 range to attack an enemy on an adjacent space"; "if you cannot draw a
straight line from yourself to them, you cannot attack them"; "It costs an extra range as a
penalty when attacking across tiles, and an extra range when attacking over a body of water";
"Within a single tile that line may be diagonal ... There is no diagonal line of sight between two
tiles"; "If a portal component falls within your range, this range carries through the portal. It
emerges from the other component and continues in any direction the attacker chooses."

Eight compass rays leave every origin; with ``sight_lines = "any_angle"`` (the book, l.116: "It is
achieved whenever that line can be drawn") every other space of the origin's own tile is reached
by a straight line at its angle too (``lines._line_cost``); ``"compass"`` (the house ruling before
stop 70, an alternative now) keeps the rays alone. Rays leave a tile only through facing doorways
(``graph.py``), so a line between tiles is always orthogonal.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sim._jit import njit
from sim.catalogue.tile_layout import MAX_SIZE as BLOCK, NONE, WATER

from .geometry import SPAN
from .graph import CROSS, DOOR_FLAG, WATER_FLAG, BoardGraph
from .lines import _compass, _line_cost


# The line-of-sight rules a search reads (rules.toml [board], and the search's own bounds), by
# name. A named tuple of integers is passed by value: no reference counting in the hot path.
SightRules = namedtuple("SightRules", (
    "max_range",        # the attacker's range: nothing costing more is attackable
    "range_cost",       # an orthogonal step
    "diag_cost",        # a diagonal step (within a tile)
    "tile_pen",         # crossing into another tile
    "per_boundary",     # 1: the tile penalty is paid per boundary, 0: once
    "water_pen",        # crossing a body of water
    "per_water",        # 1: the water penalty is paid per body of water, 0: once
    "portal_boundary",  # 1: emerging from a portal in another tile is a boundary crossed
    "door_range",       # how far across a door one sees (from the space touching it)
    "any_angle",        # 1: a straight line at any angle inside a tile, 0: the compass rays only
    "stack_cap",        # the portal origins a search may stack
))


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
           sight_rules(graph, max_range), out)
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
                sight_rules(graph, max_range), out)
    return out


def sight_rules(graph: BoardGraph, max_range: int) -> SightRules:
    """The search's rules for ``graph``'s board (rules.toml [board]) and range ``max_range``."""
    r = graph.rules
    return SightRules(int(max_range), int(r.range_cost), int(r.diagonal_range_cost),
                      int(r.cross_tile_penalty), int(r.cross_tile_count == "per_boundary"),
                      int(r.water_penalty), int(r.water_count == "per_water"),
                      int(r.portal_is_boundary), int(r.door_sight_range),
                      int(r.sight_lines == "any_angle"), stack_cap(max_range, graph.n_pieces))


@njit(inline="always")
def stack_cap(max_range, n_pieces):
    """Each portal piece can restart the eight rays once per (range value, penalty flags)."""
    return 4 * (max_range + 2) * max(n_pieces, 1) + 8


@njit
def _sight_many(sight_nbr, sight_flag, kind, twin, tile_pos, starts, rules, out):
    for k in range(starts.shape[0]):
        _sight(sight_nbr, sight_flag, kind, twin, tile_pos, starts[k], rules, out[k])


@njit
def _sight(sight_nbr, sight_flag, kind, twin, tile_pos, start, rules, out):
    """``out[s]``: the least range needed to attack ``s`` from ``start`` (-1: not attackable)."""
    best = _rays(sight_nbr, sight_flag, kind, twin, tile_pos, start, rules)
    for s in range(best.shape[0]):
        out[s] = best[s] if best[s] <= rules.max_range else -1


@njit(inline="always")
def _first_origins(start, twin, best_out, work, cap):
    """The search starts from ``start`` and its portal twin ("An entity standing on either
    component is treated as standing on both"), each at cost 0 with no penalty paid. Returns
    how many origins are stacked (and seen)."""
    top = _first_origin(start, 0, best_out, work, cap)
    tw = twin[start]
    if tw >= 0:
        top = _first_origin(tw, top, best_out, work, cap)
    return top


@njit(inline="always")
def _first_origin(origin, top, best_out, work, cap):
    work[cap + top, SEEN_SPACE] = origin  # seen
    work[cap + top, SEEN_FLAGS] = 0
    work[cap + top, SEEN_COST] = 0
    best_out[origin] = 0
    return _push(work, top, origin, 0, 0)


@njit(inline="always")
def _push(work, top, space, cost, flags):
    """Stack an origin on row ``top`` of ``work`` (the stack's one writer); the next free row."""
    work[top, ORIGIN_SPACE] = space
    work[top, ORIGIN_COST] = cost
    work[top, ORIGIN_FLAGS] = flags
    return top + 1


@njit(inline="always")
def _step_cost(rules, d, flags, from_water, tile_paid, water_paid):
    """The range one step of a ray costs (direction ``d``, the step's sight ``flags``), with the
    tile and water penalties ("an extra range as a penalty when attacking across tiles, and an
    extra range when attacking over a body of water"; paid once or per crossing), and whether
    each penalty has now been paid."""
    cost = rules.diag_cost if d % 2 == 1 else rules.range_cost
    if flags & CROSS:  # R3:S2:A3 cross-tile penalty
        if rules.per_boundary or tile_paid == 0:
            cost += rules.tile_pen
        tile_paid = 1
    if (flags & WATER_FLAG) != 0 or from_water:
        if rules.per_water or water_paid == 0:
            cost += rules.water_pen
        water_paid = 1
    return cost, tile_paid, water_paid


@njit(inline="always")
def rays_rows(cap):
    """The rows of :func:`_rays_into`'s ``work`` for an origin stack of ``cap``
    (``rules.stack_cap``): the stack, then the seen list (the start and its twin besides)."""
    return 2 * cap + 2


UNSEEN = 1 << 30  # the least range of a space no ray reached
# :func:`_rays_into`'s ``work`` rows of WORK_COLS: the origin stack's (space, cost, penalty
# flags), then the seen list's (space, penalty flags, best cost); and its ``listed`` rows of
# LISTED_COLS, (space, least range), which the game keeps (``live_movement._sight_from``)
ORIGIN_SPACE, ORIGIN_COST, ORIGIN_FLAGS = 0, 1, 2
SEEN_SPACE, SEEN_FLAGS, SEEN_COST = 0, 1, 2
WORK_COLS = 3
LISTED_SPACE, LISTED_RANGE = 0, 1
LISTED_COLS = 2


@njit
def _rays(sight_nbr, sight_flag, kind, twin, tile_pos, start, rules):
    """:func:`_rays_into` fresh arrays: a new ``int32[n]``, the least range needed per space."""
    n = sight_nbr.shape[0]
    best = np.full(n, UNSEEN, np.int32)
    _rays_into(sight_nbr, sight_flag, kind, twin, tile_pos, start, rules, best,
               np.empty((rays_rows(rules.stack_cap), WORK_COLS), np.int64),
               np.empty((n, LISTED_COLS), np.int32), 0)
    return best


@njit
def _rays_into(sight_nbr, sight_flag, kind, twin, tile_pos, start, rules, best_out, work, listed,
               at):
    """Cast the eight rays from the start (and from its portal twin), and with ``any_angle``
    the straight lines to the rest of its tile (``_tile_lines``); each portal piece reached
    within range starts them again from the other piece with the range left.
    Origins carry (cost, tile penalty paid, water penalty paid) for the "once" counting modes.
    ``best_out`` (``int32[n]``, :data:`UNSEEN` everywhere on entry) gets the least range needed
    per space where it is at most ``rules.max_range``; the spaces reached are listed with their
    range in ``listed[at:]`` (``int32[, LISTED_COLS]``, room for every space), and the end of
    the list is returned. Why a list and no board-wide fill: the game keeps the list to reset
    the table and to answer the same question again without casting a ray
    (``live_movement._sight_from``). ``work``: scratch of at least :func:`rays_rows` rows of
    WORK_COLS; the game passes its decision's buffers, since a fresh pair per search was 5 % of
    a greedy game in malloc and free (docs/performance.md)."""
    # The best cost per portal origin and penalty flags lives in a short list (``seen``), not a
    # [spaces, 4] table cleared per call: only the start, its twin and portal pieces are ever
    # origins.
    max_range, door_range, cap = rules.max_range, rules.door_range, rules.stack_cap
    # rows [0, cap): the origin stack (ORIGIN_*); from cap: the seen list (SEEN_*). Indexed in
    # place: a view would cost a reference count per call.
    at0 = at
    at = _lower(best_out, listed, at, start, 0)  # the first origins are seen at range 0
    if twin[start] >= 0:
        at = _lower(best_out, listed, at, twin[start], 0)
    top = _first_origins(start, twin, best_out, work, cap)
    n_seen = top
    while top > 0:
        top -= 1
        origin, c0, f0 = work[top, ORIGIN_SPACE], work[top, ORIGIN_COST], work[top, ORIGIN_FLAGS]
        if _seen_cost(work, cap, n_seen, origin, f0) < c0:
            continue
        if rules.any_angle:
            at, top, n_seen = _tile_lines(sight_nbr, sight_flag, kind, twin, tile_pos, rules,
                                          origin, c0, f0, best_out, listed, at, work, top, n_seen)
        for d in range(8):
            cur, c, steps = origin, c0, 0
            tile_paid, water_paid = f0 & 1, (f0 >> 1) & 1
            while True:
                nx = sight_nbr[cur, d]
                if nx < 0:
                    break
                fl = sight_flag[cur, d]
                door = (fl & DOOR_FLAG) != 0
                if door and (steps > 0 or door_range < 1):
                    break  # a door is seen across only from the space touching it
                wet = steps > 0 and kind[cur] == WATER  # leaving a water space
                step, tile_paid, water_paid = _step_cost(rules, d, fl, wet, tile_paid, water_paid)
                c += step
                if c > max_range or (door and c > door_range):
                    break
                steps += 1
                if c < best_out[nx]:
                    at = _lower(best_out, listed, at, nx, c)
                if twin[nx] >= 0:  # range "emerges from the other component"
                    at, top, n_seen = _emerge(twin, tile_pos, rules, best_out, listed, at, work,
                                              top, n_seen, nx, c, tile_paid, water_paid)
                if door:
                    break
                cur = nx
    for i in range(at0, at):  # the list holds each space's final range
        listed[i, LISTED_RANGE] = best_out[listed[i, LISTED_SPACE]]
    return at


@njit(inline="always")
def _emerge(twin, tile_pos, rules, best_out, listed, at, work, top, n_seen, piece, c, tile_paid,
            water_paid):
    """A line reached portal piece ``piece`` at range ``c``: the range "emerges from the other
    component" (and pays the tile penalty there with ``portal_boundary``), which becomes an
    origin when reached cheaper than before. The twin itself is reached at ``c``: an entity on
    it stands on ``piece`` too (the penalty is for lines going on out of it; paying it for the
    twin made sight one-sided, found by the fuzzing of stop 71). Returns (at, top, n_seen)."""
    t = twin[piece]
    cap = rules.stack_cap
    if c < best_out[t]:
        at = _lower(best_out, listed, at, t, c)
    ct, tp = c, tile_paid
    if rules.portal_boundary and tile_pos[t] != tile_pos[piece]:
        if rules.per_boundary or tp == 0:
            ct += rules.tile_pen
        tp = 1
    if ct <= rules.max_range:
        key = tp | (water_paid << 1)
        if ct < _seen_cost(work, cap, n_seen, t, key) and top < cap:
            n_seen = _set_seen(work, cap, n_seen, t, key, ct)
            top = _push(work, top, t, ct, key)
    return at, top, n_seen


@njit
def _tile_lines(sight_nbr, sight_flag, kind, twin, tile_pos, rules, origin, c0, f0, best_out,
                listed, at, work, top, n_seen):
    """The spaces of ``origin``'s tile off its eight rays, each by the straight line to it
    (``lines._line_cost``) at range ``c0`` spent before the origin; a portal piece so reached
    carries the range on (``_emerge``). Why: "It is achieved whenever that line can be drawn"
    (l.116): before stop 70 a target a knight's move away in the same tile was never in sight
    (the fourth rules audit: 2,116 of 26,602 decisions with the action left had an opponent in
    range in its own tile off the rays). The tile is the origin's block of the board, at most
    25 spaces. Returns (at, top, n_seen)."""
    p = tile_pos[origin]
    r0, c_0 = origin // SPAN, origin % SPAN
    br, bc = r0 // BLOCK * BLOCK, c_0 // BLOCK * BLOCK
    for r in range(br, br + BLOCK):
        for col in range(bc, bc + BLOCK):
            s = r * SPAN + col
            if kind[s] == NONE or tile_pos[s] != p or _compass(r - r0, col - c_0):
                continue
            cost, water_paid = _line_cost(sight_nbr, sight_flag, kind, rules, origin, s,
                                          (f0 >> 1) & 1)
            c = c0 + cost
            if cost < 0 or c > rules.max_range:
                continue
            if c < best_out[s]:
                at = _lower(best_out, listed, at, s, c)
            if twin[s] >= 0:
                at, top, n_seen = _emerge(twin, tile_pos, rules, best_out, listed, at, work, top,
                                          n_seen, s, c, f0 & 1, water_paid)
    return at, top, n_seen


@njit(inline="always")
def _lower(best_out, listed, at, space, cost):
    """``best_out[space] = cost`` (a lower range than it had), listing a space seen first."""
    if best_out[space] == UNSEEN:
        listed[at, LISTED_SPACE] = space
        at += 1
    best_out[space] = cost
    return at


@njit(inline="always")
def _seen_cost(work, cap, n_seen, space, flags):
    """The best cost an origin (space, penalty flags) was reached with (2**30 if never); the
    seen list is ``work``'s rows from ``cap``."""
    for i in range(cap, cap + n_seen):
        if work[i, SEEN_SPACE] == space and work[i, SEEN_FLAGS] == flags:
            return work[i, SEEN_COST]
    return 1 << 30


@njit(inline="always")
def _set_seen(work, cap, n_seen, space, flags, cost):
    for i in range(cap, cap + n_seen):
        if work[i, SEEN_SPACE] == space and work[i, SEEN_FLAGS] == flags:
            work[i, SEEN_COST] = cost
            return n_seen
    row = cap + n_seen
    work[row, SEEN_SPACE] = space
    work[row, SEEN_FLAGS] = flags
    work[row, SEEN_COST] = cost
    return n_seen + 1
