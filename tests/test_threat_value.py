"""The look-ahead's estimate of the enemies' answer (``sim.ai.threat_value``) against a slow
reference built on the exact combat distribution (``sim.combat.exact.damage_distribution``), on
positions of real games.

Rules the estimate follows: an attack needs the defender "within both the range and the line of
sight of the attacker" (bounded here by speed + range in Chebyshev spaces, module doc); "an
invisible entity cannot be targeted by a direct attack"; "anything frozen can do nothing at
all"; damage beyond the target's health (and shield) is not lost health.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.policy import by_name
from sim.ai.threat_value import _expected_loss, _value
from sim.board.geometry import SPAN
from sim.combat.exact import damage_distribution
from sim.engine.entities.special import _move_speed
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.victory import _team_health
from tests._engine_kit import CATALOGUE, new_game, play_out


def _reference_loss(st, S, team) -> float:
    ent = st.ent
    loss = 0.0
    for e in range(ent.shape[0]):
        s = int(ent.space[e])
        if (not ent.alive[e] or s < 0 or ent.team[e] == team or ent.team[e] < 0
                or ent.is_cpu[e] or ent.frozen[e]):
            continue
        reach = max(int(_move_speed(ent, e)), 0) + max(int(ent.range[e]), 1)
        best = 0.0
        for d in range(ent.shape[0]):
            t = int(ent.space[d])
            if ent.team[d] != team or not ent.alive[d] or t < 0 or ent.invisible[d]:
                continue
            if max(abs(t // SPAN - s // SPAN), abs(t % SPAN - s % SPAN)) > reach:
                continue
            k = int(_attack_star(st, S, e, d))
            dist = damage_distribution(int(ent.atk[e, k]), int(ent.defense[d]),
                                       int(ent.tier[e, k]), CATALOGUE.rules)
            health = int(ent.health[d] + ent.shield[d])
            pmf = np.asarray(dist.pmf)
            best = max(best, float(np.dot(pmf, np.minimum(np.arange(pmf.size), health))))
        loss += best
    return loss


@pytest.mark.parametrize("board_seed,seed", [(5, 21), (12, 22)])
def test_expected_loss_matches_the_exact_combat_reference(board_seed, seed):
    """Every 9th decision of a greedy game, for every team: the kernel's expected loss equals
    the reference's (the same sums in another order: relative 1e-9), and the value is the
    team's share of the health left after it."""
    game = new_game(board_seed, seed, log=False)
    greedy = by_name("greedy")
    checked = threatened = 0
    decision = 0
    while not game.terminal:
        if decision % 9 == 0:
            st, S = game.st, game.S
            health = _team_health(st, np.zeros(4, np.int64))
            for team in range(4):
                want = _reference_loss(st, S, team)
                got = _expected_loss(st, S, team)
                assert got == pytest.approx(want, rel=1e-9, abs=1e-12), (decision, team)
                total, own = float(health.sum()), float(health[team])
                kept = max(own - want, 0.0)
                value = _value(st, S, team, np.zeros(4, np.int64), True)
                assert value == pytest.approx(kept / (total - (own - kept)), rel=1e-9)
                checked += 1
                threatened += want > 0
        game.apply(greedy.choose(game))
        decision += 1
    assert checked > 100 and threatened > checked // 4  # the estimate was exercised


def test_reach_invisibility_and_freezing_decide_who_threatens():
    """One enemy alone on the board: out of reach it costs nothing (the value is then the plain
    health share), next to a character it costs that character's expected loss, frozen ("can do
    nothing at all") nothing, and against invisible characters ("cannot be targeted by a direct
    attack") nothing."""
    game = new_game(7, 31, log=False)
    greedy = by_name("greedy")
    while not game.terminal and np.count_nonzero(game.st.ent.space[:20] >= 0) < 20:
        game.apply(greedy.choose(game))
    st, S = game.st, game.S
    ent = st.ent
    mine = [d for d in range(20) if ent.team[d] == 0]
    enemy = next(e for e in range(20) if ent.team[e] == 1 and ent.atk[e].max() > 0)
    for e in range(ent.shape[0]):  # only team 0 and the one enemy stay on the board
        if e != enemy and ent.team[e] != 0:
            ent.space[e] = -1
    ent.frozen[enemy] = 0
    ent.space[enemy] = 0  # a corner, far from the spawned characters
    assert min(max(abs(ent.space[d] // SPAN), abs(ent.space[d] % SPAN)) for d in mine) > (
        _move_speed(ent, enemy) + max(ent.range[enemy], 1))
    assert _expected_loss(st, S, 0) == 0.0
    health = _team_health(st, np.zeros(4, np.int64))
    assert _value(st, S, 0, np.zeros(4, np.int64), True) == pytest.approx(
        health[0] / health.sum())
    target = int(ent.space[next(d for d in mine if not ent.invisible[d])])  # one it can target
    ent.space[enemy] = target + 1 if target % SPAN < SPAN - 1 else target - 1
    near = _expected_loss(st, S, 0)
    assert near > 0.0 and near == pytest.approx(_reference_loss(st, S, 0), rel=1e-9)
    ent.frozen[enemy] = 1
    assert _expected_loss(st, S, 0) == 0.0
    ent.frozen[enemy] = 0
    for d in mine:
        ent.invisible[d] = 1
    assert _expected_loss(st, S, 0) == 0.0


def test_a_play_out_below_budget_32_ends_with_the_movers_turn():
    """``_horizon`` 0 (budgets below 32): the play-out plays the mover's remaining actions and
    stops when another character is to decide (or the game ended); one of a whole rotation on
    the same dice goes on past that point."""
    from sim.ai.lookahead import _horizon

    assert _horizon(16, False) == 0 and _horizon(16, True) == 4 and _horizon(32, False) == 8
    game = new_game(9, 41, log=False)
    greedy = by_name("greedy")
    scratch = np.zeros(game.n_actions, np.bool_)
    played = longer = 0
    while not game.terminal and played < 60:
        mover = int(game.current)
        acts = np.flatnonzero(game.legal_mask())
        if acts.size > 1:
            for a in acts[:: max(1, acts.size // 3)][:3]:
                short, full = np.zeros(2, np.int64), np.zeros(2, np.int64)
                sim = play_out(game.st, game.S, scratch, a, played, 0, short)
                play_out(game.st, game.S, scratch, a, played, 4, full)
                assert sim.game.over != 0 or sim.game.cur != mover
                assert short[1] <= full[1]
                longer += short[1] < full[1]
                played += 1
        game.apply(greedy.choose(game))
    assert played >= 60 and longer > played // 2
