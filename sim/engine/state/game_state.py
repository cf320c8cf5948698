"""A game's state (``State``) and its board's fixed tables (``Static``): two objects passed by
reference into every kernel.

Why StructRefs and not named tuples: Numba passes a named tuple of arrays *by value*, and a
kernel called with one takes and drops a reference on every array in it (36 atomic round trips
per call for ``State`` and ``Static``), whatever it reads. The game loop calls a dozen kernels
per decision, so with tuples that bookkeeping was about 40 % of a game's time. A StructRef is
one pointer, and kernels receive it borrowed (``view.py``: no reference count per call); a
kernel pays only for the fields it reads (hot loops hoist them into locals). The fields
themselves are borrowed arrays (``borrow.py``: no owner, so reading one takes no reference
count), owned in ``owners``.

Inside kernels the fields read as attributes (``st.ent``, ``S.tail``), as before. From Python,
build them with :func:`new_state` / :func:`new_static` (cached jitted constructors) and read the
same attributes (each read is a jitted call: fine for tests and the CLI, not for loops).
``Stacked`` is the plain container of many boards' tables that ``play_many`` slices per game.
"""

from __future__ import annotations

from collections import namedtuple

import numba
import numpy as np
from numba.core.extending import overload_attribute
from numba.experimental import structref

from sim._jit import njit

from sim.engine.state import fields as L
from sim.engine.state.borrow import borrowed
from sim.engine.state.decision import new_decision
from sim.engine.state.view import Borrowed, ViewedStructRef, owned

STATE_FIELDS = ("ent", "g", "pos_state", "rng", "ev", "move_nbr", "sight_nbr", "sight_flag",
                "kind", "tile_pos", "twin", "decision", "floor", "tiles",
                "feature", "move_roll")
STATIC_FIELDS = ("move_nbr2", "sight_nbr2", "sight_flag2", "kind2", "tile_pos2", "twin2",
                 "move_roll", "pos_suit", "pos_layer", "spawn_space", "ip", "fp", "tier_faces",
                 "tier_reject", "apoc_code", "apoc_params", "tail", "ctail", "pos_dist",
                 "item_fx", "tile_fx", "pos_tile", "feature", "hits")

# many boards' Static fields stacked on a leading board axis (a Python-side container)
Stacked = namedtuple("Stacked", STATIC_FIELDS)
# the arrays a State or Static owns, by field name (its fields hold them borrowed: borrow.py)
StateArrays = namedtuple("StateArrays", tuple(f for f in STATE_FIELDS if f != "decision"))
StaticArrays = namedtuple("StaticArrays", STATIC_FIELDS)


@structref.register
class StateType(ViewedStructRef):
    pass


@structref.register
class StaticType(ViewedStructRef):
    pass


def _game_record(st):
    """The game scalars by name (``st.game.rotation``) from Python and interpreted kernels: a
    record view of ``st.g``, so writes reach the game."""
    return st.g.view(np.recarray)[0]


class State(structref.StructRefProxy):
    """One game's mutable state: entities, game scalars, positions, random stream, event log,
    the live board graph (destroyed coordinates are cut out of it; swapped and transformed tiles
    are re-stamped into it, water- and fire-wall steps included: ``move_roll``) and search
    buffers."""

    def copy(self) -> "State":
        """A deep copy (snapshots for tests and tools)."""
        return new_state(*(a.copy() for a in state_fields(self)))

    game = property(_game_record)


class Static(structref.StructRefProxy):
    """One board's tables that no game changes (graph before destruction, rule numbers, the
    greedy policy's exact kill tables)."""


def _plain_class(name: str, fields, doc: str, base=object):
    """With ``NUMBA_DISABLE_JIT=1`` a StructRef proxy cannot be built (its constructor is itself
    a jitted function and recurses): the kernels then run as plain Python on plain objects with
    the same attributes (the interpreted baseline of benchmarks/games.py, debugging)."""
    def __init__(self, *values):
        if len(values) != len(fields):
            raise TypeError(f"{name} takes {len(fields)} fields, got {len(values)}")
        for f, v in zip(fields, values):
            setattr(self, f, v)

    return type(name, (base,), {"__init__": __init__, "__slots__": tuple(fields), "__doc__": doc})


if numba.config.DISABLE_JIT:
    class _Copyable:
        __slots__ = ()

        game = property(_game_record)

        def copy(self):  # each field its own copy (the Decision's: decision._copy)
            return new_state(*(a.copy() for a in state_fields(self)))

    State = _plain_class("State", STATE_FIELDS + ("owners",), State.__doc__,  # noqa: F811
                         _Copyable)
    Static = _plain_class("Static", STATIC_FIELDS + ("owners",), Static.__doc__)  # noqa: F811
else:
    # ``owners``: the fields' arrays, owned (borrow.py: the fields themselves are borrowed)
    structref.define_proxy(State, StateType, list(STATE_FIELDS) + ["owners"])
    structref.define_proxy(Static, StaticType, list(STATIC_FIELDS) + ["owners"])


@overload_attribute(StateType, "game")
@overload_attribute(Borrowed, "game")
def _game(st):
    """``st.game``: the one record of ``st.g`` (fields.GAME_DTYPE), read and written by name in
    kernels (``st.game.rotation += 1``, ``g.owed[team]``). A record taken from an array is a
    reference into it, so it costs what ``st.g[k]`` cost."""
    if isinstance(st, Borrowed) and not isinstance(st.base, StateType):
        return None
    return lambda st: st.g[0]


if numba.config.DISABLE_JIT:
    def new_entities(n):
        """``n`` entity rows, zeroed (fields.ENT_DTYPE). Interpreted kernels get a
        ``fields.Named`` array, whose fields read as attributes as compiled ones do."""
        return L.named(np.zeros(n, L.ENT_DTYPE))

    def new_tiles():
        """The 49 positions' tile records, zeroed (fields.TILE_DTYPE), as ``fields.Named``."""
        return L.named(np.zeros(49, L.TILE_DTYPE))

    def new_game_scalars():
        """A game's scalars, zeroed. Interpreted kernels get a NumPy record array, whose records
        take attributes as compiled records do."""
        return np.zeros(1, L.GAME_DTYPE).view(np.recarray)
else:
    @njit
    def new_entities(n):
        """``n`` entity rows, zeroed: records of fields.ENT_DTYPE (``ent.health[e]``)."""
        return np.zeros(n, L.ENT_DTYPE)

    @njit
    def new_tiles():
        """The 49 positions' tile records, zeroed: ``tiles.suit[p]``, ``tiles.dist[p, q]``."""
        return np.zeros(49, L.TILE_DTYPE)

    @njit
    def new_game_scalars():
        """A game's scalars, zeroed: one record of fields.GAME_DTYPE."""
        return np.zeros(1, L.GAME_DTYPE)


@njit
def new_state(ent, g, pos_state, rng, ev, move_nbr, sight_nbr, sight_flag, kind, tile_pos, twin,
              decision, floor, tiles, feature, move_roll):
    """The State of these arrays: each field borrowed, the arrays owned in ``owners``."""
    return State(borrowed(ent), borrowed(g), borrowed(pos_state), borrowed(rng), borrowed(ev),
                 borrowed(move_nbr), borrowed(sight_nbr), borrowed(sight_flag), borrowed(kind),
                 borrowed(tile_pos), borrowed(twin), owned(decision), borrowed(floor),
                 borrowed(tiles), borrowed(feature), borrowed(move_roll),
                 StateArrays(ent, g, pos_state, rng, ev, move_nbr, sight_nbr, sight_flag, kind,
                             tile_pos, twin, floor, tiles, feature, move_roll))


@njit
def new_static(move_nbr2, sight_nbr2, sight_flag2, kind2, tile_pos2, twin2, move_roll,
               pos_suit, pos_layer, spawn_space, ip, fp, tier_faces, tier_reject, apoc_code,
               apoc_params, tail, ctail, pos_dist, item_fx, tile_fx, pos_tile, feature, hits):
    """The Static of these arrays: each field borrowed, the arrays owned in ``owners``."""
    return Static(borrowed(move_nbr2), borrowed(sight_nbr2), borrowed(sight_flag2),
                  borrowed(kind2), borrowed(tile_pos2), borrowed(twin2), borrowed(move_roll),
                  borrowed(pos_suit), borrowed(pos_layer), borrowed(spawn_space), borrowed(ip),
                  borrowed(fp), borrowed(tier_faces), borrowed(tier_reject), borrowed(apoc_code),
                  borrowed(apoc_params), borrowed(tail), borrowed(ctail), borrowed(pos_dist),
                  borrowed(item_fx), borrowed(tile_fx), borrowed(pos_tile), borrowed(feature),
                  borrowed(hits),
                  StaticArrays(move_nbr2, sight_nbr2, sight_flag2, kind2, tile_pos2, twin2,
                               move_roll, pos_suit, pos_layer, spawn_space, ip, fp, tier_faces,
                               tier_reject, apoc_code, apoc_params, tail, ctail, pos_dist,
                               item_fx, tile_fx, pos_tile, feature, hits))


@njit
def with_fp(S, fp):
    """``S`` with another float-parameter row ``fp`` (the same tables otherwise): a player with
    greedy weights of its own (``sim.ai.spec``: ``greedy:weights=FILE``) reads its row, the
    engine reads only ``fp[F_RED]``, which every row keeps."""
    o = S.owners  # the owned arrays: the new Static must own them too
    return new_static(o.move_nbr2, o.sight_nbr2, o.sight_flag2, o.kind2, o.tile_pos2, o.twin2,
                      o.move_roll, o.pos_suit, o.pos_layer, o.spawn_space, o.ip, fp,
                      o.tier_faces, o.tier_reject, o.apoc_code, o.apoc_params, o.tail, o.ctail,
                      o.pos_dist, o.item_fx, o.tile_fx, o.pos_tile, o.feature, o.hits)


@njit
def state_fields(st):
    """The fields' arrays, owned (for Python and copies), in STATE_FIELDS order."""
    o = st.owners
    return (o.ent, o.g, o.pos_state, o.rng, o.ev, o.move_nbr, o.sight_nbr, o.sight_flag, o.kind,
            o.tile_pos, o.twin, st.decision, o.floor, o.tiles, o.feature, o.move_roll)


@njit
def static_fields(S):
    """The fields' arrays, owned, in STATIC_FIELDS order."""
    return S.owners


@njit
def _clone(st):
    """A private copy of a game for look-ahead (``sim.ai.lookahead``): the same entities, scalars,
    positions, random stream and live board, but no event log (logging off) and scratch buffers
    of its own, so nothing done to the copy can reach the real game or its log."""
    copy = new_state(st.ent.copy(), st.g.copy(), st.pos_state.copy(), st.rng.copy(),
                     np.zeros((1, st.ev.shape[1]), np.int64), st.move_nbr.copy(),
                     st.sight_nbr.copy(), st.sight_flag.copy(), st.kind.copy(),
                     st.tile_pos.copy(), st.twin.copy(),
                     new_decision(st.kind.shape[0], st.ent.shape[0], -1,
                                  st.decision.interactable),  # a clean reach
                     st.floor.copy(), st.tiles.copy(), st.feature.copy(), st.move_roll.copy())
    g = copy.game
    g.log = 0
    g.nev = 0
    return copy


@njit(inline="always")
def _board_changed(st):
    """Record a change to the live board's graph (fields.BOARD_REV): every kernel that writes
    ``move_nbr``, ``sight_nbr``, ``sight_flag``, ``kind``, ``tile_pos``, ``twin``, ``move_roll``
    or ``feature`` calls it (tests/test_lookahead_reset.py checks that none is missed)."""
    st.game.board_rev += 1


@njit
def _copy_into(dst, src):
    """Reset ``dst`` (a :func:`_clone` of ``src``'s game, ``src`` unchanged since) to ``src``
    without allocating: each simulation of the look-ahead starts again from the real position.
    The board's graph (about 110 of the 160 kB copied) and the tile distances (20 kB, which
    change only with it: ``live_board._tile_distance``) are copied only when the last simulation
    changed it (fields.BOARD_REV): most play-outs swap, transform or void nothing."""
    if dst.game.board_rev != src.game.board_rev:
        dst.tiles[:] = src.tiles
        dst.move_nbr[:] = src.move_nbr
        dst.sight_nbr[:] = src.sight_nbr
        dst.sight_flag[:] = src.sight_flag
        dst.kind[:] = src.kind
        dst.tile_pos[:] = src.tile_pos
        dst.twin[:] = src.twin
        dst.feature[:] = src.feature
        dst.move_roll[:] = src.move_roll
        # the kept sight searches were of the simulation's board; the next simulation may reach
        # the same revision with another board
        dst.decision.sight_rev = -1
    else:
        d_raw, s_raw = dst.tiles.raw, src.tiles.raw  # the tiles' records past their distances
        for p in range(d_raw.shape[0]):
            for k in range(L.TL_TILE, d_raw.shape[1]):
                d_raw[p, k] = s_raw[p, k]
    dst.ent[:] = src.ent
    dst.g[:] = src.g
    g = dst.game
    g.log = 0
    g.nev = 0
    dst.decision.n_reached = -1
    dst.decision.interactable = src.decision.interactable
    dst.pos_state[:] = src.pos_state
    dst.rng[:] = src.rng
    dst.floor[:] = src.floor


def _python_attributes(cls, fields, getter) -> None:
    """Read-only Python attributes: ``st.ent`` from Python returns the kernel's own array (the
    same arrays for the object's life: no kernel rebinds a field, so one jitted call fetches
    them all, on first use)."""
    def _all(self):
        cached = self.__dict__.get("_fields")
        if cached is None:
            cached = self.__dict__["_fields"] = getter(self)
        return cached

    for i, name in enumerate(fields):
        setattr(cls, name, property(lambda self, i=i: _all(self)[i]))


def _state_arrays(st):
    """The State's fields from Python, the entity rows and tiles with their fields as
    attributes (``st.ent.health[e]``: fields.Named, a view of the kernel's own array)."""
    arrays = list(state_fields(st))
    for i in (STATE_FIELDS.index("ent"), STATE_FIELDS.index("tiles")):
        arrays[i] = L.named(arrays[i])
    return tuple(arrays)


if not numba.config.DISABLE_JIT:
    _python_attributes(State, STATE_FIELDS, _state_arrays)
    _python_attributes(Static, STATIC_FIELDS, static_fields)
