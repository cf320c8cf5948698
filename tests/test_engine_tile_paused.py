"""Deactivated and frozen tiles: a paused tile gives no ticks and no rewards until the
deactivation is removed, a frozen tile freezes everyone standing in it for as long as it is, and
a transform thaws them. Set up on board 3 (every catalogue tile is in play there), through the
engine's END (``end_turn_of``) and its interactables. Each case quotes its rule (docs/tiles.md)."""

from __future__ import annotations

from sim.engine.state import fields as L
from sim.engine.tiles.paused import _after_action_tiles, _paused, _set_tile_state
from sim.engine.tiles.swap_in_play import _transform
from sim.engine.rules.turn import _begin_turn
from tests._tiles_kit import (TILES, ally_of, end_turn_of, enemy_of, floor_of, game_on, interact,
                              interact_actions, middle, space, where)


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
    # the freezer's team's next turn: the tile and its entities thaw together
    _begin_turn(st, game.S, 0)
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
