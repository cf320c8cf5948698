"""Atomic writes: a result file is either the old one or the complete new one, never half.

Why: long runs can be interrupted at any moment; a reader (or ``--resume``) must never see a
truncated file. Write to a temporary file in the same folder, flush, then ``os.replace``. A
symbolic link is written through (its file replaced, the link kept); a device or a pipe is refused,
since renaming over ``/dev/null`` as root would replace the system's.
"""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; on success it replaces ``path`` in one step."""
    path = Path(path)
    if path.is_symlink():  # write through a link to its file; never replace the link itself
        path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():  # a device, a pipe: renaming over it (as root)
        raise OSError(errno.EINVAL, "not a regular file; refusing to replace it", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; results are ordinary readable files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str) -> Path:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)
