"""Greedy's values of an attack and of an ability use, in one unit (health).

Attacks are scored by expected damage actually dealt (E[min(damage, health)], shield included)
and the chance to kill, from the exact combat tables, minus the expected retaliation of a CPU
that survives. Abilities use the same expected-value logic: greedy compares an ability with the attacks it could make
instead, so a strike is scored as the attack it is (with its extra dice), tile-wide damage as the
health it removes and the kills it makes (exact: flat damage is not rolled), a heal by the health
restored, a revive as a kill undone plus the health returned, a freeze by the expected attack the
frozen opponent loses per turn. Effects whose worth is not health now (buff, de-buff,
invisibility) are worth ``greedy_effect`` per stat point per turn they last (rules.toml). A
state the target already holds is worth nothing (it would only be replaced). Advantage is not in
the kill tables (greedy ignores it when scoring attacks).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.engine.state import fields as L
from sim.engine.rules.actions import _ability_space_base
from sim.engine.rules.attack import _attack_star, _threshold
from sim.engine.rules.live_movement import _in_tiles, _linked_tile

from .entity_values import _target_value


@njit(inline="always")
def _kill_table(S, n, p, tier, health):
    """(P(damage >= health), E[min(damage, health)]) of ``n`` attacks hitting with chance ``p``."""
    tail = S.tail
    ctail = S.ctail
    hmax = tail.shape[1] - 1
    h = min(max(health, 0), hmax)
    n = min(n, tail.shape[2] - 1)
    q = 1.0 - p
    prob = q ** n  # P(k = 0 hits)
    pk = 0.0
    em = 0.0
    for k in range(n + 1):
        if k > 0:
            if q == 0.0:
                prob = 1.0 if k == n else 0.0
            else:
                prob = prob * (n - k + 1) / k * p / q
        pk += prob * tail[tier - 1, h, k]
        em += prob * ctail[tier - 1, h, k]
    return pk, em


@njit(inline="always")
def _p_hit(S, threshold):
    die = S.ip[L.P_DEFENSE_DIE]
    return max(die - threshold, 0) / die


@njit(inline="always")
def _attack_score(st, S, c, e, extra, w):
    """An attack of ``c`` on ``e`` with ``extra`` attacks beyond its star point's (a strike),
    thrown with row ``w``'s attack (``c``'s own, or the weapon of the vehicle it rides); a CPU
    retaliates at ``c`` (attack._strike)."""
    ent = st.ent
    fp = S.fp
    col = _attack_star(st, S, w, e)
    p = _p_hit(S, _threshold(S, ent[e, L.DEFENSE]))
    pk, em = _kill_table(S, ent[w, L.ATK + col] + extra, p, ent[w, L.TIER + col],
                         ent[e, L.HEALTH] + ent[e, L.SHIELD])
    value = _target_value(ent[e, L.KIND], ent[e, L.PILOT], fp[L.W_CPU_VALUE])
    score = value * (fp[L.W_DAMAGE] * em + fp[L.W_KILL] * pk)
    if ent[e, L.IS_CPU] != 0 and ent[e, L.ATK] > 0:  # a CPU that survives strikes back
        rp = _p_hit(S, _threshold(S, ent[c, L.DEFENSE]))
        rk, rem = _kill_table(S, ent[e, L.ATK], rp, ent[e, L.TIER], ent[c, L.HEALTH])
        score -= (1.0 - pk) * (fp[L.W_RETALIATION] * rem + fp[L.W_KILL] * rk)
    return score


@njit
def _ability_score(st, S, c, e):
    """The value of ``c`` using its ability on entity ``e`` (legal: ``_legal`` said so)."""
    ent = st.ent
    fp = S.fp
    op = ent[c, L.AB_OP]
    amount = ent[c, L.AB_AMOUNT]
    duration = ent[c, L.AB_DURATION]
    if op == L.OP_STRIKE:
        return _attack_score(st, S, c, e, amount, c)
    if op == L.OP_AREA:
        score = 0.0
        p = st.tile_pos[ent[c, L.SPACE]]
        q = _linked_tile(st, p)  # a portal's far tile is hit whole as well
        for d in range(ent.shape[0]):  # "everything in the affected tiles": own team too
            if ent[d, L.ALIVE] == 0 or not _in_tiles(st, ent[d, L.SPACE], p, q):
                continue
            if ent[d, L.BUFF] != 0 and ent[d, L.BUFF_STAT] == L.STAT_INVINCIBLE:
                continue
            left = ent[d, L.HEALTH] + ent[d, L.SHIELD]
            value = _target_value(ent[d, L.KIND], ent[d, L.PILOT], fp[L.W_CPU_VALUE])
            if ent[d, L.TEAM] == ent[c, L.TEAM]:
                value = -1.0  # the team's own loss, counted like a character's
            score += value * (fp[L.W_DAMAGE] * min(amount, left)
                              + (fp[L.W_KILL] if amount >= left else 0.0))
        return score
    if op == L.OP_HEAL:
        healed = min(amount, ent[e, L.MAX_HEALTH] - ent[e, L.HEALTH])
        extra = amount - healed if ent[c, L.AB_FLAG] != 0 else 0
        return fp[L.W_DAMAGE] * (healed + extra)
    if op == L.OP_REVIVE:
        return fp[L.W_KILL] + fp[L.W_DAMAGE] * ent[e, L.MAX_HEALTH]
    if op == L.OP_FREEZE:
        if ent[e, L.FROZEN] != 0 or ent[e, L.ATK] <= 0:
            return 0.0
        p = _p_hit(S, _threshold(S, ent[c, L.DEFENSE]))
        _, em = _kill_table(S, ent[e, L.ATK], p, ent[e, L.TIER], ent[c, L.HEALTH])
        return fp[L.W_DAMAGE] * em * duration
    if op == L.OP_BUFF:
        if ent[e, L.BUFF] != 0:
            return 0.0
        return fp[L.W_EFFECT] * max(amount, 1) * duration
    if op == L.OP_DEBUFF:
        if ent[e, L.DEBUFF] != 0:
            return 0.0
        value = _target_value(ent[e, L.KIND], ent[e, L.PILOT], fp[L.W_CPU_VALUE])
        return value * fp[L.W_EFFECT] * max(amount, 1) * duration
    if op == L.OP_INVISIBILITY:
        if ent[e, L.INVISIBLE] != 0:
            return 0.0
        wounded = ent[e, L.HEALTH] <= fp[L.F_RED] * ent[e, L.MAX_HEALTH]
        return fp[L.W_EFFECT] * duration * (1.0 if wounded else 0.25)
    return 0.0


@njit
def _teleport_spaces(st, c, mask):
    """The spaces ``c`` may teleport to now (their actions: the ability on space ``s``)."""
    ent = st.ent
    return _spaces_within(ent[c, L.SPACE], ent[c, L.AB_AMOUNT],
                          _ability_space_base(st.kind.shape[0], ent.shape[0]), mask)


@njit
def _spaces_within(here, dist, base, mask):
    """The spaces ``s`` within ``dist`` king steps of ``here`` whose action ``base + s`` the
    mask allows: a teleport's or a launch's destinations, read off its window of the board."""
    out = np.empty((2 * dist + 1) * (2 * dist + 1), np.int64)
    k = 0
    r0 = here // SPAN
    c0 = here % SPAN
    for r in range(max(r0 - dist, 0), min(r0 + dist, SPAN - 1) + 1):
        for col in range(max(c0 - dist, 0), min(c0 + dist, SPAN - 1) + 1):
            s = r * SPAN + col
            if mask[base + s]:
                out[k] = s
                k += 1
    return out[:k]
