"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt) in the areas of the
third audit (movement between tiles, minions and items), pinned through the engine. Line numbers
are the book's."""

from __future__ import annotations

import numpy as np

from sim.board.geometry import SPAN
from sim.engine.items.holding import _grant_item, _pool, _put_on_floor
from sim.engine.rules.live_movement import _reach_from
from tests._entities_kit import CATALOGUE, decide, start, summon_minions


def _middle(R: int, C: int) -> int:
    """The middle space of grid position (R, C) (a 1×1 tile's only space)."""
    return (R * 5 + 2) * SPAN + C * 5 + 2


def test_a_minion_picks_up_only_into_a_free_slot_of_its_creators_pool():
    """l.198-200: "when a minion picks up an item, that item is added to the creator's item pool";
    "A minion cannot pick up an item at all if there is no slot available for it" (l.327: "A
    character can only hold up to 2 items at a time"). With the creator's two slots taken, an
    item at the minion's feet is not offered; with one slot free it is, and lands in the
    creator's pool."""
    game = start()
    st, ent, S = game.st, game.st.ent, game.S
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    pool = _pool(ent, q)
    names = CATALOGUE.items.names
    assert _grant_item(st, S, q, names.index("Iron Sword"))
    assert _grant_item(st, S, q, names.index("Spyglass"))
    _put_on_floor(st, names.index("Antidote"), int(ent.space[minion]))
    decide(game, minion)
    kinds = {game.decode(a).kind for a in np.flatnonzero(game.legal_mask())}
    assert "pick_up" not in kinds
    ent.item_slot[pool, 1] = 0  # one slot free (the Spyglass gone; no stat was on: never active)
    ent.item_on[pool, 1] = 0
    game.apply(game.action("pick_up", 0))
    assert sorted(names[i - 1] for i in ent.item_slot[pool] if i > 0) == ["Antidote", "Iron Sword"]
    assert int(st.game.floor_n) == 0


def test_walking_between_single_space_tiles_costs_one_speed_per_space_and_never_diagonal():
    """l.87 "It costs 1 speed to move onto an adjacent space. Speed is always spent per space,
    never per tile"; l.91 "a single-space tile costs 1 speed to enter like any other space";
    l.93-94 "you cannot travel between two tiles diagonally". In play, from Team 1's middle
    Spawn tile (a 1×1 Uncovered Tile at (6, 3)): the neighbouring Spawn tiles (6, 2) and (6, 4)
    cost exactly 1 speed; no space of the diagonal positions (5, 2) and (5, 4) is reached for 1."""
    game = start(crowd=False)
    st, S = game.st, game.S
    here = _middle(6, 3)
    assert int(np.sum(np.asarray(st.tile_pos) == st.tile_pos[here])) == 1  # a 1×1 tile
    _reach_from(st, S, here, 1)
    cost = st.decision.reach_cost
    assert cost[_middle(6, 2)] == 1 and cost[_middle(6, 4)] == 1
    for R, C in ((5, 2), (5, 4)):
        spaces = np.flatnonzero(np.asarray(st.tile_pos) == R * 7 + C)
        assert spaces.size and all(cost[s] < 0 for s in spaces), (R, C)
    _reach_from(st, S, here, 2)  # two steps: the neighbour first, never a diagonal shortcut
    cost = st.decision.reach_cost
    assert cost[_middle(6, 2)] == 1 and cost[here] == 0
