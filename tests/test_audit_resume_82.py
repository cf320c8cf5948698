"""Audit 82 (long runs: progress, atomic writes, resume): a local worker killed from outside
(the OOM killer, a ``kill``) ended ``bwlab run --jobs 2`` in joblib's 40-line
TerminatedWorkerError traceback, exit 1, with no word on the batches stored or on --resume.
The audit killed a real loky worker (14 s); here the executor's error is raised where the
games are played, which is what the CLI sees either way."""

from __future__ import annotations

from pathlib import Path

from joblib.externals.loky.process_executor import TerminatedWorkerError

from sim.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def test_run_worker_killed_says_how_to_resume(tmp_path, monkeypatch, capsys):
    import sim.runner.parallel as parallel

    def killed(*args, **kwargs):
        raise TerminatedWorkerError("A worker process managed by the executor was unexpectedly "
                                    "terminated. The exit codes of the workers are "
                                    "{SIGTERM(-15), SIGTERM(-15)}")

    monkeypatch.setattr(parallel, "run_experiment", killed)
    out = tmp_path / "run"
    code = main(["run", str(ROOT / "experiments/smoke.toml"), "--games", "64", "--jobs", "2",
                 "--out", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err
    errors = [ln for ln in err.splitlines() if ln.startswith("error")]
    assert len(errors) == 1, err
    assert "worker process died (exit SIGTERM(-15), SIGTERM(-15))" in errors[0], err
    assert "batches stored in" in errors[0] and "--resume" in errors[0], err
