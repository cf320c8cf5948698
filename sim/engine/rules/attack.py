"""One attack in a game: the star point, the dice, the damage, and a CPU's retaliation.

Book: "The attack star is what tells you which of your attack stats to use"; "Each character draws
homefield advantage from their own tile"; "If the roll is more than your defense stat plus 2, that
attack is considered a Hit"; "A CPU that has an attack listed always retaliates. If it survives
an attack made against it, it immediately attacks back at the character who attacked it";
"Retaliation ignores positioning entirely". Dice come from :func:`sim.combat.sampler.resolve_attack`
(the same kernel the combat report validates against the exact tables).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.combat.sampler import resolve_attack
from sim.combat.star import BASE, _star_colour

from sim.engine.state import fields as L
from sim.engine.rules.death import _harm, _health_after
from sim.engine.log.events import _log
from sim.engine.rules.live_movement import _homefield, _sight_from


@njit(inline="always")
def _attack_star(st, S, a, d):
    """The colour ``a`` attacks ``d`` with (CPUs have a single attack: base)."""
    ent = st.ent
    if ent.is_cpu[a] != 0:
        return BASE
    # "Blue is used while de-buffed. Green is used while under a positive effect"
    return _star_colour(ent.health[a], ent.shield[a], ent.max_health[a],
                        ent.debuff[a] != 0, ent.buff[a] != 0,
                        _homefield(st, S, a), _homefield(st, S, d), S.fp[L.F_RED],
                        S.ip[L.P_RED_SHIELD] != 0, S.ip[L.P_CANCEL_BASE] != 0)


@njit(inline="always")
def _threshold(S, defense):
    """Defense dice at or below this miss: "defense stat plus 2"; "maximum defense ... is 9"."""
    return min(max(defense, 0), S.ip[L.P_MAX_DEFENSE]) + S.ip[L.P_MARGIN]


@njit(inline="always")
def _advantage(ent, e):
    """+1 advantage, -1 disadvantage, 0 neither (both cancel): "Advantage allows an entity to
    perform any random act twice, and choose the preferable outcome" (buff / de-buff stat 4)."""
    up = ent.buff[e] != 0 and ent.buff_stat[e] == L.STAT_ADVANTAGE
    down = ent.debuff[e] != 0 and ent.debuff_stat[e] == L.STAT_ADVANTAGE
    return int(up) - int(down)


@njit
def _throw(st, S, a, d, kind, cause, extra, w):
    """``a`` throws the attack of row ``w`` at ``d``: ``w``'s star point, attacks (+ ``extra``),
    dice tier and advantage; ``a`` is who attacks (logged, credited with the damage and the
    kill). ``w`` is ``a`` itself, or the vehicle ``a`` pilots when it attacks through it ("can
    have 1 action used through it")."""
    ent = st.ent
    colour = _attack_star(st, S, w, d)
    n = ent.atk[w, colour] + extra
    tier = ent.tier[w, colour]
    thr = _threshold(S, ent.defense[d])
    _log(st, kind, a, d, colour, n, tier, thr)
    faces = S.tier_faces[tier - 1]
    s0, s1, s2, s3 = st.rng[0], st.rng[1], st.rng[2], st.rng[3]
    dmg, hits, s0, s1, s2, s3 = resolve_attack(
        n, thr, faces, S.tier_reject[tier - 1], _advantage(ent, w), _advantage(ent, d),
        S.ip[L.P_PER_ATTACK] != 0,
        S.ip[L.P_DEFENSE_DIE], np.uint64(S.ip[L.P_DEFENSE_REJECT]), s0, s1, s2, s3)
    st.rng[0], st.rng[1], st.rng[2], st.rng[3] = s0, s1, s2, s3
    _log(st, L.EV_ROLL, a, d, n, thr, hits, 0)
    _log(st, L.EV_DAMAGE, a, d, hits, faces, dmg, _health_after(st, d, dmg, cause))
    _harm(st, S, d, dmg, a, cause)


@njit
def _strike(st, S, a, d, extra, w):
    """``a`` attacks ``d`` with ``extra`` attacks beyond its star point's (a strike ability),
    throwing the attack of row ``w`` (``a``, or the vehicle it attacks through); spending the
    action is the caller's job. A surviving CPU with an attack retaliates at once at ``a`` ("the
    character who attacked it"), wherever ``a`` stands, at no cost — unless it is frozen
    ("anything frozen can do nothing at all") or ``a`` is invisible ("cannot be targeted by a
    direct attack")."""
    _throw(st, S, a, d, L.EV_ATTACK, L.BY_ATTACK, extra, w)
    ent = st.ent
    if (st.game.over == 0 and ent.is_cpu[d] != 0 and ent.alive[d] != 0
            and ent.atk[d, BASE] > 0 and ent.alive[a] != 0 and ent.is_cpu[a] == 0
            and ent.frozen[d] == 0 and ent.invisible[a] == 0):
        _throw(st, S, d, a, L.EV_RETALIATE, L.BY_RETALIATION, 0, d)


@njit
def _vehicle_attack(st, S, c, d):
    """``c`` attacks ``d`` through the vehicle it rides: "A vehicle ... can have 1 action used
    through it, each turn. Using that action spends both the pilot's action and the vehicle's
    action for the turn" (house ruling: the action is the vehicle's weapon, its own attack star;
    ``c`` is the attacker, credited and retaliated against: docs/rulings.md)."""
    ent = st.ent
    v = ent.riding[c] - 1
    ent.acted[c] = 1
    ent.acted[v] = 1
    _log(st, L.EV_WEAPON, c, v, d, 0, 0, 0)
    _strike(st, S, c, d, 0, v)


@njit(inline="always")
def _may_join(ent, j, team):
    """Whether ``j`` may join a group attack its team declares now: a character of ``team``
    ("Multiple of your characters") on the board whose turn is still to come or under way, with
    its action unspent, neither frozen nor submerged (they "cannot spend their action")."""
    return (ent.team[j] == team and ent.kind[j] <= L.K_SUMMONED and ent.alive[j] != 0
            and ent.space[j] >= 0 and ent.done[j] == 0 and ent.acted[j] == 0
            and ent.frozen[j] == 0 and ent.submerged[j] == 0)


@njit
def _group_ready(ent, c):
    """Whether a teammate of ``c`` could join a group attack now (the action is offered only
    then; who can reach the target is searched when it is declared: ``_group_attack``)."""
    team = ent.team[c]
    for j in range(ent.shape[0]):
        if j != c and _may_join(ent, j, team):
            return True
    return False


@njit(inline="always")
def _reaches(st, S, a, s):
    """Whether ``a`` could attack an entity on space ``s`` from where it stands: "within both the
    range and the line of sight of the attacker", and no nearer than an attack may be
    (``attack_own_space``, ``ip[P_CLOSEST]``)."""
    reach = st.ent.range[a]
    if reach < 0:
        return False
    cost = _sight_from(st, S, st.ent.space[a], reach)[s]
    return S.ip[L.P_CLOSEST] <= cost <= reach


@njit
def _group_attack(st, S, c, d):
    """``c`` declares a Group Attack on ``d``: "Multiple of your characters can choose to attack
    the same target at once". The group is ``c`` and every teammate that may join
    (:func:`_may_join`) and has ``d`` within its range and line of sight from where it stands;
    they resolve one at a time, ``c`` first, then in card order, each throw rolled in full ("Once
    an attack has started, there is no going back"). An attacker whose target is already dead
    keeps its action under ``[group_attack] order = "sequential"`` and spends it under
    ``"declared"`` (rules.toml, ``ip[P_GROUP_DECLARED]``; docs/rulings.md); so does one whose
    target an earlier throw has moved (a fall, with the terrain draft) out of its range or line
    of sight: each throw is an attack, and "the defender must be within both the range and the
    line of sight of the attacker" (house ruling; found by fuzzing, stop 72)."""
    ent = st.ent
    team = ent.team[c]
    at = ent.space[d]
    members = np.empty(ent.shape[0], np.int64)
    members[0] = c
    k = 1
    for j in range(ent.shape[0]):
        if j != c and _may_join(ent, j, team) and _reaches(st, S, j, at):
            members[k] = j
            k += 1
    declared = S.ip[L.P_GROUP_DECLARED] != 0
    _log(st, L.EV_GROUP, c, d, k, 1 if declared else 0, 0, 0)
    for i in range(k):
        a = members[i]
        if st.game.over != 0:
            return
        if ent.alive[a] == 0:  # a CPU's retaliation killed it before its throw
            continue
        dead = ent.alive[d] == 0
        if dead or (i > 0 and not _reaches(st, S, a, ent.space[d])):
            if declared:
                ent.acted[a] = 1
            _log(st, L.EV_GROUP_LATE, a, d, 1 if declared else 0, 1 if dead else 0, 0, 0)
            continue
        ent.acted[a] = 1  # "You attack an entity by spending the attacking character's action"
        _strike(st, S, a, d, 0, a)
