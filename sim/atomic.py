"""Atomic writes: a result file is either the old one or the complete new one, never half.

Why: long runs can be interrupted at any moment; a reader (or ``--resume``) must never see a
truncated file. Write to a temporary file in the same folder, flush, then ``os.replace``. A
symbolic link is written through (its file replaced, the link kept); a device or a pipe is refused,
since renaming over ``/dev/null`` as root would replace the system's.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path

from sim.stops import raise_dropped

# The files read as input by the command running now, by (device, inode): one dict per active
# :func:`inputs_guarded` block (the CLI's ``main`` opens one per command).
_GUARDED: list[dict] = []


@contextmanager
def inputs_guarded():
    """Within this block every file read as input (:func:`note_input`) is remembered, and no
    result is written over one of them (:func:`atomic_path` refuses it).

    Why: a result path that names an input (``play --log cards/characters.csv``, ``rulings --out``
    its own alternatives file, a weights file named in ``--policy``) replaced it silently: the
    data was lost. Inputs are known by device and inode, so a link or a hard link to one is one
    too. Only inside the block, so a test's or a library's own writes are never judged by the
    inputs of some earlier command."""
    _GUARDED.append({})
    try:
        yield
    finally:
        _GUARDED.pop()


def _identity(path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def note_input(path: str | Path) -> None:
    """Remember ``path`` as an input of the running command (a no-op outside a guarded block)."""
    if _GUARDED:
        key = _identity(path)
        if key is not None:
            _GUARDED[-1].setdefault(key, str(path))


def input_at(path: str | Path) -> str | None:
    """The input file of the running command that ``path`` names (as it was read), or None."""
    if not _GUARDED:
        return None
    key = _identity(path)
    return None if key is None else _GUARDED[-1].get(key)


def check_replaceable(path: str | Path) -> Path:
    """The file a result will replace (a link's target), or OSError when it must not be: an
    input of this command, or not a regular file (a folder; a device or a pipe, which renaming
    over as root would replace). A command writing several files checks them all first, so a
    bad one leaves none written."""
    path = Path(path)
    read = input_at(path)
    if read is not None:  # never replace a file this command read (inputs_guarded)
        raise OSError(errno.EEXIST, f"is also an input of this command ({read}); refusing to "
                                    "replace it", str(path))
    if path.is_symlink():  # write through a link to its file; never replace the link itself
        path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():
        raise OSError(errno.EINVAL, "not a regular file; refusing to replace it", str(path))
    return path


@contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; on success it replaces ``path`` in one step
    (:func:`atomic_paths` of one file)."""
    with atomic_paths([path]) as (tmp,):
        yield tmp


@contextmanager
def atomic_paths(paths):
    """Yield a temporary path beside each of ``paths`` (a list, in order); on success they all
    replace their targets together: a set of results (a report's page and its tables, a table
    and its figure) is either all the old files or all the new ones.

    Why: written one by one, a Ctrl-C between two of them left a report whose page told of new
    games beside tables of old ones (the audit of stop 67). Every target is checked before
    anything is written (:func:`check_replaceable`), and the renames, a few microseconds, run
    with Ctrl-C and SIGTERM held (:func:`stops_held`): a stop that arrives during them is
    raised once the last file is in place. A stop Python dropped while the files were made
    (:mod:`sim.stops`) is raised before the first rename: none of them lands."""
    targets = [check_replaceable(p) for p in paths]
    temps: list[Path] = []
    try:
        for path in targets:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.close(fd)
            temps.append(Path(tmp))
        yield list(temps)
        for tmp in temps:
            os.chmod(tmp, 0o644)  # mkstemp makes 0600; results are ordinary readable files
        raise_dropped()  # a Ctrl-C Python dropped while the files were made: none lands
        with stops_held():
            for tmp, path in zip(temps, targets):
                os.replace(tmp, path)
    except BaseException:
        for tmp in temps:
            tmp.unlink(missing_ok=True)
        raise


@contextmanager
def stops_held():
    """Within the block, Ctrl-C and SIGTERM are noted, not acted on; after it, a noted one is
    raised again with the handlers the command had (for work a stop must not cut in two: the
    renames above, the games journal's removal, ``sim.runner.journal.Journal.discard``). Only
    on the main thread (the one Python runs handlers on, and the only one ``signal.signal``
    accepts); elsewhere, and where a handler was not set from Python (so cannot be put back),
    the block runs unchanged."""
    import signal
    import threading

    held = (signal.SIGINT, signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in held}
    if any(handler is None for handler in previous.values()):
        yield
        return
    noted: list[int] = []
    for sig in held:
        signal.signal(sig, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(noted):
            signal.raise_signal(sig)


def write_text(path: str | Path, text: str) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)
