"""Golden traces: fixed-seed game logs checked in under tests/golden, so any change to the rules
or the engine shows up as a diff of events. Regenerate deliberately with
``python -m tests.regen_golden`` (never from inside the test: a test that rewrites what it
compares against passes whatever the engine does)."""

from __future__ import annotations

import difflib

import pytest

from tests.regen_golden import CASES, GOLDEN, trace


@pytest.mark.parametrize("name", sorted(CASES))
def test_game_log_matches_golden_trace(name):
    """"An effect that lasts any amount of turns or rotations is counted from the moment that
    created it" and every other rule: the whole event sequence of a fixed-seed game is pinned."""
    path = GOLDEN / f"{name}.jsonl"
    text = trace(name)
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                 "golden", "now"))[:60])
        pytest.fail(f"{path.name} differs (rules change? regenerate with "
                    f"`python -m tests.regen_golden`):\n{diff}")
