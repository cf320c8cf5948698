"""The legal actions of the character whose decision it is, as a boolean mask.

Actions (``actions``, whose codec names each block): END ends the character's turn; a move
block action moves to space ``s`` (any space within the speed it has left: "A character is not
required to use all of their speed") or, before the team is on the board, places it on a spawn
space; an attack block action attacks entity ``e`` ("To initiate an attack, the defender must be
within both the range and the line of sight of the attacker"); the ability blocks use the
character's ability on entity ``e`` or on space ``s`` (docs/effects.md). An invisible entity is
never an opponent's target ("an invisible entity cannot be targeted by a direct attack"; house
ruling: a targeted ability of an opponent is such an attack); a frozen character may only end its
turn ("anything frozen can do nothing at all").
A pilot whose vehicle has a weapon attacks ``_weapon_base + e`` through it ("can have 1 action
used through it"), within the vehicle's range, from the space both stand on. ``_group_base + e``
declares a Group Attack on an entity the character may attack, offered while a teammate could
join it (``attack._group_ready``; who joins is found when it is declared). ``_hand_base + e``
hands the team's turn to teammate ``e`` while the character has done nothing yet (``order.py``).
``_legal`` fills ``st.decision`` (``sim/engine/state/decision.py``): the mover's reach
(``reach_cost``, ``reached``) and the interactable it can use (``interactable``), which the
policies and ``turn._apply`` read; the attack entries of the mask are its sight.
"""

from __future__ import annotations

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base, _attack_base, _group_base,
                      _hand_base, _interact_base, _item_base, _move_base, _water_base, _weapon_base)
from sim.engine.rules.attack import _group_ready
from sim.engine.effects.interpreter import _ability_range, _ability_ready, _teleport_targets
from sim.engine.effects.ability_effects import _revive_space, _spawn_revive_space
from sim.engine.entities.special import _move_speed, _summon_targets, _weapon_ready
from sim.engine.items.use import _legal_items
from sim.engine.rules.order import _legal_handover
from sim.engine.rules.live_movement import _may_reach, _reach_from, _sight_from
from sim.engine.tiles.live_board import _spawn_now
from sim.engine.tiles.functions import _ability_control_targets, _legal_interact
from sim.engine.rules.water_rolls import _legal_water


@njit(inline="always")
def _ally_near(st, S, c, space, team, steps):
    """Whether a living teammate of ``c`` other than itself stands within ``steps`` tile boundaries of ``space`` (the lower
    bound ``_may_reach`` uses for opponents): no sight search for an ally-target ability
    when none can be in range."""
    tile_pos = st.tile_pos
    pos_dist = st.tiles.dist  # the live tile distance
    p = tile_pos[space]
    if p < 0:
        return False
    ent = st.ent
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0 or ent.team[e] != team or e == c:
            continue
        q = tile_pos[s]
        if q >= 0 and pos_dist[p, q] <= steps:
            return True
    return False


# one function on purpose: split, it ran slower (docs/performance.md, "Long kernels kept whole")
@njit
def _legal(st, S, mask):
    mask[:] = False
    mask[L.END] = True
    count = 1
    g = st.game
    st.decision.interactable = -1  # (functions._legal_interact finds it when an action is left)
    c = g.cur
    if c < 0 or g.over != 0:
        return count
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    move = _move_base(n, m)
    team = ent.team[c]
    here = ent.space[c]
    if here < 0:
        # "You may distribute your characters across the three Uncovered Tiles of your Spawn
        # however you like": placing is not optional, so END is not offered.
        count = 0
        for k in range(S.spawn_space.shape[1]):
            s = _spawn_now(st, S, team, k)
            if s >= 0 and not mask[move + s]:
                mask[move + s] = True
                count += 1
        if count > 0:  # no Spawn coordinate left standing: it waits (house ruling, rulings.md)
            mask[L.END] = False
        return count if count > 0 else 1
    if ent.frozen[c] != 0:  # "cannot use any of its speed, cannot spend its action"
        return count
    count += _legal_handover(st, c, mask, _hand_base(n, m))  # the team's order (order.py)
    if ent.submerged[c] != 0:  # "cannot move, and cannot spend their action on anything
        st.decision.n_reached = -1  # except attempting to escape" (no reach searched)
        return count + _legal_water(st, S, c, mask, _water_base(n, m))
    speed = _move_speed(ent, c)  # a pilot's vehicle's speed (docs/entities.md)
    if speed > 0:
        touched = _reach_from(st, S, here, speed)
        queue = st.decision.reached
        cost = st.decision.reach_cost
        for i in range(touched):
            s = queue[i]
            if cost[s] > 0 and not mask[move + s]:  # a portal twin costs 0: not a move
                mask[move + s] = True
                count += 1
    else:
        _reach_from(st, S, here, 0)
    base = _ability_base(n, m)  # ability actions on entities
    on_space = _ability_space_base(n, m)  # and on spaces
    tk = -1
    ar = -1
    summon = False  # minions: spaces in range and sight (special._summon_targets)
    if _ability_ready(ent, c):
        tk = ent.ab_target[c]
        if tk == L.T_NONE or tk == L.T_SELF:
            mask[base + c] = True
            count += 1
        elif tk == L.T_SPACE and ent.ab_op[c] == L.OP_SUMMON:
            summon = True
            ar = _ability_range(ent, c)
        elif tk == L.T_SPACE and ent.ab_op[c] == L.OP_TILE_CONTROL:  # a tile's middle space
            count += _ability_control_targets(st, S, c, on_space, mask)
        elif tk == L.T_SPACE:
            count += _teleport_targets(st, c, ent.ab_amount[c], on_space, mask)
        elif tk == L.T_DEAD_ALLY:
            alt = _alt_base(n, m)
            for e in range(m):  # a character that died (not a minion, nor a row not yet in play)
                if (ent.team[e] == team and ent.alive[e] == 0
                        and ent.kind[e] <= L.K_SUMMONED and ent.dormant[e] == 0):
                    spot = _revive_space(st, S, e)
                    if spot >= 0:
                        mask[base + e] = True
                        count += 1
                        # "or back in the team's Spawn": the second form, when it differs
                        spawn = _spawn_revive_space(st, S, e)
                        if spawn >= 0 and spawn != spot:
                            mask[alt + e] = True
                            count += 1
        else:
            ar = _ability_range(ent, c)
    reach = ent.range[c] if ent.acted[c] == 0 else -1
    v = _weapon_ready(ent, c)  # a pilot's vehicle with a weapon: its range, from this space
    wreach = ent.range[v] if v >= 0 else -1
    allies = tk == L.T_ALLY and _ally_near(st, S, c, here, team, ar)
    if tk == L.T_ALLY and not allies:  # only the user itself can be in range (range 0 or more)
        mask[base + c] = True
        count += 1
        tk = -1
    if summon and ent.ab_flag[c] != 0:  # a clone: "on the same space as the character"
        mask[on_space + here] = True
        count += 1
        summon = False
    steps = max(reach, ar, wreach)  # -1: it has attacked and has no ability or weapon to use
    group = _group_base(n, m) if reach >= 0 and _group_ready(ent, c) else -1
    if allies or summon or (steps >= 0 and _may_reach(st, S, here, team, steps)):
        sight = _sight_from(st, S, here, steps)
        if summon:
            count += _summon_targets(st, sight, ar, on_space, mask)
        for e in range(m):
            s = ent.space[e]
            if ent.alive[e] == 0 or s < 0:
                continue
            if ent.team[e] != team:
                if ent.invisible[e] != 0:
                    continue
                p = ent.pilot[e]  # a vehicle this team rides is not its opponent
                if p > 0 and ent.team[p - 1] == team:
                    continue
                if sight[s] <= reach:
                    mask[_attack_base(n, m) + e] = True
                    count += 1
                    if group >= 0:  # "Multiple of your characters ... attack the same target"
                        mask[group + e] = True
                        count += 1
                if tk == L.T_ENEMY and sight[s] <= ar:
                    mask[base + e] = True
                    count += 1
                if sight[s] <= wreach:  # "1 action used through it": the vehicle's weapon
                    mask[_weapon_base(n, m) + e] = True
                    count += 1
            elif tk == L.T_ALLY and sight[s] <= ar and (ent.kind[e] <= L.K_SUMMONED or e == c):
                mask[base + e] = True  # "A Teammate refers to a Character that is on your Team"
                count += 1
    count += _legal_items(st, S, c, mask, _item_base(n, m))
    count += _legal_interact(st, S, c, mask, _interact_base(n, m))
    count += _legal_water(st, S, c, mask, _water_base(n, m))
    return count
