"""The game's StructRefs hold their arrays twice (sim/engine/state/borrow.py): borrowed in the
fields the kernels read (no reference count to take, so no atomic operation per read) and owned
in ``owners``. These tests check both halves of that contract: kernels see arrays without an
owner, Python only ever gets owned arrays, so an array Python keeps outlives the game it came
from with its contents intact, and copies and look-ahead clones are independent."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from sim._jit import njit
from sim.catalogue.loader import load_catalogue
from sim.engine.log.record import new_game
from sim.engine.state.borrow import borrowed
from sim.engine.state.decision import DECISION_FIELDS
from sim.engine.state.game_state import STATE_FIELDS, STATIC_FIELDS, _clone

CATALOGUE = load_catalogue()
TEAMS = np.arange(20).reshape(4, 5)


@njit
def _kernel_view(st):
    """What a kernel reads: the entity rows and the decision's reach, as stored in the fields."""
    return st.ent, st.decision.reached


@njit
def _borrow(a):
    return borrowed(a)


def _owned(a) -> bool:
    """Whether NumPy keeps this array's memory alive (its own data, or a base that owns it)."""
    while not a.flags.owndata:
        if a.base is None:
            return False
        if not isinstance(a.base, np.ndarray):
            return True  # Numba's MemInfo: the owner of memory Numba allocated
        a = a.base
    return True


def test_a_borrowed_array_shares_the_data_and_has_no_owner():
    a = np.arange(6.0)
    b = _borrow(a)
    assert b.base is None and not b.flags.owndata  # no MemInfo behind it
    b[2] = -1.0
    assert a[2] == -1.0  # the same memory


def test_kernels_read_borrowed_fields_and_python_reads_owned_ones():
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    ent, reached = _kernel_view(game.st)
    assert not _owned(ent) and not _owned(reached)
    for name in STATE_FIELDS:
        value = getattr(game.st, name)
        if isinstance(value, np.ndarray):
            assert _owned(value), name
    for name in STATIC_FIELDS:
        assert _owned(getattr(game.S, name)), name
    for name in DECISION_FIELDS:
        value = getattr(game.st.decision, name)
        if isinstance(value, np.ndarray):
            assert _owned(value), name


def test_an_array_python_keeps_outlives_its_game():
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    health = game.st.ent.health
    reach = game.st.decision.reach_cost
    kept = health.copy(), reach.copy()
    del game
    gc.collect()
    junk = [np.full(4096, 123456789, np.int64) for _ in range(64)]  # reuse freed memory, if any
    assert np.array_equal(health, kept[0]) and np.array_equal(reach, kept[1])
    del junk


@pytest.mark.parametrize("make", ["copy", "clone"])
def test_copies_and_lookahead_clones_are_independent(make):
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    st = game.st
    other = st.copy() if make == "copy" else _clone(st)
    before = st.ent.health.copy()
    other.ent.health[:] = 0
    other.decision.reach_cost[:] = 5
    assert np.array_equal(st.ent.health, before)
    assert not np.all(st.decision.reach_cost == 5)
