"""The schedule (sim/runner/schedule.py): each game's teams in their seats, built with whole
arrays, against a slow reference that seats them game by game as the rules of the experiment
say ("cards are randomly assigned": a pool's draw per block of games; fixed teams otherwise;
duplicate seating takes each draw through every seat). The schedule must not depend on which
games are asked for: a window gives the rows of the whole."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.catalogue.loader import load_catalogue
from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS
from sim.engine.state.fields import POLICY_IDS
from sim.runner import drift
from sim.runner.experiment import load_experiment
from sim.runner.schedule import boards_reached, draw_teams, schedule

ROOT = Path(__file__).resolve().parents[1]


def _reference_cards(exp, games):
    """Each game's cards seat by seat, one game at a time."""
    out = []
    for g in games:
        block = g // TEAMS if exp.seating == "duplicate" else g
        offset = g % TEAMS if exp.seating in ("duplicate", "rotate") else 0
        teams = exp.teams if exp.teams is not None else draw_teams(exp, int(block))
        out.append([np.asarray(teams)[(s - offset) % TEAMS] for s in range(TEAMS)])
    return np.asarray(out, np.int64).reshape(len(games), TEAMS, CARDS_PER_TEAM)


def _experiments():
    catalogue = load_catalogue(ROOT / "cards")
    pool = load_experiment(ROOT / "experiments/rarity.toml", catalogue.cards, tuple(POLICY_IDS),
                           games=400)
    fixed = drift.load_suite(ROOT / "experiments/drift.toml", catalogue.cards,
                             tuple(POLICY_IDS)).experiments[0]
    return [replace(e, seating=s) for e in (pool, fixed) for s in ("duplicate", "rotate", "fixed")]


@pytest.mark.parametrize("start, stop", [(0, 0), (0, 1), (3, 17), (0, 400), (123, 401)])
def test_every_games_teams_are_seated_as_the_reference_seats_them(start, stop):
    for exp in _experiments():
        got = schedule(exp, start, stop)
        want = _reference_cards(exp, range(start, stop))
        assert got.team_cards.dtype == np.int64 and got.team_cards.shape == want.shape
        assert np.array_equal(got.team_cards, want), (exp.seating, exp.teams is None)
        whole = schedule(exp, 0, stop)
        for name in ("games", "board", "offset", "team_cards", "team_of_seat", "draw"):
            assert np.array_equal(getattr(got, name), getattr(whole, name)[start:]), name


def test_the_boards_reached_are_those_the_schedule_plays():
    """``boards_reached(exp, g)`` (the boards ``build_arena`` and ``grow_arena`` build) is
    exactly how many boards the schedule's first ``g`` games play, for every seating: a board
    too few and ``play_games`` refuses the games; one too many is built and never played."""
    for exp in _experiments():
        for boards in (1, 3, 64):
            small = replace(exp, boards=boards)
            for g in (0, 1, 3, 4, 5, 16, 17, 255, 256, 257, 400):
                played = schedule(small, 0, g).board
                want = 0 if g == 0 else int(played.max()) + 1
                assert boards_reached(small, g) == want == len(set(played.tolist())), \
                    (exp.seating, boards, g)
