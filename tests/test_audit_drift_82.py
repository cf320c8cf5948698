"""Audit 82 of the drift gate, as a CI user reads it (docs/drift.md)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from sim.cli.main import cli


def _help() -> str:
    result = CliRunner().invoke(cli, ["drift", "--help"])
    assert result.exit_code == 0
    return " ".join(result.output.split())


def test_drift_help_names_every_exit_code():
    """The CI gate's --help said nothing of its exit codes (fairness and draft say theirs):
    a CI engineer could not learn there that 3 is inconclusive and 2 bad input."""
    text = _help()
    assert re.search(r"0 no drift", text)
    assert re.search(r"1 drift", text)
    assert re.search(r"3 inconclusive", text)
    assert re.search(r"2 bad input", text)


def test_games_help_says_the_multiple_of_4_the_error_sends_the_user_to():
    """`drift --games 10` says "must be a multiple of 4 ... (see bwlab drift --help)", and the
    help said only "Game cap per matchup"."""
    text = _help()
    assert "multiple of 4" in text
