"""Greedy's shortcut when ending the turn (``greedy._walk_may_win``): when no reachable
position's base score is above staying's score, greedy skips scoring the walk. That is only the
same choice if the bound holds: then no legal move scores above staying. The oracle is the full
walk, scored as before the shortcut, at every decision of greedy games.

No rule is checked here: this is the AI's own arithmetic (docs/performance.md, stop 39).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim._jit import njit
from sim.ai.greedy import _walk_may_win
from sim.ai.position_values import _pos_base, _position_scores, _threats
from sim.ai.play import _choose
from sim.engine.rules.actions import _move_base
from sim.engine.rules.legal import _legal
from sim.engine.rules.turn import _apply
from sim.engine.state import fields as L
from tests._engine_kit import new_game


@njit
def _walk_check(st, S, mask):
    """(the bound says a walk may score above staying, and above just below the best walk's
    score; the best legal walk's full score; staying's score). The best is -inf when no move is
    legal."""
    ent = st.ent
    c = st.game.cur
    enemy_r, enemy_c, cpu = _threats(st, S, c)
    bonus = _pos_base(st, S, c)
    spaces = st.decision.reached[:st.decision.n_reached]
    move = _move_base(st.kind.shape[0], ent.shape[0])
    full = _position_scores(ent, S.fp, st.tile_pos, bonus, c, spaces, mask, False, enemy_r,
                            enemy_c, cpu, S.ip[L.P_CLOSEST], np.empty(spaces.shape[0]))
    here = full[0]
    best = -np.inf
    for i in range(spaces.shape[0]):
        if mask[move + spaces[i]]:
            best = max(best, full[i])
    may = _walk_may_win(bonus, st.tile_pos, spaces, mask, move, here + 1e-9)
    below_best = _walk_may_win(bonus, st.tile_pos, spaces, mask, move,
                               best - 1e-9 * abs(best) - 1e-12)
    return may, below_best, best, here


@pytest.mark.parametrize("board_seed,seed", [(3, 41), (8, 42), (21, 43)])
def test_greedy_skips_the_walk_only_when_no_move_scores_above_staying(board_seed, seed):
    game = new_game(board_seed, seed, log=False)
    st, S = game.st, game.S
    assert S.fp[L.W_CPU_DANGER] >= 0 and S.fp[L.W_APPROACH] >= 0  # the bound's premise
    mask = np.zeros(game.n_actions, np.bool_)
    skipped = checked = 0
    while not game.terminal:
        count = _legal(st, S, mask)
        c = int(st.game.cur)
        if (st.ent.space[c] >= 0 and st.ent.submerged[c] == 0 and st.decision.n_reached > 0
                and st.decision.reached[0] == st.ent.space[c]):
            may, below_best, best, here = _walk_check(st, S, mask)
            checked += 1
            if not may:
                skipped += 1
                assert best <= here + 1e-9, (game.st.game.decisions, best, here)
            # a bound on every threshold: a walk scores above one just below the best score
            assert below_best or best == -np.inf, (game.st.game.decisions, best)
        _apply(st, S, np.int64(_choose(st, S, mask, count, L.GREEDY, 0)))
    # the shortcut is taken often enough for the check to mean something
    assert checked > 200 and skipped > checked // 10, (checked, skipped)
