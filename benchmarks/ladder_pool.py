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

Prints, per B: the coverage of the Elo intervals (every player but the anchor, greedy) and of
the matches' win-rate intervals, each with its standard error (from the spread of the
replications' shares) and the misses with the truth above and below. Progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.ai.spec import parse_policies  # noqa: E402
from sim.catalogue.loader import load_catalogue  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.ladder import matches, play_round_robin, rate  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from pool_calibration import BoardDraws, progress_range  # noqa: E402

PLAYERS = ("greedy,greedy:weights=experiments/greedy_tuned.toml,"
           "greedy:weights=experiments/greedy_tuned_win_only.toml")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default=PLAYERS, help="policy specs, comma-separated")
    ap.add_argument("--pool-boards", type=int, default=1024)
    ap.add_argument("--deals-per-board", type=int, default=6,
                    help="a multiple of the matches, so each board holds every match alike")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--boards", default="8,16,32", help="boards per replication, comma-separated")
    ap.add_argument("--seed", type=int, default=54)
    args = ap.parse_args()
    specs = parse_policies(args.players.split(","))
    labels = tuple(s.label for s in specs)
    pairs = matches(len(specs))
    if args.deals_per_board % len(pairs):
        ap.error(f"--deals-per-board must be a multiple of the {len(pairs)} matches")
    t0 = time.perf_counter()
    with progress.reporting("ladder_pool"):
        games = play_round_robin(load_catalogue(ROOT / "cards"), specs,
                                 args.pool_boards * args.deals_per_board, args.seed,
                                 args.pool_boards)[:4]
        whole = rate(labels, pairs, *games, boards=args.pool_boards)
        rng = np.random.default_rng(args.seed)
        rows = [(b, replicate(labels, pairs, games, whole, args.pool_boards, b, args.reps, rng))
                for b in (int(x) for x in args.boards.split(","))]
    n = len(games[0])
    print(f"pool: {n:,} greedy-family games on {args.pool_boards:,} boards "
          f"({n // args.pool_boards} a board); players {', '.join(labels)}; Elo against "
          f"{labels[whole.anchor]}: {', '.join(f'{e:+.0f}' for e in whole.elo)}; match win rates "
          f"{', '.join(f'{w / p:.1%}' for w, p in zip(whole.wins, whole.played))}")
    print(f"{args.reps} replications of B boards; 95 % intervals holding the pool's value "
          f"(± the coverage's standard error; misses with the truth above / below):")
    for b, (elo, win) in rows:
        print(f"  B = {b:>3} ({b * n // args.pool_boards:,} games): Elo {elo}; win rate {win}")
    print(f"{time.perf_counter() - t0:.0f} s")


def replicate(labels, pairs, games, whole, pool_boards: int, per_rep: int, reps: int, rng):
    """Coverage texts of the Elo and win-rate intervals over ``reps`` draws of ``per_rep``
    boards."""
    match_of, single, places, deal_of = games
    draws = BoardDraws(deal_of % pool_boards, per_rep)
    rated = np.arange(len(labels)) != whole.anchor
    truth_win = whole.wins / whole.played
    elo = {"in": [], "above": [], "below": []}
    win = {"in": [], "above": [], "below": []}
    for _ in progress_range(f"{per_rep} boards a replication", reps):
        rows = draws.draw(rng)
        r = rate(labels, pairs, match_of[rows], single[rows], places[rows], deal_of[rows],
                 boards=pool_boards)
        low, high = draws.judged(r.elo, r.elo_low, r.elo_high)
        tally(elo, whole.elo[rated], low[rated], high[rated])
        low, high = draws.judged(r.wins / r.played, r.win_low, r.win_high)
        tally(win, truth_win, low, high)
    return text(elo), text(win)


def tally(out: dict, truth, low, high) -> None:
    out["in"].append(np.mean((low <= truth) & (truth <= high)))
    out["above"].append(np.mean(truth > high))
    out["below"].append(np.mean(truth < low))


def text(t: dict) -> str:
    shares = np.asarray(t["in"])
    return (f"{shares.mean():.1%} ± {shares.std(ddof=1) / np.sqrt(shares.size):.2%} "
            f"({np.mean(t['above']):.1%} / {np.mean(t['below']):.1%})")


if __name__ == "__main__":
    main()
