"""A tile that specifies a revive (book l.248: "A revive is caused by an ability or a tile that
specifies one. Nothing else brings a character back."), as an interactable and as a reward, on a
designer's variant of cards/tiles.toml. Whom it brings back is a house ruling (rules.toml [game]
``tile_revive``, docs/rulings.md "A tile's revive"): the dead teammate with the highest maximum
health ("strongest", the first in card order on a tie) or the first in card order ("first"),
where it fell ("A revived character returns at full health"; l.250 "at the point of
occurrence", else the team's Spawn)."""

from __future__ import annotations

import pytest

from sim.catalogue.diagnostics import InputError
from sim.catalogue.loader import load_catalogue
from sim.engine.rules.death import _kill
from sim.engine.state import fields as L
from sim.ai.tile_values import _best_tile_action, _reward_worth
from tests._engine_kit import EXAMPLE_TEAMS, fresh_cards, new_game_with
from tests._tiles_kit import TILES, end_turn_of, interact, interact_actions, space, where, BOARD

# the Fortress of Solitude's interactable (the Kryptonian Crystal) revives for 1 coin; the
# Concert Stage's reward (the Encore) revives after 1 tick
CRYSTAL = ("tiles.toml", 'name = "Kryptonian Crystal"\neffect = "learn"',
           'name = "Kryptonian Crystal"\neffect = "revive"\nprice = 1')
ENCORE = ("tiles.toml", 'name = "Encore"\nticks = 2\neffect = "extra_action"\nparams = { amount = 1 }',
          'name = "Encore"\nticks = 1\neffect = "revive"')
FIRST = ("rules.toml", 'tile_revive = "strongest"', 'tile_revive = "first"')


def _game(*extra):
    """Team 1's first decision on the tile kit's board, every character on its team's first
    spawn space, on the variant cards (the Crystal and the Encore revive)."""
    game = new_game_with((CRYSTAL, ENCORE) + extra, BOARD, 2, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:
            ent.space[e] = int(game.S.spawn_space[ent.team[e], 0])
    return game, game.current


def _teammates(game, c):
    """``c``'s teammates (characters in play), in card order."""
    ent = game.st.ent
    return [e for e in range(ent.shape[0])
            if ent.team[e] == ent.team[c] and e != c and ent.kind[e] == L.K_CHARACTER]


def _two_dead(game, c):
    """Kill two of ``c``'s teammates, the later in card order the stronger: (weaker, stronger)."""
    ent = game.st.ent
    weak, strong = _teammates(game, c)[:2]
    ent.max_health[weak], ent.max_health[strong] = 50, 90
    spots = {}
    for e in (weak, strong):
        ent.space[e] = space("Fortress of Solitude", 0, 4 if e == weak else 3)
        spots[e] = int(ent.space[e])
        _kill(game.st, game.S, e, -1, L.BY_ATTACK)
        assert ent.alive[e] == 0
    return weak, strong, spots


def test_a_revive_interactable_brings_back_the_strongest_teammate_where_it_fell():
    """The Crystal used ("by spending an action") with two teammates dead: the one with the
    higher maximum health comes back at full health where it fell; the other stays dead; the
    price is paid in the team's coins. With no one dead there is nothing to use."""
    game, c = _game()
    st, ent = game.st, game.st.ent
    ent.space[c] = space("Fortress of Solitude", 1, 2)  # beside the interactable piece
    st.game.coins[0] = 3
    assert interact_actions(game) == []  # no teammate dead: the revive is not offered
    weak, strong, spots = _two_dead(game, c)
    assert interact_actions(game) == [int(ent.space[c])]
    game.apply(interact(game, int(ent.space[c])))
    assert ent.alive[strong] == 1 and ent.health[strong] == 90
    assert ent.space[strong] == spots[strong] and ent.alive[weak] == 0
    assert ent.acted[c] == 1 and st.game.coins[0] == 2 and st.game.revives == 1


def test_the_first_ruling_brings_back_the_first_in_card_order():
    """rules.toml ``tile_revive = "first"``: the first dead teammate in card order, whatever its
    health."""
    game, c = _game(FIRST)
    st, ent = game.st, game.st.ent
    ent.space[c] = space("Fortress of Solitude", 1, 2)
    st.game.coins[0] = 1
    weak, strong, _ = _two_dead(game, c)
    game.apply(interact(game, int(ent.space[c])))
    assert ent.alive[weak] == 1 and ent.alive[strong] == 0


def test_a_revive_reward_waits_for_someone_to_bring_back():
    """The Encore as a revive reward: "Ticks are spent at the end of your turn"; with no one to
    bring back the reward is not given and its tick stays banked; once a teammate is dead the
    next turn ended there revives it and spends the tick."""
    game, c = _game()
    st, ent = game.st, game.st.ent
    stage = TILES.find("Concert Stage")
    ent.space[c] = space("Concert Stage", 2, 1)
    end_turn_of(game, c)
    assert ent.ticks[c] == 1 and ent.tick_tile[c] == stage + 1 and st.game.revives == 0
    mate = _teammates(game, c)[0]
    ent.space[mate] = space("Concert Stage", 2, 0)
    _kill(st, game.S, mate, -1, L.BY_ATTACK)
    end_turn_of(game, c)
    assert ent.alive[mate] == 1 and ent.health[mate] == ent.max_health[mate]
    assert ent.ticks[c] == 1 and st.game.revives == 1  # two banked, one spent


def test_greedy_values_a_revive_as_the_ability_does():
    """Greedy's worth of the Crystal: nothing with no one dead; with two dead, the ability's value
    of the revive (a kill undone plus the health returned: ``values._revive_value``) for the
    teammate the rules bring back, less its price; and greedy's tile action is the revive."""
    game, c = _game()
    st, ent, S = game.st, game.st.ent, game.S
    k = 2 * TILES.find("Fortress of Solitude") + 1
    assert _reward_worth(st, S, c, k) == 0.0
    ent.space[c] = space("Fortress of Solitude", 1, 2)
    st.game.coins[0] = 1
    _, strong, _ = _two_dead(game, c)
    worth = S.fp[L.W_KILL] + S.fp[L.W_DAMAGE] * 90
    assert _reward_worth(st, S, c, k) == pytest.approx(worth)
    mask = game.legal_mask()
    score, action = _best_tile_action(st, S, c, mask)
    assert action == interact(game, int(ent.space[c])) and score > 0


def test_a_tile_revive_validates_like_every_function(tmp_path):
    """effect = "revive" loads as a reward and as an interactable (its row the revive's opcode,
    aimed at a dead teammate); a parameter it does not read and an unknown rules value are each
    one located line."""
    cat = load_catalogue(fresh_cards((CRYSTAL, ENCORE)))
    t = cat.tiles.find("Fortress of Solitude")
    assert cat.tiles.fx[2 * t + 1, L.FX_OP] == L.OP_REVIVE
    assert cat.tiles.fx[2 * t + 1, L.FX_TARGET] == L.T_DEAD_ALLY
    s = cat.tiles.find("Concert Stage")
    assert cat.tiles.fx[2 * s, L.FX_OP] == L.OP_REVIVE
    bad = fresh_cards((("tiles.toml", CRYSTAL[1], CRYSTAL[2] + "\nparams = { amount = 3 }"),))
    with pytest.raises(InputError) as err:
        load_catalogue(bad)
    lines = str(err.value).strip().splitlines()
    assert len(lines) == 1 and "tiles.toml:" in lines[0] and "amount" in lines[0], lines
    bad = fresh_cards((("rules.toml", FIRST[1], 'tile_revive = "oldest"'),))
    from sim.catalogue.game_rules import load_game_rules
    with pytest.raises(InputError) as err:
        load_game_rules(bad)
    assert "tile_revive" in str(err.value) and "strongest, first" in str(err.value)
    assert where("Fortress of Solitude") >= 0
