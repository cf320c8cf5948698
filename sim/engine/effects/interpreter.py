"""The effects interpreter: one kernel runs every effect row of integers (an ability's, an
item's, a tile function's), dispatching on its opcode to the effect's own kernel.

Why one interpreter over data: a card's ability is a row of its entity (``fields.AB_*``: the
effect's opcode, target kind, whether it costs the action, charges, range, duration, amount,
stat, flag — built from ``cards/abilities.toml`` and ``cards/characters.csv`` by
``sim.catalogue.abilities``), so a designer adds a card, or a type that reuses an effect, without
touching code (docs/effects.md). Book: "Every ability belongs to one of the 11 ability types set
out in the Ability Index"; "This ability will grant the user their own unique functions that can
be performed only during their turn unless specified otherwise".

The timed states the effects create (frozen, invisible, buffs, de-buffs) live in
:mod:`sim.engine.entities.timed_states`.
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.catalogue.tile_layout import FLOOR, MAX_SIZE as BLOCK, NONE

from sim.engine.state import fields as L
from sim.engine.log.events import _log
from sim.engine.effects.row import _fx
from sim.engine.entities.special import _summon_room
from sim.engine.effects.ability_effects import (
    _revive, _run_area, _run_buff, _run_debuff, _run_freeze, _run_heal, _run_invisibility,
    _run_mobility, _run_revive, _run_strike, _spawn_revive_space)
from sim.engine.effects.entity_effects import _run_assist, _run_summon, _run_summon_card
from sim.engine.effects.item_effects import _run_item_blast, _run_item_cleanse, _run_item_damage
from sim.engine.effects.tile_effects import (
    _run_earn, _run_extra_action, _run_gain, _run_item_reward, _run_learn, _run_tile_assist,
    _run_tile_control, _run_tile_state, _run_tile_summon)


@njit(inline="always")
def _ability_ready(ent, c):
    """Whether ``c`` may use its ability now (its own turn: the engine asks only the character
    whose decision it is). Book: "A frozen entity ... cannot use any effect stemming from an
    ability"; every ability at most once per turn and within its charges (house ruling)."""
    op = ent.ab_op[c]
    if op == L.OP_NONE:
        return False
    if ent.frozen[c] != 0 or ent.ab_used[c] != 0:
        return False
    if ent.ab_charges[c] > 0 and ent.charges_left[c] <= 0:
        return False
    if op == L.OP_SUMMON and not _summon_room(ent, c):  # its most minions are out already
        return False
    return ent.ab_costs[c] == 0 or ent.acted[c] == 0


@njit(inline="always")
def _ability_range(ent, c):
    """A strike is an attack: it uses the attack's range; a summon the creator's ("within both
    the range and the line of sight of their creator"); other effects their own ``range``."""
    op = ent.ab_op[c]
    return ent.range[c] if op == L.OP_STRIKE or op == L.OP_SUMMON else ent.ab_range[c]


@njit(inline="always")
def _across(kind, r, col, dr, dc):
    """The space facing ``(r, col)`` across the void in direction ``(dr, dc)`` (orthogonal),
    in the next position's block: the first cell that is not void, at most a block away (a
    tile's edge faces the next tile's edge); -1 when there is none or it is in the same block."""
    for k in range(2, BLOCK + 1):
        r1, c1 = r + k * dr, col + k * dc
        if r1 < 0 or r1 >= SPAN or c1 < 0 or c1 >= SPAN:
            return -1
        if kind[r1 * SPAN + c1] != NONE:
            if r1 // BLOCK == r // BLOCK and c1 // BLOCK == col // BLOCK:
                return -1
            return r1 * SPAN + c1
    return -1


@njit
def _teleport_targets(st, c, dist, base, mask, keep):
    """Mask ``base + s`` for every floor space within ``dist`` spaces of ``c``: a step goes to
    any of the eight cells around a space that is not void (walls, water and blocks do not
    matter to a teleport), or straight across the void from a tile's edge to the facing space
    of the next position ("The Space, not the tile, is the fundamental unit of movement, range,
    and line of sight"). Why: the distance was counted in cells of the 35 x 35 drawing, where
    the void round a 1 x 1 or 3 x 3 tile counted too, so a distance-3 teleport could never leave
    a 1 x 1 tile (the third rules audit of stop 69: no target in 365 of 2,513 decisions with the
    ability ready). A breadth-first search, ``dist`` rounds, in the decision's scratch. With
    ``keep`` (the ability's listing) the spaces found are kept for the policies in
    ``decision.teleport[:n_teleport]``, so greedy need not find them again."""
    decision = st.decision
    here = st.ent.space[c]
    kind = st.kind
    tile_pos = st.tile_pos
    seen = decision.tele_seen
    frontier = decision.tele_queue
    found = decision.teleport
    seen[here] = 1
    frontier[0] = here
    lo, hi = 0, 1
    count = 0
    for _ in range(dist):
        end = hi
        for i in range(lo, end):
            s = frontier[i]
            r, col = s // SPAN, s % SPAN
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    r1, c1 = r + dr, col + dc
                    if (dr == 0 and dc == 0) or r1 < 0 or r1 >= SPAN or c1 < 0 or c1 >= SPAN:
                        continue
                    t = r1 * SPAN + c1
                    if kind[t] == NONE:
                        if dr != 0 and dc != 0:
                            continue
                        t = _across(kind, r, col, dr, dc)
                        if t < 0:
                            continue
                    if seen[t] == 0:
                        seen[t] = 1
                        frontier[hi] = t
                        hi += 1
                        if kind[t] == FLOOR and tile_pos[t] >= 0:
                            mask[base + t] = True
                            if keep:
                                found[count] = t
                            count += 1
        lo = end
    for i in range(hi):  # the flags back to 0 for the next search
        seen[frontier[i]] = 0
    if keep:
        decision.n_teleport = count
    return count


@njit
def _run_effect(st, S, user, target, source, row):
    """Run the effect of row (``source``, ``row``) for ``user`` on ``target`` (an entity, or
    ``M + s`` for space ``s``): one branch per row of the effect table
    (``sim/catalogue/effect_table.py``), in its order, each calling the kernel the row names
    (``tests/test_effect_table.py`` checks both). An if/elif on compile-time constants: Numba
    cannot call through a table of functions cheaply. Pays nothing: the caller (an ability,
    item or tile) pays its own cost. Returns the opcode run."""
    op = _fx(st, S, user, source, row, L.FX_OP)
    if op == L.OP_STRIKE:
        _run_strike(st, S, user, target, source, row)
    elif op == L.OP_AREA:
        _run_area(st, S, user, target, source, row)
    elif op == L.OP_HEAL:
        _run_heal(st, S, user, target, source, row)
    elif op == L.OP_BUFF:
        _run_buff(st, S, user, target, source, row)
    elif op == L.OP_DEBUFF:
        _run_debuff(st, S, user, target, source, row)
    elif op == L.OP_FREEZE:
        _run_freeze(st, S, user, target, source, row)
    elif op == L.OP_INVISIBILITY:
        _run_invisibility(st, S, user, target, source, row)
    elif op == L.OP_MOBILITY:
        _run_mobility(st, S, user, target, source, row)
    elif op == L.OP_SUMMON:
        _run_summon(st, S, user, target, source, row)
    elif op == L.OP_TILE_CONTROL:
        _run_tile_control(st, S, user, target, source, row)
    elif op == L.OP_REVIVE:
        _run_revive(st, S, user, target, source, row)
    elif op == L.OP_ITEM_DAMAGE:
        _run_item_damage(st, S, user, target, source, row)
    elif op == L.OP_ITEM_BLAST:
        _run_item_blast(st, S, user, target, source, row)
    elif op == L.OP_ITEM_CLEANSE:
        _run_item_cleanse(st, S, user, target, source, row)
    else:
        _run_later_effect(st, S, user, target, source, row, op)
    return op


@njit
def _run_later_effect(st, S, user, target, source, row, op):
    """The rest of :func:`_run_effect`'s dispatch: the tile functions' and the special
    entities' effects (split only to keep each function short)."""
    if op == L.OP_GAIN:
        _run_gain(st, S, user, target, source, row)
    elif op == L.OP_ITEM_REWARD:
        _run_item_reward(st, S, user, target, source, row)
    elif op == L.OP_TILE_SUMMON:
        _run_tile_summon(st, S, user, target, source, row)
    elif op == L.OP_EXTRA_ACTION:
        _run_extra_action(st, S, user, target, source, row)
    elif op == L.OP_TILE_STATE:
        _run_tile_state(st, S, user, target, source, row)
    elif op == L.OP_EARN:
        _run_earn(st, S, user, target, source, row)
    elif op == L.OP_LEARN:
        _run_learn(st, S, user, target, source, row)
    elif op == L.OP_TILE_ASSIST:
        _run_tile_assist(st, S, user, target, source, row)
    elif op == L.OP_SUMMON_CARD:
        _run_summon_card(st, S, user, target, source, row)
    elif op == L.OP_ASSIST:
        _run_assist(st, S, user, target, source, row)


@njit
def _pay_ability(st, c, t, form):
    """Pay one use of ``c``'s ability (its ``form``, 1 = the second) on ``t``: a charge, the
    once-per-turn use and, if the type costs it, the action."""
    ent = st.ent
    ent.ab_used[c] = 1
    if ent.ab_charges[c] > 0:
        ent.charges_left[c] -= 1
    if ent.ab_costs[c] != 0:
        ent.acted[c] = 1
    _log(st, L.EV_ABILITY, c, ent.ab_op[c], t, ent.charges_left[c], form, 0)


@njit
def _use_ability(st, S, c, t):
    """Run ``c``'s ability on target ``t`` (an entity, or ``M + s`` for space ``s``); the action
    must be legal (``_legal``). Pays the charge, the once-per-turn use and, if the type costs
    it, the action ("Actions are used to attack, use tiles, use items, or to interact with
    abilities")."""
    _pay_ability(st, c, t, 0)
    _run_effect(st, S, c, t, L.FX_ABILITY, 0)


@njit
def _use_ability_alt(st, S, c, e):
    """The ability's second form on entity ``e``: a revive "back in the team's Spawn" rather
    than "at the point of occurrence" (the only effect with a second form; legal only when both
    spots exist and differ: ``legal._legal``). Pays like :func:`_use_ability`."""
    _pay_ability(st, c, e, 1)
    _revive(st, S, c, e, _spawn_revive_space(st, S, e))
