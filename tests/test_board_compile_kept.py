"""``compile_board`` keeps each tile layout's inside steps between boards (stop 80: 6x faster).
Oracle: the compiler as it was until then, stepping every space of every tile on the board
(below, the same helpers over global ids), gives every array equal on generated boards of both
doorway rules, with the Apocalypse face down and revealed, and with the layouts' steps already
kept from other boards."""

import dataclasses

import numpy as np
import pytest

from sim.board import graph
from sim.board.generate import generate_board
from sim.board.geometry import APOCALYPSE, N_SPACES, local_space, portal_spaces
from sim.catalogue.board_rules import GRID
from sim.catalogue.loader import load_board_only

NBR_DTYPE, MAX_BODIES = graph.NBR_DTYPE, graph.MAX_BODIES


def _reference_compile(board, catalogue, rules):
    """``compile_board`` until stop 80: every space of every tile stepped on each board."""
    n = N_SPACES
    kind = np.zeros(n, np.int8)
    feature = np.zeros(n, np.int8)
    tile_pos = np.full(n, -1, np.int32)
    move_nbr = np.full((n, 8), -1, NBR_DTYPE)
    move_roll = np.zeros((n, 8), np.int8)
    sight_nbr = np.full((n, 8), -1, NBR_DTYPE)
    sight_flag = np.zeros((n, 8), np.int8)
    bodies: list[list[int]] = []
    near: dict[int, list[int]] = {}
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            if t < 0:
                continue  # void / face-down Apocalypse: "cannot be traversed, attacked over"
            size = int(catalogue.size[t])
            sp, ft = catalogue.space[t], catalogue.feature[t]
            ee, es = catalogue.edge_e[t], catalogue.edge_s[t]
            ids = [[local_space((R, C), i, j, size) for j in range(size)] for i in range(size)]
            for i in range(size):
                for j in range(size):
                    s = ids[i][j]
                    kind[s], feature[s], tile_pos[s] = sp[i, j], ft[i, j], R * GRID + C
            for i in range(size):
                for j in range(size):
                    graph._inside(ids, sp, ee, es, i, j, size, move_nbr, move_roll, sight_nbr, sight_flag)
            for members in graph._water_bodies(ids, sp, ee, es, size):
                for s in members:
                    near.setdefault(s, []).append(len(bodies))
                bodies.append(members)
    graph._doorways(board, catalogue, rules, kind, move_nbr, sight_nbr, sight_flag)
    twin = np.full(n, -1, np.int32)
    for a, b in portal_spaces(board, catalogue):
        twin[a], twin[b] = b, a
    space_bodies = np.full((n, MAX_BODIES), -1, np.int32)
    for s, bs in near.items():
        space_bodies[s, :len(bs)] = bs
    starts = np.zeros(len(bodies) + 1, np.int32)
    starts[1:] = np.cumsum([len(b) for b in bodies]) if bodies else []
    members = np.array([s for b in bodies for s in b], np.int32)
    return graph.BoardGraph(kind, feature, tile_pos, move_nbr, move_roll, sight_nbr, sight_flag, twin,
                      space_bodies, starts, members, rules, int((twin >= 0).sum()))


def _boards(tiles, rules, seeds):
    for seed in seeds:
        board = generate_board(tiles, rules, seed)
        yield board
        apoc = np.argwhere(board.tiles == APOCALYPSE)
        revealed = board.copy()
        revealed.tiles[apoc[0][0], apoc[0][1]] = tiles.uncovered
        yield revealed


@pytest.mark.parametrize("doorway", ["middle", "full_edge"])
def test_the_kept_layout_steps_compile_every_board_as_stepping_each_space_did(doorway):
    _, rules, tiles = load_board_only()
    rules = dataclasses.replace(rules, doorway=doorway)
    graph._TILE_STEPS.clear()
    compared = 0
    for board in _boards(tiles, rules, range(12)):
        got, want = graph.compile_board(board, tiles, rules), _reference_compile(board, tiles, rules)
        for f in dataclasses.fields(want):
            a, b = getattr(got, f.name), getattr(want, f.name)
            if isinstance(b, np.ndarray):
                assert a.dtype == b.dtype and np.array_equal(a, b), (f.name, compared)
            else:
                assert a == b, (f.name, compared)
        compared += 1
    assert compared == 24 and 0 < len(graph._TILE_STEPS) < 24  # layouts kept, and shared
