"""Portal-linked tiles (issue #20, item 2), R4:S5: "The two Portal components link the tiles they
sit in. Tile-wide damage and tile-wide attacks therefore affect both tiles entirely — an effect
landing on one tile lands on the whole of the other as well"; "An entity standing on one component
receives every effect that standing on the other component would grant it ... Both spaces apply
in full"."""

from __future__ import annotations

import numpy as np
import pytest

from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.effects.item_effects import _blast
from sim.engine.rules.live_movement import _homefield, _linked_tile
from sim.engine.tiles.fx_table import TF_PRICE
from sim.engine.tiles.live_board import _tile_at
from sim.engine.tiles.paused import _after_action_tiles, _paused, _set_tile_state
from tests._engine_kit import EXAMPLE_TEAMS, new_game, new_game_with
from tests._tiles_kit import end_turn_of, interact, interact_actions, middle


def _off_portal(st, p) -> list[int]:
    """The free floor spaces of tile ``p`` that are not a portal component."""
    taken = set(st.ent.space.tolist())
    return [int(s) for s in np.flatnonzero(st.tile_pos == p)
            if st.kind[s] == FLOOR and st.twin[s] < 0 and s not in taken]


def _floor_off_portal(st, p) -> int:
    return _off_portal(st, p)[0]


def _portal_game(make=None):
    """A game on the first board whose portal links two different tiles, the far one with a floor
    space off the portal (Stargate, 1x1, to Bifrost, 3x3): (game, s, far) with ``s`` a portal
    space and ``far`` its other component. ``make(board)``: the game on a board (default: the
    shipped cards, no log)."""
    for board in range(1, 200):
        game = (make or (lambda b: new_game(b, 3, EXAMPLE_TEAMS.cards, log=False)))(board)
        st = game.st
        for s in np.flatnonzero(st.twin >= 0):
            far = int(st.twin[s])
            p, q = st.tile_pos[s], st.tile_pos[far]
            if q >= 0 and q != p and _off_portal(st, q):
                return game, int(s), far
    pytest.fail("no board with a portal between two tiles of several spaces")


def _two_opponents(st):
    ent = st.ent
    chars = np.flatnonzero((ent.kind == L.K_CHARACTER) & (ent.alive != 0))
    a = int(chars[0])
    b = int(next(e for e in chars if ent.team[e] != ent.team[a]))
    return a, b


def test_tile_wide_damage_lands_on_the_whole_linked_tile():
    game, s, far = _portal_game()
    st, S = game.st, game.S
    p, q = int(st.tile_pos[s]), int(st.tile_pos[far])
    assert _linked_tile(st, p) == q
    user, foe = _two_opponents(st)
    st.ent.space[user] = s  # in tile p (on its component: the far one stands in both)
    st.ent.space[foe] = _floor_off_portal(st, q)  # in the far tile, not on the portal
    st.ent.shield[foe] = 0
    before = int(st.ent.health[foe])
    _blast(st, S, user, s, 7, L.BY_TILE_DAMAGE)
    assert st.ent.health[foe] == before - 7


def test_a_tile_without_a_portal_links_nothing():
    game, s, far = _portal_game()
    st = game.st
    linked = {int(st.tile_pos[x]) for x in np.flatnonzero(st.twin >= 0)}
    lone = next(p for p in range(49) if p not in linked and np.any(st.tile_pos == p))
    assert _linked_tile(st, lone) == -1


def test_homefield_on_a_portal_component_from_the_far_tile():
    """A character on one component has the Homefield Advantage of the far component's tile; off
    the portal in the same tile it does not (suit of tile p, standing in tile q)."""
    game, s, far = _portal_game()
    st, S = game.st, game.S
    p, q = int(st.tile_pos[s]), int(st.tile_pos[far])
    far_suit, own_suit = int(st.tiles.suit[q]), int(st.tiles.suit[p])
    if far_suit < 0 or far_suit == own_suit:
        pytest.skip("the linked tiles share a suit (or the far one has none)")
    c, _ = _two_opponents(st)
    st.ent.suit[c] = own_suit
    st.ent.space[c] = far  # on the far component: its own tile q, plus p through the portal
    assert _homefield(st, S, c)
    st.ent.space[c] = _floor_off_portal(st, q)  # in q off the portal: q's suit only
    assert not _homefield(st, S, c)


def test_the_games_sight_search_matches_the_reference_through_portals():
    """"If a portal component falls within your range, this range carries through the portal":
    the game's search (``live_movement._sight_from``, into the decision's buffers) agrees with
    the plain-Python Dijkstra of sim/board/reference.py from every portal component, for short
    ranges and for ranges whose origin stack outgrows the buffer (fresh rows then; decision.py
    RAYS_RANGE), and one search leaves nothing behind for the next."""
    from types import SimpleNamespace

    from sim.board.reference import ref_attack_costs
    from sim.engine.rules.live_movement import _sight_from
    from sim.engine.state.decision import RAYS_RANGE
    from tests._engine_kit import CATALOGUE

    game, s, far = _portal_game()
    st = game.st
    graph = SimpleNamespace(sight_nbr=np.asarray(st.sight_nbr), sight_flag=np.asarray(st.sight_flag),
                            kind=np.asarray(st.kind), twin=np.asarray(st.twin),
                            tile_pos=np.asarray(st.tile_pos), rules=CATALOGUE.board_rules)
    starts = [int(s), far, _floor_off_portal(st, st.tile_pos[far])]
    checked = 0
    for rng in (1, 3, RAYS_RANGE, 6 * RAYS_RANGE):
        for start in starts:
            got = np.array(_sight_from(st, game.S, start, rng))
            want = ref_attack_costs(graph, start, rng)
            seen = got <= rng
            assert np.array_equal(np.flatnonzero(seen), np.flatnonzero(want >= 0)), (start, rng)
            assert np.array_equal(got[seen], want[want >= 0]), (start, rng)
            checked += int(seen.sum())
    assert checked > 100


def test_kept_sight_searches_answer_as_a_fresh_search_would():
    """Sight depends only on the start and the live board ("if you cannot draw a straight line
    from yourself to them, you cannot attack them"; no entity blocks a line), so the game keeps
    each search per start (``live_movement._sight_from``, state/decision.py ``sight_keys``) and
    answers a later question from that start with a range no wider from the kept list. Over
    every floor space as a start (enough to fill the lists and start new generations), then a
    random order of starts and ranges (repeats, narrower after wider), then again after a
    voided position (a new board revision), every answer agrees with the plain-Python reference
    of the board as it stands (least ranges up to ``6 * RAYS_RANGE``, read up to the range
    asked);
    the kept lists must be hit, and a kept list that outlived the void would fail."""
    from types import SimpleNamespace

    from sim.board.reference import ref_attack_costs
    from sim.engine.rules.live_movement import _sight_from, _void_position
    from sim.engine.state.decision import RAYS_RANGE
    from tests._engine_kit import CATALOGUE

    game, s, far = _portal_game()
    st, decision = game.st, game.st.decision
    rng = np.random.default_rng(7)
    WIDE = 6 * RAYS_RANGE  # wide searches: long lists

    def board():
        g = SimpleNamespace(sight_nbr=np.asarray(st.sight_nbr),
                            sight_flag=np.asarray(st.sight_flag),
                            kind=np.asarray(st.kind), twin=np.asarray(st.twin),
                            tile_pos=np.asarray(st.tile_pos), rules=CATALOGUE.board_rules)
        floor = np.flatnonzero((g.kind == FLOOR) & (g.tile_pos >= 0))
        return {int(x): ref_attack_costs(g, int(x), WIDE) for x in floor}

    def ask(want, start, r):
        keys = np.asarray(decision.sight_keys)[start]
        kept = (keys[0] == decision.sight_gen and keys[1] >= r
                and decision.sight_rev == st.game.board_rev)
        got = np.array(_sight_from(st, game.S, start, r))
        seen, ok = got <= r, (want[start] >= 0) & (want[start] <= r)
        assert np.array_equal(np.flatnonzero(seen), np.flatnonzero(ok)), (start, r)
        assert np.array_equal(got[seen], want[start][ok]), (start, r)
        return int(kept)

    kept, gens = 0, set()
    for rounds in range(2):  # before and after the far portal's position becomes void
        want = board()
        starts = list(want)
        for start in rng.permutation(starts):
            kept += ask(want, int(start), WIDE)
            gens.add(int(decision.sight_gen))
        for _ in range(600):
            start = int(starts[rng.integers(len(starts))])
            kept += ask(want, start, int(rng.choice([1, 2, 3, RAYS_RANGE])))
        _void_position(st, int(st.tile_pos[far]))
    # many questions of the random rounds were answered from a kept list (fewer since lines at
    # any angle inside a tile, stop 70: the wide lists are longer, so the room fills sooner)
    assert kept > 300
    assert len(gens) >= 4  # the lists filled up (or the board changed) at least three times


# ------------------------------------------------------------ the far tile's rewards and states
# R4:S5 "An entity standing on either component is treated as standing on both components at the
# same time"; "Both spaces apply in full, at the same time, to an entity occupying only one of
# them"; R4:S2 "A Tile Reward is a reward a character gets by ending their turn in a tile".

STARGATE_REWARD = (("tiles.toml", 'layout = ["P"]\n',
                    'layout = ["P"]\n[tiles.reward]\nname = "Chevron"\nticks = 2\n'
                    'effect = "extra_action"\nparams = { amount = 1 }\n'
                    'description = "one extra action next turn"\n'),)


def _logged_portal_game(edits=()):
    """:func:`_portal_game` with the log on (on a cards variant when ``edits`` are given)."""
    if edits:
        return _portal_game(lambda b: new_game_with(edits, b, 3, EXAMPLE_TEAMS.cards))
    return _portal_game(lambda b: new_game(b, 3, EXAMPLE_TEAMS.cards))


def _rewards(game):
    return [(ev["entity"], ev["tile"]) for ev in game.named_events("tile reward")]


def test_a_turn_ended_on_a_portal_piece_ticks_in_the_far_tile():
    """On Stargate's piece (no reward) a character ends its turns in Bifrost too (a reward of
    3 ticks): each is a tick there, and the string runs on when it steps into Bifrost itself
    ("several turns in a row, of ending a turn, in the same tile"). The engine before stop 71
    read only the tile of the character's own space: no tick, no reward."""
    game, s, far = _logged_portal_game()
    st, S, ent = game.st, game.S, game.st.ent
    near_tile = _tile_at(st, S, st.tile_pos[s])
    t = int(_tile_at(st, S, st.tile_pos[far]))
    assert S.tile_fx[2 * near_tile, L.FX_OP] == 0 and S.tile_fx[2 * t, L.FX_OP] != 0
    price = int(S.tile_fx[2 * t, TF_PRICE])
    c = game.current
    ent.space[c] = s
    for k in range(1, price):
        end_turn_of(game, c)
        assert (ent.tick_tile[c], ent.ticks[c]) == (t + 1, k)
    assert _rewards(game) == []
    ent.space[c] = _floor_off_portal(st, int(st.tile_pos[far]))  # on into the far tile
    end_turn_of(game, c)
    assert _rewards(game) == [(c, t)] and ent.ticks[c] == 0


def test_a_portal_between_two_reward_tiles_holds_a_string_in_each():
    """Both tiles with a reward (Stargate given one: a cards variant): a turn ended on the piece
    ticks in both, each string on its own (the second string's columns); stepping off into the
    far tile interrupts the near tile's string ("All of a character's ticks in a tile disappear
    at once if they interrupt the string") and keeps the far tile's, which pays."""
    game, s, far = _logged_portal_game(STARGATE_REWARD)
    st, S, ent = game.st, game.S, game.st.ent
    a = int(_tile_at(st, S, st.tile_pos[s]))
    b = int(_tile_at(st, S, st.tile_pos[far]))
    assert int(S.tile_fx[2 * a, TF_PRICE]) == 2 and int(S.tile_fx[2 * b, TF_PRICE]) == 3
    c = game.current
    ent.space[c] = s
    end_turn_of(game, c)
    strings = {(int(ent.tick_tile[c]), int(ent.ticks[c])),
               (int(ent.tick_tile_2nd[c]), int(ent.ticks_2nd[c]))}
    assert strings == {(a + 1, 1), (b + 1, 1)}
    end_turn_of(game, c)  # Stargate's price is 2: its reward, Bifrost's string at 2
    assert _rewards(game) == [(c, a)]
    ent.space[c] = _floor_off_portal(st, int(st.tile_pos[far]))
    end_turn_of(game, c)
    assert _rewards(game) == [(c, a), (c, b)]
    assert {int(ent.tick_tile[c]), int(ent.tick_tile_2nd[c])} == {0, b + 1}
    assert int(ent.ticks[c]) + int(ent.ticks_2nd[c]) == 0


@pytest.mark.parametrize("freeze", [0, 1])
def test_a_tile_state_lands_on_the_linked_tile_as_well(freeze):
    """R4:S5 "an effect landing on one tile lands on the whole of the other as well": freezing
    or deactivating Bifrost freezes or deactivates the Stargate tile linked to it, and an
    entity there is frozen ("Every entity standing in a frozen tile is frozen too")."""
    game, s, far = _portal_game()
    st, S, ent = game.st, game.S, game.st.ent
    p, q = int(st.tile_pos[s]), int(st.tile_pos[far])
    user, foe = _two_opponents(st)
    ent.space[foe] = s
    _set_tile_state(st, S, q, freeze, 1, user)
    assert _paused(st, p) and _paused(st, q)
    assert (ent.frozen[foe] != 0) == (freeze == 1)
    others = [x for x in range(49) if x not in (p, q)]
    assert not any(_paused(st, x) for x in others)


def test_an_entity_on_a_piece_stands_in_the_far_tile_when_it_is_frozen():
    """The far piece's tile frozen alone (as when the near tile arrived by a transform after the
    freeze): the entity on the near piece stands in it ("treated as standing on both
    components"), so it is frozen too."""
    game, s, far = _portal_game()
    st, S, ent = game.st, game.S, game.st.ent
    q = int(st.tile_pos[far])
    user, foe = _two_opponents(st)
    ent.space[foe] = s
    _set_tile_state(st, S, q, 1, 1, user)
    st.tiles.frozen[int(st.tile_pos[s])] = 0  # only the far tile frozen
    ent.frozen[foe] = 0
    _after_action_tiles(st, S)
    assert ent.frozen[foe] == st.tiles.frozen[q] != 0


BIFROST_RUNE = (("tiles.toml", 'description = "an item"\n\n[[tiles]]\nname = "River Styx"',
                 'description = "an item"\n[tiles.interactable]\nname = "Rune"\n'
                 'effect = "tile_state"\nparams = { state = 0, duration = 1, range = 0 }\n'
                 'price = 0\ndescription = "the tile itself: deactivate this tile"\n\n'
                 '[[tiles]]\nname = "River Styx"'),)


def test_an_interactable_of_the_far_tile_is_used_from_the_piece_and_acts_from_its_tile():
    """R4:S2 "Interactables are portions of a tile that can be interacted with by spending an
    action, from within 1 range of the interactable piece ... or the tile itself"; on the piece
    the character stands in the far tile too. Bifrost given an interactable that is the tile
    itself (deactivate a tile within 0 tiles: a cards variant): from Stargate's piece it is
    offered, its one target is Bifrost (counted from the interactable's tile, not the user's),
    and using it deactivates Bifrost and the linked Stargate."""
    game, s, far = _portal_game(lambda b: new_game_with(BIFROST_RUNE, b, 3, EXAMPLE_TEAMS.cards))
    st, ent = game.st, game.st.ent
    p, q = int(st.tile_pos[s]), int(st.tile_pos[far])
    c = game.current
    ent.space[c] = s
    ent.acted[c] = 0
    assert interact_actions(game) == [middle(q)]
    game.apply(interact(game, middle(q)))
    assert ent.acted[c] == 1 and _paused(st, q) and _paused(st, p)
