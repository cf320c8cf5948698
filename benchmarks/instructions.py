"""Instructions, cache misses and mispredicted branches per greedy decision, counted by Valgrind's
cachegrind: counts where timings on a shared host swing by 5-10 % within minutes.

    python benchmarks/instructions.py [--games 60] [--base-games 10] [--base REV]

Plays ``--base-games`` and then ``--games`` greedy games on one thread (``play_many``, the games
of ``benchmarks/ab.py``) under ``valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes``
and divides the difference of the two runs' totals by the difference of their decisions: the
start of the interpreter and the loading of the kernels cancel out. Two sums: the kernels' own
(the code Valgrind cannot name), the same from run to run for the same games, and the whole
process's, which adds the allocator, ``memset`` and Python and moves by a few per cent.
Valgrind stops at the first AVX-512 instruction, so the kernels are compiled for AVX2
(``NUMBA_CPU_NAME=x86-64-v3`` with its features named, so that Valgrind's CPU loads the same
cache) into a cache of their own beside the usual one (a few minutes the first time). The
simulated caches are this host's L1 (32 KB instructions, 48 KB data); cachegrind prefetches
nothing and predicts branches simply, so the misses are an upper bound and a comparison, not
the CPU's own counts.

``--base REV`` counts a baseline revision too (in ``ab.py``'s worktree) and prints the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AVX2 = {"NUMBA_CPU_NAME": "x86-64-v3",
        "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+fma,+bmi,+bmi2,+lzcnt,+popcnt,+f16c,+movbe"}
CACHES = ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=1048576,16,64"]
# the events reported per decision: (cachegrind's name, what it counts)
SHOWN = (("Ir", "instructions"), ("I1mr", "L1 instruction misses"),
         ("D1mr", "L1 data read misses"), ("D1mw", "L1 data write misses"),
         ("Bc", "conditional branches"), ("Bcm", "of them mispredicted"))


def child(games: int) -> None:
    """Play ``games`` greedy games on one thread (``ab.same_games``: a warm-up of 8 first) and
    print the decisions."""
    from ab import same_games  # (this script's folder is on sys.path)

    from sim.ai.play import R_DECISIONS

    out = same_games(games)()
    print(f"decisions {int(out[:, R_DECISIONS].sum())}")


def _env(tree: Path) -> dict:
    return {**os.environ, **AVX2, "NUMBA_NUM_THREADS": "1", "PYTHONPATH": str(tree),
            "BWLAB_JIT_CACHE": str(tree / ".jit-cache-avx2")}


def _command(games: int) -> list[str]:
    return [sys.executable, str(ROOT / "benchmarks" / "instructions.py"), "--child", str(games)]


def _totals(path: Path) -> tuple[dict[str, int], dict[str, int]]:
    """(the whole process's totals, those of the code with no name) of a cachegrind output file,
    by event name. Valgrind names no JIT function, so the unnamed code is the kernels: the whole
    process also counts the interpreter, the allocator and ``memset``, whose share of the
    difference of two runs moves by a few per cent (garbage collection, allocation) though the
    games are the same."""
    events, summary, unnamed = [], [], []
    fl = fn = None
    with path.open() as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
                unnamed = [0] * len(events)
            elif line.startswith("fl="):
                fl = line[3:].strip()
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("summary:"):
                summary = [int(x) for x in line.split()[1:]]
            elif line[:1].isdigit() and fl == "???" and fn == "???":
                for i, v in enumerate(line.split()[1:]):
                    unnamed[i] += int(v)
    return dict(zip(events, summary)), dict(zip(events, unnamed))


def count(tree: Path, games: int, base_games: int) -> dict[str, float]:
    """Per decision of the kernels of ``tree``: each event of ``SHOWN``."""
    subprocess.run(_command(0), cwd=tree, env=_env(tree), check=True,  # compile or load
                   stdout=subprocess.DEVNULL)
    work = Path(tempfile.mkdtemp(prefix="bwlab-cg-"))
    try:
        runs = {}
        for n in (base_games, games):  # the two runs at once, one core each
            out = work / f"cg{n}.out"
            runs[n] = (out, subprocess.Popen(
                ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                 *CACHES, f"--cachegrind-out-file={out}", *_command(n)],
                cwd=tree, env=_env(tree), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True))
        decisions, totals = {}, {}
        for n, (out, proc) in runs.items():
            text = proc.communicate()[0]
            if proc.returncode != 0:
                raise SystemExit(f"valgrind failed for {n} games in {tree}")
            decisions[n] = int(text.split("decisions")[-1].split()[0])
            totals[n] = _totals(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    played = decisions[games] - decisions[base_games]
    per = {"decisions": played}
    for part, label in ((1, "kernels"), (0, "process")):
        for name, _ in SHOWN:
            per[label, name] = (totals[games][part][name] - totals[base_games][part][name]) / played
    return per


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--base-games", type=int, default=10)
    ap.add_argument("--base", help="a baseline git revision, counted too")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        child(args.child)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    if not 0 <= args.base_games < args.games:
        ap.error("--base-games must be at least 0 and fewer than --games")
    now = count(ROOT, args.games, args.base_games)
    if args.base:
        from ab import baseline_worktree  # (this script's folder is on sys.path)

        base = count(baseline_worktree(args.base), args.games, args.base_games)
    else:
        base = None
    print(f"per greedy decision ({now['decisions']:,.0f} decisions: {args.games} minus "
          f"{args.base_games} games, one thread, AVX2 build)")
    for part, title in (("kernels", "the kernels (the code Valgrind cannot name)"),
                        ("process", "the whole process (with the allocator, memset, Python)")):
        print(f" {title}:")
        for name, label in SHOWN:
            line = f"  {label:26s} {now[part, name]:10,.1f}"
            if base:
                line += (f"   base {base[part, name]:10,.1f}   now/base "
                         f"{now[part, name] / base[part, name]:.3f}")
            print(line)


if __name__ == "__main__":
    main()
