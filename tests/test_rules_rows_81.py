"""Three rule sentences of the rulebook that had no row of docs/rules-coverage.md whose test
checks them, each exercised through the engine (stop 81):

- l.216 "Where a CPU has a range or a speed of its own, those govern what it does on the GM Turn.
  They place no limit on retaliation." (sim/engine/rules/cpu.py:_cpu_act; attack.py:_strike)
- l.339 "A water-roll can be performed from any space adjacent to water."
  (sim/engine/rules/water_rolls.py:_legal_water, _shore; legal.py's water block)
- l.254 "Health is the only thing a revive restores. ... any points or resources their ability
  had accumulated do not return" (ability_effects.py:_revive; death.py:_kill)

How each was checked able to fail: the enforcing line was broken in a scratch copy and the test
run interpreted (``NUMBA_DISABLE_JIT=1``, so no kernel was compiled or cached), seen to fail, and
the line reverted; each docstring names the break.
"""

from __future__ import annotations

import numpy as np

from sim.board.geometry import GRID, local_space
from sim.catalogue.tile_layout import FLOOR, WATER, WATER_EDGE
from sim.engine.rules.attack import _strike
from sim.engine.rules.cpu import _cpu_act
from sim.engine.rules.death import _kill
from sim.engine.rules.live_movement import _sight_from
from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, events, new_game, setup_for
from tests._entities_kit import card_rows, decide, start, summon_minions
from tests._water_kit import put, rules_ip, water_action, water_game

FAR = 40  # a sight search wide enough to tell "out of range" from "a little out of range"


# ---------------------------------------------------------------- l.216 a CPU's range and speed

def _cpu_scene():
    """A CPU with an attack, alone on its tile with one character 2 range from it (in sight,
    inside the CPU's own tile) and another character out of its sight and reach altogether.
    (game, cpu, near character, far character)."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)  # characters not placed: none in the way
    st, S, ent = game.st, game.S, game.st.ent
    cpus = np.flatnonzero((ent.is_cpu != 0) & (ent.atk[:, 0] > 0))
    assert cpus.size, "the shipped content has an attacking CPU"
    c = int(cpus[0])
    here = int(ent.space[c])
    sight = _sight_from(st, S, here, FAR).copy()
    near = [s for s in np.flatnonzero(st.tile_pos == ent.home[c])
            if sight[s] == 2 and st.kind[s] == FLOOR]
    far = [s for s in np.flatnonzero(st.tile_pos >= 0)
           if sight[s] > FAR and st.kind[s] == FLOOR]
    assert near and far
    chars = np.flatnonzero(ent.kind == L.K_CHARACTER)
    a, b = int(chars[0]), int(chars[1])
    ent.space[a], ent.space[b] = int(near[0]), int(far[0])
    ent.health[c] = ent.max_health[c] = 10_000  # it survives any attack: it retaliates
    return game, c, a, b


def _gm_turn(rng, speed, default_range=None):
    """Whether the CPU of :func:`_cpu_scene`, given range ``rng`` (-1: none listed) and
    ``speed``, attacks the near character on its GM Turn (``_cpu_act``); (attacked, the CPU's
    space before, after, the near character's space)."""
    game, c, a, _ = _cpu_scene()
    ent = game.st.ent
    ent.range[c], ent.speed[c] = rng, speed
    here = int(ent.space[c])
    since = int(game.st.game.nev)
    with rules_ip(game.S, **({} if default_range is None else {"P_CPU_RANGE": default_range})):
        _cpu_act(game.st, game.S, c)
    hits = [e for e in game.named_events("attack", since=since)
            if e["attacker"] == c and e["defender"] == a]
    return bool(hits), here, int(ent.space[c]), int(ent.space[a]), game


def test_a_cpus_own_range_and_speed_govern_its_gm_turn():
    """"Where a CPU has a range or a speed of its own, those govern what it does on the GM Turn":
    a character 2 range away is out of a range-1 CPU's reach when it may not move (speed 0) and
    within a range-2 one's; with speed 1 the range-1 CPU steps once towards it and attacks; a CPU
    with no range listed (-1) attacks from rules.toml ``cpu_default_range`` (house ruling).
    Checked able to fail: ``_cpu_act`` reading ``S.ip[L.P_CPU_RANGE]`` always instead of the CPU's
    own range fails the range-2 case; with ``speed = 0`` in place of the CPU's speed, the
    speed-1 case fails."""
    attacked, here, after, _, _ = _gm_turn(1, 0)
    assert not attacked and after == here  # range 1, speed 0: 2 away is out of reach
    attacked, here, after, _, _ = _gm_turn(2, 0)
    assert attacked and after == here  # its own range 2: from where it stands
    attacked, here, after, target, game = _gm_turn(1, 1)
    assert attacked and after != here  # one step of its own speed, then its own range 1
    assert _sight_from(game.st, game.S, after, FAR)[target] <= 1
    assert not _gm_turn(-1, 0, default_range=1)[0]  # none listed: the house default
    assert _gm_turn(-1, 0, default_range=2)[0]


def test_a_cpus_range_and_speed_place_no_limit_on_retaliation():
    """"They place no limit on retaliation": a CPU of range 0 and speed 0 cannot reach a
    character standing out of its sight altogether on the GM Turn, yet when that character
    attacks it, it strikes back at once at the attacker (attack.py:_strike). Checked able to
    fail: a range test added to ``_strike``'s retaliation condition (``_reaches(st, S, d,
    ent.space[a])``, the CPU's own range and sight) fails it."""
    game, c, _, b = _cpu_scene()
    st, S, ent = game.st, game.S, game.st.ent
    ent.range[c], ent.speed[c] = 0, 0
    assert _sight_from(st, S, int(ent.space[c]), FAR)[ent.space[b]] > FAR
    before = int(st.game.nev)
    _cpu_act(st, S, c)  # the GM Turn: nothing within its range and speed
    assert int(st.game.nev) == before
    ent.atk[b] = 1  # the CPU survives (10,000 health)
    _strike(st, S, b, c, 0, b)
    assert len(game.named_events("attack", since=before)) == 1  # b's attack
    retaliation = game.named_events("retaliation", since=before)
    assert ent.alive[c] == 1 and len(retaliation) == 1
    assert retaliation[0]["attacker"] == c and retaliation[0]["defender"] == b


# ------------------------------------------------------------- l.339 adjacent to water: a roll

def _adjacent_to_water(board) -> dict[int, bool]:
    """Per floor space of ``board``, whether it is adjacent to water, read from the tile
    drawings alone (cards/tiles.toml layouts; not the board graph's bodies the engine uses): a
    water space or a thin water edge on one of its four sides (house ruling, docs/rulings.md
    "Water spaces and bodies": adjacency is orthogonal, within the tile)."""
    tiles = CATALOGUE.tiles
    out = {}
    for R in range(GRID):
        for C in range(GRID):
            t = board.tile_at((R, C))
            if t < 0:
                continue
            n = int(tiles.size[t])
            sp, ee, es = tiles.space[t], tiles.edge_e[t], tiles.edge_s[t]
            for i in range(n):
                for j in range(n):
                    if sp[i, j] != FLOOR:
                        continue
                    wet = any(0 <= i + di < n and 0 <= j + dj < n and sp[i + di, j + dj] == WATER
                              for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0)))
                    wet |= bool((j + 1 < n and ee[i, j] == WATER_EDGE)
                                or (j > 0 and ee[i, j - 1] == WATER_EDGE)
                                or (i + 1 < n and es[i, j] == WATER_EDGE)
                                or (i > 0 and es[i - 1, j] == WATER_EDGE))
                    out[local_space((R, C), i, j, n)] = wet
    return out


def test_a_water_roll_can_be_performed_from_any_space_adjacent_to_water():
    """"A water-roll can be performed from any space adjacent to water": a character put on each
    floor space of board 1 in turn is offered a water-roll across a body of water (an action of
    the water block to a space not across a rolled wall) exactly where the tile drawing puts
    water beside that space; from each such space the roll is made (every face a success) and
    lands it across. Checked able to fail: ``_legal_water`` returning 0 unless ``here`` is
    walled (the ``shore`` test dropped) fails every wet space; offering the roll from every
    space of a tile with water fails the dry ones."""
    wet = _adjacent_to_water(setup_for(1).board)
    assert sum(wet.values()) >= 10 and sum(not w for w in wet.values()) >= 100
    game, c = water_game()
    st, ent = game.st, game.st.ent
    block = game.block("water_roll")
    rolled_from = 0
    for s, by_water in sorted(wet.items()):
        offered = set(np.flatnonzero(put(game, c, s)[block]).tolist())
        walls = {int(t) for d, t in enumerate(st.move_nbr[s]) if t >= 0 and st.move_roll[s, d]}
        across = sorted(offered - walls)
        assert bool(across) == by_water, (s, by_water, across)
        if by_water:
            with rules_ip(game.S, P_WATER_MIN=1):  # every face a success
                game.apply(water_action(game, across[0]))
            assert ent.space[c] == across[0] and ent.submerged[c] == 0
            ent.streak_over[c] = ent.streak_rolls[c] = 0  # a fresh streak for the next space
            game.st.game.cur = c
            rolled_from += 1
    assert rolled_from == sum(wet.values())
    assert len(events(game, L.EV_WATER_ROLL)) == rolled_from


# -------------------------------------------------- l.254 what an ability accumulated is gone

def _revive(game, dead):
    """Luffy (given the revive type) revives ``dead`` at the spot, through the engine."""
    ent = game.st.ent
    r = int(card_rows(game, 0, "Luffy")[0])
    code = CATALOGUE.abilities.code("revive")
    ent.ab[r] = CATALOGUE.abilities.row(code, [1, 1])
    ent.charges_left[r] = 1
    decide(game, r)
    game.apply(game.action("ability", dead))
    assert ent.alive[dead] == 1 and ent.health[dead] == ent.max_health[dead]


def test_a_revived_summoner_gets_back_neither_its_charge_nor_its_minions_nor_its_shield():
    """"Health is the only thing a revive restores. Ability charges spent while the character
    was alive remain spent, any points or resources their ability had accumulated do not
    return". What an ability accumulates in this engine: its charges (uses per game,
    CHARGES_LEFT), the minions or clone a summon made (rows whose OWNER is it) and, from a heal
    with ``shield = 1``, health beyond the maximum (SHIELD); there are no points or coins of an
    ability (tile ticks and a team's coins belong to tiles). Quill Duelist spends its one summon
    charge on 3 minions and holds 25 shield; killed, its minions vanish; revived, it is at full
    health with no shield, its charge still spent (no summon is offered) and no minion of its
    own alive. Checked able to fail: ``_revive`` refilling ``charges_left`` from
    ``ab_charges``, or bringing the rows it owns back to life, fails it."""
    game = start()
    st, ent = game.st, game.st.ent
    q, _ = summon_minions(game)
    mine = np.flatnonzero(ent.owner == q + 1)
    assert len(mine) == 3 and np.all(ent.alive[mine] == 1) and ent.charges_left[q] == 0
    ent.shield[q] = 25
    _kill(st, game.S, q, -1, L.BY_ATTACK)
    assert np.all(ent.alive[mine] == 0)
    _revive(game, q)
    assert ent.shield[q] == 0 and ent.charges_left[q] == 0
    assert np.all(ent.alive[mine] == 0) and not np.any((ent.owner == q + 1) & (ent.alive != 0))
    decide(game, q)
    assert not game.legal_mask()[game.block("ability_on_space")].any()  # no summon left
    assert len(events(game, L.EV_REVIVE)) == 1


def test_the_effects_a_revived_characters_ability_had_set_do_not_return():
    """The same sentence for an ability's effects on others ("all effects of that character's
    abilities cease" at its death, death.py:_kill → timed_states._cease): Mario buffs Luffy's
    range by 3 for 5 turns, spending one of two charges; Mario is killed (the buff ceases) and
    revived by Luffy: Luffy's range is its own again, no buff, and Mario has one charge, not
    two. Checked able to fail: ``_revive`` refilling ``charges_left`` fails it."""
    game = start()
    st, ent = game.st, game.st.ent
    m = int(card_rows(game, 0, "Mario")[0])
    luffy = int(card_rows(game, 0, "Luffy")[0])
    code = CATALOGUE.abilities.code("buff")
    kind = CATALOGUE.abilities.types[code]
    params = dict(zip(kind.param_names, kind.defaults)) | {
        "stat": 1, "amount": 3, "duration": 5, "range": 0, "charges": 2}
    ent.ab[m] = 0
    row = CATALOGUE.abilities.row(code, [params[n] for n in kind.param_names])
    ent.ab[m, :len(row)] = row
    ent.charges_left[m] = 2
    r0 = int(ent.range[luffy])
    decide(game, m)
    game.apply(game.action("ability", luffy))
    assert ent.range[luffy] == r0 + 3 and ent.buff[luffy] != 0 and ent.charges_left[m] == 1
    _kill(st, game.S, m, -1, L.BY_ATTACK)
    assert ent.range[luffy] == r0 and ent.buff[luffy] == 0
    _revive(game, m)
    assert ent.range[luffy] == r0 and ent.buff[luffy] == 0 and ent.charges_left[m] == 1
