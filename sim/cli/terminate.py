"""SIGTERM ending a command as Ctrl-C does: the one handler of the CLI.

Why: SIGTERM is how CI cancels a job and how ``kill`` stops one. Python's default ends the
process at once: no ``finally`` runs, so the games journal lost the games since its last flush,
and neither the journaled commands nor ``bwlab run`` said what was kept or how to go on. Inside
:func:`terminated_as_interrupt` SIGTERM raises :class:`Terminated` instead, which unwinds like
Ctrl-C's KeyboardInterrupt (every ``finally`` and ``except BaseException`` runs: the journal
flushes, joblib stops the workers, the store closes), and the caller says what was kept and
exits with :data:`SIGTERM_EXIT`, so CI can tell a cancel (143) from a Ctrl-C (130).

Used by the journaled commands (:func:`sim.cli.main._journaled`) and by ``bwlab run``
(:mod:`sim.cli.run`); each prints its own line.
"""

from __future__ import annotations

from contextlib import contextmanager

SIGTERM_EXIT = 128 + 15  # the shell's status of a process ended by SIGTERM
CTRL_C_EXIT = 128 + 2    # ... and by SIGINT (Ctrl-C)


class Terminated(KeyboardInterrupt):
    """SIGTERM, as a command inside :func:`terminated_as_interrupt` gets it. A KeyboardInterrupt,
    so that everything between the signal and the command's own ``except`` treats it as Ctrl-C
    (joblib stops its workers, Dask cancels what it waits for, no ``except Exception`` reports
    it as an internal error); its own class, so that the command can tell the two apart and
    exit 143, not 130 (:func:`exit_status`)."""


def exit_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a command stopped by ``stop``: SIGTERM's 143 or Ctrl-C's 130."""
    return SIGTERM_EXIT if isinstance(stop, Terminated) else CTRL_C_EXIT


def _terminate(signum, frame):
    """SIGTERM handler: unwind like Ctrl-C. A second SIGTERM while unwinding kills at once (the
    handler gives way to the default), so a stop that hangs can still be forced."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise Terminated


@contextmanager
def terminated_as_interrupt():
    """SIGTERM raises :class:`Terminated` inside the block; the previous handler is back after
    it. Only on the main thread, the one Python delivers signals to (``signal.signal`` refuses
    any other); elsewhere (a command invoked from a thread) the block runs unchanged."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, which cannot be restored
            signal.signal(signal.SIGTERM, previous)


__all__ = ["CTRL_C_EXIT", "SIGTERM_EXIT", "Terminated", "exit_status",
           "terminated_as_interrupt"]
