"""The team chooses its characters' order (sim/engine/rules/order.py; docs/rulings.md, "Order inside a
team's turn").

Book: "Every character has 1 action every turn"; "A player may choose to end their turn before
using all of their actions"; nothing fixes which character goes first. House ruling: characters
act one at a time, each finishing before the next, and a character that has done nothing yet may
hand the turn to a teammate; placement comes first ("All five characters go down at once, before
anything else in that turn happens").
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from sim.ai.policy import by_name, play
from sim.engine.state import fields as L
from tests._engine_kit import EXAMPLE_TEAMS, new_game


def _after_placement(seed: int = 2):
    """Team 1's first turn with its five characters placed: nobody has acted yet."""
    game = new_game(1, seed, EXAMPLE_TEAMS.cards)
    greedy = by_name("greedy")
    while game.st.ent.space[game.current] < 0:
        assert game.st.ent.team[game.current] == 0
        mask = game.legal_mask()
        # no hand-over while placing ("before anything else")
        assert not mask[game.block("hand_over")].any()
        game.apply(greedy.choose(game))
    return game


def _hand(game, e):
    return game.action("hand_over", e)


def _team_rows(game, team=0):
    ent = game.st.ent
    return [e for e in range(ent.shape[0]) if ent.team[e] == team and ent.alive[e] != 0
            and ent.kind[e] == L.K_CHARACTER]


def test_any_order_of_the_five_characters_can_be_played():
    """Every one of the 120 orders of team 1's characters is reached by hand-overs, each
    character finishing before the next, with at most four hand-overs."""
    base = _after_placement()
    rows = _team_rows(base)
    assert len(rows) == 5 and base.current == rows[0]
    for order in permutations(rows):
        game = _after_placement()
        played = []
        for target in order:
            if game.current != target:
                game.apply(_hand(game, target))
                assert game.current == target
            played.append(game.current)
            game.apply(L.END)
        assert played == list(order)
        hands = game.event_rows()
        assert (hands[:, 0] == L.EV_HAND).sum() <= 4
        assert game.st.ent.team[game.current] == 1  # the turn passed on


def test_hand_over_only_before_acting_and_only_to_teammates_still_to_act():
    game = _after_placement()
    rows = _team_rows(game)
    c = game.current
    mask = game.legal_mask()
    offered = {e for e in range(game.st.ent.shape[0]) if mask[_hand(game, e)]}
    assert offered == set(rows) - {c}  # not itself, not an opponent, not a CPU
    game.apply(_hand(game, rows[2]))
    game.apply(L.END)  # rows[2] has finished: no longer offered
    assert game.current == c
    mask = game.legal_mask()
    assert not mask[_hand(game, rows[2])] and mask[_hand(game, rows[1])]
    moves = np.flatnonzero(mask[game.block("move")])
    assert moves.size > 0
    game.apply(game.action("move", moves[0]))  # once it has moved it keeps the turn until it ends
    mask = game.legal_mask()
    assert not mask[game.block("hand_over")].any()


def test_hand_overs_per_turn_are_bounded_so_every_turn_ends():
    """Random play hands over whenever it likes: never more than the team's members able to act
    (characters, minions, clones), less one, in a team turn (the count left falls by one each time and never below 0), and
    every game ends."""
    for seed in range(3):
        game = new_game(3, seed)
        result = play(game, [by_name("random")] * 4)
        assert result.reason != "running"
        ev = game.event_rows()
        turns = np.flatnonzero(ev[:, 0] == L.EV_TURN)
        hands = np.flatnonzero(ev[:, 0] == L.EV_HAND)
        assert hands.size > 0
        turn_of = np.searchsorted(turns, hands) - 1
        left = np.array([e["left"] for e in game.named_events("hand over")])
        assert left.min() >= 0
        same = turn_of[1:] == turn_of[:-1]
        assert np.all(left[1:][same] == left[:-1][same] - 1)


def test_greedy_lets_a_teammate_that_can_strike_go_first():
    """Greedy (sim/ai/order_values.py): a character with no opponent within its range and
    nothing to do but move hands the turn to a teammate that has one."""
    game = _after_placement()
    st, ent = game.st, game.st.ent
    rows = _team_rows(game)
    c, striker = rows[0], rows[3]
    foe = int(np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[0])
    ent.space[foe] = int(game.S.spawn_space[1, 0])
    ent.space[striker] = ent.space[foe]  # range 0: the foe on its own space
    for e in rows:  # nobody else has an opponent within range 0 on the team's own spawn
        ent.range[e] = 0
    ent.ab_used[c] = 1  # nothing but moving for c
    assert st.game.hands_left == 4
    assert by_name("greedy").choose(game) == _hand(game, striker)
    ent.space[striker] = ent.space[c]  # no one can strike: c goes on itself
    assert by_name("greedy").choose(game) != _hand(game, striker)


def test_the_card_order_alternative_offers_no_hand_over():
    """docs/rulings.md, "Order inside a team's turn": the alternative `turn_order = "card"` (the
    ruling before issue #20) is data, not code: with it no hand-over is ever legal and every team
    turn runs in card order, while the book default's random games hand over (the test above)."""
    from tests._engine_kit import new_game_with

    edits = (("rules.toml", 'turn_order = "hand_over"', 'turn_order = "card"'),)
    for seed in range(3):
        game = new_game_with(edits, 3, seed, EXAMPLE_TEAMS.cards)
        seen = 0
        while game.current >= 0 and seen < 3000:
            assert not game.legal_mask()[game.block("hand_over")].any()
            game.apply(by_name("random").choose(game))
            seen += 1
        assert game.st.game.over == 1
        assert not (game.event_rows()[:, 0] == L.EV_HAND).any()
