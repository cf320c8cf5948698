"""Shared helpers for the engine tests: the shipped catalogue, cached game setups, a checker of
the engine's invariants after every decision."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.board.generate import generate_board
from sim.board.layout import FLOOR
from sim.catalogue.loader import load_catalogue
from sim.catalogue.teams import load_teams, random_teams
from sim.engine import layout as L
from sim.engine.game import Game
from sim.engine.setup import card_arrays
from sim.engine.tables import build_setup, load_game_data

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = load_catalogue(ROOT / "cards")
CARDS = card_arrays(CATALOGUE.cards)
GAME_RULES, APOCALYPSES = load_game_data(ROOT / "cards")
EXAMPLE_TEAMS = load_teams(ROOT / "experiments" / "teams" / "example.toml", CATALOGUE.cards)


@lru_cache(maxsize=64)
def setup_for(board_seed: int):
    board = generate_board(CATALOGUE.tiles, CATALOGUE.board_rules, board_seed)
    return build_setup(CATALOGUE, board, GAME_RULES, APOCALYPSES)


def new_game(board_seed: int, seed: int, teams=None, apocalypse: int = -1, log=True) -> Game:
    if teams is None:
        teams = random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))
    return Game(setup_for(board_seed), CARDS, teams, seed, apocalypse=apocalypse, log=log)


def reveal_condition(game: Game) -> bool:
    """The book's three reveal conditions, computed from the state, not from the engine's flag."""
    st, ip = game.st, game.S.ip
    ent = st.ent
    teams_dead = any(not np.any((ent[:, L.TEAM] == t) & (ent[:, L.ALIVE] != 0)) for t in range(4))
    # deaths so far: the dead now plus those revived (a revive takes no death back: docs/rulings.md)
    deaths = int(np.sum((ent[:, L.TEAM] >= 0) & (ent[:, L.ALIVE] == 0))) + int(st.g[L.REVIVES])
    return (deaths >= ip[L.P_REVEAL_DEATHS] or st.g[L.ROTATION] >= ip[L.P_REVEAL_ROTATION]
            or teams_dead)


def check_invariants(game: Game) -> None:
    st = game.st
    ent = st.ent
    alive = ent[:, L.ALIVE] != 0
    placed = ent[:, L.SPACE] >= 0
    on = alive & placed
    # no entity ever stands on a wall, water, void or a non-space
    assert np.all(st.kind[ent[on, L.SPACE]] == FLOOR)
    assert np.all(st.tile_pos[ent[on, L.SPACE]] >= 0)
    assert np.all(st.pos_state[st.tile_pos[ent[on, L.SPACE]]] != L.VOIDED)
    # health never exceeds max; the dead have none
    assert np.all(ent[:, L.HEALTH] <= ent[:, L.MAX_HEALTH])
    assert np.all(ent[~alive, L.HEALTH] == 0)
    assert np.all(ent[alive, L.HEALTH] > 0)
    # movement never exceeds speed (the one deciding: a de-buff may lower the speed of a
    # character whose spent speed dates from its last turn)
    chars = ent[:, L.IS_CPU] == 0
    if not game.terminal:
        assert ent[game.current, L.SPENT] <= ent[game.current, L.SPEED]
    assert np.all(ent[chars, L.SPEED_LEFT] >= 0)
    assert np.all(ent[:, L.SHIELD] >= 0)
    # charges never overspent; a frozen entity is never asked to decide anything but END
    assert np.all(ent[:, L.CHARGES_LEFT] >= 0)
    if not game.terminal and ent[game.current, L.FROZEN] != 0:
        assert game.legal_actions().tolist() == [L.END]
    # dead entities never act
    if not game.terminal:
        assert ent[game.current, L.ALIVE] != 0
    # the Apocalypse is revealed exactly when a condition is met
    assert bool(st.g[L.REVEALED]) == reveal_condition(game)
    assert int(st.g[L.DEATHS]) - int(st.g[L.REVIVES]) == int(np.sum(chars & ~alive))


def step_checked(game, policy) -> None:
    """One decision by ``policy``, checking the state rules across it: "A frozen entity cannot use
    any of its speed, cannot spend its action" (frozen entities never move or act); invincible
    entities lose no health "by any means" (the Apocalypse's excepted: checked on turns with no
    Apocalypse step)."""
    ent = game.st.ent
    frozen = np.flatnonzero(ent[:, L.FROZEN] != 0)
    cols = [L.SPACE, L.CHARGES_LEFT, L.DEALT, L.KILLS]
    before = ent[frozen][:, cols].copy()
    acted = ent[frozen, L.ACTED].copy()
    invincible = np.flatnonzero((ent[:, L.BUFF] != 0) & (ent[:, L.BUFF_STAT] == L.STAT_INVINCIBLE)
                                & (ent[:, L.ALIVE] != 0))
    health = ent[invincible, L.HEALTH].copy()
    steps = int(game.st.g[L.APOC_STEP])
    changes = int(game.st.g[L.TILE_CHANGES])
    game.step(policy)
    ent = game.st.ent
    still = ent[frozen, L.FROZEN] != 0  # frozen before and after: frozen throughout the step
    after = ent[frozen][:, cols]
    if int(game.st.g[L.TILE_CHANGES]) != changes:  # a swapped tile carries whoever stands in it
        after[:, 0] = before[:, 0]
    assert np.array_equal(before[still], after[still]), "a frozen entity acted"
    assert np.all(ent[frozen[still], L.ACTED] <= acted[still]), "a frozen entity spent its action"
    if int(game.st.g[L.APOC_STEP]) == steps:
        still = (ent[invincible, L.BUFF] != 0) & (ent[invincible, L.BUFF_STAT] == L.STAT_INVINCIBLE)
        assert np.all(ent[invincible[still], L.HEALTH] >= health[still]), "invincible lost health"
