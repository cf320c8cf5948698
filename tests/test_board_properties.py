"""Property tests on generated boards: kernels agree with the plain-Python reference,
reachability never exceeds the speed, line of sight is symmetric."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests._board_kit import BOARD_RULES, TILES
from sim.board.generate import generate_board
from sim.board.graph import compile_board
from sim.board.movement import reachable
from sim.board.reference import ref_attack_costs, ref_reachable
from sim.board.sight import attack_costs, attack_costs_many
from sim.catalogue.tile_layout import FLOOR, NONE

_GRAPHS: dict = {}


def graph(seed):
    if seed not in _GRAPHS:
        _GRAPHS[seed] = compile_board(generate_board(TILES, BOARD_RULES, seed), TILES, BOARD_RULES)
    return _GRAPHS[seed]


def pick(g, kinds, k):
    spaces = np.flatnonzero(np.isin(g.kind, kinds))
    return int(spaces[k % spaces.size])


SEEDS = st.integers(0, 30)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, k=st.integers(0, 10_000), speed=st.integers(0, 8), rolls=st.sampled_from([0, 1, 2, -1]))
def test_reachability_matches_reference_and_never_exceeds_speed(seed, k, speed, rolls):
    """"Each turn, each character can only use as much speed as their stat shows"."""
    g = graph(seed)
    s = pick(g, [FLOOR], k)
    cost, used = reachable(g, s, speed, rolls)
    ref_cost, ref_used = ref_reachable(g, s, speed, rolls)
    assert np.array_equal(cost, ref_cost)
    assert np.array_equal(used, ref_used)
    assert cost.max() <= speed and cost[s] == 0
    if rolls >= 0:
        assert used.max() <= rolls
    assert np.all(g.kind[cost >= 0] == FLOOR)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, k=st.integers(0, 10_000), rng=st.integers(0, 10))
def test_attack_map_matches_reference(seed, k, rng):
    g = graph(seed)
    s = pick(g, [FLOOR], k)
    got = attack_costs(g, s, rng)
    assert np.array_equal(got, ref_attack_costs(g, s, rng))
    assert got.max() <= rng


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, k=st.integers(0, 10_000))
def test_line_of_sight_is_symmetric(seed, k):
    """The rules price a line the same both ways (walls, water, doorways, doors, portals), so the
    range needed from a to b equals that from b to a."""
    g = graph(seed)
    a = pick(g, [FLOOR], k)
    costs = attack_costs(g, a, 12)
    seen = np.flatnonzero(costs >= 0)
    back = attack_costs_many(g, seen, 12)
    assert np.array_equal(back[:, a], costs[seen])
    assert np.all(g.kind[seen] != NONE)
