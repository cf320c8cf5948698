"""The turn's scans over a team's members read only the rows that may hold one
(``order._team_row``: the team's characters, ``fields.TEAM_END``, then the spare rows): at every
decision of whole games with summoned cards, minions, clones, assists and vehicles in play, every
row of the team is among them, in row order, so the scans meet the members a scan of every row
meets, in the same order.

Rule checked: "Every rotation, each team gets a Turn" and "Every character has 1 action every
turn" (turn.py, order.py): who acts next and who may be handed the turn are found among the
team's own rows.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.ai.policy import by_name
from sim.engine.rules.order import _team_row, _team_row_count
from tests._engine_kit import new_game


@njit
def _listed(st, team):
    g = st.game
    n = _team_row_count(g, team, st.ent.shape[0])
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = _team_row(g, team, i)
    return out


def test_a_teams_rows_hold_every_member_in_row_order_at_every_decision():
    greedy = by_name("greedy")
    checked = spare_members = 0
    for board, seed in [(b, b + 5) for b in range(10)]:
        game = new_game(board, seed, log=False)
        st = game.st
        while not game.terminal:
            team_of = np.asarray(st.ent.team)
            for t in range(4):
                rows = _listed(st, np.int64(t))
                assert np.all(np.diff(rows) > 0), (board, t)  # row order, each row once
                members = np.flatnonzero(team_of == t)
                assert np.isin(members, rows).all(), (board, t, members, rows)
                spare_members += int(np.sum(members >= st.game.spare))
            checked += 1
            game.apply(greedy.choose(game))
    # summoned cards, minions, clones or assists of a team were among the spare rows
    assert checked > 2_000 and spare_members > 0, (checked, spare_members)
