"""Counterfactual ablation of each card (``bwlab rarity``, ``rarity_cards.csv``): its games
replayed with the card swapped for its rarity's reference card, same boards, seats and dice.

Why: "win rate when held" carries the selection of which teams drew the card; the paired change
of its team's chance to win, original minus replay, does not. The replays share boards (a card's
team sits in all four games of a duplicate block on one board), so the effect's interval is
clustered by board (:func:`ablation_interval`; docs/intervals.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.analysis.cluster import (MIN_CLUSTERS, SE_ROUNDING, clustered_mean,
                                  clustered_share_interval, no_change_bound)

from . import progress
from .experiment import Experiment
from .rarity import pool_boards
from .tasks import build_arena, replay_winners


@dataclass(frozen=True)
class Ablation:
    """What :func:`ablation` measured, per card: the effect (the mean paired change in its
    team's chance to win, original minus replay; NaN when none of its games was replayed: not
    measured, which a 0 would misstate), its standard error and interval (at
    ``confidence``, clustered by board: :func:`ablation_interval`), the games replayed and the
    boards behind the interval (0: the games taken as independent)."""

    effect: np.ndarray
    se: np.ndarray
    count: np.ndarray
    low: np.ndarray
    high: np.ndarray
    boards: np.ndarray
    confidence: float = 0.95

    @classmethod
    def skipped(cls, n_cards: int) -> "Ablation":
        """No ablation (``--ablation 0``): no games replayed, no effect (NaN: blank in
        rarity_cards.csv, not a measured 0), no interval."""
        def nan():
            return np.full(n_cards, np.nan)

        zero = np.zeros(n_cards, np.int64)
        return cls(nan(), nan(), zero, nan(), nan(), zero.copy())


@dataclass(frozen=True)
class AblationInterval:
    effect: float   # mean paired difference (original minus replay)
    se: float       # its standard error: CR1 clustered by board, or sd / sqrt(n) in the fallback
    low: float
    high: float
    boards: int     # boards behind the interval (t on boards - 1 df); 0: games independent
    df: int         # degrees of freedom of its t quantile (0: no interval, fewer than 2 games)


def _no_game_moved(units: int, clustered: bool, confidence: float) -> AblationInterval:
    """Every replayed game came out as the original: [-u, +u] of
    :func:`sim.analysis.cluster.no_change_bound` over ``units`` (boards, or games when they are
    independent), not [0, 0] (tests/test_rarity_ablation_interval.py: planted rare changes)."""
    u = no_change_bound(units, confidence=confidence)
    return AblationInterval(0.0, 0.0, -u, u, units if clustered else 0, units - 1)


def _without_width(d, boards, clustered: bool, confidence: float) -> tuple[float, float]:
    """The interval of a card whose games moved but whose differences came out alike on every
    board (or, independent, in every game): se 0, so effect +- t * se had no width ("0.25 [0.25,
    0.25]" on 2 boards of [1, 0, 0, 0]). The effect is the share of games the swap moved up
    (won the original, lost the replay) minus the share it moved down; each share gets its own
    board-clustered interval (:func:`sim.analysis.cluster.clustered_share_interval`: Korn &
    Graubard, Wilson when independent) at 1 - (1 - confidence) / 2, combined (lower up - upper
    down, upper up - lower down; Bonferroni), as the rulings' teams and pairs do
    (docs/intervals.md)."""
    half = 1.0 - (1.0 - confidence) / 2.0
    clusters = np.asarray(boards) if clustered else None
    up_lo, up_hi = clustered_share_interval(d > 0, clusters, half)
    down_lo, down_hi = clustered_share_interval(d < 0, clusters, half)
    return float(up_lo - down_hi), float(up_hi - down_lo)


def ablation_interval(diff, boards=None, confidence: float = 0.95) -> AblationInterval:
    """One card's ablation effect and its interval from its paired differences ``diff`` (one per
    replayed game: its team won the original minus won the replay, each -1, 0 or 1) and each
    game's ``boards``.

    The replayed games share boards (a study plays block ``b`` on board ``b % boards``, and under
    duplicate seating the card's team sits in all four games of a block), so they are correlated:
    the standard error is clustered by board (``cluster.clustered_mean``: CR1, t on G - 1
    degrees of freedom). With fewer than ``MIN_CLUSTERS`` boards (or none given) the games are
    taken as independent, sd / sqrt(n) with t on n - 1 degrees of freedom. Planted truth on
    boards like the study's (tests/test_rarity_ablation_interval.py): the 95 % interval covers
    94.75 %; the old one, effect +- 1.96 sd / sqrt(n), covered 87.25 %. Fewer than two games:
    no interval (NaN); no game moved: the bound of :func:`_no_game_moved`; moved but alike on
    every board: :func:`_without_width`. Every interval is clipped to [-1, 1], where a change of
    a chance to win lies (t on 1 df, two boards, reached [-3.18, +3.18])."""
    d = np.asarray(diff, dtype=float).ravel()
    if d.size < 2:
        effect = float(d.mean()) if d.size else np.nan
        return AblationInterval(effect, np.nan, np.nan, np.nan, 0, 0)
    g = 0 if boards is None else int(np.unique(np.asarray(boards)).size)
    clustered = g >= MIN_CLUSTERS
    if not d.any():
        return _no_game_moved(g if clustered else d.size, clustered, confidence)
    m = clustered_mean(d, np.asarray(boards) if clustered else None, confidence)
    low, high = float(m.lower), float(m.upper)
    if not m.se > SE_ROUNDING:
        low, high = _without_width(d, boards, clustered, confidence)
    return AblationInterval(float(m.rate), float(m.se), max(low, -1.0), min(high, 1.0),
                            g if clustered else 0, int(m.df))


def ablation(catalogue, exp: Experiment, seat_cards: np.ndarray, winner: np.ndarray,
             reference: np.ndarray, per_card: int, confidence: float = 0.95) -> Ablation:
    """Counterfactual ablation: replay up to ``per_card`` of each card's games with the card
    swapped for its reference card, same seeds; the effect is the paired change in its team's
    chance to win (original minus replay), which is free of the selection bias of "win rate
    when held". Per card: the effect, its standard error and interval clustered by the board its
    games were played on (:func:`ablation_interval`), and the games replayed (:class:`Ablation`)."""
    arena = build_arena(catalogue, exp)
    n_cards = reference.size
    games_all, teams_all, seat_all, card_all, orig_all = [], [], [], [], []
    for c in range(n_cards):
        r = reference[c]
        holds = np.argwhere(seat_cards == c)           # (game, seat, slot)
        # the reference must be free in that game (a card is one physical card), unless it is c
        keep = (r == c) | ~np.any(seat_cards[holds[:, 0]] == r, axis=(1, 2))
        holds = holds[keep][:per_card]
        for g, s_, k in holds:
            teams = seat_cards[g].copy()
            teams[s_, k] = r
            games_all.append(g)
            teams_all.append(teams)
            seat_all.append(s_)
            card_all.append(c)
            orig_all.append(float(winner[g] == s_))
    effect = np.full(n_cards, np.nan)   # a card with no game replayed: not measured (blank)
    se = np.full(n_cards, np.nan)
    low = np.full(n_cards, np.nan)
    high = np.full(n_cards, np.nan)
    n_boards = np.zeros(n_cards, np.int64)
    count = np.zeros(n_cards, np.int64)
    if not games_all:
        return Ablation(effect, se, count, low, high, n_boards, confidence)
    games_all = np.asarray(games_all)
    order = np.argsort(games_all, kind="stable")
    replayed = np.empty(games_all.size, np.int64)
    with progress.stage("ablation: each card swapped for its reference", games_all.size):
        replayed[order] = replay_winners(arena, games_all[order], np.asarray(teams_all)[order])
    diff = np.asarray(orig_all) - (replayed == np.asarray(seat_all)).astype(float)
    # the board each replayed game was played on (the original and its replay alike)
    board = pool_boards(exp, int(games_all.max()) + 1)[games_all]
    card_all = np.asarray(card_all)
    for c in range(n_cards):
        mine = card_all == c
        count[c] = int(mine.sum())
        if count[c]:
            iv = ablation_interval(diff[mine], board[mine], confidence)
            effect[c], se[c], low[c], high[c] = iv.effect, iv.se, iv.low, iv.high
            n_boards[c] = iv.boards
    return Ablation(effect, se, count, low, high, n_boards, confidence)
