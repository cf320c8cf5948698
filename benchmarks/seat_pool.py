"""Seat and team intervals on real games, calibrated by resampling boards from one large pool.

    python benchmarks/seat_pool.py [--pool-boards 2048] [--reps 2000] [--boards 16,32,64]
                                   [--seed 7]

Why: ``benchmarks/calibration.py`` plays every replication's games anew (200 replications of 512
null games: five minutes on 2 cores), too few to tell a seat coverage of 93.6 % from 95 %. Here
the fairness check's null design (four teams of identical cards, duplicate play, 16 games a
board) is played once on ``--pool-boards`` boards; each replication then draws ``B`` of those
boards without replacement and computes the fairness check's estimates on their games alone, as
a run on ``B`` boards would. The truth is the whole pool's estimate, boards being the only
thing a replication draws (each board keeps its own games and dice). With 32 of 2,048 boards a
replication, two replications share a board about 40 % of the time, so the replications are
not independent: the coverage is an average over them, not a binomial count.

Prints, per ``B``: the seat rates' coverage (Korn & Graubard's interval, ``seat_interval``), its
misses with the truth above and below, the z spread ((estimate - truth) / SE), and the team
rates' coverage (``team_interval``). Progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.fairness import game_values  # noqa: E402
from sim.analysis.variance import seat_team_effects  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.calibration import with_planted  # noqa: E402
from sim.runner.fairness import fairness_experiment  # noqa: E402
from sim.runner.tasks import build_arena, play_games  # noqa: E402

GAMES_PER_BOARD = 16  # four duplicate blocks, as the fairness check's default spreads them


def pool(boards: int, seed: int):
    """The null pool: (outcomes [blocks, 4, 4], each block's board)."""
    def run(catalogue, teams):
        games = boards * GAMES_PER_BOARD
        exp = fairness_experiment(teams, "greedy", seed, games, 128, boards)
        with progress.stage("pool", games):
            cols = play_games(build_arena(catalogue, exp), 0, games)
        return game_values(cols["winner_team"]).reshape(-1, 4, 4), cols["board"][::4]
    return with_planted(ROOT / "cards", 1.0, run)


def resampled(outcomes, board, per_rep: int, reps: int, rng) -> dict:
    """Coverage of the seat and team intervals over ``reps`` draws of ``per_rep`` boards."""
    whole = seat_team_effects(outcomes, clusters=board)
    rows_of = [np.flatnonzero(board == b) for b in np.unique(board)]
    above, below, z, team_cover = [], [], [], []
    for _ in progress_range(f"{per_rep} boards a replication", reps):
        rows = np.concatenate([rows_of[k] for k in rng.choice(len(rows_of), per_rep,
                                                                 replace=False)])
        est = seat_team_effects(outcomes[rows], clusters=board[rows])
        lower, upper = est.seat_interval()
        above.append(whole.seat_rate > upper)
        below.append(whole.seat_rate < lower)
        z.append((est.seat_rate - whole.seat_rate) / est.seat_se)
        t_lower, t_upper = est.team_interval()
        team_cover.append((t_lower <= whole.team_rate) & (whole.team_rate <= t_upper))
    above, below = np.mean(above), np.mean(below)
    return {"boards": per_rep, "seat_coverage": 1 - above - below, "truth_above": above,
            "truth_below": below, "z_spread": float(np.std(z)),
            "team_coverage": float(np.mean(team_cover))}


def progress_range(name: str, n: int):
    """``range(n)``, each step counted into the progress line's stage ``name``."""
    with progress.stage(name, n, unit="replications"):
        for i in range(n):
            yield i
            progress.advance()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pool-boards", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--boards", default="16,32,64", help="boards per replication, comma-separated")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    t0 = time.perf_counter()
    with progress.reporting("seat_pool"):
        report(args, t0)


def report(args, t0: float) -> None:
    outcomes, board = pool(args.pool_boards, args.seed)
    rng = np.random.default_rng(args.seed)
    print(f"null pool: {outcomes.shape[0] * 4:,} greedy games on {args.pool_boards:,} boards "
          f"({time.perf_counter() - t0:.0f} s); {args.reps:,} replications per row")
    print(f"{'boards':>6} {'seat cover':>10} {'truth above':>11} {'truth below':>11} "
          f"{'z spread':>8} {'team cover':>10}")
    for per_rep in (int(b) for b in args.boards.split(",")):
        r = resampled(outcomes, board, per_rep, args.reps, rng)
        print(f"{per_rep:>6} {r['seat_coverage']:>10.1%} {r['truth_above']:>11.1%} "
              f"{r['truth_below']:>11.1%} {r['z_spread']:>8.2f} {r['team_coverage']:>10.1%}")
    print(f"target coverage 93-97 %, misses about 2.5 % on each side; "
          f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
