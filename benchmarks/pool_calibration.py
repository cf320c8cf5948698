"""The fairness check on real games, calibrated by resampling boards from one large pool.

    python benchmarks/pool_calibration.py [--levels null,slight,medium,strong]
                                          [--pool-boards 2048] [--reps 2000]
                                          [--boards 16,32,64] [--seed 7]

Why: ``benchmarks/calibration.py`` plays every replication's games anew (200 replications of
512 null games, 40 of 1,024 per planted level: about five minutes on 2 cores), too few to tell
a coverage of 93.6 % or 92.5 % from 95 %. Here each level's design (``sim/runner/calibration.py``:
four teams of the same cards, team 1's fifth card a copy with its max health times the level's
factor; duplicate play, 16 games a board) is played once on ``--pool-boards`` boards; each
replication then draws ``B`` of those boards without replacement and computes the fairness
check on their games alone, as a run on ``B`` boards would: each team's 95 % interval (the
check's own, ``duplicate_win_rates``) and each seat's, and the sequential verdict (a look every
128 games). The truth is the whole pool's estimate (the null teams': 1/4), boards being the only
thing a replication draws (each board keeps its own games and dice); the intervals are judged
with the finite-population correction of drawing B of N boards (``BoardDraws``). With 32 of
2,048 boards a replication, two replications share a board about 40 % of the time, so the
replications are not independent: the coverage is an average over them, not a binomial count.

Prints, per level and ``B``: the team rates' coverage and the planted
team's rate; the seat rates' coverage (Korn & Graubard's interval, ``seat_interval``), its
misses with the truth above and below and the z spread ((estimate - truth) / SE); and the share
called unfair (null: false verdicts, at most alpha = 5 %; planted: with team 1 favoured).
Progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.analysis.fairness import UNFAIR, game_values  # noqa: E402
from sim.analysis.variance import duplicate_win_rates, seat_team_effects  # noqa: E402
from sim.runner import progress  # noqa: E402
from sim.runner.calibration import LEVELS, _sequential, with_planted  # noqa: E402
from sim.runner.fairness import fairness_experiment  # noqa: E402
from sim.runner.tasks import build_arena, play_games  # noqa: E402

GAMES_PER_BOARD = 16  # four duplicate blocks, as the fairness check's default spreads them
ROUND_BLOCKS = 32      # the check's look every 128 games (calibration.py's --round)


def pool(level: str, boards: int, seed: int):
    """A level's pool: (outcomes [blocks, 4, 4], each block's board)."""
    def run(catalogue, teams):
        games = boards * GAMES_PER_BOARD
        exp = fairness_experiment(teams, "greedy", seed, games, 128, boards)
        with progress.stage(f"{level} pool", games):
            cols = play_games(build_arena(catalogue, exp), 0, games)
        return game_values(cols["winner_team"]).reshape(-1, 4, 4), cols["board"][::4]
    return with_planted(ROOT / "cards", LEVELS[level], run)


class BoardDraws:
    """Replications of ``per_rep`` of a pool's boards, drawn without replacement (module doc).

    A draw of B of the pool's N boards varies about the pool's estimate by (N - B) / (N - 1) of
    what B boards drawn afresh would, so :meth:`judged` shortens each interval's two arms by the
    square root of that before it is held against the pool's truth (the finite-population
    correction; without it the coverage reads 0.1-0.4 points high at 16-64 of 2,048 boards)."""

    def __init__(self, board, per_rep: int):
        self.rows_of = [np.flatnonzero(board == b) for b in np.unique(board)]
        self.per_rep = per_rep
        self.shrink = float(np.sqrt((len(self.rows_of) - per_rep) / (len(self.rows_of) - 1)))

    def draw(self, rng) -> np.ndarray:
        """One replication's rows, in the check's order: each drawn board's first row, then
        each one's second, ... (every board holds as many rows)."""
        return np.stack([self.rows_of[k] for k in rng.choice(len(self.rows_of), self.per_rep,
                                                             replace=False)]).T.ravel()

    def judged(self, estimate, lower, upper):
        """The interval with both arms (estimate to each end) times the correction."""
        return (estimate - self.shrink * (estimate - lower),
                estimate + self.shrink * (upper - estimate))


def resampled(outcomes, board, per_rep: int, reps: int, rng, null: bool) -> dict:
    """Coverage of the team and seat intervals, and the verdicts, over ``reps`` draws of
    ``per_rep`` boards (:class:`BoardDraws`). The null teams' truth is the known 1/4, the rest
    the pool's estimates."""
    whole = seat_team_effects(outcomes, clusters=board)
    team_truth = np.full(4, 0.25) if null else whole.team_rate
    draws = BoardDraws(board, per_rep)
    seat, team = Coverage(), Coverage()
    z, unfair, found = [], [], []
    for _ in progress_range(f"{per_rep} boards a replication", reps):
        rows = draws.draw(rng)
        est = seat_team_effects(outcomes[rows], clusters=board[rows])
        seat.add(whole.seat_rate, *draws.judged(est.seat_rate, *est.seat_interval()))
        z.append((est.seat_rate - whole.seat_rate) / (draws.shrink * est.seat_se))
        teams = duplicate_win_rates(outcomes[rows], clusters=board[rows])  # the check's own
        team.add(team_truth, *draws.judged(teams.rate, teams.lower, teams.upper))
        status, _, favoured = _sequential(outcomes[rows], board[rows], ROUND_BLOCKS, 0.05, 0.05)
        unfair.append(status == UNFAIR)
        found.append(status == UNFAIR and favoured == 0)
    return {"boards": per_rep, "seat_coverage": float(np.mean(seat.held)),
            "truth_above": float(np.mean(seat.above)), "truth_below": float(np.mean(seat.below)),
            "z_spread": float(np.std(z)), "team_coverage": float(np.mean(team.held)),
            "planted_rate": whole.team_rate[0], "unfair": float(np.mean(unfair)),
            "found": float(np.mean(found))}


class Coverage:
    """Replications' coverage of a family of intervals (the pool benchmarks' one tally): each
    replication adds its shares held, truth above and truth below; :meth:`text` prints the mean
    share with its standard error from the spread of the replications' shares (the intervals of
    one replication share its boards, so they are not independent trials)."""

    def __init__(self):
        self.held, self.above, self.below = [], [], []

    def add(self, truth, low, high) -> None:
        self.held.append(np.mean((low <= truth) & (truth <= high)))
        self.above.append(np.mean(truth > high))
        self.below.append(np.mean(truth < low))

    def text(self, misses: bool = False) -> str:
        held = np.asarray(self.held)
        se = held.std(ddof=1) / np.sqrt(held.size) if held.size > 1 else np.nan
        out = f"{held.mean():.1%} ± {se:.2%}"
        if misses:
            out += f" ({np.mean(self.above):.1%} above / {np.mean(self.below):.1%} below)"
        return out


def progress_range(name: str, n: int):
    """``range(n)``, each step counted into the progress line's stage ``name``."""
    with progress.stage(name, n, unit="replications"):
        for i in range(n):
            yield i
            progress.advance()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="null", help=f"comma-separated, of {', '.join(LEVELS)}")
    ap.add_argument("--pool-boards", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--boards", default="16,32,64", help="boards per replication, comma-separated")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    t0 = time.perf_counter()
    with progress.reporting("pool_calibration"):
        report(args, t0)


def report(args, t0: float) -> None:
    print(f"{'level':<7} {'boards':>6} {'team 1':>7} {'team cover':>10} {'seat cover':>10} "
          f"{'above':>6} {'below':>6} {'seat z':>6} {'unfair':>7} {'found':>6}")
    for level in args.levels.split(","):
        outcomes, board = pool(level, args.pool_boards, args.seed)
        rng = np.random.default_rng(args.seed)
        for per_rep in (int(b) for b in args.boards.split(",")):
            r = resampled(outcomes, board, per_rep, args.reps, rng, level == "null")
            print(f"{level:<7} {per_rep:>6} {r['planted_rate']:>7.1%} {r['team_coverage']:>10.1%} "
                  f"{r['seat_coverage']:>10.1%} {r['truth_above']:>6.1%} {r['truth_below']:>6.1%} "
                  f"{r['z_spread']:>6.2f} {r['unfair']:>7.1%} {r['found']:>6.1%}", flush=True)
    print(f"pools of {args.pool_boards:,} boards ({args.pool_boards * GAMES_PER_BOARD:,} greedy "
          f"games each), {args.reps:,} replications a row; team 1 = the planted team's rate in "
          f"the pool; above/below = seat intervals with the truth above/below them (about 2.5 % "
          f"each); unfair: null false verdicts (at most 5 %), planted: found = team 1 favoured; "
          f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
