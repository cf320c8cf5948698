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

After the block, until the process exits, :func:`end_watched` (the CLI's ``main``) keeps the
watch: a SIGTERM there is noted, not left to Python's default, and the command ends with a line
saying it was terminated as it ended, after its output was complete, and 143.

Why: the block ends when the command has printed its result, but the process lives on a while:
``main`` returns, the ``atexit`` handlers run, and the interpreter's teardown (the compiled
kernels' memory) takes about 0.35 s of a 3 s ``bwlab ladder``. The block used to give SIGTERM
back to the default there, so a SIGTERM in the run's last instant killed the process silently:
the shell's 143 with the output complete and no line (the audit of the journaled commands; a
sweep of kill delays from 80 % to 105 % of a ``ladder``'s run time found it in 11 runs of 120,
and in 25 of 30 sent within 0.45 s of its output).
"""

from __future__ import annotations

from contextlib import contextmanager

SIGTERM_EXIT = 128 + 15  # the shell's status of a process ended by SIGTERM
CTRL_C_EXIT = 128 + 2    # ... and by SIGINT (Ctrl-C)
PIPE_CLOSED_EXIT = 128 + 13  # ... and by SIGPIPE: its reader went (``bwlab ... | head -1``)


def stdout_closed() -> int:
    """Its reader has closed stdout (``| head -1``): point it at /dev/null, so that no later
    write or the interpreter's last flush raises again, and return 141, the shell's status of
    a process ended by SIGPIPE. Why: click turned a closed pipe into exit 1, which reads as
    "unfair" or "drift", and ``drift`` into an internal error, exit 2 (the scripting audit of
    stop 78); 141 is no verdict of the lab's, and the reader has what it asked for."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind stdout: nothing to point
        pass
    return PIPE_CLOSED_EXIT


class Interrupted(Exception):
    """A Ctrl-C out of a command, carried past click to the CLI's ``main``, which says it in one
    line naming the command ("fairness: aborted (Ctrl-C)", as SIGTERM's "fairness: terminated
    (SIGTERM)"). Why: click turns KeyboardInterrupt into Abort after printing an empty line,
    and ``main`` then said a bare "aborted" (the progress audit of stop 80)."""

    def __init__(self, command: str):
        super().__init__(command)
        self.command = command


def worker_died(exc: BaseException) -> str:
    """One line for a worker process that died under a command (``concurrent.futures``'
    BrokenExecutor: loky's TerminatedWorkerError is one), with the exit codes the executor saw.
    Why: the OOM killer or a ``kill`` from outside ended ``run``, ``rarity`` and the engine's
    compile in 30-40 lines of joblib's traceback, with no word on what was kept (audit 82)."""
    import re

    codes = re.search(r"\{([^}]*)\}", str(exc))
    how = f" (exit {codes.group(1)})" if codes else ""
    return f"a worker process died{how}: killed from outside, or out of memory"


class Terminated(KeyboardInterrupt):
    """SIGTERM, as a command inside :func:`terminated_as_interrupt` gets it. A KeyboardInterrupt,
    so that everything between the signal and the command's own ``except`` treats it as Ctrl-C
    (joblib stops its workers, Dask cancels what it waits for, no ``except Exception`` reports
    it as an internal error); its own class, so that the command can tell the two apart and
    exit 143, not 130 (:func:`exit_status`)."""


def exit_status(stop: KeyboardInterrupt) -> int:
    """The exit status of a command stopped by ``stop``: SIGTERM's 143 or Ctrl-C's 130."""
    return SIGTERM_EXIT if isinstance(stop, Terminated) else CTRL_C_EXIT


class _End:
    """What :func:`end_watched` knows of the command's end."""

    def __init__(self, process: bool):
        self.process = process  # main is the process's entry: the watch lasts until it exits
        self.handled = False    # a terminated_as_interrupt block ran: the command takes SIGTERM
        self.previous = None    # the SIGTERM handler before the first such block
        self.noted = False      # a SIGTERM came after the block ended
        self.who = "bwlab"      # the command, naming the line
        self.status: int | None = None  # main's status, once settled
        self.last = False       # its atexit handler runs last (none was registered before)

    def line(self) -> str:
        return f"{self.who}: terminated (SIGTERM) as it ended, after its output was complete"

    def settle(self, code: int) -> int:
        """``code``, or 143 with the line when a SIGTERM came after the block (none said by
        the command: a 143 of its own has had its line)."""
        if self.handled and self.noted and code != SIGTERM_EXIT:
            import click

            click.echo(self.line(), err=True)
            code = SIGTERM_EXIT
        self.noted = False
        self.status = code
        return code


_end: _End | None = None  # inside end_watched


def _note(signum, frame):
    """SIGTERM handler after a command's block: note it for the end (:func:`end_watched`). A
    second one kills at once (Python's default), as while the block unwinds, so an end that
    hangs can still be forced."""
    import os
    import signal

    if _end is None or _end.noted:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        return
    _end.noted = True


def _terminate(signum, frame):
    """SIGTERM handler: unwind like Ctrl-C. A second SIGTERM while unwinding kills at once (the
    handler gives way to the default), so a stop that hangs can still be forced."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise Terminated


@contextmanager
def terminated_as_interrupt(who: str = "bwlab"):
    """SIGTERM raises :class:`Terminated` inside the block; the previous handler is back after
    it, unless :func:`end_watched` keeps the watch to the command's end (then SIGTERM is noted
    from here on, and ``who`` names its line). Only on the main thread, the one Python delivers
    signals to (``signal.signal`` refuses any other); elsewhere (a command invoked from a
    thread) the block runs unchanged."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    end = _end
    try:
        yield
    finally:
        if end is not None:  # main watches the end: a SIGTERM from here on is noted, not fatal
            if not end.handled:
                end.handled, end.previous, end.who = True, previous, who
            signal.signal(signal.SIGTERM, _note)
        elif previous is not None:  # None: a handler not set from Python, not restorable
            signal.signal(signal.SIGTERM, previous)


@contextmanager
def end_watched(process: bool):
    """The CLI's ``main`` round a command: once a :func:`terminated_as_interrupt` block has
    ended, a SIGTERM is noted, and :meth:`_End.settle` turns ``main``'s status into 143 with
    the line. ``process``: ``main`` is the process's entry (``bwlab`` or ``python -m
    sim.cli.main``), so the watch lasts until the process exits (:func:`_last_word`); else
    (``main`` called from other code, as the tests call it) the handler before the block is
    back when ``main`` returns."""
    import atexit
    import signal
    import threading

    global _end
    if threading.current_thread() is not threading.main_thread():
        yield _End(False)
        return
    outer, end = _end, _End(process)
    if process:
        # registered first, so it runs last: the other handlers (joblib's, Dask's, those of the
        # thread pools) run while SIGTERM is still noted
        end.last = getattr(atexit, "_ncallbacks", lambda: 1)() == 0
        atexit.register(_last_word, end)
    _end = end
    try:
        yield end
    finally:
        _end = outer if not process else end
        if not process and end.handled and end.previous is not None:
            signal.signal(signal.SIGTERM, end.previous)


def _last_word(end: _End) -> None:
    """The process's last Python code (``atexit``): a SIGTERM noted since ``main`` returned, or
    arriving now, ends it with the line and 143.

    Why it ends the process itself: after the ``atexit`` handlers Python gives every signal back
    to its default and tears the interpreter down (about 0.35 s with the compiled kernels
    loaded); a SIGTERM then would kill the process without a word, the very case this module
    exists to prevent. So SIGTERM is blocked here (one arriving from now on waits, pending),
    the standard streams are flushed, and the process exits at once with its status: the line
    and 143 if a SIGTERM is noted or pending, else ``main``'s own status; nothing is left to
    run but the teardown, which frees memory and writes nothing. When another ``atexit``
    handler was registered before this one (a coverage tool's) it still has to run: then the
    process is left to end as usual, SIGTERM blocked (a SIGTERM in the teardown comes after
    the last code has run, and the command's status stands)."""
    import os
    import signal
    import sys

    if not end.handled or end.status is None or signal.getsignal(signal.SIGTERM) is not _note:
        return  # no SIGTERM-handling command ran, or main did not return: Python's usual end
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    status = end.status
    if end.noted or signal.SIGTERM in signal.sigpending():
        if status != SIGTERM_EXIT:
            status = SIGTERM_EXIT
            try:
                sys.stderr.write(end.line() + "\n")
            except (OSError, ValueError):
                pass
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return  # a stream that cannot be flushed: Python's own end reports it
    if status != end.status or end.last:
        os._exit(status)


__all__ = ["CTRL_C_EXIT", "SIGTERM_EXIT", "Terminated", "end_watched", "exit_status",
           "terminated_as_interrupt"]
