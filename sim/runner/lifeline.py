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
import signal
import threading
import time
from concurrent.futures import Future
from multiprocessing import resource_tracker as stdlib_tracker

from joblib.parallel import LokyBackend
from joblib.externals.loky.backend import resource_tracker as loky_tracker
from joblib.externals.loky.process_executor import ShutdownExecutorError

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



class DeafLoky(LokyBackend):
    """joblib's loky backend whose workers start with SIGINT blocked: Ctrl-C interrupts the run
    only (``Parallel(backend=DeafLoky())``).

    Why: Ctrl-C signals the terminal's whole process group. A worker still importing its
    modules when it arrived died printing a KeyboardInterrupt traceback, one per worker, above
    the run's one-line "interrupted". Workers need no Ctrl-C of their own: an interrupted run
    terminates them (joblib), and the lifeline above ends them if the run dies.

    loky starts its workers inside ``submit`` (the first one, and any replacement), in the
    submitting thread, and a blocked signal stays blocked across fork and exec. So each submit
    runs with SIGINT blocked in its thread, for the milliseconds it takes; a Ctrl-C pressed then
    stays pending and interrupts the run as the mask is restored. Python's resource trackers
    are started first, because starting one unblocks SIGINT in the thread that starts it.
    """

    def submit(self, func, callback=None):
        if not hasattr(signal, "pthread_sigmask"):
            return super().submit(func, callback)
        stdlib_tracker.ensure_running()
        loky_tracker.ensure_running()
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return super().submit(func, callback)
        except ShutdownExecutorError:
            # A batch that finishes while an interrupted run shuts the pool down asks joblib
            # for the next batch from loky's callback thread, and the pool refuses it; the
            # exception went to concurrent.futures' logger as a traceback under the run's
            # "interrupted" (1 Ctrl-C in 3). There is no next batch: hand back a future that
            # never runs (nobody waits for it: the run is ending).
            future = Future()
            future.cancel()
            return future
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
