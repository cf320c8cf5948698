"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt) that the suite
checked only in part, pinned through the engine (line numbers are the book's)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.board.geometry import local_space
from sim.catalogue.tile_layout import FLOOR
from sim.combat.star import BASE, BLUE, GREEN
from sim.engine.rules.attack import _attack_star
from sim.engine.state import fields as L
from sim.engine.tiles.swap_in_play import _transform
from tests import _tiles_kit as tiles
from tests import _water_kit as water
from tests._engine_kit import CATALOGUE


def test_being_submerged_deals_no_damage():
    """l.348: "Being submerged deals no damage. What it costs is freedom"; l.346 "A submerged
    character is stuck in the water and remains there until they succeed on a water-roll". A
    failed water-roll submerges the character on its space with its health and shield as they
    were, and failing the escape again costs nothing either."""
    game, c = water.water_game()
    s, t = water.beside_water(game)
    water.put(game, c, s)
    ent = game.st.ent
    ent.shield[c] = 5
    health = int(ent.health[c])
    with water.rules_ip(game.S, P_WATER_MIN=99):  # every face fails
        game.apply(water.water_action(game, t))
        assert ent.submerged[c] == 1 and ent.space[c] == s
        assert ent.health[c] == health and ent.shield[c] == 5
        escape = [int(a) for a in game.legal_actions() if a != L.END]
        assert escape  # the fresh streak (it costs the action) is the only way out
        game.apply(escape[0])  # fails again: still stuck, still unharmed
    assert ent.submerged[c] == 1 and ent.space[c] == s
    assert ent.health[c] == health and ent.shield[c] == 5
    assert not [ev for ev in game.named_events("damage") if ev["defender"] == c]


def _place(game, e, p, suit_name):
    """``e`` on the middle space of position ``p`` with suit ``suit_name``, unhurt and with no
    state: its star follows homefield alone."""
    ent = game.st.ent
    ent.space[e] = tiles.middle(p)
    ent.suit[e] = CATALOGUE.rules.suits.index(suit_name)
    ent.health[e] = ent.max_health[e]
    ent.buff[e] = ent.debuff[e] = 0


@pytest.mark.parametrize("attacker_in, defender_in, defender_suit, colour", [
    ("Manga Cafe", "uncovered", "Manga", GREEN),        # only the attacker holds it
    ("uncovered", "Manga Cafe", "Manga", BLUE),         # only the defender holds it
    ("uncovered", "Manga Cafe", "Internet", BASE),      # the target's tile is not the attacker's
    ("Manga Cafe", "Firewall", "Internet", BASE),       # both hold it, in two tiles: they cancel
    ("Firewall", "Manga Cafe", "Internet", BASE),       # neither holds it in its own tile
])
def test_each_side_draws_homefield_from_its_own_tile(attacker_in, defender_in, defender_suit,
                                                     colour):
    """l.150: "Each character draws homefield advantage from their own tile, not from the tile
    the attack is aimed at. When an attacker and a defender stand in two different tiles, both
    are checked against their own tile, and either, both, or neither may hold the advantage";
    l.152 "If only the attacker holds it, they attack with green. If only the defender holds it,
    the attacker is cursed to attack with blue. If both hold it, the two cancel out". The
    attacker's suit is Manga (the Manga Cafe's); each side stands in a real tile of the board,
    and the engine's attack star (``attack._attack_star``) is read."""
    game, c = tiles.game_on()
    d = tiles.enemy_of(game, c)
    at = {"uncovered": tiles.uncovered_at()}
    pos = lambda name: at[name] if name in at else tiles.where(name)  # noqa: E731
    assert pos(attacker_in) != pos(defender_in)
    _place(game, c, pos(attacker_in), "Manga")
    _place(game, d, pos(defender_in), defender_suit)
    assert _attack_star(game.st, game.S, c, d) == colour


@pytest.mark.parametrize("batch", [0, 1])
def test_a_5x5_folds_into_a_3x3_every_space(batch):
    """l.307-309: "A 5×5 becoming a 3×3 folds inward instead. The larger tile divides into nine
    regions laid out exactly like the smaller tile, and everything standing in a region moves to
    the single space that region corresponds to. The middle space goes to the middle space of
    the 3×3. Each 2×2 corner block goes to the one-space corner nearest it. The spaces running
    along the edges between those corners go to the edge spaces of the 3×3." All 25 spaces of
    Tokyo Rooftops (5×5), in two batches of characters, land where the book's regions say when it
    is transformed into the Firewall (3×3, every space floor); the regions are written out here,
    not taken from the engine."""
    region = (0, 0, 1, 2, 2)  # a 5×5 row or column -> the 3×3 row or column its region is
    game, c = tiles.game_on()
    st, ent = game.st, game.st.ent
    p, firewall = tiles.where("Tokyo Rooftops"), tiles.TILES.find("Firewall")
    _transform(st, game.S, tiles.where("Firewall"), tiles.TILES.uncovered, c)  # out of play
    chars = np.flatnonzero(ent.kind == L.K_CHARACTER)
    cells = [(i, j) for i in range(5) for j in range(5)][batch * 13:(batch + 1) * 13]
    movers = chars[:len(cells)]
    for e, (i, j) in zip(movers, cells):
        ent.space[e] = tiles.space("Tokyo Rooftops", i, j)
    _transform(st, game.S, p, firewall, c)
    for e, (i, j) in zip(movers, cells):
        want = local_space(divmod(p, 7), region[i], region[j], 3)
        assert st.kind[want] == FLOOR
        assert ent.space[e] == want, ((i, j), int(ent.space[e]), want)


# ---------------------------------------------------------------- the audit's engine findings
# (stop 69): each test failed on the engine before its fix


def _holding(game, c, *names):
    """``c`` holds the named items, active (held over the end of a turn: "it cannot be used
    immediately")."""
    from sim.engine.items.holding import _end_turn_items, _grant_item

    for name in names:
        _grant_item(game.st, game.S, c, CATALOGUE.items.find(name))
    _end_turn_items(game.st, game.S, c)


def _drop_slot(game, c):
    """``c`` drops the item in its first slot through the engine's drop action."""
    from tests._entities_kit import decide

    decide(game, c)
    drops = [int(a) for a in game.legal_actions() if game.decode(a).kind == "drop"]
    game.apply(drops[0])


def test_an_ally_target_item_never_aims_at_a_minion():
    """l.184 "A Teammate refers to a Character that is on your Team"; docs/rulings.md: items'
    "Targets follow the abilities' rulings" (a teammate is a character, not a minion). An
    ally-target item (Scroll of Might) listed the user's team's minions as targets; the buff
    ability beside it never did. Both now read one test (special._teammate_target)."""
    from tests._entities_kit import card_rows, decide, start, summon_minions

    game = start()
    ent = game.st.ent
    q, _ = summon_minions(game)
    minions = set(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0)).tolist())
    c = int(card_rows(game, 0, "Luffy")[0])
    for m in minions:
        ent.space[m] = ent.space[c]  # within the scroll's range of 2, in sight
    _holding(game, c, "Scroll of Might")
    decide(game, c)
    targets = {game.decode(a).target for a in game.legal_actions()
               if game.decode(a).kind == "item_on_entity"}
    assert len(minions) == 3 and c in targets and int(card_rows(game, 0, "Mario")[0]) in targets
    assert not targets & minions, sorted(targets & minions)


def test_a_minion_summoned_while_an_item_is_active_keeps_its_own_stats():
    """l.198 "minions can make use of any and all items held by their creator"; docs/rulings.md:
    "A held item's stat reaches the rows sharing the pool when the item becomes active; a minion
    summoned later does not get it". Quill Duelist holds an active Knight's Plate (+2 defense),
    summons three minions, then drops the plate: the minions kept a stale +2 (from the waiting
    rows) and lost 2 defense when the plate left, down to 0."""
    from tests._entities_kit import card_rows, start, summon_minions

    game = start()
    ent = game.st.ent
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    printed = int(ent.defense[q])
    _holding(game, q, "Knight's Plate")
    assert ent.defense[q] == printed + 2
    summon_minions(game)
    minions = np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))
    house = game.st.game.minion_defense  # rules.toml [entities]: the minions' defense
    assert len(minions) == 3
    assert ent.defense[minions].tolist() == [house] * 3 and not ent.item_delta[minions].any()
    _drop_slot(game, q)
    assert ent.defense[q] == printed and ent.defense[minions].tolist() == [house] * 3


def test_a_clone_copies_the_printed_stats_not_a_held_items():
    """l.204 "Items are not cloned. A clone is created holding nothing"; the clone is "a direct
    copy of a character's stats" (as printed: docs/rulings.md). A clone made while its
    original held an active Knight's Plate had the plate's +2 defense."""
    from tests._entities_kit import card_rows, decide, on_space, start

    game = start()
    ent = game.st.ent
    d = int(card_rows(game, 0, "Silent Film Duo")[0])
    ent.space[d] = int(game.S.spawn_space[0, 1])
    printed = int(ent.defense[d])
    _holding(game, d, "Knight's Plate")
    assert ent.defense[d] == printed + 2
    decide(game, d)
    game.apply(on_space(game, int(ent.space[d])))  # the clone ability, on its own space
    (k,) = np.flatnonzero((ent.owner == d + 1) & (ent.alive != 0) & (ent.kind == L.K_CLONE))
    assert ent.defense[k] == printed and not ent.item_delta[k].any()
    _drop_slot(game, d)
    assert ent.defense[d] == printed and ent.defense[k] == printed


def test_an_items_effects_outlive_its_user_and_an_abilitys_cease():
    """l.244 "unless specified otherwise all effects of that character's abilities cease"; l.408
    "Freezing begins and ends as the ability or item causing it specifies". A freeze from a
    Scroll of Frost and a buff from a Scroll of Might ended when their user died, as an
    ability's do; they now run their course (fields.OUTLIVES). An ability's freeze still
    ceases."""
    from sim.engine.rules.death import _kill
    from tests._entities_kit import card_rows, decide, start

    game = start()
    st, ent = game.st, game.st.ent
    c = int(card_rows(game, 0, "Luffy")[0])
    mate = int(card_rows(game, 0, "Mario")[0])
    foe, other = np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[:2]
    _holding(game, c, "Scroll of Frost", "Scroll of Might")

    def use(slot, target):
        decide(game, c)
        game.apply(next(int(a) for a in game.legal_actions()
                        if game.decode(a).kind == "item_on_entity"
                        and game.decode(a).slot == slot and game.decode(a).target == target))

    use(0, foe)
    use(1, mate)
    atk = ent.atk[mate].tolist()
    g = int(next(e for e in np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))
                 if e not in (c, mate)))
    tiles.give_ability(game, g, "freeze", duration=2, range=3)
    decide(game, g)
    game.apply(game.action("ability", int(other)))
    assert ent.frozen[foe] != 0 and ent.buff[mate] != 0 and ent.frozen[other] != 0
    _kill(st, game.S, c, foe, L.BY_ATTACK)  # the items' user dies
    _kill(st, game.S, g, foe, L.BY_ATTACK)  # the ability's user dies
    assert ent.frozen[foe] != 0 and ent.buff[mate] != 0 and ent.atk[mate].tolist() == atk
    assert ent.frozen[other] == 0  # "all effects of that character's abilities cease"


def test_a_tile_frozen_by_a_team_eliminated_since_thaws_on_time():
    """l.408 "Freezing begins and ends as the ability or item causing it specifies"; l.406
    "Every entity standing in a frozen tile is frozen too, for as long as the tile is". A tile
    frozen for 1 turn of its team (as Lethe Waters and Root Terminal do) stayed frozen for the
    rest of the game once that team was eliminated (its turns, which the duration counts, were
    skipped), and so did the enemy standing in it. House ruling (docs/rulings.md, "Whose turns
    a duration counts"): an eliminated team's turn still passes for its clock."""
    from sim.engine.rules.death import _kill
    from sim.engine.rules.turn import _advance
    from sim.engine.tiles.paused import _paused, _set_tile_state

    game, c = tiles.game_on()
    st, S, ent = game.st, game.S, game.st.ent
    # the board's tables are cached and shared by every game on its board (tests/_engine_kit.py
    # setup_for): the number is put back, or later tests' games have no Apocalypse either
    kept = int(S.ip[L.P_TURNS_AFTER])
    S.ip[L.P_TURNS_AFTER] = 50  # no Apocalypse: the freeze alone
    try:
        farm = tiles.where("Server Farm")
        d = tiles.enemy_of(game, c)
        ent.space[d] = tiles.floor_of(game, farm)
        _set_tile_state(st, S, farm, 1, 1, c)  # frozen for 1 turn of c's team
        assert ent.frozen[d] != 0
        for e in np.flatnonzero((ent.team == ent.team[c]) & (ent.alive != 0)
                                & (ent.kind <= L.K_SUMMONED)):
            _kill(st, S, int(e), d, L.BY_ATTACK)
        st.game.cur = -1
        _advance(st, S)
        start, asked = st.game.rotation, False
        while not game.terminal and st.game.rotation < start + 3 and not asked:
            asked = game.current == d
            game.apply(L.END)
        assert asked and not _paused(st, farm) and ent.frozen[d] == 0
    finally:
        S.ip[L.P_TURNS_AFTER] = kept


def test_the_encore_gives_the_action_back_without_ending_the_turn():
    """l.325 "When an item is gained or picked up, it cannot be used immediately. A character
    must End their Turn with an Item in order to use it"; the Encore (docs/rulings.md, "An extra
    action"): its END gives the action back instead of ending the turn. That END ran the turn's
    end first, so a potion picked up before it could be drunk in the same turn (the second
    audit of stop 69: once in 60 played games). Now the item waits for the real end."""
    from sim.engine.items.holding import _put_on_floor
    from tests import _items_kit as items

    game, c = items.scenario()
    st, ent = game.st, game.st.ent
    ent.health[c] -= 60
    ent.extra_left[c] = 1  # the Encore won last turn: one extra action in this one
    ent.extra_turn[c] = st.game.turns[ent.team[c]]
    assert _put_on_floor(st, items.item("Health Potion"), int(ent.space[c]))
    game.apply(items.pick(game, 0))
    d = items.enemy_of(game, c)
    ent.space[d] = ent.space[c]
    game.apply(game.action("attack", d))
    game.apply(L.END)  # the Encore: the action comes back and the turn goes on
    assert game.current == c and ent.acted[c] == 0 and ent.extra_left[c] == 0
    assert ent.item_on[c].tolist() == [0, 0]
    assert items.use_on(game, 0, c) not in items.item_actions(game)
    game.apply(game.action("attack", d))  # the extra action, then the real end of the turn
    game.apply(L.END)
    assert ent.item_on[c].tolist()[0] == 1  # held over the end of the turn: usable from now


def test_a_character_on_an_unoccupied_vehicles_space_boards_it():
    """l.378 "If a character is on the same space as an unoccupied vehicle, they can board that
    vehicle. Boarding costs nothing — no speed and no action." Only arriving boarded, so a
    character whose vehicle's pilot died on their shared space (most attacks are made from the
    target's own space) could board only by stepping off and back on, for 2 speed (the second
    audit of stop 69: 117 such situations in 12 of 60 played games). House ruling: it boards as
    its decision comes (special._board_here), free."""
    from sim.engine.rules.death import _kill
    from sim.engine.rules.turn import _advance
    from tests._entities_kit import start, vehicle_scene

    game = start(crowd=False)
    st, ent = game.st, game.st.ent
    v, vs, c = vehicle_scene(game)
    game.apply(game.action("move", vs))  # Luffy boards
    assert ent.riding[c] == v + 1
    team = np.flatnonzero((ent.team == 0) & (ent.kind == L.K_CHARACTER))
    mate = int(next(e for e in team if e != c))
    ent.space[mate] = vs
    _kill(st, game.S, c, -1, L.BY_ATTACK)  # the pilot dies: the vehicle is unoccupied
    assert ent.pilot[v] == 0 and ent.alive[v] != 0 and ent.riding[mate] == 0
    for e in team:  # every one placed, the mate the one left to decide
        if ent.space[e] < 0:
            ent.space[e] = int(game.S.spawn_space[0, 0])
        ent.done[e] = int(e != mate)
    ent.speed_left[mate] = ent.speed[mate]
    st.game.cur = -1
    _advance(st, game.S)
    assert game.current == mate and ent.riding[mate] == v + 1 and ent.pilot[v] == mate + 1
    assert ent.speed_left[mate] == ent.speed[mate] and ent.acted[mate] == 0
    assert any(ev["entity"] == mate for ev in game.named_events("board")), \
        game.named_events("board")


def _spaces_away(kind, here, dist):
    """A slow reference for the teleport's distance (docs/rulings.md, "Teleport"): every
    non-void cell within ``dist`` steps of ``here``, a step to any of the 8 cells around that is
    not void, or orthogonally straight across the void to the first cell of another block."""
    from sim.board.geometry import SPAN
    from sim.catalogue.tile_layout import MAX_SIZE, NONE

    def steps(s):
        r, c = divmod(s, SPAN)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r1, c1 = r + dr, c + dc
                if (dr, dc) == (0, 0) or not (0 <= r1 < SPAN and 0 <= c1 < SPAN):
                    continue
                if kind[r1 * SPAN + c1] != NONE:
                    yield r1 * SPAN + c1
                elif dr == 0 or dc == 0:
                    for k in range(2, MAX_SIZE + 1):
                        r2, c2 = r + k * dr, c + k * dc
                        if not (0 <= r2 < SPAN and 0 <= c2 < SPAN):
                            break
                        if kind[r2 * SPAN + c2] != NONE:
                            if (r2 // MAX_SIZE, c2 // MAX_SIZE) != (r // MAX_SIZE, c // MAX_SIZE):
                                yield r2 * SPAN + c2
                            break

    seen, frontier = {here}, [here]
    for _ in range(dist):
        frontier = [t for s in frontier for t in steps(s) if t not in seen and not seen.add(t)]
    return seen - {here}


@pytest.mark.parametrize("distance", [1, 2, 3, 6])
def test_a_teleport_counts_spaces_not_the_cells_of_the_drawing(distance):
    """l.260 "The Space, not the tile, is the fundamental unit of movement, range, and line of
    sight"; the Ability Index's mobility "Teleports up to `distance` spaces". The distance was
    counted in cells of the 35 x 35 drawing, the void round a small tile included, so from a
    1 x 1 tile a teleport of distance 3 or less had no target at all (the third rules audit of
    stop 69: 365 of 2,513 decisions with the ability ready). Every board position's middle
    space, against a slow reference (the one step it takes: from a 1 x 1 tile, the facing space
    of each next tile is 1 away)."""
    from sim.catalogue.tile_layout import FLOOR
    from sim.engine.effects.interpreter import _teleport_targets

    game, c = tiles.game_on()
    st = game.st
    kind, tile_pos = np.asarray(st.kind), np.asarray(st.tile_pos)
    n = kind.shape[0]
    checked = 0
    for p in range(49):
        here = (p // 7 * 5 + 2) * 35 + p % 7 * 5 + 2  # the middle of the position's block
        if kind[here] != FLOOR or tile_pos[here] < 0:
            continue
        st.ent.space[c] = here
        mask = np.zeros(n, np.bool_)
        count = _teleport_targets(st, c, distance, 0, mask, True)
        want = {s for s in _spaces_away(kind, here, distance)
                if kind[s] == FLOOR and tile_pos[s] >= 0}
        assert set(np.flatnonzero(mask).tolist()) == want and count == len(want), p
        kept = np.asarray(st.decision.teleport)[:st.decision.n_teleport]  # for greedy
        assert sorted(kept.tolist()) == sorted(want) and len(kept) == len(want), p
        assert not np.asarray(st.decision.tele_seen).any(), p  # the scratch left clean
        checked += 1
        if distance == 3 and (kind[here - 1] == 0 and kind[here + 1] == 0):  # a 1 x 1 tile
            assert want, f"a teleport of {distance} from the 1 x 1 tile at {p} has no target"
    assert checked >= 40


def test_a_minions_end_does_not_make_its_creators_items_usable():
    """l.325 "A character must End their Turn with an Item in order to use it"; docs/rulings.md:
    usable "when any character sharing its pool ends its turn" (a minion is not a character,
    l.196). A minion's END switched its creator's new Knight's Plate on, +2 defense a team turn
    early (17 of 559 activations in 60 played games: the third rules audit of stop 69)."""
    from sim.engine.items.holding import _pool, _put_on_floor
    from tests._entities_kit import decide, start, summon_minions

    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    pool = _pool(ent, q)
    defense = int(ent.defense[q])
    assert _put_on_floor(st, CATALOGUE.items.find("Knight's Plate"), int(ent.space[minion]))
    decide(game, minion)
    game.apply(game.action("pick_up", 0))
    assert ent.item_slot[pool].tolist()[0] != 0
    decide(game, minion)
    game.apply(L.END)
    assert ent.item_on[pool].tolist() == [0, 0] and ent.defense[q] == defense


def test_an_item_on_the_far_piece_of_a_portal_is_within_reach():
    """l.364 "An entity standing on either component is treated as standing on both"; l.329 a
    character "can pick up any item in a space within 1 range". An item on the far piece (range
    0) was not offered: a cheap test before the range search bounded range by cells, which a
    portal (and the void between small tiles) makes shorter (the third rules audit of stop
    69). The test now bounds it by tiles, portals linking theirs."""
    from sim.engine.items.holding import _put_on_floor
    from tests._engine_kit import new_game

    for board in range(1, 60):
        game = new_game(board, 7)
        pieces = np.flatnonzero(np.asarray(game.st.twin) >= 0)
        if len(pieces):
            break
    st, ent = game.st, game.st.ent
    near, far = int(pieces[0]), int(st.twin[pieces[0]])
    assert st.tiles.dist[st.tile_pos[near], st.tile_pos[far]] == 0
    while ent.space[game.current] < 0:  # the deciding team placed
        game.apply(int(np.flatnonzero(game.legal_mask())[1]))
    c = game.current
    ent.space[c] = near
    ent.acted[c] = 0
    assert _put_on_floor(st, CATALOGUE.items.find("Health Potion"), far)
    offered = [game.decode(a) for a in game.legal_actions() if game.decode(a).kind == "pick_up"]
    assert len(offered) == 1, offered
