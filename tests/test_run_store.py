"""Results can never be mixed or lost (issue #22 item 2): batches carry their run's digest and
are checked before they count, the manifest is derived, damaged batches are replayed, stale temp
files go, another run's folder is refused, and a run that fails validation writes nothing.

Every run here is the 16-game, 2-board experiment of tests/test_runner.py played with --jobs 1
(in-process: no worker start-up), so the whole module costs a few seconds of CPU.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests._cli_kit import run, stopping_once
from tests.test_runner import SMALL

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def exp_dir(tmp_path) -> Path:
    folder = tmp_path / "experiments"
    shutil.copytree(ROOT / "experiments" / "teams", folder / "teams")
    (folder / "tiny.toml").write_text(SMALL, encoding="utf-8")
    (folder / "other.toml").write_text(SMALL.replace('name = "tiny"', 'name = "other"')
                                       .replace("root_seed = 5", "root_seed = 6"), encoding="utf-8")
    return folder


def _run(capsys, exp: Path, out: Path, *extra):
    return run(capsys, "run", exp, "--jobs", "1", "--out", out, "--no-progress", *extra)


def _errors(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.strip()]


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


def test_a_worker_exits_when_the_run_that_started_it_is_killed(tmp_path):
    """Item 2: "workers stop when the main process dies" — the lifeline alone, without the
    engine: a stand-in run starts a stand-in worker that watches it, the run is SIGKILLed, and
    the worker is gone within two seconds (it would sleep a minute otherwise)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.test_runner import _alive

    worker = ("import os, sys, time; from sim.runner.lifeline import watch_parent; "
              "watch_parent(os.getppid(), every=0.05); print(os.getpid(), flush=True); "
              "time.sleep(60)")
    parent = ("import subprocess, sys, time; "
              f"subprocess.Popen([sys.executable, '-c', {worker!r}]); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", parent], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    with proc.stdout:
        child = int(proc.stdout.readline())
    assert _alive(child)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 2
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(child)


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


_DEAF_PROBE = """
import json, os
from joblib import Parallel, delayed
from sim.runner.lifeline import DeafLoky

def blocked():
    line = next(x for x in open("/proc/self/status") if x.startswith("SigBlk:"))
    return bool(int(line.split()[1], 16) & 2)  # SIGINT: signal 2, bit 1

seen = Parallel(n_jobs=2, backend=DeafLoky())(delayed(blocked)() for _ in range(4))
print(json.dumps({"workers": sorted(set(seen)), "caller": blocked()}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_workers_of_the_deaf_backend_start_with_ctrl_c_blocked_and_the_run_keeps_it():
    """A ``DeafLoky`` worker never receives SIGINT (the run alone answers Ctrl-C), while the
    process that submitted still does, after submitting as before. In a process of its own:
    loky's executor is reused within a process, and workers whose memory was first measured
    after a trivial task are restarted by loky's leak guard when a later run loads the engine
    into them (a CI run of the suite hung once in that restart)."""
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _DEAF_PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"workers": [True], "caller": False}


_SHUT_PROBE = """
from joblib import Parallel, delayed
from sim.runner.lifeline import DeafLoky

backend = DeafLoky()
with Parallel(n_jobs=2, backend=backend) as run:
    run(delayed(abs)(-1) for _ in range(2))
    backend._workers.shutdown(wait=True)  # as an interrupted run's pool is
    late = backend.submit(delayed(abs)(-2))
    print(type(late).__name__, late.cancelled())
"""


def test_a_batch_asked_for_after_an_interrupt_is_no_traceback():
    """Ctrl-C during `run --jobs 2` printed, 1 time in 3, "exception calling callback for
    <Future>" and a ShutdownExecutorError traceback under "interrupted": a batch finishing as
    the pool shut down asked for the next one from loky's callback thread. The deaf backend
    hands back a cancelled future instead (no exception to log). In a process of its own, as
    the test above."""
    import os
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _SHUT_PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Future", "True"] and "Traceback" not in out.stderr


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_ctrl_c_while_the_workers_start_prints_one_line_and_no_traceback(exp_dir):
    """The terminal's Ctrl-C reaches the run's whole process group. Sent the moment the run's
    workers have started Python (they are still importing joblib), it used to print one
    KeyboardInterrupt traceback per worker above the run's line; now the run alone answers:
    exit 130, one line."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.test_runner import _workers

    (exp_dir / "tiny.toml").write_text(SMALL.replace("games = 16", "games = 64"),
                                       encoding="utf-8")
    argv = [sys.executable, "-m", "sim.cli.main", "run", str(exp_dir / "tiny.toml"),
            "--out", str(exp_dir / "out"), "--jobs", "2", "-q"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if len(_workers(proc.pid)) == 2:
            break
        time.sleep(0.005)
    time.sleep(0.1)  # past Python's own start (where SIGINT ends a process silently)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert [x for x in err.splitlines() if x.strip()] == [
        f"interrupted: 0 of 16 batches stored in {exp_dir / 'out'}; "
        "run again with --resume to finish"]


@pytest.mark.parametrize("signum, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_run_stopped_by_sigterm_exits_with_sigterm_s_status(capsys, exp_dir, tmp_path,
                                                              monkeypatch, signum, status):
    """SIGTERM (how CI cancels a job) ends a run as Ctrl-C does, batches kept and one line, but
    with its own status, 143, as the journaled commands (sim/cli/main.py): a run said 130, as
    if a user had pressed Ctrl-C (the stop 55 drift audit). The signal arrives while the games
    are played (the player stands in: it signals this process)."""
    import signal

    import sim.runner.parallel as parallel

    def signalled(*args, **kwargs):
        signal.raise_signal(getattr(signal, signum))
        for _ in range(500):  # the handler runs at the interpreter's next check: wait for it
            time.sleep(0.01)
        raise AssertionError("the signal did not stop the run")

    monkeypatch.setattr(parallel, "run_experiment", signalled)
    before = signal.getsignal(signal.SIGTERM)
    # as at a terminal: Ctrl-C unblocked and Python's own handler on it (a test worker may have
    # inherited SIGINT blocked or ignored from whatever started it, or from an earlier test)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code, _, err = _run(capsys, exp_dir / "tiny.toml", tmp_path / "out")
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    assert code == status, err
    assert _errors(err)[-1].startswith("interrupted: 0 of "), err
    assert signal.getsignal(signal.SIGTERM) is before   # the run's handler is gone


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_real_sigterm_ends_a_run_in_its_own_process_with_143_and_the_resume_line(exp_dir):
    """The test above, with a real SIGTERM sent to a run in a process of its own (as CI's
    cancel and ``kill`` send it), once the run has stored a batch: exit 143, not 130 nor the
    -15 of a process killed unhandled, one line naming the stored batches and --resume, no
    traceback, the batches on disk. One job: the games are played in the run's process."""
    import re

    from tests._cli_kit import sigterm_midway

    (exp_dir / "long.toml").write_text(SMALL.replace("games = 16", "games = 4096"),
                                       encoding="utf-8")
    out = exp_dir / "out"
    code, _, err = sigterm_midway(
        ("run", exp_dir / "long.toml", "--out", out, "--jobs", "1", "-q"),
        ready=lambda: any(out.glob("batch-*.parquet")))
    assert code == 143, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = _errors(err)
    assert len(lines) == 1, err
    said = re.fullmatch(rf"interrupted: (\d+) of 1024 batches stored in {re.escape(str(out))}; "
                        "run again with --resume to finish", lines[0])
    assert said is not None, err
    assert 1 <= int(said[1]) <= len(list(out.glob("batch-*.parquet"))), err


# A stop (SIGTERM as ``Terminated``, or Ctrl-C) is raised between any two bytecodes of the main
# thread, which writes each batch as it arrives (sim/runner/parallel.py). The batch file gets its
# name in ``atomic_path`` (``os.replace``) and is entered in ``store.stored`` (what "interrupted:
# K of B batches stored" counts) only after that: a stop landing between the two left it on disk
# but uncounted, and one landing before the rename discarded a batch that had arrived and passed
# its checks. The run now stores such a batch (again) before it stops.


def _stop_in_first_batch_write(m, lands: str) -> list:
    """Raise ``Terminated`` in the first batch's rename: before it, or just after it."""
    import sim.atomic as atomic

    return stopping_once(m, atomic.os, "replace", after=lands == "after the rename",
                         when=lambda src, dst, *a, **k: Path(dst).name.startswith("batch-"))


@pytest.mark.parametrize("lands", ["before the rename", "after the rename"])
def test_the_interrupted_line_counts_the_batches_on_disk(capsys, monkeypatch, exp_dir, lands):
    out = exp_dir / "out"
    with monkeypatch.context() as m:
        stops = _stop_in_first_batch_write(m, lands)
        code, _, err = run(capsys, "run", exp_dir / "tiny.toml", "--jobs", "1", "--out", out,
                           "--no-progress")
    assert stops and code == 143, err
    on_disk = sorted(p.name for p in out.glob("batch-*.parquet"))
    said = re.search(r"interrupted: (\d+) of 4 batches stored", err)
    assert said is not None, err
    # before the fix, "after the rename" said 0 while batch-000000.parquet was on disk
    assert int(said[1]) == len(on_disk), (err, on_disk)
    again, text, err = run(capsys, "run", exp_dir / "tiny.toml", "--jobs", "1", "--out", out,
                           "--no-progress", "--resume")
    assert again == 0, err
    assert f"({len(on_disk)} already stored, {4 - len(on_disk)} played now)" in text, text


def test_a_batch_that_arrived_is_stored_when_the_stop_lands_inside_its_write(capsys, monkeypatch,
                                                                              exp_dir):
    """Before the fix this was not a wrong count (the batch was neither on disk nor counted),
    but finished work lost although it had reached the run, as the journal's flush lost rows
    before 6a6b4aa."""
    out = exp_dir / "out"
    with monkeypatch.context() as m:
        stops = _stop_in_first_batch_write(m, "before the rename")
        code, _, err = run(capsys, "run", exp_dir / "tiny.toml", "--jobs", "1", "--out", out,
                           "--no-progress")
    assert stops and code == 143, err
    assert [p.name for p in out.glob("batch-*.parquet")] == ["batch-000000.parquet"], err
    assert "interrupted: 1 of 4 batches stored" in err, err
