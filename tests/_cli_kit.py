"""Running the ``bwlab`` CLI in-process from a test: the exit code and what it printed, with the
project's promise checked on every call — bad input gets a line, never a traceback."""

from __future__ import annotations

from sim.cli.main import main


def run(capsys, *args):
    """``bwlab ARGS`` (each argument as a string): (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


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
