"""Tile functions, one table-driven scenario per rule: a small position is set up on board 3 (every
catalogue tile is in play there), a character is put on a tile, its turns are ended through the
engine's END (``end_turn_of``) or an action is applied through the engine interface (the legal
mask and ``apply``), and the rule is asserted. Each case quotes its rule (docs/tiles.md)."""

from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from sim.ai.greedy import _greedy_action
from sim.ai.tile_values import _pos_bonus
from sim.board.geometry import APOCALYPSE, local_space
from sim.board.graph import compile_board
from sim.board.swap import swap_tiles, transform_tile
from sim.catalogue.diagnostics import InputError
from sim.catalogue.loader import load_catalogue
from sim.catalogue.tile_layout import FLOOR, INTERACT
from sim.combat.star import GREEN
from sim.engine.state import fields as L
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.live_movement import _homefield
from sim.engine.state.static_tables import _pos_dist
from sim.engine.tiles.live_board import _reveal_in_place, _space_cell, _tile_at
from sim.engine.tiles.fx_table import CELLS, TF_FEATURE, TF_PIECE
from sim.engine.tiles.paused import _after_action_tiles, _paused, _set_tile_state
from sim.engine.tiles.swap_in_play import _swap, _transform
from sim.engine.tiles.functions import _knows_apocalypse
from sim.engine.rules.turn import _begin_turn
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


def events(game, kind):
    rows = game.event_rows()
    return rows[rows[:, 0] == kind]


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


# ------------------------------------------------------------------------------ tile rewards

def _speed(g, c):
    return int(g.st.ent.speed[c])


@pytest.mark.parametrize("tile, price, what, check", [
    ("Hyperbolic Time Chamber", 3, "+1 speed", lambda g, c, b: g.st.ent.speed[c] == b[L.SPEED] + 1),
    ("Hidden Leaf Gate", 2, "+1 range", lambda g, c, b: g.st.ent.range[c] == b[L.RANGE] + 1),
    ("Fortress of Solitude", 4, "+1 defense",
     lambda g, c, b: g.st.ent.defense[c] == b[L.DEFENSE] + 1),
    ("Colosseum", 3, "+1 attack on every point",
     lambda g, c, b: np.array_equal(g.st.ent.atk[c], b[L.ATK:L.ATK + 4] + 1)),
    ("Manga Cafe", 1, "heal 20", lambda g, c, b: g.st.ent.health[c] == b[L.HEALTH] + 20),
    ("Central Perk", 2, "heal 30", lambda g, c, b: g.st.ent.health[c] == b[L.HEALTH] + 30),
    ("Warp Zone", 2, "green star",
     lambda g, c, b: _attack_star(g.st, g.S, c, enemy_of(g, c)) == GREEN),
    ("Server Farm", 1, "a coin for the team", lambda g, c, b: g.st.game.coins[0] == 1),
    ("Concert Stage", 2, "an extra action", lambda g, c, b: g.st.ent.extra_left[c] == 1),
    ("Sky Island", 2, "an item", lambda g, c, b: g.st.ent.item_slot[c, 0] != 0),
    # "A Summon is when a random 6th character card joins your team ... usually achieved as a
    # tile reward"; an assist character (house: a tile reward grants one)
    ("Gotham Alley", 4, "a 6th card (Bat-Signal)", lambda g, c, b: np.any(
        (g.st.ent.kind == L.K_SUMMONED) & (g.st.ent.team == 0) & (g.st.ent.alive == 1))),
    ("Jurassic Paddock", 3, "an assist (Park Ranger)", lambda g, c, b: np.any(
        (g.st.ent.kind == L.K_ASSIST) & (g.st.ent.team == 0) & (g.st.ent.alive == 1))),
])
def test_a_reward_is_bought_with_ticks_of_turns_ended_in_a_row(tile, price, what, check):
    """"A Tile Reward is a reward a character gets by ending their turn in a tile. Some rewards
    ... require several turns in a row"; "Ticks are spent at the end of your turn in the
    relevant tile. The reward's price in ticks disappears in exchange for the reward itself"."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where(tile))
    ent.health[c] -= 50
    for k in range(1, price):
        before = ent.raw[c].copy()
        end_turn_of(game, c)
        assert ent.ticks[c] == k and not check(game, c, before), what
    before = ent.raw[c].copy()
    end_turn_of(game, c)
    assert check(game, c, before), what
    assert ent.ticks[c] == 0 and ent.tick_tile[c] == TILES.find(tile) + 1
    assert len(events(game, L.EV_REWARD)) == 1


def test_an_item_reward_with_both_slots_taken_lands_on_the_floor():
    """"Items are gained primarily through tiles"; "A character can only hold up to 2 items at a
    time": with both slots taken, Sky Island's item is put on the character's space (house
    ruling, docs/items.md) and the ticks are spent for it."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.item_slot[c, 0] = ent.item_slot[c, 1] = 1  # two items held (the first item type)
    spot = floor_of(game, where("Sky Island"))
    ent.space[c] = spot
    for _ in range(2):
        end_turn_of(game, c)
    lying = [int(s) for i, s in st.floor if i >= 0]
    assert lying == [spot] and ent.ticks[c] == 0 and len(events(game, L.EV_REWARD)) == 1


def test_ticks_are_counted_separately_for_each_character():
    """"Progress towards a tile reward is tracked with Ticks, counted separately for each
    character"; each character of a multi-character card has "their own tile reward ticks"."""
    game, c = game_on()
    ent = game.st.ent
    a = ally_of(game, c)
    ent.space[[c, a]] = floor_of(game, where("Fortress of Solitude"))
    end_turn_of(game, c)
    end_turn_of(game, c)
    end_turn_of(game, a)
    assert ent.ticks[c] == 2 and ent.ticks[a] == 1


@pytest.mark.parametrize("kind", ["K_MINION", "K_CLONE", "K_ASSIST", "K_VEHICLE"])
def test_minions_and_other_non_characters_earn_no_ticks(kind):
    """"Minions cannot receive tile rewards unless specified" (a clone "is treated as a minion";
    assists and vehicles are not characters): the same row ending its turn in a reward tile
    earns a tick as a character and none as any other kind (sim/engine/tiles/functions.py:_end_turn_tile)."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where("Fortress of Solitude"))
    end_turn_of(game, c)
    assert ent.ticks[c] == 1
    ent.kind[c] = getattr(L, kind)
    end_turn_of(game, c)
    assert ent.ticks[c] == 1


@pytest.mark.parametrize("second, ticks_after", [
    ("Rabbit Hole", 1),      # a string starts in the other reward tile
    ("Uncovered Tile", 0),   # a tile with no reward
])
def test_interrupting_the_string_loses_every_tick(second, ticks_after):
    """"All of a character's ticks in a tile disappear at once if they interrupt the string of
    consecutive turns ended in that tile" — ending a turn in another tile interrupts it; leaving
    and coming back within the turn does not."""
    game, c = game_on()
    ent = game.st.ent
    htc = floor_of(game, where("Hyperbolic Time Chamber"))
    ent.space[c] = htc
    end_turn_of(game, c)
    ent.space[c] = floor_of(game, where("Rabbit Hole"))  # a walk out and back in
    ent.space[c] = htc
    end_turn_of(game, c)
    assert ent.ticks[c] == 2
    p = where(second) if second != "Uncovered Tile" else uncovered_at()
    ent.space[c] = floor_of(game, p)
    end_turn_of(game, c)
    assert ent.ticks[c] == ticks_after
    ent.space[c] = htc
    end_turn_of(game, c)
    assert ent.ticks[c] == 1 and ent.speed[c] == _speed(game_on()[0], c)


def test_redeeming_removes_only_the_price():
    """"Redeeming a reward removes only the number of ticks that reward costs. Any ticks a
    character has banked beyond that price stay with them" (ticks beyond the price: banked while
    the reward could not be given, e.g. a Summon already used)."""
    game, c = game_on()
    ent = game.st.ent
    ent.space[c] = floor_of(game, where("Hyperbolic Time Chamber"))
    ent.ticks[c], ent.tick_tile[c] = 4, TILES.find("Hyperbolic Time Chamber") + 1
    end_turn_of(game, c)
    assert ent.ticks[c] == 2 and len(events(game, L.EV_REWARD)) == 1


@pytest.mark.parametrize("tile, price", [("Gotham Alley", 4), ("Jurassic Paddock", 3)])
def test_no_reward_no_exchange(tile, price):
    """"The reward's price in ticks disappears in exchange for the reward itself": a Summon or an
    assist character that cannot join (the special-entities slice's hooks refuse: no Summon left,
    an assist already held) keeps the ticks banked."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = floor_of(game, where(tile))
    for _ in range(price):  # the first reward: given, and its price paid
        end_turn_of(game, c)
    assert len(events(game, L.EV_REWARD)) == 1 and ent.ticks[c] == 0
    for _ in range(price + 1):  # now none can join (the Summon used, the assist alive)
        end_turn_of(game, c)
    assert len(events(game, L.EV_REWARD)) == 1  # no reward ...
    assert ent.ticks[c] == price + 1  # ... no exchange: every tick stays banked


def test_a_permanent_gain_survives_deactivation_swap_and_removal():
    """"All buffs a tile gives you are permanent ... none of it is lost if that tile is later
    deactivated, swapped, or removed from the board"; "Once a reward has been redeemed it is
    severed from the tile that produced it"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p = where("Hidden Leaf Gate")
    ent.space[c] = floor_of(game, p)
    r0 = int(ent.range[c])
    end_turn_of(game, c)
    end_turn_of(game, c)
    assert ent.range[c] == r0 + 1
    _set_tile_state(st, game.S, p, 0, 3, c)
    _swap(st, game.S, p, where("Firewall"), c)
    _transform(st, game.S, where("Firewall"), TILES.uncovered, c)
    assert ent.range[c] == r0 + 1


def test_a_tile_gain_of_one_toon_twin_is_gained_by_both():
    """A multi-character card's characters "share one stat pool and one item pool. A stat buff
    gained by one of them is gained by all of them": one Toon Twin earns Hidden Leaf Gate's
    permanent +1 range and both rows gain it (one gain event each); other cards do not."""
    game, c = game_on()
    ent = game.st.ent
    twins = np.flatnonzero((ent.kind == L.K_CHARACTER)
                           & (ent.card == CATALOGUE.cards.find("Toon Twins")))
    assert len(twins) == 2 and len(set(ent.group[twins])) == 1
    a, b = (int(x) for x in twins)
    others = np.flatnonzero((ent.kind == L.K_CHARACTER) & (ent.group != ent.group[a]))
    ent.space[a] = floor_of(game, where("Hidden Leaf Gate"))
    before, others_before = ent.range[[a, b]].copy(), ent.range[others].copy()
    end_turn_of(game, a)
    end_turn_of(game, a)
    assert np.array_equal(ent.range[[a, b]], before + 1)
    assert np.array_equal(ent.range[others], others_before)
    assert sorted(events(game, L.EV_GAIN)[:, 2].tolist()) == [a, b]


# ----------------------------------------------------------------------- deactivated, frozen

def test_a_deactivated_tile_is_paused_until_the_deactivation_is_removed():
    """"When a tile is deactivated, all functionality of that tile is paused until the
    deactivation is removed. Rewards and stats it has already granted are untouched" (house:
    the ticks banked in it wait). Deactivated through the Root Terminal (an interactable)."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    a = ally_of(game, c)
    stage = where("Concert Stage")
    ent.space[a] = floor_of(game, stage)
    end_turn_of(game, a)
    ent.space[c] = space("Server Farm", 0, 0)  # beside an interactable piece
    assert middle(stage) in interact_actions(game)
    game.apply(interact(game, middle(stage)))
    assert _paused(st, stage) and ent.acted[c] == 1
    end_turn_of(game, a)
    assert ent.ticks[a] == 1 and ent.extra_left[a] == 0  # no tick, none lost
    _begin_turn(st, game.S, 0)  # the deactivator's team's next turn: "for one rotation" is over
    assert not _paused(st, stage)
    end_turn_of(game, a)
    assert ent.extra_left[a] == 1  # the reward, two ticks in a row counting the pause


def test_a_frozen_tile_freezes_everyone_in_it_for_as_long_as_it_is():
    """"A frozen tile has its functionality paused, exactly as a deactivated tile does. Every
    entity standing in a frozen tile is frozen too, for as long as the tile is" — frozen through
    Lethe Waters (the tile itself is the interactable; it costs the team a coin)."""
    game, c = game_on()
    st, S, ent = game.st, game.S, game.st.ent
    farm = where("Server Farm")
    d, f = enemy_of(game, c), enemy_of(game, c) + 1
    ent.space[d] = floor_of(game, farm)
    ent.space[c] = floor_of(game, where("River Styx"))
    assert interact_actions(game) == []  # no coin yet
    st.game.coins[0] = 1
    game.apply(interact(game, middle(farm)))
    assert st.game.coins[0] == 0 and ent.frozen[d] != 0
    assert ent.frozen[d] == st.tiles.frozen[farm]
    a = ally_of(game, c)
    ent.space[f] = floor_of(game, farm)      # walk in ...
    ent.space[a] = space("Server Farm", 0, 0)
    _after_action_tiles(st, S)                  # ... and are frozen after the action
    assert ent.frozen[f] == ent.frozen[a] == ent.frozen[d]
    st.game.cur = a
    assert game.legal_actions().tolist() == [L.END]  # frozen: nothing at all, no interactable
    st.game.cur = c
    _begin_turn(st, game.S, 0)  # the freezer's team's next turn: the tile and its entities thaw together
    _after_action_tiles(st, S)
    assert ent.frozen[d] == 0 and ent.frozen[f] == 0 and not _paused(st, farm)


def test_a_transformed_frozen_tile_thaws_its_entities():
    """Frozen "for as long as the tile is": a frozen tile transformed away leaves with its state;
    the tile that arrives is neither frozen nor deactivated, and whoever it held thaws."""
    game, c = game_on()
    st, S, ent = game.st, game.S, game.st.ent
    farm = where("Server Farm")
    d = enemy_of(game, c)
    ent.space[d] = floor_of(game, farm)
    _set_tile_state(st, S, farm, 1, 3, c)
    _set_tile_state(st, S, farm, 0, 3, c)
    assert ent.frozen[d] != 0 and _paused(st, farm)
    _transform(st, S, farm, TILES.uncovered, c)
    assert ent.frozen[d] == 0 and not _paused(st, farm)


# ---------------------------------------------------------------------------- interactables

@pytest.mark.parametrize("tile, at, offered", [
    ("Fortress of Solitude", (1, 2), True),   # beside the crystal piece
    ("Fortress of Solitude", (2, 2), True),   # on it
    ("Fortress of Solitude", (0, 0), False),  # two steps away
    ("Mystic Elevator", (0, 0), True),        # "or the tile itself, such as the Mystic Elevator"
    ("River Styx", (0, 0), True),             # a tile with no piece: the tile itself
])
def test_an_interactable_is_used_from_within_1_range(tile, at, offered):
    """"Interactables are portions of a tile that can be interacted with by spending an action,
    from within 1 range of the interactable piece ... or the tile itself"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    st.game.coins[0] = 5
    ent.space[c] = space(tile, *at)
    assert bool(interact_actions(game)) == offered
    ent.acted[c] = 1  # "by spending an action": none left, none offered
    assert interact_actions(game) == []


def test_an_interactable_from_the_next_tile_is_out_of_range():
    """Range across a tile boundary costs the tile-to-tile penalty: a doorway space beside a tile
    whose piece is the tile itself (the Mystic Elevator, 1×1) is not within 1 range."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    elevator = space("Mystic Elevator", 0, 0)
    beside = [int(s) for s in st.sight_nbr[elevator] if s >= 0 and st.kind[s] == FLOOR]
    assert beside and all(st.tile_pos[s] != st.tile_pos[elevator] for s in beside)
    ent.space[c] = beside[0]
    assert interact_actions(game) == []


def test_the_pieces_cell_in_the_next_tile_is_not_within_1_range():
    """"from within 1 range of the interactable piece": only the piece's own spaces count. A
    character two or more spaces from the piece, whose neighbour across the tile boundary lies on
    the piece's cell number of the *next* tile, is not within 1 range (every such space of board
    4; there are some, so the case is reached)."""
    game, c = game_on()
    st, ent, S = game.st, game.st.ent, game.S
    st.game.coins[0] = 5
    fx, nbr, tile_pos = S.tile_fx, st.sight_nbr, st.tile_pos
    cases = []
    for s in np.flatnonzero((tile_pos >= 0) & (st.kind == FLOOR)):
        p, t = tile_pos[s], _tile_at(st, S, tile_pos[s])
        if t < 0 or fx[2 * t + 1, L.FX_OP] == 0 or fx[2 * t + 1, TF_PIECE] == 0:
            continue
        piece = {cell for cell in range(CELLS) if fx[2 * t + 1, TF_FEATURE + cell] == INTERACT}
        near = [x for x in nbr[s] if x >= 0]
        if _space_cell(s) in piece or any(tile_pos[x] == p and _space_cell(x) in piece
                                          for x in near):
            continue  # within 1 range of the piece itself
        if any(tile_pos[x] != p and _space_cell(x) in piece for x in near):
            cases.append(int(s))
    assert cases
    for s in cases:
        ent.space[c] = s
        assert interact_actions(game) == [], s


def test_learning_the_apocalypse_once():
    """The Kryptonian Crystal ("learn the Apocalypse early"): the team learns which Apocalypse
    lies face-down (the look-ahead stops guessing it); nothing is left to learn afterwards."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = space("Fortress of Solitude", 1, 2)
    assert not _knows_apocalypse(st, 0)
    game.apply(interact(game, int(ent.space[c])))
    assert _knows_apocalypse(st, 0) and not _knows_apocalypse(st, 1) and ent.acted[c] == 1
    ent.acted[c] = 0
    assert interact_actions(game) == []


def test_a_team_economy_is_spent_by_any_teammate():
    """"Aside from Tile Rewards, other Nonphysical resources can also be gained through a Tile's
    native economy system. Any intangible spending power gained from a Tile can be used by any
    member of your team": coins earned in the Server Farm buy an item at the Acme Catalogue."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    a = ally_of(game, c)
    ent.space[a] = floor_of(game, where("Server Farm"))
    ent.space[c] = space("Acme Warehouse", 1, 0)  # beside the catalogue piece
    end_turn_of(game, a)
    assert st.game.coins[0] == 1 and interact_actions(game) == []  # the price is 2
    end_turn_of(game, a)
    assert st.game.coins[0] == 2 and interact_actions(game) == [int(ent.space[c])]
    game.apply(interact(game, int(ent.space[c])))
    assert st.game.coins[0] == 0 and ent.item_slot[c, 0] != 0
    d = enemy_of(game, c)
    st.game.coins[1] = 0
    ent.space[d] = ent.space[c]
    st.game.cur, st.game.coins[0] = d, 5  # Team 1's coins are not Team 2's
    assert interact_actions(game) == []


def test_an_extra_action_next_turn():
    """The Encore ("one extra action next turn"): in the next turn, the character that has acted
    gets its action back once; unused, it is gone when that turn is over (house ruling)."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = floor_of(game, where("Concert Stage"))
    ent.ticks[c], ent.tick_tile[c] = 1, TILES.find("Concert Stage") + 1
    end_turn_of(game, c)
    assert ent.extra_left[c] == 1
    ent.acted[c] = 1
    game.apply(L.END)  # this turn: not yet
    assert ent.done[c] == 1
    _begin_turn(st, game.S, 0)
    st.game.cur = c
    ent.acted[c] = 1  # it has attacked
    game.apply(L.END)
    assert ent.acted[c] == 0 and ent.done[c] == 0 and ent.extra_left[c] == 0
    assert game.current == c
    game.apply(L.END)
    assert ent.done[c] == 1


# ------------------------------------------------------------------- swaps and transforms

def test_tile_control_swaps_the_users_tile_keeping_everything_in_it():
    """tile_control mode 0 (Ability Index): "Swaps two tiles ... within `range` tiles" (house:
    the user's own tile and the chosen one); "the tile and everything in it remain unchanged; the
    two tiles trade positions on the board while keeping their orientation"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p, q = where("Rabbit Hole"), where("Comment Section")
    reach = max(2, abs(p // 7 - q // 7), abs(p % 7 - q % 7))  # q within range
    give_ability(game, c, "tile_control", mode=0, range=reach)
    ent.space[c] = floor_of(game, p)
    e = enemy_of(game, c)
    ent.space[e] = space("Comment Section", 0, 4)
    mask = game.legal_mask()
    targets = {(s // SPAN // 5) * 7 + (s % SPAN) // 5
               for s in range(SPAN ** 2) if mask[on_space(game, s)]}
    assert q in targets and p not in targets
    assert all(max(abs(t // 7 - p // 7), abs(t % 7 - p % 7)) <= reach for t in targets)
    before_e = int(ent.space[e])
    game.apply(on_space(game, middle(q)))
    ref, moved = swap_tiles(setup_for(BOARD).board, TILES, divmod(p, 7), divmod(q, 7),
                            [middle(p), before_e])
    assert board_now(game, ref) == []
    assert ent.space[c] == moved[0] and ent.space[e] == moved[1]
    assert st.tiles.tile[q] == TILES.find("Rabbit Hole")


def test_a_tile_landing_on_an_uncovered_tile_covers_it_and_carries_its_contents():
    """"When the destination is an Uncovered Tile ... The moving tile simply moves onto it and
    covers it up"; "every entity and Component standing on that Uncovered Tile is picked up and
    placed into the tile that has arrived over them" ("A 1x1 Tile, entering a larger tile lands
    in the middle space"). The Mystic Elevator swaps "with any tile of the same size"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    give_ability(game, c, "tile_control", mode=0, range=6)
    p, q = where("Hidden Leaf Gate"), uncovered_at()  # an Uncovered Tile
    ent.space[c] = space("Hidden Leaf Gate", 0, 0)
    e = enemy_of(game, c)
    ent.space[e] = middle(q)
    game.apply(on_space(game, middle(q)))
    ref, moved = swap_tiles(setup_for(BOARD).board, TILES, divmod(p, 7), divmod(q, 7),
                            [space("Hidden Leaf Gate", 0, 0), middle(q)])
    assert board_now(game, ref) == []
    assert ent.space[c] == moved[0] and ent.space[e] == moved[1] == middle(q)
    assert st.tiles.tile[p] == TILES.uncovered  # the position left shows one
    game2, c2 = game_on()
    game2.st.ent.space[c2] = space("Mystic Elevator", 0, 0)
    sizes = {int(TILES.size[_tile_at(game2.st, game2.S, (s // SPAN // 5) * 7 + (s % SPAN) // 5)])
             for s in interact_actions(game2)}
    assert sizes == {1}


def test_a_transform_brings_a_tile_not_in_play_and_consolidates():
    """tile_control mode 1: "Transforming a tile will result in an existing tile on the board
    being transformed into a chosen tile that is not already in play" (house: one of the user's
    suit first); consolidation "when a tile is transformed into a bigger or smaller one"."""
    game, c = game_on()
    give_ability(game, c, "tile_control", mode=1, range=6)
    game.st.ent.space[c] = floor_of(game, where("Rabbit Hole"))
    # BOARD: every tile is in play (nothing from the ability on spaces to the hand-overs)
    assert not game.legal_mask()[on_space(game, 0):game.block("hand_over").start].any()
    board = board_with(*NO_HTC)  # the Hyperbolic Time Chamber (Anime) is out of play
    game, c = game_on(board=board)
    st, ent = game.st, game.st.ent
    give_ability(game, c, "tile_control", mode=1, range=6)
    ent.suit[c] = CATALOGUE.rules.suits.index("Anime")
    p = where("Tokyo Rooftops", board=board)
    ent.space[c] = space("Tokyo Rooftops", 0, 0, board=board)
    game.apply(on_space(game, middle(p)))
    assert st.tiles.tile[p] == TILES.find("Hyperbolic Time Chamber")
    assert ent.space[c] == middle(p)  # 5×5 → 1×1: "the concentric center"
    ref, _ = transform_tile(setup_for(board).board, TILES, divmod(p, 7),
                            TILES.find("Hyperbolic Time Chamber"))
    assert board_now(game, ref) == []


def test_a_5x5_folds_into_a_3x3():
    """"A 5×5 becoming a 3×3 folds inward instead ... everything standing in a region moves to
    the single space that region corresponds to": the 2×2 corner blocks to the corners, the edge
    runs to the edge spaces, the middle to the middle. The regions are spelled out here, not
    taken from sim.board.swap.consolidate: the engine inlines that very function, so it would be
    no independent oracle."""
    region = (0, 0, 1, 2, 2)  # a 5×5 row or column -> the 3×3 row or column it folds into
    game, c = game_on()
    st, ent = game.st, game.st.ent
    p, n = where("Tokyo Rooftops"), TILES.find("Firewall")
    _transform(st, game.S, where("Firewall"), TILES.uncovered, c)  # Firewall leaves play
    chars = np.flatnonzero(ent.kind == L.K_CHARACTER)
    cells = [(i, j) for i in range(5) for j in range(5)][: len(chars)]
    for e, (i, j) in zip(chars, cells):
        ent.space[e] = space("Tokyo Rooftops", i, j)
    _transform(st, game.S, p, n, c)
    for e, (i, j) in zip(chars, cells):
        assert ent.space[e] == local_space(divmod(p, 7), region[i], region[j], 3)


@pytest.mark.parametrize("board", [0, 1, 4, 9])
def test_swaps_and_transforms_in_play_match_the_python_board(board):
    """The kernel re-stamping (sim/engine/tiles/live_board.py) gives, array for array, the graph the
    Python reference compiles (sim.board.swap + compile_board) after random swaps and transforms,
    portals travelling with their tiles; the reveal then stamps the 1×1 Apocalypse tile in place
    ("When revealed it is treated as a 1x1 Tile")."""
    game, _ = game_on(board)
    st, S = game.st, game.S
    ref = setup_for(board).board.copy()
    rng = np.random.default_rng(board)
    for _ in range(6):
        on = [p for p in range(49) if ref.tiles.flat[p] >= 0]
        p, q = (int(x) for x in rng.choice(on, 2, replace=False))
        ref, _ = swap_tiles(ref, TILES, divmod(p, 7), divmod(q, 7))
        _swap(st, S, p, q, -1)
        assert board_now(game, ref) == []
        out = [t for t in range(len(TILES)) if t != TILES.uncovered and not (ref.tiles == t).any()]
        if out:
            n = int(rng.choice(out))
            ref, _ = transform_tile(ref, TILES, divmod(q, 7), n)
            _transform(st, S, q, n, -1)
            assert board_now(game, ref) == []
    st.game.revealed = 1
    assert _reveal_in_place(st, S)
    ref.tiles[ref.tiles == APOCALYPSE] = TILES.uncovered
    assert [b for b in board_now(game, ref) if b != "tile distance"] == []


def test_water_travels_with_its_tile_and_a_transform_brings_its_own():
    """"the tile and everything in it remain unchanged; the two tiles trade positions on the
    board while keeping their orientation": River Styx's bodies of water go where the tile goes;
    a transform into "a chosen tile that is not already in play" takes the old tile's water away
    and brings the new tile's own. After each step the live bodies (and the whole graph) equal
    the Python reference's (sim.board.swap + compile_board)."""
    board = board_with(*NO_HTC)
    game, _ = game_on(board)
    st, S = game.st, game.S
    styx, htc = TILES.find("River Styx"), TILES.find("Hyperbolic Time Chamber")
    p, q = where("River Styx", board), where("Tokyo Rooftops", board)  # two 5×5 tiles
    ref = setup_for(board).board.copy()
    assert not (ref.tiles == htc).any()  # out of play on this board: a transform may bring it

    def water_at():
        """The positions holding a space from which a body of water can be crossed."""
        return {int(st.tile_pos[s]) for s in live_shores(st, S)}

    before = water_at()
    assert p in before and q not in before  # Tokyo Rooftops is dry
    ref, _ = swap_tiles(ref, TILES, divmod(p, 7), divmod(q, 7))
    _swap(st, S, p, q, -1)
    assert board_now(game, ref) == []
    assert water_at() == (before - {p}) | {q}
    ref, _ = transform_tile(ref, TILES, divmod(q, 7), htc)  # River Styx leaves play ...
    _transform(st, S, q, htc, -1)
    assert board_now(game, ref) == [] and water_at() == before - {p}
    ref, _ = transform_tile(ref, TILES, divmod(p, 7), styx)  # ... and a transform brings it back
    _transform(st, S, p, styx, -1)
    assert board_now(game, ref) == [] and water_at() == before


def test_the_apocalypse_cannot_be_swapped_or_transformed():
    """The Apocalypse "cannot be traversed, attacked over, transformed, tile-swapped over ...
    When revealed it is treated as a 1x1 Tile that cannot be transformed or removed by Players"."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    apoc = int(game.S.ip[L.P_APOC_POS])
    give_ability(game, c, "tile_control", mode=0, range=6)
    ent.space[c] = floor_of(game, where("Fortress of Solitude"))  # beside the Apocalypse
    for revealed in (0, 1):
        st.game.revealed = revealed
        mask = game.legal_mask()
        assert mask[on_space(game, middle(where("Concert Stage")))]
        assert not mask[on_space(game, middle(apoc))]
    # standing on the revealed Apocalypse ("a 1x1 Tile that cannot be transformed or removed by
    # Players"): its own tile_control swaps nothing
    from sim.engine.rules.reveal import _check_reveal

    st.game.revealed = 0
    st.game.rotation = 7
    _check_reveal(st, game.S)
    ent.space[c] = middle(apoc)
    mask = game.legal_mask()
    assert not any(mask[on_space(game, middle(q))] for q in range(49))


def test_a_spawn_is_a_set_of_coordinates():
    """"A Spawn is a set of coordinates, not a tile: those three positions stay that team's
    spawn point, no matter what tile is later swapped or transformed into them"; house ruling
    "Spawn in play": Central Perk's middle space is a wall block, so a character is placed on
    the tile's nearest floor space (fewest king steps, then lowest id), never on the block."""
    game, c = game_on()
    st, S = game.st, game.S
    spawn = int(S.spawn_space[0, 0])
    p = int(st.tile_pos[spawn])
    _swap(st, S, where("Central Perk"), p, -1)
    assert st.tiles.tile[p] == TILES.find("Central Perk") and st.tile_pos[spawn] == p
    assert st.kind[spawn] != FLOOR
    ent = st.ent
    ent.space[c] = -1
    floor = [int(s) for s in np.flatnonzero((st.tile_pos == p) & (st.kind == FLOOR))]
    nearest = min(floor, key=lambda s: (max(abs(s // SPAN - spawn // SPAN),
                                            abs(s % SPAN - spawn % SPAN)), s))
    offered = set(np.flatnonzero(game.legal_mask()[game.block("move")]).tolist())
    assert nearest in offered and spawn not in offered
    assert offered - {nearest} <= {int(s) for s in S.spawn_space[0, 1:]}
    game.apply(game.action("move", nearest))
    assert ent.space[c] == nearest


def test_a_spawn_destroyed_or_walled_off_offers_no_place_and_the_character_waits():
    """House ruling "Spawn in play": a destroyed Spawn coordinate offers no space; with none of
    the three left, a character still to be placed can only end its turn (it waits), and
    greedy does so."""
    from sim.engine.rules.apocalypse import _destroy
    game, c = game_on()
    st, S = game.st, game.S
    ent = st.ent
    away = floor_of(game, where("Colosseum"))
    ent.space[(ent.kind == L.K_CHARACTER) & (ent.team == 0)] = away
    ent.space[c] = -1
    _destroy(st, S, int(st.tile_pos[S.spawn_space[0, 0]]))
    offered = np.flatnonzero(game.legal_mask()[game.block("move")])
    assert set(offered.tolist()) == {int(s) for s in S.spawn_space[0, 1:]}
    # walled off: the tile at the second coordinate has no floor space left (all wall blocks)
    from sim.catalogue.tile_layout import BLOCK as WALL_BLOCK
    block = st.tile_pos == st.tile_pos[S.spawn_space[0, 1]]
    kinds = st.kind[block].copy()
    st.kind[block] = WALL_BLOCK
    offered = np.flatnonzero(game.legal_mask()[game.block("move")])
    assert offered.tolist() == [int(S.spawn_space[0, 2])]
    st.kind[block] = kinds
    for k in (1, 2):
        _destroy(st, S, int(st.tile_pos[S.spawn_space[0, k]]))
    assert st.game.over == 0 and ent.alive[c] != 0
    mask = game.legal_mask()
    assert np.flatnonzero(mask).tolist() == [L.END]
    assert _greedy_action(st, S, mask) == L.END


def test_homefield_follows_the_tile():
    """"When a character's suit matches the suit of the tile they are in, they gain the
    Homefield Advantage" — the tile they are in now: a swap carries a character and its tile
    together, and whoever the arriving tile covers stands in that tile's suit."""
    game, c = game_on()
    st, S, ent = game.st, game.S, game.st.ent
    p, q = where("Manga Cafe"), uncovered_at()  # an Uncovered Tile
    ent.suit[c] = CATALOGUE.rules.suits.index("Manga")
    e = ally_of(game, c)
    ent.suit[e] = ent.suit[c]
    ent.space[c], ent.space[e] = middle(p), middle(q)
    assert _homefield(st, S, c) and not _homefield(st, S, e)
    _swap(st, S, p, q, -1)
    assert _homefield(st, S, c) and _homefield(st, S, e)  # both now in the Manga Cafe at q
    assert ent.space[c] == ent.space[e] == middle(q)


# ---------------------------------------------------------------------------------- greedy

def test_greedy_values_staying_where_its_ticks_are_banked():
    """Greedy's position bonus (sim/ai/tile_values.py): a reward tile is worth its reward times
    the share of the price the next tick pays — more where the character's string runs — and
    nothing while the tile is paused; Homefield as before."""
    game, c = game_on()
    st, S, ent = game.st, game.S, game.st.ent
    worth = TILES.greedy["stat_point"]
    htc, rabbit = where("Hyperbolic Time Chamber"), where("Rabbit Hole")
    ent.ticks[c], ent.tick_tile[c] = 2, TILES.find("Hyperbolic Time Chamber") + 1
    bonus = _pos_bonus(st, S, c).copy()  # the decision's scratch: the next call rewrites it
    home = S.fp[L.W_HOMEFIELD]
    suit = ent.suit[c]
    assert bonus[htc] == pytest.approx(worth * 3 / 3 + (home if TILES.suit[TILES.find("Hyperbolic Time Chamber")] == suit else 0))
    assert bonus[rabbit] == pytest.approx(worth / 2 + (home if TILES.suit[TILES.find("Rabbit Hole")] == suit else 0))
    _set_tile_state(st, S, htc, 0, 2, c)
    assert _pos_bonus(st, S, c)[htc] == pytest.approx(bonus[htc] - worth)


def test_greedy_ends_its_turn_on_the_tick_that_pays():
    """Greedy stays to redeem (its last tick is worth the whole reward) instead of walking off."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = floor_of(game, where("Hyperbolic Time Chamber"))
    ent.ticks[c], ent.tick_tile[c] = 2, TILES.find("Hyperbolic Time Chamber") + 1
    # its ability spent: the first to act is Ember Knight since a team's members are in name
    # order, and its ability on itself is worth more than the turn's end; the choice under test
    # is staying (the end of the turn) against walking off
    ent.ab_used[c] = 1
    mask = game.legal_mask()
    assert _greedy_action(st, game.S, mask) == L.END


def test_greedy_launches_from_the_slingshot_towards_the_nearest_enemy():
    """The launch ("launch to any space of the board within 6 spaces": the Slingshot, a mobility
    interactable) is a move that spends the action; greedy scores its landings by position, as
    a teleport's (sim/ai/tile_values._launch): with no speed to walk and the nearest enemy far
    off, it launches, landing nearer that enemy than it stands."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    here = space("Bird Island", 2, 2)  # on the Slingshot piece
    ent.space[c] = here
    ent.speed_left[c] = 0
    ent.ab_used[c] = 1
    ent.streak_over[c] = 1  # no free water-roll either
    foes = [e for e in range(ent.shape[0]) if ent.kind[e] == L.K_CHARACTER
            and ent.team[e] != ent.team[c]]

    def dist(a, b):
        return max(abs(a // SPAN - b // SPAN), abs(a % SPAN - b % SPAN))

    for e in foes:  # every enemy beyond the slingshot's reach, out of range
        ent.space[e] = max((s for s in range(SPAN * SPAN) if st.kind[s] == FLOOR
                               and st.tile_pos[s] >= 0), key=lambda s: dist(s, here))
    mask = game.legal_mask()
    a = int(_greedy_action(st, game.S, mask))
    landings = interact_actions(game)
    assert a - interact(game, 0) in landings and len(landings) > 1
    far = int(ent.space[foes[0]])
    assert dist(a - interact(game, 0), far) < dist(here, far)


def test_greedy_buys_from_the_team_economy():
    """Greedy spends coins at an interactable whose worth exceeds their price ([greedy] item,
    coin)."""
    game, c = game_on()
    st, ent = game.st, game.st.ent
    ent.space[c] = space("Acme Warehouse", 1, 0)
    st.game.coins[0] = 2
    mask = game.legal_mask()
    assert _greedy_action(st, game.S, mask) == interact(game, int(ent.space[c]))


# ------------------------------------------------------------------------------ validation

def _broken(tmp_path, old, new, extra=None):
    d = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", d)
    text = (d / "tiles.toml").read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1 + (extra or 0)
    (d / "tiles.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_catalogue(d)
    return line, [str(p) for p in exc.value.problems]


@pytest.mark.parametrize("old, new, field, words", [
    ('effect = "gain"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     'effect = "gian"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     "tiles.reward.effect", "unknown effect 'gian' (did you mean gain"),
    ('effect = "gain"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     'effect = "tile_state"\nparams = { stat = 0, amount = 1 }\ndescription = "+1 speed',
     "tiles.reward.effect", "a reward acts on the character"),
    ("params = { stat = 0, amount = 1 }", "params = { stat = 0, amont = 1 }",
     "tiles.reward.params.amont", "unknown parameter"),
    ("params = { stat = 0, amount = 1 }", "params = { stat = 9, amount = 1 }",
     "tiles.reward.params.stat", "out of range"),
    ("price = 2", "price = -1", "tiles.interactable.price", "out of range"),
    ('effect = "mobility"', 'effect = "mobility"\ntarget = "self"', "tiles.interactable.target",
     "works on space"),
    ('name = "Dial Shell"', 'name = "Dial Shell"\nitem = "Excalibur"', "tiles.reward.item",
     "unknown item 'Excalibur'"),
    ("coin = 8.0", "coins = 8.0", "greedy.coins", "unknown key"),
    # an assist character is named (cards/assists.toml), never numbered: a number past the last
    # assist once validated and then granted nothing
    ('assist = "Sidekick"', 'assist = "Sidekik"', "tiles.reward.assist",
     "unknown assist character 'Sidekik' (did you mean Sidekick"),
    ('assist = "Sidekick"', "params = { amount = 0 }", "tiles.reward.params.amount",
     'an assist character is named, not numbered: assist = "NAME"'),
    ('assist = "Sidekick"', 'assist = ""', "tiles.reward.assist",
     "an 'assist' effect names its assist character"),
    ('assist = "Sidekick"\n', "", "tiles.reward.effect",
     "an 'assist' effect names its assist character"),
    ('name = "Dial Shell"', 'name = "Dial Shell"\nassist = "Sidekick"', "tiles.reward.assist",
     "only an 'assist' effect names an assist"),
])
def test_tile_function_problems_name_file_line_and_field(tmp_path, old, new, field, words):
    """``bwlab validate``: every mistake in a tile function is one line naming file, line and
    field (docs/tiles.md)."""
    line, problems = _broken(tmp_path, old, new)
    hit = [p for p in problems if f": {field}: " in p and words in p]
    assert hit, problems
    where_ = hit[0].split(":")
    assert where_[0].endswith("tiles.toml") and abs(int(where_[1]) - line) <= 2, (hit, line)


def test_the_shipped_tiles_have_at_least_ten_functions_of_every_effect():
    """Issue #5: "Starter content ... at least 10 tile functions"; every effect of the tile
    vocabulary is used by some tile; the Mystery Machine is a vehicle (cards/vehicles.toml)."""
    from sim.catalogue.tile_functions import FUNCTION_EFFECTS, effect_code
    ops = TILES.fx[:, 0]
    assert (ops != 0).sum() >= 10
    assert {effect_code(e) for e in FUNCTION_EFFECTS} <= set(ops.tolist())
    garage = TILES.find("Mystery Machine Garage")
    assert TILES.fx[2 * garage + 1, 0] == 0 and not (TILES.feature[garage] == INTERACT).any()
