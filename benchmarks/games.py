"""Full 4-team games per second with the greedy policy, peak memory, and the JIT/Python ratio;
then games per second of every policy in self-play.

Plays ``--games`` games in chunks with :func:`sim.ai.play.play_many` (Python threads over
a ``nogil`` kernel; game ``i`` = child ``i`` of ``SeedSequence(--seed)``, so the results do not
depend on the thread count), on ``--boards`` pre-compiled boards (board ``i % boards``) with
random teams. Memory: resident set size after every chunk (it must stay flat) and the peak. Then
a few of the same games again in a subprocess with ``NUMBA_DISABLE_JIT=1`` for the speed ratio
(and a check that they give the same results). Per policy (``--policies``, specs of
:mod:`sim.ai.spec`): the same games with that policy in all four seats, 8 games per thread at a time until
``--policy-seconds`` have passed (a look-ahead game costs its budget's simulations: games/s and
simulated-decision cost scale with it). No assertions on wall time: the headline rate is printed
beside ``--target`` (issue #25: 2,000 greedy games/s on a 2-core machine; issue #5 asked for 1,000)
and the machine's CPU
model and thread count, since a rate means little without the hardware it was measured on.

    python benchmarks/games.py [--games 20000] [--chunk 5000] [--boards 32] [--sample 2]
                               [--policies random,greedy,lookahead:4,...] [--policy-seconds 10]
                               [--target 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _world(n_boards: int):
    from sim.board.generate import generate_board
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.new_game import card_arrays
    from sim.engine.state.static_tables import build_setup, load_game_data, stack_setups

    cat = load_catalogue()
    gr, ap = load_game_data(cat.root)
    setups = [build_setup(cat, generate_board(cat.tiles, cat.board_rules, b), gr, ap)
              for b in range(n_boards)]
    return cat, stack_setups(setups), card_arrays(cat.cards)


def _teams(cat, seed: int, first: int, n: int) -> np.ndarray:
    """Teams of games first..first+n-1: four teams of five distinct cards per game, drawn for the
    whole chunk at once (a uniform random permutation per game as the argsort of uniforms, from
    ``SeedSequence([seed, first])``; row i does not depend on n). One generator per game cost 4 %
    of the run in the main thread while the game threads waited."""
    rng = np.random.default_rng([seed, first])
    order = np.argsort(rng.random((n, len(cat.cards))), axis=1, kind="stable")
    return np.ascontiguousarray(order[:, :20].reshape(n, 4, 5), dtype=np.int64)


def _run(cat, stacked, cards, seed, first, n, total, n_boards, spec=None):
    """Games first..first+n-1 with ``spec`` (default greedy) in all four seats."""
    from sim.engine.state import fields as L
    from sim.ai.play import play_many

    pid, budget, weights = (L.GREEDY, 0, None) if spec is None else (spec.id, spec.budget,
                                                                      spec.weights)
    idx = np.arange(first, first + n)
    return play_many(stacked, cards, idx % n_boards, _teams(cat, seed, first, n), seed,
                     [pid] * 4, first_game=first, budgets=[budget] * 4, weights=[weights] * 4)


def per_policy(cat, stacked, cards, args) -> None:
    """Each policy in self-play: games/s, decisions/s, over the same games in the same order.
    Batches of 8 games per thread (``runner.GAMES_PER_CHUNK``), so every thread plays: a batch
    of 8 would be one task and time one thread. Each row also gives the games' mean rotations and
    their stalemate and rotation-cap shares (issue #20: shorter, decisive games), and a policy
    timed after plain ``greedy`` its rate as a multiple of greedy's (``greedy:weights=FILE``
    must cost no more: issue #25)."""
    import numba

    from sim.ai.spec import parse_policy
    from sim.ai.play import GAMES_PER_CHUNK

    batch = GAMES_PER_CHUNK * numba.get_num_threads()
    print(f"per policy (all four seats, {batch} games at a time for >= "
          f"{args.policy_seconds:g} s):")
    greedy_rate = None
    for text in args.policies.split(","):
        spec = parse_policy(text)
        _run(cat, stacked, cards, args.seed, 0, 2, 2, args.boards, spec)  # compile / cache load
        played, decisions, rotations, t0 = 0, 0, 0, time.perf_counter()
        reasons = np.zeros(5, np.int64)
        while played < batch or time.perf_counter() - t0 < args.policy_seconds:
            out = _run(cat, stacked, cards, args.seed, played, batch, 0, args.boards, spec)
            played += batch
            decisions += int(out[:, 5].sum())
            rotations += int(out[:, 2].sum())
            reasons += np.bincount(out[:, 1], minlength=5)[:5]
        dt = time.perf_counter() - t0
        rate = played / dt
        greedy_rate = rate if spec.label == "greedy" else greedy_rate
        ratio = (f", {rate / greedy_rate:.2f}x greedy" if greedy_rate and spec.label != "greedy"
                 else "")
        print(f"  {spec.label:<16}{rate:10,.1f} games/s {decisions / dt:12,.0f} decisions/s "
              f"({played} games, {dt:.1f} s, mean rotations {rotations / played:.1f}, "
              f"stalemate {reasons[2] / played:.0%}, cap {reasons[3] / played:.0%}{ratio})")


def interpreted(args) -> None:
    """Child process (NUMBA_DISABLE_JIT=1): the first ``--sample`` games, timed."""
    cat, stacked, cards = _world(args.boards)
    t0 = time.perf_counter()
    out = _run(cat, stacked, cards, args.seed, 0, args.sample, args.games, args.boards)
    dt = time.perf_counter() - t0
    print(json.dumps({"games_per_s": args.sample / dt, "results": out.tolist()}))


def _cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; the platform's name elsewhere)."""
    import platform

    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--chunk", type=int, default=5_000)
    ap.add_argument("--boards", type=int, default=32)
    ap.add_argument("--sample", type=int, default=2, help="games replayed without JIT (0: skip)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policies", default="random,greedy,lookahead:4,lookahead:16,lookahead:64",
                    help="policy specs timed in self-play (empty: skip)")
    ap.add_argument("--policy-seconds", type=float, default=10.0)
    ap.add_argument("--target", type=float, default=2000.0,
                    help="greedy games/s the headline rate is compared with (issue #5)")
    ap.add_argument("--interpreted", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.interpreted:
        interpreted(args)
        return
    import numba

    cat, stacked, cards = _world(args.boards)
    t0 = time.perf_counter()
    _run(cat, stacked, cards, args.seed, 0, 8, args.games, args.boards)  # compile / load cache
    print(f"warm-up (compile or cache load): {time.perf_counter() - t0:.1f} s; "
          f"threads: {numba.get_num_threads()} of {os.cpu_count()} CPUs ({_cpu_model()})")
    # running totals only (the first chunk's rows kept for the JIT check): memory must not
    # grow with the number of games, and neither must this script's
    rss, first_rows = [], None
    reasons = np.zeros(5, np.int64)
    rotations = decisions = 0
    t_games = 0.0
    for first in range(0, args.games, args.chunk):
        n = min(args.chunk, args.games - first)
        t = time.perf_counter()
        out = _run(cat, stacked, cards, args.seed, first, n, args.games, args.boards)
        t_games += time.perf_counter() - t
        if first_rows is None:
            first_rows = out[: args.sample].tolist()
        reasons += np.bincount(out[:, 1], minlength=5)[:5]
        rotations += int(out[:, 2].sum())
        decisions += int(out[:, 5].sum())
        del out
        rss.append(_rss_mb())
    rate = args.games / t_games
    print(f"{args.games} full games (greedy ×4) in {t_games:.1f} s: {rate:,.0f} games/s "
          f"(includes drawing teams and seeding)")
    verdict = "met" if rate >= args.target else "NOT met"
    print(f"target {args.target:,.0f} games/s on {numba.get_num_threads()} threads: {verdict} "
          f"({rate / args.target:.2f}x the target)")
    print(f"mean rotations {rotations / args.games:.1f}, mean decisions "
          f"{decisions / args.games:.0f}; endings: last standing {reasons[1]}, stalemate "
          f"{reasons[2]}, cap {reasons[3]}, simultaneous {reasons[4]}")
    print(f"RSS after each chunk (MB): {', '.join(f'{r:.0f}' for r in rss)}")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    if args.sample > 0:
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        cmd = [sys.executable, __file__, "--interpreted", "--games", str(args.games),
               "--boards", str(args.boards), "--sample", str(args.sample), "--seed", str(args.seed)]
        child = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True,
                                          check=True).stdout.strip().splitlines()[-1])
        same = child["results"] == first_rows
        print(f"NUMBA_DISABLE_JIT=1: {child['games_per_s']:.3f} games/s on one core "
              f"({args.sample} games) -> JIT is {rate / child['games_per_s']:,.0f}× faster "
              f"(threads included); same results: {same}")
    if args.policies:
        per_policy(cat, stacked, cards, args)


if __name__ == "__main__":
    main()
