"""Greedy's position score (``position_values._position_scores``) against a slow reference written
from its definition, at every decision of whole greedy games: the kernel reads the enemies'
coordinates padded to whole vectors (``_threats`` ends them with ``FAR_AWAY``, decision.py
``THREAT_LANES``) and the CPUs filtered to those near the spaces (``_cpus_near``); the reference
scans the entity rows itself, space by space.

No rule is checked here: this is the AI's own arithmetic (module doc of
``sim/ai/position_values.py``: the position's base, less ``greedy_cpu_danger`` per CPU that can
reach the space or whose home tile it is, less ``greedy_approach`` per step still to close to
the nearest enemy beyond the character's range).
"""

from __future__ import annotations

import numpy as np

from sim.ai.play import _choose
from sim.ai.position_values import _pos_base, _position_scores, _threats
from sim.board.geometry import SPAN
from sim.combat.star import BASE
from sim.engine.rules.legal import _legal
from sim.engine.rules.turn import _apply
from sim.engine.state import fields as L
from sim.engine.state.decision import THREAT_LANES
from tests._engine_kit import EXAMPLE_TEAMS, new_game, new_game_with

# no attack on an enemy sharing the attacker's space (rules.toml [board] attack_own_space): the
# approach term also prices a space nearer than 1
OWN_SPACE_OFF = (("rules.toml", "attack_own_space = true", "attack_own_space = false"),)
GAMES = [(3, 41, ()), (8, 42, ()), (21, 43, ()), (5, 44, OWN_SPACE_OFF)]


def _reference(st, S, c, spaces, base):
    """The score of each of ``spaces`` for ``c``, from the entity rows (plain Python)."""
    ent = st.ent
    fp = S.fp
    enemies = [int(ent.space[e]) for e in range(ent.shape[0])
               if ent.alive[e] and ent.space[e] >= 0 and not ent.is_cpu[e]
               and ent.team[e] >= 0 and ent.team[e] != ent.team[c]]
    cpus = [(int(ent.space[e]), max(int(ent.speed[e]), 0) + max(int(ent.range[e]), 1),
             int(ent.home[e])) for e in range(ent.shape[0])
            if ent.alive[e] and ent.space[e] >= 0 and ent.is_cpu[e] and ent.atk[e, BASE] > 0]
    out = []
    for s in spaces:
        r, col, p = int(s) // SPAN, int(s) % SPAN, int(st.tile_pos[s])
        score = float(base[p]) if p >= 0 else 0.0
        for t, reach, home in cpus:
            if p == home or max(abs(r - t // SPAN), abs(col - t % SPAN)) <= reach:
                score -= fp[L.W_CPU_DANGER]
        if enemies:
            near = min(max(abs(r - t // SPAN), abs(col - t % SPAN)) for t in enemies)
            closest = int(S.ip[L.P_CLOSEST])  # attack_own_space = false: 1
            score -= fp[L.W_APPROACH] * (max(near - int(ent.range[c]), 0)
                                         + max(closest - near, 0))
        out.append(score)
    return np.array(out)


def test_position_scores_match_the_definition_at_every_decision():
    checked = padded = 0
    for board, seed, edits in GAMES:
        game = (new_game_with(edits, board, seed, EXAMPLE_TEAMS.cards) if edits
                else new_game(board, seed, log=False))
        st, S = game.st, game.S
        mask = np.zeros(game.n_actions, np.bool_)
        while not game.terminal:
            count = _legal(st, S, mask)
            c = int(st.game.cur)
            if st.ent.space[c] >= 0 and st.decision.n_reached > 0:
                spaces = np.asarray(st.decision.reached[:st.decision.n_reached]).copy()
                enemy_r, enemy_c, cpu = _threats(st, S, np.int64(c))
                assert enemy_r.shape[0] % THREAT_LANES == 0
                base = _pos_base(st, S, np.int64(c)).copy()
                got = _position_scores(st.ent, S.fp, st.tile_pos, base, np.int64(c), spaces,
                                       mask, False, enemy_r, enemy_c, cpu, S.ip[L.P_CLOSEST],
                                       np.empty(spaces.shape[0]))
                want = _reference(st, S, c, spaces, base)
                assert np.array_equal(got, want), (board, seed, edits, int(st.game.decisions))
                checked += 1
                padded += enemy_r.shape[0] > int(np.sum(np.asarray(enemy_r) > -SPAN))
            _apply(st, S, np.int64(_choose(st, S, mask, count, L.GREEDY, 0)))
    # enough decisions, and padding in many of them (the test can fail)
    assert checked > 1_000 and padded > checked // 10, (checked, padded)


def _linked_reference(tile_pos, twin, p):
    """The tile a portal in tile ``p`` links to, from a scan of every space in id order (-1:
    none); a space without a twin holds no portal, so the scan looks only at those with one."""
    for s in np.flatnonzero(twin >= 0):
        far = twin[s]
        if far >= 0 and tile_pos[s] == p and tile_pos[far] >= 0 and tile_pos[far] != p:
            return int(tile_pos[far])
    return -1


def test_a_tiles_portal_is_found_in_its_own_block_at_every_decision():
    """``live_movement._linked_tile`` looks for the portal of tile ``p`` among the 25 spaces of
    ``p``'s block: the same answer as a scan of every space, because a space of a tile lies in
    its block (``tile_pos[s]`` is -1 or ``s``'s own grid position, through swaps, destruction
    and the reveal). R4:S5 "The two Portal components link the tiles they sit in"."""
    from sim.engine.rules.live_movement import _linked_tile
    from sim.engine.tiles.live_board import _position_of

    linked = checked = 0
    spaces = None
    for board in range(12):
        game = new_game(board, board + 1, log=False)
        st, S = game.st, game.S
        if spaces is None:
            spaces = np.arange(st.tile_pos.shape[0])
            own = np.array([_position_of(s) for s in spaces])
        mask = np.zeros(game.n_actions, np.bool_)
        while not game.terminal:
            count = _legal(st, S, mask)
            if st.game.decisions % 7 == 0:
                tile_pos, twin = np.asarray(st.tile_pos), np.asarray(st.twin)
                assert np.all((tile_pos == -1) | (tile_pos == own)), board
                for p in range(-1, 49):
                    want = _linked_reference(tile_pos, twin, p)
                    assert _linked_tile(st, np.int64(p)) == want, (board, p)
                    linked += want >= 0
                checked += 1
            _apply(st, S, np.int64(_choose(st, S, mask, count, L.GREEDY, 0)))
    assert checked > 500 and linked > 0, (checked, linked)
