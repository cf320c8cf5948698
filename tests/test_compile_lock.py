"""One process compiles a source at a time (sim.runner.warm.compile_lock): a second command
started on a cold cache waits for the first, then finds the cache warm instead of compiling the
whole engine again beside it (stop 82: three compiles at once took the two cores for half an
hour where one takes eight minutes)."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

fcntl = pytest.importorskip("fcntl")

import sim._jit as jit  # noqa: E402
from sim.cli import _engine  # noqa: E402
from sim.runner import warm  # noqa: E402


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(jit, "JIT_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    return tmp_path


def _holder(cache, seconds: float, then=None):
    """Another process's compile: holds the lock for ``seconds`` (flock conflicts between open
    files, so a thread with its own open file stands in for the process), then ``then()``."""
    taken = threading.Event()

    def run():
        with open(cache / "compile.lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            taken.set()
            time.sleep(seconds)
            if then is not None:
                then()
            fcntl.flock(handle, fcntl.LOCK_UN)

    thread = threading.Thread(target=run)
    thread.start()
    assert taken.wait(5)
    return thread


def test_a_second_compile_waits_for_the_first(cache):
    events = []

    @contextmanager
    def waiting():
        events.append("waiting")
        yield

    holder = _holder(cache, 1.0, then=lambda: events.append("first done"))
    with warm.compile_lock(waiting):
        events.append("second compiles")
    holder.join()
    assert events == ["waiting", "first done", "second compiles"]


def test_no_wait_when_nobody_compiles(cache):
    events = []

    @contextmanager
    def waiting():
        events.append("waiting")
        yield

    with warm.compile_lock(waiting):
        events.append("compiles")
    with warm.compile_lock(waiting):  # released: taken again at once
        events.append("compiles again")
    assert events == ["compiles", "compiles again"]


def test_the_waiting_command_loads_what_the_first_compiled(cache, monkeypatch):
    def no_second_compile(*args, **kwargs):
        raise AssertionError("compiled the engine a second time")

    monkeypatch.setattr(warm, "warm", no_second_compile)
    mark = warm.warm_mark()
    holder = _holder(cache, 1.0, then=lambda: mark.write_text("1\n"))
    _engine.compile_if_cold(quiet=True)
    holder.join()
    assert mark.exists()


def test_a_killed_compile_leaves_the_lock_free(cache):
    """flock dies with its holder: a compile killed half-way blocks nobody."""
    holder = _holder(cache, 0.2)
    holder.join()
    with warm.compile_lock():
        pass
