"""A whole game, end to end: determinism and the engine's records. Every game ends and the same
seed gives the same log, events read by name agree with their sentences and the game's scalars,
the state records read alike from Python and the kernels, Python stepping equals the jitted
loop, and the game's reach equals the board kernel's (asked again until the board changes)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.play import play_game, step
from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, check_invariants, new_game


def test_every_game_ends_and_same_seed_same_log():
    """"The game is played in an orderly rotational fashion ... until at least one team has been
    fully eliminated" — and a simulated game always ends (rules.toml [game] rotation_cap)."""
    a = new_game(1, 7, EXAMPLE_TEAMS.cards)
    ra = play_game(a, [L.GREEDY, L.RANDOM, L.GREEDY, L.RANDOM])
    b = new_game(1, 7, EXAMPLE_TEAMS.cards)
    rb = play_game(b, [L.GREEDY, L.RANDOM, L.GREEDY, L.RANDOM])
    assert a.terminal and ra == rb
    assert np.array_equal(a.event_rows(), b.event_rows())
    assert ra.reason != "running"


def test_events_read_by_name_agree_with_the_words_and_the_game_scalars():
    """One schema for the log: ``named_events`` gives each event the fields ``decode`` writes its
    sentence from, filters by kind, starts where asked, and refuses a kind that does not exist;
    the game record's named scalars are the log's own counts (``st.game.nev`` events kept)."""
    game = new_game(1, 7, EXAMPLE_TEAMS.cards)
    play_game(game, [L.GREEDY] * 4)
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names)
    words = game.events(CATALOGUE.cards.names, game.setup.cpu_names)
    named = game.named_events()
    assert len(named) == len(words) == int(game.st.game.nev) > 100
    assert [{k: v for k, v in ev.items() if k not in ("text", "rule")} for ev in words] == named
    attacks = game.named_events("attack", since=10)
    assert attacks == [ev for ev in named[10:] if ev["event"] == "attack"] and attacks
    assert all(labels[ev["attacker"]] and labels[ev["defender"]] for ev in attacks)
    with pytest.raises(ValueError, match="no event kind"):
        game.named_events("atack")


def test_state_records_sit_on_the_old_slots_and_read_alike_from_python_and_kernels():
    """Named state (docs/architecture.md, "The life of one decision"): every field of the entity,
    tile and game records sits at its slot constant, so a record is byte for byte the old integer
    row; from Python a field view is the kernel's own memory (a write reaches the game), kept
    after its first read, and a copy's fields are the copy's; an unknown name is refused."""
    game = new_game(1, 7, EXAMPLE_TEAMS.cards)
    for _ in range(40):
        step(game, L.GREEDY)
    st = game.st
    for dtype, names in ((L.ENT_DTYPE, L.ENT_FIELDS), (L.TILE_DTYPE, L.TILE_FIELDS)):
        for const in names:
            name = const.lower().removeprefix("tl_")
            assert dtype.fields[name][1] == 8 * getattr(L, const), name
    for const in L.GAME_SCALARS:
        assert L.GAME_DTYPE.fields[const.lower().removeprefix("g_")][1] == 8 * getattr(L, const)
    ent, tiles = st.ent, st.tiles
    assert np.array_equal(ent.raw[:, L.HEALTH], ent.health)
    assert np.array_equal(ent.raw[:, L.ATK:L.ATK + 4], ent.atk)
    assert np.array_equal(tiles.raw[:, :49], tiles.dist)
    assert np.array_equal(tiles.raw[:, L.TL_SUIT], tiles.suit)
    assert ent.health is ent.health  # the view is kept
    c = int(np.flatnonzero(ent.alive != 0)[0])
    before = int(ent.health[c])
    snapshot = st.copy()
    ent.health[c] -= 1
    assert int(game.st.ent.health[c]) == before - 1  # the kernel's own memory
    assert int(snapshot.ent.health[c]) == before  # a copy's fields are its own
    ent.health[c] += 1
    with pytest.raises(AttributeError):
        ent.healht


def test_python_stepping_equals_jitted_loop():
    """One engine interface: stepping from Python replays the jitted loop exactly."""
    a = new_game(2, 3)
    play_game(a, [L.RANDOM] * 4)
    b = new_game(2, 3)
    while not b.terminal:
        step(b, L.RANDOM)
        check_invariants(b)
    assert np.array_equal(a.event_rows(), b.event_rows())


@pytest.mark.parametrize("board", [0, 3, 8])
def test_game_reach_equals_board_kernel(board):
    """"It costs 1 speed to move onto an adjacent space": the engine's lean reach search gives the
    board kernel's dry-move answer (sim.board.movement.reachable, max_rolls=0), portals included."""
    from sim.board.graph import compile_board
    from sim.catalogue.tile_layout import FLOOR
    from sim.board.movement import reachable
    from sim.engine.rules.live_movement import _reach_from
    from tests._engine_kit import CATALOGUE

    game = new_game(board, 1, log=False)
    graph = compile_board(game.setup.board, CATALOGUE.tiles, CATALOGUE.board_rules)
    floors = np.flatnonzero(graph.kind == FLOOR)
    rng = np.random.default_rng(board)
    portals = np.flatnonzero(graph.twin >= 0)
    for start in np.concatenate([rng.choice(floors, 40), portals]):
        for speed in (0, 1, 3, 6, 12):
            want, _ = reachable(graph, int(start), speed, 0)
            _reach_from(game.st, game.S, np.int64(start), np.int64(speed))
            assert np.array_equal(game.st.decision.reach_cost, want), (start, speed)


def test_a_repeated_reach_question_is_answered_again_until_the_board_changes():
    """The reach search skips a repeat of the question it last answered (start, speed, board
    revision: state/decision.py) and searches again once the board changes: a voided position
    ("no moves or sight into, out or through") is out of reach at once, and the answer is the
    one a fresh search gives."""
    from sim.catalogue.tile_layout import FLOOR
    from sim.engine.rules.live_movement import _reach_from, _void_position

    game = new_game(3, 1, log=False)
    st, S = game.st, game.S
    floors = np.flatnonzero(np.asarray(st.kind) == FLOOR)
    start, elsewhere, speed = np.int64(floors[len(floors) // 2]), np.int64(floors[0]), np.int64(6)
    n = _reach_from(st, S, start, speed)
    first = st.decision.reach_cost.copy()
    assert _reach_from(st, S, start, speed) == n  # the repeat
    assert np.array_equal(st.decision.reach_cost, first)
    here = st.tile_pos[start]
    p = next(int(st.tile_pos[s]) for s in np.flatnonzero(first > 0) if st.tile_pos[s] != here)
    assert (first[st.tile_pos == p] > 0).any()
    _void_position(st, p)
    _reach_from(st, S, start, speed)
    after = st.decision.reach_cost.copy()
    assert (after[np.asarray(st.tile_pos) == p] < 0).all() and (first[after < 0] >= 0).any()
    _reach_from(st, S, elsewhere, speed)
    _reach_from(st, S, start, speed)  # a fresh search of the same question
    assert np.array_equal(st.decision.reach_cost, after)
