"""The sizes a run can finish, stated once (issue #22 item 3: bounded by design).

Why maxima rather than hope: ``games = 10**18`` used to be accepted and then wrote nothing for
minutes, and ``--jobs 10000`` spawned hundreds of processes. Each limit comes with the reason a
user is shown, so a refusal says what to do instead.
"""

from __future__ import annotations

import os

# ~400 greedy games/s per core (docs/performance.md): 10**8 games are about three days of one
# core's time; a larger study is several runs with their own seeds.
MAX_GAMES = 100_000_000
GAMES_WHY = "about three days of one core at ~400 games/s; split a larger study into runs"
# Distinct boards, built up front and held in memory (~35-50 ms and a few hundred kB each).
MAX_BOARDS = 100_000
# One Parquet file per batch, all in one folder, each checked on --resume.
MAX_BATCHES = 100_000
# Workers beyond the cores add memory (each loads the compiled engine), not speed.
FORCED_JOBS_PER_CORE = 4


def cores() -> int:
    """The cores this process may run on (its affinity mask, not the machine's total)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cap_jobs(jobs: int | None, force: bool) -> tuple[int, str | None]:
    """(worker processes to start, a one-line notice when ``jobs`` was lowered).

    Without ``force`` at most the cores; with it at most ``FORCED_JOBS_PER_CORE`` per core.
    """
    n = cores()
    if jobs is None:
        return n, None
    limit = n * FORCED_JOBS_PER_CORE if force else n
    if jobs <= limit:
        return jobs, None
    if force:
        return limit, (f"note: --jobs {jobs} lowered to {limit} ({FORCED_JOBS_PER_CORE} per core "
                       f"of {n}: more workers add memory, not speed)")
    return limit, (f"note: --jobs {jobs} capped at {limit}, the cores this process may use; "
                   "add --force-jobs to start more")
