"""Conformance suite, run over every built-in policy: what any player must honour to be trusted
in a balance verdict.

1. only legal actions, whatever the position (a whole game stepped through the engine
   interface, every choice checked against ``legal_mask``);
2. same seed, same game — and the jitted loop (``Game.play``, ``play_many`` on any number of
   threads) plays exactly the game stepped from Python;
3. no state mutation outside ``apply``: choosing leaves every array of the state as it was (the
   game's random stream excepted for a policy that draws from it: ``random``);
4. terminates within its budget (the look-ahead's simulations and simulated decisions are
   counted), and every game ends;
5. reads no hidden position: an invisible opponent moved elsewhere changes no choice ("its
   position stays concealed for as long as the effect holds").
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from sim.ai.play import play_game
from sim.ai.policy import by_name
from sim.ai.spec import BUDGETED, parse_policy
from sim.engine.state import fields as L
from sim.engine.state.game_state import STATE_FIELDS
from sim.engine.state.decision import DECISION_FIELDS, POLICY_SCRATCH
from tests._engine_kit import CARDS, CATALOGUE, new_game, setup_for

# every policy the engine knows, the look-ahead at a small budget (the suite's cost), and greedy
# with the tuned weights of experiments/greedy_tuned.toml (issue #25: a player of its own)
TUNED = Path(__file__).resolve().parents[1] / "experiments" / "greedy_tuned.toml"
POLICIES = [f"{name}:4" if L.POLICY_IDS[name] in BUDGETED else name for name in L.POLICY_IDS] + [
    f"greedy:weights={TUNED}", f"lookahead:4:weights={TUNED}"]
DRAWS_FROM_STREAM = {"random"}  # policies whose choice advances the game's random stream


def test_every_engine_policy_is_in_the_suite():
    assert {parse_policy(p).id for p in POLICIES} == set(L.POLICY_IDS.values())


def _snapshot(st) -> dict:
    """Every state array, the decision's fields each on their own ("decision.reach_cost")."""
    out = {f: getattr(st, f).copy() for f in STATE_FIELDS if f != "decision"}
    out.update({f"decision.{f}": np.copy(getattr(st.decision, f)) for f in DECISION_FIELDS
                if f not in POLICY_SCRATCH})  # greedy's own scratch (decision.py)
    return out


def _stepped_game(spec: str, board: int, seed: int, *, check=None):
    """A whole game with ``spec`` for teams 1 and 3 and greedy for 2 and 4 (mixed tables are
    where a look-ahead's model of the others is tested), stepped decision by decision."""
    policy, greedy = by_name(spec), by_name("greedy")
    game = new_game(board, seed)
    players = [policy, greedy, policy, greedy]
    while not game.terminal:
        team = int(game.st.ent.team[game.current])
        if check is not None:
            check(game, players[team])
        else:
            game.apply(players[team].choose(game))
    return game


@pytest.mark.parametrize("spec", POLICIES)
def test_only_legal_actions_and_no_mutation_outside_apply(spec):
    label = parse_policy(spec).label
    decisions = [0]

    def check(game, player):
        mask = game.legal_mask().copy()
        before = _snapshot(game.st)
        a = player.choose(game)
        assert 0 <= a < mask.size and mask[a], f"{spec} chose illegal action {a}"
        after = _snapshot(game.st)
        for f in before:
            if f == "rng" and player.name in DRAWS_FROM_STREAM:
                continue
            assert np.array_equal(before[f], after[f]), f"{player.name} changed st.{f}"
        if player.name == label:
            decisions[0] += 1
        game.apply(a)

    game = _stepped_game(spec, 11, 5, check=check)
    assert game.terminal and game.result().reason != "running"
    assert decisions[0] > 20


@pytest.mark.parametrize("spec", POLICIES)
def test_same_seed_same_game_stepped_or_jitted(spec):
    """Stepped from Python twice, and played in the jitted loop: one event log."""
    p = parse_policy(spec)
    a = _stepped_game(spec, 12, 8)
    b = _stepped_game(spec, 12, 8)
    assert np.array_equal(a.event_rows(), b.event_rows())
    c = new_game(12, 8)
    play_game(c, [p.id, L.GREEDY, p.id, L.GREEDY], [p.budget, 0, p.budget, 0],
              [p.weights, None, p.weights, None])
    assert np.array_equal(a.event_rows(), c.event_rows())


@pytest.mark.parametrize("spec", POLICIES)
def test_play_many_is_bit_identical_whatever_the_threads(spec):
    import numba

    from sim.catalogue.teams import random_teams
    from sim.ai.play import play_many
    from sim.engine.state.static_tables import stack_setups

    p = parse_policy(spec)
    stacked = stack_setups([setup_for(100 + b) for b in range(2)])
    rng = np.random.default_rng(3)
    teams = np.stack([random_teams(len(CATALOGUE.cards), rng) for _ in range(6)])

    def run():
        return play_many(stacked, CARDS, np.arange(6) % 2, teams, 99, [p.id, L.GREEDY] * 2,
                         seats=np.arange(6) % 4, budgets=[p.budget, 0] * 2, per_card=True,
                         weights=[p.weights, None] * 2)

    before = numba.get_num_threads()
    first = run()
    numba.set_num_threads(1)
    try:
        second = run()
    finally:
        numba.set_num_threads(before)
    for x, y in zip(first, second):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("budget", [1, 2, 5, 16, 40])
def test_lookahead_stays_within_its_budget(budget):
    """At most ``budget`` simulations per decision, each at most ``PLAYOUT_CAP`` decisions."""
    from sim.ai.lookahead import PLAYOUT_CAP, _horizon, _search
    from sim.engine.rules.legal import _legal

    game = new_game(13, 2, log=False)
    greedy = by_name("greedy")
    searched = 0
    while not game.terminal and searched < 30:
        mask = np.zeros(game.n_actions, np.bool_)
        count = _legal(game.st, game.S, mask)
        if count > 1 and game.st.ent.team[game.current] == 0:
            stats = np.zeros(2, np.int64)
            a = _search(game.st, game.S, mask, np.int64(budget), _horizon(budget, False), stats)
            assert mask[a]
            assert stats[0] <= budget and stats[1] <= stats[0] * PLAYOUT_CAP
            searched += 1
            game.apply(int(a))
        else:
            game.apply(greedy.choose(game))
    assert searched == 30


def test_lookahead_with_budget_one_is_greedy():
    """``budget < 2`` runs no simulation: greedy's choice, decision for decision."""
    a = new_game(14, 3)
    play_game(a, [L.LOOKAHEAD, L.GREEDY, L.LOOKAHEAD, L.GREEDY], [1, 0, 1, 0])
    b = new_game(14, 3)
    play_game(b, [L.GREEDY] * 4)
    assert np.array_equal(a.event_rows(), b.event_rows())


@pytest.mark.parametrize("spec", POLICIES)
def test_no_policy_sees_the_face_down_apocalypse(spec):
    """"A single Apocalypse Tile must be in play in every game, spawning face-down": two games
    alike but for the Apocalypse in play are played alike until it is revealed (the look-ahead
    draws its own until then), or until a team learns it (a tile's ``learn``: docs/tiles.md)."""
    p = parse_policy(spec)
    logs = []
    for apocalypse in (0, 1):
        game = new_game(15, 4, apocalypse=apocalypse)
        play_game(game, [p.id, L.GREEDY, p.id, L.GREEDY], [p.budget, 0, p.budget, 0],
                  [p.weights, None, p.weights, None])
        rows = game.event_rows()
        reveal = np.flatnonzero(rows[:, 0] == L.EV_REVEAL)
        assert reveal.size == 1
        learn = np.array([k for k, ev in enumerate(game.named_events()) if ev["event"] ==
                          "interactable" and ev["effect"] == L.OP_LEARN], np.int64)
        logs.append(rows[: min(reveal[0], learn[0] if learn.size else reveal[0])])
    assert len(logs[0]) > 100 and np.array_equal(logs[0], logs[1])


def test_the_lookahead_searches_alike_whichever_apocalypse_lies_face_down():
    """"A single Apocalypse Tile must be in play in every game, spawning face-down": the
    look-ahead's play-outs draw their own Apocalypse while it is face-down and the team has not
    learned it. Decisions one death (or one rotation) before the reveal, where play-outs of a
    whole rotation (``turns`` 4) cross it, are searched with each Apocalypse in turn as the true one: same action, same simulations,
    same simulated decisions. Power: with the draw removed (the play-outs use the true one), the
    searches differ in most such decisions (4 of 5 measured where the team knows it), and a single
    difference in the eight fails the test."""
    from sim.ai.lookahead import _search
    from sim.engine.rules.legal import _legal
    from sim.engine.state.game_state import _clone
    from sim.engine.tiles.functions import _knows_apocalypse

    greedy = by_name("greedy")
    compared = 0
    for board in range(15, 40):
        game = new_game(board, 4, log=False)
        S = game.S
        while not game.terminal and game.st.game.revealed == 0 and compared < 8:
            st0 = game.st
            near = (st0.game.rotation >= S.ip[L.P_REVEAL_ROTATION] - 1
                    or st0.game.deaths >= S.ip[L.P_REVEAL_DEATHS] - 1)
            if near and not _knows_apocalypse(st0, st0.ent.team[game.current]):
                searches = set()
                for apocalypse in range(S.apoc_code.shape[0]):
                    st = _clone(st0)
                    st.game.apoc = apocalypse
                    mask = np.zeros(game.n_actions, np.bool_)
                    _legal(st, S, mask)
                    stats = np.zeros(2, np.int64)
                    searches.add((int(_search(st, S, mask, np.int64(8), np.int64(4), stats)),
                                  *stats.tolist()))
                assert len(searches) == 1, (board, searches)
                compared += 1
            game.apply(greedy.choose(game))
        if compared >= 8:
            break
    assert compared == 8


@lru_cache(maxsize=1)  # one game for every policy's probe: its states are cloned before use
def _probe_games():
    """Decisions of team 1 in a greedy game (every third, up to 24), each with an opponent
    character and the decider's space (where the probe moves the opponent: in plain sight and
    range, a position no policy can ignore)."""
    from sim.engine.state.game_state import _clone

    game = new_game(11, 5)
    greedy = by_name("greedy")
    probes = []
    k = 0
    while not game.terminal and len(probes) < 24:
        st = game.st
        ent = st.ent
        if ent.team[game.current] == 0 and ent.space[game.current] >= 0:
            foes = np.flatnonzero((ent.team == 2) & (ent.alive != 0)
                                  & (ent.kind == L.K_CHARACTER) & (ent.riding == 0))
            here = ent.space[game.current]
            if foes.size and k % 3 == 0 and ent.space[foes[0]] != here:
                probes.append((_clone(st), int(foes[0]), int(here)))
            k += 1
        game.apply(greedy.choose(game))
    return game, probes


def _hidden_and_moved(st, foe, elsewhere):
    """Two copies of ``st`` with ``foe`` invisible (last seen where it stands), the second with
    its true position moved to ``elsewhere``: what it would take to read a hidden position."""
    from sim.engine.state.game_state import _clone

    hidden = _clone(st)
    hidden.ent.invisible[foe] = 99 * L.CLOCKS + 1
    hidden.game.invisible_rows += 1  # as timed_states._set_one counts it (fields.INVISIBLE_ROWS)
    hidden.ent.seen[foe] = hidden.ent.space[foe]
    moved = _clone(hidden)
    moved.ent.space[foe] = elsewhere
    return hidden, moved


@pytest.mark.parametrize("spec", POLICIES)
def test_no_policy_reads_an_invisible_opponents_position(spec):
    """"its position stays concealed for as long as the effect holds": moving an invisible
    opponent's true position leaves every choice unchanged, while moving a visible one changes
    some (the probe can see a position when one is shown)."""
    from types import SimpleNamespace

    from sim.engine.state.game_state import _clone

    player = by_name(spec)
    game, probes = _probe_games()
    assert len(probes) >= 12

    def choose(st):
        return player.choose(SimpleNamespace(st=_clone(st), S=game.S, n_actions=game.n_actions))

    seen_moved = 0
    for st, foe, elsewhere in probes:
        hidden, moved = _hidden_and_moved(st, foe, elsewhere)
        assert choose(hidden) == choose(moved), f"{spec} read a hidden position"
        shown = _clone(st)
        shown.ent.space[foe] = elsewhere
        seen_moved += choose(st) != choose(shown)
    if spec != "random":  # random reads no position at all
        assert seen_moved > 0


def test_the_invisibility_probe_catches_a_policy_that_reads_the_true_state():
    """The probe above has power: greedy's kernel called on the true state, without the
    observation (sim/ai/observe.py), changes its choice when the hidden opponent moves."""
    from sim.ai.greedy import _greedy_action
    from sim.engine.rules.legal import _legal

    game, probes = _probe_games()
    changed = 0
    for st, foe, elsewhere in probes:
        choices = []
        for x in _hidden_and_moved(st, foe, elsewhere):
            mask = np.zeros(game.n_actions, np.bool_)
            _legal(x, game.S, mask)
            choices.append(_greedy_action(x, game.S, mask))
        changed += choices[0] != choices[1]
    assert changed > 0
