"""The GM's fairness check: four given teams in duplicate play, round after round, until settled.

Each round plays whole duplicate blocks (one board and the same dice seed family, the four teams
rotated through the four seats), then asks :func:`sim.analysis.fairness.fairness_verdict`. A clear
case stops after a round or two; a close one plays up to ``max_games``.

Boards. Block ``b`` is played on board ``b % boards`` (:mod:`.schedule`), so past ``boards``
blocks the boards are reused and the blocks of one board are correlated (a board that suits one
team's cards suits it from every seat). The intervals are therefore cluster-robust by board:
the boards, not the games, are the independent draws, and the report states the design ("4,096
games on 256 boards"). The default number of boards is high enough that, at the default games,
each board holds about four blocks; boards are built as the rounds reach them, so a check that
settles early never builds the rest.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sim.analysis.fairness import OPEN, FairnessVerdict, fairness_verdict, game_values
from sim.analysis.variance import SeatTeamEffects, seat_team_effects

from .experiment import Experiment
from .tasks import build_arena, grow_arena, play_games

DEFAULT_GAMES = 4000
DEFAULT_BOARDS = 256   # ~4 blocks per board at the default games: boards seldom set the floor
MIN_BOARDS = 2         # a board-clustered standard error needs two boards


@dataclass(frozen=True)
class FairnessReport:
    verdict: FairnessVerdict
    seats: SeatTeamEffects
    outcomes: dict              # outcome kind -> share of games
    health: np.ndarray          # each team's mean total health left at the end of a game
    games: int
    rounds: int
    seconds: float
    boards: int = 0             # distinct boards played (the clusters of the intervals)

    @property
    def design(self) -> str:
        """The design in words: "4,096 games on 256 boards"."""
        return self.verdict.design


def fairness_experiment(teams, policy: str, seed: int, max_games: int, round_games: int,
                        boards: int, path: str = "") -> Experiment:
    """The in-memory experiment of a fairness check (duplicate seating, fixed teams)."""
    return Experiment(name="fairness", description="GM fairness check", games=max_games,
                      root_seed=seed, batch_size=round_games, boards=boards,
                      policies=(policy,) * 4, seating="duplicate", teams=teams.cards,
                      team_names=teams.names, pool=None, draw="random", path=path, digest="")


def _team_health(cols) -> np.ndarray:
    """Each team's health left at the end of each game ``[n, 4]`` (columns are by seat)."""
    seat_health = np.stack([cols[f"seat{k + 1}_health"] for k in range(4)], axis=1)
    team_health = np.empty_like(seat_health)
    rows = np.arange(seat_health.shape[0])[:, None]
    team_health[rows, np.stack([cols[f"team_in_seat{k + 1}"] for k in range(4)], 1)] = seat_health
    return team_health


def check_fairness(catalogue, teams, *, policy: str = "greedy", seed: int = 0,
                   max_games: int = DEFAULT_GAMES, round_games: int = 256,
                   boards: int = DEFAULT_BOARDS, tolerance: float = 0.05, alpha: float = 0.05,
                   progress=None) -> FairnessReport:
    if max_games < 8 or max_games % 4 or round_games % 4 or round_games < 8:
        raise ValueError("games and rounds are whole duplicate blocks of 4, at least 8 games")
    if boards < MIN_BOARDS:
        raise ValueError(f"boards must be at least {MIN_BOARDS}: the intervals are clustered "
                         f"by board")
    exp = fairness_experiment(teams, policy, seed, max_games, round_games, boards)
    arena = build_arena(catalogue, exp, n_boards=MIN_BOARDS)  # the rounds grow it
    looks = -(-max_games // round_games)
    t0 = time.perf_counter()
    winners, kinds, health, board = [], [], [], []
    played = rounds = 0
    verdict = None
    while played < max_games:
        stop = min(max_games, played + round_games)
        arena = grow_arena(catalogue, arena, -(-stop // 4))   # the boards this round reaches
        cols = play_games(arena, played, stop)
        assert np.array_equal(cols["seat_offset"], np.arange(played, stop) % 4)
        winners.append(cols["winner_team"])
        health.append(_team_health(cols))
        kinds.append(cols["outcome"])
        board.append(cols["board"][::4])                      # one board per duplicate block
        played, rounds = stop, rounds + 1
        outcomes = game_values(np.concatenate(winners)).reshape(-1, 4, 4)
        verdict = fairness_verdict(outcomes, tolerance=tolerance, alpha=alpha, max_looks=looks,
                                   names=teams.names, clusters=np.concatenate(board))
        if progress is not None:
            progress(played, verdict)
        if verdict.status != OPEN:
            break
    kinds_all = np.concatenate(kinds)
    names, counts = np.unique(kinds_all, return_counts=True)
    seats = seat_team_effects(outcomes, confidence=1 - alpha, clusters=np.concatenate(board))
    return FairnessReport(verdict, seats, {str(n): c / played for n, c in zip(names, counts)},
                          np.concatenate(health).mean(axis=0), played, rounds,
                          time.perf_counter() - t0, verdict.boards)


__all__ = ["DEFAULT_BOARDS", "DEFAULT_GAMES", "FairnessReport", "check_fairness",
           "fairness_experiment"]
