"""Running the ``bwlab`` CLI in-process from a test: the exit code and what it printed, with the
project's promise checked on every call — bad input gets a line, never a traceback. And in a
process of its own, stopped by a real SIGTERM (:func:`sigterm_midway`), or stopped inside one
call by the exception SIGTERM raises (:func:`stopping_once`)."""

from __future__ import annotations

from sim.cli.main import main


class Clock:
    """A progress line's fake clock: time stands at ``now`` until a test moves it."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def run(capsys, *args):
    """``bwlab ARGS`` (each argument as a string): (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def stopping_once(m, owner, name: str, after: bool = False, when=lambda *a, **k: True) -> list:
    """``owner.name`` patched (monkeypatch context ``m``) so that its first call for which
    ``when(*args)`` holds raises the CLI's ``Terminated``, as a SIGTERM landing there would:
    before it does its work, or (``after``) just after; every other call runs as before.
    Returns the list recording the stop (``name``, once)."""
    from sim.cli.terminate import Terminated

    real, stops = getattr(owner, name), []

    def stopping(*a, **k):
        if stops or not when(*a, **k):
            return real(*a, **k)
        stops.append(name)
        if after:
            real(*a, **k)
        raise Terminated

    m.setattr(owner, name, stopping)
    return stops


def eager_progress(monkeypatch=None):
    """Make the progress line draw at every step (no 2 s delay, no interval), so that a tiny
    run shows it: with ``monkeypatch`` for one test, else a context manager."""
    from contextlib import contextmanager

    from sim.runner import progress

    if monkeypatch is not None:
        monkeypatch.setattr(progress, "DELAY", 0.0)
        monkeypatch.setattr(progress, "LOG_EVERY", 0.0)
        return None

    @contextmanager
    def eager():
        saved = progress.DELAY, progress.LOG_EVERY
        progress.DELAY = progress.LOG_EVERY = 0.0
        try:
            yield
        finally:
            progress.DELAY, progress.LOG_EVERY = saved
    return eager()


def _catches_sigterm(pid: int) -> bool:
    """Whether process ``pid`` has a SIGTERM handler of its own (its SigCgt mask, in /proc)."""
    import signal
    from pathlib import Path

    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def sigterm_midway(args, ready, env=None, timeout: float = 120.0):
    """``bwlab ARGS`` in a process of its own, sent SIGTERM (to it alone, as ``kill`` and CI
    send it) once it handles SIGTERM and ``ready()`` is true (say: a first batch or journal
    part is on disk); returns (exit code, stdout, stderr). Waiting for the handler first makes
    the test exact: a signal sent before it would kill the process at once, as Python's
    default does, and fail the test for no fault of the command. Needs /proc."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-m", "sim.cli.main", *map(str, args)], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    try:
        deadline = time.monotonic() + timeout
        while not (proc.poll() is None and _catches_sigterm(proc.pid) and ready()):
            assert proc.poll() is None, f"ended before the signal: {proc.communicate()}"
            assert time.monotonic() < deadline, "never ready for the signal"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


def tiny_experiment(name: str = "tiny", games: int = 8, root_seed: int = 5,
                    policy: str = "greedy") -> str:
    """A team experiment's text of a few games in batches of 4 on 2 boards, for the tests that
    run, resume or break a small run (its teams: ``teams/example.toml`` beside it)."""
    return (f'name = "{name}"\ngames = {games}\nroot_seed = {root_seed}\nbatch_size = 4\n'
            f'boards = 2\npolicies = ["{policy}"]\nseating = "duplicate"\n'
            f'teams = "teams/example.toml"\n')
