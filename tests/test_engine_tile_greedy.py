"""Greedy and the tile functions: its position bonus for banked ticks, staying to redeem, the
Slingshot's launch and buying from the team economy, each set up on board 3 (every catalogue
tile is in play there) and decided by ``_greedy_action`` on the engine's legal mask
(sim/ai/tile_values.py; docs/tiles.md)."""

from __future__ import annotations

import pytest

from sim.ai.greedy import _greedy_action
from sim.ai.tile_values import _pos_bonus
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.tiles.paused import _set_tile_state
from tests._tiles_kit import (SPAN, TILES, floor_of, game_on, interact, interact_actions, space,
                              where)


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
    def homefield(name):
        return home if TILES.suit[TILES.find(name)] == suit else 0
    assert bonus[htc] == pytest.approx(worth * 3 / 3 + homefield("Hyperbolic Time Chamber"))
    assert bonus[rabbit] == pytest.approx(worth / 2 + homefield("Rabbit Hole"))
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
