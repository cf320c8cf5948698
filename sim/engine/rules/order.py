"""The order in which a team's characters take their turns: the team chooses it.

Book: "Every character has 1 action every turn"; "A player may choose to end their turn before
using all of their actions"; nothing fixes which character goes first, so the order is the
player's decision. House ruling (docs/rulings.md, "Order inside a team's turn"): characters
still act one at a time, each finishing before the next; the character the engine asks first is
the first in card order, and before it has done anything it may *hand the turn* to a teammate
that has not finished (an action of its own block, ``actions._hand_base``). A team has as many
hand-overs per turn as it has characters able to act, less one: enough to reach any order, and
a turn still ends. Unplaced characters go first and cannot hand over ("All five characters go
down at once, before anything else in that turn happens").
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.log.events import _log


@njit(inline="always")
def _team_first(g, team):
    """The first row of ``team``'s characters (fields.TEAM_END)."""
    return g.team_end[team - 1] if team > 0 else 0


@njit(inline="always")
def _team_row(g, team, i):
    """The ``i``-th row that may hold a member of ``team``, of :func:`_team_row_count`: its
    characters (rows ``TEAM_END[team - 1]`` to ``TEAM_END[team] - 1``, fields.py), then every
    spare row (a summoned card, a minion, a clone, an assist may be any team's). In row order,
    so a scan over them meets the team's members in the order a scan of every row does; the
    rows of other teams' characters and of the CPUs are not read."""
    lo = _team_first(g, team)
    n = g.team_end[team] - lo
    return lo + i if i < n else g.spare + (i - n)


@njit(inline="always")
def _team_row_count(g, team, m):
    """How many rows :func:`_team_row` lists for ``team`` in a game of ``m`` rows."""
    return g.team_end[team] - _team_first(g, team) + m - g.spare


@njit(inline="always")
def _may_act(ent, e, team):
    """Whether ``e`` is a member of ``team`` that still has a turn to take this team turn."""
    return ent.team[e] == team and ent.alive[e] != 0 and ent.done[e] == 0


@njit
def _begin_order(st, S, team):
    """A fresh team turn: nobody has begun, no hand-over made, one fewer than those able to act
    (none with rules.toml turn_order = "card": the team acts in card order)."""
    ent = st.ent
    g = st.game
    able = 0
    for i in range(_team_row_count(g, team, ent.shape[0])):
        e = _team_row(g, team, i)
        if ent.team[e] == team:
            ent.begun[e] = 0
            if _may_act(ent, e, team):
                able += 1
    st.game.next_up = 0
    st.game.hands_left = max(able - 1, 0) if S.ip[L.P_HANDOVERS] != 0 else 0


@njit(inline="always")
def _next_actor(st, team):
    """Unplaced characters first, then the teammate handed the turn, then card order. One
    pass over the rows finds both the first unplaced member and the first that may act (an
    unplaced member would have been returned before any other could be)."""
    ent = st.ent
    g = st.game
    first = -1
    for i in range(_team_row_count(g, team, ent.shape[0])):
        e = _team_row(g, team, i)
        if ent.team[e] == team and ent.alive[e] != 0:
            if ent.space[e] < 0:
                return e
            if first < 0 and _may_act(ent, e, team):
                first = e
    up = st.game.next_up - 1
    if up >= 0 and _may_act(ent, up, team):
        return up
    return first


@njit
def _legal_handover(st, c, mask, base):
    """Mark ``base + e`` for each teammate ``c`` may hand the turn to; how many were marked."""
    ent = st.ent
    if st.game.hands_left <= 0 or ent.begun[c] != 0 or ent.space[c] < 0:
        return 0
    team = ent.team[c]
    g = st.game
    count = 0
    for i in range(_team_row_count(g, team, ent.shape[0])):
        e = _team_row(g, team, i)
        if e != c and ent.space[e] >= 0 and _may_act(ent, e, team):
            mask[base + e] = True
            count += 1
    return count


@njit
def _hand_over(st, c, e):
    """``c`` gives the turn to ``e``; ``c`` keeps its own turn for later."""
    st.game.next_up = e + 1
    st.game.hands_left -= 1
    _log(st, L.EV_HAND, c, e, st.game.hands_left, 0, 0, 0)
