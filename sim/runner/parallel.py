"""Run an experiment's missing batches in parallel and store each as it completes.

Local: joblib's loky processes (``jobs`` defaults to every core, and is capped at them unless
forced: sim.runner.limits). Cluster: futures on a ``distributed`` scheduler (plain or TLS,
sim.runner.security), connected (or refused, in seconds) before anything is written. Batches
finish in any order; each is checked (sim.runner.results) and stored atomically the moment it
arrives, so an interrupt loses only batches still in flight, and the progress line
(:mod:`.progress`) shows games/s and the time left (and, closing, the games stored).
Local workers watch the run that started them and exit when it dies (sim.runner.lifeline).
"""

from __future__ import annotations

import os
import socket
import ssl
import warnings
from contextlib import ExitStack, nullcontext, suppress
from pathlib import Path
from urllib.parse import urlsplit

from joblib import Parallel, delayed

from sim.catalogue.diagnostics import InputError, Problem

from . import progress as line
from .experiment import Experiment, resolved
from .lifeline import DeafLoky
from .limits import cores
from .results import check_result
from .store import RunStore
from .tasks import fingerprint, run_batch

_CANCELLED = r".*(tasks have been successfully executed|which were still being processed)"
CONNECT_SECONDS = 5.0  # a scheduler that does not answer in this time is reported, not awaited


def default_jobs() -> int:
    return cores()


def _refuse(address: str, message: str) -> InputError:
    return InputError([Problem(address, None, "--scheduler", message)])


def connect(address: str, timeout: float | None = None, security=None):
    """A ``distributed.Client`` on ``address``, or an InputError (one line) within ``timeout``
    (default :data:`CONNECT_SECONDS`). ``security``: a checked ``distributed.Security`` for a
    ``tls://`` scheduler (sim.runner.security.client_security), else Dask's defaults.

    Why a socket first: ``Client`` retries for its own connect timeout (30 s) and then raises a
    traceback; a refused or silent port is a bad ``--scheduler`` and should be said at once.
    A scheduler that refuses this client's certificate (or whose own is not signed by the CA)
    ends the same way: one line, exit 2.
    """
    timeout = CONNECT_SECONDS if timeout is None else timeout
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
        _probe(address, host, port, timeout, security if parts.scheme == "tls" else None)
    try:
        return Client(address, timeout=timeout, security=security)
    except (OSError, TimeoutError, ValueError) as exc:
        why = str(exc).splitlines()[0]
        if "TLS" in why:
            why += f" ({_NOT_TRUSTED})"
        raise _refuse(address, f"cannot connect: {why}") from None
    except Exception as exc:  # noqa: BLE001 - what answered spoke no Dask: a garbled handshake
        # Why so broad: Dask decodes the first frames it reads, so a web server or any other
        # service on the port fails in the decoding (a 3 EiB buffer's MemoryError, msgpack's
        # errors), not in the socket; whatever it is, the address is no scheduler.
        raise _refuse(address, "cannot connect: what answers there is not a Dask scheduler "
                               f"({type(exc).__name__} in the handshake)") from None


_NOT_TRUSTED = ("the scheduler and this client must hold certificates signed by the same "
                "cluster CA: docs/security.md")


def _probe(address: str, host: str, port: int, timeout: float, security) -> None:
    """Reach the port (and with ``security`` complete a TLS handshake, so the scheduler logs no
    half-open connection and a certificate it does not trust is said at once)."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise _refuse(address, f"cannot reach the scheduler: {exc.strerror or exc}") from None
    try:
        if security is not None:
            context = security.get_connection_args("client")["ssl_context"]
            sock = context.wrap_socket(sock)  # the handshake; the client's checks come first
    except ssl.SSLError as exc:
        raise _refuse(address, f"TLS handshake failed: {_ssl_reason(exc)} ({_NOT_TRUSTED})"
                      ) from None
    except OSError as exc:
        raise _refuse(address, f"TLS handshake failed: {exc.strerror or exc}") from None
    finally:
        sock.close()


def _ssl_reason(exc: ssl.SSLError) -> str:
    return str(exc.reason or exc).replace("_", " ").lower()


def run_experiment(exp: Experiment, exp_path: Path, games: int | None, cards_root: Path,
                   store: RunStore, *, jobs: int | None = None, client=None,
                   progress: bool = True, policies: tuple[str, ...] | None = None,
                   totals=None) -> int:
    """Play every batch not yet in ``store``; returns the number of batches played now.
    ``client`` is a Dask client (:func:`connect`), else loky processes; ``policies`` replaces
    the experiment file's (``--policy``/``--budget``); ``totals`` (summary.RunTotals) counts
    each batch as it is stored."""
    todo = sorted(set(range(exp.n_batches)) - store.done())
    if not todo:
        return 0
    exp_path, cards_root = str(resolved(exp_path)), str(resolved(cards_root))
    args = (exp_path, games, cards_root, fingerprint(exp_path, cards_root))
    games_todo = sum(stop - start for start, stop in map(exp.batch_range, todo))
    bar = ExitStack()
    counted = bar.enter_context(line.stage(f"playing {exp.name}", games_todo) if progress
                                else nullcontext(line.NoStage()))
    received = 0
    results = (_local_results(args, todo, policies, jobs) if client is None else
               _cluster_results(client, args, todo, policies, jobs))
    try:
        wanted = set(todo)
        for result, worker in results:
            # a worker's result is checked (inputs' digest, schema, schedule) before it is
            # stored: a misbehaving or misconfigured worker adds no row (sim.runner.results)
            b, columns, seconds = check_result(result, exp, store.digest, wanted, worker)
            wanted.discard(b)
            try:
                table = store.write_batch(b, columns, seconds)
            except KeyboardInterrupt:
                # a stop (Ctrl-C, SIGTERM) inside the write: the batch has arrived and passed
                # its checks, and may already have its name on disk though not yet counted.
                # Store it (again: the same rows) before stopping, so that it is kept and the
                # CLI's "K of B batches stored" counts what the folder holds
                with suppress(OSError):  # a full disk: the stop's line still comes
                    store.write_batch(b, columns, seconds)
                raise
            if totals is not None:
                totals.add(b, table)
            received += len(columns["game"])
            # a batch played in this process (one job: joblib runs it here) counted itself
            line.advance(received - counted.done)
    finally:
        results.close()  # stops the workers' remaining batches (an interrupt, a refused result)
        # the closing line states the games of the batches stored, those --resume will not play
        # again: a stop after a batch's write, before it was counted, left them out; one after
        # a batch played here had counted its games, before it was stored, counted them in
        line.recount(sum(stop - start for start, stop in
                         map(exp.batch_range, sorted(store.done() & set(todo)))), counted)
        bar.close()
    return len(todo)


def _local_results(args: tuple, todo: list[int], policies, jobs: int | None):
    """(result, None) of the batches ``todo`` from loky processes here, as they finish."""
    run_pid = os.getpid()
    tasks = (delayed(run_batch)(*args, b, policies, run_pid) for b in todo)
    # no more workers than batches: an idle worker still loads the engine
    n_jobs = min(jobs or default_jobs(), len(todo))
    with warnings.catch_warnings():
        # an interrupt drops the batches in flight (played again by --resume), which the
        # CLI reports in one line; joblib's paragraph about cancelled tasks is noise there
        warnings.filterwarnings("ignore", _CANCELLED, UserWarning)
        for result in Parallel(n_jobs=n_jobs, backend=DeafLoky(),
                               return_as="generator_unordered")(tasks):
            yield result, None


def _cluster_results(client, args: tuple, todo: list[int], policies, jobs: int | None):
    """(result, worker address) of the batches ``todo`` played on the Dask cluster's workers,
    as they finish.

    Why futures, not joblib's Dask backend: joblib plays every task in this process whenever
    the cluster (or ``--jobs``) offers one thread, so a run "on the cluster" could run on the
    client. At most ``jobs`` batches (default: twice the cluster's threads) are in flight, so
    the scheduler never holds 10**5 tasks; the rest are cancelled when the run stops early.
    """
    from distributed import as_completed

    window = jobs or max(4, 2 * sum(client.nthreads().values()))
    pending = iter(todo)

    def submit(b):
        return client.submit(run_batch, *args, b, policies, None, pure=False)

    futures = [submit(b) for _, b in zip(range(window), pending)]
    flight = as_completed(futures, loop=client.loop)
    try:
        for future in flight:
            result = future.result()
            # the worker as the scheduler knows it (its address), not as it names itself
            worker = ", ".join(sorted(client.who_has(future).get(future.key, ()))) or None
            future.release()
            nxt = next(pending, None)
            if nxt is not None:
                flight.add(submit(nxt))
            yield result, worker
    finally:
        client.cancel(list(flight.futures), force=True)
