"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt), lines 1-180 (the board
and setup, the turn, movement, range and line of sight, the attack star and the dice), pinned
through the engine and in played games, in the areas the first three audits did not probe. Line
numbers are the book's."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sim.ai.play import _choose, seen_by
from sim.board.graph import MAX_BODIES
from sim.board.movement import _reach
from sim.board.sight import SightRules, _rays, stack_cap
from sim.combat.star import BASE, GREEN
from sim.engine.rules.attack import _attack_star
from sim.engine.rules.legal import _legal
from sim.engine.rules.live_movement import _homefield, _reach_from
from sim.engine.rules.turn import _apply
from sim.engine.state import fields as L
from tests import _tiles_kit as tiles
from tests._engine_kit import CATALOGUE, new_game

SPAN = 35


# ---------------------------------------------------------------------------- departures found


def test_within_one_tile_any_straight_line_is_line_of_sight():
    """l.116: "Line of sight is simply a straight line being drawn. It is achieved whenever that
    line can be drawn from one point to the other. Within a single tile that line may be
    diagonal"; l.112 "if you cannot draw a straight line from yourself to them, you cannot attack
    them". Inside the Colosseum (a 5×5 tile with no wall and no water), a character of range 3 in
    the corner space (0, 0) attacks an enemy on (0, 2) (control: a straight row) and one on
    (1, 2): a straight line joins the two spaces inside the one tile, 2 range away. Before stop
    70 (the house ruling "eight compass rays") it could not: in 60 greedy games, 2,116 of
    26,602 decisions with the action unspent had such an opponent in the attacker's own tile
    within its range; 576 times the character ended its turn with no attack offered at all."""
    game, c = tiles.game_on()
    st, ent = game.st, game.st.ent
    d = tiles.enemy_of(game, c)
    ent.space[c] = tiles.space("Colosseum", 0, 0)
    ent.range[c] = 3
    ent.acted[c] = 0
    ent.space[d] = tiles.space("Colosseum", 0, 2)  # control: the same row
    assert game.action("attack", d) in game.legal_actions()
    ent.space[d] = tiles.space("Colosseum", 1, 2)
    assert st.tile_pos[ent.space[d]] == st.tile_pos[ent.space[c]]  # one tile
    assert game.action("attack", d) in game.legal_actions()


# ------------------------------------------------------------------ rules the engine gets right


def test_an_uncovered_tile_grants_no_homefield_to_any_suit():
    """l.15: "An Uncovered Tile is a blank 1×1 tile with no effects. It has no suit, no function
    and no reward, and it grants no Homefield Advantage to anybody." A character of each of the
    12 suits on an Uncovered Tile (one of its team's Spawn tiles too) holds no homefield, and
    attacks an enemy on an Uncovered Tile with its base point (unhurt, no state)."""
    game, c = tiles.game_on()
    st, ent = game.st, game.st.ent
    d = tiles.enemy_of(game, c)
    spots = (tiles.middle(tiles.uncovered_at()), int(game.S.spawn_space[0, 1]))
    for s in spots:
        assert st.tiles.suit[st.tile_pos[s]] < 0
    ent.space[d] = spots[0]
    ent.suit[d] = 0
    for suit in range(len(CATALOGUE.rules.suits)):
        for s in spots:
            ent.space[c] = s
            ent.suit[c] = suit
            ent.health[c] = ent.max_health[c]
            ent.buff[c] = ent.debuff[c] = 0
            assert not _homefield(st, game.S, c), (suit, s)
            assert _attack_star(st, game.S, c, d) == BASE, (suit, s)


def test_homefield_goes_away_the_moment_its_holder_leaves_the_tile():
    """l.146: "When a character's suit matches the suit of the tile they are in, they gain the
    Homefield Advantage Buff for as long as they remain in that tile. It goes away the moment
    they leave"; l.152 "If only the attacker holds it, they attack with green". A Sports
    character in the Colosseum (Sports) would attack green; it steps out into the next tile
    (one move, through the engine) and attacks an enemy standing there: the attack is thrown
    with its base point, in the same turn."""
    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    d = tiles.enemy_of(game, c)
    sports = CATALOGUE.rules.suits.index("Sports")
    arena = tiles.where("Colosseum")
    ent.suit[c] = sports
    ent.health[c] = ent.max_health[c]
    ent.buff[c] = ent.debuff[c] = 0
    ent.acted[c] = 0
    ent.speed_left[c] = max(int(ent.speed[c]), 1)
    ent.space[c] = tiles.space("Colosseum", 2, 0)  # the west doorway space
    _reach_from(st, S, int(ent.space[c]), 1)
    cost = st.decision.reach_cost
    out = next(int(s) for s in np.flatnonzero(np.asarray(cost) == 1)
               if st.tile_pos[s] >= 0 and st.tile_pos[s] != arena
               and st.tiles.suit[st.tile_pos[s]] != sports)
    ent.space[d] = out
    ent.suit[d] = next(k for k in range(12) if k != st.tiles.suit[st.tile_pos[out]])
    assert _homefield(st, S, c) and not _homefield(st, S, d)
    assert _attack_star(st, S, c, d) == GREEN
    since = int(st.game.nev)
    game.apply(game.action("move", out))
    assert ent.space[c] == out and not _homefield(st, S, c)
    game.apply(game.action("attack", d))
    (attack,) = game.named_events("attack", since=since)
    assert attack["attacker"] == c and attack["colour"] == BASE


# ------------------------------------------------- played games, checked against the book


def _fresh_sight(st, S, start, max_range, twin):
    """The least range per space from ``start`` by a fresh ray search on the live board (none
    of the game's kept searches), through the portal links ``twin``."""
    ip = S.ip
    rules = SightRules(max_range, ip[L.P_RANGE_COST], ip[L.P_DIAG_COST], ip[L.P_TILE_PEN],
                       ip[L.P_PER_BOUNDARY], ip[L.P_WATER_PEN], ip[L.P_PER_WATER],
                       ip[L.P_PORTAL_BOUNDARY], ip[L.P_DOOR_RANGE], ip[L.P_SIGHT_LINES],
                       stack_cap(max_range, ip[L.P_N_PIECES]))
    return _rays(st.sight_nbr, st.sight_flag, st.kind, twin, st.tile_pos, start, rules)


def _fresh_reach(st, S, start, speed):
    """The speed per space from ``start`` (dry moves) by the board kernel, on the live board."""
    n = st.kind.shape[0]
    cost = np.full(n, -1, np.int64)
    _reach(st.move_nbr, st.move_roll, st.twin, np.empty((0, MAX_BODIES), np.int32),
           np.zeros(1, np.int32), np.empty(0, np.int32), start, speed, 0,
           S.ip[L.P_MOVE_COST], cost, np.empty(n, np.int32))
    return cost


def _book_homefield(st, e):
    """l.146 "When a character's suit matches the suit of the tile they are in" (a portal
    component's far tile too, R4:S5), read from the live tiles, not from the engine."""
    ent = st.ent
    s, suit = int(ent.space[e]), int(ent.suit[e])
    if s < 0 or suit < 0:
        return False
    tiles_here = [int(st.tile_pos[s])]
    if st.twin[s] >= 0:
        tiles_here.append(int(st.tile_pos[st.twin[s]]))
    return any(p >= 0 and st.tiles.suit[p] == suit for p in tiles_here)


def _book_colour(st, a, d):
    """l.134-152: "Base is the default. Red is used at 50 percent health or lower. Blue is used
    while de-buffed. Green is used while under a positive effect"; "From lowest to highest the
    order is base, red, blue, green"; homefield: attacker alone green, defender alone blue
    (green still wins), both cancel (the attacker's own colour: docs/rulings.md)."""
    ent = st.ent
    if ent.is_cpu[a]:
        return BASE
    own = BASE
    if 2 * ent.health[a] <= ent.max_health[a]:
        own = 1
    if ent.debuff[a] != 0:
        own = 2
    if ent.buff[a] != 0:
        own = GREEN
    mine, theirs = _book_homefield(st, a), _book_homefield(st, d)
    if mine and not theirs:
        return GREEN
    if theirs and not mine:
        return max(own, 2)
    return own


@lru_cache(maxsize=1)
def _played():
    """Eight games (four greedy, four of random against greedy), every decision checked before
    and after it is applied; the tallies of what was checked and what broke a rule."""
    tally = {k: 0 for k in ("moves", "move cost", "overspent", "attacks", "out of range",
                            "colour", "threshold", "between tiles", "diagonal between tiles")}
    for i in range(8):
        game = new_game(3 + 5 * i, 40 + i)
        st, S = game.st, game.S
        policies = [1, 1, 1, 1] if i % 2 == 0 else [0, 1, 0, 1]
        no_portals = np.full_like(np.asarray(st.twin), -1)
        mask = np.zeros(game.n_actions, np.bool_)
        used = {}  # (character, its team's turn) -> speed spent, speed stat at most
        while not game.terminal:
            c = game.current
            ent = st.ent
            count = _legal(st, S, mask)
            a = int(_choose(st, seen_by(S), mask, count,
                            np.int64(policies[ent.team[c]]), np.int64(0)))
            act = game.decode(a)
            here = int(ent.space[c])
            key = (c, int(st.game.turns[ent.team[c]]))
            if act.kind == "move" and here >= 0 and ent.riding[c] == 0:
                tally["moves"] += 1
                charged = int(st.decision.reach_cost[act.target])
                true = int(_fresh_reach(st, S, here, int(ent.speed_left[c]))[act.target])
                tally["move cost"] += charged != true
                spent, most = used.get(key, (0, 0))
                used[key] = (spent + charged, max(most, int(ent.speed[c])))
                tally["overspent"] += used[key][0] > used[key][1]
            expect = None
            if act.kind == "attack":
                d = act.target
                tally["attacks"] += 1
                there = int(ent.space[d])
                rng = int(ent.range[c])
                tally["out of range"] += int(_fresh_sight(st, S, here, rng, st.twin)[there]) > rng
                if st.tile_pos[here] != st.tile_pos[there] and \
                        _fresh_sight(st, S, here, rng, no_portals)[there] <= rng:
                    tally["between tiles"] += 1  # a direct line (no portal) into another tile
                    (r0, c0), (r1, c1) = divmod(here, SPAN), divmod(there, SPAN)
                    tally["diagonal between tiles"] += r0 != r1 and c0 != c1
                expect = (_book_colour(st, c, d), min(max(int(ent.defense[d]), 0), 9) + 2)
                since = int(st.game.nev)
            _apply(st, S, a)
            if expect is not None:
                (ev,) = [e for e in game.named_events("attack", since=since)
                         if e["attacker"] == c][:1]
                tally["colour"] += ev["colour"] != expect[0]
                tally["threshold"] += ev["threshold"] != expect[1]
    return tally


def test_in_played_games_speed_is_spent_per_space_up_to_the_stat():
    """l.87: "It costs 1 speed to move onto an adjacent space. Speed is always spent per space,
    never per tile"; l.96 "Each turn, each character can only use as much speed as their stat
    shows". In eight played games, each move is charged exactly the least speed a fresh search
    of the live board finds (the engine reuses its kept searches: docs/performance.md), and no
    character spends more in one turn than its speed stat."""
    tally = _played()
    assert tally["moves"] > 500
    assert tally["move cost"] == 0 and tally["overspent"] == 0, tally


def test_in_played_games_every_attack_is_within_range_and_sight():
    """l.156: "To initiate an attack, the defender must be within both the range and the line of
    sight of the attacker"; l.118 "There is no diagonal line of sight between two tiles". Every
    attack of eight played games reaches its defender by a fresh search of the live board within
    the attacker's range, and every one made along a direct line into another tile (no portal)
    shares a row or a column of spaces with its defender."""
    tally = _played()
    assert tally["attacks"] > 300 and tally["between tiles"] > 20
    assert tally["out of range"] == 0 and tally["diagonal between tiles"] == 0, tally


def test_in_played_games_the_star_point_and_the_defense_threshold_are_the_books():
    """l.132: "Which point of the star applies depends on the circumstances the attacking
    character is in at that moment"; l.134-152 (colours, priority, homefield of each side from
    its own tile); l.164 "If the roll is more than your defense stat plus 2, that attack is
    considered a Hit" with l.154 "The maximum defense a character can achieve is 9". Every
    attack of eight played games is thrown with the colour these sentences give, worked out
    here from the state before the attack, and against the threshold min(defense, 9) + 2."""
    tally = _played()
    assert tally["colour"] == 0 and tally["threshold"] == 0, tally
