"""A whole game, end to end: how it ends. "you win by being the only team with characters left
alive and on the board"; a stalemate after ten quiet rotations (harm, damage included, resets
the count), the rotation cap, and a same-step elimination going to the most health, a tie to no
one (house rulings, docs/rulings.md)."""

from __future__ import annotations

import numpy as np

from sim.engine.state import fields as L
from tests._engine_kit import EXAMPLE_TEAMS, new_game


def test_elimination_reveals_and_last_team_wins():
    """"one team has been completely eliminated" reveals the Apocalypse; "you win by being the only
    team with characters left alive"."""
    from sim.engine.rules.death import _kill

    game = new_game(1, 5)
    st = game.st
    for team in (1, 2):
        for e in np.flatnonzero(st.ent.team == team):
            _kill(st, game.S, int(e), -1, L.BY_ATTACK)
    assert st.game.revealed == 1 and st.game.reveal_why == L.BY_ELIMINATION
    for e in np.flatnonzero(st.ent.team == 3):
        _kill(st, game.S, int(e), -1, L.BY_ATTACK)
    assert game.terminal and game.result().winner == 0
    assert game.result().reason == "last team standing"


def _rotation_ends(game, k, harm=False):
    from sim.engine.rules.turn import _end_rotation

    for _ in range(k):
        game.st.game.harm = int(harm)
        _end_rotation(game.st, game.S)


def test_stalemate_after_ten_quiet_rotations_and_harm_resets_the_count():
    """House ruling (rules.toml stalemate_rotations = 10, docs/rulings.md): a game in which no
    entity loses health for 10 rotations in a row ends, decided by health; one rotation with
    harm starts the count again."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    quiet = int(game.S.ip[L.P_STALEMATE])
    _rotation_ends(game, quiet - 1)
    assert game.st.game.over == 0 and game.st.game.quiet == quiet - 1
    _rotation_ends(game, 1, harm=True)
    assert game.st.game.quiet == 0
    _rotation_ends(game, quiet - 1)
    assert game.st.game.over == 0
    _rotation_ends(game, 1)
    assert game.st.game.over != 0 and game.st.game.reason == L.STALEMATE
    # 2 x quiet rotations closed: the game lasted them, not the counter's turn past the last
    assert game.result().rotation == 2 * quiet


def test_the_rotation_cap_ends_the_game_after_its_last_rotation():
    """House ruling (rules.toml rotation_cap = 60): rotations 1..cap are played; the game ends,
    decided by health, when the counter passes the cap."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    cap = int(game.S.ip[L.P_CAP])
    game.st.game.rotation = cap - 1
    _rotation_ends(game, 1, harm=True)
    assert game.st.game.rotation == cap and game.st.game.over == 0
    _rotation_ends(game, 1, harm=True)
    assert game.st.game.over != 0 and game.st.game.reason == L.CAP
    # the game lasted the cap's rotations, not the counter's turn past it (stop 78: read 61)
    assert game.st.game.rotation == cap and game.result().rotation == cap


def test_same_step_elimination_goes_to_the_most_health_and_a_tie_to_no_one():
    """House ruling (rules.toml simultaneous_tiebreak = "health_before"): when the last teams
    fall in one step, the one with the highest collective health just before it wins; equal
    health is no winner (a draw); a team not among the last standing cannot win."""
    from sim.engine.rules.victory import _best_health

    every = np.ones(4, np.bool_)
    assert _best_health(np.array([10, 30, 20, 0]), every) == 1
    assert _best_health(np.array([30, 30, 10, 0]), every) == -1
    assert _best_health(np.array([10, 30, 20, 0]), np.array([True, False, True, False])) == 2
    assert _best_health(np.array([0, 0, 5, 0]), every) == 2


def test_damage_counts_as_harm_for_the_stalemate():
    """House ruling (stalemate_rotations): a rotation in which any entity loses health is not
    quiet, whoever dealt it (the count starts again)."""
    from sim.engine.rules.death import _harm
    from sim.engine.rules.turn import _end_rotation

    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    _rotation_ends(game, 3)
    assert game.st.game.quiet == 3
    e = int(np.flatnonzero(game.st.ent.kind == L.K_CHARACTER)[0])
    game.st.game.harm = 0
    _harm(game.st, game.S, e, 5, -1, L.BY_ATTACK)
    assert game.st.game.harm == 1
    _end_rotation(game.st, game.S)
    assert game.st.game.quiet == 0
