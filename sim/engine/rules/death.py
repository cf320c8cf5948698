"""Damage, death and elimination.

Book: "Both Defeat and Kill refer to the Instance when one causes Entities Health Points to Reach
0. This Act causes them to Die and Removes them from the Game"; "The count of 7, counts
characters only. Minions, CPUs and assist characters that have died do not add to it"; "A team is
Eliminated once all of its characters are dead". Every death may reveal the Apocalypse or end the
game, so both are checked here.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.entities.special import _on_death_entities
from sim.engine.log.events import _log
from sim.engine.items.holding import _drop_items
from sim.engine.rules.reveal import _check_reveal
from sim.engine.entities.timed_states import _cease, _stop_stat_clocks
from sim.engine.rules.terrain import _fall
from sim.engine.rules.victory import _check_victory, _team_alive


@njit
def _kill(st, S, e, by, cause):
    ent = st.ent
    g = st.game
    if ent.alive[e] == 0:
        return
    ent.alive[e] = 0
    ent.health[e] = 0
    ent.done[e] = 1  # "dead entities never act"
    g.harm = 1
    _log(st, L.EV_DEATH, e, by, cause, ent.space[e], 0, 0)
    ent.shield[e] = 0
    _cease(st, e)  # "all effects of that character's abilities cease"
    _stop_stat_clocks(st, e)  # its own buffs "sit on them still" at a revive
    _drop_items(st, S, e)  # "their items drop exactly where they were standing"
    _on_death_entities(st, S, e)  # minions disappear, clones die with their original
    team = ent.team[e]
    if team >= 0 and ent.kind[e] <= L.K_SUMMONED:  # a character (not a minion, assist, ...)
        g.deaths += 1  # "counts characters only"
        if by >= 0:
            ent.kills[by] += 1  # "'Kill' Specifically refers to the Death of a Character"
        if not _team_alive(st, team):
            g.owed[team] = 0
            _log(st, L.EV_ELIMINATED, team, 0, 0, 0, 0, 0)
    _check_reveal(st, S)
    _check_victory(st, S, np.zeros(4, np.int64))


@njit
def _health_after(st, e, amount, cause):
    """The health ``e`` is left with once :func:`_harm` has dealt ``amount``: shield first, and
    nothing while invincible but the Apocalypse's own damage. What the damage events log, written
    before the hit so that they come before the death or fall it causes (a fall's damage is its
    own event). Why: they logged ``health - amount`` and so showed health a shield or
    invincibility had kept (found by fuzzing, stop 73: a stalemate "in which no entity lost
    health" after a logged loss)."""
    ent = st.ent
    if _invincible(ent, e, cause):
        return ent.health[e]
    return ent.health[e] - max(amount - ent.shield[e], 0)


@njit(inline="always")
def _invincible(ent, e, cause):
    return ent.buff[e] != 0 and ent.buff_stat[e] == L.STAT_INVINCIBLE and cause != L.BY_APOCALYPSE


@njit
def _harm(st, S, e, amount, by, cause):
    """Lose ``amount`` health; die at 0 ("Health is reduced by suffering damage"). Shield is
    lost first (house ruling: it is health beyond the maximum). "Invincibility is an effect that
    prevents an Entity from losing Health by any means ... still Vulnerable to ... the
    Apocalypse": only the Apocalypse's own damage reaches an invincible entity. Terrain:
    "Whenever damage is allocated to a fighter that is within ½" of the edge of a platform or
    climbing a ladder ... On a 1: The fighter falls" (``terrain._fall``); the fall's own damage
    is dealt by a second pass of the loop (it lands on ground, so it never falls again)."""
    ent = st.ent
    while amount > 0 and ent.alive[e] != 0:
        if _invincible(ent, e, cause):
            return
        if ent.shield[e] > 0:
            absorbed = min(amount, ent.shield[e])
            ent.shield[e] -= absorbed
            amount -= absorbed
            if amount == 0:
                return
        lost = min(amount, ent.health[e])  # the record counts health actually removed
        ent.taken[e] += lost
        if by >= 0:
            ent.dealt[by] += lost
        ent.health[e] -= amount
        st.game.harm = 1
        if ent.health[e] <= 0:
            _kill(st, S, e, by, cause)
            return
        if cause == L.BY_FALL:
            return
        amount = _fall(st, S, e)
        by = -1
        cause = L.BY_FALL
