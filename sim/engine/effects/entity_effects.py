"""The entities slice's effects, one kernel each, run by ``interpreter._run_effect``: the summon
ability (minions and clones) and the opcodes ``OP_SUMMON_CARD`` / ``OP_ASSIST`` (their rows in
``sim/catalogue/effect_table.py``, family "entity").

Must not import ``interpreter`` (it calls this module): the effect row is read with ``row._fx``.
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.entities.special import _enter, _spawn_assist, _summon_card
from sim.engine.items.holding import _item_change
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx


@njit(inline="always")
def _unbuffed(ent, S, c, col, debt, stat):
    """``c``'s stat (column ``col``, its floor's debt in column ``debt``) without the change a
    timed buff or de-buff or a held item made to it: the sum of its other changes (what the
    printed stat and the tiles' permanent gains make it)."""
    v = ent.raw[c, col] - ent.raw[c, debt] - _item_change(ent, S, c, stat)
    if ent.buff[c] != 0 and ent.buff_stat[c] == stat:
        v -= ent.buff_delta[c]
    if ent.debuff[c] != 0 and ent.debuff_stat[c] == stat:
        v -= ent.debuff_delta[c]
    return v


@njit
def _copy_character(ent, S, f, c):
    """Row ``f`` as a clone of ``c``: "A Clone is a direct copy of a character's stats and
    abilities" (its stats as printed: timed buffs and de-buffs belong to ``c``, not to the copy;
    its ability with the charges ``c`` has left); "Items are not cloned"; "A clone has only 1 HP".
    A held item's stat is not copied either ("Items are not cloned"; a clone made while ``c``
    held an active Knight's Plate had its +2 defense, the audit of stop 69)."""
    ent.kind[f] = L.K_CLONE
    ent.card[f] = ent.card[c]
    ent.speed[f] = _unbuffed(ent, S, c, L.SPEED, L.SPEED_DEBT, L.STAT_SPEED)
    ent.range[f] = _unbuffed(ent, S, c, L.RANGE, L.RANGE_DEBT, L.STAT_RANGE)
    ent.defense[f] = _unbuffed(ent, S, c, L.DEFENSE, L.DEFENSE_DEBT, L.STAT_DEFENSE)
    ent.suit[f] = ent.suit[c]
    for j in range(4):
        ent.atk[f, j] = _unbuffed(ent, S, c, L.ATK + j, L.ATK_DEBT + j, L.STAT_ATTACKS)
        ent.tier[f, j] = ent.tier[c, j]
    for j in range(L.FX_SLOTS):
        ent.ab[f, j] = ent.ab[c, j]
    ent.charges_left[f] = ent.charges_left[c]
    ent.max_health[f] = S.ip[L.P_CLONE_HEALTH]  # (book) "A clone has only 1 HP"


@njit
def _make_minion(st, f, health, attacks, tier):
    """Row ``f`` as a minion of the summon's ``health``, ``attacks`` and ``tier`` (every point of
    its star); speed, range and defense are house rulings (rules.toml [entities], kept in the
    game scalars ``G_MINION_*``); no ability, no suit."""
    ent = st.ent
    g = st.game
    ent.kind[f] = L.K_MINION
    ent.max_health[f] = health
    ent.speed[f] = g.minion_speed
    ent.range[f] = g.minion_range
    ent.defense[f] = g.minion_defense
    ent.suit[f] = -1
    for j in range(4):
        ent.atk[f, j] = attacks
        ent.tier[f, j] = tier
    for j in range(L.FX_SLOTS):
        ent.ab[f, j] = 0
    ent.charges_left[f] = 0


@njit
def _summon(st, S, c, s, count, health, attacks, tier, clone):
    """``c`` summons ``count`` minions on space ``s`` ("Minions are spawned on any space within
    both the range and the line of sight of their creator": ``_legal`` lists those spaces), or
    with ``clone`` copies of itself ("A clone is created on the same space as the character it
    copies"), as many as it has minion rows free. Returns how many entered play."""
    ent = st.ent
    made = 0
    for f in range(st.game.spare, ent.shape[0]):
        if made == count:
            break
        if ent.owner[f] != c + 1 or ent.alive[f] != 0:
            continue
        if clone != 0:
            _copy_character(ent, S, f, c)
        else:
            _make_minion(st, f, health, attacks, tier)
        _enter(st, f, s)
        _log(st, L.EV_SPAWN, f, c, s, ent.kind[f], 0, 0)
        made += 1
    return made


@njit
def _run_summon(st, S, user, target, source, row):
    """The summon: ``count`` minions (or with ``flag`` clones) on space ``target - M``."""
    _summon(st, S, user, target - st.ent.shape[0], _fx(st, S, user, source, row, L.FX_COUNT),
            _fx(st, S, user, source, row, L.FX_HEALTH), _fx(st, S, user, source, row, L.FX_ATTACKS),
            _fx(st, S, user, source, row, L.FX_TIER), _fx(st, S, user, source, row, L.FX_FLAG))


@njit
def _run_summon_card(st, S, user, target, source, row):
    """A random 6th character card joins ``user``'s team."""
    _summon_card(st, S, user)


@njit
def _run_assist(st, S, user, target, source, row):
    """Assist character number ``amount`` joins ``user``'s team."""
    _spawn_assist(st, S, user, _fx(st, S, user, source, row, L.FX_AMOUNT))
