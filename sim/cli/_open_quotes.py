"""A quote left open in a card table swallows the rows after it, silently.

``characters.csv`` and ``items.csv`` allow a line break inside a quoted cell (a long note), so
``Iron Tide Kid,...,"tank: a new card`` with its closing quote forgotten makes the rest of the
file, up to the next quote, one note: the cards on those lines vanish from the catalogue, and
``bwlab validate`` said "ok — 71 cards" of a file holding 73 (the designer audit of 2026-12-06).
The row count does not give it away when the swallowed lines hold no quote of their own.

The check lives here, beside the commands, because the catalogue's loader belongs to the
compiled engine's digest: a cell that holds a line break and, on a line after it, text that
reads as a whole row of the table (as many commas as the header has) is refused, one line
naming where the quote opened and the rows it swallowed. ``validate`` and every command that
plays games (:func:`sim.cli._engine.ready_to_play`) call it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

TABLES = ("characters.csv", "items.csv")


def swallowed_rows(root: Path) -> list:
    """The problems (``sim.catalogue.diagnostics.Problem``) of every card table in ``root``
    whose cell holds lines that read as rows of the table."""
    from sim.catalogue.diagnostics import Problem

    problems = []
    for name in TABLES:
        path = Path(root) / name
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the loader says what is wrong with it
        reader = csv.reader(io.StringIO(text, newline=""))
        header = None
        start = 1
        try:
            for row in reader:
                if header is None:
                    header = [h.strip() for h in row]
                else:
                    for j, cell in enumerate(row):
                        rows = [x for x in cell.splitlines()[1:]
                                if x.count(",") >= len(header) - 1]
                        if rows:
                            column = header[j] if j < len(header) else f"column {j + 1}"
                            names = ", ".join(r.split(",", 1)[0].strip() or "(blank)"
                                              for r in rows)
                            problems.append(Problem(
                                str(path), start, column,
                                f"a quote opened here is not closed: {len(rows)} row(s) after "
                                f"it read as part of this cell, not as rows ({names}); close "
                                f"the quote"))
                start = reader.line_num + 1
        except csv.Error:
            continue  # the loader reports it at its line
    return problems


def refuse_swallowed_rows(root: Path) -> None:
    """Raise ``InputError`` with :func:`swallowed_rows`' problems, if any."""
    from sim.catalogue.diagnostics import InputError

    problems = swallowed_rows(root)
    if problems:
        raise InputError(problems)
