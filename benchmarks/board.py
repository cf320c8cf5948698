"""Board kernels against the plain-Python reference, in one run.

Times reachability (speed 6, dry and with 2 water successes) and attack maps (range 8, line of
sight with portals) on generated boards. Prints queries per second and the Numba/Python ratio.
Then compiling a board (``compile_board``, twice per game set-up): each tile layout's steps kept
between boards (since stop 80) against worked out again for every board (the layout cache
emptied before each, as every board was compiled until then), on the same boards in the same
run. No assertions on wall time: numbers depend on the machine.

    python benchmarks/board.py [--boards 4] [--starts 200]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sim.board.generate import generate_board
from sim.board.graph import compile_board
from sim.board.movement import reachable, reachable_many
from sim.board.reference import ref_attack_costs, ref_reachable
from sim.board.sight import attack_costs, attack_costs_many
from sim.catalogue.loader import load_board_only
from sim.catalogue.tile_layout import FLOOR


def _rate(fn, queries: int, min_time: float = 0.3) -> float:
    """Queries per second of ``fn`` (which runs ``queries`` queries), repeated for ``min_time``."""
    fn()  # warm up (JIT compile or load from cache)
    runs, t0 = 0, time.perf_counter()
    while True:
        fn()
        runs += 1
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return runs * queries / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--starts", type=int, default=200)
    args = ap.parse_args()
    _, rules, tiles = load_board_only()
    rng = np.random.default_rng(np.random.SeedSequence(2024))
    cases = []
    for seed in range(args.boards):
        g = compile_board(generate_board(tiles, rules, seed), tiles, rules)
        floor = np.flatnonzero(g.kind == FLOOR)
        cases.append((g, rng.choice(floor, size=args.starts)))
    total = args.boards * args.starts
    ref_n = min(args.starts, 40)  # the reference is slow: fewer queries, rate is per query
    rows = []

    def bench(name, kernel_batch, kernel_one, ref):
        k_batch = _rate(lambda: [kernel_batch(g, s) for g, s in cases], total)
        k_one = _rate(lambda: [kernel_one(g, int(x)) for g, s in cases for x in s], total)
        r = _rate(lambda: [ref(g, int(x)) for g, s in cases for x in s[:ref_n]],
                  args.boards * ref_n)
        rows.append((name, k_batch, k_one, r))

    bench("reachable speed 6 (dry)", lambda g, s: reachable_many(g, s, 6),
          lambda g, x: reachable(g, x, 6), lambda g, x: ref_reachable(g, x, 6))
    bench("reachable speed 6 (2 water rolls)", lambda g, s: reachable_many(g, s, 6, 2),
          lambda g, x: reachable(g, x, 6, 2), lambda g, x: ref_reachable(g, x, 6, 2))
    bench("line of sight / attack map range 8", lambda g, s: attack_costs_many(g, s, 8),
          lambda g, x: attack_costs(g, x, 8), lambda g, x: ref_attack_costs(g, x, 8))
    print(f"{args.boards} generated boards × {args.starts} random floor starts")
    print(f"{'query':38s} {'numba batch/s':>14s} {'numba 1-by-1/s':>15s} {'python/s':>10s} "
          f"{'batch×':>8s} {'1-by-1×':>8s}")
    for name, kb, ko, r in rows:
        print(f"{name:38s} {kb:14,.0f} {ko:15,.0f} {r:10,.0f} {kb / r:8.0f} {ko / r:8.0f}")
    _compile_rates(tiles, rules)


def _compile_rates(tiles, rules, n: int = 64) -> None:
    """Boards compiled per second, the layouts' steps kept against stepped for every board."""
    from sim.board import graph

    boards = [generate_board(tiles, rules, seed) for seed in range(n)]

    def cold():
        for b in boards:
            graph._TILE_STEPS.clear()
            compile_board(b, tiles, rules)

    kept = _rate(lambda: [compile_board(b, tiles, rules) for b in boards], n)
    stepped = _rate(cold, n)
    print(f"compile_board: {kept:,.0f} boards/s with each layout's steps kept, {stepped:,.0f} "
          f"stepped for every board ({kept / stepped:.1f}x), {n} generated boards")


if __name__ == "__main__":
    main()
