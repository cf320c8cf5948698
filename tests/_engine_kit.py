"""Shared helpers for the engine tests: the shipped catalogue, cached game setups, a checker of
the engine's invariants after every decision."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from sim._jit import njit
from sim.ai.lookahead import _simulate
from sim.ai.play import step
from sim.board.generate import generate_board
from sim.catalogue.loader import load_catalogue
from sim.catalogue.teams import load_teams, random_teams
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.game import Game
from sim.engine.items.holding import _grant_item, _put_on_floor
from sim.engine.state.game_state import _clone
from sim.engine.state.new_game import card_arrays
from sim.engine.state.static_tables import build_setup, load_game_data

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = load_catalogue(ROOT / "cards")
CARDS = card_arrays(CATALOGUE.cards)
GAME_RULES, APOCALYPSES = load_game_data(ROOT / "cards")
EXAMPLE_TEAMS = load_teams(ROOT / "experiments" / "teams" / "example.toml", CATALOGUE.cards)


@njit
def play_out(st, S, mask, a, j, turns, stats):
    """A copy of ``st`` after the look-ahead's play-out ``j`` of action ``a``, ``turns`` team
    turns long (``lookahead._horizon``: 0 the mover's own turn); ``stats`` += its counts."""
    sim = _clone(st)
    team = st.ent.team[st.game.cur]
    _simulate(st, S, sim, a, j, team, mask, np.zeros(4, np.int64), stats, turns)
    return sim


@lru_cache(maxsize=64)
def setup_for(board_seed: int):
    board = generate_board(CATALOGUE.tiles, CATALOGUE.board_rules, board_seed)
    return build_setup(CATALOGUE, board, GAME_RULES, APOCALYPSES)


def new_game(board_seed: int, seed: int, teams=None, apocalypse: int = -1, log=True) -> Game:
    if teams is None:
        teams = random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))
    return Game(setup_for(board_seed), CARDS, teams, seed, apocalypse=apocalypse, log=log)


def fresh_cards(edits: tuple[tuple[str, str, str], ...] = ()) -> Path:
    """A new copy of cards/ in a temporary folder of its own, with ``(file, old, new)`` text
    replacements made (each ``old`` must occur): for a test that writes into its copy."""
    import atexit
    import shutil
    import tempfile
    d = Path(tempfile.mkdtemp(prefix="bwlab-cards-")) / "cards"
    atexit.register(shutil.rmtree, d.parent, True)  # gone when the test process ends
    shutil.copytree(ROOT / "cards", d)
    for name, old, new in edits:
        text = (d / name).read_text(encoding="utf-8")
        assert old in text, (name, old)
        (d / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return d


@lru_cache(maxsize=8)
def cards_with(edits: tuple[tuple[str, str, str], ...]) -> Path:
    """:func:`fresh_cards` made once per ``edits`` and shared by every caller in the process: a
    designer's variant folder, for tests of a switch in the data. Read it, never write it (a
    test that does takes :func:`fresh_cards`: stop 56's table-order tests once reversed one
    shared copy from several tests, and passed or failed by the order the tests ran in)."""
    return fresh_cards(edits)


TERRAIN_DRAFT = (("rules.toml", "terrain_draft = false", "terrain_draft = true"),)


@lru_cache(maxsize=4)
def catalogue_with(edits: tuple[tuple[str, str, str], ...]):
    """The catalogue of :func:`cards_with` (cached: one object, one tile table)."""
    return load_catalogue(cards_with(edits))


def new_game_with(edits, board_seed: int, seed: int, teams, apocalypse: int = -1) -> Game:
    """:func:`new_game` on the catalogue of a variant folder (:func:`cards_with`)."""
    cat = catalogue_with(edits)
    rules, apocalypses = load_game_data(cat.root)
    board = generate_board(cat.tiles, cat.board_rules, board_seed)
    return Game(build_setup(cat, board, rules, apocalypses), card_arrays(cat.cards), teams, seed,
                apocalypse=apocalypse)


def play_variant(edits, policies, games: int, boards: int, seed: int) -> np.ndarray:
    """``play_many``'s results (``R_*`` columns) of ``games`` compiled games on the catalogue of
    a variant folder (:func:`cards_with`): random teams from ``seed``, deal g on board
    g % ``boards``, ``policies`` one per seat. Why here: the fuzzing tests compare the same deals
    under two rule sets, in bulk."""
    from sim.ai.play import play_many
    from sim.engine.state.static_tables import stack_setups

    cat = catalogue_with(edits)
    rules, apocalypses = load_game_data(cat.root)
    setups = [build_setup(cat, generate_board(cat.tiles, cat.board_rules, b), rules, apocalypses)
              for b in range(boards)]
    rng = np.random.default_rng(seed)
    teams = np.stack([random_teams(len(cat.cards), rng) for _ in range(games)])
    return play_many(stack_setups(setups), card_arrays(cat.cards), np.arange(games) % boards,
                     teams, seed, list(policies))


def seed_items(game: Game, rng: np.random.Generator) -> None:
    """Items in play before the tile rewards bring them (test scenarios only): each character
    gains 0-2 random items (not yet usable) and a dozen lie on random floor spaces."""
    st, S = game.st, game.S
    n_items = S.item_fx.shape[0] - 1
    ent = st.ent
    for e in np.flatnonzero(ent.kind == L.K_CHARACTER):
        for _ in range(int(rng.integers(0, 3))):
            _grant_item(st, S, int(e), int(rng.integers(n_items)))
    floor = np.flatnonzero((st.kind == FLOOR) & (st.tile_pos >= 0))
    for s in rng.choice(floor, 12, replace=False):
        _put_on_floor(st, int(rng.integers(n_items)), int(s))


def live_shores(st, S, tile_pos=None) -> dict[int, set[int]]:
    """Per space a water crossing can start from, the spaces it may land on, as the engine reads
    them now (``water_rolls._shore``: the tile standing at each position, ``fx_table.TF_SHORE``);
    ``tile_pos`` instead of the live one (e.g. the revealed board's ``S.tile_pos2[1]``)."""
    from sim.engine.rules.water_rolls import _shore
    tile_pos = st.tile_pos if tile_pos is None else tile_pos
    tiles, fx = st.tiles, S.tile_fx
    out = {}
    for s in np.flatnonzero(tile_pos >= 0):
        bits = int(_shore(tile_pos, tiles, fx, int(s)))
        if bits:
            p = int(tile_pos[s])
            out[int(s)] = {((p // 7) * 5 + cell // 5) * 35 + (p % 7) * 5 + cell % 5
                           for cell in range(25) if bits >> cell & 1}
    return out


def board_shores(graph) -> dict[int, set[int]]:
    """The same from a board compiled in Python (``sim.board.graph.compile_board``): the union of
    ``body_members`` over the bodies ``space_bodies`` lists for each space."""
    out = {}
    for s, row in enumerate(graph.space_bodies.tolist()):
        members = {int(m) for b in row if b >= 0
                   for m in graph.body_members[graph.body_start[b]:graph.body_start[b + 1]]}
        if members:
            out[s] = members
    return out


def events(game: Game, kind: int) -> np.ndarray:
    """The game's event rows of one kind (``L.EV_*``), in log order."""
    rows = game.event_rows()
    return rows[rows[:, L.EVC_KIND] == kind]


def characters(ent) -> np.ndarray:
    """The rows that are characters in play or dead (not CPUs, minions, clones, assists,
    vehicles, nor a summoned card not yet summoned)."""
    return (ent.kind <= L.K_SUMMONED) & (ent.dormant == 0)


def reveal_condition(game: Game) -> bool:
    """The book's three reveal conditions, computed from the state, not from the engine's flag."""
    st, ip = game.st, game.S.ip
    ent = st.ent
    chars = characters(ent)
    teams_dead = any(not np.any(chars & (ent.team == t) & (ent.alive != 0))
                     for t in range(4))
    # deaths so far: the dead now plus those revived (a revive takes no death back: docs/rulings.md);
    # "The count of 7, counts characters only"
    deaths = int(np.sum(chars & (ent.alive == 0))) + int(st.game.revives)
    return (deaths >= ip[L.P_REVEAL_DEATHS] or st.game.rotation >= ip[L.P_REVEAL_ROTATION]
            or teams_dead)


def check_invariants(game: Game) -> None:
    st = game.st
    ent = st.ent
    alive = ent.alive != 0
    placed = ent.space >= 0
    on = alive & placed
    # no entity ever stands on a wall, water, void or a non-space
    assert np.all(st.kind[ent.space[on]] == FLOOR)
    assert np.all(st.tile_pos[ent.space[on]] >= 0)
    assert np.all(st.pos_state[st.tile_pos[ent.space[on]]] != L.VOIDED)
    # health never exceeds max; the dead have none
    assert np.all(ent.health <= ent.max_health)
    assert np.all(ent.health[~alive] == 0)
    assert np.all(ent.health[alive] > 0)
    # the speed left never exceeds the speed (each move's cost against it: step_checked)
    chars = ent.is_cpu == 0
    assert np.all(ent.speed_left[chars] >= 0)
    assert np.all(ent.speed_left[chars] <= np.maximum(ent.speed[chars], 0))
    assert np.all(ent.shield >= 0)
    # charges never overspent; a frozen entity is never asked to decide anything but END
    assert np.all(ent.charges_left >= 0)
    if not game.terminal and ent.frozen[game.current] != 0:
        assert game.legal_actions().tolist() == [L.END]
    # dead entities never act
    if not game.terminal:
        assert ent.alive[game.current] != 0
    # the Apocalypse is revealed exactly when a condition is met
    assert bool(st.game.revealed) == reveal_condition(game)
    assert int(st.game.deaths) - int(st.game.revives) == int(np.sum(characters(ent) & ~alive))
    check_items(game)
    check_entity_invariants(game)


def check_items(game: Game) -> None:
    """"A character can only hold up to 2 items at a time" — a pool (a card's items) has two
    slots, and nobody else holds any; every item is somewhere: held + on the board = gained -
    used up - lost; only active held items change stats ("A stat from an item lasts as long as
    that item is held and active")."""
    st, S = game.st, game.S
    ent = st.ent
    n_items = S.item_fx.shape[0] - 1
    rows = np.arange(ent.shape[0])
    # a minion's or clone's pool is its creator's ("minions can make use of any and all items
    # held by their creator"); a card's characters share its first character's
    owner = ent.owner - 1
    minion = ((ent.kind == L.K_MINION) | (ent.kind == L.K_CLONE)) & (owner >= 0)
    base = np.where(minion, owner, rows)
    pool = np.where(ent.pool[base] == 0, base, ent.pool[base] - 1)
    slots = ent.item_slot
    assert np.all((slots >= 0) & (slots <= n_items))
    assert np.all(slots[pool != rows] == 0), "only a pool's row holds items"
    assert np.all((slots != 0).sum(axis=1) <= 2), "at most 2 items"
    assert np.all(ent.item_on[slots == 0] == 0)
    floor = st.floor
    assert int(st.game.floor_n) == int(np.sum(floor[:, 0] >= 0))
    held = int(np.sum(slots != 0))
    g = st.game
    assert held + int(g.floor_n) == int(g.items_gained - g.items_used - g.items_lost)
    for k in range(2):  # a slot's stat change sits only where its pool's item is held and active
        active = ent.item_on[pool, k] != 0
        assert np.all(ent.item_delta[~active, k] == 0)


def check_entity_invariants(game: Game) -> None:
    """The special entities' rules, from the state: "The Clone dies when the character it was
    copied from dies" and "all of a character's minions disappear if that character is killed"
    (no minion or clone outlives its creator); rows not yet in play are not alive; "You can only
    have 1 assist character at a time"; a vehicle and its pilot stand together and name each
    other; a team stands only while a character of it lives ("An assist character does not keep
    you in the game")."""
    ent = game.st.ent
    alive = ent.alive != 0
    assert not np.any(alive & (ent.dormant != 0)), "a dormant row is alive"
    owned = alive & (ent.owner > 0)
    creators = ent.owner[owned] - 1
    assert np.all(ent.alive[creators] != 0), "a minion or clone outlived its creator"
    for t in range(4):
        assists = alive & (ent.kind == L.K_ASSIST) & (ent.team == t)
        assert assists.sum() <= 1, "more than 1 assist character at a time"
    riders = np.flatnonzero(alive & (ent.riding > 0))
    for c in riders:
        v = ent.riding[c] - 1
        assert ent.kind[v] == L.K_VEHICLE and ent.alive[v] != 0
        assert ent.pilot[v] == c + 1 and ent.space[v] == ent.space[c]
    piloted = np.flatnonzero((ent.kind == L.K_VEHICLE) & (ent.pilot > 0))
    for v in piloted:
        assert ent.riding[ent.pilot[v] - 1] == v + 1
    assert np.all(ent.speed_left[alive & (ent.kind == L.K_VEHICLE)] >= 0)
    g = game.st.game
    if g.over and g.reason == L.LAST_STANDING:
        w = int(g.winner)
        assert np.any(characters(ent) & alive & (ent.team == w))


def step_checked(game, policy) -> None:
    """One decision by ``policy``, checking the state rules across it: "Each turn, each character
    can only use as much speed as their stat shows" (a move never costs more than the speed left:
    checked per step, since a stat may fall later in the turn, e.g. boots dropped); "A frozen
    entity cannot use any of its speed, cannot spend its action" (frozen entities never move or
    act; a frozen fighter hit on a platform edge may still fall: "Whenever damage is allocated to
    a fighter ... On a 1: The fighter falls", a move it does not make); invincible entities lose
    no health "by any means" (the Apocalypse's excepted: checked on turns with no Apocalypse
    step); ticks reset when a string breaks ("All of a character's ticks in a tile disappear at
    once if they interrupt the string of consecutive turns ended in that tile": a character that
    ends its turn holds ticks only in the tile it ends it in); an action is used through a
    vehicle only by its pilot, with neither's action spent ("Using that action spends both the
    pilot's action and the vehicle's action for the turn"); the interactable ``_legal`` leaves for
    the policies (``st.decision.interactable``) is the one ``c`` can use ("by spending an action")."""
    from sim.engine.tiles.functions import _interactable
    ent = game.st.ent
    c = game.current
    riding, acted_all = int(ent.riding[c]), ent.acted.copy()
    game.legal_mask()
    can_act = ent.space[c] >= 0 and ent.acted[c] == 0 and ent.frozen[c] == 0 \
        and ent.submerged[c] == 0
    expected = int(_interactable(game.st, game.S, c)) if can_act else -1
    assert int(game.st.decision.interactable) == expected, "the interactable _legal left is stale"
    done = int(ent.done[c])
    where = tile_of(game, c)  # read before: time runs on after the turn ends (GM turn, ...)
    spent, left = int(ent.spent[c]), int(ent.speed_left[c])
    # frozen and alive: a dead entity keeps its states ("whatever ... sat on them when they died
    # sit on them still"), and a revive that puts it back on the board is not its own act
    frozen = np.flatnonzero((ent.frozen != 0) & (ent.alive != 0))
    cols = [L.SPACE, L.CHARGES_LEFT, L.DEALT, L.KILLS]
    before = ent.raw[frozen][:, cols].copy()
    frozen_health = ent.health[frozen].copy()
    acted = ent.acted[frozen].copy()
    invincible = np.flatnonzero((ent.buff != 0) & (ent.buff_stat == L.STAT_INVINCIBLE)
                                & (ent.alive != 0))
    health = ent.health[invincible].copy()
    steps = int(game.st.game.apoc_step)
    changes = int(game.st.game.tile_changes)
    step(game, policy)
    ent = game.st.ent
    assert ent.spent[c] - spent <= left, "a move cost more than the speed left"
    # a vehicle's action spent in this decision (only its weapon spends it): by its pilot, who
    # had its own action and spent it too (logs may be off: read from the state)
    fired = np.flatnonzero((ent.kind == L.K_VEHICLE) & (acted_all == 0)
                           & (ent.acted != 0))
    for v in fired:
        assert riding == v + 1, "an action through a vehicle its user is not inside"
        assert acted_all[c] == 0 and ent.acted[c] != 0, "the pilot's action not spent"
    still = ent.frozen[frozen] != 0  # frozen before and after: frozen throughout the step
    after = ent.raw[frozen][:, cols]
    if int(game.st.game.tile_changes) != changes:  # a swapped tile carries whoever stands in it
        after[:, 0] = before[:, 0]
    hit = ent.health[frozen] < frozen_health  # damaged: it may have fallen (terrain)
    after[hit, 0] = before[hit, 0]
    assert np.array_equal(before[still], after[still]), "a frozen entity acted"
    assert np.all(ent.acted[frozen[still]] <= acted[still]), "a frozen entity spent its action"
    if int(game.st.game.apoc_step) == steps:
        still = (ent.buff[invincible] != 0) & (ent.buff_stat[invincible] == L.STAT_INVINCIBLE)
        assert np.all(ent.health[invincible[still]] >= health[still]), "invincible lost health"
    if (done == 0 and ent.done[c] != 0 and ent.frozen[c] == 0 and ent.alive[c] != 0
            and ent.space[c] == where[0]):
        check_ticks_at_end(game, c, where[1])


def tile_of(game, c: int) -> tuple[int, tuple[tuple[int, bool], ...]]:
    """``c``'s space and the tiles it stands in, each with whether it is paused now: its own
    tile's and, on a portal piece, the far piece's (R4:S5 "treated as standing on both
    components at the same time"); no tile: none."""
    from sim.engine.tiles.live_board import _tile_at
    from sim.engine.tiles.paused import _paused
    st = game.st
    s = int(st.ent.space[c])
    if s < 0:
        return s, ()
    spaces = (s,) if st.twin[s] < 0 else (s, int(st.twin[s]))
    tiles = []
    for x in spaces:
        p = int(st.tile_pos[x])
        t = int(_tile_at(st, game.S, p)) if p >= 0 else -1
        if t >= 0 and all(t != u for u, _ in tiles):
            tiles.append((t, bool(_paused(st, p))))
    return s, tuple(tiles)


def check_ticks_at_end(game, c: int, tiles) -> None:
    """``c`` has just ended its turn in ``tiles`` (:func:`tile_of`: each with whether it was
    paused): each of its two strings is banked in one of them, or empty (the string broke); a
    reward tile among them that is not paused holds one of its strings."""
    S = game.S
    ent = game.st.ent
    held = {int(ent.tick_tile[c]), int(ent.tick_tile_2nd[c])}
    for ticks, tile in ((ent.ticks, ent.tick_tile), (ent.ticks_2nd, ent.tick_tile_2nd)):
        if ticks[c] != 0:
            assert any(tile[c] == t + 1 for t, _ in tiles), "ticks kept after the string broke"
    for t, paused in tiles:
        if S.tile_fx[2 * t, L.FX_OP] != 0 and not paused and ent.kind[c] <= L.K_SUMMONED:
            assert t + 1 in held, "a turn ended in a reward tile banked no tick there"


def play_checked(game, policies, max_decisions: int = 20_000, watch=None) -> None:
    """Play ``game`` to its end, ``policies[team]`` deciding for each team, checking the
    invariants before the first decision and across and after every one (step_checked,
    check_invariants); fails unless the game ends within ``max_decisions`` ("every game
    ends"). ``watch(game)``, if given, is called before the first decision and after every one
    (an observer of what the game reaches: it reads the state and must not change it)."""
    check_invariants(game)
    if watch is not None:
        watch(game)
    for _ in range(max_decisions):
        if game.terminal:
            break
        step_checked(game, policies[int(game.st.ent.team[game.current])])
        check_invariants(game)
        if watch is not None:
            watch(game)
    assert game.terminal, "every game ends"
