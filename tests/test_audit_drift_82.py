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


def _short_baseline(path):
    """The shipped baseline cut to 512 games (below the suite's min_games): bad input."""
    import json
    from collections import Counter
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "reports/baseline.json")
                      .read_text(encoding="utf-8"))
    m, n = data["matchups"]["example"], 512
    m["games"] = n
    for key in ("winners", "outcomes"):
        m[key] = m[key][:n]
    for key in ("rotations", "lead_changes", "eliminated"):
        if key in m:
            m[key] = " ".join(m[key].split()[:n])
    counts = Counter(m["winners"])
    rates = sorted(counts[str(i)] / n for i in range(4))
    names = sorted(data["metrics"], key=lambda k: data["metrics"][k]["rate"])
    for name, rate in zip(names, rates):
        data["metrics"][name] = {"games": n, "rate": rate}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_gate_refused_before_any_game_says_its_junit_file_is_not_this_runs(tmp_path, capsys):
    """A CI runner that keeps its workspace publishes --junit after every gate: when the gate
    refuses its input (exit 2), the JUnit file still holds the last run's "5 passed". Bad input
    writes nothing (the lab's rule), so the refusal says so under its problems, naming the file."""
    from sim.cli.main import main

    junit = tmp_path / "drift.xml"
    stale = "<testsuite name='bwlab-drift' tests='5' failures='0' errors='0'></testsuite>\n"
    junit.write_text(stale, encoding="utf-8")
    baseline = _short_baseline(tmp_path / "short.json")
    code = main(["drift", "--baseline", str(baseline), "--junit", str(junit), "-q"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert junit.read_text(encoding="utf-8") == stale  # nothing written on bad input
    lines = err.strip().splitlines()
    assert "short.json" in lines[0] and len(lines) == 2, err
    assert "drift.xml: --junit: not rewritten" in lines[-1] and "earlier run" in lines[-1], err


def test_a_baseline_recorded_under_other_test_settings_is_said(tmp_path):
    """A baseline recorded with the suite's delta_elo at 50 (the suite file now says 70) passed
    every check without a word, and the gate tested with 70: the note says which is used."""
    import json
    from pathlib import Path
    from types import SimpleNamespace

    from sim.runner.drift_limits import notes

    data = json.loads((Path(__file__).resolve().parents[1] / "reports/baseline.json")
                      .read_text(encoding="utf-8"))
    suite = SimpleNamespace(path="experiments/drift.toml", delta_elo=70.0, alpha=0.05, beta=0.05,
                            experiments=(), capped_by_flag=False, min_games=1024,
                            max_games=4096)
    assert notes(suite, data) == []  # the shipped baseline: the suite's own settings
    data["suite"]["delta_elo"] = 50
    said = notes(suite, data)
    assert len(said) == 1 and "delta_elo is 70 Elo" in said[0] and "under 50 Elo" in said[0]
