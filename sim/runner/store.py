"""Where a run's results live: one Parquet file per batch, a manifest, atomic writes, resume.

Why per batch: an interrupted run (Ctrl-C, kill) keeps every batch it finished — each file is
written to a temporary name and renamed, so a file that exists is complete — and ``--resume``
plays exactly the missing batches. The manifest pins what the results depend on (package version,
hashes of every card file and of the experiment, root seed) so a resume with changed inputs is
refused instead of mixing two rule sets.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim import __version__
from sim.catalogue.diagnostics import InputError, Problem
from sim.atomic import atomic_path, write_text

from .experiment import Experiment

MANIFEST = "manifest.json"


def cards_digest(root: Path) -> dict[str, str]:
    """sha256 of every designer file under the card folder (what the rules and cards were)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(root).iterdir()) if p.is_file() and p.suffix in (".csv", ".toml")}


@dataclass
class RunStore:
    out: Path
    manifest: dict

    @classmethod
    def open(cls, out: Path, exp: Experiment, cards_root: Path, resume: bool) -> "RunStore":
        """Start a run in ``out``, or with ``resume`` continue the one there; InputError if they clash."""
        out = Path(out)
        wanted = {"package_version": __version__, "experiment": exp.name,
                  "experiment_file": exp.path, "experiment_sha256": exp.digest,
                  "cards": cards_digest(cards_root), "root_seed": exp.root_seed,
                  "games": exp.games, "batch_size": exp.batch_size, "n_batches": exp.n_batches,
                  "policies": list(exp.policies)}
        path = out / MANIFEST
        if path.exists():
            if not resume:
                raise InputError([Problem(str(path), None, "--out", "a run is already here; "
                                          "add --resume to finish it, or choose another --out")])
            old = json.loads(path.read_text(encoding="utf-8"))
            # a manifest from before policies were recorded played the file's policies
            changed = [k for k, v in wanted.items()
                       if old.get(k, v if k == "policies" else None) != v]
            if changed:
                raise InputError([Problem(str(path), None, k, "differs from the run being resumed "
                                          "(inputs changed since it started)") for k in changed])
            manifest = old
        else:
            manifest = {**wanted, "started": time.time(), "batches": {}}
        store = cls(out, manifest)
        store._save()
        return store

    def batch_path(self, b: int) -> Path:
        return self.out / f"batch-{b:06d}.parquet"

    def done(self) -> set[int]:
        """Batches already stored (a file that exists is complete: it was renamed into place)."""
        return {b for b in range(self.manifest["n_batches"]) if self.batch_path(b).exists()}

    def write_batch(self, b: int, columns: dict, seconds: float) -> None:
        table = pa.table(columns)
        with atomic_path(self.batch_path(b)) as tmp:
            pq.write_table(table, tmp)
        self.manifest["batches"][str(b)] = {"games": table.num_rows, "seconds": round(seconds, 4)}
        self._save()

    def write_cards(self, totals, columns, names=None) -> None:
        """``cards.csv``: the streaming per-card totals of the stored games."""
        header = ["card_id"] + (["card"] if names is not None else []) + list(columns)
        lines = [",".join(header)]
        for i, row in enumerate(totals):
            if row[0] == 0:
                continue
            name = [f'"{names[i]}"'] if names is not None else []
            lines.append(",".join([str(i)] + name + [str(int(v)) for v in row]))
        write_text(self.out / "cards.csv", "\n".join(lines) + "\n")

    def finish(self, summary: dict) -> None:
        self.manifest["finished"] = time.time()
        self.manifest["summary"] = summary
        self._save()

    def _save(self) -> None:
        write_text(self.out / MANIFEST, json.dumps(self.manifest, indent=2, sort_keys=True))

    def batches(self):
        """Stored batches one at a time, in order (streaming: memory does not grow with games)."""
        for b in sorted(self.done()):
            yield b, pq.read_table(self.batch_path(b))
