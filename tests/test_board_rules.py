"""The book's board statements, one test (or table row) each, on hand-built boards."""

from __future__ import annotations

import numpy as np
import pytest

from tests._board_kit import board_of, graph_of, sp
from sim.board.geometry import APOCALYPSE, VOID
from sim.board.movement import reachable
from sim.board.sight import attack_costs

BIG = 30


def move_cost(board, a, b, speed=BIG, rolls=0, **rules):
    return int(reachable(graph_of(board, **rules), a, speed, rolls)[0][b])


def range_cost(board, a, b, max_range=BIG, **rules):
    return int(attack_costs(graph_of(board, **rules), a, max_range)[b])


# --- Speed ------------------------------------------------------------------------------------

def test_speed_costs_1_per_adjacent_space_including_diagonal_inside_a_tile():
    """"It costs 1 speed to move onto an adjacent space" / "You can move diagonally, but only
    between spaces inside the same tile"."""
    b = board_of({(3, 3): "Open5"})
    c = sp(b, (3, 3))
    for i, j in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3)]:
        assert move_cost(b, c, sp(b, (3, 3), i, j)) == 1
    assert move_cost(b, c, sp(b, (3, 3), 0, 0)) == 2


def test_single_space_tile_costs_1_to_enter():
    """"a single-space tile costs 1 speed to enter like any other space"."""
    b = board_of()
    assert move_cost(b, sp(b, (3, 3)), sp(b, (3, 4))) == 1
    assert move_cost(b, sp(b, (3, 3)), sp(b, (3, 6))) == 3


def test_no_diagonal_step_between_tiles():
    """"you cannot travel between two tiles diagonally": the diagonal position costs 2, not 1."""
    b = board_of()
    assert move_cost(b, sp(b, (3, 3)), sp(b, (4, 4))) == 2
    b = board_of({(3, 3): "Open5", (4, 4): "Open5"})
    corner, across = sp(b, (3, 3), 4, 4), sp(b, (4, 4), 0, 0)
    assert move_cost(b, corner, across) > 1


def test_tiles_are_entered_only_through_connected_doorways():
    """"You can only enter and exit a tile through its connected doorways"."""
    b = board_of({(3, 3): "NorthOnly"})
    inside = sp(b, (3, 3))
    assert move_cost(b, sp(b, (3, 4)), inside) == 3      # round to the north doorway
    assert move_cost(b, sp(b, (2, 3)), inside) == 1
    g = graph_of(b)
    assert (g.move_nbr[inside] >= 0).sum() == 1


def test_wall_blocks_moving_but_not_attacking():
    """"Tile walls are pink lines inside a tile. They obstruct movement but allow attacks through"."""
    b = board_of({(3, 3): "Walled"})
    a, c = sp(b, (3, 3), 1, 1), sp(b, (3, 3), 1, 2)
    assert move_cost(b, a, c) > 1
    assert range_cost(b, a, c) == 1


def test_speed_limits_reach_and_costs_are_exact():
    b = board_of()
    cost, _ = reachable(graph_of(b), sp(b, (3, 3)), 2)
    assert cost.max() == 2 and (cost >= 0).sum() == 1 + 4 + 8


# --- Range and line of sight ------------------------------------------------------------------

RANGE_CASES = [
    # (why, grid, attacker (pos, i, j), target (pos, i, j), rules, expected range cost)
    ("adjacent space inside a tile costs 1", {(3, 3): "Open5"}, ((3, 3), 2, 2), ((3, 3), 2, 3), {}, 1),
    ("diagonal inside a tile (house: 1)", {(3, 3): "Open5"}, ((3, 3), 2, 2), ((3, 3), 3, 3), {}, 1),
    ("diagonal inside a tile (alternative: 2)", {(3, 3): "Open5"}, ((3, 3), 2, 2), ((3, 3), 3, 3),
     {"diagonal_range_cost": 2}, 2),
    ("R3:S2:A3 across one boundary: 1 + 1", {}, ((3, 3), 0, 0), ((3, 4), 0, 0), {}, 2),
    ("crossing an Uncovered Tile costs the penalty again", {}, ((3, 1), 0, 0), ((3, 3), 0, 0), {}, 4),
    ("alternative: penalty once per attack", {}, ((3, 1), 0, 0), ((3, 3), 0, 0),
     {"cross_tile_count": "once"}, 3),
    ("over a body of water: 2 range", {(3, 3): "River"}, ((3, 3), 0, 1), ((3, 3), 1, 1), {}, 2),
    ("over a water space: 2 steps + 1", {(3, 3): "Pond"}, ((3, 3), 1, 0), ((3, 3), 1, 2), {}, 3),
    ("water walls do not affect range", {(3, 3): "WaterWall"}, ((3, 3), 0, 0), ((3, 3), 0, 1), {}, 1),
    ("fire walls can be attacked through", {(3, 3): "FireWall"}, ((3, 3), 0, 0), ((3, 3), 0, 1), {}, 1),
    ("obscuring gaps block sight", {(3, 3): "Gapped"}, ((3, 3), 0, 0), ((3, 3), 0, 1), {}, -1),
    ("door: melee across from within 1", {(3, 3): "Doored"}, ((3, 3), 1, 0), ((3, 3), 1, 1), {}, 1),
    ("door: no line further through it", {(3, 3): "Doored"}, ((3, 3), 1, 0), ((3, 3), 1, 2), {}, -1),
    ("door: seen across only from the space touching it, whatever its range", {(3, 3): "Doored"},
     ((3, 3), 1, 2), ((3, 3), 1, 0), {"door_sight_range": 3}, -1),
    ("l.116 any straight line inside a tile: a knight's move costs 2", {(3, 3): "Open5"},
     ((3, 3), 0, 0), ((3, 3), 1, 2), {}, 2),
    ("l.116 a longer line at an angle: its diagonal part and its straight part",
     {(3, 3): "Open5"}, ((3, 3), 0, 0), ((3, 3), 4, 1), {}, 4),
    ("alternative: compass rays only, no knight's move", {(3, 3): "Open5"}, ((3, 3), 0, 0),
     ((3, 3), 1, 2), {"sight_lines": "compass"}, -1),
    ("an angled line's diagonal part at the diagonal cost (alternative 2)", {(3, 3): "Open5"},
     ((3, 3), 0, 0), ((3, 3), 1, 2), {"diagonal_range_cost": 2}, 3),
    ("an angled line over a water space: 2 + 1", {(3, 3): "Pond"}, ((3, 3), 0, 0),
     ((3, 3), 1, 2), {}, 3),
    ("an angled line over a water edge: 2 + 1", {(3, 3): "River"}, ((3, 3), 0, 0),
     ((3, 3), 1, 2), {}, 3),
    ("an angled line through walls: walls allow attacks through", {(3, 3): "Walled"},
     ((3, 3), 1, 0), ((3, 3), 0, 2), {}, 2),
    ("an angled line through a gap: blocked", {(3, 3): "Gapped"}, ((3, 3), 0, 0),
     ((3, 3), 1, 2), {}, -1),
    ("an angled line through a door: blocked", {(3, 3): "Doored"}, ((3, 3), 1, 0),
     ((3, 3), 0, 2), {}, -1),
    ("no diagonal line of sight between tiles", {}, ((3, 3), 0, 0), ((4, 4), 0, 0), {}, -1),
    ("face-down Apocalypse cannot be attacked over", {(3, 4): APOCALYPSE}, ((3, 3), 0, 0),
     ((3, 5), 0, 0), {}, -1),
    ("a void blocks line of sight", {(3, 4): VOID}, ((3, 3), 0, 0), ((3, 5), 0, 0), {}, -1),
]


@pytest.mark.parametrize("why,grid,att,tgt,rules,expected", RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_range_and_line_of_sight(why, grid, att, tgt, rules, expected):
    b = board_of(grid)
    assert range_cost(b, sp(b, *att), sp(b, *tgt), **rules) == expected


def test_line_between_tiles_only_through_doorway_line():
    """"From one tile into another, a diagonal is obstructed by the tiles' doorways": a 5×5 tile's
    off-middle row sees nothing in the next tile (doorways in the middle, house ruling)."""
    b = board_of({(3, 3): "Open5", (3, 4): "Open5"})
    assert range_cost(b, sp(b, (3, 3), 1, 4), sp(b, (3, 4), 1, 0)) == -1
    assert range_cost(b, sp(b, (3, 3), 2, 4), sp(b, (3, 4), 2, 0)) == 2
    assert range_cost(b, sp(b, (3, 3), 1, 4), sp(b, (3, 4), 1, 0), doorway="full_edge") == 2


def test_range_carries_through_a_portal():
    """"If a portal component falls within your range, this range carries through the portal. It
    emerges from the other component and continues in any direction the attacker chooses"."""
    b = board_of({(3, 2): "Portal", (0, 6): "Portal"}, portals=[[[3, 2, 0, 0], [0, 6, 0, 0]]])
    a = sp(b, (3, 1))
    assert range_cost(b, a, sp(b, (0, 6))) == 2          # standing on one piece = on both
    assert range_cost(b, a, sp(b, (0, 5))) == 4          # emerges, turns west
    assert range_cost(b, a, sp(b, (1, 6))) == 4          # or south: "any direction"
    assert range_cost(b, a, sp(b, (0, 5)), max_range=3) == -1
    assert range_cost(b, a, sp(b, (0, 5)), portal_is_boundary=True) == 5
    # "An entity standing on either component is treated as standing on both": from the piece
    # itself, the far tile is as near as from the other piece
    on = sp(b, (3, 2))
    assert range_cost(b, on, sp(b, (0, 5))) == range_cost(b, sp(b, (0, 6)), sp(b, (0, 5))) == 2


def test_moving_through_a_portal_costs_only_the_steps_on_and_off():
    """"you pay only the speed to enter the first component and the speed to leave the second"."""
    b = board_of({(3, 2): "Portal", (0, 6): "Portal"}, portals=[[[3, 2, 0, 0], [0, 6, 0, 0]]])
    assert move_cost(b, sp(b, (3, 1)), sp(b, (0, 5))) == 2


# --- Water ------------------------------------------------------------------------------------

def test_water_crossing_needs_a_success_and_costs_no_speed():
    """"On a success, you may move into any other space adjacent to that same body of water. This
    movement costs no speed." A failed/absent roll leaves only the long way round."""
    b = board_of({(3, 3): "River"}, fill="U")
    g = graph_of(b)
    a, other = sp(b, (3, 3), 0, 0), sp(b, (3, 3), 1, 2)
    dry = reachable(g, a, 1, 0)[0]
    wet, rolls = reachable(g, a, 1, 1)
    assert dry[other] == -1
    assert wet[other] == 0 and rolls[other] == 1        # any space next to the same body, free
    assert wet[sp(b, (3, 3), 2, 2)] == 1                 # then a normal step
    free = reachable(g, a, 1, -1)[0]                     # "Freely Cross Water"
    assert free[other] == 0


def test_water_wall_needs_a_roll_but_costs_a_step():
    """"A water wall ... cannot be traversed unless you perform a successful water-roll"."""
    b = board_of({(3, 3): "WaterWall"})
    a, c = sp(b, (3, 3), 0, 0), sp(b, (3, 3), 0, 1)
    assert move_cost(b, a, c, rolls=0) > 1
    assert move_cost(b, a, c, rolls=1) == 1


def test_fire_wall_passable_with_a_roll():
    """"Fire walls ... can be passed with a water-roll"."""
    b = board_of({(3, 3): "FireWall"})
    a, c = sp(b, (3, 3), 0, 0), sp(b, (3, 3), 0, 1)
    assert move_cost(b, a, c, rolls=1) == 1


def test_apocalypse_and_void_cannot_be_traversed():
    """"It cannot be traversed ..." / destroyed coordinates are "a void that functions identically"."""
    for blocker in (APOCALYPSE, VOID):
        b = board_of({(3, 4): blocker})
        g = graph_of(b)
        assert np.all(g.kind.reshape(35, 35)[15:20, 20:25] == 0)
        assert move_cost(b, sp(b, (3, 3)), sp(b, (3, 5))) == 4
