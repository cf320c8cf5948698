"""Profile the jitted game loop with ``perf``: which kernel the time goes to.

``perf`` cannot name JIT-compiled code by itself; it reads ``/tmp/perf-<pid>.map`` for that. This
script compiles the game loop afresh (a private Numba cache directory, so the compiled module is
in memory), writes that map from the addresses LLVM gave every function, then plays ``--games``
games on one thread, greedy in every seat (``--policy lookahead:16``: that player instead; a
few hundred of its games are minutes). Run it under perf:

    perf record -F 2000 -o /tmp/games.perf python benchmarks/profile_games.py --games 3000
    perf report -i /tmp/games.perf --no-children --sort sym | grep -E '_ZN3sim|NRT'

(The first part of the profile is the compiler; the kernels' shares relative to each other are
what to read.) This is how the StructRef state and the greedy/sight changes were found.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--boards", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policy", default="greedy",
                    help="the player in all four seats (a spec of sim.ai.spec: lookahead:16)")
    ap.add_argument("--code", help="also write the machine code of the mapped functions to this "
                    "file (for benchmarks/annotate.py)")
    args = ap.parse_args()
    # a private, empty compile cache (both Numba's and the lab's source-keyed one, sim/_jit.py):
    # the loop must be compiled in this process for its machine code to be in memory
    os.environ["NUMBA_CACHE_DIR"] = os.environ["BWLAB_JIT_CACHE"] = tempfile.mkdtemp(
        prefix="bwlab-profile-")
    os.environ["NUMBA_NUM_THREADS"] = "1"
    sys.path.insert(0, os.path.dirname(__file__))
    import numpy as np

    from games import _teams, _world  # noqa: E402  (this folder's games benchmark)
    from sim.ai.play import _play_range, play_many
    from sim.ai.spec import parse_policy

    spec = parse_policy(args.policy)
    players = dict(policies=[spec.id] * 4, budgets=[spec.budget] * 4)
    cat, stacked, cards = _world(args.boards)
    teams = _teams(cat, args.seed, 0, args.games)
    play_many(stacked, cards, np.arange(2) % args.boards, teams[:2], args.seed, **players)
    entries = []
    for cres in _play_range.overloads.values():
        lib = cres.library
        for fn in lib._final_module.functions:  # everything linked into the loop
            if not fn.is_declaration:
                address = lib.get_pointer_to_function(fn.name)
                if address:
                    entries.append((address, fn.name))
    entries.sort()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for (address, name), nxt in zip(entries, entries[1:] + [(entries[-1][0] + 4096, "")]):
            f.write(f"{address:x} {max(nxt[0] - address, 1):x} {name}\n")
    if args.code:  # each function's machine code: address, size, bytes (for annotate.py)
        import ctypes

        with open("/proc/self/maps") as f:  # read only inside readable mappings
            regions = [tuple(int(x, 16) for x in line.split()[0].split("-"))
                       for line in f if line.split()[1].startswith("r")]
        with open(args.code, "wb") as f:
            for (address, _), nxt in zip(entries, entries[1:] + [(entries[-1][0] + 4096, "")]):
                end = next((hi for lo, hi in regions if lo <= address < hi), address)
                size = min(nxt[0], end, address + (1 << 22)) - address
                f.write(address.to_bytes(8, "little") + size.to_bytes(8, "little"))
                f.write(ctypes.string_at(address, size))
    t0 = time.process_time()
    play_many(stacked, cards, np.arange(args.games) % args.boards, teams, args.seed, **players)
    dt = time.process_time() - t0
    print(f"{args.games} games on one thread: {args.games / dt:.0f} games per CPU-second; "
          f"perf map: /tmp/perf-{os.getpid()}.map ({len(entries)} functions)")


if __name__ == "__main__":
    main()
