"""Property tests over random boards, cards, Apocalypses, policies and seeds, checked after every
single decision (tests/_engine_kit.check_invariants): every game ends; no entity stands on a
wall, water, void or non-space; health never exceeds max; movement never exceeds speed; dead
entities never act; the Apocalypse is revealed exactly when one of its conditions holds; frozen
entities never move or act; invincible entities lose no health except to the Apocalypse; at most 2
items per pool and every item accounted for (with items seeded into half the games); ticks reset
when a string breaks (a character that ends its turn holds ticks only in the tile it ends it in);
clones die with their original and minions never outlive their creator, a team has at most one
assist, a vehicle and its pilot stand together (tests/_engine_kit.check_entity_invariants); an
action through a vehicle is its pilot's and spends both actions."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, new_game, play_checked, seed_items

MAX_DECISIONS = 20_000


@settings(max_examples=12, deadline=None)
@given(board=st.integers(0, 40), seed=st.integers(0, 2**31), apocalypse=st.integers(-1, 2),
       policies=st.lists(st.sampled_from([L.RANDOM, L.GREEDY]), min_size=4, max_size=4),
       items=st.booleans())
@example(board=30, seed=397837, apocalypse=0, policies=[0, 0, 1, 1], items=False)  # a frozen fall
@example(board=5, seed=2300, apocalypse=0, policies=[0, 0, 0, 0], items=False)  # frozen vehicle
@example(board=5, seed=2300, apocalypse=0, policies=[0, 1, 0, 1], items=False)  # walled Spawn
@example(board=37, seed=263908779, apocalypse=0, policies=[1, 0, 1, 1], items=False)  # revived
def test_invariants_hold_after_every_decision_and_every_game_ends(board, seed, apocalypse,
                                                                  policies, items):
    """R1-R5 invariants (see module docstring); "Each turn, each character can only use as much
    speed as their stat shows"; "Healing increases current health towards, and up to, its
    maximum value"; "The Apocalypse is revealed under any one of three circumstances"; "A
    character can only hold up to 2 items at a time"."""
    game = new_game(board, seed, apocalypse=apocalypse, log=False)
    if items:
        seed_items(game, np.random.default_rng(seed))
    play_checked(game, policies, MAX_DECISIONS)
    r = game.result()
    assert r.rotation <= game.S.ip[L.P_CAP] + 1
    if r.reason == "last team standing":
        assert r.winner >= 0


@settings(max_examples=6, deadline=None)
@given(board=st.integers(0, 40), seed=st.integers(0, 2**31),
       policies=st.lists(st.sampled_from([L.RANDOM, L.GREEDY]), min_size=4, max_size=4))
def test_invariants_hold_with_summoners_clones_and_multi_character_cards(board, seed, policies):
    """The same invariants with Team 1 holding two summoners (Quill Duelist: minions; Silent Film
    Duo: a clone of each of its two characters) and a multi-character card: "The Clone dies when
    the character it was copied from dies"; "all of a character's minions disappear if that
    character is killed"."""
    teams = EXAMPLE_TEAMS.cards.copy()
    teams[0] = [CATALOGUE.cards.find(n) for n in
                ("Quill Duelist", "Silent Film Duo", "Luffy", "Mario", "Sitcom Trio")]
    play_checked(new_game(board, seed, teams=teams, log=False), policies, MAX_DECISIONS)
