"""What changed since a run folder's run started, named where it changed: one line per input.

Why: resuming ``bwlab run big.toml --out runA`` after an edit was refused with lines all against
``runA/manifest.json`` ("experiment_sha256: differs", "games: differs", "n_batches: differs"),
though the fix belongs in ``big.toml`` at its games line (or in a card file, or a flag). The
manifest records the run's identity (:func:`sim.runner.store.run_identity`); each value that
differs from this run's is named at the experiment's line that sets it (or the flag), a card
file by its path, the package by its version, with the value then and now.
"""

from __future__ import annotations

from pathlib import Path

from sim.catalogue.diagnostics import Problem, Problems
from sim.catalogue.tomldoc import TomlDoc

# identity key -> the experiment's key that sets it (n_batches follows games and batch_size)
FIELDS = {"experiment": "name", "root_seed": "root_seed", "games": "games",
          "batch_size": "batch_size", "boards": "boards", "policies": "policies",
          "seating": "seating", "teams": "teams", "pool": "pool"}
WORDS = {"teams": ("other teams", "the team file's cards as they were"),
         "pool": ("another pool", "the pool as it was")}


def changed_inputs(identity: dict, manifest: dict, exp, out: Path, cards_root: Path | None
                   ) -> list[Problem]:
    """One problem per input whose value differs between ``manifest`` (the run stored in
    ``out``) and ``identity`` (this run); [] when the manifest does not tell."""
    from .store import CONTENT_KEY, LEGACY_KEY

    doc = TomlDoc.load(Path(exp.path), Problems())
    since = f"the run stored in {out} started"
    fix = "restore it, or choose another --out"
    problems = [_field(doc, exp, key, manifest[key], identity[key], since, fix)
                for key in FIELDS if key in manifest and manifest[key] != identity[key]]
    old, new = manifest.get("cards"), identity["cards"]
    if isinstance(old, dict):
        problems += [Problem(str(Path(cards_root or ".") / name), None, "file",
                             f"{_how(name, old, new)} since {since}: {fix}")
                     for name in sorted(set(old) | set(new)) if old.get(name) != new.get(name)]
    version = manifest.get("package_version", identity["package_version"])
    if version != identity["package_version"]:
        problems.append(Problem(str(out), None, "--out", f"stored by bwlab {version}, this is "
                                f"{identity['package_version']}: finish it with that version, "
                                "or choose another --out"))
    if problems:
        return problems
    if LEGACY_KEY in manifest and CONTENT_KEY not in manifest:  # the bytes, comments too
        return [Problem(exp.path, None, "file", f"edited since {since} (an older bwlab stored "
                        f"it, counting every byte of the file, comments too): {fix}")]
    if manifest.get(CONTENT_KEY, identity[CONTENT_KEY]) != identity[CONTENT_KEY]:
        return [Problem(exp.path, None, "file", f"a value changed since {since} (its "
                        f"description?): {fix}")]
    return []


def _how(name: str, old: dict, new: dict) -> str:
    return "added" if name not in old else "removed" if name not in new else "edited"


def _short(value) -> str:
    text = str(value) if isinstance(value, list) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _field(doc: TomlDoc | None, exp, key: str, then, now, since: str, fix: str) -> Problem:
    """The experiment's line that sets ``key``; ``--games`` when this run's games are not the
    file's (the flag set them). Policies may come from --policy/--budget too: said."""
    name = FIELDS[key]
    if key == "games" and doc is not None and doc.lookup(("games",)) != now:
        return Problem("--games", None, "games", f"{now}, but {since} with {then}: give "
                                                 f"--games {then}, or choose another --out")
    line = doc.line((name,)) if doc is not None else None
    value, was = WORDS.get(key, (_short(now), _short(then)))
    extra = " (this file's, or --policy/--budget's)" if key == "policies" else ""
    return Problem(exp.path, line, name, f"{value}{extra}, but {since} with {was}: {fix}")
