"""Water-rolls, being Submerged, rolled walls, falls and the revive's second form in play: one
table-driven scenario per rule (a character is put beside the water, a wall, a platform edge or a
ladder of board 1 and acts through the engine interface), plus binomial tests of the roll rates
against the rules' dice with fixed seeds. Each case quotes its rule."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
from scipy import stats

from sim.ai.play import play_game
from sim.board.geometry import APOCALYPSE, local_space
from sim.board.graph import ROLL_FIRE_WALL, ROLL_WATER_WALL, compile_board
from sim.catalogue.tile_layout import DOOR, FLOOR, GAP, LADDER, OPEN, PLATFORM, WALL
from sim.catalogue.variants import draft_tiles
from sim.engine.state import fields as L
from sim.engine.rules.death import _harm, _kill
from sim.engine.log.record import new_game as record_game
from sim.engine.rules.terrain import _landing
from sim.engine.tiles.swap_in_play import _swap, _transform
from sim.engine.rules.water_rolls import _apply_water
from tests._engine_kit import (CATALOGUE, EXAMPLE_TEAMS, TERRAIN_DRAFT, board_shores,
                               catalogue_with, live_shores, new_game, new_game_with, setup_for)

BOARD = 1  # board 1 has bodies of water, water and fire walls, platforms and ladders
RULES = CATALOGUE.board_rules


@contextmanager
def rules_ip(S, **values):
    """Change some integer rules of the (cached, shared) board setup for one test."""
    old = {k: int(S.ip[getattr(L, k)]) for k in values}
    try:
        for k, v in values.items():
            S.ip[getattr(L, k)] = v
        yield
    finally:
        for k, v in old.items():
            S.ip[getattr(L, k)] = v


def water_game(seed=2, edits=()):
    game = (new_game_with(edits, BOARD, seed, EXAMPLE_TEAMS.cards) if edits
            else new_game(BOARD, seed, EXAMPLE_TEAMS.cards))
    c = game.current
    ent = game.st.ent
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not spare rows)
            ent.space[e] = int(game.S.spawn_space[ent.team[e], 0])
    ent.free_water[c] = 0
    return game, c


def beside_water(game):
    """A floor space next to a body of water and another space of that body (from the board
    compiled in Python: sim.board.graph)."""
    g = compile_board(setup_for(BOARD).board, CATALOGUE.tiles, RULES)
    for s in range(g.space_bodies.shape[0]):
        b = g.space_bodies[s, 0]
        if b >= 0 and game.st.kind[s] == FLOOR and game.st.tile_pos[s] >= 0:
            for t in g.body_members[g.body_start[b]:g.body_start[b + 1]]:
                if t != s:
                    return s, int(t)
    raise AssertionError("board 1 has water")


def beside_wall(game, code):
    S = game.S
    for s in range(S.move_roll.shape[0]):
        for d in range(8):
            t = game.st.move_nbr[s, d]
            if t >= 0 and S.move_roll[s, d] == code and game.st.kind[s] == FLOOR:
                return s, int(t)
    raise AssertionError("board 1 has this wall")


def water_action(game, s):
    return game.action("water_roll", s)


def put(game, c, s):
    game.st.ent.space[c] = s
    return game.legal_mask()


def events(game, kind):
    rows = game.event_rows()
    return rows[rows[:, 0] == kind]


def test_a_successful_water_roll_crosses_the_body_for_no_speed():
    """"On a success, you may move into any other space adjacent to that same body of water.
    This movement costs no speed"."""
    game, c = water_game()
    s, t = beside_water(game)
    # the landing spaces offered are exactly the other spaces next to the bodies s touches (and
    # the far side of any wall needing a roll), no other space of the tile
    g = compile_board(setup_for(BOARD).board, CATALOGUE.tiles, RULES)
    shore = {int(x) for b in g.space_bodies[s] if b >= 0
             for x in g.body_members[g.body_start[b]:g.body_start[b + 1]]} - {s}
    walls = {int(x) for d, x in enumerate(game.st.move_nbr[s])
             if x >= 0 and game.st.move_roll[s, d]}
    mask = put(game, c, s)
    offered = {x for x in range(game.st.kind.shape[0]) if mask[water_action(game, x)]}
    assert offered == shore | walls and t in offered
    assert cross(game, c, s, t)["success"] == 1


def cross(game, c, here, to):
    """``c`` on ``here`` rolls across the water to ``to`` with every face a success: it lands
    there, for no speed, not submerged. Returns the roll's event (by field name)."""
    mask = put(game, c, here)
    assert mask[water_action(game, to)]
    speed = int(game.st.ent.speed_left[c])
    with rules_ip(game.S, P_WATER_MIN=1):  # every face succeeds
        game.apply(water_action(game, to))
    ent = game.st.ent
    assert ent.space[c] == to and ent.speed_left[c] == speed and ent.submerged[c] == 0
    return game.named_events("water-roll")[-1]


def test_a_failed_water_roll_submerges_and_only_escape_is_left():
    """"On a failure, the Entity who attempted the roll is Submerged"; "a submerged character
    cannot move, and cannot spend their action on anything except attempting to escape"; "The
    first failed roll ends that streak for the turn"; "Spending that character's action buys them
    a fresh streak"; an escape that succeeds ends it ("remains there until they succeed")."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    with rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water_action(game, t))
    ent = game.st.ent
    assert ent.submerged[c] == 1 and ent.space[c] == s and ent.streak_over[c] == 1
    assert len(events(game, L.EV_SUBMERGED)) == 1
    legal = game.legal_actions()
    wb = water_action(game, 0)
    assert legal[0] == L.END and np.all(legal[1:] >= wb)  # no move, attack, ability or item
    assert ent.acted[c] == 0
    with rules_ip(game.S, P_WATER_MIN=1):
        game.apply(int(legal[1]))  # a fresh streak: it costs the action
    assert ent.acted[c] == 1 and ent.submerged[c] == 0 and ent.streak_over[c] == 0
    assert not game.legal_mask()[game.block("attack").start:wb].any()


def test_no_roll_is_left_once_the_streak_failed_and_the_action_is_spent():
    """"The first failed roll ends that streak for the turn" and the action buys only one fresh
    streak."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.acted[c] = 1
    game.st.ent.streak_over[c] = 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()
    # the same through a failed roll: the action spent, the roll fails, no roll is left
    game.st.ent.streak_over[c] = 0
    assert put(game, c, s)[water_action(game, t)]
    with rules_ip(game.S, P_WATER_MIN=7):  # every face fails
        game.apply(water_action(game, t))
    game.st.game.cur = c
    assert game.st.ent.streak_over[c] == 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()


@pytest.mark.parametrize("board", [0, 1, 2, 3, 4, 5])
def test_the_tile_tables_bodies_of_water_are_the_compiled_boards(board):
    """"On a success, you may move into any other space adjacent to that same body of water":
    with no tile moved, the spaces a crossing may land on, read from the tile at each position
    (water_rolls._shore, fx_table.TF_SHORE), are per space exactly those of the board compiled in
    Python (compile_board's space_bodies and body_members, as sets), before the reveal and on
    the revealed board ("When revealed it is treated as a 1x1 Tile")."""
    game = new_game(board, 1)
    st, S = game.st, game.S
    start = setup_for(board).board
    shores = board_shores(compile_board(start, CATALOGUE.tiles, RULES))
    assert shores, "every generated board has water"
    assert live_shores(st, S) == shores
    revealed = start.copy()
    revealed.tiles[revealed.tiles == APOCALYPSE] = CATALOGUE.tiles.uncovered
    assert (live_shores(st, S, S.tile_pos2[1])
            == board_shores(compile_board(revealed, CATALOGUE.tiles, RULES)))


def swapped_styx(dry="Tokyo Rooftops"):
    """Board 1 with River Styx swapped in play with a dry 5×5 tile: the game, the character
    deciding and the position River Styx stands at now. River Styx's thin water edge runs along
    the whole tile between its rows 1 and 2 (cards/tiles.toml)."""
    game, c = water_game()
    tiles = setup_for(BOARD).board.tiles.ravel()
    p = int(np.flatnonzero(tiles == CATALOGUE.tiles.find("River Styx"))[0])
    q = int(np.flatnonzero(tiles == CATALOGUE.tiles.find(dry))[0])
    _swap(game.st, game.S, p, q, -1)
    assert game.st.tiles.tile[q] == CATALOGUE.tiles.find("River Styx")
    return game, c, q


def test_a_tile_swapped_in_play_brings_its_water():
    """"the two tiles trade positions on the board while keeping their orientation" and "the
    tile and everything in it remain unchanged": beside the water of River Styx, swapped in
    play, a character may roll across it ("you may move into any other space adjacent to that
    same body of water. This movement costs no speed") and lands on the moved tile's far side;
    the position River Styx left (now dry Tokyo Rooftops) offers no crossing."""
    game, c, q = swapped_styx()
    here = local_space(divmod(q, 7), 1, 0, 5)  # above the water edge
    far = local_space(divmod(q, 7), 2, 4, 5)   # below it, at the other end of the body
    roll = cross(game, c, here, far)
    assert roll["from"] == here and roll["to"] == far and roll["success"] == 1
    ent = game.st.ent
    p = int(np.flatnonzero(setup_for(BOARD).board.tiles.ravel()
                           == CATALOGUE.tiles.find("River Styx"))[0])
    ent.streak_over[c] = 0
    mask = put(game, c, local_space(divmod(p, 7), 1, 0, 5))  # Tokyo Rooftops' space there
    assert not mask[water_action(game, 0):].any()


def test_a_submerged_character_escapes_across_moved_water_and_a_transform_frees_it():
    """"A submerged character is stuck in the water and remains there until they succeed on a
    water-roll": in River Styx swapped in play, its escapes lead to the spaces next to the body,
    of the tile where it stands now. House ruling (docs/rulings.md "Water on a moved tile"):
    when its tile is transformed, the water it was stuck in leaves play with the old tile, and
    so it is no longer Submerged."""
    game, c, q = swapped_styx()
    here = local_space(divmod(q, 7), 1, 0, 5)
    put(game, c, here)
    with rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water_action(game, local_space(divmod(q, 7), 2, 0, 5)))
    ent = game.st.ent
    assert ent.submerged[c] == 1 and ent.space[c] == here
    escapes = set(np.flatnonzero(game.legal_mask()[game.block("water_roll")]).tolist())
    assert escapes == {local_space(divmod(q, 7), i, j, 5) for i in (1, 2) for j in range(5)}
    _transform(game.st, game.S, q, CATALOGUE.tiles.find("Hyperbolic Time Chamber"), -1)
    assert ent.submerged[c] == 0 and ent.space[c] == local_space(divmod(q, 7), 0, 0, 1)
    assert not game.legal_mask()[game.block("water_roll")].any()  # the 1×1 tile has no water


@pytest.mark.parametrize("code, damage, submerged", [
    (ROLL_WATER_WALL, 0, 0),   # "Failing that roll simply means you do not cross. It does not submerge you"
    (ROLL_FIRE_WALL, None, 0),  # "If that water-roll fails, the character takes 50 damage. It does not submerge them"
])
def test_a_failed_wall_roll(code, damage, submerged):
    game, c = water_game()
    s, t = beside_wall(game, code)
    put(game, c, s)
    health = int(game.st.ent.health[c])
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    ent = game.st.ent
    lost = RULES.fire_wall_damage if damage is None else damage
    assert ent.space[c] == s and ent.submerged[c] == submerged
    assert health - ent.health[c] == min(lost, health)


def test_a_wall_crossed_costs_a_step():
    """A rolled wall is crossed by a step ("can be passed with a water-roll"): one move of speed."""
    game, c = water_game()
    s, t = beside_wall(game, ROLL_WATER_WALL)
    put(game, c, s)
    speed = int(game.st.ent.speed_left[c])
    with rules_ip(game.S, P_WATER_MIN=1):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.st.ent.speed_left[c] == speed - RULES.move_cost


def test_free_water_always_succeeds_without_rolling():
    """"Freely Cross Water ... All attempted Water Rolls are an Automatic Success" (mobility with
    free_water; the log shows no face)."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.free_water[c] = 1
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.named_events("water-roll")[-1]["face"] == 0


def test_a_streak_of_automatic_successes_ends_at_the_house_cap():
    """House ruling (rules.toml ``water_streak_max``) completing "Each Entity may roll for water
    freely, as many times as they like, until they fail": with "Freely Cross Water" no roll fails,
    so the streak ends after ``water_streak_max`` crossings; one more buys a fresh streak with the
    action, after which no roll is left once that streak ends too (a turn always ends)."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    ent = game.st.ent
    ent.free_water[c] = 1
    cap = RULES.water_streak_max
    assert game.S.ip[L.P_WATER_STREAK] == cap
    here, there = s, t
    for k in range(cap):
        assert ent.streak_over[c] == 0 and ent.acted[c] == 0
        assert game.legal_mask()[water_action(game, there)]
        game.apply(water_action(game, there))
        here, there = there, here
    assert ent.streak_over[c] == 1 and ent.acted[c] == 0 and ent.space[c] == here
    game.apply(water_action(game, there))  # the fresh streak costs the action
    assert ent.acted[c] == 1 and ent.streak_rolls[c] == 1
    for k in range(cap - 1):
        here, there = there, here
        game.apply(water_action(game, there))
    assert ent.streak_over[c] == 1
    assert not game.legal_mask()[game.block("water_roll").start:game.block("hand_over").start].any()


def test_a_submerged_character_remains_a_target():
    """"They remain a target. A submerged character can be attacked like anyone else"."""
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    game.st.ent.submerged[c] = 1
    foe = int(np.flatnonzero((game.st.ent.team == 1) & (game.st.ent.kind == L.K_CHARACTER))[0])
    game.st.game.cur = foe
    game.st.ent.space[foe] = s
    game.st.ent.acted[foe] = 0
    assert game.legal_mask()[game.action("attack", c)]


def test_water_rolls_succeed_at_the_rules_rate():
    """"1 to 3 is a fail and 4 to 6 is a success": over 400 rolls from one game's stream (fixed
    seed), the success count fits Binomial(n, 1/2) (two-sided exact test, alpha 0.001).

    Power against the success range off by one (5-6 or 3-6: p = 1/3 or 2/3, the mutant of
    ``face >= water_success_min``): the test passes only for a count in [167, 233] (scipy's
    binomtest); P(Binom(400, 1/3) <= 166) = 0.99973, the same for 2/3 by symmetry."""
    p = (RULES.water_die - RULES.water_success_min + 1) / RULES.water_die
    wins = 0
    n = 400
    game, c = water_game()
    s, t = beside_water(game)
    for k in range(n):
        game.st.ent.space[c] = s
        game.st.ent.submerged[c] = 0
        game.st.ent.streak_over[c] = 0
        game.st.ent.acted[c] = 0
        game.st.game.cur = c
        game.legal_mask()
        game.apply(water_action(game, t))
        wins += int(game.st.ent.space[c] == t)
        game.st.game.over = 0
        game.st.game.cur = c
    assert stats.binomtest(wins, n, p).pvalue > 1e-3


@pytest.mark.parametrize("col, exact", [
    (L.BUFF, lambda p: 1 - (1 - p) ** 2),  # advantage: either of two rolls
    (L.DEBUFF, lambda p: p * p),           # disadvantage: both of two rolls
])
def test_water_rolls_honour_advantage_and_disadvantage(col, exact):
    """"Advantage allows an entity to perform any random act twice, and choose the preferable
    outcome"; "Disadvantage forces an entity to perform any random act twice, and the GM chooses
    the less preferable outcome". A water-roll ("a D-6 roll where 1 to 3 is a fail and 4 to 6 is
    a success") is a random act: 20,000 rolls of the engine (``water_rolls._apply_water``, one game's
    stream, fixed seed) succeed at the exact 1 - (1 - 1/2)^2 = 0.75 with advantage, 1/4 with
    disadvantage: two-sided exact binomial test, alpha 0.001 (the rate of a roll without
    advantage, 1/2, is rejected by far).

    Power against advantage ignored (1/2 instead of 3/4 or 1/4) or turned round (1/4 instead
    of 3/4): 20,000 rolls, the rates 0.25-0.5 apart are 80-160 standard errors (0.0031) away:
    power 1.0 (to double precision)."""
    p = exact((RULES.water_die - RULES.water_success_min + 1) / RULES.water_die)
    game, c = water_game(seed=20)
    s, t = beside_water(game)
    st, S, ent = game.st, game.S, game.st.ent
    ent.raw[c, col] = 99 * L.CLOCKS + 1  # a buff / de-buff of advantage (stat code 4) that lasts
    ent.raw[c, col + L.TIMED_STAT] = L.STAT_ADVANTAGE
    n, wins = 20_000, 0
    for _ in range(n):
        ent.space[c] = s
        ent.submerged[c] = ent.streak_over[c] = ent.acted[c] = 0
        _apply_water(st, S, c, t)
        wins += int(ent.space[c] == t)
    assert stats.binomtest(wins, n, p).pvalue > 1e-3
    assert abs(wins / n - p) < 0.02


def test_a_streak_of_rolled_successes_goes_on_until_it_fails():
    """"Each Entity may roll for water freely, as many times as they like, until they fail. The
    first failed roll ends that streak for the turn": the house cap (``water_streak_max``) ends
    only streaks of automatic successes (``water_streak_counts = "automatic"``), so rolled
    successes go on past it for free; under the alternative ``"all"`` they end at the cap."""
    assert RULES.water_streak_counts == "automatic"
    game, c = water_game()
    s, t = beside_water(game)
    put(game, c, s)
    ent = game.st.ent
    cap = RULES.water_streak_max
    here, there = s, t
    with rules_ip(game.S, P_WATER_MIN=1):  # every face a success, but rolled (not automatic)
        for _ in range(cap + 3):
            assert game.legal_mask()[water_action(game, there)]
            game.apply(water_action(game, there))
            assert ent.space[c] == there and ent.acted[c] == 0
            here, there = there, here
        assert ent.streak_over[c] == 0
    game, c = water_game()
    put(game, c, s)
    ent = game.st.ent
    here, there = s, t
    with rules_ip(game.S, P_WATER_MIN=1, P_STREAK_ALL=1):
        for _ in range(cap):
            game.apply(water_action(game, there))
            here, there = there, here
        assert ent.streak_over[c] == 1 and ent.acted[c] == 0


@pytest.mark.parametrize("feature", [PLATFORM, LADDER])
def test_damage_on_a_platform_edge_or_ladder_may_make_a_fall_in_the_terrain_draft(feature):
    """Terrain draft (opt-in: ``rules.toml [variants] terrain_draft = true``): "Whenever damage
    is allocated to a fighter that is within ½" of the edge of a platform or climbing a ladder,
    the controlling player must roll a die: On a 1: The fighter falls" — a fall lands on ground
    and deals the house ``falling_damage``; the rate over 600 hits fits Binomial(n, 1/6) (exact
    test, alpha 0.001).

    Power against the falling face off by one (never: p = 0; on a 1 or 2: p = 1/3): the test
    passes only for a count in [71, 130] (scipy's binomtest); no fall fails surely (power 1.0),
    and P(71 <= Binom(600, 1/3) <= 130) = 2.2e-10 (power 1 - 2.2e-10)."""
    game, c = water_game(edits=TERRAIN_DRAFT)
    draft = catalogue_with(TERRAIN_DRAFT).board_rules
    assert draft.terrain_draft
    st = game.st
    spaces = [s for s in range(st.kind.shape[0]) if st.feature[s] == feature
              and st.tile_pos[s] >= 0 and _landing(st, s) >= 0]
    assert spaces, "board 1 has this terrain"
    s = spaces[0]
    land = _landing(st, s)
    assert st.feature[land] not in (PLATFORM, LADDER)
    falls = 0
    n = 600
    for _ in range(n):
        st.ent.space[c] = s
        st.ent.health[c] = st.ent.max_health[c] = 10_000
        _harm(st, game.S, c, 1, -1, L.BY_ATTACK)
        if st.ent.space[c] == land:
            falls += 1
            assert st.ent.health[c] == 10_000 - 1 - draft.falling_damage
        else:
            assert st.ent.space[c] == s and st.ent.health[c] == 10_000 - 1
    p = draft.falling_max_face / draft.falling_die
    assert stats.binomtest(falls, n, p).pvalue > 1e-3
    assert len(events(game, L.EV_FALL)) == falls


def test_no_fall_on_any_default_tile():
    """The book has no falls, ladders, platforms, obscuring gaps or doors: they come from the
    separate terrain draft (``../shared/seeds/002_1f05986a99912579.txt``), an opt-in variant off
    by default (``[variants] terrain_draft = false``). By default no shipped tile keeps one, and
    damage on every space where the draft would make a fall (board 1's platform edges and
    ladders) moves nobody and logs no fall."""
    tiles = CATALOGUE.tiles
    assert not np.isin(tiles.feature, (PLATFORM, LADDER)).any()
    assert not np.isin(tiles.edge_e, (GAP, DOOR)).any() and not np.isin(tiles.edge_s, (GAP, DOOR)).any()
    assert not RULES.terrain_draft
    drafted, _ = water_game(edits=TERRAIN_DRAFT)
    risky = [s for s in range(drafted.st.kind.shape[0]) if _landing(drafted.st, s) >= 0]
    assert risky, "board 1 has platforms and ladders in the draft"
    game, c = water_game()
    st = game.st
    for s in risky:
        for _ in range(30):
            st.ent.space[c] = s
            st.ent.health[c] = st.ent.max_health[c] = 10_000
            _harm(st, game.S, c, 1, -1, L.BY_ATTACK)
            assert st.ent.space[c] == s
    assert len(events(game, L.EV_FALL)) == 0


def test_the_first_example_game_with_a_fall_in_the_terrain_draft_has_none_in_the_book():
    """The issue #20 audit: ``bwlab play --teams experiments/teams/example.toml --seed 8`` (greedy)
    had "Ink Samurai dies (fall)" on a shipped tile. By default (the book) the game has no fall;
    with the terrain draft switched on it falls as before. The seed is found, not written down
    (seed 8 while the tiles were in tiles.toml's order, 14 in name order before a team's
    members were): the first example game with a fall in the draft has none in the book."""
    def falls(catalogue, seed):
        game = record_game(catalogue, EXAMPLE_TEAMS.cards, seed)
        play_game(game, [L.GREEDY] * 4)
        return len(events(game, L.EV_FALL))

    draft = catalogue_with(TERRAIN_DRAFT)
    seed = next((s for s in range(1, 61) if falls(draft, s) > 0), None)
    assert seed is not None, "no example game of seeds 1-60 falls in the terrain draft"
    assert falls(CATALOGUE, seed) == 0


def test_the_terrain_draft_switch_changes_only_the_draft_tiles():
    """Off (the book), an obscuring gap is a tile wall ("They obstruct movement but allow attacks
    through"), a door an open edge, a ladder or platform plain floor; on, the five shipped tiles
    that draw draft terrain keep it as drawn (sight-blocking gaps: Library of Babel; platforms and
    ladders: Sky Island, Tokyo Rooftops, Colosseum, Concert Stage); every other tile is the same."""
    book, draft = CATALOGUE.tiles, catalogue_with(TERRAIN_DRAFT).tiles
    assert draft_tiles(book) == []
    assert sorted(draft_tiles(draft)) == sorted(["Sky Island", "Tokyo Rooftops", "Library of Babel",
                                                 "Colosseum", "Concert Stage"])
    gaps = 0
    for k, name in enumerate(draft.names):
        for edges in ("edge_e", "edge_s"):  # vertical and horizontal edges alike
            d, b = getattr(draft, edges)[k], getattr(book, edges)[k]
            gap = d == GAP
            gaps += int(gap.sum())
            assert np.array_equal(b[gap], np.full(gap.sum(), WALL)), name
            assert np.array_equal(b[d == DOOR], np.full((d == DOOR).sum(), OPEN)), name
            same = ~np.isin(d, (GAP, DOOR))
            assert np.array_equal(b[same], d[same]), name
        assert np.array_equal(book.space[k], draft.space[k]), name
    assert gaps > 0  # the check above has gaps to read


def test_ground_is_safe():
    """Only a platform edge or a ladder makes a fall: damage on plain floor never moves anyone."""
    game, c = water_game()
    st = game.st
    s = int(game.S.spawn_space[0, 0])
    assert st.feature[s] not in (PLATFORM, LADDER)
    for _ in range(50):
        _harm(st, game.S, c, 1, -1, L.BY_ATTACK)
    assert st.ent.space[c] == s and len(events(game, L.EV_FALL)) == 0


def test_revive_offers_the_spot_or_the_spawn():
    """"The player may choose whether the revive occurs at the point of occurrence, or back in
    the team's Spawn": both forms are legal when the spots differ, and the second form revives
    in the Spawn."""
    game, c = water_game()
    st, ent = game.st, game.st.ent
    code = CATALOGUE.abilities.code("revive")
    kind = CATALOGUE.abilities.types[code]
    row = CATALOGUE.abilities.row(code, list(kind.defaults))
    ent.ab[c, :len(row)] = row
    ent.charges_left[c] = ent.ab_charges[c]
    ally = int(next(e for e in range(ent.shape[0]) if ent.team[e] == 0 and e != c))
    s, _ = beside_water(game)
    ent.space[ally] = s
    _kill(st, game.S, ally, -1, L.BY_ATTACK)
    mask = game.legal_mask()
    first, second = game.action("ability", ally), game.action("revive_in_spawn", ally)
    assert mask[first] and mask[second]
    game.apply(second)
    assert ent.alive[ally] == 1 and ent.space[ally] == game.S.spawn_space[0, 0]


def test_boots_with_free_water_cross_without_rolling():
    """"Some Items ... allow you to 'Freely Cross Water'": held, active boots with free_water make
    the roll an automatic success (no face rolled)."""
    from sim.engine.items.holding import _end_turn_items, _grant_item
    game, c = water_game()
    items = CATALOGUE.items
    flagged = [i for i in range(len(items.names))
               if game.S.item_fx[i, L.FX_FLAG] != 0 and items.types[items.type[i]].name == "boots"]
    assert flagged, "the starter items include boots that freely cross water"
    assert _grant_item(game.st, game.S, c, flagged[0])
    _end_turn_items(game.st, game.S, c)  # "A character must End their Turn with an Item"
    s, t = beside_water(game)
    put(game, c, s)
    with rules_ip(game.S, P_WATER_MIN=99):
        game.apply(water_action(game, t))
    assert game.st.ent.space[c] == t
    assert game.named_events("water-roll")[-1]["face"] == 0
