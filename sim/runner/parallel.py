"""Run an experiment's missing batches in parallel and store each as it completes.

Local: joblib's loky processes (``jobs`` defaults to every core). Cluster: joblib's Dask backend
on a ``distributed`` scheduler. Batches finish in any order; each is stored atomically the moment
it arrives, so an interrupt loses only batches still in flight, and the progress bar shows games/s
and the ETA.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from pathlib import Path

from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from .experiment import Experiment
from .store import RunStore
from .tasks import fingerprint, run_batch


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def run_experiment(exp: Experiment, exp_path: Path, games: int | None, cards_root: Path,
                   store: RunStore, *, jobs: int | None = None, backend: str = "loky",
                   scheduler: str | None = None, progress: bool = True,
                   policies: tuple[str, ...] | None = None) -> int:
    """Play every batch not yet in ``store``; returns the number of batches played now.
    ``policies`` replaces the experiment file's (``--policy``/``--budget``)."""
    todo = sorted(set(range(exp.n_batches)) - store.done())
    if not todo:
        return 0
    exp_path, cards_root = str(Path(exp_path).resolve()), str(Path(cards_root).resolve())
    args = (exp_path, games, cards_root, fingerprint(exp_path, cards_root))
    tasks = (delayed(run_batch)(*args, b, policies) for b in todo)
    games_todo = sum(stop - start for start, stop in map(exp.batch_range, todo))
    bar = tqdm(total=games_todo, unit="game", disable=not progress, smoothing=0.1,
               desc=exp.name, dynamic_ncols=True)
    client = None
    if backend == "dask":
        from distributed import Client

        client = Client(scheduler)
        config = parallel_config(backend="dask")
    else:
        config = nullcontext()
    try:
        with config:
            runner = Parallel(n_jobs=jobs or default_jobs(), backend=None if client else "loky",
                              return_as="generator_unordered")
            for b, columns, seconds in runner(tasks):
                store.write_batch(b, columns, seconds)
                bar.update(len(columns["game"]))
    finally:
        bar.close()
        if client is not None:
            client.close()
    return len(todo)
