"""``greedy``: the action with the best expected value *now*, from the exact combat tables.

Attacks are scored by expected damage actually dealt (E[min(damage, health)]) and the chance to
kill (focus fire: a wounded target is worth more), minus the expected retaliation of a CPU that
survives; both use the colour the star would pick (homefield on each side). Moves are scored by
position: homefield, the tile's reward (staying where ticks are banked: ``sim.ai.tile_values``),
safety from coordinates announced for destruction (and, once a storm is revealed, from the outer
layers), safety from CPUs, closing to attack range of the nearest enemy, and boarding an
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
from sim.board.geometry import SPAN
from sim.catalogue.apocalypses import P_RESOLVE, RESOLVE_HOLD, STORM
from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base, _attack_base,
                               _interact_base, _move_base, _water_base, _weapon_base)
from sim.engine.entities.special import _move_speed, _weapon_ready
from sim.engine.tiles.live_board import BLOCK, GRID, _spawn_now
from sim.engine.rules.water_rolls import _by_water

from .entity_values import _boarding_bonus, _may_board, _summon_action
from .item_values import _best_item_use, _item_pickup
from .order_values import _first_striker
from .tile_values import _best_tile_action, _is_launch, _launch, _pos_bonus
from .values import _ability_score, _attack_score, _teleport_spaces
from .water_values import _water_choice, _water_targets


@njit(inline="always")
def _storm(st, S):
    """Whether the revealed, unresolved Apocalypse is the Storm (positions score by layer then)."""
    return (st.game.revealed != 0 and st.game.apoc_resolved == 0
            and S.apoc_code[st.game.apoc] == STORM)


@njit(inline="always")
def _hold_target(st, S):
    """The position to hold to resolve the revealed Apocalypse (-1: none to hold now)."""
    g = st.game
    p = S.ip[L.P_APOC_POS]
    if (g.revealed == 0 or g.apoc_resolved != 0 or st.pos_state[p] != L.NORMAL
            or S.apoc_params[g.apoc, P_RESOLVE] != RESOLVE_HOLD):
        return -1
    return p


@njit
def _pos_base(st, S, c):
    """Per grid position, the part of a position score that is the same for all its spaces:
    ``tile_values._pos_bonus`` (Homefield, the tile's reward), minus the doom of a coordinate
    announced for destruction and, once the Storm is revealed, of the outer layers, plus the
    pull of the Apocalypse tile while holding it can resolve the Apocalypse. Folded here
    once per decision (49 positions), so the loop over spaces reads one number per space."""
    out = _pos_bonus(st, S, c)
    w_doomed = S.fp[L.W_DOOMED]
    pos_state = st.pos_state
    pos_layer = S.pos_layer
    storm = _storm(st, S)
    hold = _hold_target(st, S)
    w_hold = S.fp[L.W_APOC_HOLD]
    for p in range(out.shape[0]):
        if pos_state[p] == L.ANNOUNCED:
            out[p] -= w_doomed
        if storm:
            out[p] -= 0.01 * w_doomed * pos_layer[p]
        if hold >= 0:  # the Apocalypse's condition (greedy_apocalypse_hold), nearer is better
            far = max(abs(p // 7 - hold // 7), abs(p % 7 - hold % 7))
            out[p] += w_hold / (1 + far)
    return out


@njit
def _threats(st, S, c):
    """Per decision, once: enemy characters' (row, column) and attacking CPUs' (row, column,
    reach, home position) — the position score then needs no entity scan per space."""
    ent = st.ent
    m = ent.shape[0]
    # the decision's scratch (borrowed: no allocation, no reference counts; every call of one
    # decision writes the same values), an array per coordinate in it (the loop vectorises)
    buf = st.decision.threat
    enemy_r = buf[:m]
    enemy_c = buf[m:2 * m]
    cpu = buf[2 * m:].reshape((m, 4))
    ne = 0
    nc = 0
    for e in range(m):
        t = ent.space[e]
        if ent.alive[e] == 0 or t < 0:
            continue
        if ent.is_cpu[e] != 0:
            if ent.atk[e, 0] > 0:
                cpu[nc, 0] = t // SPAN
                cpu[nc, 1] = t % SPAN
                cpu[nc, 2] = max(ent.speed[e], 0) + max(ent.range[e], 1)
                cpu[nc, 3] = ent.home[e]
                nc += 1
        elif ent.team[e] != ent.team[c] and ent.team[e] >= 0:  # not a vehicle
            enemy_r[ne] = t // SPAN
            enemy_c[ne] = t % SPAN
            ne += 1
    return enemy_r[:ne], enemy_c[:ne], cpu[:nc]


@njit(inline="always")
def _cpus_near(cpu, spaces):
    """Move to the front of ``cpu`` the CPUs whose danger can reach one of ``spaces`` (within
    its reach of the spaces' bounding box, or its home tile's block overlapping the box) and
    return how many: the rest would add nothing to any score, and the candidate spaces of one
    decision lie close together, so most CPUs drop out of the per-space loop. The order of the
    rows does not matter (each CPU in danger subtracts the same weight)."""
    r0, r1, c0, c1 = SPAN, -1, SPAN, -1
    for i in range(spaces.shape[0]):
        r = spaces[i] // SPAN
        col = spaces[i] % SPAN
        r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, col), max(c1, col)
    near = 0
    for k in range(cpu.shape[0]):
        dr = max(r0 - cpu[k, 0], cpu[k, 0] - r1, 0)
        dc = max(c0 - cpu[k, 1], cpu[k, 1] - c1, 0)
        home = cpu[k, 3]
        hr = (home // GRID) * BLOCK
        hc = (home % GRID) * BLOCK
        if (max(dr, dc) <= cpu[k, 2] or home < 0
                or (hr <= r1 and r0 <= hr + BLOCK - 1 and hc <= c1 and c0 <= hc + BLOCK - 1)):
            for j in range(4):
                cpu[near, j], cpu[k, j] = cpu[k, j], cpu[near, j]
            near += 1
    return near


@njit
def _position_scores(ent, fp, tile_pos, pos_base, c, spaces, mask, masked, enemy_r, enemy_c, cpu,
                     out):
    """``out[i]``: the position score of ``spaces[i]`` for character ``c`` (-inf where ``masked``
    and ``mask`` forbids moving there).

    Plain arrays, not the state objects, and the loop over spaces inside: an array handed to a
    function per space (even an inlined one) costs a reference-count round trip per space.
    The nearest enemy: a scan of all enemies with no early exit, which LLVM vectorises (an exit
    once no further enemy could be nearer, over enemies sorted by distance, did fewer
    comparisons but mispredicted its branches: twice the time per space on game data).
    ``pos_base``: per position, what does not depend on the space (:func:`_pos_base`)."""
    reach = ent.range[c]
    w_cpu = fp[L.W_CPU_DANGER]
    w_approach = fp[L.W_APPROACH]
    n_cpu = _cpus_near(cpu, spaces)
    n_enemy = enemy_r.shape[0]
    move = _move_base(tile_pos.shape[0], ent.shape[0])
    for i in range(spaces.shape[0]):
        s = spaces[i]
        if masked and not mask[move + s]:
            out[i] = -np.inf
            continue
        p = tile_pos[s]
        score = pos_base[p] if p >= 0 else 0.0
        r = s // SPAN
        col = s % SPAN
        for k in range(n_cpu):
            if p == cpu[k, 3] or max(abs(r - cpu[k, 0]), abs(col - cpu[k, 1])) <= cpu[k, 2]:
                score -= w_cpu
        near = 1 << 30
        for k in range(n_enemy):
            near = min(near, max(abs(r - enemy_r[k]), abs(col - enemy_c[k])))
        if near < (1 << 30):
            score -= w_approach * max(near - reach, 0)
        out[i] = score
    return out


@njit
def _best_move(spaces, scores, mask, base, best, best_a):
    """The move (``base + s``, ``actions._move_base``) scoring above ``best`` among ``spaces``
    (``scores[i]`` is the position score of ``spaces[i]``) that ``mask`` allows, else
    ``best_a``; ties keep the lowest space id (a fixed, documented order; it is not
    seat-neutral), whatever order ``spaces`` lists them in."""
    for i in range(spaces.shape[0]):
        a = base + spaces[i]
        if mask[a] and (scores[i] > best or (scores[i] == best and best_a != L.END and a < best_a)):
            best, best_a = scores[i], a
    return best_a


@njit
def _best_landing(spaces, scores, base, price, best, best_a):
    """The action ``base + spaces[i]`` (a teleport's or a launch's landing, ``scores[i]`` its
    position score) worth more than ``best`` once ``price`` is paid, as (score, action); else
    (best, best_a). Ties keep the earlier."""
    for i in range(spaces.shape[0]):
        if scores[i] - price > best:
            best, best_a = scores[i] - price, base + spaces[i]
    return best, best_a


@njit
def _best_space(st, S, c, mask, spaces, best, best_a, enemy_r, enemy_c, cpu, bonus):
    """:func:`_best_move` among ``spaces``, scored for ``c``. ``bonus``: :func:`_pos_base` of
    ``c``, computed once per decision."""
    scores = _position_scores(st.ent, S.fp, st.tile_pos, bonus, c, spaces, mask, True, enemy_r,
                              enemy_c, cpu, np.empty(spaces.shape[0]))
    return _best_move(spaces, scores, mask, _move_base(st.kind.shape[0], st.ent.shape[0]), best,
                      best_a)


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
        if mask[base + e]:
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
                              False, enemy_r, enemy_c, cpu, np.empty(wspaces.shape[0]))
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
    if ent.submerged[c] != 0:  # escaping is all a submerged character may do
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
    if ent.acted[c] == 0:
        attack = _attack_base(n, m)
        for e in range(m):
            if mask[attack + e]:
                sc = _attack_score(st, S, c, e, 0, c)
                if sc > best:
                    best, best_a = sc, attack + e
        if ent.riding[c] > 0:  # (tested here: the call is made only for a rider)
            best, best_a = _weapon_action(st, S, c, mask, best, best_a)
    if ent.ab_used[c] == 0 and ent.ab_target[c] != L.T_SPACE:
        base = _ability_base(n, m)
        for e in range(m):
            if mask[base + e]:
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
def _best_position(st, S, c, mask):
    """The move, teleport, launch or water-roll to the best-placed space, or END where staying
    scores best; scored by :func:`_position_scores` once per decision."""
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
    # one call scores staying and every walk (the reached spaces begin with the search's start),
    # unless staying is scored alone and no walk can beat it (_walk_may_win)
    nreach = decision.n_reached
    spaces = decision.reached[:nreach] if nreach >= 0 else np.arange(n)
    walk = decision.walk[:spaces.shape[0]]  # the decision's scratch: no allocation
    boards = _boardable(st, c, mask)
    scored = True
    if spaces[0] == ref and not boards and fp[L.W_CPU_DANGER] >= 0 and fp[L.W_APPROACH] >= 0:
        here = _position_scores(ent, fp, tile_pos, bonus, c, spaces[:1], mask, False, enemy_r,
                                enemy_c, cpu, walk[:1])[0]
        scored = _walk_may_win(bonus, tile_pos, spaces, mask, _move_base(n, m), here + 1e-9)
    if scored:
        _position_scores(ent, fp, tile_pos, bonus, c, spaces, mask, False, enemy_r, enemy_c, cpu,
                         walk)
        if boards:
            for v in range(g.veh_first, g.veh_first + g.veh_n):
                if _boards_onto(st, c, v, mask):
                    _boarding_bonus(st, S, c, v, spaces, walk)
        if spaces[0] == ref:
            here = walk[0]
        else:  # the board kernel's fallback lists the reached spaces by id
            here = _position_scores(ent, fp, tile_pos, bonus, c,
                                    np.full(1, ref), mask, False, enemy_r, enemy_c, cpu,
                                    np.empty(1))[0]
    best, best_a = here + 1e-9, L.END
    if ent.ab_used[c] == 0 and ent.ab_op[c] == L.OP_MOBILITY:  # a teleport
        tele = _teleport_spaces(st, c, mask)
        if tele.shape[0] > 0:
            scores = _position_scores(ent, fp, tile_pos, bonus, c,
                                      tele, mask, False, enemy_r, enemy_c, cpu,
                                      np.empty(tele.shape[0]))
            best, best_a = _best_landing(tele, scores, _ability_space_base(n, m), 0.0, best, best_a)
    # a launch (the Slingshot) is a move that spends the action; the interactable within reach
    # is the one legal._legal found for this decision
    k = decision.interactable
    if k >= 0 and _is_launch(S.tile_fx, k):
        launch, price = _launch(st, S, c, mask, k)
        scores = _position_scores(ent, fp, tile_pos, bonus, c, launch, mask, False, enemy_r,
                                  enemy_c, cpu, np.empty(launch.shape[0]))
        best, best_a = _best_landing(launch, scores, _interact_base(n, m), price, best, best_a)
    # water-rolls while the streak is free, from a space where one can start
    if ent.streak_over[c] == 0 and _by_water(tile_pos, st.tiles, S.tile_fx,
                                                 st.move_roll, ref):
        wspaces, walls = _water_targets(st, S, c, mask)
        if wspaces.shape[0] > 0:
            scores = _position_scores(ent, fp, tile_pos, bonus, c,
                                      wspaces, mask, False, enemy_r, enemy_c, cpu,
                                      np.empty(wspaces.shape[0]))
            best, best_a = _water_choice(st, S, c, wspaces, walls, scores, here, best, best_a,
                                         _water_base(n, m))
    if _move_speed(ent, c) <= 0 or not scored:  # its own speed, or its vehicle's; or no walk
        return best_a  # can score above staying
    # the walk, scored above
    step = _best_move(spaces, walk, mask, _move_base(n, m), best + 1e-9, L.END)
    return step if step != L.END else best_a
