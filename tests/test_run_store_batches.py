"""Results can never be mixed or lost (issue #22 item 2): batches carry their run's digest and
are checked before they count, the manifest is derived, damaged batches are replayed, stale temp
files go, another run's folder is refused, a pipe, a folder or an unreadable file where a batch
or the manifest belongs is refused, two runs never write into one folder at once, and a run
that fails validation writes nothing (cards.csv goes through a CSV writer).

Every run here is the 16-game, 2-board experiment of tests/test_runner.py played with --jobs 1
(in-process: no worker start-up) unless a case needs workers, so the whole module costs a few
seconds of CPU.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests._run_store_kit import ROOT, _errors, _run
from tests.test_runner import SMALL


def _tables(out: Path):
    return {p.name: pq.read_table(p) for p in sorted(out.glob("batch-*.parquet"))}


@pytest.fixture
def stored(capsys, exp_dir):
    """A finished run of tiny.toml: (experiment folder, output folder, its tables)."""
    out = exp_dir / "out"
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out)
    assert code == 0, err
    return exp_dir, out, _tables(out)


def test_the_summary_names_the_teams_and_words_the_endings_as_the_balance_lines(capsys,
                                                                                exp_dir):
    """run's summary read "team 1: win rate 0.297" where fairness and play name the team, and
    "outcomes: ... simultaneous elimination 2" above "how games are decided: ... same-step
    elimination decided by health 3.1 %": two words for one ending (the audit of 2026-12-05)."""
    from sim.analysis.balance import KIND_WORDS
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import load_teams

    names = load_teams(exp_dir / "teams" / "example.toml", load_catalogue(ROOT / "cards").cards)
    code, out, err = _run(capsys, exp_dir / "tiny.toml", exp_dir / "out")
    assert code == 0, err
    for k, name in enumerate(names.names):
        assert f"  team {k + 1} {name}: win rate " in out, out
    endings = next(ln for ln in out.splitlines() if ln.startswith("  outcomes"))
    raw = [k for k in KIND_WORDS if k != KIND_WORDS[k]]
    assert not any(f"{k} " in endings.replace(KIND_WORDS[k], "") for k in raw), endings


def test_every_batch_carries_the_run_digest(stored):
    """Item 2: "Every batch file carries its experiment's digest (in the Parquet metadata)";
    the manifest names the same digest and lists every batch."""
    _, out, tables = stored
    manifest = json.loads((out / "manifest.json").read_text())
    for name in tables:
        meta = pq.read_metadata(out / name).metadata
        assert meta[b"bwlab.run_digest"].decode() == manifest["run_digest"]
        assert f"batch-{int(meta[b'bwlab.batch']):06d}.parquet" == name
    assert sorted(manifest["batches"]) == ["0", "1", "2", "3"]


@pytest.mark.parametrize("resume, manifest", [(False, None), (True, None),
                                              (True, '{"run_digest": ["a", "list"]}')])
def test_a_folder_of_another_experiments_batches_is_refused(capsys, stored, resume, manifest):
    """Item 2, the mixed-folder case: with manifest.json removed from a folder holding another
    experiment's batches, `bwlab run` (with or without --resume) refuses with exit 2 and one
    line, and adopts nothing: the batches there are left byte for byte. So with a hostile
    manifest whose run digest is a list (a TypeError's traceback, unhashable)."""
    exp_dir, out, _ = stored
    (out / "manifest.json").unlink()
    if manifest is not None:
        (out / "manifest.json").write_text(manifest, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = _run(capsys, exp_dir / "other.toml", out, *(["--resume"] if resume else []))
    assert code == 2
    lines = _errors(err)
    assert len(lines) == 1 and lines[0].startswith(f"error: {out}: --out: 4 batch files"), err
    assert "refusing to mix" in lines[0]
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_changed_inputs_are_named_when_the_manifest_explains_them(capsys, stored):
    """Item 2: a resume after the experiment was edited names each changed input (exit 2)."""
    exp_dir, out, _ = stored
    exp = exp_dir / "tiny.toml"
    exp.write_text(SMALL.replace("root_seed = 5", "root_seed = 6"), encoding="utf-8")
    code, _, err = _run(capsys, exp, out, "--resume")
    assert code == 2 and _errors(err) == [f"error: {exp}:3: root_seed: 6, but the run stored in "
                                          f"{out} started with 5: restore it, or choose another "
                                          "--out"], err


def test_truncated_batch_is_replayed_and_corrupt_manifest_rebuilt(capsys, stored):
    """Item 2: "truncated batches are detected and replayed", "the manifest is derived, rebuilt
    from the batches when missing or corrupt", "stale temp files are removed on resume": a
    half batch file, a garbage manifest and a SIGTERM's temp file; --resume replays exactly the
    damaged batch (the same rows) and no traceback is printed."""
    exp_dir, out, tables = stored
    damaged = out / "batch-000001.parquet"
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    (out / "manifest.json").write_text("{not json", encoding="utf-8")
    stale = out / ".batch-000002.parquet.abc123.tmp"
    stale.write_bytes(b"half")
    code, out_text, err = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    assert code == 0, err
    assert "3 already stored, 1 played now" in out_text
    assert "batch-000001.parquet was damaged" in err
    assert not stale.exists()
    again = _tables(out)
    assert again.keys() == tables.keys() and all(again[k].equals(tables[k]) for k in tables)
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(manifest["batches"]) == ["0", "1", "2", "3"]
    assert manifest["summary"]["games"] == 16


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_card_table_that_cannot_be_replaced_is_refused_before_any_game(capsys, exp_dir, kind):
    """cards.csv is written after the last game: a folder or a pipe of that name in --out was
    refused only then, every game played, in a line naming no flag. Now before any game."""
    out = exp_dir / "out"
    out.mkdir()
    table = out / "cards.csv"
    if kind == "folder":
        table.mkdir()
    else:
        os.mkfifo(table)
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out)
    assert code == 2 and _errors(err) == [f"error: {table}: --out: not a regular file; "
                                          "refusing to replace it"], err
    assert [p.name for p in out.iterdir()] == ["cards.csv"]


def test_a_manifest_nested_thousands_deep_is_corrupt_and_rebuilt(capsys, stored):
    """Hostile input: a manifest.json of JSON nested 100 000 deep made --resume (and a run into
    the folder) print a RecursionError's traceback; it is a corrupt manifest like any other."""
    exp_dir, out, _ = stored
    (out / "manifest.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, out_text, err = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    assert code == 0 and "4 already stored, 0 played now" in out_text, err
    assert json.loads((out / "manifest.json").read_text())["summary"]["games"] == 16


@pytest.mark.parametrize("name", ["batch-000003.parquet", "batch-000099.parquet",
                                  "manifest.json"])
def test_a_pipe_in_the_run_folder_is_refused_without_waiting_for_a_writer(capsys, stored, name):
    """Opening a FIFO waits for a writer: a pipe where a batch or the manifest belongs hung
    `bwlab run --resume` for ever. It is refused at once, one line naming it, left in place."""
    import os

    exp_dir, out, _ = stored
    (out / name).unlink(missing_ok=True)
    os.mkfifo(out / name)
    before = sorted(p.name for p in out.iterdir())
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    lines = _errors(err)
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"error: {out}: --out: {name}")
    assert "not a regular file" in lines[0], err
    assert sorted(p.name for p in out.iterdir()) == before


def test_a_folder_where_the_manifest_belongs_is_named_a_folder(capsys, stored):
    """A folder named manifest.json is refused as the pipe above is, and called a folder (it
    was described as "a pipe, a device or a socket")."""
    exp_dir, out, _ = stored
    (out / "manifest.json").unlink(missing_ok=True)
    (out / "manifest.json").mkdir()
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    lines = _errors(err)
    assert code == 2 and len(lines) == 1, err
    assert lines[0].endswith("manifest.json is not a regular file (a folder); move it away, or "
                             "choose another --out"), lines[0]
    assert (out / "manifest.json").is_dir()


@pytest.mark.parametrize("how", ["dangling link", "no read permission"])
def test_an_unreadable_batch_is_refused_not_deleted_as_damaged(capsys, stored, how):
    """A batch file this process may not open was "damaged": deleted and played again. Whose it
    is cannot be told without reading it (it could be another run's), so --resume now refuses,
    one line naming the file, and leaves the folder as it was."""
    import os

    exp_dir, out, _ = stored
    batch = out / "batch-000001.parquet"
    if how == "dangling link":
        batch.unlink()
        batch.symlink_to(out / "gone.parquet")
    else:
        if os.geteuid() == 0:
            pytest.skip("root reads through permission bits")
        batch.chmod(0)
    before = sorted(p.name for p in out.iterdir())
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    why = "No such file or directory" if how == "dangling link" else "Permission denied"
    assert code == 2 and _errors(err) == [
        f"error: {out}: --out: batch-000001.parquet cannot be read ({why}); make it readable, "
        "or choose another --out"], err
    assert sorted(p.name for p in out.iterdir()) == before
    assert batch.is_symlink() if how == "dangling link" else batch.exists()


def test_a_run_already_here_needs_resume(capsys, stored):
    """Item 2: this run's own batches without --resume are refused (nothing replayed twice)."""
    exp_dir, out, _ = stored
    (out / "manifest.json").unlink()
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out)
    assert code == 2 and "a run is already here (4 of 4 batches stored)" in err


def test_late_validation_writes_nothing_and_a_lone_manifest_locks_nothing(capsys, exp_dir,
                                                                          tmp_path):
    """Item 2: "validation completes before anything is written": a broken apocalypses.toml
    (read by the workers only, before) fails before the output folder exists; and a manifest
    left behind with no batch (as by an older version) does not lock the folder."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    (cards / "apocalypses.toml").write_text("[[apocalypse\n", encoding="utf-8")
    out = exp_dir / "out"
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out, "--cards", cards)
    assert code == 2 and "apocalypses.toml" in err and "Traceback" not in err
    assert not out.exists()
    out.mkdir()
    (out / "manifest.json").write_text('{"experiment": "someone else"}', encoding="utf-8")
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out)
    assert code == 0, err
    assert json.loads((out / "manifest.json").read_text())["experiment"] == "tiny"


def test_cards_csv_goes_through_a_csv_writer(tmp_path):
    """Item 4: "CSV output goes through a CSV writer": a card name holding `"` and `,` comes
    back from pandas as one field, the columns unshifted."""
    import numpy as np
    import pandas as pd

    from sim.runner.store import RunStore

    store = RunStore(tmp_path, {}, "0")
    names = ['Bob "the, Builder"', "Plain"]
    store.write_cards(np.array([[3, 1, 5, 6, 0, 2], [4, 2, 7, 1, 1, 3]]),
                      ("games", "wins", "dealt", "taken", "kills", "alive"), names)
    table = pd.read_csv(tmp_path / "cards.csv")
    assert table["card"].tolist() == names and table["alive"].tolist() == [2, 3]


def test_two_runs_cannot_write_into_one_folder_at_once(exp_dir, catalogue):
    """Item 2, "results can never be mixed": while one run holds its folder, a second (here
    another experiment, which would find the folder still empty) is refused with one line."""
    from sim.catalogue.diagnostics import InputError
    from sim.runner.experiment import load_experiment
    from sim.runner.store import RunStore

    out = exp_dir / "out"
    tiny, other = (load_experiment(exp_dir / f"{n}.toml", catalogue.cards, ("greedy",))
                   for n in ("tiny", "other"))
    first = RunStore.open(out, tiny, ROOT / "cards", resume=False)
    try:
        with pytest.raises(InputError, match="another bwlab run is writing here"):
            RunStore.open(out, other, ROOT / "cards", resume=False)
    finally:
        first.close()
    RunStore.open(out, other, ROOT / "cards", resume=False).close()  # free once released
