"""Shared helpers of the item tests (tests/test_engine_item_*.py; the rules audit and the content
audit borrow them): the item catalogue, ``scenario`` (Team 1's first decision with every
character on one space), ``give`` and ``end_turn_of`` (an item gained and made usable), the item
actions (``use_on``, ``use_at``, ``pick``, ``drop``, ``item_actions``), ``slots``,
``ally_of``, ``enemy_of`` and ``events``."""

from __future__ import annotations

import numpy as np

from sim.engine.state import fields as L
from sim.engine.items.holding import _grant_item
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, new_game

ITEMS = CATALOGUE.items


def item(name: str) -> int:
    return ITEMS.find(name)


def scenario(space: int | None = None):
    """Team 1's first decision with every character on ``space`` (default: a spawn space)."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    here = int(game.S.spawn_space[0, 0]) if space is None else space
    for e in range(ent.shape[0]):
        if ent.kind[e] == L.K_CHARACTER:  # the teams' characters (not spare rows)
            ent.space[e] = here
    return game, game.current


def give(game, e: int, name: str, active: bool = True) -> None:
    """``e`` gains the item; ``active``: as if it had since ended a turn holding it."""
    assert _grant_item(game.st, game.S, e, item(name))
    if active:
        end_turn_of(game, e)


def end_turn_of(game, e: int) -> None:
    """``e`` ends its turn (through the engine's END), then the decision comes back to the
    scenario's decider with its turn as it was."""
    st, ent = game.st, game.st.ent
    c = game.current
    acted, done = int(ent.acted[c]), ent.done.copy()
    st.game.cur = e
    game.apply(L.END)
    ent.done[:] = done
    st.game.cur = c
    ent.acted[c] = acted


def use_on(game, k: int, e: int) -> int:
    return game.action("item_on_entity", e, k)


def use_at(game, k: int, s: int) -> int:
    return game.action("item_on_space", s, k)


def pick(game, f: int) -> int:
    return game.action("pick_up", f)


def drop(game, k: int) -> int:
    return game.action("drop", slot=k)


ITEM_KINDS = ("item_on_entity", "item_on_space", "pick_up", "drop")


def item_actions(game) -> list[int]:
    return [int(a) for a in game.legal_actions() if game.decode(a).kind in ITEM_KINDS]


def slots(game, e: int) -> list[int]:
    """The item names in ``e``'s pool (None: empty slot)."""
    ent = game.st.ent
    p = e if ent.pool[e] == 0 else int(ent.pool[e]) - 1
    return [ITEMS.names[v - 1] if v else None for v in ent.item_slot[p]]


def ally_of(game, c):
    ent = game.st.ent
    return int(next(e for e in range(ent.shape[0]) if ent.team[e] == ent.team[c] and e != c))


def enemy_of(game, c):
    return int(np.flatnonzero((game.st.ent.team == 1) & (game.st.ent.kind == L.K_CHARACTER))[0])


