"""Property tests over random boards, cards, Apocalypses, policies and seeds, checked after every
single decision (tests/_engine_kit.check_invariants): every game ends; no entity stands on a
wall, water, void or non-space; health never exceeds max; movement never exceeds speed; dead
entities never act; the Apocalypse is revealed exactly when one of its conditions holds; frozen
entities never move or act; invincible entities lose no health except to the Apocalypse; at most 2
items per pool and every item accounted for (with items seeded into half the games); ticks reset
when a string breaks (a character that ends its turn holds ticks only in the tile it ends it in);
clones die with their original and minions never outlive their creator, a team has at most one
assist, a vehicle and its pilot stand together (tests/_engine_kit.check_entity_invariants); an
action through a vehicle is its pilot's and spends both actions. The same in the terrain draft
(falls). Some games are pinned as @examples for a situation they reach; a test watches that each
still does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sim.ai.play import step
from sim.catalogue.teams import random_teams
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.tiles.live_board import _spawn_now
from tests._engine_kit import (CATALOGUE, EXAMPLE_TEAMS, TERRAIN_DRAFT, new_game, new_game_with,
                               play_checked, seed_items)

MAX_DECISIONS = 20_000

# Games pinned as @examples: each reaches a situation the invariants must be checked across
# (found by a search of boards and seeds; test_each_pinned_game_reaches_its_situation watches
# them, so a change that makes them play other games fails there and says to re-pin).
# Frozen vehicle: a pilot teleports or crosses water away from its frozen vehicle, which stays
# where it stood (house ruling "A frozen vehicle stays"). Re-pinned at stop 69 (the rule fixes
# changed the games) and at stop 79 (a tile's buff made permanent), by a search of boards and
# seeds with Situations.
FROZEN_VEHICLE = dict(board=9, seed=528093165, apocalypse=1, policies=[1, 0, 0, 1], items=False)
# Walled Spawn: a tile swap puts a tile whose middle is no floor on one of a team's Spawn
# coordinates, and a card of that team is later placed (summoned or revived) on that tile's
# nearest floor space (house ruling "Spawn in play"). Re-pinned at stop 58 (the dice stream
# changed) and at stop 79 (a tile's buff made permanent), by a search of boards and seeds with
# Situations.
WALLED_SPAWN = dict(board=14, seed=1785983720, apocalypse=2, policies=[0, 1, 0, 0], items=False)
# Revived: a character dies frozen and keeps the freeze in death; a teammate later revives it in
# the Spawn, not on the space where it died. Re-pinned at stop 58 (the dice stream changed), at
# stop 69 (the rule fixes changed the games), at stop 70 (lines at any angle inside a tile) and
# at stop 79 (a tile's buff made permanent), by a search of boards and seeds with Situations.
REVIVED = dict(board=3, seed=1105242248, apocalypse=1, policies=[1, 1, 1, 0], items=False)
# A frozen fall, in the terrain draft (the book has no platform or ladder, so no fall: the
# variant's test below): a fighter frozen throughout a decision is hit on a platform edge and
# falls. Re-pinned at stop 58 (the dice stream changed), at stop 69 (the rule fixes) and at stop
# 70 (lines at any angle inside a tile).
FROZEN_FALL = dict(board=22, seed=1656587485, apocalypse=0, policies=[0, 0, 0, 0])


def start(board, seed, apocalypse, items, log=False):
    """The game of the property test below (``log`` for a watcher's sake: it plays the same)."""
    game = new_game(board, seed, apocalypse=apocalypse, log=log)
    if items:
        seed_items(game, np.random.default_rng(seed))
    return game


def start_draft(board, seed, apocalypse):
    """The same in the terrain draft (``TERRAIN_DRAFT``), teams drawn as ``new_game`` draws them."""
    teams = random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))
    return new_game_with(TERRAIN_DRAFT, board, seed, teams, apocalypse=apocalypse)


@settings(max_examples=12, deadline=None)
@given(board=st.integers(0, 40), seed=st.integers(0, 2**31), apocalypse=st.integers(-1, 2),
       policies=st.lists(st.sampled_from([L.RANDOM, L.GREEDY]), min_size=4, max_size=4),
       items=st.booleans())
@example(**FROZEN_VEHICLE)  # frozen vehicle: its pilot teleports off, the vehicle stays
@example(**WALLED_SPAWN)  # walled Spawn: a summoned card placed beside Central Perk's block
@example(**REVIVED)  # revived: a frozen dead character revived in the Spawn
def test_invariants_hold_after_every_decision_and_every_game_ends(board, seed, apocalypse,
                                                                  policies, items):
    """R1-R5 invariants (see module docstring); "Each turn, each character can only use as much
    speed as their stat shows"; "Healing increases current health towards, and up to, its
    maximum value"; "The Apocalypse is revealed under any one of three circumstances"; "A
    character can only hold up to 2 items at a time"."""
    game = start(board, seed, apocalypse, items)
    play_checked(game, policies, MAX_DECISIONS)
    r = game.result()
    assert 1 <= r.rotation <= game.S.ip[L.P_CAP]  # rotations played (stop 78: was cap + 1)
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


@settings(max_examples=2, deadline=None)
@given(board=st.integers(0, 40), seed=st.integers(0, 2**31), apocalypse=st.integers(-1, 2),
       policies=st.lists(st.sampled_from([L.RANDOM, L.GREEDY]), min_size=4, max_size=4))
@example(**FROZEN_FALL)  # a frozen fall: a frozen fighter hit on a platform edge falls
def test_invariants_hold_in_the_terrain_draft(board, seed, apocalypse, policies):
    """The same invariants with the terrain draft switched on (``[variants] terrain_draft``, off
    by default: the book has no platform or ladder), where damage may make a fall: "Whenever
    damage is allocated to a fighter that is within ½" of the edge of a platform or climbing a
    ladder ... On a 1: The fighter falls" — a frozen fighter too, a move it does not make
    (tests/_engine_kit.step_checked)."""
    play_checked(start_draft(board, seed, apocalypse), policies, MAX_DECISIONS)


class Situations:
    """What a game reaches, read from its log and its state decision by decision (a
    ``play_checked`` watcher): the names of the situations the pinned games are for."""

    def __init__(self):
        self.seen: set[str] = set()
        self._before = None
        self._nev = 0

    def __call__(self, game):
        st, S = game.st, game.S
        ent = st.ent
        if self._before is not None:
            frozen, alive, space = self._before  # before this decision
            evs = game.named_events(since=self._nev)  # this decision's events
            for i, ev in enumerate(evs):
                kind = ev["event"]
                if kind == "fall":
                    # "On a 1: The fighter falls": a fighter frozen throughout the decision
                    e = ev["entity"]
                    if frozen[e] and alive[e] and ent.frozen[e] != 0:
                        self.seen.add("frozen fall")
                elif kind == "alight":
                    # "its movement rules mirror those of the character occupying it — crossing
                    # water, teleporting": its pilot teleported or crossed water, the frozen
                    # vehicle stayed
                    c, v = ev["entity"], ev["vehicle"]
                    went = any(x.get("entity") == c and (x["event"] == "teleport" or (
                        x["event"] == "water-roll" and x["success"])) for x in evs[:i])
                    if went and frozen[v] and ent.space[v] == space[v] != ent.space[c]:
                        self.seen.add("frozen vehicle")
                if kind in ("placement", "revive"):
                    # "A Spawn is a set of coordinates, not a tile": a character placed (or
                    # revived) in the tile on a Spawn coordinate whose middle is no floor
                    e, s = ev["entity"], ev["space"]
                    t = int(ent.team[e])
                    for k, x in enumerate(S.spawn_space[t]):
                        if (st.tile_pos[x] >= 0 and st.kind[x] != FLOOR
                                and int(_spawn_now(st, S, t, k)) == s):
                            self.seen.add("walled Spawn")
                if kind == "revive":
                    # states on a dead character stay (docs/effects.md "Death"): dead and
                    # frozen, revived on another space than where it died
                    e = ev["entity"]
                    if frozen[e] and not alive[e] and ev["space"] != space[e]:
                        self.seen.add("revived")
        self._before = (ent.frozen != 0, ent.alive != 0, ent.space.copy())
        self._nev = int(st.game.nev)


@pytest.mark.parametrize("situation, pin", [("frozen vehicle", FROZEN_VEHICLE),
                                            ("walled Spawn", WALLED_SPAWN),
                                            ("revived", REVIVED),
                                            ("frozen fall", FROZEN_FALL)])
def test_each_pinned_game_reaches_its_situation(situation, pin):
    """Each @example above still plays into the situation it is pinned for (the game as its
    test plays it, watched with the log on; unlogged, the same game to its last state), so no
    change moves a pin off its situation unnoticed. The rules they exercise: "A frozen entity
    cannot use any of its speed" with "When a vehicle moves, its movement rules mirror those of
    the character occupying it — crossing water, teleporting" (frozen vehicle); "A Spawn is a set
    of coordinates, not a tile: those three positions stay that team's spawn point, no matter
    what tile is later swapped or transformed into them" (walled Spawn); "The player may choose
    whether the revive occurs at the point of occurrence, or back in the team's Spawn", the states
    on a dead character staying (docs/effects.md "Death") (revived); the terrain draft's "On a 1:
    The fighter falls", frozen or not (a frozen fall)."""
    draft = pin is FROZEN_FALL
    game = (start_draft(pin["board"], pin["seed"], pin["apocalypse"]) if draft
            else start(pin["board"], pin["seed"], pin["apocalypse"], pin["items"], log=True))
    seen = Situations()
    play_checked(game, pin["policies"], MAX_DECISIONS, seen)
    assert int(game.st.game.ev_lost) == 0
    assert situation in seen.seen, (f"the game pinned for {situation!r} ({pin}) no longer reaches "
                                    "it: re-pin it (search boards and seeds with Situations)")
    if not draft:  # the @example plays it unlogged: the log changes nothing
        quiet = start(pin["board"], pin["seed"], pin["apocalypse"], pin["items"])
        while not quiet.terminal:
            step(quiet, pin["policies"][int(quiet.st.ent.team[quiet.current])])
        assert quiet.result() == game.result()
        assert np.array_equal(quiet.st.ent.raw, game.st.ent.raw)
