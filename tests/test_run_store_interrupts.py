"""A run stopped keeps what it stored (issue #22 item 2): workers stop when the main process
dies, the deaf backend's workers start with Ctrl-C blocked, Ctrl-C or SIGTERM at any moment
(while the workers start, while a batch is asked for or written) ends the run with one line,
no traceback, the signal's exit status and the batches on disk counted.

Every run here is the 16-game, 2-board experiment of tests/test_runner.py played with --jobs 1
(in-process: no worker start-up) unless a case needs workers, so the whole module costs a few
seconds of CPU.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests._cli_kit import run, stopping_once
from tests._run_store_kit import ROOT, _errors, _run
from tests.test_runner import SMALL


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
