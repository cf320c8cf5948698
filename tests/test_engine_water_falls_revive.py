"""Falls and the revive's second form in play: in the terrain draft (opt-in ``[variants]
terrain_draft``, not the rulebook) damage on a platform edge or a ladder may make a fall, no
default tile makes one, the switch changes only the draft tiles and the ground is safe; and
"The player may choose whether the revive occurs at the point of occurrence, or back in the
team's Spawn".

Each case puts a character beside the water, a wall, a platform edge or a ladder of board 1 and
acts through the engine interface; each case quotes its rule."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from sim.ai.play import play_game
from sim.catalogue.tile_layout import DOOR, GAP, LADDER, OPEN, PLATFORM, WALL
from sim.catalogue.variants import draft_tiles
from sim.engine.state import fields as L
from sim.engine.rules.death import _harm, _kill
from sim.engine.log.record import new_game as record_game
from sim.engine.rules.terrain import _landing
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, TERRAIN_DRAFT, catalogue_with, events
from tests._water_kit import RULES, beside_water, water_game


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
    assert not np.isin(tiles.edge_e, (GAP, DOOR)).any() \
        and not np.isin(tiles.edge_s, (GAP, DOOR)).any()
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
