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

Candidates: :mod:`.candidates` (greedy's own choice first, then every attack, ability and item
use, ending the turn, handing it over, and the best-placed moves, holds and retreats).

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
from sim.engine.rules.actions import _attack_base, _move_base
from sim.engine.rules.legal import _legal
from sim.engine.state.game_state import _clone, _copy_into
from sim.engine.tiles.functions import _knows_apocalypse
from sim.engine.rules.turn import _apply
from sim.rng import roll

from .candidates import MAX_CANDIDATES, _candidates
from .greedy import _greedy_action
from .threat_value import _value

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
