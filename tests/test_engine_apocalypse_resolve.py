"""The Apocalypse can be resolved (issue #20, item 1): "It continues until it is resolved by the
players meeting its condition, or until the game ends with one team victorious." The book prints
no condition; cards/apocalypses.toml gives each entry one (house ruling, docs/rulings.md):
resolve = "hold", a character standing on the revealed Apocalypse tile at `hold` GM Turns in a
row."""

from __future__ import annotations

import numpy as np
import pytest

from sim.ai.play import play_game, step
from sim.catalogue.apocalypses import P_HOLD
from sim.catalogue.tile_layout import FLOOR
from sim.engine.state import fields as L
from sim.engine.rules.turn import _gm_turn
from tests._engine_kit import EXAMPLE_TEAMS, new_game


def _until_active(game):
    """Random play until the Apocalypse has begun (None if the game ended first)."""
    while not game.terminal and game.st.game.apoc_active == 0:
        step(game, L.RANDOM)
    return None if game.terminal else game


def _apocalypse_space(game) -> int:
    st, S = game.st, game.S
    (s,) = np.flatnonzero((st.tile_pos == S.ip[L.P_APOC_POS]) & (st.kind == FLOOR))
    return int(s)


def _stand(game, e: int, s: int) -> None:
    game.st.ent.space[e] = s


def _heal_everyone(game) -> None:
    ent = game.st.ent
    alive = ent.alive != 0
    ent.health[alive] = ent.max_health[alive]


def _living_character(game) -> int:
    ent = game.st.ent
    rows = np.flatnonzero((ent.kind == L.K_CHARACTER) & (ent.alive != 0)
                          & (ent.space >= 0))
    return int(rows[0])


def _active_games(apocalypse: int, seeds=range(1, 30)):
    """Games of ``seeds`` that reached the Apocalypse with its tile standing (deterministic: a
    seed gives the same game again)."""
    for seed in seeds:
        game = _until_active(new_game(seed, seed, EXAMPLE_TEAMS.cards, apocalypse=apocalypse))
        if game is not None and game.st.pos_state[game.S.ip[L.P_APOC_POS]] == L.NORMAL:
            yield seed, game


def _active_game(apocalypse: int):
    for _, game in _active_games(apocalypse):
        return game
    pytest.fail("no game reached the Apocalypse")


def _hold(game, apocalypse: int) -> int:
    """A living character on the revealed tile, made hard to kill (the hold is under test, not
    whether the holder lives): the holder."""
    e = _living_character(game)
    _stand(game, e, _apocalypse_space(game))
    game.st.ent.max_health[e] *= 100
    return e


def _held_game(apocalypse: int):
    """The first active game whose Apocalypse tile stands through the hold: The Collapse
    destroys random coordinates, the revealed tile among them (docs/rulings.md, "Destroyed
    coordinates"), and a game where it picks the tile during the hold tests the destruction,
    not the hold. Tried on one copy of the game, returned as a fresh one of the same seed."""
    for seed, game in _active_games(apocalypse):
        st, S = game.st, game.S
        _hold(game, apocalypse)
        for _ in range(int(S.apoc_params[apocalypse, P_HOLD]) - 1):
            _heal_everyone(game)
            _gm_turn(st, S)
            if st.pos_state[S.ip[L.P_APOC_POS]] != L.NORMAL:  # announced: destroyed next turn
                break
        else:
            return next(_active_games(apocalypse, [seed]))[1]
    pytest.fail("no game held its Apocalypse tile with the tile standing")


@pytest.mark.parametrize("apocalypse", [0, 1, 2])
def test_holding_the_tile_for_hold_gm_turns_resolves_it_and_the_gm_turn_resumes(apocalypse):
    game = _held_game(apocalypse)
    st, S = game.st, game.S
    need = int(S.apoc_params[apocalypse, P_HOLD])
    e = _hold(game, apocalypse)
    before = len(game.event_rows())
    for k in range(1, need + 1):
        assert st.game.apoc_resolved == 0
        _heal_everyone(game)  # the hold is counted here, not the holder's survival
        _gm_turn(st, S)
        assert st.game.apoc_held == k
    rows = game.event_rows()[before:]
    kinds = rows[:, 0]
    assert np.sum(kinds == L.EV_APOC_HOLD) == need
    (done,) = game.named_events("apocalypse resolved", since=before)
    assert done["team"] == st.ent.team[e] and done["entity"] == e
    assert st.game.apoc_resolved == 1 + st.ent.team[e] and st.game.apoc_active == 0
    # the step did not run on the resolving GM Turn, nothing is left announced, and from now on
    # the GM Turn operates as normal: no announcement, destruction or Apocalypse damage
    assert not np.any(st.pos_state == L.ANNOUNCED)
    after = len(game.event_rows())
    for _ in range(3):
        _gm_turn(st, S)
    later = game.event_rows()[after:, 0]
    assert not np.isin(later, [L.EV_ANNOUNCE, L.EV_DESTROY, L.EV_TILE_DAMAGE, L.EV_APOC_START,
                               L.EV_APOC_HOLD]).any()
    assert st.game.apoc_active == 0


def test_the_hold_must_be_unbroken():
    """Leaving the tile at a GM Turn starts the count again ("GM Turns in a row")."""
    game = _active_game(0)
    st, S = game.st, game.S
    need = int(S.apoc_params[0, P_HOLD])
    assert need >= 2, "the shipped Storm needs a hold of two GM Turns or more"
    e = _living_character(game)
    away = int(st.ent.space[e])
    _stand(game, e, _apocalypse_space(game))
    _gm_turn(st, S)
    assert st.game.apoc_held == 1
    _stand(game, e, away)
    _gm_turn(st, S)
    assert st.game.apoc_held == 0 and st.game.apoc_resolved == 0
    _stand(game, e, _apocalypse_space(game))
    _gm_turn(st, S)
    assert st.game.apoc_held == 1 and st.game.apoc_resolved == 0


def test_a_cpu_on_the_tile_does_not_hold_it():
    """A CPU is "an opponent with no affiliation to any team": it resolves nothing."""
    game = _active_game(1)
    st, S = game.st, game.S
    cpus = np.flatnonzero((st.ent.kind == L.K_CPU) & (st.ent.alive != 0))
    if cpus.size == 0:
        pytest.skip("no CPU on this board")
    _stand(game, int(cpus[0]), _apocalypse_space(game))
    for _ in range(3):
        _gm_turn(st, S)
    assert st.game.apoc_resolved == 0


def test_resolution_conditions_are_validated_one_line_each(tmp_path):
    """resolve and hold are data, checked like every data file (file:line: field: message)."""
    import shutil
    from pathlib import Path

    from sim.catalogue.apocalypses import load_apocalypses
    from sim.catalogue.diagnostics import InputError

    root = Path(shutil.copytree(Path(__file__).resolve().parents[1] / "cards", tmp_path / "c"))
    apoc = root / "apocalypses.toml"
    shipped = apoc.read_text()
    cases = {'resolve = "pray"': "apocalypses.resolve: unknown value 'pray'",
             "hold = 99": "apocalypses.hold: 99 out of range",
             "": "apocalypses.resolve: missing"}
    for replacement, message in cases.items():
        old = 'resolve = "hold"' if "resolve" in replacement or not replacement else "hold = 5"
        apoc.write_text(shipped.replace(old + "\n", replacement + "\n" if replacement else "", 1))
        with pytest.raises(InputError) as exc:
            load_apocalypses(root)
        lines = [str(p) for p in exc.value.problems]
        assert len(lines) == 1 and message in lines[0], lines
        assert lines[0].startswith(f"{apoc}:"), lines


GAMES_PER_APOCALYPSE = 40


@pytest.fixture(scope="module")
def greedy_games():
    """Greedy plays the example teams 40 times under each shipped Apocalypse (no log)."""
    out = {}
    for a in range(3):
        games = []
        for seed in range(GAMES_PER_APOCALYPSE):
            game = new_game(seed % 16 + 1, 1000 + seed, EXAMPLE_TEAMS.cards, apocalypse=a,
                            log=False)
            games.append((play_game(game, [L.GREEDY] * 4), int(game.st.game.apoc_resolved)))
        out[a] = games
    return out


def test_greedy_resolves_every_shipped_apocalypse_in_some_games(greedy_games):
    """Greedy values the tile (greedy_apocalypse_hold): every shipped Apocalypse is resolved in at
    least one game in ten of 40 (the issue's target: 'every shipped Apocalypse resolved in some
    games'; measured shares are in the commit and docs/rulings.md)."""
    for a, games in greedy_games.items():
        resolved = sum(r > 0 for _, r in games)
        assert resolved >= GAMES_PER_APOCALYPSE // 10, (a, resolved)


def test_fewer_than_one_game_in_four_is_decided_by_the_same_step_tie_break(greedy_games):
    """Issue #20's target with the shipped content and greedy play: under 25 % of games end in a
    simultaneous elimination decided by health (before resolutions: about two in three). One-sided
    binomial test at 1 % over the 120 games.

    Power against the tie-break deciding games as often as before resolutions (two in three:
    the mutation this exists to catch, an Apocalypse that is never resolved): 80 expected of
    120, the test fails unless the count is at most 41 (scipy's binomtest), so power 1 -
    3.7e-13."""
    from scipy import stats

    results = [r for games in greedy_games.values() for r, _ in games]
    same_step = sum(r.reason == "simultaneous elimination" for r in results)
    assert stats.binomtest(same_step, len(results), 0.25, alternative="greater").pvalue > 0.01
    assert same_step / len(results) < 0.25, same_step
