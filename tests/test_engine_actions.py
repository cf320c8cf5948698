"""The action codec (issue #24, item 2): one home for the action space's blocks, as OpenSpiel's
games have ``action_to_string``. ``sim/engine/rules/actions.py`` is the only place that knows where a
block starts; the engine, the AI and the tests name actions through it (``Game.action``,
``Game.decode``, ``Game.block``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sim.ai.policy import by_name
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.actions import KINDS, Action, _blocks, _n_actions, block, decode, encode, n_actions
from tests._engine_kit import EXAMPLE_TEAMS, new_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_blocks_tile_the_action_space_in_order_and_the_codec_round_trips():
    """Every action number decodes to one (kind, target, slot) and encodes back; the blocks
    follow one another with no gap or overlap up to the kernels' mask length."""
    game = new_game(3, 2, EXAMPLE_TEAMS.cards)
    n, m = game.st.kind.shape[0], game.st.ent.shape[0]
    assert n_actions(n, m) == _n_actions(n, m) == game.n_actions
    end = 0
    for kind, base, size, slots in _blocks(n, m):
        assert base == end, kind
        end = base + size * slots
    assert end == game.n_actions and [b[0] for b in _blocks(n, m)] == list(KINDS)
    decoded = [decode(a, n, m) for a in range(game.n_actions)]
    assert [encode(d.kind, n, m, d.target, d.slot) for d in decoded] == list(range(game.n_actions))
    assert len(set(decoded)) == game.n_actions
    for kind in KINDS:
        b = block(kind, n, m)
        assert {d.kind for d in decoded[b]} == {kind}
    with pytest.raises(ValueError):
        decode(game.n_actions, n, m)
    with pytest.raises(ValueError):
        encode("attack", n, m, m)
    with pytest.raises(ValueError):
        encode("fly", n, m, 0)


def test_legal_actions_decode_to_what_the_engine_does_with_them():
    """Over greedy games: a legal move or water-roll targets a floor space, an attack a living
    entity of another team (a CPU: no team), a hand-over a teammate; applying an action named by
    the codec logs the event of its kind; each decision's legal actions read as distinct
    strings."""
    greedy = by_name("greedy")
    seen = set()
    for board in (3, 5):
        game = new_game(board, 4, EXAMPLE_TEAMS.cards)
        st = game.st
        while not game.terminal and game.st.game.rotation <= 3:
            c = game.current
            legal = [game.decode(a) for a in game.legal_actions()]
            texts = [game.action_to_string(game.action(*a)) for a in legal]
            assert len(set(texts)) == len(texts)
            for a in legal:
                seen.add(a.kind)
                if a.kind in ("move", "water_roll"):
                    assert st.kind[a.target] == FLOOR, a
                elif a.kind == "attack":
                    assert st.ent.alive[a.target] != 0, a
                    assert st.ent.team[a.target] != st.ent.team[c], a
                elif a.kind == "hand_over":
                    assert st.ent.team[a.target] == st.ent.team[c] and a.target != c, a
            a = greedy.choose(game)
            kind = game.decode(a)
            before = int(st.game.nev)
            game.apply(a)
            rows = st.ev[before:int(st.game.nev)]
            if kind.kind == "attack":
                assert (rows[:, 0] == L.EV_ATTACK).any()
            elif kind.kind == "move" and st.ent.begun[c]:
                assert (rows[:, 0] == L.EV_MOVE).any() or (rows[:, 0] == L.EV_PLACE).any()
    assert {"end", "move", "attack"} <= seen


def test_action_to_string_names_entities_by_their_log_labels():
    game = new_game(3, 2, EXAMPLE_TEAMS.cards)
    labels = [f"E{e}" for e in range(game.st.ent.shape[0])]
    assert game.action_to_string(game.action("attack", 4), labels) == "attack E4"
    assert game.action_to_string(game.action("drop", slot=1)) == "drop held item 2"
    assert game.action_to_string(game.action("item_on_space", 7, 0)) == "use held item 1 on space 7"
    assert game.decode(game.action("item_on_entity", 3, 1)) == Action("item_on_entity", 3, 1)
    assert game.action_to_string(L.END) == "end the turn"


# offset arithmetic re-derived by hand: a block's start written as sums of the space and entity
# counts, or a move as ``1 + s``
_BY_HAND = [re.compile(p) for p in (
    r"\b1 \+ n\b", r"\b1 \+ (game\.)?st\.kind\.shape\[0\]", r"kind\.shape\[0\] \+ (2 \* )?(game\.)?"
    r"(st\.)?ent\.shape\[0\]", r"mask\[1 \+ ", r"apply\((int\()?1 \+ ", r"\+ 2 \* m \+ 2 \* n",
    r"\[1:1 \+ ")]


def _by_hand(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1)
            if any(p.search(line) for p in _BY_HAND)]


def test_no_offset_arithmetic_outside_the_codec():
    """Issue #24: "no offset arithmetic anywhere else" (the engine, the AI, the tests)."""
    assert _by_hand("    mask[1 + n + e] = True\n    game.apply(1 + s)\n") == [1, 2]  # it can fail
    found = []
    for folder in ("sim/engine", "sim/ai", "sim/runner", "sim/report", "sim/cli", "tests",
                   "benchmarks"):  # (sim/analysis has parameter vectors, not actions)
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name in ("actions.py", Path(__file__).name):
                continue
            found += [f"{path.relative_to(ROOT)}:{n}" for n in
                      _by_hand(path.read_text(encoding="utf-8"))]
    assert not found, found


def test_every_kind_is_in_words():
    from sim.engine.rules.actions import WORDS
    assert set(WORDS) == set(KINDS)
    n, m = 10, 5
    assert {decode(a, n, m).kind for a in range(_n_actions(n, m))} == set(KINDS)
    assert all(isinstance(encode(k, n, m, 0, 0), int) for k in KINDS)
