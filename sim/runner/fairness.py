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

from sim.analysis.balance import GameBalance, game_balance, pairwise_differences
from sim.analysis.fairness import OPEN, FairnessVerdict, fairness_verdict, game_values
from sim.analysis.variance import SeatTeamEffects, seat_team_effects

from .experiment import Experiment
from .progress import stage
from .tasks import build_arena, by_team, grow_arena, play_games

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
    pairs: tuple = ()           # PairDifference of every two teams, simultaneous intervals
    pair_level: float = 0.0     # confidence of each pair's interval (after the corrections)
    balance: GameBalance | None = None  # how the games went (sim.analysis.balance)
    looks: int = 1              # looks the sequential verdict was allowed (its correction)

    @property
    def design(self) -> str:
        """The design in words: "4,096 games on 256 boards"."""
        return self.verdict.design


def fairness_experiment(teams, policy: str, seed: int, max_games: int, round_games: int,
                        boards: int, path: str = "") -> Experiment:
    """The in-memory experiment of a fairness check (duplicate seating, fixed teams). Each
    team's cards are played in name order, as a team file's are (``load_teams``: the order
    changes the games), so teams a search proposes (``--suggest``'s swaps, ``draft``'s splits)
    play the games their team file replays with the same seed (the advice audit of stop 81)."""
    return Experiment(name="fairness", description="GM fairness check", games=max_games,
                      root_seed=seed, batch_size=round_games, boards=boards,
                      policies=(policy,) * 4, seating="duplicate",
                      teams=np.sort(np.asarray(teams.cards, np.int64), axis=1),
                      team_names=teams.names, pool=None, draw="random", path=path, digest="")


GAME_COLUMNS = ("winner_team", "winner_seat", "outcome", "rotations", "board", "lead_changes")


def games_balance(cols: dict, alpha: float = 0.05) -> GameBalance:
    """The balance metrics of played games (columns of :func:`tasks.play_games`, concatenated),
    clustered by board like every other interval of the check."""
    return game_balance(cols["winner_team"], cols["outcome"], cols["rotations"],
                        clusters=cols["board"], winner_seat=cols["winner_seat"],
                        eliminated=cols["eliminated"], lead_changes=cols["lead_changes"],
                        confidence=1 - alpha)


def check_fairness(catalogue, teams, *, policy: str = "greedy", seed: int = 0,
                   max_games: int = DEFAULT_GAMES, round_games: int = 256,
                   boards: int = DEFAULT_BOARDS, tolerance: float = 0.05, alpha: float = 0.05
                   ) -> FairnessReport:
    if max_games < 8 or max_games % 4 or round_games % 4 or round_games < 8:
        raise ValueError("games and rounds are whole duplicate blocks of 4, at least 8 games")
    if boards < MIN_BOARDS:
        raise ValueError(f"boards must be at least {MIN_BOARDS}: the intervals are clustered "
                         f"by board")
    exp = fairness_experiment(teams, policy, seed, max_games, round_games, boards)
    arena = build_arena(catalogue, exp, n_boards=MIN_BOARDS)  # the rounds grow it
    looks = -(-max_games // round_games)
    t0 = time.perf_counter()
    kept: dict[str, list] = {k: [] for k in GAME_COLUMNS + ("health", "eliminated")}
    played = rounds = 0
    verdict = None
    with stage("duplicate play of the four teams", max_games, at_most=True):
        while played < max_games:
            stop = min(max_games, played + round_games)
            arena = grow_arena(catalogue, arena, stop)  # the boards this round reaches
            cols = play_games(arena, played, stop)
            assert np.array_equal(cols["seat_offset"], np.arange(played, stop) % 4)
            for k in GAME_COLUMNS:
                kept[k].append(cols[k])
            kept["health"].append(by_team(cols, "health"))
            kept["eliminated"].append(by_team(cols, "eliminated"))
            played, rounds = stop, rounds + 1
            outcomes = game_values(np.concatenate(kept["winner_team"])).reshape(-1, 4, 4)
            blocks = np.concatenate(kept["board"])[::4]           # one board per duplicate block
            verdict = fairness_verdict(outcomes, tolerance=tolerance, alpha=alpha, max_looks=looks,
                                       names=teams.names, clusters=blocks)
            if verdict.status != OPEN:
                break
    games = {k: np.concatenate(v) for k, v in kept.items()}
    names, counts = np.unique(games["outcome"], return_counts=True)
    seats = seat_team_effects(outcomes, confidence=1 - alpha, clusters=blocks)
    pairs, pair_level = pairwise_differences(outcomes, clusters=blocks, alpha=alpha, looks=looks)
    return FairnessReport(verdict, seats, {str(n): c / played for n, c in zip(names, counts)},
                          games["health"].mean(axis=0), played, rounds,
                          time.perf_counter() - t0, verdict.boards, tuple(pairs), pair_level,
                          games_balance(games, alpha), looks)


def check_by_player(catalogue, teams, players, **settings) -> dict:
    """``{player: FairnessReport}``: the check under each of ``players`` with the same seed and
    ``settings`` (keywords of :func:`check_fairness`), so the same boards, deals and dice streams;
    each settles on its own schedule. Why: does the verdict hold for stronger players?"""
    reports = {}
    for label in players:
        with stage(f"the check under {label}"):
            reports[label] = check_fairness(catalogue, teams, policy=label, **settings)
    return reports


__all__ = ["DEFAULT_BOARDS", "DEFAULT_GAMES", "FairnessReport", "check_by_player", "check_fairness",
           "fairness_experiment", "games_balance"]
