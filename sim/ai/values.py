"""Greedy's values of an attack and of an effect (an ability's or an item's: one scorer,
:func:`_effect_score`), in one unit (health).

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
from sim.catalogue.tile_layout import MAX_SIZE as BLOCK
from sim.combat.star import BASE
from sim.engine.state import fields as L
from sim.engine.rules.actions import _ability_space_base
from sim.engine.rules.attack import _attack_star, _threshold
from sim.engine.rules.live_movement import _in_tiles, _linked_tile

from .entity_values import _target_value


@njit(inline="always")
def _kill_table(S, n, threshold, tier, health):
    """(P(damage >= health), E[min(damage, health)]) of ``n`` attacks against a defender who
    misses at or below ``threshold`` (``attack._threshold``): the chance of each number of hits
    from ``S.hits`` (``sim.combat.hits``), the damage of that many from the tails."""
    tail = S.tail
    ctail = S.ctail
    hits = S.hits
    hmax = tail.shape[1] - 1
    h = min(max(health, 0), hmax)
    n = min(n, tail.shape[2] - 1)
    pk = 0.0
    em = 0.0
    for k in range(n + 1):
        prob = hits[threshold, n, k]
        pk += prob * tail[tier - 1, h, k]
        em += prob * ctail[tier - 1, h, k]
    return pk, em


@njit(inline="always")
def _attack_score(st, S, c, e, extra, w):
    """An attack of ``c`` on ``e`` with ``extra`` attacks beyond its star point's (a strike),
    thrown with row ``w``'s attack (``c``'s own, or the weapon of the vehicle it rides); a CPU
    retaliates at ``c`` (attack._strike)."""
    ent = st.ent
    fp = S.fp
    col = _attack_star(st, S, w, e)
    pk, em = _kill_table(S, ent.atk[w, col] + extra, _threshold(S, ent.defense[e]),
                         ent.tier[w, col], ent.health[e] + ent.shield[e])
    value = _target_value(ent.kind[e], ent.pilot[e], fp[L.W_CPU_VALUE])
    score = value * (fp[L.W_DAMAGE] * em + fp[L.W_KILL] * pk)
    if ent.is_cpu[e] != 0 and ent.atk[e, BASE] > 0:  # a CPU that survives strikes back
        rk, rem = _kill_table(S, ent.atk[e, BASE], _threshold(S, ent.defense[c]), ent.tier[e, BASE],
                              ent.health[c])
        score -= (1.0 - pk) * (fp[L.W_RETALIATION] * rem + fp[L.W_KILL] * rk)
    return score


@njit
def _ability_score(st, S, c, e):
    """The value of ``c`` using its ability on entity ``e`` (legal: ``_legal`` said so): its
    effect scored by :func:`_effect_score`, the one scorer of abilities and items."""
    ent = st.ent
    return _effect_score(st, S, c, e, ent.ab_op[c], ent.ab_amount[c],
                         ent.ab_duration[c], ent.ab_flag[c])


@njit
def _effect_score(st, S, c, t, op, amount, duration, flag):
    """The value of ``c`` running effect ``op`` (its row's amount, duration and flag) on entity
    ``t``: one scorer for an ability and for an item with the same effect, so the two cannot
    value it differently (issue #24 item 3). One branch per effect whose row in
    ``sim/catalogue/effect_table.py`` names a scorer of this module (``tests/test_effect_table.py``
    checks it); 0 for the others, valued where their worth is (a position, a tile)."""
    if op == L.OP_STRIKE:
        return _strike_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_AREA:
        return _area_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_ITEM_DAMAGE:
        return _damage_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_HEAL:
        return _heal_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_REVIVE:
        return _revive_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_FREEZE:
        return _freeze_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_BUFF:
        return _buff_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_DEBUFF:
        return _debuff_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_INVISIBILITY:
        return _invisibility_value(st, S, c, t, amount, duration, flag)
    if op == L.OP_ITEM_CLEANSE:
        return _cleanse_value(st, S, c, t, amount, duration, flag)
    return 0.0


# ---- one scorer per effect, all of one signature (inlined: greedy calls _effect_score per
#      target in its hottest loop)

@njit(inline="always")
def _strike_value(st, S, c, t, amount, duration, flag):
    """The attack it is, with ``amount`` extra dice."""
    return _attack_score(st, S, c, t, amount, c)


@njit(inline="always")
def _area_value(st, S, c, t, amount, duration, flag):
    """Tile-wide damage on the user's own tile (its team's losses count against it)."""
    return _tile_score(st, S, c, st.tile_pos[st.ent.space[c]], amount)


@njit(inline="always")
def _damage_value(st, S, c, t, amount, duration, flag):
    """Flat damage: the health it removes and the kill it makes (exact)."""
    return _flat_score(st, S, t, amount, _value_of(st.ent, S.fp, t))


@njit(inline="always")
def _heal_value(st, S, c, t, amount, duration, flag):
    """The health restored (and with ``flag`` the excess kept as shield)."""
    ent = st.ent
    healed = min(amount, ent.max_health[t] - ent.health[t])
    extra = amount - healed if flag != 0 else 0  # the excess as shield
    return S.fp[L.W_DAMAGE] * (healed + extra)


@njit(inline="always")
def _revive_value(st, S, c, t, amount, duration, flag):
    """A kill undone plus the health returned."""
    return S.fp[L.W_KILL] + S.fp[L.W_DAMAGE] * st.ent.max_health[t]


@njit(inline="always")
def _freeze_value(st, S, c, t, amount, duration, flag):
    """The expected attack the frozen opponent loses per turn, for ``duration`` turns."""
    ent = st.ent
    if ent.frozen[t] != 0 or ent.atk[t, BASE] <= 0:
        return 0.0
    _, em = _kill_table(S, ent.atk[t, BASE], _threshold(S, ent.defense[c]), ent.tier[t, BASE],
                        ent.health[c])
    return S.fp[L.W_DAMAGE] * em * duration


@njit(inline="always")
def _buff_value(st, S, c, t, amount, duration, flag):
    """``greedy_effect`` per stat point per turn; nothing on a target already buffed."""
    if st.ent.buff[t] != 0:
        return 0.0
    return S.fp[L.W_EFFECT] * max(amount, 1) * duration


@njit(inline="always")
def _debuff_value(st, S, c, t, amount, duration, flag):
    """As a buff, times what harming the target is worth (a vehicle, a CPU)."""
    ent = st.ent
    if ent.debuff[t] != 0:
        return 0.0
    return _value_of(ent, S.fp, t) * S.fp[L.W_EFFECT] * max(amount, 1) * duration


@njit(inline="always")
def _invisibility_value(st, S, c, t, amount, duration, flag):
    """``greedy_effect`` per turn, a quarter of it unless the target is in the red."""
    ent = st.ent
    fp = S.fp
    if ent.invisible[t] != 0:
        return 0.0
    wounded = ent.health[t] <= fp[L.F_RED] * ent.max_health[t]
    return fp[L.W_EFFECT] * duration * (1.0 if wounded else 0.25)


@njit(inline="always")
def _cleanse_value(st, S, c, t, amount, duration, flag):
    """The de-buff's points and the freeze it ends, at ``greedy_effect`` each."""
    ent = st.ent
    score = 0.0
    if ent.debuff[t] != 0:
        score += S.fp[L.W_EFFECT] * max(abs(ent.debuff_delta[t]), 1)
    if ent.frozen[t] != 0:
        score += S.fp[L.W_EFFECT]
    return score


@njit(inline="always")
def _value_of(ent, fp, t):
    """What harming entity ``t`` is worth per health point (``entity_values._target_value``)."""
    return _target_value(ent.kind[t], ent.pilot[t], fp[L.W_CPU_VALUE])


@njit(inline="always")
def _flat_score(st, S, d, dmg, value):
    """Flat damage ``dmg`` on ``d``, worth ``value`` per health point (negative: the team's
    own): the health it removes and the kill it makes (exact: flat damage is not rolled)."""
    ent = st.ent
    fp = S.fp
    if ent.buff[d] != 0 and ent.buff_stat[d] == L.STAT_INVINCIBLE:
        return 0.0
    left = ent.health[d] + ent.shield[d]
    return value * (fp[L.W_DAMAGE] * min(dmg, left) + (fp[L.W_KILL] if dmg >= left else 0.0))


@njit
def _tile_score(st, S, c, p, dmg):
    """Tile-wide damage ``dmg`` on grid position ``p`` (and on a portal's linked tile): it
    "applies immediately to everything in the affected tiles", so what it does to ``c``'s own
    team counts against it, a character's loss for each of its own."""
    ent = st.ent
    score = 0.0
    q = _linked_tile(st, p)  # a portal's far tile is hit whole as well
    for d in range(ent.shape[0]):
        if ent.alive[d] == 0 or not _in_tiles(st, ent.space[d], p, q):
            continue
        value = -1.0 if ent.team[d] == ent.team[c] else _value_of(ent, S.fp, d)
        score += _flat_score(st, S, d, dmg, value)
    return score


@njit
def _teleport_spaces(st, c, mask):
    """The spaces ``c`` may teleport to now (their actions: the ability on space ``s``), in
    ascending order: the ones the legal listing kept (``decision.teleport``) whose action the
    mask allows, so a list left from an earlier decision yields none. Why not read the mask's
    window (``_spaces_within``, as before): the listing had just found them (the same spaces in
    the same order); the time it saves is within the noise on a quiet host
    (docs/performance.md, stop 70), but the work is done once."""
    decision = st.decision
    kept = decision.teleport
    base = _ability_space_base(st.kind.shape[0], st.ent.shape[0])
    out = np.empty(decision.n_teleport, np.int64)
    k = 0
    for i in range(decision.n_teleport):
        s = kept[i]
        if mask[base + s]:
            out[k] = s
            k += 1
    return np.sort(out[:k])


@njit
def _spaces_within(here, dist, base, mask):
    """The spaces ``s`` within ``dist`` spaces of ``here`` whose action ``base + s`` the mask
    allows: a teleport's or a launch's destinations (``interpreter._teleport_targets``), read
    off their window of the board: a step of a space spans at most a block of cells (across
    the void between small tiles), so ``dist`` blocks each way hold them all."""
    reach = dist * BLOCK
    r0 = here // SPAN
    c0 = here % SPAN
    rows = min(r0 + reach, SPAN - 1) - max(r0 - reach, 0) + 1
    cols = min(c0 + reach, SPAN - 1) - max(c0 - reach, 0) + 1
    out = np.empty(rows * cols, np.int64)
    k = 0
    for r in range(max(r0 - reach, 0), min(r0 + reach, SPAN - 1) + 1):
        for col in range(max(c0 - reach, 0), min(c0 + reach, SPAN - 1) + 1):
            s = r * SPAN + col
            if mask[base + s]:
                out[k] = s
                k += 1
    return out[:k]
