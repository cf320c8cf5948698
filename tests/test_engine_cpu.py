"""CPUs on the GM Turn (sim/engine/rules/cpu.py), tested directly on the lines that enforce each rule.

Book: "Outside of retaliating, CPUs act on the GM Turn, using their speed where they have one";
"an invisible entity cannot be targeted by a direct attack". House ruling (rules.toml [game]
cpu_leash = "tile", docs/rulings.md): a CPU attacks the character with the least health in its
range and line of sight, moving first (within its own tile when leashed) to reach one.
"""

from __future__ import annotations

import numpy as np

from sim.engine.state import fields as L
from sim.engine.rules.cpu import _cpu_act, _cpu_target, _nearest_first
from sim.engine.rules.live_movement import _reach_from
from tests._engine_kit import EXAMPLE_TEAMS, new_game


def _game_and_cpu(mobile: bool):
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)  # characters not placed yet: none in the way
    ent = game.st.ent
    cpus = np.flatnonzero((ent.is_cpu != 0) & (ent.atk[:, 0] > 0)
                          & ((ent.speed > 0) if mobile else True))
    assert cpus.size, "the shipped content has an attacking CPU"
    return game, int(cpus[0])


def _characters(game, k):
    ent = game.st.ent
    return [int(e) for e in np.flatnonzero(ent.kind == L.K_CHARACTER)[:k]]


def _spot_by_a_door(game, c):
    """A space of ``c``'s home tile from which its speed reaches spaces of its own tile and of
    another; (that space, those of its tile, those of others)."""
    st, ent = game.st, game.st.ent
    for here in np.flatnonzero(st.tile_pos == ent.home[c]):
        _reach_from(st, game.S, int(here), int(ent.speed[c]))
        cost = st.decision.reach_cost
        reach = np.flatnonzero((cost > 0) & (cost <= ent.speed[c]))
        home = [int(s) for s in reach if st.tile_pos[s] == ent.home[c]]
        away = [int(s) for s in reach if st.tile_pos[s] >= 0 and st.tile_pos[s] != ent.home[c]]
        if home and away:
            return int(here), home, away
    raise AssertionError("no space of the CPU's tile reaches its own tile and another")


def _leashed_cpu_facing(where: str):
    """A mobile CPU with no range on a space by a door of its home tile, and one character on the
    first space (by id) its speed reaches ``where`` ("home": its own tile; "away": another);
    (game, the CPU, the character, the CPU's space, the character's space)."""
    game, c = _game_and_cpu(True)
    ent = game.st.ent
    ent.range[c] = 0
    here, home, away = _spot_by_a_door(game, c)
    ent.space[c] = here
    (a,) = _characters(game, 1)
    ent.space[a] = (home if where == "home" else away)[0]
    return game, c, a, here, int(ent.space[a])


def test_a_cpu_targets_the_weakest_visible_character_never_an_invisible_one():
    game, c = _game_and_cpu(False)
    ent = game.st.ent
    a, b = _characters(game, 2)
    here = int(ent.space[c])
    ent.space[[a, b]] = here  # both within range 0 of the CPU
    ent.health[a], ent.health[b] = 10, 50
    assert _cpu_target(game.st, game.S, here, 0) == a  # the least health
    ent.invisible[a] = 99 * L.CLOCKS + 1
    assert _cpu_target(game.st, game.S, here, 0) == b  # "cannot be targeted by a direct attack"
    ent.invisible[b] = 99 * L.CLOCKS + 1
    assert _cpu_target(game.st, game.S, here, 0) == -1


def test_a_leashed_cpu_never_leaves_its_tile_to_attack():
    """cpu_leash = "tile": the only character it could reach stands outside its home tile, so
    it stays; unleashed (cpu_leash = "none"), it walks there and attacks."""
    game, c, a, here, there = _leashed_cpu_facing("away")
    st, ent = game.st, game.st.ent
    leash = int(game.S.ip[L.P_LEASH])
    assert leash == 1  # the shipped ruling
    try:
        _cpu_act(st, game.S, c)
        assert ent.space[c] == here and ent.health[a] == ent.max_health[a]
        game.S.ip[L.P_LEASH] = 0
        _cpu_act(st, game.S, c)
        assert ent.space[c] == there
        rows = game.event_rows()
        assert (rows[:, 0] == L.EV_ATTACK).any()
    finally:
        game.S.ip[L.P_LEASH] = leash


def test_a_leashed_cpu_walks_within_its_tile_to_attack():
    """Leashed, a CPU still uses its speed inside its own tile: a character there, out of its
    range but within its speed, is walked to and attacked."""
    game, c, a, here, there = _leashed_cpu_facing("home")
    st, ent = game.st, game.st.ent
    assert game.S.ip[L.P_LEASH] == 1
    _cpu_act(st, game.S, c)
    assert ent.space[c] == there
    assert (game.event_rows()[:, 0] == L.EV_ATTACK).any()


def test_a_cpu_tries_the_spaces_it_can_reach_nearest_first_then_by_id():
    """"first moving up to its speed ... to the nearest space from which it has one": the order
    in which ``_cpu_act`` tries spaces (``_nearest_first``, from the reach search's list) is the
    full scan's, level by level over all 1,225 spaces in id order, from every space of a board
    for every speed, leashed and not (an oracle: the scan the list replaced)."""
    game, c = _game_and_cpu(True)
    st = game.st
    n = st.kind.shape[0]
    checked = 0
    for here in range(0, n, 7):
        if st.tile_pos[here] < 0:
            continue
        home = int(st.tile_pos[here])
        for speed in (1, 2, 3, 5):
            for leash in (False, True):
                spaces, costs = _nearest_first(st, game.S, here, speed, leash, home)
                _reach_from(st, game.S, here, speed)
                cost = st.decision.reach_cost
                want = [(s, level) for level in range(1, speed + 1) for s in range(n)
                        if cost[s] == level and (not leash or st.tile_pos[s] == home)]
                assert list(zip(spaces.tolist(), costs.tolist())) == want
                checked += len(want) > 0
    assert checked > 100  # searches that reached something, leashed and not
