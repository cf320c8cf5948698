"""Shared helpers of the hostile command-line tests (tests/test_cli_hostile_*.py; issue #22
items 3 and 4): the repository root and ``_experiment``, which writes the tiny experiment (with
an edit to it or to its team file) into a scratch folder. The scratch working folder itself is
the ``workdir`` fixture of tests/conftest.py."""

from __future__ import annotations

from pathlib import Path

from tests.test_runner import SMALL

ROOT = Path(__file__).resolve().parents[1]


def _experiment(folder: Path, edit=None, teams_edit=None) -> Path:
    """``folder/exp.toml``: the tiny experiment, with ``edit`` (old, new) made to it and
    ``teams_edit`` (old, new) to its team file."""
    if teams_edit is not None:
        teams = folder / "teams" / "example.toml"
        teams.write_text(teams.read_text(encoding="utf-8").replace(*teams_edit), encoding="utf-8")
    exp = folder / "exp.toml"
    exp.write_text(SMALL if edit is None else SMALL.replace(*edit), encoding="utf-8")
    return exp
