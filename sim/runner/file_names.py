"""A file name that a data file gives and the lab then *writes*: a plain name, nothing more.

Why: two inputs name files that a command writes into a folder of its own: a rulings
alternative's ``file`` (its changed copy of the card folder) and a drift baseline's
``card_files`` (the baseline's cards, replayed). A name with a folder part, ``..`` or an
absolute path escaped that folder: the audit of stop 55 overwrote files under /tmp through
both, and ``bwlab validate`` passed the two files. Both loaders and both writers ask
:func:`file_name_problem`.
"""

from __future__ import annotations

from pathlib import Path

from sim.catalogue.diagnostics import has_control


def file_name_problem(name) -> str | None:
    """Why ``name`` is not a plain file name (None when it is)."""
    if not isinstance(name, str) or not name:
        return "must be a file name"
    if (name in (".", "..") or "/" in name or "\\" in name or has_control(name)
            or Path(name).is_absolute() or Path(name).name != name):
        return f"{name!r} must be a plain file name of the card folder (no folder, no '..')"
    return None


__all__ = ["file_name_problem"]
