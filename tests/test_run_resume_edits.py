"""Resuming a run after its inputs were edited (stop 55 audit item 5): the refusal names the
file and line where the change is (the experiment's games line, a card file, the --games flag),
not the run folder's manifest; a comment-only edit plays the same games and is resumed; a run
stored by an older bwlab (its digest over the experiment file's bytes) still resumes unchanged
and, edited, gets one clear line.

Every run is the 16-game experiment of tests/test_runner.py with --jobs 1 (a few seconds).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests._cli_kit import run
from tests.test_runner import SMALL

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def stored(capsys, tmp_path, monkeypatch):
    """A run of big.toml (a comment on line 2) whose last two batches were lost, as if
    interrupted: (experiment, output folder)."""
    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    monkeypatch.setenv("BWLAB_CARDS", str(tmp_path / "cards"))
    exp = tmp_path / "big.toml"
    exp.write_text(SMALL.replace('name = "tiny"\n', 'name = "big"\n# first try\n'),
                   encoding="utf-8")
    out = tmp_path / "runA"
    code, _, err = _run(capsys, exp, out)
    assert code == 0, err
    for b in (2, 3):
        (out / f"batch-{b:06d}.parquet").unlink()
    return exp, out


def _run(capsys, exp: Path, out: Path, *extra):
    return run(capsys, "run", exp, "--jobs", "1", "--out", out, "--no-progress", *extra)


def _edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_a_comment_edited_mid_run_changes_no_game_and_the_run_resumes(capsys, stored):
    """It was refused: "manifest.json: experiment_sha256: differs from the run stored here"."""
    exp, out = stored
    _edit(exp, "# first try", "# second try, same games")
    code, text, err = _run(capsys, exp, out, "--resume")
    assert code == 0 and "2 already stored, 2 played now" in text, err


@pytest.mark.parametrize("edit, extra, line", [
    (("games = 16", "games = 32"), (), "{exp}:3: games: 32, but the run stored in {out} started "
                                       "with 16: restore it, or choose another --out"),
    (None, ("--games", "8"), "--games: games: 8, but the run stored in {out} started with 16: "
                             "give --games 16, or choose another --out"),
    (("boards = 2", "boards = 3"), (), "{exp}:6: boards: 3, but the run stored in {out} started "
                                       "with 2: restore it, or choose another --out"),
    (("cards", "rules.toml"), (), "{cards}/rules.toml: file: edited since the run stored in "
                                  "{out} started: restore it, or choose another --out"),
])
def test_an_edit_is_named_where_it_was_made(capsys, stored, edit, extra, line):
    """Changing games gave three lines all against runA/manifest.json (experiment_sha256,
    games, n_batches). Now one line at the experiment's line, the flag or the card file."""
    exp, out = stored
    cards = exp.parent / "cards"
    if edit is not None and edit[0] == "cards":  # a card file counts by its bytes
        (cards / edit[1]).write_text((cards / edit[1]).read_text(encoding="utf-8") + "# x\n",
                                     encoding="utf-8")
    elif edit is not None:
        _edit(exp, *edit)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = _run(capsys, exp, out, "--resume", *extra)
    assert code == 2 and err.splitlines() == [
        "error: " + line.format(exp=exp, out=out, cards=cards)], err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def _as_older_bwlab(exp: Path, out: Path) -> None:
    """Restamp the stored run as bwlab did before: identity and digest over the file's bytes."""
    from sim.runner.store import CONTENT_KEY, DIGEST_KEY, LEGACY_KEY, identity_digest

    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    identity = {k: manifest[k] for k in manifest
                if k not in ("run_digest", "started", "batches", "finished", "summary")}
    del identity[CONTENT_KEY]
    import hashlib
    identity[LEGACY_KEY] = hashlib.sha256(exp.read_bytes()).hexdigest()
    digest = identity_digest(identity)
    for path in out.glob("batch-*.parquet"):
        table = pq.read_table(path)
        meta = {**table.schema.metadata, DIGEST_KEY: digest.encode()}
        pq.write_table(table.replace_schema_metadata(meta), path, write_page_checksum=True)
    (out / "manifest.json").write_text(json.dumps({**identity, "run_digest": digest,
                                                   "batches": manifest["batches"]}),
                                       encoding="utf-8")


def test_a_run_stored_by_an_older_bwlab_resumes_and_an_edit_is_one_clear_line(capsys, stored):
    """Keep old manifests working: the old digest still names this run while the file is
    unchanged; after a comment edit (which the old digest counted) one line says why."""
    exp, out = stored
    _as_older_bwlab(exp, out)
    shutil.copytree(out, out.with_name("runB"))
    code, text, err = _run(capsys, exp, out, "--resume")
    assert code == 0 and "2 already stored, 2 played now" in text, err
    _edit(exp, "# first try", "# second try")
    code, _, err = _run(capsys, exp, out.with_name("runB"), "--resume")
    assert code == 2 and err.splitlines() == [
        f"error: {exp}: file: edited since the run stored in {out.with_name('runB')} started (an "
        "older bwlab stored it, counting every byte of the file, comments too): restore it, or "
        "choose another --out"], err
