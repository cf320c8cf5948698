"""Scale benchmark: games/s with 1 and 2 jobs in one run, and a 1,000,000-game projection.

    python benchmarks/scale.py [--scaling-games 40000] [--games 100000] [--experiment experiments/scale.toml]

1. Plays the same ``--scaling-games`` games with ``--jobs 1`` and ``--jobs 2`` (after a warm-up
   that loads the compiled kernels) and prints games/s and the scaling efficiency
   (target: 2 jobs >= 1.8x 1 job).
2. Plays ``--games`` games with all cores, measuring wall time, the size of the stored results
   and the peak resident memory of the workers, and projects 1,000,000 games (target: under 10
   minutes on 2 cores, issue #25; issue #2 asked for 20).

With ``--full`` it then plays the experiment's whole 1,000,000 games once, with all cores, and
prints the wall time against the target: the figure itself, not a projection (about 10 minutes;
the results, 0.2 GB, go to a temporary folder and are deleted).

The projection: a ``bwlab run`` costs a fixed start (the interpreter, the catalogue, the boards,
the workers and their compiled kernels) plus a time per game. Both come from the two 2-job runs
of different sizes (the time per game is the difference of their times over the difference of
their games), so a 1,000,000-game run is projected as one start plus 1,000,000 games, not as the
start repeated with every ``--games`` games.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MIN = 10  # minutes for 1,000,000 games on 2 cores (issue #25)


def bwlab_run(experiment: Path, games: int, jobs: int, out: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sim.cli.main", "run", str(experiment), "--games",
                    str(games), "--jobs", str(jobs), "--out", str(out), "--no-progress"],
                   cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiment", type=Path, default=ROOT / "experiments" / "scale.toml")
    ap.add_argument("--scaling-games", type=int, default=40_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--full", action="store_true",
                    help="also play the whole 1,000,000-game study once and time it")
    args = ap.parse_args()
    if args.games <= args.scaling_games:
        ap.error("--games must be more than --scaling-games (the projection uses both)")
    tmp = Path(tempfile.mkdtemp(prefix="bwlab-scale-"))
    try:
        bwlab_run(args.experiment, 64, 2, tmp / "warm")  # load compiled kernels in every process
        t1 = bwlab_run(args.experiment, args.scaling_games, 1, tmp / "j1")
        t2 = bwlab_run(args.experiment, args.scaling_games, 2, tmp / "j2")
        r1, r2 = args.scaling_games / t1, args.scaling_games / t2
        print(f"{args.scaling_games:,} games   jobs 1: {r1:8.1f} games/s   jobs 2: {r2:8.1f} games/s"
              f"   scaling {r2 / r1:.2f}x (target >= 1.8x)")
        t = bwlab_run(args.experiment, args.games, 2, tmp / "big")
        size = sum(p.stat().st_size for p in (tmp / "big").iterdir())
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        scale = 1_000_000 / args.games
        print(f"{args.games:,} games: {t:8.1f} s, {size / 1e6:8.1f} MB stored, "
              f"peak worker memory {peak_mb:8.1f} MB")
        per_game = (t - t2) / (args.games - args.scaling_games)
        start = max(t - per_game * args.games, 0.0)
        print(f"a run's start {start:5.1f} s, then {1 / per_game:8.1f} games/s "
              f"(from the 2-job runs of {args.scaling_games:,} and {args.games:,} games)")
        minutes = (start + per_game * 1_000_000) / 60
        verdict = "met" if minutes < TARGET_MIN else "NOT met"
        print(f"projected 1,000,000 games: {minutes:6.1f} min (target < {TARGET_MIN} min, "
              f"issue #25: {verdict}, {TARGET_MIN / minutes:.2f}x the speed it needs), "
              f"{size * scale / 1e9:6.2f} GB stored; memory flat (streaming batches)")
        if args.full:
            shutil.rmtree(tmp / "big", ignore_errors=True)
            t = bwlab_run(args.experiment, 1_000_000, 2, tmp / "full")
            verdict = "met" if t < 60 * TARGET_MIN else "NOT met"
            print(f"played 1,000,000 games: {t / 60:6.2f} min ({t:.1f} s; target < "
                  f"{TARGET_MIN} min, issue #25: {verdict}, {60 * TARGET_MIN / t:.2f}x the speed "
                  "it needs)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
