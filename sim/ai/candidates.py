"""The look-ahead's candidate actions (:mod:`.lookahead`): which actions of a decision it plays
out, chosen and ordered by greedy's own scores.

Why a list ordered by greedy: sequential halving considers only the first ``budget // 2``
candidates, so the order decides what a small budget sees. Greedy's choice comes first (the
look-ahead then never does worse than greedy by its own estimate), the rest follow by greedy's
score within each kind of action.

Candidates, in order: greedy's own choice, every attack (by greedy's score), every ability use on
an entity (by greedy's score), the best pick-up and every item use worth something (by greedy's
score), the best-placed teleport, ending the turn, handing the turn to each teammate that may take
it, the ``MOVES`` best-placed spaces by greedy's position score, the ``HOLDS`` best without its
"close the distance" term and the ``RETREATS`` best with it reversed (ways to hold back that
greedy never considers); a placement considers every spawn space.
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.engine.state import fields as L
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base,
                                     _attack_base, _hand_base, _interact_base, _move_base,
                                     _water_base)
from sim.engine.entities.special import _move_speed

from .entity_values import _summon_action
from .greedy import _greedy_action, _weapon_action
from .position_values import _pos_base, _position_scores, _threats
from .item_values import _item_candidates
from .tile_values import _best_tile_action, _is_launch, _launch
from .values import _ability_score, _attack_score, _teleport_spaces
from .water_values import _water_targets

MOVES = 4          # best spaces by greedy's position score
HOLDS = 2          # best spaces without its approach term
RETREATS = 2       # best spaces with the approach term reversed (away from the enemy)
WIDEN = 16         # budget per extra hold and retreat beyond the first two
MAX_CANDIDATES = 40


@njit
def _add(cands, k, a):
    """``cands[:k]`` with ``a`` appended unless it is there already or the list is full; the new
    length."""
    for i in range(k):
        if cands[i] == a:
            return k
    if k < cands.shape[0]:
        cands[k] = a
        k += 1
    return k


@njit
def _top_spaces(st, S, c, mask, approach, best, k_best):
    """The ``k_best`` legal moves with the best position score, its approach term weighted by
    ``approach`` (1 greedy's, 0 none, -1 away from the enemy), best first; ties keep the lower
    space id."""
    ent = st.ent
    fp = S.fp.copy()
    fp[L.W_APPROACH] *= approach
    enemy_r, enemy_c, cpu = _threats(st, S, c)
    decision = st.decision
    nreach = decision.n_reached
    spaces = decision.reached[:nreach] if nreach >= 0 else np.arange(st.kind.shape[0])
    scores = _position_scores(ent, fp, st.tile_pos, _pos_base(st, S, c), c, spaces, mask, True,
                              enemy_r, enemy_c, cpu, S.ip[L.P_CLOSEST], np.empty(spaces.shape[0]))
    score = np.full(k_best, -1e300)
    best[:] = -1
    move = _move_base(st.kind.shape[0], ent.shape[0])
    for i in range(spaces.shape[0]):
        a = move + spaces[i]
        sc = scores[i]
        if sc == -np.inf:  # not a legal move
            continue
        j = k_best
        while j > 0 and (sc > score[j - 1] or (sc == score[j - 1] and a < best[j - 1])):
            j -= 1
        if j < k_best:
            for m in range(k_best - 1, j, -1):
                score[m] = score[m - 1]
                best[m] = best[m - 1]
            score[j] = sc
            best[j] = a
    return best


@njit
def _best_placed(st, S, c, mask, spaces):
    """The space of ``spaces`` (one kind of action's legal destinations, at least one) with the
    best position score for ``c``, greedy's (the first of equals)."""
    enemy_r, enemy_c, cpu = _threats(st, S, c)
    scores = _position_scores(st.ent, S.fp, st.tile_pos, _pos_base(st, S, c), c, spaces, mask,
                              False, enemy_r, enemy_c, cpu, S.ip[L.P_CLOSEST],
                              np.empty(spaces.shape[0]))
    return spaces[np.argmax(scores)]


@njit
def _water_candidate(st, S, c, mask, cands, k):
    """The best-placed space a water-roll can reach (the play-outs weigh its chance)."""
    wsp, _ = _water_targets(st, S, c, mask)
    if wsp.shape[0] == 0:
        return k
    return _add(cands, k, _water_base(st.kind.shape[0], st.ent.shape[0])
                + _best_placed(st, S, c, mask, wsp))


@njit
def _candidates(st, S, mask, cands, budget):
    """Greedy's choice first, then attacks by greedy's score, ending the turn, the best moves."""
    ent = st.ent
    c = st.game.cur
    n = st.kind.shape[0]
    m = ent.shape[0]
    k = _add(cands, 0, _greedy_action(st, S, mask))
    if ent.space[c] < 0:
        move = _move_base(n, m)
        for a in range(move, move + n):
            if mask[a]:
                k = _add(cands, k, a)
        return k
    k = _strike_candidates(st, S, c, mask, cands, k)
    k = _water_candidate(st, S, c, mask, cands, k)
    for a in _item_candidates(st, S, c, mask):  # pick-up, item uses (sim/ai/item_values.py)
        k = _add(cands, k, a)
    if ent.ab_op[c] == L.OP_SUMMON and ent.ab_used[c] == 0:  # the best-placed summon
        enemy_r, enemy_c, _ = _threats(st, S, c)
        _, a = _summon_action(st, S, c, mask, enemy_r, enemy_c)
        if a >= 0:
            k = _add(cands, k, a)
    tele = (_teleport_spaces(st, c, mask) if ent.ab_op[c] == L.OP_MOBILITY
            else np.empty(0, np.int64))
    if tele.shape[0] > 0:
        k = _add(cands, k, _ability_space_base(n, m) + _best_placed(st, S, c, mask, tele))
    row = st.decision.interactable  # the slingshot's best-placed landing
    launch = (_launch(st, S, c, mask, row)[0] if row >= 0 and _is_launch(S.tile_fx, row)
              else np.empty(0, np.int64))
    if launch.shape[0] > 0:
        k = _add(cands, k, _interact_base(n, m) + _best_placed(st, S, c, mask, launch))
    sc, a = _best_tile_action(st, S, c, mask)  # an interactable or tile_control (tile_values)
    if a >= 0:
        k = _add(cands, k, a)
    if mask[L.END]:
        k = _add(cands, k, L.END)
    hand = _hand_base(n, m)  # handing the turn to each teammate (sim/engine/rules/order.py)
    for e in range(m):
        if mask[hand + e]:
            k = _add(cands, k, hand + e)
    if _move_speed(ent, c) > 0:  # its own speed, or its vehicle's
        k = _move_candidates(st, S, c, mask, cands, k, budget)
    return k


@njit
def _strike_candidates(st, S, c, mask, cands, k):
    """Every attack by greedy's score, the best attack through a vehicle, then every ability
    use on an entity by greedy's score (and the revive's second form, in the Spawn)."""
    ent = st.ent
    n = st.kind.shape[0]
    m = ent.shape[0]
    scores = np.full(m, -1e300)
    attack = _attack_base(n, m)
    for e in range(m):
        if mask[attack + e]:
            scores[e] = _attack_score(st, S, c, e, 0, c)
    for e in np.argsort(-scores, kind="mergesort"):
        if mask[attack + e]:
            k = _add(cands, k, attack + e)
    a = _weapon_action(st, S, c, mask, -1e300, -1)[1]  # the best attack through a vehicle
    if a >= 0:
        k = _add(cands, k, a)
    base = _ability_base(n, m)  # ability uses on entities, by greedy's score
    scores[:] = -1e300
    for e in range(m):
        if mask[base + e]:
            scores[e] = _ability_score(st, S, c, e)
    alt = _alt_base(n, m)  # the revive's second form (in the Spawn)
    for e in np.argsort(-scores, kind="mergesort"):
        if mask[base + e]:
            k = _add(cands, k, base + e)
        if mask[alt + e]:
            k = _add(cands, k, alt + e)
    return k


@njit
def _move_candidates(st, S, c, mask, cands, k, budget):
    """The ``MOVES`` best-placed spaces by greedy's position score, then the best without its
    approach term (holds) and with it reversed (retreats), more of each for a larger budget."""
    wide = max(0, budget // WIDEN - 1)
    holds, retreats = HOLDS + wide, RETREATS + wide
    best = np.empty(max(MOVES, holds, retreats), np.int64)
    for a in _top_spaces(st, S, c, mask, 1.0, best[:MOVES], MOVES):
        if a > 0:
            k = _add(cands, k, a)
    for a in _top_spaces(st, S, c, mask, 0.0, best[:holds], holds):
        if a > 0:
            k = _add(cands, k, a)
    for a in _top_spaces(st, S, c, mask, -1.0, best[:retreats], retreats):
        if a > 0:
            k = _add(cands, k, a)
    return k
