"""``$SOURCE_DATE_EPOCH``, the reproducible-builds convention for a fixed "now"
(sim/report/clock.py): with it the report of the same cards and seeds is the same bytes; a value
that is not a time is one line and exit 2 for every command (numpy reads the variable as an
integer when scipy's statistics load, and every command that computes an interval ended in a
traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "experiments/teams/example.toml"
TINY = ["--teams", TEAMS, "--fairness-games", "8", "--rating-games", "0", "--quiet"]


def test_a_report_made_at_a_fixed_time_is_the_same_bytes(capsys, monkeypatch, tmp_path):
    """Two reports of the same cards and seed with ``SOURCE_DATE_EPOCH`` set: every file the
    same bytes, the footer's "generated" that time (1700000000 s is 2023-11-14 22:13 UTC).
    Without it the minute in the footer was the page's one difference (stop 68's note)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    for n in (1, 2):
        code, _, err = run(capsys, "report", "--out", tmp_path / f"r{n}", *TINY)
        assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "r1").iterdir())
    assert "report.html" in names and names == sorted(p.name for p in (tmp_path / "r2").iterdir())
    for name in names:
        assert (tmp_path / "r1" / name).read_bytes() == (tmp_path / "r2" / name).read_bytes(), name
    assert "2023-11-14 22:13 UTC" in (tmp_path / "r1/report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("value", ["soon", "1.5", "99999999999999999999"])
def test_a_source_date_that_is_not_a_time_is_one_line(capsys, monkeypatch, tmp_path, value):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    code, _, err = run(capsys, "report", "--out", tmp_path / "r", *TINY)
    assert code == 2 and err.splitlines() == [
        f"error: {value!r}: $SOURCE_DATE_EPOCH: not a time: give whole seconds since "
        "1970-01-01 UTC, or unset it"], err
    assert not (tmp_path / "r").exists()


def test_a_bad_source_date_never_ends_a_command_in_a_traceback(tmp_path):
    """In a process of its own (scipy not yet loaded): ``fairness`` loads scipy's statistics,
    whose import of numpy.f2py ran ``int(os.environ["SOURCE_DATE_EPOCH"])``: a traceback."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "soon", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "sim.cli.main", "fairness", str(TEAMS),
                           "--games", "8", "--round", "8", "--quiet"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: 'soon': $SOURCE_DATE_EPOCH: not a time"), done.stderr
