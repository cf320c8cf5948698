"""The ablation interval of ``bwlab rarity`` (``ablation_low`` / ``ablation_high`` of
rarity_cards.csv) counts boards, not games.

The ablation replays a card's games with the card swapped for its rarity's reference card (same
boards, seats and dice) and measures the paired change in its team's chance to win. Those games
share boards (block ``b`` on board ``b % boards``; under duplicate seating the card's team plays
all four games of its block on one board), and a board that suits the card does so in every game
on it. The interval was effect +- 1.96 standard errors of independent games; it is now
``sim.runner.rarity_ablation.ablation_interval``: clustered by board (CR1, t on boards - 1
degrees of freedom), independent games (t on n - 1) below ``MIN_CLUSTERS`` boards.
docs/intervals.md."""

from __future__ import annotations

import numpy as np
import pytest

from scipy.stats import binomtest, norm

# The planted design: a card's replayed games as the study takes them (the default --ablation
# 100 replays about 25 blocks of four games): blocks of four games, one or two on each of 24
# boards (16 boards with 4 games, 8 with 8: 128 games); board labels as the schedule gives them
# (not 0..G-1).
BOARDS = 24
GAMES_ON_BOARD = np.resize([4, 4, 8], BOARDS)
BOARD_LABELS = np.repeat(7 * np.arange(BOARDS) + 3, GAMES_ON_BOARD)
TRUE_EFFECT = 0.10      # swapping the card out costs its team 10 points of its chance to win
BOARD_SPREAD = 0.60     # ... give or take U(-0.6, +0.6) on a board (centred: the truth stays)
MOVED = 0.90            # P(the swap changes whether its team wins): the differences are -1, 0, +1
REPLICATIONS = 400
SEED = 20261205


def planted_differences(rng) -> np.ndarray:
    """One card's paired differences (won the original minus won the replay), one per game: on
    board b, +1 with probability (MOVED + TRUE_EFFECT + u_b) / 2, -1 with (MOVED - TRUE_EFFECT -
    u_b) / 2, else 0; u_b ~ U(-BOARD_SPREAD, +BOARD_SPREAD), the board's own effect shared by
    every game on it. u_b is centred, so the expected difference is TRUE_EFFECT."""
    u = rng.uniform(-BOARD_SPREAD, BOARD_SPREAD, BOARDS)
    board = np.repeat(np.arange(BOARDS), GAMES_ON_BOARD)
    up = (MOVED + TRUE_EFFECT + u[board]) / 2
    down = (MOVED - TRUE_EFFECT - u[board]) / 2
    x = rng.random(board.size)
    return np.where(x < up, 1.0, np.where(x < up + down, -1.0, 0.0))


def old_interval(diff, boards=None, confidence: float = 0.95):
    """The interval rarity_cards.csv had: effect +- 1.96 standard errors of independent games."""
    d = np.asarray(diff, float)
    half = norm.isf((1 - confidence) / 2) * d.std(ddof=1) / np.sqrt(d.size)
    return d.mean() - half, d.mean() + half


def new_interval(diff, boards=None, confidence: float = 0.95):
    from sim.runner.rarity_ablation import ablation_interval

    iv = ablation_interval(diff, boards, confidence)
    return iv.low, iv.high


def coverage(interval) -> int:
    """In how many of REPLICATIONS planted cards ``interval`` holds TRUE_EFFECT (fixed seed: the
    same cards for every interval)."""
    rng = np.random.default_rng(SEED)
    hits = 0
    for _ in range(REPLICATIONS):
        low, high = interval(planted_differences(rng), BOARD_LABELS, 0.95)
        hits += bool(low <= TRUE_EFFECT <= high)
    return hits


def test_the_ablation_interval_covers_a_planted_effect_on_shared_boards():
    """Planted truth: 400 cards whose swap costs their team 10 points on average, each board
    adding its own U(+-0.6) (a design effect of about 1.7: the independent-games standard error
    is 1.3x too small). The 95 % interval must cover at its rate (two-sided binomial test,
    p > 0.01); the old independent-games interval must fail the same check on the same cards.
    Measured (seed 20261205): clustered 379 / 400 = 94.75 % (p = 0.82), old 349 / 400 = 87.25 %
    (p = 1e-9); z-spread 1.03 against 1.27. Over seeds 1-8 (3,200 cards): 95.0 % against 87.6 %,
    and the old interval fails at p < 1e-4 on every seed."""
    new = coverage(new_interval)
    assert binomtest(new, REPLICATIONS, 0.95).pvalue > 0.01, f"covered {new} / {REPLICATIONS}"
    old = coverage(old_interval)
    assert binomtest(old, REPLICATIONS, 0.95).pvalue < 0.01, f"old covered {old} / {REPLICATIONS}"
    assert old < new


def test_below_min_clusters_the_games_count_as_independent_with_a_t_quantile():
    """One board (or none given): no between-board variance to estimate, so the fallback is the
    independent-games standard error, with t on n - 1 degrees of freedom (not 1.96)."""
    from scipy.stats import t as student_t

    from sim.analysis.cluster import MIN_CLUSTERS
    from sim.runner.rarity_ablation import ablation_interval

    assert MIN_CLUSTERS == 2
    d = np.array([1.0, 0.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0])
    se = d.std(ddof=1) / np.sqrt(d.size)
    half = student_t.ppf(0.975, d.size - 1) * se
    for boards in (None, np.full(d.size, 5)):
        iv = ablation_interval(d, boards)
        assert iv.boards == 0 and iv.df == d.size - 1
        assert iv.effect == pytest.approx(d.mean())
        assert iv.se == pytest.approx(se)
        assert (iv.low, iv.high) == pytest.approx((d.mean() - half, d.mean() + half))
    # two boards are enough: clustered, t on 1 degree of freedom
    two = ablation_interval(d, np.repeat([0, 1], 4))
    assert two.boards == 2 and two.df == 1
    # a single game (or none) has no interval
    for few in ([1.0], []):
        iv = ablation_interval(few, np.zeros(len(few)))
        assert np.isnan(iv.se) and np.isnan(iv.low) and np.isnan(iv.high)


def test_one_game_per_board_is_the_independent_games_interval():
    """With every game on its own board the clustered standard error is the independent one
    (CR1: G / (G - 1) times the deviations' sum of squares over n^2), t on n - 1 df."""
    from sim.runner.rarity_ablation import ablation_interval

    d = np.random.default_rng(3).choice([-1.0, 0.0, 1.0], size=40, p=[0.2, 0.5, 0.3])
    own = ablation_interval(d, np.arange(40) * 3)
    independent = ablation_interval(d, None)
    assert own.boards == 40 and own.df == independent.df == 39
    assert own.se == pytest.approx(independent.se, rel=1e-12)
    assert (own.low, own.high) == pytest.approx((independent.low, independent.high), rel=1e-12)


def test_ablation_clusters_each_card_by_the_boards_its_games_were_played_on(monkeypatch, catalogue):
    """``ablation`` takes each replayed game's board from the schedule (the board it and its
    original were played on) and gives every card :func:`ablation_interval` of its own games;
    its named fields (effect, se, count, low, high, boards) agree with it. No game is played: the
    replay is a stand-in that returns planted winners."""
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner import rarity, rarity_ablation
    from sim.runner.experiment import load_experiment
    from sim.runner.schedule import schedule
    from tests._planted_kit import ROOT

    exp = load_experiment(ROOT / "experiments" / "rarity.toml", catalogue.cards,
                          tuple(POLICY_IDS), games=1200)  # 300 blocks on 64 boards
    sch = schedule(exp, 0, exp.games)
    seat_cards = sch.team_cards
    winner = np.random.default_rng(11).integers(0, 4, exp.games)
    seen = {}

    def replayed_winner(games):  # the stand-in replay: a fixed winner per game
        return (np.asarray(games) * 2654435761 % 97) % 4

    def replay(arena, games, teams):
        seen["games"] = np.asarray(games)
        return replayed_winner(games)

    monkeypatch.setattr(rarity_ablation, "build_arena", lambda catalogue, exp: None)
    monkeypatch.setattr(rarity_ablation, "replay_winners", replay)
    n = len(catalogue.cards)
    reference = rarity.reference_cards(np.arange(n, dtype=float), np.zeros(n, np.int64))
    out = rarity_ablation.ablation(None, exp, seat_cards, winner, reference, 40)
    effect, se, count = out.effect, out.se, out.count
    assert count.max() == 40 and np.all(out.boards[count > 1] >= 2)
    for c in np.flatnonzero(count > 1)[:5]:
        # the card's games, as the ablation takes them (its reference free in the game)
        holds = np.argwhere(seat_cards == c)
        holds = holds[~np.any(seat_cards[holds[:, 0]] == reference[c], axis=(1, 2))][:40]
        g, seat = holds[:, 0], holds[:, 1]
        assert g.size == count[c] and np.isin(g, seen["games"]).all()
        diff = (winner[g] == seat).astype(float) - (replayed_winner(g) == seat)
        want = rarity_ablation.ablation_interval(diff, sch.board[g])
        assert np.unique(sch.board[g]).size == want.boards == out.boards[c] < count[c]
        assert (effect[c], se[c], out.low[c], out.high[c]) == pytest.approx(
            (want.effect, want.se, want.low, want.high), rel=1e-12)
        assert se[c] > 0 and out.low[c] < out.high[c]


def test_rarity_cards_csv_takes_the_ablation_s_own_interval():
    """``ablation_low`` / ``ablation_high`` are the ablation's own (clustered) bounds; without an
    ablation (``--ablation 0``: ``Ablation.skipped``) they are blank."""
    from sim.cli.rarity_output import ablation_bounds
    from sim.runner.rarity_ablation import Ablation

    effect, se, count = np.array([0.1, 0.0]), np.array([0.05, np.nan]), np.array([40, 0])
    low, high = np.array([-0.02, np.nan]), np.array([0.22, np.nan])
    got = ablation_bounds(Ablation(effect, se, count, low, high, np.array([9, 0])))
    assert np.array_equal(got["ablation_low"], low, equal_nan=True)
    assert np.array_equal(got["ablation_high"], high, equal_nan=True)
    none = ablation_bounds(Ablation.skipped(2))
    assert np.isnan(none["ablation_low"]).all() and np.isnan(none["ablation_high"]).all()
    # and no effect either: "not measured" is blank, not a measured 0.0 (it was 0.0)
    assert np.isnan(Ablation.skipped(2).effect).all()


def test_the_outlier_line_states_the_swap_with_its_interval_in_the_swap_s_sign():
    """The printed swap is minus the ablation effect (original minus replay), so its interval is
    the effect's bounds negated and swapped; a card replayed without an interval prints none."""
    from types import SimpleNamespace

    from sim.cli.rarity_text import _swap_interval

    row = SimpleNamespace(ablation_low=-0.054, ablation_high=0.098)
    assert _swap_interval(row) == " (-9.8 to +5.4, 95 %, clustered by board)"
    assert _swap_interval(SimpleNamespace(ablation_low=np.nan, ablation_high=np.nan)) == ""


def test_a_replay_in_which_no_game_moved_still_has_an_interval_that_covers():
    """A swap that rarely changes a game: often every replayed game comes out as the original,
    and the old interval (effect +- t * se) was then [0, 0], excluding the true effect. Planted:
    the 128 games on 24 boards above, each board moving (with probability 4 %) every game on it
    to "the card's team lost the replay"; the true effect is 0.04 * 1 = 0.04 of its chance to win.
    In 400 replications (about 38 % of them with no game moved) the interval must cover the
    truth at least 95 % of the time as far as a one-sided binomial test at 1 % can tell; the
    clustered interval without the bound must not (it covers none of the no-move cards)."""
    from scipy.stats import binomtest

    from sim.analysis.cluster import clustered_mean

    rng = np.random.default_rng(SEED + 1)
    board = np.repeat(np.arange(BOARDS), GAMES_ON_BOARD)
    truth = 0.04
    bounded = unbounded = still = 0
    for _ in range(REPLICATIONS):
        d = (rng.random(BOARDS) < truth)[board].astype(float)
        low, high = new_interval(d, BOARD_LABELS, 0.95)
        bounded += bool(low <= truth <= high)
        m = clustered_mean(d, BOARD_LABELS, 0.95)
        unbounded += bool(m.lower <= truth <= m.upper)
        still += not d.any()
    assert 0.25 * REPLICATIONS < still < 0.5 * REPLICATIONS  # the case under test happens
    assert binomtest(bounded, REPLICATIONS, 0.95, alternative="less").pvalue > 0.01, bounded
    assert binomtest(unbounded, REPLICATIONS, 0.95, alternative="less").pvalue < 0.01, unbounded
    low, high = new_interval(np.zeros(128), BOARD_LABELS, 0.95)
    assert low == -high and high == pytest.approx(1 - 0.025 ** (1 / BOARDS))


def test_every_ablation_interval_is_a_real_interval_of_a_change_of_chance():
    """A change of a chance to win lies in [-1, 1], and an interval must hold its estimate and
    have width where games moved. Two holes, seen in ``rarity --games 500 --ablation 8`` (8
    replayed games on 2 boards): boards whose differences came out alike (2 boards of [1, 0, 0,
    0]) gave se 0 and "0.25 [0.25, 0.25]"; t on 1 df gave [-3.18, +3.18]. Planted: 8 games on
    2 boards and 16 on 4, each game moved up with probability 0.3 and down with 0.1 (true effect
    +0.2), 400 replications each: every interval within [-1, 1], holding its estimate, with
    width, and covering the truth at 95 % as far as a one-sided binomial test at 1 % can tell;
    the interval without the fix breaks the range or has no width in some of the same cards."""
    from scipy.stats import binomtest

    from sim.analysis.cluster import clustered_mean
    from sim.runner.rarity_ablation import ablation_interval

    rng = np.random.default_rng(SEED + 2)
    for boards in (2, 4):
        board = np.repeat(11 * np.arange(boards) + 5, 4)
        covered = old_broken = 0
        for _ in range(REPLICATIONS):
            x = rng.random(board.size)
            d = np.where(x < 0.3, 1.0, np.where(x < 0.4, -1.0, 0.0))
            iv = ablation_interval(d, board)
            assert -1.0 <= iv.low <= iv.effect <= iv.high <= 1.0, (d, iv)
            assert iv.high > iv.low, (d, iv)
            covered += bool(iv.low <= 0.2 <= iv.high)
            if d.any():
                m = clustered_mean(d, board, 0.95)
                old_broken += bool(m.lower < -1 or m.upper > 1 or not m.upper > m.lower)
        assert binomtest(covered, REPLICATIONS, 0.95, alternative="less").pvalue > 0.01, covered
        assert old_broken > 0
    alike = ablation_interval(np.tile([1.0, 0.0, 0.0, 0.0], 2), np.repeat([3, 9], 4))
    assert alike.effect == 0.25 and alike.low < 0.25 < alike.high
    wide = ablation_interval(np.array([1.0, 1, 0, 0, 0, 0, 0, 0]), np.repeat([3, 9], 4))
    assert (wide.low, wide.high) == (-1.0, 1.0)
    six = ablation_interval(np.tile([1.0, 0.0, 0.0, 0.0], 6), np.repeat(np.arange(6), 4))
    assert -1.0 < six.low < 0.25 < six.high < 1.0   # boards alike, yet a finite, real interval
