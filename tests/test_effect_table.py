"""Issue #24 item 3: each effect defined once, in ``sim/catalogue/effect_table.py``. Walking the
table, every effect has an opcode (the generated ``OP_*``), target kinds, parameters, an
interpreter kernel that ``interpreter._run_effect`` actually dispatches for its opcode (and that
runs on a small game, writing its event), an AI value (``values._effect_score`` dispatching to it
where it lives there) and a log text. The catalogue names kernels and values by string (layers
point one way); this test resolves them."""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap

import numpy as np
import pytest
from numba import config
from numba.core.dispatcher import Dispatcher

from sim.catalogue import effect_row
from sim.catalogue.abilities import PARAM_SLOT
from sim.catalogue.effect_table import CALLER_EVENTS, EFFECT_TABLE, OPCODES, TARGETS
from sim.catalogue.tile_functions import EFFECT_PARAMS as TILE_PARAMS
from sim.engine.state import fields as L
from sim.engine.effects import interpreter
from sim.engine.log.events import EVENTS
from sim.engine.log.tile_events import TILE_EVENTS
from sim.engine.tiles.live_board import _middle
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, ROOT, new_game

ROWS = {f"{r.family}:{r.name}": r for r in EFFECT_TABLE}
EVENT_NAMES = {v[0] for v in EVENTS.values()} | {v[0] for v in TILE_EVENTS.values()}
DISPATCH = ("_run_effect", "_run_later_effect")  # the interpreter's if/elif on opcodes
STATE = ("ent", "g", "pos_state", "rng", "ev", "kind", "tile_pos", "twin", "floor", "tiles",
         "feature", "move_roll")


def _kernel(func) -> bool:
    """A compiled kernel (with ``NUMBA_DISABLE_JIT=1``: the plain function ``njit`` left)."""
    return isinstance(func, Dispatcher) or (config.DISABLE_JIT and inspect.isfunction(func))


def _py(func):
    return getattr(func, "py_func", func)


def _resolve(package: str, ref: str):
    module, name = ref.split(":")
    return getattr(importlib.import_module(f"{package}.{module}"), name)


def doc_line(row) -> str:
    """The row's line in docs/effects.md's table (print them all: ``python -c "from
    tests.test_effect_table import doc_line, EFFECT_TABLE; [print(doc_line(r)) for r in
    EFFECT_TABLE]"``)."""
    cells = (str(row.op), f"`{row.const}`", f"`{row.name}`", row.family, ", ".join(row.targets),
             ", ".join(row.params) or "-", ", ".join(row.sources) or "-",
             f"`{row.kernel.replace(':', '.')}`", f"`{row.value.replace(':', '.')}`",
             row.log, row.does)
    return "| " + " | ".join(cells) + " |"


@pytest.mark.parametrize("key", ROWS)
def test_every_effect_has_an_opcode_targets_parameters_kernel_value_and_log(key):
    """The row's opcode is the generated constant (and unique); its target kinds and parameters
    are the engine's vocabulary; its kernel and AI value resolve to compiled kernels; its log
    names an event the game log decodes into words; docs/effects.md lists it."""
    row = ROWS[key]
    assert getattr(L, row.const) == getattr(effect_row, row.const) == row.op > 0
    assert list(OPCODES.values()).count(row.op) == 1
    assert row.targets and set(row.targets) <= set(TARGETS)
    known = set(PARAM_SLOT) | {p for ps in TILE_PARAMS.values() for p in ps}
    assert set(row.params) <= known, set(row.params) - known
    if "tile" in row.sources:
        assert set(TILE_PARAMS[row.name]) <= set(row.params)
    assert _kernel(_resolve("sim.engine.effects", row.kernel))
    assert _kernel(_resolve("sim.ai", row.value))
    assert row.log in EVENT_NAMES
    doc = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    assert doc_line(row) in doc, f"docs/effects.md's table lacks this line:\n{doc_line(row)}"


def _branches(func) -> dict[str, str]:
    """``OP_X`` -> the function its branch calls (or returns the call of), read from
    ``func``'s source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(_py(func))))
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
            right = node.test.comparators[0]
            if isinstance(right, ast.Attribute) and right.attr.startswith("OP_"):
                call = node.body[0].value
                out[right.attr] = call.func.id
    return out


def test_the_dispatch_has_one_branch_per_effect_in_table_order():
    """``_run_effect`` branches on exactly the table's opcodes, in the table's order, each to the
    kernel its row names."""
    branches = {}
    for name in DISPATCH:
        branches.update(_branches(getattr(interpreter, name)))
    assert list(branches) == [r.const for r in EFFECT_TABLE]
    assert all(branches[r.const] == r.kernel.split(":")[1] for r in EFFECT_TABLE)


@pytest.mark.parametrize("key", ROWS)
def test_the_interpreter_dispatches_each_opcode_to_its_kernel(key, monkeypatch):
    """Run interpreted, with every kernel replaced by a recorder: the row's opcode reaches its
    own kernel, once, and no other."""
    row = ROWS[key]
    game = new_game(1, 2, EXAMPLE_TEAMS.cards, log=False)
    c = game.current
    game.st.ent.ab_op[c] = row.op
    calls = []
    for r in EFFECT_TABLE:
        name = r.kernel.split(":")[1]
        monkeypatch.setattr(interpreter, name, lambda *a, name=name: calls.append(name))
    for name in DISPATCH:
        monkeypatch.setattr(interpreter, name, _py(getattr(interpreter, name)))
    assert interpreter._run_effect(game.st, game.S, c, c, L.FX_ABILITY, 0) == row.op
    assert calls == [row.kernel.split(":")[1]]


def test_the_one_scorer_values_each_effect_through_the_scorer_its_row_names():
    """Every row whose AI value is a scorer of ``sim.ai.values`` is reached by
    ``_effect_score`` (abilities and items alike) for its opcode, and ``_effect_score`` has no
    branch the table does not name; run interpreted, each opcode calls its scorer."""
    from sim.ai import values
    mine = {r.const: r.value.split(":")[1] for r in EFFECT_TABLE if r.value.startswith("values:")}
    assert _branches(values._effect_score) == mine
    game = new_game(1, 2, EXAMPLE_TEAMS.cards, log=False)
    c = game.current
    for const, scorer in mine.items():
        calls = []
        original = getattr(values, scorer)
        try:
            setattr(values, scorer, lambda *a: calls.append(scorer) or 1.5)
            assert _py(values._effect_score)(game.st, game.S, c, c, getattr(L, const),
                                                3, 2, 0) == 1.5
        finally:
            setattr(values, scorer, original)
        assert calls == [scorer]


# ---------------------------------------------------------------- every kernel on a small game

def _summoner() -> int:
    """A shipped card whose ability summons (its minion rows exist from the start)."""
    return int(np.flatnonzero(CATALOGUE.cards.effects[:, L.FX_OP] == L.OP_SUMMON)[0])


def _teams(row):
    teams = np.array(EXAMPLE_TEAMS.cards, copy=True)
    if row.const == "OP_SUMMON":
        teams[0, 0] = _summoner()
    return teams


def _setup(row):
    """A game at Team 1's first decision with every character on one spawn space (one tile, in
    sight), the decider ``c`` holding the row's effect as its ability; its target by the row's
    first target kind. Returns the game, ``c`` and the target."""
    game = new_game(1, 2, _teams(row))
    st, ent = game.st, game.st.ent
    c = 0 if row.const == "OP_SUMMON" else game.current
    here = int(game.S.spawn_space[0, 0])
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:
            ent.space[e] = here
    fx = np.zeros(L.FX_SLOTS, np.int64)
    fx[[L.FX_OP, L.FX_AMOUNT, L.FX_DURATION, L.FX_COUNT, L.FX_HEALTH, L.FX_ATTACKS,
        L.FX_TIER]] = (row.op, 5, 2, 1, 10, 1, 1)
    fx[L.FX_STAT] = -1 if row.const == "OP_ITEM_REWARD" else 0
    if row.const in ("OP_TILE_ASSIST", "OP_ASSIST"):
        fx[L.FX_AMOUNT] = 0  # the first assist character of cards/assists.toml
    ent.ab[c] = fx
    m = ent.shape[0]
    kind = row.targets[0]
    if kind == "enemy":
        t = int(np.flatnonzero(ent.team == 1)[0])
    elif kind in ("ally", "dead_ally"):
        t = next(e for e in range(m) if ent.team[e] == ent.team[c] and e != c)
        if kind == "dead_ally":
            ent.alive[t] = 0
            ent.health[t] = 0
    elif kind == "space" and row.const == "OP_TILE_CONTROL":
        t = m + int(_middle((st.tile_pos[here] + 1) % 49))  # the next tile's middle
    elif kind == "space":
        t = m + here
    else:
        t = c
    if row.const == "OP_ITEM_CLEANSE":  # something to cleanse
        ent.frozen[t] = 99
        ent.frozen_by[t] = 1
    return game, c, t


@pytest.mark.parametrize("key", ROWS)
def test_every_kernel_runs_on_a_small_game_as_the_dispatch_runs_it(key):
    """Twin games: the interpreter run on one, the row's kernel called directly on the other,
    leave identical states; the effect changed the game and (unless its caller's event tells it)
    wrote the event its row names."""
    row = ROWS[key]
    a, c, t = _setup(row)
    b, _, _ = _setup(row)
    before = [getattr(a.st, f).copy() for f in STATE]
    n_events = int(a.st.game.nev)
    interpreter._run_effect(a.st, a.S, c, t, L.FX_ABILITY, 0)
    _resolve("sim.engine.effects", row.kernel)(b.st, b.S, c, t, L.FX_ABILITY, 0)
    for f in STATE:
        assert np.array_equal(getattr(a.st, f), getattr(b.st, f)), f
    assert any(not np.array_equal(x, getattr(a.st, f)) for x, f in zip(before, STATE))
    kinds = {k: v[0] for k, v in {**EVENTS, **TILE_EVENTS}.items()}
    written = {kinds[int(k)] for k in a.st.ev[n_events:int(a.st.game.nev), 0]}
    if row.log in CALLER_EVENTS:  # the use's own event names the effect's opcode
        fields = next(v[1] for v in {**EVENTS, **TILE_EVENTS}.values() if v[0] == row.log)
        assert "effect" in fields
    else:
        assert row.log in written, (row.log, written)
