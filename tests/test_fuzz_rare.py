"""Fuzzing the book's own game (cards/ as shipped, no rules edits) where play rarely goes: tile
swaps and transforms with entities, items, vehicles, minions, frozen tiles and portals in them;
destroyed coordinates; revives; tile-wide damage; walking through portals.

The fuzzing (stop 73, scratch script not kept): 840 games on the 97 boards 0-96 (random, greedy,
mixed seats and a "rare-first" random player that picks an attack, ability, item, interactable,
water-roll or vehicle action whenever one is legal; the three Apocalypses; items seeded in half),
1,143,754 decisions, each checked by ``play_checked``'s invariants and by watchers of: swaps and
transforms (1,736 swaps, 809 of them covers, 719 transforms: entities, items and portal links
where the book puts them, the live board equal to a freshly compiled board), destroyed
coordinates (17,904), revives (1,374), blasts and the flood (3,227), move costs (79,156), the
attack star's colour (91,304), threshold and dice, legal targets (no dead, own-team, invisible
or out-of-range target), invisibility, freezes, retaliation, water-roll streaks, vehicles,
minions, clones, summons, items, paused tiles, the reveal's extra turn, stalemate and cap
endings. One departure, in the log and not in the rules of play, was pinned below as a strict
xfail (failing at its assertion) and is fixed (stop 73); the rest are the watchers made small,
over a few games each (a failure names the rule broken), each asserting that what it watches
happened, so none passes on a game that never reached it.
"""

from __future__ import annotations

import numpy as np
import pytest

import tests._engine_kit as K
from sim.ai.play import step
from sim.board.geometry import VOID, APOCALYPSE, Board
from sim.board.graph import compile_board
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.tiles.fx_table import TF_SIZE
from sim.engine.tiles.live_board import _spawn_now

BLOCK, SPAN = 5, 35


class Setup(RuntimeError):
    """The games did not reach what the test watches (not the failure the test checks)."""


def _pos(s: int) -> int:
    return ((s // SPAN) // BLOCK) * 7 + (s % SPAN) // BLOCK


def _block(p: int) -> list[int]:
    r0, c0 = (p // 7) * BLOCK, (p % 7) * BLOCK
    return [(r0 + i) * SPAN + c0 + j for i in range(BLOCK) for j in range(BLOCK)]


def _settled(st, p: int, s: int) -> list[int]:
    """Where a content bound for space ``s`` of position ``p`` may end: ``s`` itself when it is
    floor, else a floor space of the tile (docs/rulings.md "What travels with a swapped tile": "A
    consolidated content landing on a space that is not floor ... goes to the tile's nearest
    floor space")."""
    return [s] if st.kind[s] == FLOOR else [x for x in _block(p) if st.kind[x] == FLOOR]


def _fold(cell: int, old: int, new: int) -> int:
    """Consolidation (book l.301-309) of block cell ``cell`` of a size-``old`` tile into a
    size-``new`` one, both centred in the 5x5 block: a 1x1 lands in the middle; a 3x3 into a
    5x5 "keeps its coordinates"; a 5x5 into a 3x3 "folds inward" (each 2x2 corner to the corner,
    the edge runs to the edge spaces, the middle to the middle)."""
    if new >= old:
        return cell
    if new == 1:
        return 12
    r, c = divmod(cell, BLOCK)
    f = lambda x: 0 if x <= 1 else (1 if x == 2 else 2)  # noqa: E731
    return (f(r) + 1) * BLOCK + f(c) + 1


class RareFirst:
    """A random player that prefers the rare actions: with probability 0.6 it picks a kind among
    the legal kinds other than END, a move or a hand-over, then a random action of that kind."""

    RARE = ("attack", "ability", "ability_on_space", "revive_in_spawn", "item_on_entity",
            "item_on_space", "pick_up", "drop", "interact", "water_roll", "vehicle_weapon",
            "group_attack")

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def __call__(self, game) -> None:
        legal = np.flatnonzero(game.legal_mask())
        if self.rng.random() < 0.6:
            kinds: dict[str, list[int]] = {}
            for a in legal:
                k = game.decode(a).kind
                if k in self.RARE:
                    kinds.setdefault(k, []).append(int(a))
            if kinds:
                pick = list(kinds)[self.rng.integers(len(kinds))]
                game.apply(int(self.rng.choice(kinds[pick])))
                return
        game.apply(int(self.rng.choice(legal)))


def _play(board: int, seed: int, apocalypse: int, items: bool, watch, seats=None) -> None:
    """One game of rare-first players (or ``seats``: policy ids, None for rare-first), checked
    by the kit's invariants at every decision; ``watch(game, before, events)`` after every
    decision, ``before`` a copy of the state read before it."""
    game = K.new_game(board, seed, apocalypse=apocalypse)
    if items:
        K.seed_items(game, np.random.default_rng(seed))
    rare = RareFirst(seed)
    seats = seats or (None,) * 4
    K.check_invariants(game)
    for _ in range(20_000):
        if game.terminal:
            break
        st = game.st
        before = {"ent": st.ent.copy(), "floor": st.floor.copy(), "twin": st.twin.copy(),
                  "tile_pos": st.tile_pos.copy(), "move_nbr": np.asarray(st.move_nbr).copy(),
                  "move_roll": np.asarray(st.move_roll).copy(), "nev": int(st.game.nev),
                  "current": game.current}
        policy = seats[int(st.ent.team[game.current])]
        if policy is None:
            rare(game)
        else:
            step(game, policy)
        K.check_invariants(game)
        watch(game, before, game.named_events(since=before["nev"]))
    assert game.terminal, "every game ends"


# ------------------------------------------------------------ the departure found (fixed)

@pytest.mark.parametrize("guard", ["shield", "invincible"])
def test_the_damage_event_logs_the_health_the_defender_is_left_with(guard):
    """Book l.130: "Shield is healing that is allowed to go beyond maximum health"; l.410
    "Invincibility is an effect that prevents an Entity from losing Health by any means";
    docs/rulings.md "Stalemate": the GM confirms one after 10 rotations "in which no entity lost
    health". The log's ``damage`` event (``events.EVENTS``: "... deal D; X has H health") records
    ``health`` = the defender's health minus the damage rolled, computed in ``attack._throw``
    *before* ``death._harm`` takes the damage from the shield first or drops it for an invincible
    entity, so the log says a defender lost health it still has. The same formula writes the
    ``tile-wide damage`` event (``item_effects._blast``, the flood's in
    ``apocalypse._apocalypse_step``) and the ``flat damage`` event (``item_effects._flat``).
    Found by fuzzing: a stalemate confirmed at rotation 59 after a ``damage`` event at
    rotation 58 that logged 90 -> 88 health while a shield absorbed it (the engine was right:
    no health was lost; a reader of the log is misled).
    Minimal: board 0, game seed 1; character 0 attacks character 5 on a shared space with 10
    attacks against defense 0; 5 holds 1,000 shield (or an invincibility buff); the event says
    3 health, the state keeps 90. Fixed (stop 73): every damage event logs
    ``death._health_after`` (what ``_harm`` will leave); the flat damage event is checked too."""
    from sim.engine.effects.item_effects import _flat
    from sim.engine.rules.attack import _strike
    game = K.new_game(0, 1)
    st, S, ent = game.st, game.S, game.st.ent
    a, d = 0, 5
    ent.space[a] = ent.space[d] = 600
    ent.atk[a, :], ent.defense[d] = 10, 0
    if guard == "shield":
        ent.shield[d] = 1000
    else:
        ent.buff[d], ent.buff_stat[d] = 10**6, L.STAT_INVINCIBLE
    health = int(ent.health[d])
    since = int(st.game.nev)
    _strike(st, S, np.int64(a), np.int64(d), np.int64(0), np.int64(a))
    damage = game.named_events("damage", since=since)
    if not damage or damage[0]["damage"] == 0:
        raise Setup("the attack dealt no damage (the seed's dice changed)")
    if int(ent.health[d]) != health:
        raise Setup(f"the {guard} did not hold (not what this test checks)")
    assert damage[0]["health"] == int(ent.health[d]), (
        f"the log says {damage[0]['damage']} damage left {damage[0]['health']} health; "
        f"the defender has {int(ent.health[d])} (its {guard} took it)")
    since = int(st.game.nev)
    _flat(st, S, np.int64(a), np.int64(d), np.int64(7), np.int64(L.BY_ABILITY))
    (flat,) = game.named_events("flat damage", since=since)
    assert flat["health"] == int(ent.health[d]) == health, (flat, int(ent.health[d]))


# ------------------------------------------------------------------------- swaps and transforms

def _check_swap(game, before, ev, seen) -> None:
    st = game.st
    ent, e0 = st.ent, before["ent"]
    p, q, covers = ev["from"], ev["to"], ev["covers"]
    shift = ((q // 7) - (p // 7)) * BLOCK * SPAN + ((q % 7) - (p % 7)) * BLOCK

    def expect(s):
        if _pos(s) == p:
            return [s + shift]
        if _pos(s) == q:  # covered: "placed into the tile that has arrived over them"
            return _settled(st, q, _block(q)[12]) if covers else [s - shift]
        return [s]

    assert st.tiles.tile[q] == ev["tile"] and st.tiles.tile[p] == ev["other"]
    for e in range(ent.shape[0]):
        s0 = int(e0[e]["space"])
        if e0[e]["alive"] == 0 or s0 < 0 or ent.alive[e] == 0:
            continue
        assert int(ent.space[e]) in expect(s0), (
            f"swap {ev}: entity {e} (kind {int(ent.kind[e])}) from {s0} landed on "
            f"{int(ent.space[e])}, not {expect(s0)[:3]}")
        if _pos(s0) in (p, q):
            seen["entity"] += 1
    for f in range(st.floor.shape[0]):
        item, s0 = before["floor"][f]
        if item >= 0 and s0 >= 0 and st.floor[f, 0] == item and before["tile_pos"][s0] >= 0:
            assert int(st.floor[f, 1]) in expect(int(s0)), f"swap {ev}: floor item {f}"
    for s in np.flatnonzero(before["twin"] >= 0):  # "Portal pieces travel with their tiles"
        t = int(before["twin"][s])
        if _pos(int(s)) in (p, q) or _pos(t) in (p, q):
            assert st.twin[expect(int(s))[0]] == expect(t)[0], f"swap {ev}: portal {s}-{t}"
            seen["portal"] += 1


def _check_transform(game, before, ev, seen) -> None:
    st, S = game.st, game.S
    ent, e0 = st.ent, before["ent"]
    p = ev["position"]
    old, new = S.tile_fx[2 * ev["old"], TF_SIZE], S.tile_fx[2 * ev["new"], TF_SIZE]
    assert st.tiles.tile[p] == ev["new"]
    blk = _block(p)
    for e in range(ent.shape[0]):
        s0 = int(e0[e]["space"])
        if e0[e]["alive"] == 0 or s0 < 0 or ent.alive[e] == 0:
            continue
        if _pos(s0) != p:
            assert int(ent.space[e]) == s0, f"transform {ev} moved entity {e} outside the tile"
            continue
        x = blk[_fold(blk.index(s0), old, new)]
        assert int(ent.space[e]) in _settled(st, p, x), (
            f"transform {ev}: entity {e} from {s0} on {int(ent.space[e])}, consolidation "
            f"({old}x{old} -> {new}x{new}) gives {x}")
        assert ent.submerged[e] == 0, "Submerged in a transformed tile (rulings: 'Water on a " \
                                      "moved tile')"
        seen["entity"] += 1
    for s in blk:  # the old tile's pieces leave with it ("The link is severed")
        t = st.twin[s]
        assert t < 0 or _pos(int(t)) == p, f"transform {ev}: a link from {s} to {int(t)} stayed"


def _live_board(game) -> Board:
    """The board standing now, as the board compiler reads one: the tiles at the 49 positions
    (void where destroyed, the Uncovered Tile where the Apocalypse is revealed) and the portal
    links as they stand (pairs travel with their tiles)."""
    st, cat = game.st, K.CATALOGUE.tiles
    tiles = np.array(st.tiles.tile, np.int32).reshape(7, 7).copy()
    for p in range(49):
        if st.pos_state[p] == L.VOIDED:
            tiles.flat[p] = VOID
        elif tiles.flat[p] == APOCALYPSE and st.game.revealed:
            tiles.flat[p] = cat.uncovered
    pairs, done = [], set()
    for s in np.flatnonzero(st.twin >= 0).tolist():
        if s in done:
            continue
        t = int(st.twin[s])
        done.update((s, t))
        comp = []
        for x in (s, t):
            p = _pos(x)
            o = (BLOCK - int(cat.size[tiles.flat[p]])) // 2
            comp.append([p // 7, p % 7, (x // SPAN) % BLOCK - o, (x % SPAN) % BLOCK - o])
        pairs.append(comp)
    return Board(tiles, game.setup.board.spawns.copy(), np.array(pairs, np.int32).reshape(-1, 2, 4))


def _check_live_board(game) -> None:
    """The engine's live board (re-stamped by swaps, transforms, destructions and the reveal)
    equals the board compiler's reading of the same tiles: movement, sight, water and portals as
    the start board would have them (``sim.board.graph.compile_board``)."""
    st = game.st
    g = compile_board(_live_board(game), K.CATALOGUE.tiles, K.CATALOGUE.board_rules)
    for name in ("kind", "tile_pos", "twin", "move_nbr", "move_roll", "sight_nbr", "sight_flag",
                 "feature"):
        a = np.asarray(getattr(st, name)).astype(np.int64)
        b = np.asarray(getattr(g, name)).astype(np.int64)
        if name in ("move_roll", "sight_flag"):  # a cut link's flag is never read
            linked = np.asarray(getattr(st, name.split("_")[0] + "_nbr")) >= 0
            a, b = np.where(linked, a, 0), np.where(linked, b, 0)
        if name == "feature":  # a void's features are never read
            space = np.asarray(st.kind) != 0
            a, b = np.where(space, a, 0), np.where(space, b, 0)
        bad = np.argwhere(a != b)
        assert len(bad) == 0, f"live {name} differs from the compiled board at {bad[:4].tolist()}"
    assert K.live_shores(st, game.S) == K.board_shores(g), "the bodies of water differ"


def test_swaps_and_transforms_carry_what_the_book_says():
    """Book l.291-309: "the tile and everything in it remain unchanged; the two tiles trade
    positions"; a tile landing on an Uncovered Tile "covers it up" and "every entity and
    Component standing on that Uncovered Tile is picked up and placed into the tile that has
    arrived over them"; Consolidation ("A 1x1 Tile, entering a larger tile lands in the middle
    space", "A 3x3 entering a 5x5 keeps its coordinates", "A 5x5 becoming a 3x3 folds inward");
    docs/rulings.md "What travels with a swapped tile" (entities, items, portal pieces) and "Water
    on a moved tile" (a transform ends Submerged). After every swap and transform the board
    equals a freshly compiled board of the tiles standing."""
    seen = {"swap": 0, "transform": 0, "entity": 0, "portal": 0}

    def watch(game, before, events):
        changes = [ev for ev in events if ev["event"] in ("tile swap", "tile transform")]
        if len(changes) == 1:
            ev = changes[0]
            if ev["event"] == "tile swap":
                seen["swap"] += 1
                _check_swap(game, before, ev, seen)
            else:
                seen["transform"] += 1
                _check_transform(game, before, ev, seen)
            _check_live_board(game)

    for board, seed in ((7, 1), (56, 8)):
        _play(board, seed, seed % 3, True, watch)
    if min(seen["swap"], seen["transform"], seen["entity"]) == 0:
        raise Setup(f"no swap, transform or carried entity in these games: {seen}")


def test_destroyed_coordinates_are_what_was_announced_and_the_board_stays_compiled():
    """Book l.432: "The tile coordinate to be destroyed is announced on the GM Turn, and it is
    destroyed on the following GM Turn"; "Anything in a tile that is destroyed is removed from
    the game. When a tile coordinate is destroyed, it is replaced by a 'void' that functions
    identically to the face-down Apocalypse tile"; docs/rulings.md "Resolving the Apocalypse"
    (once resolved, its announced coordinates are spared). The board after each destruction and
    after the reveal equals the compiled board with voids there."""
    seen = {"destroyed": 0}
    state = {"pending": set()}

    def watch(game, before, events):
        st = game.st
        destroyed = {ev["position"] for ev in events if ev["event"] == "destruction"}
        announced = {ev["position"] for ev in events if ev["event"] == "announcement"}
        if destroyed or announced:
            if state["pending"] and not game.terminal:
                assert destroyed == state["pending"], (sorted(destroyed), sorted(state["pending"]))
            state["pending"] = announced
        if any(ev["event"] == "apocalypse resolved" for ev in events):
            state["pending"] = set()
        for p in destroyed:
            seen["destroyed"] += 1
            on = (st.ent.alive != 0) & (st.ent.space >= 0)
            assert not any(_pos(int(s)) == p for s in st.ent.space[on]), f"alive on void {p}"
        if destroyed or any(ev["event"] == "reveal" for ev in events):
            _check_live_board(game)

    for board, seed, apocalypse in ((3, 5, 0), (45, 700000, 2)):
        state["pending"] = set()
        _play(board, seed, apocalypse, False, watch, seats=(L.RANDOM, None, L.GREEDY, None))
    if seen["destroyed"] == 0:
        raise Setup("no coordinate destroyed")


def test_a_revive_restores_health_only_where_the_player_may_choose():
    """Book l.248-256: "The player may choose whether the revive occurs at the point of
    occurrence, or back in the team's Spawn"; "A revived character returns at full health, with
    their ability and their stats in exactly the state they were in at the moment of death";
    "Ability charges spent while the character was alive remain spent"; "Items are not restored
    either" (docs/rulings.md "A dead character's buffs and de-buffs stop counting", "'The point
    of occurrence' is the space of death")."""
    fields = ("speed", "range", "defense", "atk", "tier", "charges_left", "max_health",
              "buff_delta", "debuff_delta")
    dead: dict[int, tuple[dict, int]] = {}
    seen = {"revive": 0}

    def watch(game, before, events):
        st, S = game.st, game.S
        ent = st.ent
        names = {ev["event"] for ev in events}
        for ev in events:
            e = ev.get("entity", -1)
            if ev["event"] == "death" and ent.kind[e] <= L.K_SUMMONED:
                dead[e] = ({f: np.array(ent[e][f]).copy() for f in fields}, ev["space"])
            elif ev["event"] == "revive" and e in dead:
                row, where = dead.pop(e)
                seen["revive"] += 1
                assert ent.health[e] == ent.max_health[e], "not at full health"
                for f in fields:
                    assert np.array_equal(ent[e][f], row[f]), f"revived with {f} changed"
                spawn = {int(_spawn_now(st, S, int(ent.team[e]), k)) for k in range(3)}
                assert ev["space"] == where or ev["space"] in spawn, (ev, where, spawn)
                pool = e if ent.pool[e] == 0 else ent.pool[e] - 1
                assert ent.group[e] != 0 or not np.any(ent.item_slot[pool]), "items restored"
        # a death's row is its state at death; later changes on the dead row come only from
        # the card's pool (an item or a tile's gain, docs/rulings.md) or a ceased ability
        if names & {"stat gain", "death", "state", "vanish"} or any(n.startswith("item")
                                                                   for n in names):
            for e in dead:
                if ent.alive[e] == 0:
                    dead[e] = ({f: np.array(ent[e][f]).copy() for f in fields}, dead[e][1])

    for board, seed in ((62, 100002),):
        dead.clear()
        _play(board, seed, seed % 3, True, watch)
    if seen["revive"] == 0:
        raise Setup("no revive in these games")


def test_tile_wide_damage_reaches_everything_in_the_tile_and_its_linked_tile():
    """Book l.319: "Tile-Wide Damage ... applies immediately to everything in the affected
    tiles"; R4:S5 "an effect landing on one tile lands on the whole of the other as well";
    l.398-400: invisible entities too ("none of those require an attacker to pick a target");
    docs/rulings.md "Area damage is the book's Tile-Wide Damage" (the user and its team too).
    Who vanished or died in the same blast before its turn came is excused. These two games
    reach no blast on a portal's tile with anyone in the other (a blast that spared the linked
    tile survived this test when tried at stop 73): that case is
    tests/test_engine_portals.py::test_tile_wide_damage_lands_on_the_whole_linked_tile's."""
    from sim.catalogue.abilities import EFFECTS
    from sim.engine.rules.live_movement import _linked_tile
    seen = {"blast": 0}

    def watch(game, before, events):
        st = game.st
        e0, m = before["ent"], st.ent.shape[0]
        gone = {ev["entity"] for ev in events if ev["event"] in ("vanish", "death")}
        for i, ev in enumerate(events):
            where = -1
            if ev["event"] == "ability" and EFFECTS[ev["effect"] - 1] == "area":
                where = before["tile_pos"][e0[ev["user"]]["space"]]
                user = ev["user"]
            elif ev["event"] == "item used" and ev["target"] >= m:
                where = before["tile_pos"][ev["target"] - m]
                user = ev["user"]
            hit = {x["entity"] for x in events[i + 1:]
                   if x["event"] == "tile-wide damage" and where >= 0 and x["by"] == user}
            if where < 0 or not hit:
                continue
            tiles = {int(where), int(_linked_tile(st, int(where)))}
            inside = {e for e in range(m) if e0[e]["alive"] and e0[e]["space"] >= 0
                      and int(before["tile_pos"][e0[e]["space"]]) in tiles}
            seen["blast"] += 1
            assert not inside - hit - gone, f"blast on {tiles} missed {sorted(inside - hit)}"
            assert not hit - inside, f"blast on {tiles} hit {sorted(hit - inside)} outside"

    for board, seed in ((3, 300000), (47, 500014)):
        _play(board, seed, 1, True, watch)
    if seen["blast"] == 0:
        raise Setup("no blast in these games")


def test_a_move_costs_its_dry_walking_distance_and_a_portal_crossing_nothing():
    """Book l.87-92: "It costs 1 speed to move onto an adjacent space. Speed is always spent per
    space"; "you cannot travel between two tiles diagonally"; R4:S5 "Crossing between the two
    costs nothing in itself; you pay only the speed to enter the first component and the speed
    to leave the second". Each move's logged cost is its shortest dry path on the board as it
    stood (a breadth-first search of ``move_nbr`` without the links that need a roll, a portal
    piece's twin at no cost); a drive costs the vehicle the same (a teleport or a water crossing
    that carries it costs nothing: docs/rulings.md "Vehicles: driving")."""
    seen = {"move": 0, "portal": 0}

    def walk(before, a, b):
        nbr, roll, twin = before["move_nbr"], before["move_roll"], before["twin"]
        dist = {a: 0}
        if twin[a] >= 0:
            dist[int(twin[a])] = 0
        frontier = list(dist)
        while frontier and b not in dist:
            nxt = []
            for s in frontier:
                for k in range(8):
                    t = int(nbr[s, k])
                    if t < 0 or roll[s, k] != 0:
                        continue
                    for u in (t, int(twin[t])) if twin[t] >= 0 else (t,):
                        if u not in dist:
                            dist[u] = dist[s] + 1
                            nxt.append(u)
            frontier = nxt
        return dist.get(b, -1)

    def watch(game, before, events):
        for ev in events:
            if ev["event"] not in ("move", "drive"):
                continue
            carried = [x for x in events if x is not ev and x["event"] in (
                "drive", "teleport", "water-roll") and x.get("from") == ev["from"]
                and x.get("to") == ev["to"]]
            if carried:  # the pilot rides its vehicle; a vehicle carried by its pilot
                continue
            cost = walk(before, ev["from"], ev["to"])
            seen["move"] += 1
            seen["portal"] += int(before["twin"][ev["from"]] >= 0)
            assert ev["cost"] == cost, f"{ev}: the dry walking distance is {cost}"

    for board, seed in ((7, 1), (14, 1400000)):
        _play(board, seed, 0, False, watch)
    if seen["move"] == 0:
        raise Setup("no move")
