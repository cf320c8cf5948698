"""Where a run's results live: a Parquet file per batch, a derived manifest, atomic writes, resume.

Why per batch: an interrupted run (Ctrl-C, kill) keeps every batch it finished — each file is
written to a temporary name and renamed — and ``--resume`` plays exactly the missing batches.

Why the batches, not the manifest, are the truth (issue #22 item 2): a manifest that is lost,
corrupt or a step behind its batches must never mix or lose results. Every batch carries in its
Parquet metadata the digest of the run it belongs to (package version, every card file, the
experiment file, its teams, root seed, games, batch size, policies), its batch number and the
time it took. Before a batch is counted its footer is checked against this run: another run's
batch refuses the whole folder (never adopted, ``--resume`` or not); a truncated or damaged one is
deleted and played again. The manifest is rebuilt from the batches whenever it is written, so
a finished run's lists every batch, and a lost or stale one is never an error. Nothing is
written until the first batch is stored: a run that fails before it leaves nothing behind to
lock the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim import __version__
from sim.atomic import atomic_path, write_text
from sim.catalogue.diagnostics import InputError, Problem

from .experiment import Experiment, content_digest

MANIFEST = "manifest.json"
CONTENT_KEY, LEGACY_KEY = "experiment_content_sha256", "experiment_sha256"
# The manifest is derived, so it is rewritten at most this often while batches arrive (and at
# the end): rewriting a list of 10**5 batches after every one of them would write gigabytes.
MANIFEST_EVERY = 2.0
DIGEST_KEY, BATCH_KEY, SECONDS_KEY = b"bwlab.run_digest", b"bwlab.batch", b"bwlab.seconds"
# Files atomic_path leaves behind when a process dies between creating and renaming them.
_TEMP_GLOBS = (".batch-*.parquet.*.tmp", f".{MANIFEST}.*.tmp", ".cards.csv.*.tmp")


def cards_digest(root: Path) -> dict[str, str]:
    """sha256 of every designer file under the card folder (what the rules and cards were)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(root).iterdir()) if p.is_file() and p.suffix in (".csv", ".toml")}


def run_identity(exp: Experiment, cards_root: Path) -> dict:
    """Everything a run's rows depend on. The teams are listed as card indices because the
    experiment file names its team file: an edited team file must not pass as the same run.
    The experiment counts by its values (a comment edited mid-run changes no game)."""
    return {"package_version": __version__, "experiment": exp.name,
            CONTENT_KEY: exp.content_digest, "cards": cards_digest(cards_root),
            "root_seed": exp.root_seed, "games": exp.games, "batch_size": exp.batch_size,
            "n_batches": exp.n_batches, "policies": list(exp.policies),
            "seating": exp.seating, "boards": exp.boards,
            "teams": None if exp.teams is None else exp.teams.tolist(),
            "pool": None if exp.pool is None else exp.pool.tolist()}


def identity_digest(identity: dict) -> str:
    """The run's digest: its identity hashed as the experiment's values are (one hash)."""
    return content_digest(identity)


def legacy_identity(identity: dict, exp: Experiment) -> dict:
    """The identity as bwlab wrote it before 2026-12 (the experiment file's bytes, under
    ``experiment_sha256``): a run it stored is still this run when the file is unchanged."""
    old = {k: v for k, v in identity.items() if k != CONTENT_KEY}
    return {**old, LEGACY_KEY: exp.digest}


@lru_cache(maxsize=1)
def _batch_fields() -> tuple:
    from .tasks import batch_schema

    return tuple((f.name, f.type) for f in batch_schema())


def _lab_schema(meta) -> bool:
    """Whether a stored batch's columns are the lab's batch schema (names, order, types). Why:
    a Parquet footer has no checksum, so one flipped bit can rename a column ("rotations" ->
    "sotations") in a file whose pages all pass theirs; such a batch was adopted, and the
    summary's read of the column ended ``run --resume`` in a traceback (the inputs audit of
    stop 74). Refused, it is played again as a damaged one is."""
    try:
        schema = meta.schema.to_arrow_schema()
    except (pa.ArrowException, ValueError):
        return False
    return tuple((f.name, f.type) for f in schema) == _batch_fields()


@dataclass
class Scan:
    """What a folder holds, batch by batch: this run's sound batches, damaged files, and files
    of other runs (with the digest they carry, ``None`` when they carry none)."""

    ours: dict[int, dict] = field(default_factory=dict)   # batch -> {"games", "seconds"}
    damaged: list[Path] = field(default_factory=list)
    foreign: dict[Path, str | None] = field(default_factory=dict)
    unreadable: dict[Path, str] = field(default_factory=dict)   # path -> why (never deleted)
    stray: dict[Path, str] = field(default_factory=dict)   # this run's, misnumbered: never deleted


@dataclass
class RunStore:
    out: Path
    identity: dict
    digest: str
    stored: dict[int, dict] = field(default_factory=dict)
    started: float = field(default_factory=time.time)
    summary: dict | None = None
    removed: list[str] = field(default_factory=list)   # damaged batches deleted on resume
    saved_at: float = float("-inf")                     # time.monotonic() of the last save
    lock_fd: int | None = None                          # the folder's lock (see _lock)
    legacy: str = ""    # this run's digest as an older bwlab computed it (legacy_identity)
    cards_root: Path | None = None                      # the card folder the run reads

    @classmethod
    def open(cls, out: Path, exp: Experiment, cards_root: Path, resume: bool) -> "RunStore":
        """The store of this run in ``out``, locked; InputError (nothing written but the empty
        folder) when the folder holds another run's results, this run's without ``--resume``,
        or another run is writing there. With ``--resume`` damaged batches and stale temporary
        files are deleted (the batches are played again)."""
        identity = run_identity(exp, cards_root)
        store = cls(Path(out), identity, identity_digest(identity),
                    legacy=identity_digest(legacy_identity(identity, exp)),
                    cards_root=Path(cards_root))
        store.out.mkdir(parents=True, exist_ok=True)  # validation is done: an empty folder
        store._lock()
        try:
            store._adopt(exp, resume)
        except BaseException:
            store.close()
            raise
        return store

    def _adopt(self, exp: Experiment, resume: bool) -> None:
        """Check the folder's batches against this run (see :meth:`open`); keep this run's."""
        scan = self.scan(full=resume)
        manifest = self._read_manifest()
        if scan.unreadable:  # whose it is cannot be told: neither adopted nor deleted
            raise InputError([Problem(str(self.out), None, "--out",
                                      f"{p.name} cannot be read ({why}); make it readable, "
                                      "or choose another --out")
                              for p, why in scan.unreadable.items()])
        if scan.stray:  # a copy of one of this run's batches: the user's file, not damage
            raise InputError([Problem(str(self.out), None, "--out",
                                      f"{p.name} does not belong to this run: it {why}; move "
                                      "it away (it is not deleted), or choose another --out")
                              for p, why in scan.stray.items()])
        if scan.foreign:
            raise InputError(self._foreign_problems(scan, manifest, exp))
        if (scan.ours or scan.damaged) and not resume:
            raise InputError([Problem(str(self.out), None, "--out",
                                      f"a run is already here ({len(scan.ours)} of "
                                      f"{exp.n_batches} batches stored); add --resume to finish "
                                      "it, or choose another --out")])
        folders = [p for p in scan.damaged if p.is_dir()]
        if folders:  # never deleted: not a file this lab wrote
            raise InputError([Problem(str(self.out), None, "--out",
                                      f"{p.name} is a folder where a batch file belongs; move it "
                                      "away, or choose another --out") for p in folders])
        for path in scan.damaged:
            path.unlink(missing_ok=True)
            self.removed.append(path.name)
        self._remove_temp_files()
        self.stored = scan.ours
        if manifest and manifest.get("run_digest") in (self.digest, self.legacy):
            self.started = manifest.get("started", self.started)
        if scan.ours:
            self._save()  # a lost, corrupt or stale manifest is rebuilt from the batches now

    def _lock(self) -> None:
        """Hold an exclusive lock on the folder while this run writes to it. Why: two runs
        started into one empty folder would both find no batches and then mix theirs. The
        kernel drops the lock when the process ends, however it ends."""
        try:
            import fcntl
        except ImportError:  # not POSIX: the digest checks still refuse a mixed folder later
            return
        fd = os.open(self.out, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise InputError([Problem(str(self.out), None, "--out", "another bwlab run is "
                                      "writing here; wait for it or choose another --out")])
        self.lock_fd = fd

    def close(self) -> None:
        """Release the folder (the end of the command that opened it)."""
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    def batch_path(self, b: int) -> Path:
        return self.out / f"batch-{b:06d}.parquet"

    def done(self) -> set[int]:
        """Batches stored and checked against this run (never merely files that exist)."""
        return set(self.stored)

    def scan(self, full: bool = False) -> Scan:
        """Check every batch file's footer (and with ``full`` its data pages' checksums)."""
        scan = Scan()
        for path in sorted(self.out.glob("batch-*.parquet")):
            verdict = self._check(path, full)
            kind = verdict[0] if isinstance(verdict, tuple) else None
            if kind == "unreadable":
                scan.unreadable[path] = verdict[1]
            elif kind == "stray":
                scan.stray[path] = verdict[1]
            elif verdict == "damaged":
                scan.damaged.append(path)
            elif isinstance(verdict, dict):
                scan.ours[verdict.pop("batch")] = verdict
            else:
                scan.foreign[path] = verdict[1]
        return scan

    def _check(self, path: Path, full: bool):
        """``"damaged"``, ``("unreadable", why)``, ``("stray", why)``, ``("foreign", digest)`` or
        ``{"batch", "games", "seconds"}``. Why "unreadable" apart: a file this process may not
        open (its permissions, a dangling link) could be another run's; deleting it as damaged
        could lose that run. Why "stray": a sound batch of this run under another number (a
        copy) is a user's file, not damage; it was deleted as "damaged" and played again."""
        if not path.is_dir():  # a folder is "damaged", named and never deleted by _adopt
            try:
                if not stat.S_ISREG(os.stat(path).st_mode):  # opening a pipe waits for ever
                    return ("unreadable", "not a regular file: a pipe, a device or a socket")
                with open(path, "rb"):
                    pass
            except OSError as exc:
                return ("unreadable", exc.strerror or str(exc))
        try:
            meta = pq.read_metadata(path)
            if full:
                pq.read_table(path, page_checksum_verification=True)
        except (OSError, pa.ArrowException, ValueError):
            return "damaged"  # truncated (no footer) or a page that fails its checksum
        kv = meta.metadata or {}
        digest = kv.get(DIGEST_KEY, b"").decode(errors="replace") or None
        if digest not in (self.digest, self.legacy):
            return ("foreign", digest)
        try:
            b = int(kv[BATCH_KEY])
            seconds = float(kv.get(SECONDS_KEY, b"0"))
        except (KeyError, ValueError):
            return "damaged"
        if not _lab_schema(meta):
            return "damaged"  # a flipped bit in the footer (no checksum there) renamed a column
        n_batches, size, games = (self.identity[k] for k in ("n_batches", "batch_size", "games"))
        if not 0 <= b < n_batches:
            return ("stray", f"holds {meta.num_rows} games as batch {b}, which this run of "
                             f"{n_batches} batches does not have")
        if meta.num_rows != min(games, (b + 1) * size) - b * size:
            return ("stray", f"holds {meta.num_rows} games as batch {b}, which in this run "
                             f"holds {min(games, (b + 1) * size) - b * size}")
        if path.name != self.batch_path(b).name:
            return ("stray", f"holds batch {b} of this run (whose file is "
                             f"{self.batch_path(b).name})")
        return {"batch": b, "games": meta.num_rows, "seconds": round(seconds, 4)}

    def _foreign_problems(self, scan: Scan, manifest: dict | None, exp: Experiment
                          ) -> list[Problem]:
        """One line for a folder of another run's batches; with its manifest, one line per
        input that changed, in the file where it changed (:mod:`.store_changes`), which is
        what a user resuming after an edit needs to know."""
        from .store_changes import changed_inputs

        digests = set(scan.foreign.values())
        told = manifest.get("run_digest") if manifest else None  # a list: a hostile manifest
        if isinstance(told, str) and told in digests:
            changed = changed_inputs(self.identity, manifest, exp, self.out, self.cards_root)
            if changed:
                return changed
        first = next(iter(scan.foreign))
        what = ("carry no run digest (written by another program or an older bwlab)"
                if None in digests else "belong to another experiment or other inputs")
        return [Problem(str(self.out), None, "--out", f"{len(scan.foreign)} batch files here "
                        f"({first.name}, ...) {what}; refusing to mix results: choose another "
                        "--out")]

    def _read_manifest(self) -> dict | None:
        path = self.out / MANIFEST
        try:
            regular = stat.S_ISREG(os.stat(path).st_mode)
        except OSError:
            regular = True  # missing (or a dangling link): read_text below says so
        if not regular:  # reading a pipe waits for ever; it is not this lab's manifest
            what = "a folder" if os.path.isdir(path) else "a pipe, a device or a socket"
            raise InputError([Problem(str(self.out), None, "--out", f"{MANIFEST} is not a "
                                      f"regular file ({what}); move it away, or choose "
                                      "another --out")])
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # RecursionError: nested thousands deep
            return None  # missing or corrupt: derived data, rebuilt from the batches
        return data if isinstance(data, dict) else None

    def _remove_temp_files(self) -> None:
        for pattern in _TEMP_GLOBS:
            for path in self.out.glob(pattern):
                path.unlink(missing_ok=True)

    def write_batch(self, b: int, columns: dict, seconds: float):
        """Store batch ``b`` atomically, stamped with this run's digest, then the manifest; the
        Arrow table stored (the run's summary counts it: summary.RunTotals)."""
        table = pa.table(columns)
        table = table.replace_schema_metadata({
            **(table.schema.metadata or {}), DIGEST_KEY: self.digest.encode(),
            BATCH_KEY: str(b).encode(), SECONDS_KEY: repr(float(seconds)).encode()})
        with atomic_path(self.batch_path(b)) as tmp:
            pq.write_table(table, tmp, write_page_checksum=True)
        self.stored[b] = {"games": table.num_rows, "seconds": round(seconds, 4)}
        if time.monotonic() - self.saved_at >= MANIFEST_EVERY:
            self._save()
        return table

    def write_cards(self, totals, columns, names=None) -> None:
        """``cards.csv``: the streaming per-card totals of the stored games, through a CSV writer
        (a card name holding a comma or a quote stays one field)."""
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["card_id"] + (["card"] if names is not None else []) + list(columns))
        for i, row in enumerate(totals):
            if row[0] == 0:
                continue
            name = [names[i]] if names is not None else []
            writer.writerow([i] + name + [int(v) for v in row])
        write_text(self.out / "cards.csv", buffer.getvalue())

    def checkpoint(self) -> None:
        """The manifest written now, listing every batch stored. Why: it is written at most
        every ``MANIFEST_EVERY`` seconds while the games run, and an interrupted run said "9 of
        100 batches stored" beside a manifest listing 1 (stop 78's audit); the interrupt now
        writes it before that line."""
        self._save()

    def finish(self, summary: dict) -> None:
        self.summary = summary
        self._save()

    @property
    def manifest(self) -> dict:
        """The manifest: the run's identity plus what the stored batches say (derived)."""
        data = {**self.identity, "run_digest": self.digest, "started": self.started,
                "batches": {str(b): self.stored[b] for b in sorted(self.stored)}}
        if self.summary is not None:
            data.update(finished=time.time(), summary=self.summary)
        return data

    def _save(self) -> None:
        write_text(self.out / MANIFEST, json.dumps(self.manifest, indent=2, sort_keys=True))
        self.saved_at = time.monotonic()

    def batches(self, skip=frozenset()):
        """Stored batches one at a time, in order (streaming: memory does not grow with games),
        but those in ``skip``. A batch damaged after it was checked is an InputError naming it,
        not a traceback."""
        for b in sorted(set(self.stored) - set(skip)):
            path = self.batch_path(b)
            try:
                table = pq.read_table(path, page_checksum_verification=True)
            except (OSError, pa.ArrowException, ValueError) as exc:
                why = str(exc).splitlines()[0]
                raise InputError([Problem(str(path), None, "batch", f"unreadable ({why}); run "
                                          "again with --resume to play it again")]) from None
            yield b, table
