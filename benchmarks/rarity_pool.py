"""The rarity study's rating intervals on real games, calibrated by resampling boards from a pool.

    python benchmarks/rarity_pool.py [--pool-boards 1024] [--per-board 64] [--reps 300]
                                     [--boards 16] [--seed 53]
    python benchmarks/rarity_pool.py --boards 8,16,32,64 --reps 600   # docs/intervals.md

The shipped study's design (``experiments/rarity.toml``: teams drawn from every card, greedy,
duplicate seating) is played once on ``--pool-boards`` boards, ``--per-board`` games each; each
replication then draws B of those boards (each of ``--boards``) without replacement and fits
the study's ratings (``composition_strengths``, l2 = 1, clustered by board) on their games
alone, by the boards' jackknife (what ``bwlab rarity`` prints since stop 54) and by the
board-clustered sandwich (``jackknife=False``). The truth is the whole pool's fit; the
intervals are judged with the finite-population correction of drawing B of N boards
(``pool_calibration.BoardDraws``). Prints, per B, each method's coverage of all cards' 95 %
intervals with its standard error (from the spread of the replications' shares: the cards of
one replication share its boards) and the jackknife's width against the sandwich's; and the
coverage of the study's other interval, each card's win rate when held
(``rarity.held_win_intervals``), against the pool's rate, with its misses on either side.
Progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.cluster import design_effect  # noqa: E402
from sim.analysis.composition import composition_strengths  # noqa: E402
from sim.catalogue.loader import load_catalogue  # noqa: E402
from sim.engine.state.fields import POLICY_IDS  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.experiment import load_experiment  # noqa: E402
from sim.runner.rarity import play_pool, pool_boards  # noqa: E402
from sim.runner.rarity import held_win_intervals, team_card_rows, winner_places  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from pool_calibration import BoardDraws, Coverage, progress_range  # noqa: E402


def fit(seat_cards, winner, boards, n_cards: int, jackknife: bool):
    """The study's composition fit (``rarity.study``'s) of these games."""
    rows, items = team_card_rows(seat_cards, n_cards)
    return composition_strengths(rows, items, winner_places(winner), l2=1.0, clusters=boards,
                                 jackknife=jackknife)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pool-boards", type=int, default=1024)
    ap.add_argument("--per-board", type=int, default=64)
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--boards", default="16",
                    help="boards per replication, or several separated by commas")
    ap.add_argument("--seed", type=int, default=53)
    args = ap.parse_args()
    sizes = [int(b) for b in args.boards.split(",")]
    t0 = time.perf_counter()
    cat = load_catalogue(ROOT / "cards")
    n_cards = len(cat.cards.names)
    exp = load_experiment(ROOT / "experiments" / "rarity.toml", cat.cards, tuple(POLICY_IDS))
    exp = replace(exp, games=args.pool_boards * args.per_board, boards=args.pool_boards,
                  root_seed=args.seed)
    with progress.reporting("rarity_pool"):
        seat_cards, winner = play_pool(cat, exp)
        board = pool_boards(exp, len(winner))
        truth = (fit(seat_cards, winner, board, n_cards, False).beta,
                 held_win_rates(seat_cards, winner, n_cards))
        rng = np.random.default_rng(args.seed)
        rows = [replicate(seat_cards, winner, board, truth, n_cards, BoardDraws(board, b),
                          args.reps, rng) for b in sizes]
    deff = held_design_effects(seat_cards, winner, board, n_cards)
    print(f"pool: {len(winner):,} greedy games on {args.pool_boards:,} boards, {n_cards} cards; "
          f"the held win rates' design effects {np.quantile(deff, 0.05):.2f} / "
          f"{np.median(deff):.2f} / {np.quantile(deff, 0.95):.2f} (5 % / median / 95 % of the "
          f"cards); {args.reps} replications of B boards ({args.per_board} games each); 95 % "
          f"intervals holding the pool's value (± the coverage's standard error):")
    for b, (jack, sand, ratio, win) in zip(sizes, rows):
        print(f"  B = {b:>3}: rating: jackknife {jack}, sandwich {sand}, jackknife {ratio:.2f}x "
              f"as wide; win rate when held: {win}")
    print(f"{time.perf_counter() - t0:.0f} s")


def held_win_rates(seat_cards, winner, n_cards: int) -> np.ndarray:
    """Each card's win rate when held (its team won), as ``rarity.held_win_intervals`` counts."""
    rows, _ = team_card_rows(seat_cards, n_cards)
    won = (winner[:, None] == np.arange(4)[None, :]).reshape(-1)
    holds = rows > 0
    return (holds * won[:, None]).sum(axis=0) / np.maximum(holds.sum(axis=0), 1)


def held_design_effects(seat_cards, winner, board, n_cards: int) -> np.ndarray:
    """Each card's design effect of its held win share on the whole pool (unfloored): what the
    floor of ``cluster.effective_trials`` meets."""
    rows, _ = team_card_rows(seat_cards, n_cards)
    won = (winner[:, None] == np.arange(4)[None, :]).reshape(-1)
    team_board = np.repeat(board, 4)
    out = np.empty(n_cards)
    for c in range(n_cards):
        holds = rows[:, c] > 0
        out[c] = design_effect(won[holds], team_board[holds])
    return out


def replicate(seat_cards, winner, board, truth, n_cards, draws, reps, rng):
    """Over ``reps`` draws: each rating method's coverage (text with its SE), the jackknife's
    width against the sandwich's, and the held win rates' coverage with its misses each side."""
    beta, rate = truth
    held = {False: Coverage(), True: Coverage()}
    width = {False: [], True: []}
    win = Coverage()
    for _ in progress_range(f"{draws.per_rep} boards a replication", reps):
        rows = draws.draw(rng)
        for jackknife in (False, True):
            f = fit(seat_cards[rows], winner[rows], board[rows], n_cards, jackknife)
            low, high = draws.judged(f.beta, *f.interval(0.95))
            held[jackknife].add(beta, low, high)
            width[jackknife].append(np.mean(high - low))
        won = winner[rows][:, None] == np.arange(4)[None, :]
        win.add(rate, *draws.judged(held_win_rates(seat_cards[rows], winner[rows], n_cards),
                                    *held_win_intervals(seat_cards[rows], won, board[rows],
                                                        n_cards, 0.95)))
    return (held[True].text(), held[False].text(),
            np.mean(width[True]) / np.mean(width[False]), win.text(misses=True))


if __name__ == "__main__":
    main()
