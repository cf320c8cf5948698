"""Regression audit of stop 81 (the tile revive, fairness in name order, the baseline's keys)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.catalogue.diagnostics import InputError
from sim.cli.drift_baseline_file import _load_baseline


def _line_of_twice(tmp_path, text: str) -> str:
    path = tmp_path / "baseline.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        _load_baseline(path)
    lines = str(err.value).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_nested_key_named_twice_is_located_at_its_own_second_place(tmp_path):
    """`bwlab validate --baseline` on a baseline whose "policies" table names "example" twice
    (lines 6 and 7) said line 6: the regex took the key's second appearance in the whole file,
    the first being "matchups"' own "example" (line 3), which is not named twice."""
    text = ('{\n "matchups": {\n  "example": 1\n },\n "policies": {\n'
            '  "example": 1,\n  "example": 2\n }\n}\n')
    line = _line_of_twice(tmp_path, text)
    assert "baseline.json:7: example: named twice" in line, line


def test_a_key_named_twice_in_a_later_table_is_not_located_in_an_earlier_one(tmp_path):
    """A key repeated in the second of two tables that both name it (as "games" in every metric
    of reports/baseline.json): the line of the repeat (8), not of the first table (3)."""
    text = ('{\n "metrics": {\n  "a": {"games": 1, "rate": 0.5},\n  "b": {\n'
            '   "rate": 0.5,\n   "x": 1,\n   "games": 1,\n   "games": 2\n  }\n }\n}\n')
    line = _line_of_twice(tmp_path, text)
    assert "baseline.json:8: games: named twice" in line, line


def test_a_key_named_twice_at_the_top_still_reads_its_second_line(tmp_path):
    text = '{\n "format": 3,\n "engine": {"format": 1},\n "format": 3\n}\n'
    line = _line_of_twice(tmp_path, text)
    assert "baseline.json:4: format: named twice" in line, line
