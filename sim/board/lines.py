"""Straight lines inside one tile at any angle: the range a line costs, walked cell by cell.

Book (l.116): "Line of sight is simply a straight line being drawn. It is achieved whenever that
line can be drawn from one point to the other. Within a single tile that line may be diagonal."
The eight compass rays (``sight._rays_into``) find every space along a row, a column or a 45°
diagonal; a line at any other angle inside the tile (a knight's move, say) is this module's.
Between tiles a line stays orthogonal and passes through doorways ("There is no diagonal line of
sight between two tiles"), so only a line inside one tile needs it. Why its own module: the
walk is geometry (which cells a segment crosses), apart from the search's bookkeeping.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.catalogue.tile_layout import WATER

from .geometry import SPAN
from .graph import DOOR_FLAG, WATER_FLAG

# the direction index (``geometry.DIRS``) of a step (dr, dc), at (dr + 1) * 3 + dc + 1
_DIR_OF = np.array([7, 0, 1, 6, -1, 2, 5, 4, 3], np.int64)


@njit(inline="always")
def _direction(dr, dc):
    return _DIR_OF[(dr + 1) * 3 + dc + 1]


@njit(inline="always")
def _compass(dr, dc):
    """Whether the offset (dr, dc) lies on one of the eight compass rays."""
    return dr == 0 or dc == 0 or dr == dc or dr == -dc


@njit
def _line_cost(sight_nbr, sight_flag, kind, rules, a, b, water_paid):
    """(range, water penalty paid) of the straight line from space ``a`` to space ``b`` of the
    same tile; range -1 when the line is blocked. The line runs centre to centre and is walked
    cell by cell (a corner passed exactly is a diagonal step), each step read off the sight
    graph, so what blocks a ray's step blocks the line: a gap, a corner a diagonal may not
    pass; a door blocks it too (a door is seen across only from the space touching it, along a
    ray). Water on the way adds the water penalty as on a ray (once, or per wet step with
    ``per_water``). Its length is a ray's: the diagonal part at ``diag_cost`` a step, the rest
    at ``range_cost`` (the range of a knight's move is 2 at the book's costs)."""
    r0, c0 = a // SPAN, a % SPAN
    dr, dc = b // SPAN - r0, b % SPAN - c0
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    sc = 1 if dc > 0 else (-1 if dc < 0 else 0)
    adr, adc = abs(dr), abs(dc)
    cost = min(adr, adc) * rules.diag_cost + (max(adr, adc) - min(adr, adc)) * rules.range_cost
    ix, iy, cur = 0, 0, a
    while ix < adc or iy < adr:
        # the line crosses its next column boundary at t = (ix + 1/2) / adc and its next row
        # boundary at (iy + 1/2) / adr: compared without a division
        ahead = (1 + 2 * ix) * adr - (1 + 2 * iy) * adc
        if ahead == 0:
            d = _direction(sr, sc)
            ix += 1
            iy += 1
        elif ahead < 0:
            d = _direction(0, sc)
            ix += 1
        else:
            d = _direction(sr, 0)
            iy += 1
        nx = sight_nbr[cur, d]
        if nx < 0 or (sight_flag[cur, d] & DOOR_FLAG) != 0:
            return -1, water_paid
        if (sight_flag[cur, d] & WATER_FLAG) != 0 or (cur != a and kind[cur] == WATER):
            if rules.per_water or water_paid == 0:
                cost += rules.water_pen
            water_paid = 1
        cur = nx
    return cost, water_paid
