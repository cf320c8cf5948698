"""Worker processes end when the run that started them dies (issue #22 item 2).

Why: loky's workers are children of the ``bwlab run`` process, but nothing tells them when it is
killed (SIGKILL, OOM killer, a closed terminal): they finished the batch in hand, and then idled
until loky's timeout, 44 s and more, holding cores and memory. Each worker therefore runs a
daemon thread that checks every half second whether its parent is still the run; when it is
not, the worker exits at once. The engine's kernels release the GIL (``nogil``), so the check
runs while a batch is being played.

Reparenting is the signal (``os.getppid()`` changes when the parent dies), not ``kill(pid, 0)``:
a killed parent that its own parent has not reaped yet still answers to its pid.
"""

from __future__ import annotations

import os
import threading
import time

_watching: int | None = None


def watch_parent(run_pid: int | None, every: float = 0.5) -> None:
    """In a worker: exit when process ``run_pid`` is no longer this process's parent.

    No-op when ``run_pid`` is None (a Dask worker, whose parent is its nanny), in the run itself
    (``--jobs 1`` plays in-process), or when the run is not the parent (it never was: nothing
    to watch reliably).
    """
    global _watching
    if run_pid is None or _watching == run_pid or os.getpid() == run_pid:
        return
    if os.getppid() != run_pid:
        return
    _watching = run_pid

    def watch() -> None:
        while os.getppid() == run_pid:
            time.sleep(every)
        os._exit(1)  # the run is gone: nobody will read this worker's results

    threading.Thread(target=watch, name="bwlab-lifeline", daemon=True).start()
