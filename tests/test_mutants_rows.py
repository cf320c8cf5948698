"""Rows and mutants in step (issue #27, item 2): "each row of docs/rules-coverage.md names the line
that enforces the rule and a non-golden test that fails when that line is mutated".

benchmarks/mutation.py runs the mutants of benchmarks/mutants.toml; each names its row (``row``:
text found in exactly one row of docs/rules-coverage.md). Here, without running any mutant:

- every enforcing row (not "not simulated", and naming a test) has a mutant, or an
  ``[[uncovered]]`` entry saying why not, never both;
- a mutant mutates a file its row names and runs at least one test file its row names, so the
  row's test column is the test that kills the mutant (docs/mutation.md has the score).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules-coverage.md"
MUTANTS = tomllib.loads((ROOT / "benchmarks" / "mutants.toml").read_text(encoding="utf-8"))


def _rows() -> dict[int, str]:
    """Line number -> text of every table row (headers and rulers excluded)."""
    out = {}
    for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or set(cells[0]) <= {"-", " "} or \
                cells[1] in ("where enforced", "enforced in"):
            continue
        out[n] = line
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _enforcing(line: str) -> bool:
    """A row that names enforcing code and a test: not one the lab does not simulate."""
    cells = _cells(line)
    return "not simulated" not in cells[-2] and "test_" in cells[-1]


def _row_of(key: str, rows: dict[int, str]) -> list[int]:
    return [n for n, line in rows.items() if key in line]


ROWS = _rows()


def test_every_mutant_and_uncovered_entry_names_exactly_one_row():
    problems = []
    for kind in ("mutant", "uncovered"):
        for i, entry in enumerate(MUTANTS.get(kind, []), 1):
            found = _row_of(entry.get("row", "\0"), ROWS)
            if len(found) != 1:
                problems.append(f"{kind} {i} ({entry.get('rule', entry.get('row'))}): row "
                                f"{entry.get('row')!r} matches {len(found)} rows")
    assert not problems, "\n".join(problems)


def test_every_enforcing_row_has_a_mutant_or_says_why_not():
    covered = {n for m in MUTANTS["mutant"] for n in _row_of(m.get("row", "\0"), ROWS)}
    excused = {n for u in MUTANTS.get("uncovered", []) for n in _row_of(u["row"], ROWS)}
    missing = [n for n, line in ROWS.items()
               if _enforcing(line) and n not in covered and n not in excused]
    assert not missing, (f"docs/rules-coverage.md rows with no mutant (add one to "
                         f"benchmarks/mutants.toml, or an [[uncovered]] entry): {missing}")
    both = sorted(covered & excused)
    assert not both, f"rows both mutated and listed as uncovered: {both}"
    assert all(u.get("why", "").strip() for u in MUTANTS.get("uncovered", []))


@pytest.mark.parametrize("mutant", MUTANTS["mutant"], ids=lambda m: m["rule"][:40])
def test_a_mutant_mutates_its_rows_code_and_runs_its_rows_tests(mutant):
    """The row names the mutated module (path, file or module name) and one of the mutant's
    test files, so the row's test column is where its killer is found."""
    (n,) = _row_of(mutant["row"], ROWS)
    code, tests = _cells(ROWS[n])[-2:]
    assert Path(mutant["file"]).stem in code, \
        f"docs/rules-coverage.md:{n} does not name {mutant['file']} (the mutated file)"
    files = {t.split("::")[0].removeprefix("tests/") for t in mutant["tests"]}
    assert any(f in tests for f in files), \
        f"docs/rules-coverage.md:{n} names none of the mutant's tests {sorted(files)}"


def test_the_checks_can_fail():
    some = next(n for n, line in ROWS.items() if _enforcing(line))
    assert _row_of(ROWS[some].strip()[2:60], ROWS) == [some]
    assert _row_of("no row says this \0", ROWS) == []
    assert not _enforcing("| Action Clock | not simulated: no | — |")


def test_every_mutant_still_applies():
    """A mutant whose ``old`` text has left its file (code moved or renamed) would be reported
    by the harness only when it runs: each must occur exactly once in its file now."""
    problems = []
    for i, m in enumerate(MUTANTS["mutant"], 1):
        path = ROOT / m["file"]
        n = path.read_text(encoding="utf-8").count(m["old"]) if path.is_file() else -1
        if n != 1:
            problems.append(f"mutant {i} ({m['rule']}): `old` occurs {n} times in {m['file']}")
    assert not problems, "\n".join(problems)
