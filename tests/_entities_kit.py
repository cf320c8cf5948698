"""Shared helpers for the special-entity tests (tests/test_engine_entity_*.py, and the rules
audits that borrow them): a small position on board 1 (a team with a summoner, a multi-character
card and the shipped vehicle's board; everybody else crowded on one spawn space so range and
sight are no question unless the rule is about them), the rows of a kind or of a card, a row
made the decider, the actions on a space or an enemy, Quill Duelist's summon of minions, and a
vehicle with a character beside it."""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.catalogue.entities import entity_opcode
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.game import Game
from sim.engine.state.game_state import STATIC_FIELDS, new_static, static_fields
from tests._engine_kit import CARDS, CATALOGUE, EXAMPLE_TEAMS, setup_for

BOARD, SEED = 1, 2
ENT = CATALOGUE.entities
TEAM0 = ["Quill Duelist", "Silent Film Duo", "Luffy", "Mario", "Sitcom Trio"]
TEAMS = EXAMPLE_TEAMS.cards.copy()
TEAMS[0] = [CATALOGUE.cards.find(n) for n in TEAM0]


def granting(*effects):
    """The setup of board ``BOARD`` with an item type per entity effect named (``summon_card``,
    ``assist``): content that can summon a 6th card or grant an assist, so the game makes their
    rows (special_setup: only then)."""
    setup = setup_for(BOARD)
    if not effects:
        return setup
    fx = np.zeros((len(effects), L.FX_SLOTS), np.int64)
    for i, name in enumerate(effects):
        fx[i, L.FX_OP] = entity_opcode(name)
    values = [fx if f == "item_fx" else v
              for f, v in zip(STATIC_FIELDS, static_fields(setup.static))]
    return dataclasses.replace(setup, static=new_static(*values))


def start(*effects, crowd=True):
    """Team 1's first decision; with ``crowd`` every character stands on Team 1's first spawn
    space (placed, in range 0 of everyone)."""
    game = Game(granting(*effects), CARDS, TEAMS, SEED)
    ent = game.st.ent
    if crowd:
        here = int(game.S.spawn_space[0, 0])
        for e in range(ent.shape[0]):
            if ent.kind[e] == L.K_CHARACTER:
                ent.space[e] = here
    return game


def rows(game, kind, team=None):
    ent = game.st.ent
    sel = ent.kind == kind
    if team is not None:
        sel &= ent.team == team
    return np.flatnonzero(sel)


def card_rows(game, team, name):
    ent = game.st.ent
    return np.flatnonzero((ent.team == team) & (ent.kind == L.K_CHARACTER)
                          & (ent.card == CATALOGUE.cards.find(name)))


def decide(game, c):
    """Make ``c`` the character deciding now, fresh for its turn."""
    ent = game.st.ent
    game.st.game.cur = c
    ent.acted[c] = 0
    ent.ab_used[c] = 0
    ent.speed_left[c] = ent.speed[c]
    ent.spent[c] = 0


def on_space(game, s):
    return game.action("ability_on_space", s)


def attack(game, e):
    return game.action("attack", e)




def enemy_character(game):
    return int(card_rows(game, 1, "Iron Panel Brawler")[0])


def summon_minions(game):
    """Quill Duelist (summon: count 3, health 30, attacks 1, tier 1) summons on the legal space
    farthest from it; its row."""
    q = int(card_rows(game, 0, "Quill Duelist")[0])
    decide(game, q)
    mask = game.legal_mask()
    spaces = [s for s in range(game.st.kind.shape[0]) if mask[on_space(game, s)]]
    game.apply(on_space(game, spaces[-1]))
    return q, spaces


def vehicle_row(game, name):
    """The row of vehicle ``name`` (cards/vehicles.toml) in this game."""
    k = ENT.vehicle_names.index(name)
    return int(next(r for r in rows(game, L.K_VEHICLE) if game.st.ent.slot[r] == k))


def vehicle_scene(game, name="Mystery Machine"):
    """Vehicle ``name`` and a Team 1 character (Luffy) on a space next to it, deciding."""
    st, ent = game.st, game.st.ent
    v = vehicle_row(game, name)
    vs = int(ent.space[v])
    nbr = next(int(t) for d, t in enumerate(st.move_nbr[vs])
               if t >= 0 and st.kind[t] == FLOOR and game.S.move_roll[vs, d] == 0)
    c = int(card_rows(game, 0, "Luffy")[0])
    ent.space[c] = nbr
    decide(game, c)
    return v, vs, c
