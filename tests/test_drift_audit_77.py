"""The drift gate from a CI maintainer's and a card designer's side (audit 77): advice that names
a flag the command has, a flag that is never silently dropped, and a table whose columns stay
apart. Each test is fast: none plays more than a few games."""

from __future__ import annotations

import json
from pathlib import Path


from sim.analysis.paired import NO_DRIFT, PairedDrift
from sim.runner.drift import GateResult, MetricResult
from tests._cli_kit import run
from tests._drift_kit import recount_metrics

ROOT = Path(__file__).resolve().parents[1]


def _short_baseline(path: Path, n: int = 512) -> Path:
    """The shipped baseline cut to its first ``n`` games (fewer than the suite's min_games)."""
    data = json.loads((ROOT / "reports" / "baseline.json").read_text(encoding="utf-8"))
    for name, m in data["matchups"].items():
        recount_metrics(data, name, n)
        m["games"] = n
        for key in ("winners", "outcomes"):
            m[key] = m[key][:n]
        for key in ("rotations", "lead_changes", "eliminated"):
            m[key] = " ".join(m[key].split()[:n])
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_report_refusing_a_short_baseline_names_advice_that_works(capsys, tmp_path, monkeypatch):
    """`bwlab report --baseline B`, B shorter than the suite's min_games, is refused (exit 2);
    its advice must work as written: `bwlab report` has no --games (the drift command has)."""
    monkeypatch.chdir(ROOT)
    base = _short_baseline(tmp_path / "short.json")
    code, out, err = run(capsys, "report", "--out", tmp_path / "rep", "--teams", "",
                         "--rating-games", "0", "--baseline", base, "--quiet")
    assert code == 2, out + err
    assert "512 games, fewer than" in err, err
    # each flag the advice names must be one this command takes, or name the command it is for
    assert "knowingly with --games" not in err, err
    assert "bwlab drift --games 512" in err, err


def test_update_with_junit_is_refused_before_any_game(capsys, tmp_path):
    """`bwlab drift --update --junit F` wrote the baseline and no F, without a word: a CI job
    collecting F read a missing file, or the red one an earlier gate left there. It is bad
    input (exit 2, one line) before any game, and F is left as it was."""
    junit = tmp_path / "drift.xml"
    junit.write_text("<testsuite name='stale'/>", encoding="utf-8")
    code, out, err = run(capsys, "drift", "--update", "--baseline", tmp_path / "b.json",
                         "--junit", junit, "--games", "8", "--quiet")
    assert code == 2, out + err
    assert "--junit" in err and "--update" in err, err
    assert not (tmp_path / "b.json").exists()
    assert junit.read_text(encoding="utf-8") == "<testsuite name='stale'/>"


def test_gate_table_keeps_every_column_apart_with_large_llrs(capsys):
    """The gate's table with the LLRs of a change that moves few games (a card outside the
    teams: -4100.3/-2738.2 on the shipped suite) printed "-1 (-3…+1)-4100.3/-2738.2": the
    interval's end and the LLR ran together. Every column stays separated by a space."""
    from sim.cli.drift import _report

    test = PairedDrift(NO_DRIFT, 1024, 128, 0.2776, (0.249, 0.308), 0.2766, (0.248, 0.307),
                       -1.0, (-3.0, 1.0), -4100.3, -2738.2, (-2.99, 5.02))
    big = PairedDrift(NO_DRIFT, 4096, 128, 0.2776, (0.249, 0.308), 0.2766, (0.248, 0.307),
                      -123.0, (-1234.0, -100.0), -12345.6, -23456.7, (-2.99, 5.02))
    result = GateResult((MetricResult("example: Straw Hats", test),
                         MetricResult("example: Pixel Party", big)), (), 0.0125, (), False,
                        limits=({"matchup": "example", "floor": 1024, "cap": 4096,
                                 "capped_by": "max_games", "asked": 4096,
                                 "baseline_games": 4096, "games": 1024},))

    class Spec:
        delta_elo, alpha, beta = 70, 0.05, 0.05

    _report(result, Spec())
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("example: ")]
    assert len(rows) == 2, out
    assert "(-3…+1) -4100.3/-2738.2" in rows[0], rows[0]
    assert " -12345.6/-23456.7 " in rows[1], rows[1]
    for row in rows:
        fields = row.split()
        assert fields[-1] == "no_drift" and fields[-2] in ("1024", "4096"), row
        assert fields[-3].count("/") == 1 and not fields[-3].startswith(("(", "…")), row
