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
one replication share its boards) and the jackknife's width against the sandwich's. Progress
on stderr.
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

from sim.analysis.composition import composition_strengths  # noqa: E402
from sim.catalogue.loader import load_catalogue  # noqa: E402
from sim.engine.state.fields import POLICY_IDS  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.experiment import load_experiment  # noqa: E402
from sim.runner.rarity import play_pool, pool_boards  # noqa: E402
from sim.runner.rarity import team_card_rows, winner_places  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from pool_calibration import BoardDraws, progress_range  # noqa: E402


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
        truth = fit(seat_cards, winner, board, n_cards, False).beta
        rng = np.random.default_rng(args.seed)
        rows = [replicate(seat_cards, winner, board, truth, n_cards, BoardDraws(board, b),
                          args.reps, rng) for b in sizes]
    print(f"pool: {len(winner):,} greedy games on {args.pool_boards:,} boards, {n_cards} cards; "
          f"{args.reps} replications of B boards ({args.per_board} games each); 95 % rating "
          f"intervals holding the pool's rating (± its standard error):")
    for b, (jack, sand, ratio) in zip(sizes, rows):
        print(f"  B = {b:>3}: jackknife {jack}, sandwich {sand}; jackknife {ratio:.2f}x as wide")
    print(f"{time.perf_counter() - t0:.0f} s")


def replicate(seat_cards, winner, board, truth, n_cards, draws, reps, rng):
    """Each method's coverage over ``reps`` draws (text with its SE) and the width ratio."""
    held = {False: [], True: []}
    width = {False: [], True: []}
    for _ in progress_range(f"{draws.per_rep} boards a replication", reps):
        rows = draws.draw(rng)
        for jackknife in (False, True):
            f = fit(seat_cards[rows], winner[rows], board[rows], n_cards, jackknife)
            low, high = draws.judged(f.beta, *f.interval(0.95))
            held[jackknife].append(np.mean((low <= truth) & (truth <= high)))
            width[jackknife].append(np.mean(high - low))

    def text(shares):
        return f"{np.mean(shares):.1%} ± {np.std(shares, ddof=1) / np.sqrt(len(shares)):.2%}"
    return text(held[True]), text(held[False]), np.mean(width[True]) / np.mean(width[False])


if __name__ == "__main__":
    main()
