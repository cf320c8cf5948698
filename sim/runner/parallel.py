"""Run an experiment's missing batches in parallel and store each as it completes.

Local: joblib's loky processes (``jobs`` defaults to every core, and is capped at them unless
forced: sim.runner.limits). Cluster: joblib's Dask backend on a ``distributed`` scheduler,
connected (or refused, in seconds) before anything is written. Batches finish in any order;
each is stored atomically the moment it arrives, so an interrupt loses only batches still in
flight, and the progress line (:mod:`.progress`) shows games/s and the time left. Local
workers watch the run that started them and exit when it dies (sim.runner.lifeline).
"""

from __future__ import annotations

import os
import socket
import warnings
from contextlib import ExitStack, nullcontext
from pathlib import Path
from urllib.parse import urlsplit

from joblib import Parallel, delayed, parallel_config

from sim.catalogue.diagnostics import InputError, Problem

from . import progress as line
from .experiment import Experiment
from .limits import cores
from .store import RunStore
from .tasks import fingerprint, run_batch

_CANCELLED = r".*(tasks have been successfully executed|which were still being processed)"
CONNECT_SECONDS = 5.0  # a scheduler that does not answer in this time is reported, not awaited


def default_jobs() -> int:
    return cores()


def _refuse(address: str, message: str) -> InputError:
    return InputError([Problem(address, None, "--scheduler", message)])


def connect(address: str, timeout: float = CONNECT_SECONDS):
    """A ``distributed.Client`` on ``address``, or an InputError (one line) within ``timeout``.

    Why a socket first: ``Client`` retries for its own connect timeout (30 s) and then raises a
    traceback; a refused or silent port is a bad ``--scheduler`` and should be said at once.
    """
    try:
        from distributed import Client
    except ImportError:
        raise _refuse(address, "the Dask backend needs `pip install -e '.[cluster]'`") from None
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if parts.scheme in ("tcp", "tls") and (not host or not port):
        raise _refuse(address, "expected tcp://HOST:PORT (the address `dask scheduler` prints)")
    if parts.scheme in ("tcp", "tls"):
        try:
            socket.create_connection((host, port), timeout=timeout).close()
        except OSError as exc:
            raise _refuse(address, f"cannot reach the scheduler: {exc.strerror or exc}") from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise _refuse(address, f"cannot connect: {str(exc).splitlines()[0]}") from None


def run_experiment(exp: Experiment, exp_path: Path, games: int | None, cards_root: Path,
                   store: RunStore, *, jobs: int | None = None, client=None,
                   progress: bool = True, policies: tuple[str, ...] | None = None) -> int:
    """Play every batch not yet in ``store``; returns the number of batches played now.
    ``client`` is a Dask client (:func:`connect`), else loky processes; ``policies`` replaces
    the experiment file's (``--policy``/``--budget``)."""
    todo = sorted(set(range(exp.n_batches)) - store.done())
    if not todo:
        return 0
    exp_path, cards_root = str(Path(exp_path).resolve()), str(Path(cards_root).resolve())
    args = (exp_path, games, cards_root, fingerprint(exp_path, cards_root))
    run_pid = None if client is not None else os.getpid()
    tasks = (delayed(run_batch)(*args, b, policies, run_pid) for b in todo)
    games_todo = sum(stop - start for start, stop in map(exp.batch_range, todo))
    bar = ExitStack()
    counted = bar.enter_context(line.stage(f"playing {exp.name}", games_todo) if progress
                                else nullcontext(line.NoStage()))
    received = 0
    config = parallel_config(backend="dask") if client is not None else nullcontext()
    # no more workers than batches: an idle worker still loads the engine
    n_jobs = min(jobs or default_jobs(), len(todo))
    try:
        with config, warnings.catch_warnings():
            # an interrupt drops the batches in flight (played again by --resume), which the
            # CLI reports in one line; joblib's paragraph about cancelled tasks is noise there
            warnings.filterwarnings("ignore", _CANCELLED, UserWarning)
            runner = Parallel(n_jobs=n_jobs, backend=None if client else "loky",
                              return_as="generator_unordered")
            for b, columns, seconds in runner(tasks):
                store.write_batch(b, columns, seconds)
                received += len(columns["game"])
                # a batch played in this process (one job: joblib runs it here) counted itself
                line.advance(received - counted.done)
    finally:
        bar.close()
    return len(todo)
