"""Failures found by fuzzing the engine under the house rulings' alternatives and other values
the loader accepts (stop 71: 2,359 games checked step by step over 14 alternatives and 27 other
switches, values and pairs; two failures): each test reproduces one, minimised; each failed on
the engine before its fix (written first as a strict xfail)."""

from __future__ import annotations

import numpy as np

from sim.catalogue.teams import random_teams
from tests._engine_kit import CATALOGUE, check_invariants, new_game_with

R = "rules.toml"
REVEAL_ROTATION_1 = ((R, "reveal_rotation = 7", "reveal_rotation = 1"),)


def _teams(seed):
    return random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))


def test_reveal_rotation_1_reveals_the_apocalypse_from_the_start():
    game = new_game_with(REVEAL_ROTATION_1, 0, 1, _teams(1))
    assert int(game.st.game.rotation) == 1  # the counter starts at 1
    assert int(game.st.game.revealed) == 1, "rotation 1 reached but the Apocalypse not revealed"
    check_invariants(game)  # the kit's own check: revealed exactly when a condition holds


PORTAL_IS_BOUNDARY = ((R, "portal_is_boundary = false", "portal_is_boundary = true"),)


def test_portal_is_boundary_keeps_line_of_sight_symmetric():
    from sim.board.generate import generate_board
    from sim.board.graph import compile_board
    from sim.board.sight import attack_costs
    from sim.engine.rules.live_movement import _sight_from
    from tests._engine_kit import catalogue_with

    cat = catalogue_with(PORTAL_IS_BOUNDARY)
    g = compile_board(generate_board(cat.tiles, cat.board_rules, 0), cat.tiles, cat.board_rules)
    piece, far, near = 792, 972, 936
    assert g.twin[piece] == far and g.twin[near] < 0 and g.tile_pos[near] == g.tile_pos[far]
    assert attack_costs(g, near, 12)[far] == 1  # the far piece is next to it
    assert attack_costs(g, piece, 12)[near] == 1  # from the piece: range 1
    # the game's own sight kernel agrees with the board kernel: range 2 back
    game = new_game_with(PORTAL_IS_BOUNDARY, 0, 1, _teams(1))
    back = _sight_from(game.st, game.S, np.int64(near), np.int64(12))[piece]
    assert attack_costs(g, near, 12)[piece] == 1 and back == 1, \
        f"range {piece}->{near} is 1, {near}->{piece} is {back}"
