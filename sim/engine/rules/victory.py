"""Victory, stalemate, the rotation cap and simultaneous elimination.

Book: "The ultimate goal of Board Wars is to be the last team standing. A team is Eliminated once
all of its characters are dead"; "you win by being the only team with characters left alive and
on the board"; stalemate: "the tie will be broken by determining which team has the most total
health remaining". House rulings (rules.toml [game]): ``stalemate_rotations``, ``rotation_cap``,
``simultaneous_tiebreak``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.log.events import _log


@njit(inline="always")
def _team_alive(st, team):
    """Whether a character of ``team`` lives: "An assist character does not keep you in the game";
    minions are not characters either (``fields.K_SUMMONED``: the characters' kinds)."""
    ent = st.ent
    for e in range(ent.shape[0]):
        if ent.team[e] == team and ent.alive[e] != 0 and ent.kind[e] <= L.K_SUMMONED:
            return True
    return False


@njit
def _team_health(st, out):
    """``out[t]``: total health of team t's living characters (the stalemate score)."""
    out[:] = 0
    ent = st.ent
    for e in range(ent.shape[0]):
        t = ent.team[e]
        if t >= 0 and ent.alive[e] != 0 and ent.kind[e] <= L.K_SUMMONED:  # characters
            out[t] += ent.health[e]
    return out


@njit
def _finish(st, winner, reason):
    g = st.game
    if g.over != 0:
        return
    g.over = 1
    g.winner = winner
    g.reason = reason
    g.cur = -1
    _log(st, L.EV_END, winner, reason, 0, 0, 0, 0)


@njit
def _best_health(health, eligible):
    """The eligible team with the most health; -1 when none or tied ("highest collective health")."""
    best = -1
    top = -1
    tied = False
    for t in range(health.shape[0]):
        if not eligible[t]:
            continue
        if health[t] > top:
            top = health[t]
            best = t
            tied = False
        elif health[t] == top:
            tied = True
    return -1 if tied else best


@njit
def _finish_by_health(st, reason):
    """Stalemate or rotation cap: the standing team with the highest total health wins."""
    health = _team_health(st, np.zeros(4, np.int64))
    eligible = health > 0
    _finish(st, _best_health(health, eligible), reason)


@njit
def _check_victory(st, S, before):
    """End the game when at most one team stands. ``before`` is each team's health just before
    the current event (used only if every standing team fell in it at once)."""
    g = st.game
    if g.over != 0 or g.defer != 0:
        return
    alive = 0
    last = -1
    for t in range(4):
        if _team_alive(st, t):
            alive += 1
            last = t
    if alive >= 2:
        return
    if alive == 1:
        _finish(st, last, L.LAST_STANDING)
        return
    winner = -1
    if S.ip[L.P_TIEBREAK] != 0:  # house ruling: health just before the event decides
        winner = _best_health(before, before > 0)
    _finish(st, winner, L.SIMULTANEOUS)
