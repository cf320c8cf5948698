"""Start-up benchmark: `bwlab --help` and a second `bwlab combat` call, timed in one run.

    python benchmarks/startup.py

Numba compiles a kernel on first use and caches it (``cache=True`` in ``sim/_jit.py``), so only
the first call of a fresh install pays for compilation. Prints the wall time of: a bare
``python -c pass`` (the baseline: the interpreter's own start), ``bwlab --help`` (must not import
Numba) and its ratio to the baseline, a cold ``bwlab combat`` (cache cleared), and the warm
second call, with the ratio. Targets: ``bwlab --help`` under 0.5 s (issue #25); the second
``bwlab combat`` call starts and answers in under 2 s (issue #2).
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
HELP_TARGET = 0.5  # seconds (issue #25)
COMBAT = ["combat", "--attacks", "8", "--tier", "2", "--defense", "4", "--samples", "100000"]


def _seconds(command: list[str], env: dict) -> float:
    """Wall time of one run of ``command``, from the repository root."""
    t0 = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def timed(args: list[str], env: dict) -> float:
    return _seconds(BWLAB + args, env)


def _help_line(label: str, seconds: float, bare: float) -> str:
    verdict = "met" if seconds < HELP_TARGET else "NOT met"
    return (f"{label:<37}{seconds:6.2f} s   ({seconds / bare:.1f}x the bare interpreter; "
            f"target < {HELP_TARGET} s, issue #25: {verdict})")


def main() -> None:
    cache = Path(os.environ.get("TMPDIR", "/tmp")) / "bwlab-startup-numba-cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    bare = min(_seconds([sys.executable, "-c", "pass"], env) for _ in range(3))
    help_s = min(timed(["--help"], env) for _ in range(3))
    script = Path(sys.executable).parent / "bwlab"  # the installed console script, if any
    script_s = (min(_seconds([str(script), "--help"], env) for _ in range(3))
                if script.exists() else None)
    cold = timed(COMBAT, env)
    warm = min(timed(COMBAT, env) for _ in range(3))
    shutil.rmtree(cache, ignore_errors=True)
    print(f"python -c pass (baseline)            {bare:6.2f} s")
    print(_help_line("bwlab --help", help_s, bare))
    if script_s is not None:
        print(_help_line("bwlab --help (console script)", script_s, bare))
    print(f"bwlab combat --samples 1e5 (cold)    {cold:6.2f} s   (compiles the kernels)")
    print(f"bwlab combat --samples 1e5 (cached)  {warm:6.2f} s   (target < 2 s)")
    print(f"cold / cached = {cold / warm:.1f}x")


if __name__ == "__main__":
    main()
