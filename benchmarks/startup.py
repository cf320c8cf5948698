"""Start-up benchmark: `bwlab --help` and a second `bwlab combat` call, timed in one run.

    python benchmarks/startup.py

Numba compiles a kernel on first use and caches it (``cache=True`` in ``sim/_jit.py``), so only
the first call of a fresh install pays for compilation. Prints the wall time of: ``bwlab --help``
(must not import Numba), a cold ``bwlab combat`` (cache cleared), and the warm second call, with
the ratio. Target (issue #2): the second ``bwlab combat`` call starts and answers in under 2 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BWLAB = [sys.executable, "-m", "sim.cli.main"]
COMBAT = ["combat", "--attacks", "8", "--tier", "2", "--defense", "4", "--samples", "100000"]


def timed(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(BWLAB + args, cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    cache = Path(os.environ.get("TMPDIR", "/tmp")) / "bwlab-startup-numba-cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    help_s = timed(["--help"], env)
    cold = timed(COMBAT, env)
    warm = min(timed(COMBAT, env) for _ in range(3))
    shutil.rmtree(cache, ignore_errors=True)
    print(f"bwlab --help                         {help_s:6.2f} s")
    print(f"bwlab combat --samples 1e5 (cold)    {cold:6.2f} s   (compiles the kernels)")
    print(f"bwlab combat --samples 1e5 (cached)  {warm:6.2f} s   (target < 2 s)")
    print(f"cold / cached = {cold / warm:.1f}x")


if __name__ == "__main__":
    main()
