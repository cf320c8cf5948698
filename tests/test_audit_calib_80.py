"""Audit (calib, stop 80): planted-truth checks of printed intervals in the way the commands use
them. Each test plants a known truth, runs the analysis function many times on simulated data
(no games) and checks coverage at the stated rate."""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.balance import seat_shares
from sim.analysis.variance import rotation_seats, seat_team_effects

BASE = np.array([0.4, 0.3, 0.2, 0.1])   # seat 1 favoured, seat 4 least (as a real board may)


def _board_seat_chances(rng, boards: int, sigma: float, base=BASE) -> np.ndarray:
    """Each board's seat chances: the base, with seat 1's strength swung by the board (a board
    whose terrain suits seat 1 more or less). Only seat 1's log-odds move, so the seats' design
    effects differ, as they do whenever boards favour one seat more than the others."""
    z = np.zeros((boards, 4))
    z[:, 0] = rng.normal(size=boards) * sigma
    p = np.exp(np.log(base) + z)
    return p / p.sum(axis=1, keepdims=True)


def _truth(sigma: float, seed: int = 99) -> np.ndarray:
    """The population's seat shares: each seat's chance averaged over boards (400,000 boards)."""
    return _board_seat_chances(np.random.default_rng(seed), 400_000, sigma).mean(axis=0)


def _seat_share_coverage(boards: int, per_board: int, sigma: float, reps: int, seed: int):
    rng = np.random.default_rng(seed)
    truth = _truth(sigma)
    board = np.repeat(np.arange(boards), per_board)
    covered = np.zeros(4)
    for _ in range(reps):
        p = _board_seat_chances(rng, boards, sigma)
        u = rng.random((boards, per_board, 1))
        w = (u > np.cumsum(p, axis=1)[:, None, :]).sum(axis=2).ravel()   # the winning seat
        for s, sh in enumerate(seat_shares(w, board)):
            covered[s] += sh.low <= truth[s] <= sh.high
    return covered / reps


@pytest.mark.xfail(strict=True, reason=(
    "balance.seat_shares (the 'seat N wins x % (lo-hi)' balance lines of run, fairness, rarity, "
    "drift, draft) puts every seat at the seats' AVERAGE design effect on (seats-1)(G-1) df; when "
    "boards swing one seat more than the others (here only seat 1's strength varies by board) "
    "that seat's 95 % interval covers about 83-88 %, and more boards do not help (measured on "
    "1,000 studies: 83.1 % on 8 boards x 32 games, 83.5 % on 16 x 32, 88.0 % on 64 x 16; the "
    "other seats over-cover, 95-99 %). Only the null (all seats alike) is calibrated "
    "(tests/test_calibration.py::test_seat_shares_of_games_won_cover_as_the_seat_rates_do)."))
def test_the_seat_share_of_a_seat_that_boards_swing_covers_at_95():
    cov = _seat_share_coverage(boards=16, per_board=32, sigma=1.0, reps=1000, seed=8001)
    assert cov.min() >= 0.92, cov


def test_the_seat_shares_cover_when_boards_swing_every_seat_alike():
    """The design the averaging was made for: every seat's strength swung alike by the boards."""
    rng = np.random.default_rng(8002)
    boards, per_board, sigma, reps = 16, 32, 0.5, 300
    z = rng.normal(size=(400_000, 4)) * sigma
    big = np.exp(np.log(BASE) + z)
    truth = (big / big.sum(axis=1, keepdims=True)).mean(axis=0)
    board = np.repeat(np.arange(boards), per_board)
    covered = np.zeros(4)
    for _ in range(reps):
        p = np.exp(np.log(BASE) + rng.normal(size=(boards, 4)) * sigma)
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random((boards, per_board, 1))
        w = (u > np.cumsum(p, axis=1)[:, None, :]).sum(axis=2).ravel()
        for s, sh in enumerate(seat_shares(w, board)):
            covered[s] += sh.low <= truth[s] <= sh.high
    assert (covered / reps).min() >= 0.92, covered / reps


def _duplicate_outcomes(rng, boards: int, blocks_per_board: int, sigma: float):
    """Duplicate blocks as ``bwlab fairness`` plays them: block b on board b % boards, four
    rotations of four equal teams (Latin square), each game's winning seat drawn from the board's
    seat chances. Returns outcomes [blocks, rotations, teams] and each block's board."""
    p = _board_seat_chances(rng, boards, sigma)
    n_blocks = boards * blocks_per_board
    block_board = np.arange(n_blocks) % boards
    seats = rotation_seats(4)                                  # seats[rotation, team]
    u = rng.random((n_blocks, 4, 1))
    win_seat = (u > np.cumsum(p[block_board], axis=1)[:, None, :]).sum(axis=2)   # [block, rot]
    y = (seats[None, :, :] == win_seat[:, :, None]).astype(float)
    return y, block_board


@pytest.mark.xfail(strict=True, reason=(
    "variance.SeatTeamEffects.seat_interval (the seat rates 'bwlab fairness' and the report "
    "print) takes the seats' average design effect on (seats-1)(G-1) df: when boards swing one "
    "seat more than the others, that seat's 95 % interval covers about 87-88 % (1,000 studies: 87.8 % on 32 boards x 4 "
    "duplicate blocks, 86.9 % on 64 x 4; 93.5 % on 256 boards x 1 block, 91.1 % at a milder "
    "swing). Calibrated only for the null's seats (tests/test_calibration.py)."))
def test_the_fairness_seat_rate_of_a_seat_that_boards_swing_covers_at_95():
    rng = np.random.default_rng(8003)
    truth = _truth(1.0)
    covered = np.zeros(4)
    reps = 1000
    for _ in range(reps):
        y, board = _duplicate_outcomes(rng, boards=32, blocks_per_board=4, sigma=1.0)
        lo, hi = seat_team_effects(y, clusters=board).seat_interval()
        covered += (lo <= truth) & (truth <= hi)
    assert (covered / reps).min() >= 0.92, covered / reps
