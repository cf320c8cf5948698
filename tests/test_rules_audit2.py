"""Rule sentences of the rulebook (../shared/seeds/000_527084f8378d7355.txt) in the areas the first
audit did not probe (the Apocalypse's timing and destruction, CPUs), pinned through the engine's
kernels. Line numbers are the book's."""

from __future__ import annotations

import numpy as np

from sim.engine.entities.special import _arrive
from sim.engine.entities.timed_states import _set_state
from sim.engine.rules.apocalypse import _destroy
from sim.engine.rules.attack import _strike
from sim.engine.rules.cpu import _cpu_turn
from sim.engine.rules.death import _harm, _kill
from sim.engine.rules.reveal import _check_reveal
from sim.engine.rules.turn import _begin_turn, _gm_turn
from sim.engine.state import fields as L
from tests._engine_kit import EXAMPLE_TEAMS, new_game, setup_for
from tests._entities_kit import vehicle_row


def _characters(ent, team):
    return [int(e) for e in np.flatnonzero((ent.team == team) & (ent.kind == L.K_CHARACTER))]


def test_the_apocalypse_waits_for_every_standing_team_not_for_one_eliminated_since_the_reveal():
    """l.424: "Everyone is allotted at least one more regular turn before the Apocalypse begins ...
    Once the GM starts their turn and every player has had that chance, the Apocalypse starts";
    l.434 "A team is Eliminated once all of its characters are dead". Revealed in Team 1's turn
    (house ruling turns_after_reveal: the turn under way does not count), with Team 2 eliminated
    before its turn comes: the GM Turn after Teams 3 and 4 have played is still a GM Turn (Team 1
    is owed one), and the next one, after Team 1's turn, is the Apocalypse — no turn is waited
    for from the eliminated team."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    st, S, ent = game.st, game.S, game.st.ent
    assert ent.team[game.current] == 0  # Team 1's turn is under way
    st.game.deaths = S.ip[L.P_REVEAL_DEATHS]  # "7 characters on the board are dead"
    _check_reveal(st, S)
    assert st.game.revealed == 1 and st.game.reveal_why == L.BY_DEATHS
    assert list(st.game.owed) == [1, 1, 1, 1]
    for e in _characters(ent, 1):
        _kill(st, S, e, -1, L.BY_ATTACK)
    assert st.game.owed[1] == 0 and st.game.over == 0
    _begin_turn(st, S, 2)
    _begin_turn(st, S, 3)
    _gm_turn(st, S)
    assert st.game.apoc_active == 0 and st.game.apoc_step == 0  # Team 1 has not had its turn
    _begin_turn(st, S, 0)
    _gm_turn(st, S)
    assert st.game.apoc_active == 1 and st.game.apoc_step == 1


def test_a_destroyed_coordinate_removes_everything_in_it_the_invincible_and_invisible_too():
    """l.432: "Anything in a tile that is destroyed is removed from the game"; l.410 Invincible
    entities "are still Vulnerable to Instant Killing and Board Removing Threats such as the
    Apocalypse"; l.400 invisibility protects only against a direct attack; l.376/390 a vehicle
    and its pilot hold separate health pools (both are in the tile); l.420 "The count of 7, counts
    characters only". In the Mystery Machine's coordinate: an invincible character, an invisible
    one, the vehicle with its pilot and a CPU all die; the count of deaths rises by the three
    characters only; a character one coordinate away is untouched."""
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    st, S, ent = game.st, game.S, game.st.ent
    v = vehicle_row(game, "Mystery Machine")
    here = int(ent.space[v])
    p = int(st.tile_pos[here])
    tough, hidden, pilot = _characters(ent, 0)[:3]
    cpu = int(np.flatnonzero(ent.is_cpu)[0])
    for e in (tough, hidden, pilot, cpu):
        ent.space[e] = here
    _set_state(st, S, tough, L.BUFF, tough, 5, L.STAT_INVINCIBLE, 0, True)
    _set_state(st, S, hidden, L.INVISIBLE, hidden, 5, 0, 0, True)
    _arrive(st, pilot)
    assert ent.riding[pilot] == v + 1 and ent.pilot[v] == pilot + 1
    health = int(ent.health[tough])
    _harm(st, S, tough, 10_000, -1, L.BY_ATTACK)
    assert ent.health[tough] == health  # invincible against an attack
    far = _characters(ent, 1)[0]
    elsewhere = next(int(s) for s in np.flatnonzero(np.asarray(st.tile_pos) >= 0)
                     if st.tile_pos[s] != p and st.kind[s] == st.kind[here])
    ent.space[far] = elsewhere
    deaths = int(st.game.deaths)
    _destroy(st, S, p)
    for e in (tough, hidden, pilot, v, cpu):
        assert ent.alive[e] == 0 and ent.health[e] == 0, e
    assert int(st.game.deaths) == deaths + 3
    assert ent.alive[far] == 1 and ent.health[far] == ent.max_health[far]
    assert st.pos_state[p] == L.VOIDED and not np.any(np.asarray(st.tile_pos) == p)


def test_retaliation_costs_the_cpu_nothing_it_still_acts_on_the_gm_turn():
    """l.212: "Retaliation is not optional and costs the CPU nothing — it happens every time";
    l.218 "Outside of retaliating, CPUs act on the GM Turn". A Coyote (attack 3, range 1) that
    has just retaliated against a character standing on its space still attacks that character
    on the GM Turn, and retaliates again when attacked a second time."""
    setup = setup_for(1)
    game = new_game(1, 2, EXAMPLE_TEAMS.cards)
    st, S, ent = game.st, game.S, game.st.ent
    cpu = int(np.flatnonzero(ent.is_cpu)[setup.cpu_names.index("Coyote")])
    c = _characters(ent, 0)[0]
    ent.space[c] = ent.space[cpu]
    ent.health[c] = ent.max_health[c] = 10**6
    ent.health[cpu] = ent.max_health[cpu] = 10**6

    def attacks_by(a, d, kinds, since):
        rows = st.ev[since:int(st.game.nev)]
        return int(np.sum(np.isin(rows[:, 0], kinds) & (rows[:, 2] == a) & (rows[:, 3] == d)))

    for _ in range(2):
        since = int(st.game.nev)
        _strike(st, S, c, cpu, 0, c)
        assert attacks_by(cpu, c, [L.EV_RETALIATE], since) == 1
        since = int(st.game.nev)
        _cpu_turn(st, S)
        assert attacks_by(cpu, c, [L.EV_ATTACK], since) == 1
