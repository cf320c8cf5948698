"""Shared helpers for the tile-function tests (tests/test_engine_tile_*.py and the rules audits
that borrow them): a small position set up on board 3 (every catalogue tile is in play there),
where each tile lies, a character's turn ended through the engine's END (``end_turn_of``), the
interactable and ability-on-space actions, and the live board compared with the Python
reference (``board_now``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.board.geometry import local_space
from sim.board.graph import compile_board
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.state.static_tables import _pos_dist
from tests._engine_kit import (CATALOGUE, EXAMPLE_TEAMS, board_shores, live_shores, new_game,
                               setup_for)

BOARD = 3  # board 3 holds every catalogue tile (tiles in name order; it was board 4 in file order)
TILES = CATALOGUE.tiles
AB = CATALOGUE.abilities
SPAN = 35
ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------------- helpers

def game_on(board: int = BOARD):
    """Team 1's first decision on ``board``, every character off to its team's first spawn space
    (no tile function there: Uncovered Tiles)."""
    game = new_game(board, 2, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not spare rows)
            ent.space[e] = int(game.S.spawn_space[ent.team[e], 0])
    return game, game.current


@lru_cache(maxsize=None)
def where(name: str, board: int = BOARD) -> int:
    """The grid position of tile ``name`` on ``board``."""
    t = TILES.find(name)
    return int(np.flatnonzero(setup_for(board).board.tiles.ravel() == t)[0])


@lru_cache(maxsize=None)
def uncovered_at(board: int = BOARD) -> int:
    """A grid position holding an Uncovered Tile that is no team's Spawn, on ``board``."""
    b = setup_for(board).board
    spawns = {int(r) * 7 + int(c) for team in b.spawns for r, c in team}
    return next(p for p in range(49) if b.tiles.flat[p] == TILES.uncovered and p not in spawns)


@lru_cache(maxsize=None)
def board_with(present: tuple[str, ...], absent: tuple[str, ...]) -> int:
    """The first board seed whose board holds every tile of ``present`` and none of
    ``absent`` (found, not written down: a board's tiles follow the catalogue)."""
    from sim.board.generate import generate_board
    for seed in range(1000):
        tiles = generate_board(TILES, CATALOGUE.board_rules, seed).tiles
        if all((tiles == TILES.find(n)).any() for n in present) \
                and not any((tiles == TILES.find(n)).any() for n in absent):
            return seed
    raise AssertionError(f"no board holds {present} without {absent}")


# a board with the Hyperbolic Time Chamber (Anime) out of play: the first Anime tile out of play
# in name order (Hidden Leaf Gate in play), with two 5×5 tiles, River Styx and Tokyo Rooftops
NO_HTC = (("Hidden Leaf Gate", "River Styx", "Tokyo Rooftops"), ("Hyperbolic Time Chamber",))


def space(name: str, i: int, j: int, board: int = BOARD) -> int:
    p = where(name, board)
    return local_space((p // 7, p % 7), i, j, int(TILES.size[TILES.find(name)]))


def middle(p: int) -> int:
    return ((p // 7) * 5 + 2) * SPAN + (p % 7) * 5 + 2


def floor_of(game, p: int) -> int:
    """A floor space of position p with no CPU on it."""
    st = game.st
    taken = set(st.ent.space[st.ent.is_cpu != 0].tolist())
    return int(next(s for s in np.flatnonzero(st.tile_pos == p)
                    if st.kind[s] == FLOOR and s not in taken))


def end_turn_of(game, e: int) -> None:
    """``e`` ends its turn through the engine's END (its tile's reward: "A Tile Reward is a reward
    a character gets by ending their turn in a tile"); then the decision comes back to the
    scenario's decider with everyone's turn as it was."""
    st, ent = game.st, game.st.ent
    c = game.current
    acted, done = int(ent.acted[c]), ent.done.copy()
    st.game.cur = e
    ent.done[e] = 0
    game.apply(L.END)
    ent.done[:] = done
    st.game.cur = c
    ent.acted[c] = acted


def ally_of(game, c, k=1):
    ent = game.st.ent
    return int([e for e in range(ent.shape[0]) if ent.team[e] == ent.team[c] and e != c][k - 1])


def enemy_of(game, c):
    return int(np.flatnonzero(game.st.ent.team == 1)[0])




def interact(game, s: int) -> int:
    return game.action("interact", s)


def interact_actions(game) -> list[int]:
    """The spaces the interactable within 1 range may act on now."""
    return [int(s) for s in np.flatnonzero(game.legal_mask()[game.block("interact")])]


def on_space(game, s):
    return game.action("ability_on_space", s)


def give_ability(game, c, type_name: str, **params):
    """``c`` holds ability ``type_name`` with ``params`` (the rest at the type's defaults)."""
    code = AB.code(type_name)
    kind = AB.types[code]
    row = AB.row(code, [params.get(n, d) for n, d in zip(kind.param_names, kind.defaults)])
    ent = game.st.ent
    ent.ab[c, :len(row)] = row
    ent.charges_left[c] = ent.ab_charges[c]


def board_now(game, board):
    """The reference graph of ``board`` (sim.board.graph.compile_board) against the game's live
    arrays: the names of the arrays that differ ("water": the spaces each water crossing may land
    on, read from the live tiles, against the reference's bodies of water)."""
    ref = compile_board(board, TILES, CATALOGUE.board_rules)
    st = game.st
    bad = [f for f in ("kind", "tile_pos", "move_nbr", "move_roll", "sight_nbr", "sight_flag",
                       "twin") if not np.array_equal(getattr(st, f), getattr(ref, f))]
    if not np.array_equal(st.tiles.dist, _pos_dist(board)):
        bad.append("tile distance")
    if live_shores(st, game.S) != board_shores(ref):  # the bodies of water, where they are now
        bad.append("water")
    return bad
