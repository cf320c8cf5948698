"""The engine now against a baseline revision, on the same games at the same time: ratios.

On a shared machine the speed of one process drifts by up to 2x within minutes, so numbers
from different minutes do not compare. This script checks the baseline revision out into a
git worktree (its own Numba cache: compiling it takes a few minutes the first time), then, for
``--reps`` rounds, plays the same greedy games (``play_many`` on one thread, timed with
``process_time``) in two processes started together, each pinned to a core of its own and the
cores swapped every round (the two cores of a shared machine need not run at the same speed);
and it checks that both gave the same results, unless ``--allow-diff``
(a change meant to alter the games). Prints each round's games per CPU-second and the ratio.

    python benchmarks/ab.py BASE_REV [--games 3000] [--reps 6] [--allow-diff] [--policy SPEC]

``--policy lookahead:16`` times look-ahead games instead of greedy ones (a few dozen games:
each costs about a thousand greedy ones).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def same_games(games: int, policy: str = "greedy"):
    """The games this script times and ``benchmarks/instructions.py`` counts, in a child process
    whose working directory is a revision's tree (its ``sim``, its ``benchmarks/games.py``):
    ``games`` games on 8 boards with ``policy`` in all four seats, after a warm-up of 8 that
    compiles the kernels or loads them from the cache. Returns the call that plays them (their
    rows, ``play.RESULT_COLUMNS``)."""
    sys.path.insert(0, str(Path.cwd() / "benchmarks"))
    import numpy as np
    from games import _teams, _world

    try:
        from sim.engine.state import fields as L
    except ImportError:  # a baseline from before the engine's topic folders (#24 item 5)
        from sim.engine import layout as L
    try:
        from sim.ai.play import play_many
    except ImportError:  # a baseline from before the game loop moved to the AI layer (#24)
        from sim.engine.runner import play_many

    players = {"policies": [L.GREEDY] * 4}
    if policy != "greedy":
        from sim.ai.spec import parse_policy

        spec = parse_policy(policy)
        players = {"policies": [spec.id] * 4, "budgets": [spec.budget] * 4}
    cat, stacked, cards = _world(8)
    teams = _teams(cat, 2026, 0, max(games, 8))  # (a game's teams do not depend on the count)
    play_many(stacked, cards, np.arange(8) % 8, teams[:8], 2026, **players)  # load
    return lambda: play_many(stacked, cards, np.arange(games) % 8, teams[:games], 2026,
                             **players)


def child(games: int, core: int, policy: str) -> None:
    """In a child process (its ``sim`` from the working directory): games per CPU-second and a
    digest of the results."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cores[core % len(cores)]})
    play = same_games(games, policy)
    t0 = time.process_time()
    out = play()
    dt = time.process_time() - t0
    print(json.dumps({"rate": games / dt, "digest": hashlib.sha1(out.tobytes()).hexdigest()}))


def _spawn(where: Path, games: int, core: int, policy: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(where)}
    return subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "ab.py"), "--child",
                             str(games), "--core", str(core), "--policy", policy], cwd=where,
                            env=env, stdout=subprocess.PIPE, text=True)


def baseline_worktree(revision: str) -> Path:
    """A git worktree of ``revision`` (made the first time, kept for later runs). Named by the
    commit, not by what was typed: "HEAD" or a branch moves on, and a worktree kept under its
    name would time a stale baseline. ``benchmarks/instructions.py`` counts in the same one."""
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", revision + "^{commit}"],
                         check=True, capture_output=True, text=True).stdout.strip()
    base = Path(tempfile.gettempdir()) / f"bwlab-ab-{rev[:12]}"
    if not base.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), rev],
                       check=True)
    return base


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", help="the baseline git revision")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--allow-diff", action="store_true", help="the games may differ")
    ap.add_argument("--policy", default="greedy",
                    help="the player in all four seats (a spec of sim.ai.spec: lookahead:16)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--core", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.core, args.policy)
        return
    if not args.base:
        ap.error("give the baseline revision")
    base = baseline_worktree(args.base)
    for where in (base, ROOT):  # compile (or load) each side's kernels before timing
        subprocess.run([sys.executable, "-m", "sim.runner.warm"], cwd=where, check=True,
                       env={**os.environ, "PYTHONPATH": str(where)}, stdout=subprocess.DEVNULL)
    ratios = []
    for rep in range(args.reps):
        procs = [_spawn(base, args.games, rep, args.policy),
                 _spawn(ROOT, args.games, rep + 1, args.policy)]
        (b, n) = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
        if b["digest"] != n["digest"] and not args.allow_diff:
            raise SystemExit("the two revisions played different games (--allow-diff if meant)")
        ratios.append(n["rate"] / b["rate"])
        digits = 0 if b["rate"] >= 100 else 2  # look-ahead games: a few a second
        print(f"round {rep + 1}: base {b['rate']:7.{digits}f}  now {n['rate']:7.{digits}f} games "
              f"per CPU-second  ratio {ratios[-1]:.2f}", flush=True)
    ratios.sort()
    print(f"median ratio now/base: {ratios[len(ratios) // 2]:.2f} "
          f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}, {args.reps} rounds)")


if __name__ == "__main__":
    main()
