"""Two minor findings of the user audit 78, on the drift gate's inputs as validate reads them.

1. ``bwlab validate --baseline F`` said "ok" of a baseline holding 512 games, which ``bwlab drift
   --baseline F`` refuses (fewer than the suite's min_games): validate must apply the gate's own
   check of a baseline against its suite, through the same function, with the same line.
2. A drift suite naming a broken matchup file: the error named that file's line and field, but
   not the suite, nor the suite's line that names the file; a reader of CI's output could not tell
   where the file came in. Each such problem now ends with the suite's file and line, as a broken
   weights file's problem ends with the experiment line naming it (tests/test_greedy_weights.py).

Each test is fast: nothing is played (every refusal comes before the first game).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests._cli_kit import run
from tests.test_drift_audit_77 import _short_baseline

ROOT = Path(__file__).resolve().parents[1]


def _errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error:")]


def test_validate_refuses_a_baseline_too_short_for_the_gate(capsys, tmp_path, monkeypatch):
    """A baseline of 512 games (the suite's min_games is 1024): drift refuses it with one line
    naming matchups.example.games; validate said "ok" (exit 0). Both now exit 2 with that same
    line, validate reading the suite drift reads by default (experiments/drift.toml)."""
    monkeypatch.chdir(ROOT)
    base = _short_baseline(tmp_path / "short.json")
    code, out, err = run(capsys, "drift", "--baseline", base, "--quiet")
    drift_lines = _errors(err)
    assert code == 2 and len(drift_lines) == 1, out + err
    assert f"{base}: matchups.example.games: 512 games, fewer than" in drift_lines[0], err
    code, out, err = run(capsys, "validate", "--baseline", base)
    assert code == 2, out + err
    assert _errors(err) == [drift_lines[0].replace(
        "knowingly with --games 512",
        "knowingly with `bwlab drift --games 512` (bwlab validate has no --games)")], err


def test_validate_takes_the_suite_as_drift_does(capsys, tmp_path, monkeypatch):
    """Outside the lab's folder there is no experiments/drift.toml: the baseline is checked
    alone, and a warning says so (exit 0); --suite names the suite, as drift's --suite does, and
    the short baseline is refused against it. --suite without --baseline checks nothing: one
    line, exit 2."""
    base = _short_baseline(tmp_path / "short.json")
    monkeypatch.chdir(tmp_path)
    cards = ROOT / "cards"
    code, out, err = run(capsys, "validate", cards, "--baseline", base)
    assert code == 0 and f"warning: {base}: checked alone, not against a drift suite" in err, err
    suite = ROOT / "experiments" / "drift.toml"
    code, out, err = run(capsys, "validate", cards, "--baseline", base, "--suite", suite)
    (line,) = _errors(err)
    assert code == 2 and f"{base}: matchups.example.games: 512 games" in line, out + err
    assert f"min_games 1024 ({suite})" in line, err
    code, out, err = run(capsys, "validate", cards, "--suite", suite)
    (line,) = _errors(err)
    assert code == 2 and "give --baseline too" in line and not out, err


def _suite_with_broken_matchup(tmp_path: Path) -> tuple[Path, int]:
    """A suite listing a sound matchup and a broken one (boards = "many", line 7 of its file),
    one entry a line: (the suite, the suite's line naming the broken file)."""
    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    (tmp_path / "matchups").mkdir()
    text = (ROOT / "experiments" / "matchups" / "example.toml").read_text(encoding="utf-8")
    (tmp_path / "matchups" / "good.toml").write_text(text, encoding="utf-8")
    broken = text.replace('name = "example"', 'name = "broken"').replace("boards = 128",
                                                                        'boards = "many"')
    assert broken.splitlines()[6] == 'boards = "many"'
    (tmp_path / "matchups" / "broken.toml").write_text(broken, encoding="utf-8")
    shipped = (ROOT / "experiments" / "drift.toml").read_text(encoding="utf-8").splitlines()
    head = [line for line in shipped if not line.startswith("experiments =")]
    suite = tmp_path / "drift.toml"
    suite.write_text("\n".join(head + ["experiments = [", '  "matchups/good.toml",',
                                       '  "matchups/broken.toml",', "]"]) + "\n",
                     encoding="utf-8")
    return suite, len(head) + 3


def test_a_broken_matchup_names_the_suite_line_that_names_it(capsys, tmp_path, monkeypatch):
    """validate --experiment SUITE and drift --suite SUITE: the broken matchup's problem was
    "matchups/broken.toml:7: boards: ...", the suite unnamed. Now one line, the matchup's own
    line and field first (where the fix goes), then the suite's line that names it, in the words
    of a weights file named by an experiment: "... (a matchup named in experiments,
    drift.toml:12)"."""
    monkeypatch.chdir(ROOT)
    suite, line = _suite_with_broken_matchup(tmp_path)
    want = (f"error: {tmp_path}/matchups/broken.toml:7: boards: expected an integer, got 'many' "
            f"(a matchup named in experiments, {suite}:{line})")
    for argv in (["validate", "--experiment", suite],
                 ["drift", "--suite", suite, "--baseline", ROOT / "reports" / "baseline.json",
                  "--quiet"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and _errors(err) == [want], (argv[0], out + err)


def test_a_matchup_naming_a_broken_team_file_names_both_lines(capsys, tmp_path, monkeypatch):
    """One file further: the suite names a sound matchup whose team file names an unknown card.
    The problem is the team file's, ending with the matchup, as the suite writes it, and the
    suite's line naming it."""
    monkeypatch.chdir(ROOT)
    suite, line = _suite_with_broken_matchup(tmp_path)
    teams = tmp_path / "teams" / "example.toml"
    teams.write_text(teams.read_text(encoding="utf-8").replace('"Luffy"', '"Lufy"'),
                     encoding="utf-8")
    suite.write_text(suite.read_text(encoding="utf-8").replace('  "matchups/broken.toml",\n', ""),
                     encoding="utf-8")
    code, out, err = run(capsys, "validate", "--experiment", suite)
    (problem,) = _errors(err)
    assert code == 2 and problem.startswith(f"error: {tmp_path}/matchups/../teams/example.toml:5: "
                                            f"teams.cards: unknown card 'Lufy'"), err
    assert problem.endswith(f"(read by the matchup matchups/good.toml, named in experiments, "
                            f"{suite}:{line - 1})"), err
