"""Mutation testing of the rules (issue #27, item 3): does a direct test catch each rule change?

Each mutant of ``benchmarks/mutants.toml`` is one small change to a line that enforces a rule
(a comparison flipped, a margin off by one, a team test inverted). For each, the checkout's
``sim/``, ``tests/``, ``cards/`` and ``experiments/`` are copied to a scratch folder, the change
is made there, and the mutant's own tests run in a fresh process (the golden-log test is never
among them: a rule guarded only by golden logs is guarded until the next regeneration). A mutant
is *killed* when a test fails, *survives* when all pass.

Why interpreted by default (``NUMBA_DISABLE_JIT=1``): the kernels then run as plain Python, so
a mutant costs seconds, not a 5-10 minute compile, and no compile cache can hide a change (the
issue's sampler mutant passed while the cache was warm). ``--jit`` runs compiled kernels instead,
in a fresh cache per mutant (the copy's path keys it: ``sim/_jit.py``); so does a mutant marked
``jit = true`` (the sampler's tests draw millions of dice).

    python benchmarks/mutation.py [--only WORD] [--from N] [--to M] [--pick 3,17,40-44] [--jit]
                                  [--timeout 600] [--jobs 2]

``--from``/``--to`` and ``--pick`` select mutants by their place in the file (1-based,
inclusive), so a batch just appended, or the survivors of the last run, run alone. Each mutant
names the docs/rules-coverage.md row it guards (``row``: text found in exactly one row;
tests/test_mutants_rows.py keeps rows and mutants in step).

First the tests run on the unchanged code (a control: they must pass, or a "kill" would mean
nothing): all selected tests together once, split over ``--jobs``, and only if that fails each
distinct set alone (mutants whose control fails are reported as "no control"). Prints per
mutant: killed/survived/error, the seconds, the rule; then the mutation score (killed / mutants)
and every survivor. Exit 1 when a mutant survives (or could not be applied), else 0.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "benchmarks" / "mutants.toml"
COPIED = ("sim", "tests", "cards", "experiments", "pyproject.toml")


@dataclass(frozen=True)
class Mutant:
    rule: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]
    row: str = ""  # text of the docs/rules-coverage.md row this mutant guards
    jit: bool = False  # its tests are too heavy interpreted: compiled, in a fresh cache


def load_mutants(path: Path = MUTANTS) -> list[Mutant]:
    """The mutants, each checked to apply: ``old`` occurs exactly once in its file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out, problems = [], []
    for i, m in enumerate(data.get("mutant", [])):
        text = (ROOT / m["file"]).read_text(encoding="utf-8")
        n = text.count(m["old"])
        if n != 1:
            problems.append(f"{path.name}: mutant {i + 1} ({m['rule']}): `old` occurs {n} times in "
                            f"{m['file']} (must be once)")
        if any("golden" in t for t in m["tests"]):
            problems.append(f"{path.name}: mutant {i + 1}: golden tests do not count")
        out.append(Mutant(m["rule"], m["file"], m["old"], m["new"], tuple(m["tests"]),
                          m.get("row", ""), bool(m.get("jit", False))))
    if problems:
        raise SystemExit("\n".join(problems))
    return out


def run_mutant(m: Mutant, jit: bool, timeout: float) -> tuple[str, float, str]:
    """(outcome, seconds, last lines of output) for one mutant, in its own scratch copy."""
    t0 = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix="bwlab-mutant-"))
    try:
        for name in COPIED:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, scratch / name, ignore=shutil.ignore_patterns(
                    "__pycache__", ".jit-cache", "*.pyc"))
            else:
                shutil.copy2(src, scratch / name)
        target = scratch / m.file
        target.write_text(target.read_text(encoding="utf-8").replace(m.old, m.new, 1),
                          encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(scratch), PYTHONDONTWRITEBYTECODE="1")
        if not (jit or m.jit):
            env["NUMBA_DISABLE_JIT"] = "1"
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "-m", "not slow", *m.tests]
        try:
            proc = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - t0, ""
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-3:])
        outcome = {0: "survived", 1: "killed"}.get(proc.returncode, "error")
        return outcome, time.perf_counter() - t0, tail
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _controls(mutants: list[Mutant], jit: bool, timeout: float, jobs: int) -> dict:
    """Outcome of the unchanged code per (tests, compiled): it must be "survived" (all pass), or
    a "kill" by those tests means nothing. All tests of a kind run together first (split over
    ``jobs`` processes: a few start-ups instead of one per mutant); only when that fails does
    each distinct set run alone."""
    controls = {}
    kinds: dict[bool, list[str]] = {}
    for m in mutants:
        tests = kinds.setdefault(m.jit or jit, [])
        tests.extend(t for t in m.tests if t not in tests)
    for jitted, tests in kinds.items():
        first = next(m for m in mutants if (m.jit or jit) == jitted)
        sets = len({m.tests for m in mutants if (m.jit or jit) == jitted})
        chunks = [tuple(tests[i::jobs]) for i in range(min(jobs, len(tests)))]
        with ThreadPoolExecutor(len(chunks)) as pool:  # the work of all sets, split over jobs
            outcomes = list(pool.map(lambda ch: run_mutant(
                Mutant("control", first.file, first.old, first.old, ch, jit=jitted), jit,
                timeout * sets)[0], chunks))
        outcome = next((o for o in outcomes if o != "survived"), "survived")
        print(f"control  {outcome:8s} all {len(tests)} tests{' (compiled)' if jitted else ''}",
              flush=True)
        if outcome == "survived":
            controls.update({(m.tests, jitted): outcome for m in mutants
                             if (m.jit or jit) == jitted})
    for m in mutants:
        key = (m.tests, m.jit or jit)
        if key not in controls:
            control = Mutant("control", m.file, m.old, m.old, m.tests, jit=m.jit)
            controls[key] = run_mutant(control, jit, timeout)[0]
            print(f"control  {controls[key]:8s} {', '.join(m.tests)}", flush=True)
    return controls


def _places(text: str) -> set[int]:
    """``3,17,40-44`` -> {3, 17, 40, 41, 42, 43, 44} (empty text: no selection)."""
    out: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="Only mutants whose rule, file or row contains this text.")
    ap.add_argument("--from", dest="first", type=int, default=1,
                    help="First mutant to run, by its place in mutants.toml (1-based).")
    ap.add_argument("--to", dest="last", type=int, default=0,
                    help="Last mutant to run, by its place in mutants.toml (default: the end).")
    ap.add_argument("--pick", default="",
                    help="Only these mutants, by place in mutants.toml: e.g. 3,17,40-44.")
    ap.add_argument("--jit", action="store_true", help="Compiled kernels, a fresh cache each.")
    ap.add_argument("--timeout", type=float, default=900.0, help="Seconds per mutant.")
    ap.add_argument("--jobs", type=int, default=1, help="Mutants run at once.")
    args = ap.parse_args(argv)
    if args.timeout <= 0 or args.jobs < 1 or args.first < 1 or args.last < 0:
        ap.error("--timeout must be > 0, --jobs >= 1, --from >= 1 and --to >= 0")
    every = load_mutants()
    try:
        picked = _places(args.pick)
    except ValueError:
        ap.error(f"--pick: expected places like 3,17,40-44, got {args.pick!r}")
    mutants = [m for i, m in enumerate(every, 1)
               if args.first <= i <= (args.last or len(every)) and (not picked or i in picked)
               and (not args.only or args.only.lower() in (m.rule + m.file + m.row).lower())]
    print(f"{len(mutants)} mutants, {'compiled' if args.jit else 'interpreted'} kernels, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs", flush=True)
    results = []
    t0 = time.perf_counter()
    controls = _controls(mutants, args.jit, args.timeout, args.jobs)
    broken = {k for k, outcome in controls.items() if outcome != "survived"}
    mutants = [m for m in mutants if (m.tests, m.jit or args.jit) not in broken] + \
        [m for m in mutants if (m.tests, m.jit or args.jit) in broken]
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_mutant, m, args.jit, args.timeout)
                   if (m.tests, m.jit or args.jit) not in broken else None for m in mutants]
        for i, (m, f) in enumerate(zip(mutants, futures), 1):
            outcome, secs, tail = f.result() if f is not None else ("no control", 0.0, "")
            results.append((m, outcome, tail))
            print(f"[{i}/{len(mutants)}] {outcome:8s} {secs:6.1f} s  {m.file}: {m.rule}",
                  flush=True)
            print(f"  {i}/{len(mutants)} done, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                  flush=True)
    killed = sum(o == "killed" for _, o, _ in results)
    print(f"\nmutation score: {killed}/{len(results)} killed "
          f"({100 * killed / max(len(results), 1):.0f} %) in {time.perf_counter() - t0:.0f} s")
    others = [(m, o, t) for m, o, t in results if o != "killed"]
    for m, outcome, tail in others:
        print(f"  {outcome}: {m.file}: {m.rule}\n    -> {m.new.strip()[:100]}\n    tests: "
              f"{', '.join(m.tests)}" + (f"\n    {tail}" if tail and outcome == "error" else ""))
    return 1 if others else 0


if __name__ == "__main__":
    sys.exit(main())
