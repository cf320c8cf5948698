"""The game's StructRefs hold their arrays twice (sim/engine/state/borrow.py): borrowed in the
fields the kernels read (no reference count to take, so no atomic operation per read) and owned
in ``owners``. These tests check both halves of that contract: kernels see arrays without an
owner, Python only ever gets owned arrays, so an array Python keeps outlives the game it came
from with its contents intact, and copies and look-ahead clones are independent.

The StructRefs themselves reach kernels borrowed (sim/engine/state/view.py): every kernel is
compiled for ``Borrowed`` arguments, a borrowed StructRef handed back to Python takes a
reference of its own, and whole games allocate and free the same memory (Numba's own
allocation counts), so no reference is lost or dropped twice."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from numba.core.runtime import _nrt_python as nrt, rtsys

from sim._jit import njit
from sim.ai.play import play_many
from sim.catalogue.teams import random_teams
from sim.catalogue.loader import load_catalogue
from sim.engine.log.record import new_game
from sim.engine.state.borrow import borrowed
from sim.engine.state.decision import DECISION_FIELDS
from sim.engine.state import fields as L
from sim.engine.state.game_state import STATE_FIELDS, STATIC_FIELDS, StateType, _clone
from sim.engine.state.static_tables import stack_setups
from sim.engine.state.view import Borrowed
from tests._engine_kit import CARDS, setup_for

CATALOGUE = load_catalogue()
TEAMS = np.arange(20).reshape(4, 5)


@njit
def _kernel_view(st):
    """What a kernel reads: the entity rows and the decision's reach, as stored in the fields."""
    return st.ent, st.decision.reached


@njit
def _decision(st):
    """A borrowed StructRef field handed back to Python."""
    return st.decision


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


def test_kernels_are_compiled_for_borrowed_structrefs_only():
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    _kernel_view(game.st)
    _kernel_view(game.st)  # the second call finds the first one's machine code
    (signature,) = _kernel_view.signatures
    assert isinstance(signature[0], Borrowed) and isinstance(signature[0].base, StateType)


def test_a_kernel_called_from_python_with_a_game_is_found_without_the_compiler(monkeypatch):
    """A kernel is compiled for the borrowed StructRef, Python calls it with an owned one: from
    the second call on, Numba's dispatcher finds the machine code by the call's own types, not
    through its slow path (``_compile_for_args``: typing, the compiler lock, about 0.3 ms a
    call; sim/_jit.py ``_PlainArgs._answer_directly``). The fast call reads the same state and
    takes no reference."""
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    first = _kernel_view(game.st)  # compiled (or loaded) and filed
    slow = []
    original = _kernel_view._compile_for_args
    monkeypatch.setattr(_kernel_view, "_compile_for_args",
                        lambda *args: slow.append(args) or original(*args))
    owner = game.st._meminfo
    before = owner.refcount
    again = [_kernel_view(game.st) for _ in range(3)]
    assert slow == []
    assert owner.refcount == before
    assert all(g[0].tobytes() == first[0].tobytes() and np.array_equal(g[1], first[1])
               for g in again)
    (signature,) = _kernel_view.signatures  # filed under a second type, compiled once
    assert isinstance(signature[0], Borrowed)


def test_a_borrowed_structref_returned_to_python_has_its_own_reference():
    game = new_game(CATALOGUE, TEAMS, 7, log=False)
    owner = game.st._meminfo
    before = owner.refcount
    _kernel_view(game.st)
    assert owner.refcount == before  # a call takes no reference and leaves none behind
    decision = _decision(game.st)
    count = decision._meminfo.refcount
    again = _decision(game.st)
    assert again._meminfo.data == decision._meminfo.data  # the same decision
    assert decision._meminfo.refcount == count + 1  # each proxy holds one reference
    del again
    assert decision._meminfo.refcount == count
    kept = decision.reach_cost.copy()
    del game, owner
    gc.collect()
    assert decision._meminfo.refcount == 1  # the state is gone, this proxy keeps it
    junk = [np.full(4096, 123456789, np.int64) for _ in range(64)]  # reuse freed memory, if any
    assert np.array_equal(decision.reach_cost, kept)
    del junk


@pytest.mark.parametrize("policy", [L.GREEDY, L.LOOKAHEAD])
def test_games_free_all_they_allocate(policy):
    """Numba's allocation counts: every buffer and StructRef allocated while playing whole
    games (the look-ahead's clones included) is freed by the end, no more and no fewer."""
    stacked = stack_setups([setup_for(500 + b) for b in range(2)])
    rng = np.random.default_rng(5)
    teams = np.stack([random_teams(len(CATALOGUE.cards), rng) for _ in range(4)])

    def play():
        play_many(stacked, CARDS, np.arange(4) % 2, teams, 9, [policy] * 4,
                  budgets=[4] * 4 if policy == L.LOOKAHEAD else None)
        gc.collect()

    play()  # compile, and build any cached tables outside the count
    was_on = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        start = rtsys.get_allocation_stats()
        play()
        end = rtsys.get_allocation_stats()
    finally:
        if not was_on:
            nrt.memsys_disable_stats()
    allocated = end.alloc - start.alloc, end.mi_alloc - start.mi_alloc
    freed = end.free - start.free, end.mi_free - start.mi_free
    assert allocated[1] > 1000  # the games ran and allocated
    assert allocated == freed
