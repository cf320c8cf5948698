"""The jitted game loop: one game (``_play``) and many games in parallel (``play_many``), and the
built-in policies' dispatch (``_choose``); :func:`step` and :func:`play_game` drive a Python
:class:`~sim.engine.game.Game` with them.

Why in the AI layer: the loop calls the policies (``random_policy``, ``greedy``, ``lookahead``),
which read the engine; the engine itself knows no policy (tests/test_layers.py).

Why a separate loop: a Python loop over decisions costs far more than the decisions themselves.
``_play`` composes the same small kernels the Python :class:`~sim.engine.game.Game` calls
(``_advance``, ``_legal``, a policy, ``_apply``). ``play_many`` hands chunks of games to
``numba.get_num_threads()`` Python threads, each running ``_play_range`` with the GIL released
(``nogil``); game ``i`` draws only from child ``i`` of ``SeedSequence(root)`` and allocates its own
state, so results are bit-identical whatever the thread count and memory stays flat.

Why threads and not ``prange``: a ``parallel=True`` kernel is compiled three more times over (the
parfor's gufunc and two wrappers, each linking the whole engine), a minute of cold compile for
the same speed.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from sim._jit import njit
from sim.engine.state import fields as L
from sim.engine.rules.actions import _n_actions
from sim.engine.rules.legal import SET_ALL, _clear_listed, _legal, _legal_listing
from sim.engine.state.new_game import _init_game
from sim.engine.state.borrow import borrowed
from sim.engine.state.game_state import new_static, with_fp
from sim.engine.rules.turn import _advance, _apply
from sim.engine.rules.victory import _finish_by_health, _team_alive, _team_health
from sim.rng import seed_states

from .greedy import _greedy_action
from .lookahead import _lookahead_action
from .spec import DEFAULT_BUDGET
from .observe import _conceal
from .random_policy import _random_action

MAX_DECISIONS = 1_000_000  # a guard only: every game ends by the rotation cap long before
GAMES_PER_CHUNK = 8  # games per thread task (a speed knob; results do not depend on it)

# ``play_many``'s tables: a game's results, and each card's play record (``_card_record``)
RESULT_COLUMNS = ("winner", "reason", "rotation", "deaths", "apocalypse", "decisions",
                  "health_seat1", "health_seat2", "health_seat3", "health_seat4",
                  "eliminated_seat1", "eliminated_seat2", "eliminated_seat3", "eliminated_seat4",
                  "apocalypse_resolved",  # 0: not resolved; 1 + the seat that resolved it
                  "lead_changes")  # rotation ends at which the team with most health changed
# their positions by name (module-level ints: constants in the kernels); R_HEALTH and
# R_ELIMINATED start a block of four, one per seat
(R_WINNER, R_REASON, R_ROTATION, R_DEATHS, R_APOCALYPSE, R_DECISIONS, R_HEALTH, R_ELIMINATED,
 R_APOCALYPSE_RESOLVED, R_LEAD_CHANGES) = (RESULT_COLUMNS.index(c) for c in (
    "winner", "reason", "rotation", "deaths", "apocalypse", "decisions", "health_seat1",
    "eliminated_seat1", "apocalypse_resolved", "lead_changes"))
CARD_COLUMNS = ("dealt", "taken", "kills", "alive")
CARD_DEALT, CARD_TAKEN, CARD_KILLS, CARD_ALIVE = (CARD_COLUMNS.index(c) for c in (
    "dealt", "taken", "kills", "alive"))


@njit
def _choose(st, S, mask, count, policy, budget=0):
    """The action of built-in ``policy`` (``fields.POLICY_IDS``) for the decision ``_legal`` has
    just listed; ``budget`` is the look-ahead's simulations per decision (0: its default). Greedy
    is tested first: adding policies costs its games nothing."""
    if count == 1:
        for a in range(mask.shape[0]):
            if mask[a]:
                return a
    # the policy sees invisible opponents where they were last seen (observe.py)
    hidden = _conceal(st, st.ent.team[st.game.cur])
    if policy == L.GREEDY:
        a = _greedy_action(st, S, mask)
    elif policy == L.LOOKAHEAD or policy == L.LOOKAHEAD_ROTATION:
        a = _lookahead_action(st, S, mask, budget if budget > 0 else DEFAULT_BUDGET,
                              policy == L.LOOKAHEAD_ROTATION)
    else:
        a = _random_action(st, mask, count)
    if hidden > 0:
        _conceal(st, st.ent.team[st.game.cur])  # the true positions back
    return a


@njit
def _eliminations(st, when, out):
    """``out[t]`` = ``when`` for each team eliminated since the last call (-1: still standing)."""
    for t in range(4):
        if out[t] < 0 and not _team_alive(st, t):
            out[t] = when


@njit
def _play(st, S, policies, budgets, eliminated, fps):
    """Play to the end; ``policies[t]`` is team t's policy id, ``budgets[t]`` its budget,
    ``fps[t]`` the float-parameter row its policy reads (``S.fp`` with team t's greedy weights:
    a tuned greedy beside the rules' one; the engine itself reads ``S``).
    ``eliminated[t]``: the decision after which team t was eliminated (-1: never) — the
    finishing order the ladder rates. Checked only when a character died (one comparison per
    decision otherwise)."""
    # one Static per team, each named: a tuple indexed by the team at every decision took and
    # dropped a reference on the Static it picked (0.7 % of a greedy game: nrt_callers.py)
    s0, s1, s2, s3 = with_fp(S, fps[0]), with_fp(S, fps[1]), with_fp(S, fps[2]), with_fp(S, fps[3])
    g = st.game
    # every kernel gets the mask borrowed (no reference count to take: state/borrow.py);
    # ``owned`` keeps its memory until the write after the loop (Numba frees a variable after
    # its last use)
    owned = np.zeros(_n_actions(st.kind.shape[0], st.ent.shape[0]), np.bool_)
    mask = borrowed(owned)
    _advance(st, S)
    deaths = g.deaths
    blocks = SET_ALL  # what the last listing left set in the mask (legal._clear_listed)
    while g.over == 0:
        _clear_listed(st, mask, blocks)
        count, blocks = _legal_listing(st, S, mask)
        t = st.ent.team[g.cur]
        if t == 0:
            a = _choose(st, s0, mask, count, policies[0], budgets[0])
        elif t == 1:
            a = _choose(st, s1, mask, count, policies[1], budgets[1])
        elif t == 2:
            a = _choose(st, s2, mask, count, policies[2], budgets[2])
        else:
            a = _choose(st, s3, mask, count, policies[3], budgets[3])
        _apply(st, S, a)
        if g.deaths != deaths:
            deaths = g.deaths
            _eliminations(st, g.decisions, eliminated)
        if g.decisions > MAX_DECISIONS:
            _finish_by_health(st, L.CAP)
    owned[L.END] = False  # the owner's last use: the borrowed mask is not read after this
    return g.winner


@njit
def _card_record(st, team_cards, rec):
    """``rec[team, slot]`` = health dealt, health taken, kills, characters alive at the end, summed
    over the characters of each card (a multi-character card has several); the health a card's
    minions and clones dealt and their kills count for the card (its ability made them), their
    losses and lives do not. A summoned 6th card and assists have no slot."""
    ent = st.ent
    for e in range(ent.shape[0]):
        t = ent.team[e]
        kind = ent.kind[e]
        if t < 0 or not (kind == L.K_CHARACTER or kind == L.K_MINION or kind == L.K_CLONE):
            continue
        for k in range(team_cards.shape[1]):
            if team_cards[t, k] == ent.card[e]:
                rec[t, k, CARD_DEALT] += ent.dealt[e]
                rec[t, k, CARD_KILLS] += ent.kills[e]
                if kind == L.K_CHARACTER:
                    rec[t, k, CARD_TAKEN] += ent.taken[e]
                    rec[t, k, CARD_ALIVE] += ent.alive[e] != 0
                break


@njit
def _play_range(statics, cards, cpu_rows, n_cpu, board_of, team_cards, states, policies, budgets,
                fps, seats, lo, hi, out, card_out):
    """Games ``lo..hi-1``: ``out[i]`` = winner, reason, rotations, deaths, Apocalypse, decisions,
    each seat's final health and the decision after which each seat was eliminated (-1: never) of
    game i; ``card_out[i]`` = :func:`_card_record` of game i. ``fps[p]``: player p's float
    parameters (its greedy weights), seated like ``policies[p]``."""
    team_fp = np.empty_like(fps)
    for i in range(lo, hi):
        k = board_of[i]
        S = new_static(statics.move_nbr2[k], statics.sight_nbr2[k], statics.sight_flag2[k],
                       statics.kind2[k], statics.tile_pos2[k], statics.twin2[k],
                       statics.move_roll[k], statics.pos_suit[k], statics.pos_layer,
                       statics.spawn_space[k], statics.ip[k], statics.fp, statics.tier_faces,
                       statics.tier_reject, statics.apoc_code, statics.apoc_params, statics.tail,
                       statics.ctail, statics.pos_dist[k], statics.item_fx, statics.tile_fx,
                       statics.pos_tile[k], statics.feature[k], statics.hits)
        st = _init_game(S, cards, cpu_rows[k, :n_cpu[k]], team_cards[i], states[i], 1, 0, -1)
        pol = np.empty(4, np.int64)
        bud = np.empty(4, np.int64)
        for t in range(4):
            pol[t] = policies[(t - seats[i]) % 4]
            bud[t] = budgets[(t - seats[i]) % 4]
            team_fp[t] = fps[(t - seats[i]) % 4]
        eliminated = np.full(4, -1, np.int64)
        _play(st, S, pol, bud, eliminated, team_fp)
        out[i, R_WINNER] = st.game.winner
        out[i, R_REASON] = st.game.reason
        out[i, R_ROTATION] = st.game.rotation
        out[i, R_DEATHS] = st.game.deaths
        out[i, R_APOCALYPSE] = st.game.apoc
        out[i, R_DECISIONS] = st.game.decisions
        health = _team_health(st, np.zeros(4, np.int64))
        for t in range(4):
            out[i, R_HEALTH + t] = health[t]
            out[i, R_ELIMINATED + t] = eliminated[t]
        out[i, R_APOCALYPSE_RESOLVED] = st.game.apoc_resolved
        out[i, R_LEAD_CHANGES] = st.game.lead_changes
        _card_record(st, team_cards[i], card_out[i])


def player_fps(fp, weights=None) -> np.ndarray:
    """``float64[4, NFP]``: the parameter row ``fp`` once per player, player p's greedy weights
    (``fields.W_DAMAGE..``, in ``GREEDY_KEYS`` order) replaced by ``weights[p]`` unless that is
    None (``weights`` None: every player plays the rules' weights); a NaN in ``weights[p]``
    keeps the rules' weight (a weights file that leaves the key out)."""
    fps = np.tile(np.asarray(fp, np.float64), (4, 1))
    if weights is not None:
        if len(weights) != 4:
            raise ValueError("weights hold one entry per seat (4)")
        for p, w in enumerate(weights):
            if w is not None:
                w = np.asarray(w, np.float64)
                if w.shape != (L.NFP - L.W_DAMAGE,):
                    raise ValueError(f"weights[{p}] must hold {L.NFP - L.W_DAMAGE} values")
                fps[p, L.W_DAMAGE:] = np.where(np.isnan(w), fps[p, L.W_DAMAGE:], w)
    return np.ascontiguousarray(fps)


def play_many(stacked, cards, board_of, team_cards, root_seed: int, policies, seats=None,
              first_game: int = 0, per_card: bool = False,
              game_indices=None, budgets=None, weights=None):
    """Play ``len(board_of)`` games in parallel; ``int64[n, 16]`` (``RESULT_COLUMNS``, ``R_*``),
    and with ``per_card`` also ``int64[n, 4, 5, 4]`` (``CARD_COLUMNS`` of each seat's cards).

    ``game_indices`` (instead of ``first_game``) names each game's index when they are not
    consecutive (replaying chosen games with changed cards).

    ``stacked`` = :func:`static_tables.stack_setups` output; game ``i`` uses board ``board_of[i]``,
    ``team_cards[i]`` and child ``first_game + i`` of ``SeedSequence(root_seed)``; team ``t``
    plays ``policies[(t - seats[i]) % 4]`` (seat rotation: ``policies[0]`` sits in seat
    ``seats[i]``) with budget ``budgets[(t - seats[i]) % 4]`` (default 0: each policy's own)
    and greedy weights ``weights[(t - seats[i]) % 4]`` (:func:`player_fps`; default: the rules')."""
    static, cpu_rows, n_cpu = stacked
    board_of = np.ascontiguousarray(board_of, np.int64)
    n = board_of.shape[0]
    team_cards = np.ascontiguousarray(team_cards, np.int64)
    if team_cards.shape != (n, 4, 5):
        raise ValueError(f"team_cards must be [{n}, 4, 5]")
    if n and (board_of.min() < 0 or board_of.max() >= cpu_rows.shape[0]):
        raise ValueError("board_of names a board that is not stacked")
    if game_indices is None:
        states = seed_states(root_seed, n, start=first_game)
    else:
        game_indices = np.asarray(game_indices, np.int64)
        if game_indices.shape != (n,):
            raise ValueError(f"game_indices must be [{n}]")
        states = np.concatenate([seed_states(root_seed, 1, start=int(g)) for g in game_indices]
                                ) if n else np.empty((0, 4), np.uint64)
    seats = np.zeros(n, np.int64) if seats is None else np.ascontiguousarray(seats, np.int64)
    policies = np.ascontiguousarray(policies, np.int64)
    budgets = (np.zeros(4, np.int64) if budgets is None
               else np.ascontiguousarray(budgets, np.int64))
    if policies.shape != (4,) or budgets.shape != (4,):
        raise ValueError("policies and budgets hold one entry per seat (4)")
    fps = player_fps(static.fp, weights)
    out = np.zeros((n, len(RESULT_COLUMNS)), np.int64)
    card_out = np.zeros((n, 4, 5, len(CARD_COLUMNS)), np.int64)

    def play(lo):  # rows lo.. of out and card_out: no two tasks share one
        _play_range(static, cards, cpu_rows, n_cpu, board_of, team_cards, states, policies,
                    budgets, fps, seats, lo, min(lo + GAMES_PER_CHUNK, n), out, card_out)

    # Games differ in length several-fold: hand them to threads a few at a time, so no thread
    # idles while another plays a long block.
    starts = range(0, n, GAMES_PER_CHUNK)
    threads = min(numba.get_num_threads(), len(starts))
    if threads <= 1:
        for lo in starts:
            play(lo)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(play, starts))
    return (out, card_out) if per_card else out


def step(game, policy: int, budget: int = 0, weights=None) -> None:
    """One decision of ``game`` (a :class:`~sim.engine.game.Game`) by built-in ``policy``
    (``fields.POLICY_IDS``; ``budget`` 0: its default; ``weights``: greedy weights of its own, in
    ``GREEDY_KEYS`` order, None: the rules'), through the loop's own ``_choose``."""
    mask = np.zeros(game.n_actions, np.bool_)  # _legal writes every entry
    count = _legal(game.st, game.S, mask)
    _apply(game.st, game.S, _choose(game.st, seen_by(game.S, weights), mask, count,
                                    np.int64(policy), np.int64(budget)))


def seen_by(S, weights=None):
    """The tables a player with greedy ``weights`` of its own reads (``GREEDY_KEYS`` order, NaN:
    the rules'): ``S`` with its weights in the float-parameter row; ``S`` itself for None."""
    return S if weights is None else with_fp(S, player_fps(S.fp, [weights] * 4)[0])


def play_game(game, policies, budgets=None, weights=None):
    """Play ``game`` to the end in the jitted loop; ``policies`` = 4 policy ids, one per team,
    ``budgets`` their budgets (default 0: each policy's own) and ``weights`` their greedy weights
    (4 entries, each None for the rules' or ``GREEDY_KEYS``-ordered values). Its
    :class:`Result`."""
    budgets = np.zeros(4, np.int64) if budgets is None else np.asarray(budgets, np.int64)
    _play(game.st, game.S, np.asarray(policies, np.int64), budgets, np.full(4, -1, np.int64),
          player_fps(game.S.fp, weights))
    return game.result()
