"""``greedy``: the action with the best expected value *now*, from the exact combat tables.

Attacks are scored by expected damage actually dealt (E[min(damage, health)]) and the chance to
kill (focus fire: a wounded target is worth more), minus the expected retaliation of a CPU that
survives; both use the colour the star would pick (homefield on each side). Moves are scored by
position: homefield, the tile's reward (staying where ticks are banked: ``sim.ai.tile_values``),
safety from coordinates announced for destruction (and, once a storm is revealed, from the outer
layers), safety from CPUs, closing to attack range of the nearest enemy (in a quiet game, closing in
on it along the board's moves: ``position_values._press``), and boarding an
unoccupied vehicle with a weapon (``sim.ai.entity_values``). Abilities are scored
like attacks (``sim.ai.values``), and so is an attack through a vehicle's weapon (with the
vehicle's dice); interactables and tile_control by ``sim.ai.tile_values``; a teleport and a
launch are moves, scored by position. Items (``sim.ai.item_values``): a free pick-up first;
item uses compete with attacks and abilities. The policy acts first (the attack, ability, item or
tile action worth most) when any is worth it; otherwise, before it has done anything, it hands
the turn to a teammate that can strike (``sim.ai.order_values``); then moves (walking,
teleporting, launching, crossing water), then ends.
Weights: rules.toml [game] ``greedy_*``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base, _attack_base,
                               _interact_base, _move_base, _water_base, _weapon_base)
from sim.engine.entities.special import _move_speed, _weapon_ready
from sim.engine.tiles.live_board import _spawn_now
from sim.engine.rules.water_rolls import _by_water

from .entity_values import _boarding_bonus, _may_board, _summon_action
from .item_values import _best_item_use, _item_pickup
from .order_values import _first_striker
from .position_values import (_best_landing, _best_move, _best_space, _placed, _pos_base,
                              _position_scores, _press_distances, _pressing, _threats)
from .tile_values import _best_tile_action, _is_launch, _launch
from .values import _ability_score, _attack_score, _teleport_spaces
from .water_values import _water_choice, _water_targets


@njit
def _weapon_action(st, S, c, mask, best, best_a):
    """The attack through ``c``'s vehicle worth more than ``best`` (scored as an attack with
    the vehicle's weapon: ``values._attack_score``), as (score, action); else (best, best_a)."""
    v = _weapon_ready(st.ent, c)
    if v < 0:
        return best, best_a
    m = st.ent.shape[0]
    base = _weapon_base(st.kind.shape[0], m)
    for e in range(m):
        if mask[np.uint64(base + e)]:  # (unsigned: no negative-index fix-up, as in _best_act)
            sc = _attack_score(st, S, c, e, 0, v)
            if sc > best:
                best, best_a = sc, base + e
    return best, best_a


@njit
def _revive_in_spawn(st, e):
    """The revive's second form ("or back in the team's Spawn") when the point of death lies in
    a coordinate announced for destruction; the spot otherwise."""
    s = st.ent.space[e]
    p = st.tile_pos[s] if s >= 0 else -1
    return p < 0 or st.pos_state[p] == L.ANNOUNCED


@njit
def _escape(st, S, c, mask, enemy_r, enemy_c, cpu):
    """Submerged: roll towards the best-placed space next to the water (END when no roll is
    left this turn)."""
    wspaces, walls = _water_targets(st, S, c, mask)
    if wspaces.shape[0] == 0:
        return L.END
    scores = _position_scores(st.ent, S.fp, st.tile_pos, _pos_base(st, S, c), c, wspaces, mask,
                              False, enemy_r, enemy_c, cpu, S.ip[L.P_CLOSEST],
                              np.empty(wspaces.shape[0]))
    k = 0
    for i in range(1, wspaces.shape[0]):
        if scores[i] > scores[k]:
            k = i
    return _water_base(st.kind.shape[0], st.ent.shape[0]) + wspaces[k]


@njit
def _greedy_action(st, S, mask):
    """Needs ``_legal`` just run (its reach and sight buffers: the reached spaces are
    ``st.decision.reached[:n_reached]``, so moves are scored without scanning all 1,225 spaces)."""
    ent = st.ent
    c = st.game.cur
    # the threats (enemies' and CPUs' places) only where positions are scored: not when an
    # attack, an ability, an item or a tile action wins
    if ent.space[c] < 0:  # placement: the spawn space with the best position
        return _placement(st, S, c, mask)
    pick = _item_pickup(st, S, c, mask)  # free: no action, no speed (sim/ai/item_values.py)
    if pick >= 0:
        return pick
    if ent.submerged[c] != 0:  # a potion that costs no action, else an escape
        _, use = _best_item_use(st, S, c, mask, 0.0, -1)
        if use >= 0:
            return use
        enemy_r, enemy_c, cpu = _threats(st, S, c)
        return _escape(st, S, c, mask, enemy_r, enemy_c, cpu)
    best_a = _best_act(st, S, c, mask)
    if best_a >= 0:
        return best_a
    first = _first_striker(st, S, c, mask)  # nothing to strike: a teammate who can goes first
    if first >= 0:
        return first
    return _best_position(st, S, c, mask)


@njit
def _placement(st, S, c, mask):
    """Placement: the spawn space with the best position (END when no Spawn coordinate is left
    standing: the character waits)."""
    ent = st.ent
    enemy_r, enemy_c, cpu = _threats(st, S, c)
    spawn = np.empty(S.spawn_space.shape[1], np.int64)
    k = 0
    for i in range(spawn.shape[0]):
        s = _spawn_now(st, S, ent.team[c], i)
        if s >= 0:
            spawn[k] = s
            k += 1
    if k == 0:  # no Spawn coordinate left standing: it waits
        return L.END
    return _best_space(st, S, c, mask, spawn[:k], -1e300, 0, enemy_r, enemy_c, cpu,
                       _pos_base(st, S, c))


@njit
def _best_act(st, S, c, mask):
    """The attack, ability use, item use, summon or tile action worth most to ``c`` when any
    is worth something (-1: none)."""
    ent = st.ent
    best, best_a = 0.0, -1
    n = st.kind.shape[0]
    m = ent.shape[0]
    # the scans over the entity blocks index the mask unsigned (an action is never negative):
    # Numba's fix-up for a negative index was a third of their instructions
    if ent.acted[c] == 0:
        attack = _attack_base(n, m)
        for e in range(m):
            if mask[np.uint64(attack + e)]:
                sc = _attack_score(st, S, c, e, 0, c)
                if sc > best:
                    best, best_a = sc, attack + e
        if ent.riding[c] > 0:  # (tested here: the call is made only for a rider)
            best, best_a = _weapon_action(st, S, c, mask, best, best_a)
    if ent.ab_used[c] == 0 and ent.ab_target[c] != L.T_SPACE:
        base = _ability_base(n, m)
        for e in range(m):
            if mask[np.uint64(base + e)]:
                sc = _ability_score(st, S, c, e)
                if sc > best:
                    best, best_a = sc, base + e
                    if mask[_alt_base(n, m) + e] and _revive_in_spawn(st, e):
                        best_a = _alt_base(n, m) + e
    best, best_a = _best_item_use(st, S, c, mask, best, best_a)
    if ent.ab_used[c] == 0 and ent.ab_op[c] == L.OP_SUMMON:  # minions (entity_values)
        enemy_r, enemy_c, _ = _threats(st, S, c)
        sc, a = _summon_action(st, S, c, mask, enemy_r, enemy_c)
        if a >= 0 and sc > best:
            best, best_a = sc, a
    sc, a = _best_tile_action(st, S, c, mask)  # interactables, tile_control (tile_values)
    if sc > best:
        best, best_a = sc, a
    return best_a


@njit(inline="always")
def _boards_onto(st, c, v, mask):
    """Whether ``c`` may move onto vehicle ``v`` this turn and board it
    (``entity_values._may_board``: an armed vehicle in reach)."""
    ent = st.ent
    return _may_board(ent, c, v) and mask[_move_base(st.kind.shape[0], ent.shape[0])
                                          + ent.space[v]]


@njit(inline="always")
def _boardable(st, c, mask):
    """Whether ``c`` may board some vehicle this turn (:func:`_boards_onto`)."""
    g = st.game
    for v in range(g.veh_first, g.veh_first + g.veh_n):
        if _boards_onto(st, c, v, mask):
            return True
    return False


@njit(inline="always")
def _walk_may_win(pos_base, tile_pos, spaces, mask, move, threshold):
    """Whether some legal move among ``spaces`` could score above ``threshold``. A position
    score is its position's ``pos_base`` less the CPU and approach penalties, which are never
    negative while their weights are not (the caller checks): so when no reachable position's
    ``pos_base`` is above ``threshold``, no walk is, and the walk need not be scored (the
    same choice: ``_best_move`` takes only a score strictly above it)."""
    for i in range(spaces.shape[0]):
        s = spaces[i]
        if mask[move + s]:
            p = tile_pos[s]
            if (pos_base[p] if p >= 0 else 0.0) > threshold:
                return True
    return False


@njit
def _best_jump(st, S, c, mask, bonus, enemy_r, enemy_c, cpu, dist, press, here):
    """The teleport, launch or water-roll whose landing scores above staying (``here``), as
    (score, action), else (``here`` + a hair, END): :func:`_best_position`'s moves that are not
    walks, each landing scored as a walk is (``position_values._placed``); a launch pays its
    price, a water-roll is weighed by its chance (``_water_choice``)."""
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    ref = ent.space[c]
    decision = st.decision
    fp = S.fp
    tile_pos = st.tile_pos
    closest = S.ip[L.P_CLOSEST]
    best, best_a = here + 1e-9, L.END
    if ent.ab_used[c] == 0 and ent.ab_op[c] == L.OP_MOBILITY:  # a teleport
        tele = _teleport_spaces(st, c, mask)
        if tele.shape[0] > 0:
            scores = _placed(ent, fp, tile_pos, bonus, c, tele, mask, enemy_r, enemy_c, cpu,
                             closest, dist, press, np.empty(tele.shape[0]))
            best, best_a = _best_landing(tele, scores, _ability_space_base(n, m), 0.0, best, best_a)
    # a launch (the Slingshot) is a move that spends the action; the interactable within reach
    # is the one legal._legal found for this decision
    k = decision.interactable
    if k >= 0 and _is_launch(S.tile_fx, k):
        launch, price = _launch(st, S, c, mask, k)
        scores = _placed(ent, fp, tile_pos, bonus, c, launch, mask, enemy_r, enemy_c, cpu,
                         closest, dist, press, np.empty(launch.shape[0]))
        best, best_a = _best_landing(launch, scores, _interact_base(n, m), price, best, best_a)
    # water-rolls while the streak is free, from a space where one can start
    if ent.streak_over[c] == 0 and _by_water(tile_pos, st.tiles, S.tile_fx,
                                                 st.move_roll, ref):
        wspaces, walls = _water_targets(st, S, c, mask)
        if wspaces.shape[0] > 0:
            scores = _placed(ent, fp, tile_pos, bonus, c, wspaces, mask, enemy_r, enemy_c, cpu,
                             closest, dist, press, np.empty(wspaces.shape[0]))
            best, best_a = _water_choice(st, S, c, wspaces, walls, scores, here, best, best_a,
                                         _water_base(n, m))
    return best, best_a


@njit
def _best_position(st, S, c, mask):
    """The move, teleport, launch or water-roll to the best-placed space, or END where staying
    scores best; scored by :func:`position_values._placed` (the press in a quiet game)."""
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    ref = ent.space[c]
    enemy_r, enemy_c, cpu = _threats(st, S, c)
    bonus = _pos_base(st, S, c)  # once per decision: here, a teleport's spaces, the walk
    # fields read once (each read of a state field is a load through its pointer)
    g = st.game
    decision = st.decision
    fp = S.fp
    tile_pos = st.tile_pos
    closest = S.ip[L.P_CLOSEST]
    # one call scores staying and every walk (the reached spaces begin with the search's start),
    # unless staying is scored alone and no walk can beat it (_walk_may_win)
    nreach = decision.n_reached
    spaces = decision.reached[:nreach] if nreach >= 0 else np.arange(n)
    walk = decision.walk[:spaces.shape[0]]  # the decision's scratch: no allocation
    boards = _boardable(st, c, mask)
    scored = True
    press = _pressing(st, fp)  # a quiet game: every score also counts the moves to an opponent
    dist = _press_distances(st, c) if press else decision.press
    if (spaces[0] == ref and not boards and not press and fp[L.W_CPU_DANGER] >= 0
            and fp[L.W_APPROACH] >= 0):
        here = _position_scores(ent, fp, tile_pos, bonus, c, spaces[:1], mask, False, enemy_r,
                                enemy_c, cpu, closest, walk[:1])[0]
        scored = _walk_may_win(bonus, tile_pos, spaces, mask, _move_base(n, m), here + 1e-9)
    if scored:
        _placed(ent, fp, tile_pos, bonus, c, spaces, mask, enemy_r, enemy_c, cpu, closest, dist,
                press, walk)
        if boards:
            for v in range(g.veh_first, g.veh_first + g.veh_n):
                if _boards_onto(st, c, v, mask):
                    _boarding_bonus(st, S, c, v, spaces, walk)
        if spaces[0] == ref:
            here = walk[0]
        else:  # the board kernel's fallback lists the reached spaces by id
            here = _placed(ent, fp, tile_pos, bonus, c, np.full(1, ref), mask, enemy_r, enemy_c,
                           cpu, closest, dist, press, np.empty(1))[0]
    best, best_a = _best_jump(st, S, c, mask, bonus, enemy_r, enemy_c, cpu, dist, press, here)
    if _move_speed(ent, c) <= 0 or not scored:  # its own speed, or its vehicle's; or no walk
        return best_a  # can score above staying
    # the walk, scored above
    step = _best_move(spaces, walk, mask, _move_base(n, m), best + 1e-9, L.END)
    return step if step != L.END else best_a
