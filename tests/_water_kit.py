"""Shared helpers of the water, wall and fall tests (tests/test_engine_water_*.py; the rules
audits borrow them): board 1 (bodies of water, water and fire walls, platforms and ladders) and
its board rules, ``rules_ip`` (some integer rules of the shared board setup changed for one
test), ``water_game`` (Team 1's first decision on board 1), ``beside_water`` (a space next
to the water and one across it), ``water_action``, ``put``, ``events`` and ``cross`` (a roll
across the water that cannot fail)."""

from __future__ import annotations

from contextlib import contextmanager

from sim.board.graph import compile_board
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, new_game, new_game_with, setup_for

BOARD = 1  # board 1 has bodies of water, water and fire walls, platforms and ladders
RULES = CATALOGUE.board_rules


@contextmanager
def rules_ip(S, **values):
    """Change some integer rules of the (cached, shared) board setup for one test."""
    old = {k: int(S.ip[getattr(L, k)]) for k in values}
    try:
        for k, v in values.items():
            S.ip[getattr(L, k)] = v
        yield
    finally:
        for k, v in old.items():
            S.ip[getattr(L, k)] = v


def water_game(seed=2, edits=()):
    game = (new_game_with(edits, BOARD, seed, EXAMPLE_TEAMS.cards) if edits
            else new_game(BOARD, seed, EXAMPLE_TEAMS.cards))
    c = game.current
    ent = game.st.ent
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not spare rows)
            ent.space[e] = int(game.S.spawn_space[ent.team[e], 0])
    ent.free_water[c] = 0
    return game, c


def beside_water(game):
    """A floor space next to a body of water and another space of that body (from the board
    compiled in Python: sim.board.graph)."""
    g = compile_board(setup_for(BOARD).board, CATALOGUE.tiles, RULES)
    for s in range(g.space_bodies.shape[0]):
        b = g.space_bodies[s, 0]
        if b >= 0 and game.st.kind[s] == FLOOR and game.st.tile_pos[s] >= 0:
            for t in g.body_members[g.body_start[b]:g.body_start[b + 1]]:
                if t != s:
                    return s, int(t)
    raise AssertionError("board 1 has water")


def water_action(game, s):
    return game.action("water_roll", s)


def put(game, c, s):
    game.st.ent.space[c] = s
    return game.legal_mask()




def cross(game, c, here, to):
    """``c`` on ``here`` rolls across the water to ``to`` with every face a success: it lands
    there, for no speed, not submerged. Returns the roll's event (by field name)."""
    mask = put(game, c, here)
    assert mask[water_action(game, to)]
    speed = int(game.st.ent.speed_left[c])
    with rules_ip(game.S, P_WATER_MIN=1):  # every face succeeds
        game.apply(water_action(game, to))
    ent = game.st.ent
    assert ent.space[c] == to and ent.speed_left[c] == speed and ent.submerged[c] == 0
    return game.named_events("water-roll")[-1]
