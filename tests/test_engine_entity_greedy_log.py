"""Special entities in greedy's choices and in the log: greedy summons toward the nearest enemy,
the log names special entities, and minions use their creator's items. A small position is set
up as in every entity test (tests/_entities_kit.py), the action is played through the engine
interface, and the outcome the book asks for is asserted. Each test quotes its rule
(docs/entities.md, docs/rules-coverage.md)."""

from __future__ import annotations

import numpy as np

from sim.ai.greedy import _greedy_action
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.actions import Action
from sim.engine.rules.death import _kill
from tests._engine_kit import CATALOGUE
from tests._entities_kit import ENT, card_rows, decide, on_space, start, summon_minions


# --------------------------------------------------------------------- greedy and the log

def test_greedy_summons_toward_the_nearest_enemy_when_no_attack_is_worth_more():
    """docs/entities.md: greedy values a summon as the minions' health plus one attack each
    (sim/ai/entity_values.py) and makes it on the legal space nearest an enemy."""
    game = start(crowd=False)
    st, ent = game.st, game.st.ent
    for t in range(4):
        for e in np.flatnonzero((ent.team == t) & (ent.kind == L.K_CHARACTER)):
            ent.space[e] = game.S.spawn_space[t, 1]
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    decide(game, q)
    # one enemy a few steps beyond the summoner's range, so the legal spaces are not all
    # equally far from the nearest enemy (else any of them would pass)
    here, reach = int(ent.space[q]), int(ent.range[q])
    near = next(x for x in range(st.kind.shape[0]) if st.kind[x] == FLOOR and st.tile_pos[x] >= 0
                and max(abs(x // 35 - here // 35), abs(x % 35 - here % 35)) == reach + 3)
    ent.space[int(np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[0])] = near
    mask = game.legal_mask()
    a = int(_greedy_action(st, game.S, mask))
    s = a - on_space(game, 0)
    legal = [x for x in range(st.kind.shape[0]) if mask[on_space(game, x)]]
    assert s in legal
    foes = [int(ent.space[e]) for e in range(ent.shape[0])
            if ent.kind[e] == L.K_CHARACTER and ent.team[e] != 0]

    def dist(x):
        return min(max(abs(x // 35 - f // 35), abs(x % 35 - f % 35)) for f in foes)
    assert len({dist(x) for x in legal}) > 1
    assert dist(s) == min(dist(x) for x in legal)


def test_the_log_names_special_entities():
    """The game log reads well: spawns, vanishing, boarding name minions and vehicles."""
    game = start()
    summon_minions(game)
    evs = game.events(CATALOGUE.cards.names, game.setup.cpu_names, ENT)
    spawn = [e for e in evs if e["event"] == "spawn"]
    assert len(spawn) == 3 and "Quill Duelist minion (T1)" in spawn[0]["text"]
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names, ENT)
    assert "Mystery Machine (vehicle)" in labels


def test_minions_use_their_creators_items_pick_up_into_its_pool_and_never_drop():
    """"Unless specified otherwise: minions cannot drop or trade items; minions can make use of any
    and all items held by their creator; and when a minion picks up an item, that item is added to
    the creator's item pool"; a minion's death drops nothing of its creator's."""
    from sim.engine.items.holding import _end_turn_items, _grant_item, _pool, _put_on_floor
    game = start()
    st, ent, S = game.st, game.st.ent, game.S
    q, _ = summon_minions(game)
    minion = int(np.flatnonzero((ent.owner == q + 1) & (ent.alive != 0))[0])
    pool = _pool(ent, q)
    assert _pool(ent, minion) == pool
    names = CATALOGUE.items.names
    assert _grant_item(st, S, q, names.index("Health Potion"))
    _end_turn_items(st, S, q)  # "A character must End their Turn with an Item in order to use it"
    _put_on_floor(st, names.index("Antidote"), int(ent.space[minion]))
    decide(game, minion)
    ent.health[minion] = 1
    legal = {game.decode(a) for a in np.flatnonzero(game.legal_mask())}
    assert Action("item_on_entity", minion, 0) in legal  # uses its creator's potion on itself
    assert Action("pick_up", 0) in legal                  # may pick up the antidote
    assert not any(a.kind == "drop" for a in legal)       # never drops
    game.apply(game.action("pick_up", 0))
    held = sorted(names[i - 1] for i in ent.item_slot[pool] if i > 0)
    assert held == ["Antidote", "Health Potion"]
    _kill(st, S, minion, -1, L.BY_ATTACK)
    assert sorted(names[i - 1] for i in ent.item_slot[pool] if i > 0) == held
