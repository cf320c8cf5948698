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

import numpy as np

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base, _attack_base, _group_base,
                      _hand_base, _interact_base, _item_base, _move_base, _water_base, _weapon_base)
from sim.engine.rules.attack import _group_ready
from sim.engine.effects.interpreter import _ability_range, _ability_ready, _teleport_targets
from sim.engine.effects.ability_effects import _revive_space, _spawn_revive_space
from sim.engine.entities.special import (_move_speed, _ridden_by, _summon_targets,
                                         _teammate_target, _weapon_ready)
from sim.engine.items.use import _legal_free_items, _legal_items
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


# The mask's blocks of one entry per space, each cleared only when the last listing set some
# entry in it (bits of ``_legal_listing``'s second value): clearing the whole mask, about 7,700
# entries, was 3 % of a greedy game, and most decisions set only moves, attacks and hand-overs.
# The blocks of one entry per entity are small and always cleared.
SET_MOVES, SET_ON_SPACES, SET_ITEMS, SET_INTERACTS, SET_WATER = 1, 2, 4, 8, 16
SET_ALL = 31  # a mask of unknown content


@njit
def _legal(st, S, mask):
    """Fill ``mask`` with the legal actions of the character whose decision it is (module doc)
    and return how many there are; ``st.decision`` gets the reach and the interactable."""
    mask[:] = False
    return _legal_listing(st, S, mask)[0]


@njit(inline="always")
def _clear_listed(st, mask, blocks):
    """Clear ``mask`` for :func:`_legal_listing` where only its caller writes it and its last
    listing (or ``SET_ALL``) named ``blocks``: those blocks, END and the entity blocks."""
    n, m = st.kind.shape[0], st.ent.shape[0]
    mask[L.END] = False
    _clear_block(mask, blocks & SET_MOVES, _move_base(n, m), _attack_base(n, m))
    mask[_attack_base(n, m):_ability_space_base(n, m)] = False  # attacks, abilities on entities
    _clear_block(mask, blocks & SET_ON_SPACES, _ability_space_base(n, m), _alt_base(n, m))
    mask[_alt_base(n, m):_item_base(n, m)] = False
    _clear_block(mask, blocks & SET_ITEMS, _item_base(n, m), _interact_base(n, m))
    _clear_block(mask, blocks & SET_INTERACTS, _interact_base(n, m), _water_base(n, m))
    _clear_block(mask, blocks & SET_WATER, _water_base(n, m), _weapon_base(n, m))
    mask[_weapon_base(n, m):] = False  # weapons, Group Attacks, hand-overs


@njit(inline="always")
def _clear_block(mask, dirty, lo, hi):
    if dirty != 0:
        mask[lo:hi] = False


@njit(inline="always")
def _set_if(count, block):
    """``block`` when ``count`` entries were set, else 0 (every writer counts what it sets)."""
    return block if count > 0 else 0


@njit
def _legal_listing(st, S, mask):
    """The listing of :func:`_legal` on a clean mask: (count, the space blocks it set). The game
    loop calls it after :func:`_clear_listed` (its own mask, reused)."""
    mask[L.END] = True
    g = st.game
    st.decision.interactable = -1  # (functions._legal_interact finds it when an action is left)
    c = g.cur
    if c < 0 or g.over != 0:
        return 1, 0
    ent = st.ent
    n, m = st.kind.shape[0], ent.shape[0]
    if ent.space[c] < 0:
        return _legal_placement(st, S, c, mask, _move_base(n, m)), SET_MOVES
    if ent.frozen[c] != 0:  # "cannot use any of its speed, cannot spend its action"
        return 1, 0
    count = 1 + _legal_handover(st, c, mask, _hand_base(n, m))  # the team's order (order.py)
    if ent.submerged[c] != 0:  # "cannot move, and cannot spend their action on anything
        st.decision.n_reached = -1  # except attempting to escape" (no reach searched)
        water = _legal_water(st, S, c, mask, _water_base(n, m))
        items = _legal_free_items(st, S, c, mask, _item_base(n, m))  # a potion costs neither
        return (count + water + items,
                _set_if(water, SET_WATER) | _set_if(items, SET_ITEMS))
    moves = _legal_moves(st, S, c, mask, _move_base(n, m))
    found, tk, ar, summon = _legal_ability(st, S, c, mask)
    sighted = _legal_sighted(st, S, c, mask, tk, ar, summon)  # (a summon's spaces among them)
    items = _legal_items(st, S, c, mask, _item_base(n, m))
    interacts = _legal_interact(st, S, c, mask, _interact_base(n, m))
    water = _legal_water(st, S, c, mask, _water_base(n, m))
    blocks = (_set_if(moves, SET_MOVES) | _set_if(found + sighted, SET_ON_SPACES)
              | _set_if(items, SET_ITEMS) | _set_if(interacts, SET_INTERACTS)
              | _set_if(water, SET_WATER))
    return count + moves + found + sighted + items + interacts + water, blocks


@njit
def _legal_placement(st, S, c, mask, move):
    """"You may distribute your characters across the three Uncovered Tiles of your Spawn
    however you like": placing is not optional, so END is not offered."""
    count = 0
    team = st.ent.team[c]
    for k in range(S.spawn_space.shape[1]):
        s = _spawn_now(st, S, team, k)
        if s >= 0 and not mask[move + s]:
            mask[move + s] = True
            count += 1
    if count > 0:  # no Spawn coordinate left standing: it waits (house ruling, rulings.md)
        mask[L.END] = False
    return count if count > 0 else 1


@njit(inline="always")
def _legal_moves(st, S, c, mask, move):
    """Every space within the speed ``c`` has left ("A character is not required to use all of
    their speed"); the reach search also fills ``st.decision`` for the policies."""
    ent = st.ent
    speed = _move_speed(ent, c)  # a pilot's vehicle's speed (docs/entities.md)
    if speed <= 0:
        _reach_from(st, S, ent.space[c], 0)
        return 0
    count = 0
    touched = _reach_from(st, S, ent.space[c], speed)
    queue = st.decision.reached
    cost = st.decision.reach_cost
    for i in range(touched):
        s = queue[i]
        # a queued space is never negative: unsigned indices spare the negative-index fix-ups
        if cost[np.uint64(s)] > 0 and not mask[np.uint64(move + s)]:  # a portal twin costs 0
            mask[np.uint64(move + s)] = True
            count += 1
    return count


@njit
def _legal_ability(st, S, c, mask):
    """The ability's uses that need no line of sight (on itself, a tile, a teleport, a revive);
    returns them, the target kind left for the sighted search (-1: none), the ability's range and
    whether a summon still looks for spaces in sight."""
    ent = st.ent
    n, m = st.kind.shape[0], ent.shape[0]
    base = _ability_base(n, m)  # ability actions on entities
    on_space = _ability_space_base(n, m)  # and on spaces
    count, tk, ar, summon = 0, -1, -1, False
    if not _ability_ready(ent, c):
        return count, tk, ar, summon
    tk = ent.ab_target[c]
    if tk == L.T_NONE or tk == L.T_SELF:
        mask[base + c] = True
        count += 1
    elif tk == L.T_SPACE and ent.ab_op[c] == L.OP_SUMMON:  # minions: spaces in range and sight
        summon = True  # (special._summon_targets)
        ar = _ability_range(ent, c)
    elif tk == L.T_SPACE and ent.ab_op[c] == L.OP_TILE_CONTROL:  # a tile's middle space
        count += _ability_control_targets(st, S, c, on_space, mask)
    elif tk == L.T_SPACE:
        count += _teleport_targets(st, c, ent.ab_amount[c], on_space, mask, True)
    elif tk == L.T_DEAD_ALLY:
        count += _revive_targets(st, S, c, mask, base, _alt_base(n, m))
    else:
        ar = _ability_range(ent, c)
    return count, tk, ar, summon


@njit
def _revive_targets(st, S, c, mask, base, alt):
    """A teammate that died (not a minion, nor a row not yet in play), where it fell and, by the
    revive's second form, "or back in the team's Spawn" when that differs."""
    ent = st.ent
    team = ent.team[c]
    count = 0
    for e in range(ent.shape[0]):
        if (ent.team[e] == team and ent.alive[e] == 0
                and ent.kind[e] <= L.K_SUMMONED and ent.dormant[e] == 0):
            spot = _revive_space(st, S, e)
            if spot >= 0:
                mask[base + e] = True
                count += 1
                spawn = _spawn_revive_space(st, S, e)
                if spawn >= 0 and spawn != spot:
                    mask[alt + e] = True
                    count += 1
    return count


@njit
def _legal_sighted(st, S, c, mask, tk, ar, summon):
    """Everything aimed along a line of sight: attacks (and a Group Attack), the vehicle's
    weapon, the ability on an enemy or an ally within its range, a summon's spaces. One sight
    search from the character's space, only when something may be in reach."""
    ent = st.ent
    n, m = st.kind.shape[0], ent.shape[0]
    here, team = ent.space[c], ent.team[c]
    base = _ability_base(n, m)
    on_space = _ability_space_base(n, m)
    count = 0
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
    if not (allies or summon or (steps >= 0 and _may_reach(st, S, here, team, steps))):
        return count
    group = _group_base(n, m) if reach >= 0 and _group_ready(ent, c) else -1
    closest = S.ip[L.P_CLOSEST]  # 1: no attack on an enemy sharing the space (attack_own_space)
    sight = _sight_from(st, S, here, steps)
    if summon:
        count += _summon_targets(st, sight, ar, on_space, mask)
    attack, weapon = _attack_base(n, m), _weapon_base(n, m)
    for e in range(m):
        s = ent.space[e]
        if ent.alive[e] == 0 or s < 0:
            continue
        if ent.team[e] != team:
            if ent.invisible[e] != 0:
                continue
            if _ridden_by(ent, e, team):  # a vehicle this team rides is not its opponent
                continue
            far = sight[s] >= closest
            if far and sight[s] <= reach:
                mask[attack + e] = True
                count += 1
                if group >= 0:  # "Multiple of your characters ... attack the same target"
                    mask[group + e] = True
                    count += 1
            if tk == L.T_ENEMY and sight[s] <= ar:
                mask[base + e] = True
                count += 1
            if far and sight[s] <= wreach:  # "1 action used through it": the vehicle's weapon
                mask[weapon + e] = True
                count += 1
        elif tk == L.T_ALLY and sight[s] <= ar and _teammate_target(ent, c, e):
            mask[base + e] = True  # "A Teammate refers to a Character that is on your Team"
            count += 1
    return count
