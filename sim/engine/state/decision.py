"""What ``_legal`` works out for one decision, kept apart from the game's facts.

Why a separate object: the search behind a legal mask (the mover's reach, the spaces it touched,
a sight scratch row, the interactable it could use) is scratch for one decision, not part of
the game. It used to sit among the facts (``State.cost``, ``queue``, ``sight`` and two game
scalars), so a reader could not tell a fact from a leftover, and the policies read it through
the game's scalars. Now ``legal._legal`` fills ``st.decision`` and the policies and ``_apply``
read it there, by name:

- ``reach_cost[s]``: speed the deciding character needs to reach space ``s`` (-1: out of reach);
- ``reached[:n_reached]``: the spaces that search touched (``n_reached`` -1: nothing to reset,
  search every space);
- ``reach_from``, ``reach_speed``, ``reach_rev``: the question that search answered (its start,
  its speed, the live board's revision, fields.BOARD_REV; ``reach_from`` -1: none). The reach
  depends on nothing else, so the next search of the same question is skipped: 40 % of a
  greedy game's searches repeat the one before (after an attack, the same character on the
  same space with the same speed left);
- ``sight``: the last line-of-sight search (``live_movement._sight_from``: the least range
  needed per space, read by its caller before the next search) and scratch for the reach's
  fallback;
- ``sight_list``: the spaces each kept sight search reached, with their range (rows of
  ``sight.LISTED_*``, searches one after another from row 0 up to ``sight_top``);
  ``sight_keys[s]``: (generation, range, first row, rows: KEY_*) of the search kept for ``s``,
  valid while its generation is ``sight_gen``; ``sight_rev``: the board revision the kept
  searches belong to (a new one, or a full list, starts a new generation); ``sight_at``,
  ``sight_off``, ``sight_len``: the start and the rows the ``sight`` table holds now, so only
  those are reset (``sight_len`` -1: reset the whole table). Sight depends only on the start
  and the board, and about half of a greedy game's sight searches ask again from a start
  searched before on the same board (docs/performance.md);
- ``rays``: the sight search's origin stack (``sight._rays_into``; a search that needs more
  rows than it has, an unusually long range through many portals, takes fresh ones);
- ``interactable``: the function row of the interactable it can use this decision (-1: none);
- ``threat``: scratch for greedy's enemy arrays (``position_values._threats``: the enemies'
  rows, then their columns, one number each per entity, in whole blocks of THREAT_LANES);
  ``threat_cpu``: the attacking CPUs'
  rows of THREAT_COLS, a row per entity (a table of its own: a 2-D view of a flat buffer costs a
  call into Numba's reshape helper at every decision); both rewritten by each call, and within
  one decision every call writes the same values;
- ``pos_base``: greedy's per-position base score (``position_values._pos_base``, one per grid
  position), the same way: every call of one decision writes the same values;
- ``walk``: greedy's position score per entry of ``reached`` (``greedy._best_position``);
- ``teleport[:n_teleport]``: the spaces the deciding character's teleport ability may land on,
  as the legal listing found them (``interpreter._teleport_targets``, in the order found), so
  greedy reads them here instead of scanning the mask's window again (work done once; the
  time saved is within the noise, docs/performance.md, stop 70); stale after the decision, so
  a reader keeps only the spaces whose action the decision's mask allows;
- ``tele_seen``, ``tele_queue``: the teleport search's visited flags (all 0 between searches)
  and its queue;
- ``press``: greedy's steps from each space to the nearest opponent along the board's moves,
  while it presses a quiet game (``greedy._press_distances``; ``tele_queue`` is its queue).

Why scratch and not fresh arrays: a malloc and a free per search and per decision were about
8 % of a greedy game (docs/performance.md).

A look-ahead copy of a game gets scratch of its own (``game_state._clone``), so nothing a
simulation searches can reach the real decision.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.experimental import structref

from sim._jit import njit
from sim.board.sight import LISTED_COLS, WORK_COLS, rays_rows, stack_cap
from sim.catalogue.board_rules import GRID
from sim.engine.state.borrow import borrowed
from sim.engine.state.view import ViewedStructRef

DECISION_FIELDS = ("reach_cost", "reached", "n_reached", "reach_from", "reach_speed", "reach_rev",
                   "sight", "rays", "interactable", "threat", "threat_cpu", "pos_base", "walk",
                   "sight_keys", "sight_list", "sight_rev", "sight_gen", "sight_top", "sight_at",
                   "sight_off", "sight_len", "teleport", "n_teleport", "tele_seen", "tele_queue",
                   "press")
# the fields a policy may write: its own scratch, read by nothing else (the rest is _legal's
# output, which _apply and the policies read; tests/test_policy_conformance.py)
POLICY_SCRATCH = ("threat", "threat_cpu", "pos_base", "walk", "press", "tele_queue")
# the sight searches the ``rays`` buffer holds without taking fresh rows: a range of up to
# RAYS_RANGE through up to RAYS_PIECES portal pieces (sight.stack_cap); not a game rule, only
# the size of a buffer (a longer search is still exact)
RAYS_RANGE, RAYS_PIECES = 8, 4
# the kept sight searches' list holds this many boards' worth of spaces before it starts again
# (a buffer's size, not a game rule: a fuller list only means more searches cast again)
SIGHT_LISTS = 4
# a ``sight_keys`` row, for one start space: the generation it belongs to, the range searched,
# the first row of its list in ``sight_list`` and how many rows it holds (live_movement)
KEY_GEN, KEY_RANGE, KEY_FIRST, KEY_ROWS = range(4)
KEY_COLS = 4
# a CPU's row in ``threat`` (position_values._threats): its board row and column (``SPAN``
# grid), its reach (speed and range) and its home grid position
THREAT_ROW, THREAT_COL, THREAT_REACH, THREAT_HOME = range(4)
THREAT_COLS = 4
# the enemies' rows and columns in ``threat`` fill whole blocks of THREAT_LANES, the last block
# ended with FAR_AWAY (position_values._threats): the vectorised distance loop over enemies then
# never runs its scalar loop for a remainder (a speed knob: any block length gives the same
# scores; 4 is the vector length LLVM picks for that loop)
THREAT_LANES = 4
FAR_AWAY = -(1 << 30)  # a row or column at least 2**30 steps from every space


@njit(inline="always")
def threat_rows(entities):
    """The room for one coordinate of ``entities`` enemies in ``threat``: whole blocks."""
    return -(-entities // THREAT_LANES) * THREAT_LANES


@structref.register
class DecisionType(ViewedStructRef):
    pass


def _copy(decision):
    """A deep copy (``State.copy``): the arrays copied, the scalars as they are."""
    return _decision_of(decision.reach_cost.copy(), decision.reached.copy(),
                        decision.n_reached, decision.reach_from, decision.reach_speed,
                        decision.reach_rev, decision.sight.copy(), decision.rays.copy(),
                        decision.interactable, decision.threat.copy(),
                        decision.threat_cpu.copy(),
                        decision.pos_base.copy(), decision.walk.copy(),
                        decision.sight_keys.copy(), decision.sight_list.copy(),
                        decision.sight_rev, decision.sight_gen, decision.sight_top,
                        decision.sight_at, decision.sight_off, decision.sight_len,
                        decision.teleport.copy(), decision.n_teleport,
                        decision.tele_seen.copy(), decision.tele_queue.copy(),
                        decision.press.copy())


class Decision(structref.StructRefProxy):
    """One decision's search results (module doc); from Python each read is a jitted call."""

    copy = _copy


@njit
def _decision_fields(decision):
    """The fields for Python: the owned arrays (state/borrow.py) and the scalars."""
    (reach_cost, reached, sight, rays, threat, threat_cpu, pos_base, walk, keys, listed,
     teleport, seen, queue, press) = decision.owners
    return (reach_cost, reached, decision.n_reached, decision.reach_from, decision.reach_speed,
            decision.reach_rev, sight, rays, decision.interactable, threat, threat_cpu, pos_base,
            walk,
            keys, listed, decision.sight_rev, decision.sight_gen, decision.sight_top,
            decision.sight_at, decision.sight_off, decision.sight_len, teleport,
            decision.n_teleport, seen, queue, press)


if numba.config.DISABLE_JIT:
    class Decision:  # noqa: F811 (interpreted kernels: a plain object with the same fields)
        __slots__ = DECISION_FIELDS
        __doc__ = Decision.__doc__
        copy = _copy

        def __init__(self, reach_cost, reached, n_reached, reach_from, reach_speed, reach_rev,
                     sight, rays, interactable, threat, threat_cpu, pos_base, walk, sight_keys,
                     sight_list,
                     sight_rev, sight_gen, sight_top, sight_at, sight_off, sight_len,
                     teleport, n_teleport, tele_seen, tele_queue, press, owners=None):
            self.reach_cost, self.reached, self.n_reached = reach_cost, reached, n_reached
            self.reach_from, self.reach_speed, self.reach_rev = reach_from, reach_speed, reach_rev
            self.sight, self.rays = sight, rays
            self.interactable, self.threat = interactable, threat
            self.threat_cpu = threat_cpu
            self.pos_base, self.walk = pos_base, walk
            self.sight_keys, self.sight_list = sight_keys, sight_list
            self.sight_rev, self.sight_gen, self.sight_top = sight_rev, sight_gen, sight_top
            self.sight_at, self.sight_off, self.sight_len = sight_at, sight_off, sight_len
            self.teleport, self.n_teleport = teleport, n_teleport
            self.tele_seen, self.tele_queue, self.press = tele_seen, tele_queue, press
else:
    # ``owners``: the arrays, owned (the fields are borrowed: state/borrow.py)
    structref.define_proxy(Decision, DecisionType, list(DECISION_FIELDS) + ["owners"])
    # Python reads (tests, tools): one jitted call per read, never cached, since a decision's
    # scalars change with every search
    for _i, _name in enumerate(DECISION_FIELDS):
        setattr(Decision, _name, property(lambda self, i=_i: _decision_fields(self)[i]))


@njit
def new_decision(spaces, entities, n_reached, interactable):
    """Scratch for a board of ``spaces`` spaces and a game of ``entities`` entity rows;
    ``n_reached`` and ``interactable`` as a fresh game (0, 0) or a look-ahead copy (-1, the real
    decision's) starts them."""
    reached = 4 * spaces + 16  # the reach's queue: a space is queued again when a cheaper way
    # to it is found (live_movement._reach_from); ``walk`` holds a score per entry
    return _decision_of(np.full(spaces, -1, np.int32), np.empty(reached, np.int64),
                        n_reached, -1, 0, 0, np.empty(spaces, np.int32),
                        np.empty((rays_rows(stack_cap(RAYS_RANGE, RAYS_PIECES)), WORK_COLS),
                                 np.int64),
                        interactable, np.empty(2 * threat_rows(entities), np.int64),
                        np.empty((entities, THREAT_COLS), np.int64),
                        np.empty(GRID * GRID), np.empty(reached),
                        np.full((spaces, KEY_COLS), -1, np.int64),
                        np.empty((SIGHT_LISTS * spaces, LISTED_COLS), np.int32), -1, 0, 0, -1, 0,
                        -1, np.empty(spaces, np.int64), 0, np.zeros(spaces, np.uint8),
                        np.empty(spaces, np.int64), np.empty(spaces, np.int32))


@njit
def _decision_of(reach_cost, reached, n_reached, reach_from, reach_speed, reach_rev, sight, rays,
                 interactable, threat, threat_cpu, pos_base, walk, sight_keys, sight_list,
                 sight_rev,
                 sight_gen, sight_top, sight_at, sight_off, sight_len, teleport, n_teleport,
                 tele_seen, tele_queue, press):
    """The Decision of these arrays: borrowed in the fields, owned in ``owners``."""
    return Decision(borrowed(reach_cost), borrowed(reached), n_reached, reach_from, reach_speed,
                    reach_rev, borrowed(sight),
                    borrowed(rays), interactable, borrowed(threat), borrowed(threat_cpu),
                    borrowed(pos_base),
                    borrowed(walk), borrowed(sight_keys), borrowed(sight_list), sight_rev,
                    sight_gen, sight_top, sight_at, sight_off, sight_len, borrowed(teleport),
                    n_teleport, borrowed(tele_seen), borrowed(tele_queue), borrowed(press),
                    (reach_cost, reached, sight, rays, threat, threat_cpu, pos_base, walk,
                     sight_keys,
                     sight_list, teleport, tele_seen, tele_queue, press))
