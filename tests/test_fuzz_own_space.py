"""Fuzzing ``[board] attack_own_space = false`` (stop 72; docs/rulings.md, "Spaces hold any number
of entities": "an attack, a vehicle's weapon, a Group Attack's members and a CPU's attack on the
GM Turn need the enemy at least one space away (range 1 or more; the far piece of a portal one
stands on counts as one's own space; abilities keep their own ranges)"), alone and combined with
the other alternatives of experiments/rulings.toml and a few switches that touch sight, CPUs and
terrain.

One failure, fixed (the first test, written as a strict xfail and failing on the engine before
the fix): a Group Attack's member threw at a target that a fall, caused by an earlier member's
throw of the same group, brought onto the member's own space; each member's reach is now checked
as its throw comes (``attack._group_attack``). The property tests after it are the fuzzing's
checks made small: each failed would have flagged a departure from the ruling.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.play import R_DEATHS, R_REASON, _choose
from sim.catalogue.teams import random_teams
from sim.catalogue.tile_layout import PLATFORM
from sim.engine.rules.cpu import _cpu_target
from sim.engine.rules.legal import _legal
from sim.engine.rules.terrain import _landing
from sim.engine.rules.turn import _apply
from sim.engine.state import fields as L
from tests._engine_kit import (CATALOGUE, EXAMPLE_TEAMS, new_game_with,
                               play_variant)

R = "rules.toml"
OFF = ((R, "attack_own_space = true", "attack_own_space = false"),)
DRAFT = ((R, "terrain_draft = false", "terrain_draft = true"),)
PORTAL_IS_BOUNDARY = ((R, "portal_is_boundary = false", "portal_is_boundary = true"),)
# the alternatives that touch sight, the CPUs and the group together (one rule set)
MIXED = PORTAL_IS_BOUNDARY + (
    (R, 'sight_lines = "any_angle"', 'sight_lines = "compass"'),
    (R, 'cpu_leash = "tile"', 'cpu_leash = "none"'),
    (R, "cpus_act_during_apocalypse = false", "cpus_act_during_apocalypse = true"),
    (R, 'order = "sequential"', 'order = "declared"'),
)
BLOCKS = ("attack", "vehicle_weapon", "group_attack")


class Setup(RuntimeError):
    """The scenario did not arise (not the failure the test checks)."""


def test_a_group_member_never_throws_at_a_target_that_fell_onto_its_space():
    """attack_own_space = false with the terrain draft (falls in play). The alternative: "a Group
    Attack's members ... need the enemy at least one space away" (docs/rulings.md, "Spaces hold
    any number of entities"; book l.106 "Range determines how close you need to be in order to
    attack an enemy", l.158 "Multiple of your characters can choose to attack the same target at
    once"). The declarer and a teammate stand on the ground space next to a platform edge (range
    1 of it), the target on the edge; the declarer's hit makes the target fall ("On a 1: The
    fighter falls", terrain draft) onto that ground space, the first in the fall order. The
    teammate was a member at the declaration and throws anyway, at an enemy on its own space.
    Minimal: board 0, game seed 14 (the fall's die shows 1 after the declarer's throw); both
    characters' throws are made (the target has a million health)."""
    game = new_game_with(OFF + DRAFT, 0, 14, EXAMPLE_TEAMS.cards)
    st, ent = game.st, game.st.ent
    edges = [int(s) for s in np.flatnonzero((st.feature == PLATFORM) & (st.tile_pos >= 0))
             if _landing(st, s) >= 0]
    edge = edges[0]
    ground = int(_landing(st, edge))  # where a fall from the edge lands
    c = game.current
    team = ent.team[c]
    mate = int(next(e for e in np.flatnonzero((ent.team == team) & (ent.kind == L.K_CHARACTER))
                    if e != c))
    d = int(np.flatnonzero((ent.team != team) & (ent.team >= 0)
                           & (ent.kind == L.K_CHARACTER))[0])
    ent.space[c] = ent.space[mate] = ground
    ent.space[d] = edge
    ent.range[c] = ent.range[mate] = 3
    ent.atk[c, :] = 30  # the declarer's throw hits: damage is allocated, the fall is rolled
    ent.defense[d] = 0
    ent.health[d] = ent.max_health[d] = 10**6
    if not game.legal_mask()[game.action("group_attack", d)]:
        raise Setup("the group attack is not offered from the ground space")
    since = int(st.game.nev)
    game.apply(game.action("group_attack", d))
    events = game.named_events("group attack", "attack", "fall", "group attack, target gone",
                               since=since)
    if events[0]["attackers"] != 2:
        raise Setup(f"the group is {events[0]['attackers']} strong, not the declarer and its mate")
    falls = [i for i, ev in enumerate(events) if ev["event"] == "fall"]
    if not (falls and events[falls[0]]["to"] == ground):
        raise Setup("no fall onto the mate's space (the seed's dice changed)")
    assert int(ent.space[d]) == int(ent.space[mate]) == ground
    throws = [i for i, ev in enumerate(events)
              if ev["event"] == "attack" and ev["attacker"] == mate]
    assert not throws, (f"member {mate} threw at {d} on its own space {ground} (range 0) "
                        "under attack_own_space = false")
    (gone,) = [ev for ev in events if ev["event"] == "group attack, target gone"]
    assert (gone["entity"], gone["target"], gone["dead"]) == (mate, d, 0)
    assert ent.acted[mate] == 0  # order = "sequential": it keeps its action, as for a dead target


def _own(st, s):
    """The spaces at range 0 of ``s``: itself and the far piece of a portal it stands on."""
    return {s} | ({int(st.twin[s])} if s >= 0 and st.twin[s] >= 0 else set())


def _checked_game(edits, board, seed, policies):
    """Play one game under ``edits`` + the alternative, checking at every decision that its legal
    actions are those of the house ruling on the same state (``ip[P_CLOSEST]`` 0) less exactly
    the attacks, weapon shots and Group Attacks whose target stands on one of the mover's
    range-0 spaces (:func:`_own`, from the board's portal links, not from the sight kernel); and
    after it that no CPU on the GM Turn and no Group Attack member threw at an entity on one of
    its range-0 spaces (where each stood is followed through the log's moves and falls). Returns
    the count of entries dropped."""
    teams = random_teams(len(CATALOGUE.cards), np.random.default_rng(seed))
    game = new_game_with(OFF + edits, board, seed, teams)
    book = new_game_with(edits, board, seed, teams).S
    st, S, ent = game.st, game.S, game.st.ent
    assert np.flatnonzero(np.asarray(S.ip) != np.asarray(book.ip)).tolist() == [L.P_CLOSEST]
    n = game.n_actions
    blocks = [game.block(b) for b in BLOCKS]
    dropped, nev = 0, int(st.game.nev)
    for _ in range(20_000):
        if game.terminal:
            break
        c = int(st.game.cur)
        own = _own(st, int(ent.space[c]))
        wide = np.zeros(n, np.bool_)
        _legal(st, book, wide)
        mask = np.zeros(n, np.bool_)
        count = _legal(st, S, mask)  # last: the decision's scratch is the alternative's
        expect = {a for b in blocks for a in range(b.start, b.stop)
                  if wide[a] and int(ent.space[a - b.start]) in own}
        assert not (mask & ~wide).any()
        assert set(np.flatnonzero(wide & ~mask).tolist()) == expect, (board, seed, c)
        dropped += len(expect)
        where = ent.space.copy()
        _apply(st, S, np.int64(_choose(st, S, mask, count, policies[int(ent.team[c])], 4)))
        group = False
        for row in st.ev[nev:int(st.game.nev)]:
            k, a, b = int(row[L.EVC_KIND]), int(row[L.EVC_ARGS]), int(row[L.EVC_ARGS + 1])
            group |= k == L.EV_GROUP
            if k == L.EV_MOVE:
                where[a] = int(row[L.EVC_ARGS + 2])
            elif k == L.EV_FALL:
                where[a] = int(row[L.EVC_ARGS + 2])
                if ent.pilot[a] > 0:
                    where[ent.pilot[a] - 1] = where[a]
            elif k == L.EV_ATTACK and (ent.is_cpu[a] != 0 or group):  # a CPU, a member
                assert int(where[b]) not in _own(st, int(where[a])), (board, seed, a, b)
        nev = int(st.game.nev)
    assert game.terminal, "every game ends"
    assert int(st.game.ev_lost) == 0
    return dropped


@pytest.mark.parametrize("edits,board,seed", [((), 3, 103), (MIXED, 1, 101),
                                              (DRAFT + MIXED, 3, 103)])
def test_random_and_greedy_games_list_the_house_rulings_actions_less_the_range_0_attacks(
        edits, board, seed):
    """Random players (which declare Group Attacks and reach odd corners) beside greedy ones, on
    random teams, alone and combined with portal_is_boundary, compass sight lines, an unleashed
    CPU acting in the Apocalypse, declared group order and the terrain draft (1,400 games of this
    kind checked while fuzzing, compiled, over 24 rule sets: nothing found). Would fail if the
    alternative dropped an attack at range 1 or more, kept one on the far piece of the portal
    the attacker stands on (e.g. a sight kernel pricing the twin at the tile penalty under
    portal_is_boundary), or a CPU struck a character sharing its space (mutants of legal.py and
    cpu.py, interpreted: caught). A teammate joining a group on the target's space is not
    reached by these deals (tests/test_attack_own_space.py sets it up). The deals are picked so
    that a mover stands on a portal piece with an opponent on the far piece (2, 3 and 5
    decisions). ~3 s compiled."""
    policies = np.array([L.RANDOM, L.GREEDY, L.RANDOM, L.GREEDY], np.int64)
    assert _checked_game(edits, board, seed, policies) > 0  # the case is reached


def test_the_far_piece_of_ones_portal_is_ones_own_space_under_portal_is_boundary():
    """"the far piece of a portal one stands on counts as one's own space" (docs/rulings.md) with
    ``portal_is_boundary = true`` too (where a line going on out of the far piece pays a tile
    penalty): a character on piece 792 of board 0 may not attack, nor a CPU there strike, an
    opponent on its twin 972; one on the far piece's neighbour 936 (range 1, tests/
    test_fuzz_alternatives.py) may be attacked by both."""
    game = new_game_with(OFF + PORTAL_IS_BOUNDARY, 0, 1, EXAMPLE_TEAMS.cards)
    st, S, ent = game.st, game.S, game.st.ent
    piece, far, near = 792, 972, 936
    assert st.twin[piece] == far
    c = game.current
    d = int(np.flatnonzero((ent.team != ent.team[c]) & (ent.team >= 0)
                           & (ent.kind == L.K_CHARACTER))[0])
    ent.space[c], ent.range[c] = piece, 4
    ent.space[(ent.team == ent.team[c]) & (ent.kind == L.K_CHARACTER)] = piece  # may join a group
    for spot, allowed in ((far, False), (near, True)):
        ent.space[d] = spot
        mask = game.legal_mask()
        assert mask[game.action("attack", d)] == allowed, spot
        assert mask[game.action("group_attack", d)] == allowed, spot
        ent.health[d] = 1  # the least health: the CPU's pick whenever it may strike it
        assert (_cpu_target(st, S, np.int64(piece), np.int64(4)) == d) == allowed, spot


def _greedy_endings(edits, games=192, boards=16):
    out = play_variant(edits, [L.GREEDY] * 4, games, boards, 7)
    return np.mean(out[:, R_REASON] == L.STALEMATE), np.mean(out[:, R_DEATHS])


def test_greedy_does_not_stall_under_the_alternative_combined_with_others():
    """Greedy's approach term and press price a space nearer than range 1 like one beyond its
    range (docs/ai.md), so under the alternative it steps off an opponent's space to attack. With
    the sight, CPU and group switches of ``MIXED`` and the terrain draft, on random teams (the
    same deals under both rulings): stalemates stay under a quarter of the games (measured 14 %
    against 11 % under the house ruling on these 192 deals; 16 % against 10 % on 512 of
    ``MIXED``; 13 of 24 games stalled with the term left as it was, stop 72) and deaths per game
    within 10 % of the house ruling's (23.5 against 24.1). ~6 s compiled."""
    edits = DRAFT + MIXED
    stale_book, deaths_book = _greedy_endings(edits)
    stale_alt, deaths_alt = _greedy_endings(OFF + edits)
    assert stale_alt < 0.25, (stale_alt, stale_book)
    assert deaths_alt > 0.9 * deaths_book, (deaths_alt, deaths_book)
