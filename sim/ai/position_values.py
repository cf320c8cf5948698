"""Where greedy would stand: the score of a position for the deciding character.

A space's score is its grid position's base (:func:`_pos_base`: Homefield and the tile's reward
from ``sim.ai.tile_values``, the doom of a coordinate announced for destruction, the outer
layers once the Storm is revealed, the pull of an Apocalypse tile that holding can resolve),
minus the danger of CPUs that can reach it and the distance still to close to the nearest
enemy (:func:`_position_scores`). The threats are gathered once per decision
(:func:`_threats`), so the loop over spaces reads plain arrays. ``sim.ai.greedy`` picks moves,
placements, landings and escapes with these scores; ``sim.ai.candidates`` ranks the
look-ahead's candidates with them. Weights: rules.toml [game] ``greedy_*``.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.catalogue.apocalypses import P_RESOLVE, RESOLVE_HOLD, STORM
from sim.combat.star import BASE
from sim.engine.state import fields as L
from sim.engine.state.decision import (FAR_AWAY, THREAT_COL, THREAT_COLS, THREAT_HOME,
                                       THREAT_REACH, THREAT_ROW, threat_rows)
from sim.engine.rules.actions import _move_base
from sim.engine.tiles.live_board import BLOCK, GRID

from .tile_values import _pos_bonus

UNREACHED = 1 << 30  # _press_distances: no opponent can be reached from the space
PRESS_CAP = SPAN * SPAN  # the most moves a press counts (no path is longer than every space)


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
            far = max(abs(p // GRID - hold // GRID), abs(p % GRID - hold % GRID))
            out[p] += w_hold / (1 + far)
    return out


@njit
def _threats(st, S, c):
    """Per decision, once: enemy characters' (row, column) and attacking CPUs' rows of
    ``decision.THREAT_*`` (row, column, reach, home position) — the position score then needs
    no entity scan per space. The enemies' arrays end with FAR_AWAY up to a whole block of
    ``THREAT_LANES`` (decision.py): no space is within 2**30 steps of those, so a nearest-enemy
    search over them finds the same enemy, and none when there is none."""
    ent = st.ent
    m = ent.shape[0]
    # the decision's scratch (borrowed: no allocation, no reference counts; every call of one
    # decision writes the same values), an array per coordinate in it (the loop vectorises)
    buf = st.decision.threat
    half = buf.shape[0] // 2
    enemy_r = buf[:half]
    enemy_c = buf[half:]
    cpu = st.decision.threat_cpu
    ne = 0
    nc = 0
    for e in range(m):
        t = ent.space[e]
        if ent.alive[e] == 0 or t < 0:
            continue
        if ent.is_cpu[e] != 0:
            if ent.atk[e, BASE] > 0:
                cpu[nc, THREAT_ROW] = t // SPAN
                cpu[nc, THREAT_COL] = t % SPAN
                cpu[nc, THREAT_REACH] = max(ent.speed[e], 0) + max(ent.range[e], 1)
                cpu[nc, THREAT_HOME] = ent.home[e]
                nc += 1
        elif ent.team[e] != ent.team[c] and ent.team[e] >= 0:  # not a vehicle
            enemy_r[ne] = t // SPAN
            enemy_c[ne] = t % SPAN
            ne += 1
    padded = threat_rows(ne)
    for k in range(ne, padded):
        enemy_r[k] = FAR_AWAY
        enemy_c[k] = FAR_AWAY
    return enemy_r[:padded], enemy_c[:padded], cpu[:nc]


@njit(inline="always")
def _cpus_near(cpu, spaces):
    """Move to the front of ``cpu`` the CPUs whose danger can reach one of ``spaces`` (within
    its reach of the spaces' bounding box, or its home tile's block overlapping the box) and
    return how many: the rest would add nothing to any score, and the candidate spaces of one
    decision lie close together, so most CPUs drop out of the per-space loop. The order of the
    rows does not matter (each CPU in danger subtracts the same weight)."""
    r0, r1, c0, c1 = SPAN, -1, SPAN, -1
    for i in range(spaces.shape[0]):
        u = np.uint64(spaces[i])  # never negative (as in _position_scores)
        r = np.int64(u // np.uint64(SPAN))
        col = np.int64(u % np.uint64(SPAN))
        r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, col), max(c1, col)
    near = 0
    for k in range(cpu.shape[0]):
        dr = max(r0 - cpu[k, THREAT_ROW], cpu[k, THREAT_ROW] - r1, 0)
        dc = max(c0 - cpu[k, THREAT_COL], cpu[k, THREAT_COL] - c1, 0)
        home = cpu[k, THREAT_HOME]
        hr = (home // GRID) * BLOCK
        hc = (home % GRID) * BLOCK
        if (max(dr, dc) <= cpu[k, THREAT_REACH] or home < 0
                or (hr <= r1 and r0 <= hr + BLOCK - 1 and hc <= c1 and c0 <= hc + BLOCK - 1)):
            for j in range(THREAT_COLS):
                cpu[near, j], cpu[k, j] = cpu[k, j], cpu[near, j]
            near += 1
    return near


@njit
def _position_scores(ent, fp, tile_pos, pos_base, c, spaces, mask, masked, enemy_r, enemy_c, cpu,
                     closest, out):
    """``out[i]``: the position score of ``spaces[i]`` for character ``c`` (-inf where ``masked``
    and ``mask`` forbids moving there).

    Plain arrays, not the state objects, and the loop over spaces inside: an array handed to a
    function per space (even an inlined one) costs a reference-count round trip per space.
    The nearest enemy: a scan of all enemies with no early exit, which LLVM vectorises (an exit
    once no further enemy could be nearer, over enemies sorted by distance, did fewer
    comparisons but mispredicted its branches: twice the time per space on game data); the
    enemies come in whole vectors (:func:`_threats` pads them with enemies too far to be the
    nearest), so its scalar loop for a remainder never runs.
    ``pos_base``: per position, what does not depend on the space (:func:`_pos_base`).
    ``closest``: the least range an attack may cross (``ip[P_CLOSEST]``): with 1
    (``attack_own_space = false``) a space nearer the enemy than that pays the approach term too,
    as one beyond the range does, since no attack can be made from it."""
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
        # a space is never negative: unsigned, its index and its row and column need no
        # negative-number fix-ups (Python's floor division)
        u = np.uint64(s)
        p = tile_pos[u]
        score = pos_base[p] if p >= 0 else 0.0
        r = np.int64(u // np.uint64(SPAN))
        col = np.int64(u % np.uint64(SPAN))
        for k in range(n_cpu):
            if p == cpu[k, THREAT_HOME] or (max(abs(r - cpu[k, THREAT_ROW]),
                                                abs(col - cpu[k, THREAT_COL]))
                                            <= cpu[k, THREAT_REACH]):
                score -= w_cpu
        near = 1 << 30
        for k in range(n_enemy):
            near = min(near, max(abs(r - enemy_r[k]), abs(col - enemy_c[k])))
        if near < (1 << 30):
            score -= w_approach * (max(near - reach, 0) + max(closest - near, 0))
        out[i] = score
    return out


@njit
def _pressing(st, fp):
    """Whether greedy presses now: the game quiet (no entity lost health) for ``greedy_press_after``
    whole rotations, with ``greedy_press`` on (rules.toml)."""
    return fp[L.W_PRESS] > 0.0 and st.game.quiet >= fp[L.W_PRESS_AFTER]


@njit
def _press_distances(st, c):
    """``decision.press[s]``: the fewest moves from space s to an opponent character of ``c``
    (the live move graph, both ways alike; a portal's pieces are one space: "Crossing between the
    two costs nothing"; water and walls as plain steps); ``UNREACHED`` where none can be reached.
    A breadth-first search from every opponent at once, each space queued once (a piece and its
    twin together). Why the board's moves and not the grid distance the approach term uses: a
    character within its range of an opponent on the grid but with a wall between them has no
    reason to move under that term, and quiet games stalled so (docs/rulings.md)."""
    ent = st.ent
    dist = st.decision.press
    queue = st.decision.tele_queue  # the teleport search's queue: free during a policy's choice
    nbr = st.move_nbr
    twin = st.twin
    dist[:] = UNREACHED
    tail = 0
    team = ent.team[c]
    for e in range(ent.shape[0]):
        s = ent.space[e]
        if (s >= 0 and ent.alive[e] != 0 and ent.team[e] >= 0 and ent.team[e] != team
                and ent.kind[e] <= L.K_SUMMONED):
            tail = _settle(dist, queue, twin, s, 0, tail)
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        for d in range(nbr.shape[1]):
            x = nbr[s, d]
            if x >= 0:
                tail = _settle(dist, queue, twin, x, dist[s] + 1, tail)
    return dist


@njit(inline="always")
def _settle(dist, queue, twin, s, d, tail):
    """Space s (and its portal twin) reached in ``d`` moves, unless reached before: queued."""
    if dist[s] != UNREACHED:
        return tail
    dist[s] = d
    queue[tail] = s
    tail += 1
    t = twin[s]
    if t >= 0 and dist[t] == UNREACHED:
        dist[t] = d
        queue[tail] = t
        tail += 1
    return tail


@njit
def _press(fp, dist, spaces, closest, out):
    """Take ``greedy_press`` per move to the nearest opponent off each of ``out``'s scores
    (``spaces[i]``'s); a space from which none can be reached loses as much as the farthest.
    Fewer moves than ``closest`` (the least range of an attack) count as ``closest``: standing
    on the opponent's space is no nearer a fight where it cannot be attacked."""
    w = fp[L.W_PRESS]
    for i in range(spaces.shape[0]):
        out[i] -= w * min(max(dist[spaces[i]], closest), PRESS_CAP)
    return out


@njit(inline="always")
def _placed(ent, fp, tile_pos, pos_base, c, spaces, mask, enemy_r, enemy_c, cpu, closest, dist,
            press, out):
    """:func:`_position_scores` of ``spaces`` (unmasked) into ``out``, less the press while
    pressing (:func:`_press`, ``dist`` from :func:`_press_distances`): greedy's one way to score
    where a character could stand."""
    _position_scores(ent, fp, tile_pos, pos_base, c, spaces, mask, False, enemy_r, enemy_c, cpu,
                     closest, out)
    return _press(fp, dist, spaces, closest, out) if press else out


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
                              enemy_c, cpu, S.ip[L.P_CLOSEST], np.empty(spaces.shape[0]))
    return _best_move(spaces, scores, mask, _move_base(st.kind.shape[0], st.ent.shape[0]), best,
                      best_a)
