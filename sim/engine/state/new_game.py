"""One game's starting state: entities from the teams' cards and the board's CPUs.

Book: "Each game of Board Wars is played with 4 teams, each composed of 5 Character Cards"; "A
multi-character card spawns multiple characters instead of one"; "Max Health is ... the amount
they begin the game with". Characters start off the board (space -1) and are placed at the start
of their team's first turn. The Apocalypse in play is drawn from the game's own random stream,
face-down: no policy sees which one it is until the reveal.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim._jit import njit
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS
from sim.rng import roll

from sim.engine.state import fields as L
from sim.engine.entities.special_setup import _card_row, _fill_spare, _plan
from sim.engine.items.holding import _init_pools
from sim.engine.state.decision import new_decision
from sim.engine.state.game_state import State, new_entities, new_game_scalars, new_state
from sim.engine.state.static_tables import (CPU_ATTACKS, CPU_DEFENSE, CPU_HEALTH, CPU_HOME,
                                            CPU_RANGE, CPU_SPACE, CPU_SPEED, CPU_TIER)
from sim.engine.tiles.functions import _init_tiles

Cards = namedtuple("Cards", ["speed", "range", "max_health", "defense", "attacks", "tier",
                             "suit", "characters", "effects", "ent_rules", "vehicles", "assists"])


def card_arrays(cards, entities=None) -> Cards:
    """The catalogue's card columns as int64 arrays (what the kernels index), with the special
    entities' tables (``sim.catalogue.entities``: [entities] rulings, vehicles, assists) —
    ``entities`` or, by default, those of the card folder ``cards`` was read from."""
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    ents = entities if entities is not None else _folder_entities(str(cards.path))
    return Cards(i64(cards.speed), i64(cards.range), i64(cards.max_health), i64(cards.defense),
                 i64(cards.attacks), i64(cards.tier), i64(cards.suit), i64(cards.characters), i64(cards.effects),
                 i64(ents.rules), i64(ents.vehicles), i64(ents.assists))


@lru_cache(maxsize=8)
def _folder_entities(cards_path: str):
    """The special entities of the folder holding ``cards_path`` (the shipped folder when the
    cards were not read from a file), read once per folder: every caller of :func:`card_arrays`
    gets them without passing the catalogue around."""
    from sim.catalogue.loader import default_cards_dir, load_catalogue
    root = Path(cards_path).parent if cards_path else default_cards_dir()
    return load_catalogue(root).entities


def init_game(setup, cards: Cards, team_cards, rng_state, *, log: bool = True,
              ev_cap: int = 20000, apocalypse: int = -1) -> State:
    """Validate and build a game's state (the Python face of :func:`_init_game`)."""
    team_cards = np.ascontiguousarray(team_cards, dtype=np.int64)
    if team_cards.shape != (TEAMS, CARDS_PER_TEAM):
        raise ValueError(f"team_cards must be {TEAMS}×{CARDS_PER_TEAM}, got {team_cards.shape}")
    if team_cards.min() < 0 or team_cards.max() >= cards.speed.shape[0]:
        raise ValueError("team_cards holds an unknown card index")
    rng_state = np.ascontiguousarray(rng_state, dtype=np.uint64)
    if rng_state.shape != (4,):
        raise ValueError("rng_state must be 4 uint64 words (sim.rng.seed_states)")
    if not -1 <= apocalypse < setup.static.apoc_code.shape[0]:
        raise ValueError("apocalypse index out of range")
    return _init_game(setup.static, cards, setup.cpu_rows, team_cards, rng_state,
                      np.int64(max(ev_cap, 1)), np.int64(log), np.int64(apocalypse))


@njit
def _init_game(S, C, cpu_rows, team_cards, rng_state, ev_cap, log, apocalypse):
    rng = rng_state.copy()
    if apocalypse < 0:
        s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
        a, s0, s1, s2, s3 = roll(S.apoc_code.shape[0], s0, s1, s2, s3)
        rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
        apocalypse = a - 1
    n_chars = 0
    for t in range(team_cards.shape[0]):
        for k in range(team_cards.shape[1]):
            n_chars += C.characters[team_cards[t, k]]
    # vehicles, summoned cards, assists, minions: spare rows (sim/engine/entities/special_setup.py)
    veh, summon, assists, n_spare = _plan(S, C, team_cards, rng)
    n_ent = n_chars + cpu_rows.shape[0] + n_spare
    ent = new_entities(n_ent)
    e = 0
    for t in range(team_cards.shape[0]):
        for k in range(team_cards.shape[1]):
            c = team_cards[t, k]
            for _ in range(C.characters[c]):  # "spawns multiple characters instead of one"
                _card_row(ent, e, C, c, t)  # placed "At the beginning of your first turn"
                ent.alive[e] = 1
                ent.health[e] = C.max_health[c]
                e += 1
    for k in range(cpu_rows.shape[0]):  # "CPUs sometimes populate the board"
        ent.team[e] = L.NO_TEAM
        ent.card[e] = -1
        ent.alive[e] = 1
        ent.space[e] = cpu_rows[k, CPU_SPACE]
        ent.home[e] = cpu_rows[k, CPU_HOME]
        ent.health[e] = cpu_rows[k, CPU_HEALTH]
        ent.max_health[e] = cpu_rows[k, CPU_HEALTH]
        ent.defense[e] = cpu_rows[k, CPU_DEFENSE]
        ent.speed[e] = cpu_rows[k, CPU_SPEED]
        ent.range[e] = cpu_rows[k, CPU_RANGE]
        ent.suit[e] = -1
        ent.is_cpu[e] = 1
        for j in range(4):  # a CPU has one attack: every point of its star is the same
            ent.atk[e, j] = cpu_rows[k, CPU_ATTACKS]
            ent.tier[e, j] = cpu_rows[k, CPU_TIER]
        e += 1
    _init_pools(ent, C.characters)  # "They share one stat pool and one item pool"
    game = new_game_scalars()
    g = game[0]  # the game scalars, by name (fields.GAME_DTYPE)
    g.rotation = 1
    g.cur = -1
    g.winner = -1
    g.log = log
    g.apoc = apocalypse
    _fill_spare(S, C, team_cards, ent, cpu_rows.shape[0], veh, summon, assists, g)
    _team_rows(ent, n_chars, g)
    n = S.kind2.shape[1]
    return new_state(ent, game, np.zeros(49, np.int64), rng,
                     np.zeros((ev_cap, L.EVF), np.int64),
                     S.move_nbr2[0].copy(), S.sight_nbr2[0].copy(), S.sight_flag2[0].copy(),
                     S.kind2[0].copy(), S.tile_pos2[0].copy(), S.twin2[0].copy(),
                     new_decision(n, ent.shape[0], 0, 0), np.full((L.F_CAP, L.NFL), -1, np.int64),
                     _init_tiles(S), S.feature.copy(), S.move_roll.copy())


@njit
def _team_rows(ent, n_chars, g):
    """``g.team_end`` (fields.TEAM_END): the row after each team's characters, which the first
    ``n_chars`` rows hold team after team (a team with none ends where the one before it ends)."""
    end = 0
    for t in range(4):
        for e in range(end, n_chars):
            if ent.team[e] != t:
                break
            end = e + 1
        g.team_end[t] = end
