"""A whole game, end to end: order of play and placement. "Every rotation, each team gets a Turn,
starting with Team 1 ... After Team 4 finishes their turn, the GM must carry out the GM Turn";
placement in the Spawn (every spawn position offered, ending the turn after), the seating, every
character at its max health, an eliminated team takes no more turns, and the CPUs (every team's
opponent; retaliation only when it survives and has an attack)."""

from __future__ import annotations

import numpy as np

from sim.ai.play import play_game, step
from sim.engine.state import fields as L
from tests._engine_kit import CATALOGUE, EXAMPLE_TEAMS, new_game, setup_for


def test_rotation_order_and_placement():
    """R2: "starting with Team 1 ... ending with Team 4. After Team 4 finishes their turn, the GM
    must carry out the GM Turn"; "At the beginning of your first turn, your entire team must be
    placed into your Spawn ... placing them costs no speed and no actions"."""
    game = new_game(3, 1)
    play_game(game, [L.RANDOM] * 4)
    rows = game.event_rows()
    kinds = rows[:, 0]
    first = game.named_events("turn", "GM turn", "rotation")[:6]
    assert [ev["event"] for ev in first[:4]] == ["turn"] * 4
    assert [ev["team"] for ev in first[:4]] == [0, 1, 2, 3]
    assert first[4]["event"] == "GM turn" and first[5]["event"] == "rotation"
    assert first[5]["rotation"] == 2
    S = game.S
    placed = game.named_events("placement")
    chars = game.st.ent.kind == L.K_CHARACTER  # not CPUs, vehicles, minions (docs/entities.md)
    n_chars = int(np.sum(chars))  # multi-character cards add some
    assert len(placed) == n_chars >= 20
    for ev in placed:
        team = game.st.ent.team[ev["entity"]]
        assert ev["space"] in S.spawn_space[team]
    # every team's placements come right after its first turn begins, before anything else
    log = game.named_events()
    for t in range(4):
        i = next(k for k, ev in enumerate(log) if ev["event"] == "turn" and ev["team"] == t)
        k = int(np.sum(chars & (game.st.ent.team == t)))
        after = kinds[i + 1:]
        after = after[after != L.EV_STATE]  # (placed on a frozen tile: frozen at once)
        assert np.all(after[:k] == L.EV_PLACE)


def test_placing_offers_every_spawn_position_and_ending_the_turn_comes_after():
    """"You may distribute your characters across the three Uncovered Tiles of your Spawn however
    you like": a character to be placed may go to each of its team's three spawn positions (and
    nowhere else, and may not end its turn instead: "your entire team must be placed"); "A player
    may choose to end their turn before using all of their actions": once placed, ending the
    turn is legal at every decision."""
    from sim.engine.tiles.live_board import _spawn_now

    game = new_game(3, 1)
    placing = placed = 0
    for _ in range(300):
        c = game.current
        if c < 0:
            break
        mask = game.legal_mask()
        if game.st.ent.space[c] < 0:
            team = int(game.st.ent.team[c])
            spots = {int(_spawn_now(game.st, game.S, team, k)) for k in range(3)}
            assert {int(a) - 1 for a in np.flatnonzero(mask)} == spots and not mask[L.END]
            assert len(spots) == 3
            placing += 1
        else:
            assert mask[L.END]
            placed += 1
        step(game, L.RANDOM)
    assert placing >= 20 and placed >= 50


def test_team_1_is_seated_at_the_bottom_and_the_others_counter_clockwise():
    """Book (Seating): "The player who views the board from an upright position — meaning the
    Rotation Counter is in the bottom left from their perspective — becomes labelled as Team 1.
    Teams 2, 3, and 4 are subsequently labelled in a counter-clockwise formation"; "The three
    Uncovered Tiles in front of a team's Playspace mark that team's Spawn". Seen from above,
    counter-clockwise from the bottom is right, top, left: each team's three spawn positions are
    the middle three of that side (cards/rules.toml team_spawns), and the game places each
    team's characters there."""
    from sim.engine.tiles.live_board import _spawn_now

    game = new_game(3, 1)
    sides = [lambda r, c: r == 6, lambda r, c: c == 6, lambda r, c: r == 0, lambda r, c: c == 0]
    for team, on_side in enumerate(sides):
        cells = set()
        for k in range(3):
            space = int(_spawn_now(game.st, game.S, team, k))
            row, col = divmod(int(game.st.tile_pos[space]), 7)
            assert on_side(row, col), (team, row, col)
            cells.add((row, col))
        middle = {(r if team in (1, 3) else c) for r, c in cells}
        assert middle == {2, 3, 4}, (team, cells)


def test_every_character_starts_at_its_max_health():
    """"Max Health is the maximum amount of health a character can have": a game starts every
    character at its card's max health, no more, no less."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    ent = game.st.ent
    chars = ent.kind == L.K_CHARACTER
    assert chars.sum() >= 20
    assert (ent.health[chars] == ent.max_health[chars]).all()
    assert (ent.max_health[chars] == CATALOGUE.cards.max_health[ent.card[chars]]).all()


def test_an_eliminated_team_takes_no_more_turns():
    """"A team is Eliminated once all of its characters are dead": its turn is skipped from then
    on (Team 2 dead before its first turn: no turn of Team 2 is ever logged, the others go on)."""
    from sim.engine.rules.death import _kill

    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    st, ent = game.st, game.st.ent
    for e in np.flatnonzero((ent.team == 1) & (ent.kind == L.K_CHARACTER)):
        _kill(st, game.S, int(e), -1, L.BY_ATTACK)
    for _ in range(150):
        if game.current < 0:
            break
        step(game, L.RANDOM)
    turns = [ev["team"] for ev in game.named_events("turn")]
    assert set(turns) == {0, 2, 3} and turns.count(3) >= 2


def test_a_cpu_is_every_teams_opponent():
    """"A CPU is an opponent with no affiliation to any team" ("An Opponent is any attackable
    entity that is not on your team — enemies ... and CPUs alike"): a character of each of the
    four teams standing on a CPU's space (range 0) may attack it."""
    game = new_game(2, 3, EXAMPLE_TEAMS.cards)
    st, ent = game.st, game.st.ent
    cpus = np.flatnonzero(ent.is_cpu != 0)
    assert cpus.size and (ent.team[cpus] == L.NO_TEAM).all()
    for t in range(4):
        c = int(np.flatnonzero((ent.team == t) & (ent.kind == L.K_CHARACTER))[0])
        ent.space[c] = ent.space[cpus[0]]
        ent.acted[c] = ent.frozen[c] = ent.submerged[c] = 0
        st.game.cur = c
        assert game.legal_mask()[game.action("attack", cpus[0])], t
        ent.space[c] = -1


def test_cpu_retaliates_only_when_it_survives_and_has_an_attack():
    """"If it survives an attack made against it, it immediately attacks back ... Retaliation
    ignores positioning entirely"; "A CPU with no attack listed never retaliates, and a CPU
    defeated by the attack does not retaliate either"."""
    from sim.engine.rules.attack import _strike

    setup = setup_for(1)
    assert "Coyote" in setup.cpu_names and "Charon" in setup.cpu_names
    for cpu_name, attacks, cpu_health, expect in (("Coyote", 1, 80, True), ("Coyote", 50, 1, False),
                                                  ("Charon", 1, 150, False)):
        game = new_game(1, 2)
        st = game.st
        cpu = int(np.flatnonzero(st.ent.is_cpu)[setup.cpu_names.index(cpu_name)])
        st.ent.space[0] = setup.static.spawn_space[0, 0]  # far away: positioning is ignored
        st.ent.atk[0] = attacks
        st.ent.health[cpu] = cpu_health
        before = int(st.game.nev)
        _strike(st, game.S, 0, cpu, 0, 0)
        rows = st.ev[before:int(st.game.nev)]
        assert (L.EV_RETALIATE in rows[:, 0]) == expect, cpu_name
        if not expect and cpu_health == 1:
            assert st.ent.alive[cpu] == 0
