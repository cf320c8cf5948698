"""Which game is which: board, teams and seats of game ``i``, from the experiment alone.

Every game's set-up is a pure function of (experiment, game index), never of the worker or the
batch that plays it, so a run is bit-identical for any ``--jobs``, any backend and after a resume.
Independent streams: game dice use child ``i`` of ``SeedSequence(root_seed)`` (in the engine);
team draws and board seeds use ``SeedSequence([root_seed, 1])`` and ``[root_seed, 2]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.catalogue.teams import CARDS_PER_TEAM, TEAMS

from .experiment import Experiment

DRAW_STREAM, BOARD_STREAM = 1, 2


@dataclass(frozen=True)
class Schedule:
    games: np.ndarray       # int64[n] global game indices
    board: np.ndarray       # int64[n] index into the experiment's boards
    offset: np.ndarray      # int64[n] seat rotation: seat s holds team (s - offset) % 4
    team_cards: np.ndarray  # int64[n, 4, 5] cards in each seat
    team_of_seat: np.ndarray  # int64[n, 4] which experiment team sits in each seat
    draw: np.ndarray        # int64[n] team-draw block (pool experiments), else 0


def board_seed(exp: Experiment, k: int) -> int:
    """Seed of the experiment's board ``k`` (boards are generated once and reused in turn)."""
    seq = np.random.SeedSequence([exp.root_seed, BOARD_STREAM, k])
    return int(seq.generate_state(1, np.uint32)[0])


def draw_teams(exp: Experiment, block: int) -> np.ndarray:
    """Four teams of five distinct pool cards for draw ``block`` ("cards are randomly assigned")."""
    rng = np.random.default_rng(np.random.SeedSequence([exp.root_seed, DRAW_STREAM, block]))
    picked = rng.choice(exp.pool, size=TEAMS * CARDS_PER_TEAM, replace=False)
    return picked.astype(np.int64).reshape(TEAMS, CARDS_PER_TEAM)


def _block_of(exp: Experiment, games):
    """Each game's block (game numbers in, block numbers out): a duplicate block's four games
    share a board and a draw, the teams through every seat; otherwise a game is a block."""
    return games // TEAMS if exp.seating == "duplicate" else games


def boards_reached(exp: Experiment, games: int) -> int:
    """How many of the experiment's boards its first ``games`` games play (boards 0 .. this
    - 1, as :func:`schedule` assigns them: block ``b`` plays board ``b % boards``)."""
    return 0 if games <= 0 else min(exp.boards, int(_block_of(exp, games - 1)) + 1)


def schedule(exp: Experiment, start: int, stop: int) -> Schedule:
    """The set-up of games ``start .. stop - 1``."""
    games = np.arange(start, stop, dtype=np.int64)
    block = _block_of(exp, games)
    offset = games % TEAMS if exp.seating in ("duplicate", "rotate") else np.zeros_like(games)
    board = block % exp.boards
    seats = np.arange(TEAMS)
    team_of_seat = (seats[None, :] - offset[:, None]) % TEAMS
    # whole arrays, not a loop over games: the drift gate asks for its schedule at every round
    # (a loop was a quarter of a planted gate's time, tests/test_drift_suite_level.py)
    if exp.teams is not None:
        team_cards = np.asarray(exp.teams, np.int64)[team_of_seat]
    else:  # each draw once, however many of its games are asked for
        blocks, which = np.unique(block, return_inverse=True)
        drawn = np.zeros((blocks.size, TEAMS, CARDS_PER_TEAM), np.int64)
        for i, b in enumerate(blocks):
            drawn[i] = draw_teams(exp, int(b))
        team_cards = drawn[which.reshape(-1)[:, None], team_of_seat]
    draw = block if exp.teams is None else np.zeros_like(block)
    return Schedule(games, board, offset, team_cards, team_of_seat, draw)
