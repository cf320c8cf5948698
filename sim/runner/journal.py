"""The games journal: an interrupted command continues from the games it had played.

Why: ``bwlab run`` resumes from its batch files, but ``rarity``, ``fairness``, ``ladder``,
``drift``, ``rulings`` and the other game-playing commands held their games in memory, so a
Ctrl-C, a closed laptop or a killed job after twenty minutes of ``rarity --games 200000`` lost
all of it. Every game those commands play goes through :func:`sim.runner.playing.play_many`,
and a game's result depends only on that call's inputs (boards, cards, teams, seats, game
numbers, root seed, players) and on the engine's code. So each call is named by a digest of all
of them (:func:`call_key`: the kernel source digest of :mod:`sim._jit`, the package, NumPy and
Numba versions, and every input array's bytes), and the games it finishes are written, every
couple of seconds, to ``<root>/<key>/`` (atomically: a temporary name, then a rename). The
same command run again makes the same calls, finds their games there and plays only the rest:
the rows are bit-identical to an uninterrupted run, since they are the same games' results.

A command that ends normally (any exit code its verdict gives) deletes what it wrote; an
interrupted or failed one keeps it and says so on stderr. Nothing here is ever trusted beyond
its name: a part file that cannot be read, or whose shapes do not fit its call, is ignored (and
deleted), and any error writing or deleting is ignored too — the journal can only save work,
never fail a command. Leftovers of commands never run again are pruned after
:data:`KEEP_DAYS` days. A command holds a lock on each folder it uses while it runs, so a second
command making the same call at the same time journals into a folder of its own
(:meth:`Journal._claim`). ``$BWLAB_JOURNAL`` moves the root; ``BWLAB_JOURNAL=off`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import threading
import time
import uuid
import weakref
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path

import numpy as np

FLUSH_SECONDS = 2.0   # finished games reach the disk at least this often
KEEP_DAYS = 14        # a leftover of a command never run again is pruned after this long
_VERSION = b"bwlab-games-journal-1"


class Unjournaled(TypeError):
    """An input the digest cannot name (the call then plays without a journal)."""


def journal_root() -> Path | None:
    """``$BWLAB_JOURNAL`` (``off``: none), else ``.bwlab-journal`` beside the package when
    writable (a clone keeps its own, as its compile cache), else ``~/.cache/bwlab/journal``."""
    chosen = os.environ.get("BWLAB_JOURNAL", "")
    if chosen.lower() == "off":
        return None
    if chosen:
        return Path(chosen)
    beside = Path(__file__).resolve().parents[2]
    if os.access(beside, os.W_OK):
        return beside / ".bwlab-journal"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bwlab" / "journal"


@lru_cache(maxsize=1)
def _code_identity() -> bytes:
    import numba

    from sim import __version__
    from sim._jit import source_digest

    return f"{__version__}|{np.__version__}|{numba.__version__}|{source_digest()}".encode()


def _feed(h, value) -> None:
    """Every byte of ``value`` that a game could depend on, with its type and shape."""
    if value is None or isinstance(value, (bool, int, float, str, np.generic)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise Unjournaled("an object array")
        h.update(f"nd:{value.dtype.str}:{value.shape};".encode())
        h.update(np.ascontiguousarray(value).data)
    elif isinstance(value, (tuple, list)):
        h.update(f"{type(value).__name__}:{len(value)}(".encode())
        for item in value:
            _feed(h, item)
        h.update(b")")
    elif isinstance(value, dict):
        h.update(f"dict:{len(value)}(".encode())
        for name in sorted(value, key=str):
            _feed(h, str(name))
            _feed(h, value[name])
        h.update(b")")
    else:
        raise Unjournaled(type(value).__name__)


def call_key(inputs: dict) -> str:
    """The digest that names one call's games (module doc)."""
    h = hashlib.sha256(_VERSION)
    h.update(_code_identity())
    _feed(h, inputs)
    return h.hexdigest()[:32]


class Call:
    """One call's journal: the games found at its start, and the games it finishes."""

    def __init__(self, folder: Path, n: int, width: int, card_shape: tuple | None,
                 plausible=None):
        self.folder, self.n, self.width, self.card_shape = folder, n, width, card_shape
        self.plausible = plausible  # (out, card_out) -> whether any game gives these rows
        self.done = np.zeros(n, bool)
        self.out = np.zeros((n, width), np.int64)
        self.card_out = None if card_shape is None else np.zeros((n, *card_shape), np.int64)
        self._pending: list[np.ndarray] = []
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._load()
        self.found = int(self.done.sum())
        self.resumed = self.found  # of them, left by an earlier command (Journal.open says)

    def _load(self) -> None:
        for part in sorted(self.folder.glob("part-*.npz")):
            if not _regular(part):  # opening a pipe waits for a writer for ever
                continue
            try:
                with np.load(part) as z:
                    rows, out = z["rows"].astype(np.int64), z["out"].astype(np.int64)
                    cards = z["card_out"].astype(np.int64) if self.card_out is not None else None
            except OSError:  # vanished, or unreadable now (a full table of open files, an I/O
                continue     # error): not trusted, but kept for a later run to read
            except Exception:  # damaged (not an archive, a missing array): never trusted
                part.unlink(missing_ok=True)
                continue
            fits = (rows.ndim == 1 and out.shape == (rows.size, self.width)
                    and (rows.size == 0 or (rows.min() >= 0 and rows.max() < self.n))
                    and np.unique(rows).size == rows.size  # a part names each game once
                    and (cards is None or cards.shape == (rows.size, *self.card_shape)))
            if fits and self.plausible is not None:  # results no game gives: an edited part
                fits = bool(self.plausible(out, cards))
            if not fits:
                part.unlink(missing_ok=True)
                continue
            self.out[rows] = out
            if cards is not None:
                self.card_out[rows] = cards
            self.done[rows] = True

    def record(self, rows: np.ndarray) -> None:
        """Rows whose results are now in ``self.out`` (and ``self.card_out``); written within
        :data:`FLUSH_SECONDS`. Safe from any thread."""
        with self._lock:
            self._pending.append(np.asarray(rows, np.int64))
            if time.monotonic() - self._last >= FLUSH_SECONDS:
                self._flush_locked()

    def flush(self) -> None:
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        """Write the pending rows as one part; they stay pending until the part has its name.

        Why not earlier: a stop (SIGTERM, Ctrl-C) is an exception raised between any two
        bytecodes of the main thread, and the main thread flushes last, when its games are
        done, so a stop often lands inside this very write. Rows dropped before the rename
        would be lost although finished; kept pending, the session's last :meth:`flush` (its
        ``except BaseException``) writes them. A stop between the rename and the next line
        leaves them pending and written: the part is written twice, which is harmless
        (:meth:`Journal.kept` counts each game once, and a resume sets the same rows twice)."""
        self._last = time.monotonic()
        if not self._pending:
            return
        rows = np.concatenate(self._pending)
        arrays = {"rows": rows, "out": _compact(self.out[rows])}
        if self.card_out is not None:
            arrays["card_out"] = _compact(self.card_out[rows])
        name = f"part-{int(rows.min()):09d}-{uuid.uuid4().hex[:8]}"
        tmp = self.folder / f".{name}.tmp.npz"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            np.savez(tmp, **arrays)
            os.replace(tmp, self.folder / f"{name}.npz")
        except OSError:  # a full disk or a removed folder costs the resume, never the command
            with suppress(OSError):
                tmp.unlink(missing_ok=True)
            return  # still pending: the next flush tries again
        self._pending = []
        self.done[rows] = True


def _regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (a link followed): a named pipe put among the parts
    hung the command that read it (the inputs audit of stop 74)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _compact(a: np.ndarray) -> np.ndarray:
    """The smallest integer type that holds ``a`` exactly (result columns are small counts)."""
    if a.size == 0:
        return a
    lo, hi = int(a.min()), int(a.max())
    for t in (np.int8, np.int16, np.int32):
        if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max:
            return a.astype(t)
    return a


class Journal:
    """The calls one command made (its :func:`session`): their folders, not their games (a
    call's buffers are the results its caller keeps, so the journal holds no second copy).

    Why it tells a folder's first opening from later ones: two identical calls within one
    command (the drift gate's "before" and "now" when the card files differ only by a comment)
    share a folder, so the second finds the first's games. Those are reused, and rightly, but
    no run was interrupted: only games found at a folder's first opening in this command were
    left by an earlier one ("resumed", :attr:`Call.resumed`, and only they are announced); a
    later opening finds games this command has already used."""

    def __init__(self, root: Path, say=None):
        self.root, self.say = root, say
        self.folders: set[Path] = set()
        self._claims: list[int] = []  # descriptors of the folders' locks, held while it runs
        self.calls: weakref.WeakSet[Call] = weakref.WeakSet()  # those still alive may hold rows
        self.ended = False  # the command has ended (its games used); only the clean-up is left
        self._told = False

    def open(self, inputs: dict, n: int, width: int, card_shape: tuple | None,
             plausible=None) -> Call | None:
        """The call named by ``inputs``; ``plausible(out, card_out)`` says whether a part's
        results are ones a game can give (a part failing it is deleted, its games played)."""
        try:
            key = call_key({**inputs, "n": n, "width": width, "card_shape": card_shape})
        except Unjournaled:
            return None
        folder = self.root / key
        again = folder in self.folders  # an identical call of this command came first
        if not again and not self._claim(folder):
            # another command running now makes the same call: its games are not an
            # interrupted run's, and its clean-up must not remove ours (module doc)
            folder = self.root / f"{key}-{uuid.uuid4().hex[:8]}"
            self._claim(folder)
        # counted (kept) before its parts are read: a stop landing while Call reads an earlier
        # run's parts leaves them on disk, and the session must say so, not "nothing to keep"
        self.folders.add(folder)
        call = Call(folder, n, width, card_shape, plausible)
        if again:
            call.resumed = 0
        self.calls.add(call)
        if call.resumed and not self._told and self.say is not None:
            self._told = True
            self.say(f"resuming an interrupted run: the games it had finished are taken from "
                     f"the journal ({self.root}), not played again")
        return call

    def _claim(self, folder: Path) -> bool:
        """Hold ``folder``'s lock for as long as this command runs; False when a live process
        holds it. Why: two commands in one clone that make an identical call shared the folder,
        so the second said "resuming an interrupted run" though nothing was interrupted, and the
        first's clean-up removed the folder under the second (the advice audit of stop 74). An
        advisory lock dies with its process, so a killed command's folder is claimed, and
        resumed, by the next run. Best effort: where no lock can be taken, as before."""
        try:
            import fcntl
        except ImportError:  # no advisory locks on this system
            return True
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(folder / ".lock", os.O_CREAT | os.O_RDWR, 0o644)
        except OSError:
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # held by a live process
            os.close(fd)
            return False
        except OSError:  # no locks on this file system: share the folder, as before
            os.close(fd)
            return True
        self._claims.append(fd)
        return True

    def release(self) -> None:
        """Let the folders' locks go (the command is over, kept or not)."""
        for fd in self._claims:
            with suppress(OSError):
                os.close(fd)
        self._claims = []

    def flush(self) -> None:
        """Write every call's pending rows (a stop may have cut a call's own last flush short:
        :meth:`Call._flush_locked`). Best effort, as every write here."""
        for call in list(self.calls):
            with suppress(Exception):
                call.flush()

    def kept(self) -> int:
        """Games on disk for this command's calls, each counted once."""
        total = 0
        for folder in self.folders:
            rows: set[int] = set()
            for part in folder.glob("part-*.npz"):
                if not _regular(part):
                    continue
                try:
                    with np.load(part) as z:
                        rows.update(z["rows"].tolist())
                except Exception:
                    continue
            total += len(rows)
        return total

    def discard(self) -> None:
        """Remove the journal's folders (:func:`_remove`)."""
        _remove(self.folders)


def _remove(folders) -> None:
    """Remove ``folders``, with Ctrl-C and SIGTERM held until they are gone
    (``sim.atomic.stops_held``). Why: a SIGTERM raised just after ``rmtree``'s ``os.close``
    returned made its ``finally`` close the same descriptor again (Python 3.11), and the EBADF
    replaced the stop: a finished ``ladder`` ended "error: bwlab: Bad file descriptor", exit 2
    (the SIGTERM audit of stop 69); in a threaded process the second close could hit another
    file. Both removals here go through it: the finished run's journal and old leftovers."""
    from sim.atomic import stops_held

    with stops_held():
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


def _prune(root: Path) -> None:
    """Drop leftovers untouched for :data:`KEEP_DAYS` days (best effort)."""
    cutoff = time.time() - KEEP_DAYS * 86400
    try:
        stale = [p for p in root.iterdir() if p.is_dir() and p.stat().st_mtime < cutoff]
    except OSError:
        return
    _remove(stale)


_current: Journal | None = None


def current() -> Journal | None:
    return _current


@contextmanager
def session(say=None, ends: tuple = ()):
    """The journal of one command: kept if it is interrupted or fails, deleted if it ends
    (returns, or raises one of ``ends``: the CLI's exit-code exceptions). ``say(text)`` tells
    the user (stderr) what was resumed and what is kept."""
    global _current
    root = journal_root()
    if root is None:
        yield None
        return
    _prune(root)
    outer, j = _current, Journal(root, say)
    _current = j
    try:
        yield j
    except ends:
        j.ended = True
        j.discard()
        raise
    except BaseException:
        j.flush()
        kept = j.kept()
        if kept and say is not None:
            say(f"{kept:,} finished games kept in {root}: the same command, run again, "
                f"continues from them")
        raise
    else:
        j.ended = True  # a stop from here on cuts only the clean-up short (cli.main says so)
        j.discard()
    finally:
        j.release()
        _current = outer


__all__ = ["Call", "Journal", "KEEP_DAYS", "call_key", "current", "journal_root", "session"]
