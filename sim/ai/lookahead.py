"""``lookahead``: greedy improved by simulation — each candidate action is played out in private
copies of the game, and the best average outcome is chosen.

Why this algorithm (a one-level Monte Carlo search with greedy rollouts, i.e. one step of policy
improvement over greedy; Tesauro & Galperin 1996, Bertsekas' "rollout algorithms"): a Board Wars
decision is worth what follows it — the attack the mover can make from a space, the retaliation
of a CPU, the enemies' answer on their turns, the Apocalypse's next step — and the engine already
computes all of it exactly. Greedy scores an action by its value *now*; here each candidate is
followed by greedy play and scored by the state reached (a finished game counts 1 for a win and
0 otherwise; an unfinished one, the team's share of the health still on the board — the
stalemate and simultaneous-elimination rulings decide by health). The policy is never worse
than greedy's choice by its own estimate: greedy's action is always a candidate and wins ties.

Horizon (:func:`_horizon`). Below ``DEEPEN`` simulations per decision a play-out ends with the
mover's own turn (its remaining actions, played by greedy), and the enemies' answer is
estimated instead of played (:mod:`.threat_value`): a play-out is a few decisions instead of
about 33, 20× faster than whole rotations and not weaker against them (docs/performance.md).
From ``DEEPEN`` the play-outs run two rotations, three from 4 × ``DEEPEN``, ...: against other
look-aheads a larger budget gained strength only by looking further (docs/ai.md).
``lookahead-rotation`` plays whole rotations at every budget (one below ``DEEPEN``): the
look-ahead as it was before the estimate, kept to compare against.

Budget (``budget``) = the most simulations per decision, spent by sequential halving (Karnin,
Koren & Somekh 2013, "Almost optimal exploration in multi-armed bandits"): the candidates get
the same number of play-outs, the worse half is dropped, the survivors get more, until one is
left. The first ``budget // 2`` candidates in the order below are considered (two play-outs each
in the first round when the budget allows), so the budget buys breadth as well as precision.
A candidate that scored exactly as greedy's choice in every play-out so far is dropped (within
the horizon the two cannot be told apart, and greedy's choice would win the tie); a decision
where every candidate ties stops early, under budget. A simulation is one play-out of at most
``PLAYOUT_CAP`` decisions, so a decision costs at most ``budget * PLAYOUT_CAP`` simulated
decisions (in practice ~2 a play-out below ``DEEPEN``, ~32 per rotation looked ahead).
``budget < 2`` plays greedy.

Candidates, in order: greedy's own choice, every attack (by greedy's score), every ability use on
an entity (by greedy's score), the best pick-up and every item use worth something (by greedy's
score), the best-placed teleport, ending the turn, handing the turn to each teammate that may take it,
the ``MOVES`` best-placed spaces by greedy's position score, the ``HOLDS`` best without its
"close the distance" term and the ``RETREATS`` best with it reversed (ways to hold back that
greedy never considers); a placement considers every spawn space.

What the search may not see: the game's random stream and the face-down Apocalypse. Each
simulation draws its dice from a stream hashed from the game's stream state, the decision
number and the simulation number — the game's own stream is only read, so the same seed still
plays the same game — and, until the reveal, draws the Apocalypse afresh from the Index (the
real one stays hidden: "face-down" until "revealed"). Simulation ``j`` of a decision uses the
same stream for every candidate (common random numbers: the candidates are compared on the
same dice as far as their games run alike).
"""

from __future__ import annotations

import numpy as np

from sim._jit import njit
from sim.engine.state import fields as L
from sim.engine.state.borrow import borrowed
from sim.engine.rules.actions import (_ability_base, _ability_space_base, _alt_base,
                                     _attack_base, _hand_base, _interact_base, _move_base,
                                     _water_base)
from sim.engine.entities.special import _move_speed
from sim.engine.rules.legal import _legal
from sim.engine.state.game_state import _clone, _copy_into
from sim.engine.tiles.functions import _knows_apocalypse
from sim.engine.rules.turn import _apply
from sim.rng import roll

from .entity_values import _summon_action
from .greedy import _greedy_action, _pos_base, _position_scores, _threats, _weapon_action
from .threat_value import _value
from .values import _ability_score, _attack_score, _teleport_spaces
from .item_values import _item_candidates
from .tile_values import _best_tile_action, _is_launch, _launch
from .water_values import _water_targets

MOVES = 4          # best spaces by greedy's position score
HOLDS = 2          # best spaces without its approach term
RETREATS = 2       # best spaces with the approach term reversed (away from the enemy)
WIDEN = 16         # budget per extra hold and retreat beyond the first two
MAX_CANDIDATES = 40
PLAYOUT_CAP = 4000  # decisions per play-out: a guard (a rotation takes ~30)
DEEPEN = 32        # budget from which play-outs look a rotation further (docs/ai.md)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(inline="always")
def _mix(x):
    """SplitMix64's finaliser (Steele, Lea & Flood 2014): a 64-bit hash with full avalanche."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def _seed_simulation(st, j, out):
    """``out`` = xoshiro state of simulation ``j`` of this decision, hashed from the game's stream
    state and decision number (read, never advanced)."""
    h = _mix(np.uint64(st.game.decisions))
    for k in range(4):
        h = _mix(h ^ st.rng[k])
    h = _mix(h ^ (np.uint64(j) * _GOLDEN))
    for k in range(4):
        h = _mix(h + np.uint64(k + 1))
        out[k] = h
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = _GOLDEN


@njit
def _horizon(budget, whole_rotations):
    """Team turns a play-out runs: below ``DEEPEN`` simulations per decision 0, the rest of the
    mover's own turn only, scored by the enemies' threats (``threat_value``), unless
    ``whole_rotations``; else one rotation (4 turns), and one more from ``DEEPEN`` and each
    further factor of 4."""
    if budget < DEEPEN and not whole_rotations:
        return 0
    depth = 1
    while budget >= DEEPEN:
        depth += 1
        budget //= 4
    return 4 * depth


@njit(inline="always")  # one call site: no library of its own to link and re-optimise
def _playout(sim, S, mask, team, r0, turns, mover):
    """Greedy until the horizon (or the end): with ``turns`` 0 while ``mover`` decides (the
    rest of its own turn), else for everyone until the start of the ``turns``-th team turn after
    ``team``'s turn of rotation ``r0`` (4: its next turn); the number of decisions played."""
    g = sim.game
    n = 0
    r_end = r0 + (team + turns) // 4
    t_end = (team + turns) % 4
    while g.over == 0 and n < PLAYOUT_CAP:
        if turns == 0:
            if g.cur != mover:
                break
        elif g.rotation > r_end or (g.rotation >= r_end and g.turn >= t_end):
            break
        count = _legal(sim, S, mask)
        a = L.END
        if count == 1:
            for b in range(mask.shape[0]):
                if mask[b]:
                    a = b
                    break
        else:
            a = _greedy_action(sim, S, mask)
        _apply(sim, S, a)
        n += 1
    return n


@njit
def _add(cands, k, a):
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
                              enemy_r, enemy_c, cpu, np.empty(spaces.shape[0]))
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
                              False, enemy_r, enemy_c, cpu, np.empty(spaces.shape[0]))
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


@njit(inline="always")  # one call site (see _playout)
def _simulate(st, S, sim, a, j, team, mask, health, stats, turns):
    """One play-out of action ``a`` with simulation ``j``'s dice, ``turns`` team turns long
    (:func:`_horizon`); its value for ``team``."""
    _copy_into(sim, st)
    _seed_simulation(st, j, sim.rng)
    g = sim.game
    if g.revealed == 0 and not _knows_apocalypse(st, team):  # face-down: draw our own
        s0, s1, s2, s3 = sim.rng[0], sim.rng[1], sim.rng[2], sim.rng[3]
        r, s0, s1, s2, s3 = roll(S.apoc_code.shape[0], s0, s1, s2, s3)
        sim.rng[0], sim.rng[1], sim.rng[2], sim.rng[3] = s0, s1, s2, s3
        g.apoc = r - 1
    r0 = g.rotation
    # ``_apply`` reads a move's cost from this decision's reach search: ``st`` has it (its
    # ``_legal`` ran), the copy starts from the same position, so no second search is needed
    # (the copy's next reach search resets every entry: ``_copy_into`` left ``n_reached`` -1)
    move = _move_base(st.kind.shape[0], st.ent.shape[0])
    if move <= a < _attack_base(st.kind.shape[0], st.ent.shape[0]):
        sim.decision.reach_cost[a - move] = st.decision.reach_cost[a - move]
    mover = g.cur
    _apply(sim, S, a)
    stats[1] += 1 + _playout(sim, S, mask, team, r0, turns, mover)
    stats[0] += 1
    # cut at the end of the mover's turn (``turns`` 0): the enemies' answer is estimated
    return _value(sim, S, team, health, turns == 0)


@njit(inline="always")  # into play._choose, through _lookahead_action (see _playout)
def _search(st, S, mask, budget, turns, stats):
    """The look-ahead's action for the current decision (``_legal`` has just run on ``st``),
    its play-outs ``turns`` team turns long (:func:`_horizon`); ``stats`` += simulations run,
    decisions simulated. ``st`` is only read."""
    cands = np.empty(MAX_CANDIDATES, np.int64)
    k = _candidates(st, S, mask, cands, budget)
    if budget < 2 or k == 1:
        return cands[0]
    k = min(k, max(2, budget // 2))  # every candidate's first round: two simulations if it can
    team = st.ent.team[st.game.cur]
    sim = _clone(st)
    owned = np.zeros(mask.shape[0], np.bool_)
    smask = borrowed(owned)  # no reference count per kernel (state/borrow.py); ``owned`` keeps it
    health = np.zeros(4, np.int64)
    total = np.zeros(k)
    runs = np.zeros(k, np.int64)
    tied = np.ones(k, np.bool_)  # scored exactly as greedy's choice in every simulation so far
    value = np.zeros(k)
    alive = np.arange(k)
    left = budget
    j = 0
    while alive.shape[0] > 1:
        na = alive.shape[0]
        rounds = 1
        while (1 << rounds) < na:
            rounds += 1
        per = max(1, (left // rounds) // na)
        if per * na > left:
            per = left // na
        if per == 0:
            break
        for _ in range(per):
            for i in alive:
                value[i] = _simulate(st, S, sim, cands[i], j, team, smask, health, stats, turns)
                total[i] += value[i]
                runs[i] += 1
                tied[i] = tied[i] and value[i] == value[0]
            j += 1
        left -= per * na
        # a candidate that scored exactly as greedy's choice in every simulation is not told
        # apart from it within the horizon: drop it (greedy's choice would win the tie anyway)
        if alive[0] == 0:
            alive = np.concatenate((alive[:1], alive[1:][~tied[alive[1:]]]))
        na = alive.shape[0]
        if na == 1:
            break
        mean = total[alive] / runs[alive]
        order = np.argsort(-mean, kind="mergesort")  # stable: ties keep greedy's ranking
        alive = np.sort(alive[order[: (na + 1) // 2]])
    owned[L.END] = False  # the owner's last use: no simulation reads the borrowed mask after it
    best = alive[0]
    best_mean = -1.0
    for i in alive:
        if runs[i] > 0 and total[i] / runs[i] > best_mean:
            best, best_mean = i, total[i] / runs[i]
    return cands[best]


@njit(inline="always")  # called from play._choose only
def _lookahead_action(st, S, mask, budget, whole_rotations):
    stats = np.zeros(2, np.int64)
    return _search(st, S, mask, budget, _horizon(budget, whole_rotations), stats)
