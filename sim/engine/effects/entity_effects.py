"""The entities slice's effects, one kernel each, run by ``interpreter._run_effect``: the summon
ability (minions and clones) and the opcodes ``OP_SUMMON_CARD`` / ``OP_ASSIST`` (their rows in
``sim/catalogue/effect_table.py``, family "entity").

Must not import ``interpreter`` (it calls this module): the effect row is read with ``row._fx``.
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.entities.special import _enter, _spawn_assist, _summon_card
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx


@njit(inline="always")
def _unbuffed(ent, c, col, stat):
    """``c``'s stat without the change a timed buff or de-buff applied to it in place."""
    v = ent[c, col]
    if ent[c, L.BUFF] != 0 and ent[c, L.BUFF_STAT] == stat:
        v -= ent[c, L.BUFF_DELTA]
    if ent[c, L.DEBUFF] != 0 and ent[c, L.DEBUFF_STAT] == stat:
        v -= ent[c, L.DEBUFF_DELTA]
    return v


@njit
def _copy_character(ent, f, c):
    """Row ``f`` as a clone of ``c``: "A Clone is a direct copy of a character's stats and
    abilities" (its stats as printed: timed buffs and de-buffs belong to ``c``, not to the copy;
    its ability with the charges ``c`` has left); "Items are not cloned"; "A clone has only 1 HP".
    """
    ent[f, L.KIND] = L.K_CLONE
    ent[f, L.CARD] = ent[c, L.CARD]
    ent[f, L.SPEED] = _unbuffed(ent, c, L.SPEED, L.STAT_SPEED)
    ent[f, L.RANGE] = _unbuffed(ent, c, L.RANGE, L.STAT_RANGE)
    ent[f, L.DEFENSE] = _unbuffed(ent, c, L.DEFENSE, L.STAT_DEFENSE)
    ent[f, L.SUIT] = ent[c, L.SUIT]
    for j in range(4):
        ent[f, L.ATK + j] = _unbuffed(ent, c, L.ATK + j, L.STAT_ATTACKS)
        ent[f, L.TIER + j] = ent[c, L.TIER + j]
    for j in range(L.FX_SLOTS):
        ent[f, L.AB + j] = ent[c, L.AB + j]
    ent[f, L.CHARGES_LEFT] = ent[c, L.CHARGES_LEFT]
    ent[f, L.MAX_HEALTH] = 1


@njit
def _make_minion(st, f, health, attacks, tier):
    """Row ``f`` as a minion of the summon's ``health``, ``attacks`` and ``tier`` (every point of
    its star); speed, range and defense are house rulings (rules.toml [entities], kept in the
    game scalars ``G_MINION_*``); no ability, no suit."""
    ent = st.ent
    g = st.game
    ent[f, L.KIND] = L.K_MINION
    ent[f, L.MAX_HEALTH] = health
    ent[f, L.SPEED] = g.minion_speed
    ent[f, L.RANGE] = g.minion_range
    ent[f, L.DEFENSE] = g.minion_defense
    ent[f, L.SUIT] = -1
    for j in range(4):
        ent[f, L.ATK + j] = attacks
        ent[f, L.TIER + j] = tier
    for j in range(L.FX_SLOTS):
        ent[f, L.AB + j] = 0
    ent[f, L.CHARGES_LEFT] = 0


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
        if ent[f, L.OWNER] != c + 1 or ent[f, L.ALIVE] != 0:
            continue
        if clone != 0:
            _copy_character(ent, f, c)
        else:
            _make_minion(st, f, health, attacks, tier)
        _enter(st, f, s)
        _log(st, L.EV_SPAWN, f, c, s, ent[f, L.KIND], 0, 0)
        made += 1
    return made


@njit
def _run_summon(st, S, c, t, src, k):
    """The summon: ``count`` minions (or with ``flag`` clones) on space ``t - M``."""
    _summon(st, S, c, t - st.ent.shape[0], _fx(st, S, c, src, k, L.FX_COUNT),
            _fx(st, S, c, src, k, L.FX_HEALTH), _fx(st, S, c, src, k, L.FX_ATTACKS),
            _fx(st, S, c, src, k, L.FX_TIER), _fx(st, S, c, src, k, L.FX_FLAG))


@njit
def _run_summon_card(st, S, c, t, src, k):
    """A random 6th character card joins ``c``'s team."""
    _summon_card(st, S, c)


@njit
def _run_assist(st, S, c, t, src, k):
    """Assist character number ``amount`` joins ``c``'s team."""
    _spawn_assist(st, S, c, _fx(st, S, c, src, k, L.FX_AMOUNT))
