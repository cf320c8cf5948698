"""A command's own notes on stderr (``note: ...``, warnings), each on a line of its own.

Why one function: on a terminal the progress line (:mod:`sim.runner.progress`) is drawn in place
from a command's third second, while it still loads, and a note echoed while it stands ran on
after it ("play: loading the libraries and the inputs (2 s so far)note: ..."). Every such note
goes through :func:`note`, which clears that line first (:func:`sim.runner.progress.aside`); the
next draw starts below the note. Outside a progress session, or in a log, it is a plain echo.
"""

from __future__ import annotations

import click

from sim.runner import progress


def note(*lines: str) -> None:
    """Each of ``lines`` on stderr, below the progress line drawn in place (if any); no
    lines, nothing cleared."""
    if not lines:
        return
    progress.aside()
    for line in lines:
        click.echo(line, err=True)
