"""A drift baseline's JSON keys (reports/baseline.json, written by `bwlab drift --update`):
JSON lets a key be named twice (the last one wins without a word) and a reader may skip a key it
does not know. A hand-edited baseline could so hide a value or carry a misspelt section. Each is
one located line, exit 2 (the standard: "Bad input ... gets one line per problem naming file,
line and field")."""

from __future__ import annotations

import json

from sim.cli.main import main
from tests._validation_kit import SHIPPED

BASELINE = SHIPPED.parent / "reports" / "baseline.json"


def _errors(capsys, path):
    code = main(["validate", str(SHIPPED), "--baseline", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, [ln for ln in err.splitlines() if ln.startswith("error")]


def test_a_key_named_twice_is_one_line_at_its_second_place(capsys, tmp_path):
    text = BASELINE.read_text(encoding="utf-8")
    i = text.index('"format":')
    path = tmp_path / "baseline.json"
    path.write_text(text[:i] + '"format": 3,\n ' + text[i:], encoding="utf-8")
    second = text[:i].count("\n") + 2  # the original key, now one line further down
    code, lines = _errors(capsys, path)
    assert code == 2 and len(lines) == 1, lines
    assert f"baseline.json:{second}: format: named twice" in lines[0]


def test_a_misspelt_section_is_one_line_naming_it(capsys, tmp_path):
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    data["metrcs"] = data.pop("metrics")
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines = _errors(capsys, path)
    assert code == 2 and len(lines) == 1, lines
    assert "metrcs: unknown section (did you mean metrics?)" in lines[0]


def test_an_extra_section_is_refused(capsys, tmp_path):
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    data["notes"] = {"by": "a hand"}
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines = _errors(capsys, path)
    assert code == 2 and len(lines) == 1 and "notes: unknown section" in lines[0], lines


def test_the_shipped_baseline_has_neither(capsys):
    code, lines = _errors(capsys, BASELINE)
    assert code == 0 and lines == []


def test_an_unknown_key_inside_a_section_is_one_line(capsys, tmp_path):
    """Inside the sections whose keys --update fixes (suite, engine, each matchup, metric and
    combat entry), a key it never writes is a hand edit nothing reads: "suite.alpah" would have
    passed while the suite's alpha went unchecked (the regression audit of stop 81)."""
    data = json.loads(BASELINE.read_text(encoding="utf-8"))
    data["suite"]["alpah"] = data["suite"].pop("alpha")
    data["matchups"]["example"]["bogus"] = 1
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, lines = _errors(capsys, path)
    assert code == 2 and len(lines) == 2, lines
    assert any("suite.alpah: unknown key (did you mean alpha?)" in ln for ln in lines), lines
    assert any("matchups.example.bogus: unknown key" in ln for ln in lines), lines
