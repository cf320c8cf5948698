"""Items under the policies and in the log: greedy picks up, heals when hurt and throws at the best
target, the lookahead considers item uses, item events read well, the turn's start keeps items,
and the same game with items plays event for event interpreted and compiled (an oracle for the
item kernels).

Each case sets up a small position (Team 1's first decision, everybody on one space or on an
open patch of a tile), gives items to characters or lays them on the board as data
(cards/items.csv rows), plays through the engine interface (the legal mask and ``apply``) and
asserts the rule. Each case quotes its rule (docs/items.md)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.play import step
from sim.engine.state import fields as L
from sim.engine.items.holding import _put_on_floor
from sim.engine.rules.turn import _begin_turn
from tests._engine_kit import CATALOGUE
from tests._interpreted_kit import mixed_game, mixed_game_interpreted
from tests._items_kit import (ITEMS, drop, end_turn_of, enemy_of, give, item, pick, scenario,
                              slots, use_on)


# --------------------------------------------------------------------------- policies and logs

def test_greedy_picks_up_heals_when_hurt_and_throws_at_the_best_target():
    """Greedy (sim/ai/item_values.py): picks up when it has a free slot; keeps a potion while it
    would restore less than `keep_percent` of it; throws a knife at the target it kills."""
    game, c = scenario()
    st, ent = game.st, game.st.ent
    _put_on_floor(st, item("Health Potion"), int(ent.space[c]))
    step(game, L.GREEDY)
    assert slots(game, c) == ["Health Potion", None]
    end_turn_of(game, c)
    ent.acted[c] = 1
    st.game.cur = c
    ent.health[c] = ent.max_health[c] - 5
    ent.speed_left[c] = 0
    step(game, L.GREEDY)
    assert slots(game, c)[0] == "Health Potion", "kept: a scratch"
    st.game.cur, ent.done[c] = c, 0
    ent.health[c] = ent.max_health[c] - 45
    step(game, L.GREEDY)
    assert slots(game, c)[0] is None and ent.health[c] == ent.max_health[c] - 5
    st.game.cur, ent.done[c], ent.acted[c] = c, 0, 0
    give(game, c, "Throwing Knife")
    foes = np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))
    ent.defense[foes] = 9
    weak = int(foes[2])
    ent.health[weak] = 15
    ent.atk[c] = 0
    step(game, L.GREEDY)
    assert ent.alive[weak] == 0


def test_the_lookahead_considers_item_uses():
    """The look-ahead's candidates include the pick-up and every item use worth something."""
    from sim.ai.candidates import _candidates
    game, c = scenario()
    ent = game.st.ent
    d = enemy_of(game, c)
    away = int(game.S.spawn_space[2, 0])
    ent.space[(ent.kind == L.K_CHARACTER) & (np.arange(ent.shape[0]) != c)
              & (np.arange(ent.shape[0]) != d)] = away
    give(game, c, "Throwing Knife")
    _put_on_floor(game.st, item("Antidote"), int(ent.space[c]))
    mask = game.legal_mask()
    cands = np.empty(40, np.int64)
    k = _candidates(game.st, game.S, mask, cands, 64)
    got = set(cands[:k].tolist())
    assert pick(game, 0) in got and use_on(game, 0, d) in got


def test_item_events_read_well():
    """The JSONL log names the item and quotes the rule (sim/engine/log/events.py)."""
    from sim.engine.log.events import decode
    game, c = scenario()
    give(game, c, "Iron Sword")
    game.apply(drop(game, 0))
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names)
    rows = decode(game.event_rows(), labels, game.setup.apocalypses.names, ITEMS.names)
    texts = [e["text"] for e in rows if e["event"].startswith("item")]
    assert texts[0].endswith("gains Iron Sword (space %d; usable after ending a turn)"
                             % game.st.ent.space[c])
    assert "drops Iron Sword on space" in texts[-1]
    assert all(e["rule"] for e in rows)


def test_a_kill_by_an_items_flat_damage_reads_as_an_item_kill():
    """An item's flat damage ("Throwing Knife": ``item_damage``, docs/items.md) that kills is an
    item's kill in the log: the death's cause was the ability cause, so replay read "Shadow
    Scribe minion (T2) dies (ability)" for a Throwing Knife kill (the newcomer audit of stop
    77; tests/golden/example_seed1_greedy.jsonl had it). Book: "Entity is the broadest term
    ... one causes Entities Health Points to Reach 0. This Act causes them to Die"."""
    from sim.engine.log.events import decode

    game, c = scenario()
    ent = game.st.ent
    give(game, c, "Throwing Knife")
    foe = int(np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER))[0])
    ent.health[foe] = 1
    game.apply(use_on(game, 0, foe))
    assert ent.alive[foe] == 0
    labels = game.labels(CATALOGUE.cards.names, game.setup.cpu_names)
    rows = decode(game.event_rows(), labels, game.setup.apocalypses.names, ITEMS.names)
    deaths = [e for e in rows if e["event"] == "death" and e["entity"] == foe]
    assert [e["cause"] for e in deaths] == [L.BY_ITEM], deaths
    assert deaths[0]["text"].endswith("dies (item)"), deaths[0]["text"]


def test_begin_turn_keeps_items():
    """Items stay held across turns (nothing in the book takes them away)."""
    game, c = scenario()
    give(game, c, "Iron Sword")
    _begin_turn(game.st, game.S, 0)
    assert slots(game, c) == ["Iron Sword", None]


@pytest.mark.slow
def test_items_play_the_same_game_interpreted_and_compiled():
    """An oracle for the item kernels (tests/test_engine_interpreted.py's, with items in play):
    the same game, event for event, under ``NUMBA_DISABLE_JIT=1`` and compiled."""
    interpreted = mixed_game_interpreted(7, 3, items_seed=3)
    compiled = mixed_game(7, 3, items_seed=3)
    kinds = set(compiled[:, L.EVC_KIND].tolist())
    assert {L.EV_ITEM_GAIN, L.EV_ITEM_ACTIVE, L.EV_ITEM_USE, L.EV_ITEM_DROP} <= kinds
    assert np.array_equal(interpreted, compiled)
