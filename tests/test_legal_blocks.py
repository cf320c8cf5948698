"""The game loop reuses one mask and clears only the blocks the last listing set
(``legal._clear_listed``, then ``legal._legal_listing``): an oracle test against ``_legal`` on a
freshly zeroed mask at every decision of whole games, greedy and random players mixed so that
every block is set somewhere (moves and placements, abilities on spaces, items, interactables,
water-rolls).

Rule checked: the legal actions of the module doc of ``sim/engine/rules/legal.py`` ("A character
is not required to use all of their speed", line of sight and range for attacks, ...): whatever
the reused mask held before, the listing is the one a clean mask gives.
"""

from __future__ import annotations

import numpy as np

from sim.ai.policy import by_name
from sim.engine.rules.legal import (SET_ALL, SET_INTERACTS, SET_ITEMS, SET_MOVES, SET_ON_SPACES,
                                    SET_WATER, _clear_listed, _legal, _legal_listing)
from tests._engine_kit import new_game

GAMES = [(board, seed) for board in (3, 7, 21) for seed in (1, 2, 4)]


def test_a_reused_mask_lists_what_a_clean_one_lists_at_every_decision():
    greedy, rand = by_name("greedy"), by_name("random")
    seen = 0
    decisions = 0
    for board, seed in GAMES:
        game = new_game(board, seed)
        players = [greedy, rand, rand, greedy] if seed % 2 else [rand, greedy, greedy, rand]
        mask = np.ones(game.n_actions, np.bool_)  # stale entries everywhere to begin with
        blocks = SET_ALL
        while not game.terminal:
            _clear_listed(game.st, mask, blocks)
            count, blocks = _legal_listing(game.st, game.S, mask)
            clean = np.zeros(game.n_actions, np.bool_)
            assert count == _legal(game.st, game.S, clean)
            assert np.array_equal(mask, clean), f"board {board} seed {seed}: stale entries"
            seen |= blocks
            decisions += 1
            team = int(game.st.ent.team[game.current])
            game.apply(players[team].choose(game))
    assert decisions > 2_000
    # every block was set (and so cleared afterwards) in these games: the test can fail
    for block in (SET_MOVES, SET_ON_SPACES, SET_ITEMS, SET_INTERACTS, SET_WATER):
        assert seen & block, f"block {block} never set"
