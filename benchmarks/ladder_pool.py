"""The ladder's intervals on real games, calibrated by resampling boards from one large pool.

    python benchmarks/ladder_pool.py [--players greedy,TUNED,TUNED_WIN] [--pool-boards 1024]
                                     [--deals-per-board 6] [--reps 1000] [--boards 8,16,32]
                                     [--seed 54]

Why: the ladder's Elo intervals (the boards' jackknife) and its matches' win-rate intervals
(Korn & Graubard on the effective games) were calibrated on planted, simulated ladders
(``tests/test_ladder.py``), not on the lab's own games. Here the round robin of ``--players``
(default: greedy and the two tuned greedy weights of ``experiments/``, cheap players of nearly
equal strength to each other and about 200 Elo above greedy) is played once on ``--pool-boards``
boards, ``--deals-per-board`` deals each (each deal four games, as ``bwlab ladder`` plays it;
``sim.runner.ladder.play_round_robin``). Each replication draws B of those boards without
replacement and rates the players on their games alone (``ladder.rate``, what ``bwlab ladder``
prints); the truth is the whole pool's rating and each match's pool win rate, and the
intervals are judged with the finite-population correction of drawing B of N boards
(``pool_calibration.BoardDraws``).

Prints the pool's ratings and each match's win rate and design effect; then per B the coverage
of the Elo intervals (every player but the anchor, greedy) and of each match's win-rate
interval, with its standard error (from the spread of the replications' shares) and the misses
with the truth above and below; and each match's coverage with the design-effect floor at 1,
the lab's other shares' (``cluster.effective_trials``), instead of the ladder's
``MATCH_MIN_DEFF``, with the draws' median design effect: why the ladder lowers it. Progress on
stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.ai.spec import parse_policies  # noqa: E402
from sim.analysis.cluster import clustered_share_interval, design_effect  # noqa: E402
from sim.catalogue.loader import load_catalogue  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.ladder import (MATCH_MIN_DEFF, matches, play_round_robin, rate,  # noqa: E402
                               single_seat_won)

sys.path.insert(0, str(ROOT / "benchmarks"))
from pool_calibration import BoardDraws, Coverage, progress_range  # noqa: E402

PLAYERS = ("greedy,greedy:weights=experiments/greedy_tuned.toml,"
           "greedy:weights=experiments/greedy_tuned_win_only.toml")
OTHER_FLOOR = 1.0  # the design-effect floor of the lab's other shares: the comparison


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default=PLAYERS,
                    help="policy specs, comma-separated (weights files relative to the repo)")
    ap.add_argument("--pool-boards", type=int, default=1024)
    ap.add_argument("--deals-per-board", type=int, default=6,
                    help="a multiple of the matches: each board then holds every match alike "
                         "(checked)")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--boards", default="8,16,32", help="boards per replication, comma-separated")
    ap.add_argument("--seed", type=int, default=54)
    args = ap.parse_args()
    os.chdir(ROOT)  # the weights files of the default players are named from the repository
    specs = parse_policies(args.players.split(","))
    labels = tuple(s.label for s in specs)
    pairs = matches(len(specs))
    n_deals = args.pool_boards * args.deals_per_board
    match_of = np.repeat(np.arange(len(pairs)), n_deals // len(pairs))  # runner.ladder.match_deals
    per_board = (np.bincount(np.arange(n_deals) % args.pool_boards * len(pairs) + match_of)
                 if n_deals % len(pairs) == 0 else np.array([0, 1]))
    if per_board.size != args.pool_boards * len(pairs) or np.ptp(per_board):
        ap.error(f"--deals-per-board {args.deals_per_board} on {args.pool_boards} boards does "
                 f"not give every board the same deals of each of the {len(pairs)} matches")
    t0 = time.perf_counter()
    with progress.reporting("ladder_pool"):
        games = play_round_robin(load_catalogue(ROOT / "cards"), specs, n_deals, args.seed,
                                 args.pool_boards)[:4]
        whole = rate(labels, pairs, *games, boards=args.pool_boards)
        rng = np.random.default_rng(args.seed)
        rows = [(b, replicate(labels, pairs, games, whole, args.pool_boards, b, args.reps, rng))
                for b in (int(x) for x in args.boards.split(","))]
    report(labels, pairs, games, whole, args, rows)
    print(f"{time.perf_counter() - t0:.0f} s")


def report(labels, pairs, games, whole, args, rows) -> None:
    n = len(games[0])
    match_of, single, places, deal_of = games
    won = single_seat_won(single, places)
    board = deal_of % args.pool_boards
    print(f"pool: {n:,} games on {args.pool_boards:,} boards ({n // args.pool_boards} a board); "
          f"Elo against {labels[whole.anchor]}: "
          f"{', '.join(f'{lab} {e:+.0f}' for lab, e in zip(labels, whole.elo))}")
    for k, (lo, hi) in enumerate(pairs):
        sel = match_of == k
        print(f"  match {k + 1}: {labels[hi]} vs 3 × {labels[lo]}: win rate "
              f"{won[sel].mean():.1%}, design effect {design_effect(won[sel], board[sel]):.2f}")
    print(f"{args.reps} replications of B boards; 95 % intervals holding the pool's value "
          f"(± the coverage's standard error; misses with the truth above / below). Win rates: "
          f"as shipped (design effect at least {MATCH_MIN_DEFF}) and with the floor at "
          f"{OTHER_FLOOR:g} (the lab's other shares'), with the replications' median design "
          f"effect:")
    for b, (elo, per_match) in rows:
        print(f"  B = {b:>3} ({b * n // args.pool_boards:,} games): Elo {elo.text(True)}")
        for k, (shipped, other, deff) in enumerate(per_match):
            print(f"    match {k + 1}: {shipped.text(True)}; floor {OTHER_FLOOR:g}: "
                  f"{other.text()}; median design effect {np.median(deff):.2f}")


def replicate(labels, pairs, games, whole, pool_boards: int, per_rep: int, reps: int, rng):
    """Over ``reps`` draws of ``per_rep`` boards: the Elo intervals' :class:`Coverage`
    (every player but the anchor), and per match the win-rate interval's as shipped and with
    the design-effect floor at 1, with each draw's design effect."""
    match_of, single, places, deal_of = games
    board = deal_of % pool_boards
    won = single_seat_won(single, places)
    draws = BoardDraws(board, per_rep)
    rated = np.arange(len(labels)) != whole.anchor
    truth_win = whole.wins / whole.played
    elo = Coverage()
    per_match = [(Coverage(), Coverage(), []) for _ in pairs]
    for _ in progress_range(f"{per_rep} boards a replication", reps):
        rows = draws.draw(rng)
        r = rate(labels, pairs, match_of[rows], single[rows], places[rows], deal_of[rows],
                 boards=pool_boards)
        elo.add(whole.elo[rated], *(x[rated] for x in draws.judged(r.elo, r.elo_low,
                                                                    r.elo_high)))
        for k, (shipped, other, deff) in enumerate(per_match):
            sel = rows[match_of[rows] == k]
            rate_k = won[sel].mean()
            shipped.add(truth_win[k], *draws.judged(rate_k, r.win_low[k], r.win_high[k]))
            other.add(truth_win[k], *draws.judged(
                rate_k, *clustered_share_interval(won[sel], board[sel], 0.95, OTHER_FLOOR)))
            deff.append(design_effect(won[sel], board[sel]))
    return elo, per_match


if __name__ == "__main__":
    main()
