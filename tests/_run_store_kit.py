"""Shared helpers of the run-store tests (tests/test_run_store_*.py; issue #22 item 2): the
repository root, ``_run`` (``bwlab run`` of an experiment with --jobs 1 into a folder), and
``_errors`` (stderr's non-blank lines). The experiment folder itself is the ``exp_dir`` fixture
of tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]


def _run(capsys, exp: Path, out: Path, *extra):
    return run(capsys, "run", exp, "--jobs", "1", "--out", out, "--no-progress", *extra)


def _errors(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.strip()]
