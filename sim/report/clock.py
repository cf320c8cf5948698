"""When a result was made: now, or ``$SOURCE_DATE_EPOCH`` when it is set.

Why the variable: it is the reproducible-builds convention (reproducible-builds.org/specs/
source-date-epoch) for a fixed "now"; with it, two reports of the same cards and seeds are the
same bytes (the minute in the footer was the one difference, stop 68's note). Why it is checked
by every command (``sim.cli.main``): numpy reads it too, as ``int(...)``, when scipy's statistics
load it, so a value that is not a whole number of seconds ended every command that computes an
interval in a traceback."""

from __future__ import annotations

import os
from datetime import datetime, timezone

from sim.catalogue.diagnostics import InputError, Problem

SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"


def generated_at() -> datetime:
    """``$SOURCE_DATE_EPOCH`` (seconds since 1970, UTC) when set, else now; a value that is not
    a whole number of seconds in range is bad input (one line, exit 2)."""
    value = os.environ.get(SOURCE_DATE_EPOCH)
    if value is None:
        return datetime.now(timezone.utc)
    try:
        return datetime.fromtimestamp(int(value), timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise InputError([Problem(repr(value), None, f"${SOURCE_DATE_EPOCH}",
                                  "not a time: give whole seconds since 1970-01-01 UTC, "
                                  "or unset it")]) from None
