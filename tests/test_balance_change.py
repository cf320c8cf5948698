"""Paired changes of how games end (issue #21 item 3; sim/analysis/balance_change.py).

The issue asks for the balance metrics "as shares with intervals" in every command; `rulings`
and `drift` replay the same seeds twice, so the change of a share is a paired difference of
per-game indicators clustered by board. Planted truths with a fixed seed: the interval covers
a known change at its nominal rate, a planted change among null comparisons is named after Holm's
correction and the nulls are not, and identical replays change by exactly zero.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.analysis.balance import CAP, LAST_STANDING, SIMULTANEOUS, STALEMATE
from sim.analysis.balance_change import (ENDINGS, NO_WINNER, balance_change, paired_change,
                                         significant_endings)

BOARDS, PER_BOARD = 64, 8


def _planted(rng, delta: float, keep: float = 0.8):
    """Per-game indicators before/after on shared boards with a known change ``delta``.

    Before: ``u < p_b`` with a board effect on p_b (games on a board are correlated). After:
    ``u' < p_b + delta_b``, where u' is the same u with chance ``keep`` (the pairing) and a fresh
    draw otherwise, and delta_b = delta + a board-level wobble of mean 0: the population change
    is exactly ``delta``."""
    board = np.repeat(np.arange(BOARDS), PER_BOARD)
    p_b = rng.uniform(0.15, 0.45, BOARDS)[board]
    wobble = rng.uniform(-0.03, 0.03, BOARDS)[board] if delta else 0.0
    u = rng.uniform(size=board.size)
    u_after = np.where(rng.uniform(size=board.size) < keep, u, rng.uniform(size=board.size))
    return u < p_b, u_after < p_b + delta + wobble, board


@pytest.mark.parametrize("delta", [0.0, 0.06])
def test_the_paired_interval_covers_a_planted_change_at_its_nominal_rate(delta):
    """95 % intervals over 400 replications (fixed seed) cover the planted change 95 % of the
    time: within 3 binomial SDs (0.92-0.98)."""
    rng = np.random.default_rng(2101)
    covered = 0
    for _ in range(400):
        before, after, board = _planted(rng, delta)
        c = paired_change(before, after, board)
        covered += c.low <= delta <= c.high
        assert c.low <= c.change <= c.high and c.df == BOARDS - 1
    assert 0.92 <= covered / 400 <= 0.98


def test_identical_replays_change_by_exactly_zero():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 30, 100)
    c = paired_change(x, x, np.arange(100) % 10)
    assert (c.change, c.se, c.low, c.high, c.pvalue, c.games_changed) == (0, 0, 0, 0, 1.0, 0)


def _games(rng, n, board, shift=0.0):
    kinds = np.array([LAST_STANDING, SIMULTANEOUS, STALEMATE, CAP])
    probs = np.array([0.3, 0.15 + shift, 0.3 - shift, 0.25])
    return kinds[(rng.uniform(size=n)[:, None] > np.cumsum(probs)[None, :]).sum(axis=1)]


def test_holm_names_a_planted_ending_change_and_not_the_null_alternatives():
    """Six alternatives per replication, five with no change (their replays differ only by
    noise) and one that moves 7.5 points from stalemate to same-step elimination (a quarter of
    the 30 % of games it replays differently): over 100
    replications the planted one is named in at least 90 %, and any null one in at most about
    alpha = 5 % (binomial allowance: 12 of 100)."""
    rng = np.random.default_rng(2102)
    n = BOARDS * PER_BOARD
    board = np.repeat(np.arange(BOARDS), PER_BOARD)
    found = false = 0
    for _ in range(100):
        base = _games(rng, n, board)
        winner = rng.integers(-1, 4, n)
        before = {"outcome": base, "winner": winner, "rotations": rng.integers(20, 50, n)}
        changes = []
        for k in range(6):
            redo = rng.uniform(size=n) < 0.3           # 30 % of games play out differently
            after_kinds = np.where(redo, _games(rng, n, board, 0.25 if k == 5 else 0.0), base)
            after = {"outcome": after_kinds, "winner": winner,
                     "rotations": before["rotations"]}
            changes.append(balance_change(before, after, board))
        named, adjusted = significant_endings(changes)
        found += SIMULTANEOUS in named[5]
        false += any(named[:5])
        assert set(adjusted[0]) == set(ENDINGS)
    assert found >= 90
    assert false <= 12


def test_a_draw_tie_break_moves_winners_not_the_share_of_same_step_endings():
    """docs/rulings.md "Simultaneous elimination": scoring same-step eliminations as draws
    keeps every game's ending and moves only their winners, so the share of same-step endings
    changes by exactly 0 and the no-winner share by the share of same-step endings that had a
    winner."""
    rng = np.random.default_rng(3)
    n = 400
    board = np.arange(n) % 40
    kinds = _games(rng, n, board)
    winner = rng.integers(0, 4, n)
    same_step = kinds == SIMULTANEOUS
    before = {"outcome": kinds, "winner": winner, "rotations": np.full(n, 30),
              "lead_changes": np.ones(n)}
    after = {**before, "winner": np.where(same_step, -1, winner)}
    ch = balance_change(before, after, board)
    assert ch.endings[SIMULTANEOUS].change == 0 and ch.endings[SIMULTANEOUS].pvalue == 1
    assert ch.endings[NO_WINNER].change == pytest.approx(same_step.mean())
    assert ch.same_step_both == ch.same_step_winner_changed == same_step.sum()
    assert ch.rotations.change == 0 and ch.lead_changes.change == 0
    named, _ = significant_endings([ch])
    assert named == [[NO_WINNER]]


def test_a_few_boards_that_came_out_alike_do_not_make_a_change_certain():
    """Planted: no alternative changes how games end (each redraws half the games from the same
    law), 400 studies on 2 to 8 boards of 4 games (``rulings --games 8 --boards 2`` and up),
    four alternatives each. On so few boards a share's change often comes out alike on every
    board (se 0); its t interval had no width and p was 0, and a ruling "changed how games end"
    in 625 of 1,000 such studies (docs/intervals.md). Holm's family keeps its alpha = 5 %:
    one-sided binomial test of the false findings against 5 %, p > 0.01. The interval used where
    se is 0 (the two shares' own intervals combined) covers a planted change of +15 points of
    same-step endings in at least 95 % of the studies where it is used."""
    from scipy.stats import binomtest

    rng = np.random.default_rng(4801)
    studies, false, flat = 400, 0, 0
    for i in range(studies):
        boards = 2 + i % 7
        board = np.repeat(np.arange(boards), 4)
        n = board.size
        base = _games(rng, n, board)
        winner = rng.integers(-1, 4, n)
        before = {"outcome": base, "winner": winner, "rotations": np.full(n, 30)}
        changes = []
        for _ in range(4):
            redo = rng.uniform(size=n) < 0.5
            after = {"outcome": np.where(redo, _games(rng, n, board), base), "winner": winner,
                     "rotations": before["rotations"]}
            changes.append(balance_change(before, after, board))
            flat += any(e.se == 0 and e.change != 0 for e in changes[-1].endings.values())
        named, _ = significant_endings(changes)
        false += any(named)
    assert flat >= 40  # the case is common on so few boards: the test exercises it
    assert binomtest(false, studies, 0.05, alternative="greater").pvalue > 0.01, false

    covered = used = 0
    for i in range(1500):
        boards = 2 + i % 3
        board = np.repeat(np.arange(boards), 4)
        n = board.size
        base = _games(rng, n, board)
        redo = rng.uniform(size=n) < 0.5
        after = np.where(redo, _games(rng, n, board, 0.3), base)  # +0.5 * 0.3 same-step
        c = balance_change({"outcome": base, "winner": np.zeros(n), "rotations": np.ones(n)},
                           {"outcome": after, "winner": np.zeros(n), "rotations": np.ones(n)},
                           board).endings[SIMULTANEOUS]
        if c.se == 0 and c.change != 0:
            used += 1
            covered += c.low <= 0.15 <= c.high
    assert used >= 100 and covered / used >= 0.95, (covered, used)


def test_a_count_whose_boards_came_out_alike_keeps_an_interval_with_width():
    """Game length and lead changes (means, not shares): two boards whose mean change is the
    same had se 0, p 0 and an interval without width even where the changes cancel
    ([5,6,5,5] -> [6,5,5,5]: change 0, "certain"). The games' own spread now stands in; only
    a change every game made alike stays certain."""
    c = paired_change([5, 6, 5, 5], [6, 5, 5, 5], [0, 0, 1, 1])
    assert c.change == 0 and c.pvalue == 1.0 and c.low < 0 < c.high
    moved = paired_change([5, 6, 5, 7], [6, 8, 6, 8], [0, 0, 1, 1])  # +1.5 on both boards
    assert moved.se > 0 and moved.low < moved.change < moved.high and moved.pvalue > 0
    alike = paired_change([5, 5, 5, 5], [6, 6, 6, 6], [0, 0, 1, 1])
    assert (alike.change, alike.pvalue, alike.low, alike.high) == (1.0, 0.0, 1.0, 1.0)


def test_a_share_no_game_moved_on_two_boards_still_covers_the_rule_s_change():
    """The same planted +15-point change of same-step endings on 2 boards of 4 games
    (``rulings --games 8 --boards 2``): often no game's ending moves, and the interval was then
    [0, 0], which missed the change in 14 % of studies. With the zero-event bound (no game moved
    on G boards: [-u, +u], Clopper-Pearson for 0 of G) the interval covers it in at least 95 %
    of 1,000 studies as far as a one-sided binomial test at 1 % can tell; without the bound (the
    cases with no game moved counted as [0, 0]) the same test rejects."""
    from scipy.stats import binomtest

    rng = np.random.default_rng(4902)
    covered = old = still = 0
    studies = 1000
    for _ in range(studies):
        board = np.repeat(np.arange(2), 4)
        n = board.size
        base = _games(rng, n, board)
        redo = rng.uniform(size=n) < 0.5
        after = np.where(redo, _games(rng, n, board, 0.3), base)
        c = balance_change({"outcome": base, "winner": np.zeros(n), "rotations": np.ones(n)},
                           {"outcome": after, "winner": np.zeros(n), "rotations": np.ones(n)},
                           board).endings[SIMULTANEOUS]
        hit = c.low <= 0.15 <= c.high
        covered += hit
        still += c.games_changed == 0
        old += hit and c.games_changed > 0
    assert still > 50  # the case under test happens
    assert binomtest(covered, studies, 0.95, alternative="less").pvalue > 0.01, covered
    assert binomtest(old, studies, 0.95, alternative="less").pvalue < 0.01, old


def test_the_same_code_replaying_the_same_games_changes_nothing_exactly():
    """The drift gate with the baseline's engine and cards replays every recorded game exactly:
    a share no game moved then changed by exactly 0, not by the zero-event bound that a changed
    rule or engine gets (the same games on other boards could move)."""
    rng = np.random.default_rng(4909)
    board = np.repeat(np.arange(32), 4)
    games = {"outcome": _games(rng, board.size, board), "winner": rng.integers(0, 4, board.size),
             "rotations": np.full(board.size, 30)}
    same = balance_change(games, games, board, same_code=True).endings[SIMULTANEOUS]
    other = balance_change(games, games, board).endings[SIMULTANEOUS]
    assert (same.change, same.low, same.high) == (0.0, 0.0, 0.0)
    assert other.change == 0.0 and other.low < 0.0 < other.high
