"""Group Attacks in play, one scenario per rule: every character of the example teams stands on
one spawn space of board 1 (range 0, in sight of each other), Team 1's first character declares
a Group Attack through the engine interface, and the outcome the book and ``rules.toml
[group_attack] order`` ask for is asserted. The ruling is read from the data: the same scenario
on a copy of cards/ with ``order = "declared"`` (tests/_engine_kit.cards_with) plays differently.
"""

from __future__ import annotations

import numpy as np

from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, events, new_game, new_game_with

BOARD, SEED = 1, 2
DECLARED = (("rules.toml", 'order = "sequential"', 'order = "declared"'),)


def crowded(edits=()):
    """Team 1's first decision, every character on Team 1's first spawn space; the decider's
    star is 20 attacks on every point (a kill of a 1-health target is certain in practice)."""
    game = (new_game_with(edits, BOARD, SEED, EXAMPLE_TEAMS.cards) if edits
            else new_game(BOARD, SEED, EXAMPLE_TEAMS.cards))
    ent = game.st.ent
    here = int(game.S.spawn_space[0, 0])
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:
            ent.space[e] = here
    c = game.current
    ent.atk[c] = 20
    return game, c


def group_action(game, d):
    return game.action("group_attack", d)


def team_rows(game, team):
    ent = game.st.ent
    return np.flatnonzero((ent.team == team) & (ent.kind == L.K_CHARACTER))




def enemy(game):
    return int(team_rows(game, 1)[0])


def test_a_group_attack_is_offered_with_every_attack_while_a_teammate_can_join():
    """"Multiple of your characters can choose to attack the same target at once, this is called
    a 'Group Attack'": a group attack on an entity is legal exactly where attacking it is, while
    a teammate with its action could join; with none left, only the lone attack."""
    game, c = crowded()
    mask = game.legal_mask()
    attacks, groups = mask[game.block("attack")], mask[game.block("group_attack")]
    assert attacks.any() and np.array_equal(attacks, groups)
    game.st.ent.acted[team_rows(game, 0)] = 1
    game.st.ent.acted[c] = 0
    mask = game.legal_mask()
    assert mask[game.block("attack")].any() and not mask[game.block("group_attack")].any()


def test_every_declared_attacker_throws_in_order_while_the_target_stands():
    """The group is the declarer and every teammate that can attack the target from where it
    stands; they resolve one at a time, the declarer first, then in card order, each spending
    its action ("You attack an entity by spending the attacking character's action")."""
    game, c = crowded()
    d = enemy(game)
    ent = game.st.ent
    ent.health[d] = ent.max_health[d] = 100_000
    mates = [int(e) for e in team_rows(game, 0)]
    game.apply(group_action(game, d))
    (group,) = game.named_events("group attack")
    assert (group["attacker"], group["target"], group["attackers"]) == (c, d, len(mates))
    throws = game.named_events("attack")
    assert [ev["attacker"] for ev in throws] == [c] + [e for e in mates if e != c]
    assert all(ev["defender"] == d for ev in throws) and (ent.acted[mates] == 1).all()


def test_the_group_attack_order_ruling_is_read_from_rules_toml():
    """House ruling ``[group_attack] order`` (docs/rulings.md) completing "Once an attack has
    started, there is no going back": the declarer kills the target with its throw; under
    "sequential" (the shipped default) the other declared attackers keep their actions, under
    "declared" (a copy of cards/ with that one line changed) every one of them spends it."""
    outcomes = {}
    for name, edits in (("sequential", ()), ("declared", DECLARED)):
        game, c = crowded(edits)
        d = enemy(game)
        ent = game.st.ent
        ent.health[d] = 1
        ent.defense[d] = 0
        others = [int(e) for e in team_rows(game, 0) if e != c]
        game.apply(group_action(game, d))
        assert ent.alive[d] == 0 and len(events(game, L.EV_ATTACK)) == 1
        late = events(game, L.EV_GROUP_LATE)
        assert late[:, 2].tolist() == others
        outcomes[name] = (ent.acted[others].tolist(), late[:, 4].tolist())
    assert CATALOGUE.rules.group_order == "sequential"
    assert outcomes["sequential"] == ([0] * 4, [0] * 4)
    assert outcomes["declared"] == ([1] * 4, [1] * 4)
