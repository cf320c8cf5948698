"""A Ctrl-C (or the CLI's SIGTERM) that Python dropped, raised again at the next safe point.

Why: Python runs a signal's handler in whatever Python code runs when the signal arrives. When
that code is a weakref callback or a ``__del__`` (matplotlib's callback registries fire such
callbacks while a figure is built and drawn), the KeyboardInterrupt the handler raises cannot
propagate: Python prints "Exception ignored in ..." and carries on. In the audit of stop 67 a
Ctrl-C landing in ``compare-systems``' figure was dropped that way: the command finished, wrote
its files and exited 0. Inside :func:`dropped_stops_kept` (the CLI's ``main`` opens it round
every command) such a stop is noted through ``sys.unraisablehook`` instead of printed, and
:func:`raise_dropped` raises it again where a stop is safe and matters: before results are
renamed into place (:func:`sim.atomic.atomic_paths`), when a progress stage opens or advances
on the main thread (:mod:`sim.runner.progress`), and when the command returns.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

# The classes of the stops dropped since the last raise (KeyboardInterrupt or a subclass of it,
# such as the CLI's Terminated for SIGTERM); only inside :func:`dropped_stops_kept`.
_dropped: list[type] = []


def _noting(previous):
    """An unraisable hook that notes a dropped stop (and prints nothing for it: the stop is
    not lost, it is raised again) and hands every other unraisable exception to ``previous``."""
    def hook(unraisable):
        kind = unraisable.exc_type
        if isinstance(kind, type) and issubclass(kind, KeyboardInterrupt):
            _dropped.append(kind)
        else:
            previous(unraisable)
    return hook


@contextmanager
def dropped_stops_kept():
    """Within the block, a stop Python drops is noted and raised again by :func:`raise_dropped`;
    one still noted when the block ends is raised then (the command stops with Ctrl-C's or
    SIGTERM's status, not 0)."""
    previous = sys.unraisablehook
    sys.unraisablehook = _noting(previous)
    _dropped.clear()
    try:
        yield
        raise_dropped()
    finally:
        sys.unraisablehook = previous
        _dropped.clear()


def raise_dropped() -> None:
    """Raise the stop Python dropped, if any (its own class: Ctrl-C's KeyboardInterrupt or
    SIGTERM's Terminated). Only on the main thread, where the signal was meant to land; and not
    while an exception is already being handled (a stop unwinding already, whose clean-up, such
    as the games journal's last flush, must still write)."""
    if not _dropped or threading.current_thread() is not threading.main_thread():
        return
    if isinstance(sys.exc_info()[1], KeyboardInterrupt):
        _dropped.clear()
        return
    kind = _dropped[0]
    _dropped.clear()
    raise kind()


__all__ = ["dropped_stops_kept", "raise_dropped"]
