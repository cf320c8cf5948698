"""docs/rules-coverage.md stays true (issue #20, item 4): every file, function and test a row names
exists, so a renamed test or a deleted helper turns a row red here instead of leaving it stale.

A row names code as ``path.py:function`` (``a/b`` or ``a, b`` for several in one file; a bare
``file.py`` must be unique under sim/) and tests as ``tests/test_x.py::test_name``, with
``::other`` or ``, other`` continuing the same file. Parametrised ids (``name[case]``) are checked
by their function name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules-coverage.md"
IDENT = r"[A-Za-z_]\w*"
CODE_REF = re.compile(rf"(?P<file>[\w./-]+\.py)(?::(?P<names>{IDENT}(?:\s*[/,]\s*{IDENT}(?![\w./]))*))?")
TEST_REF = re.compile(r"(?P<file>(?:tests/)?test_\w+\.py)|::(?P<test>test_\w+)|(?<![\w.:/])(?P<bare>test_\w+)(?![\w.])")


def _rows() -> list[tuple[int, str, str]]:
    """(line number, 'where enforced' cell, 'test(s)' cell) of every table row."""
    out = []
    for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or set(cells[0]) <= {"-", " "} or cells[1] == "where enforced":
            continue
        out.append((n, cells[-2], cells[-1]))
    return out


def _source(name: str) -> Path | None:
    """A file named in a row: a path from the repository root, or a unique file name under sim/."""
    path = ROOT / name
    if "/" in name and path.is_file():
        return path
    found = [p for p in (ROOT / "sim").rglob(Path(name).name)
             if p.as_posix().endswith(name)]
    return found[0] if len(found) == 1 else None


def _defines(path: Path, name: str) -> bool:
    text = path.read_text(encoding="utf-8")
    return re.search(rf"^\s*(?:def|class)\s+{name}\b|^\s*{name}\s*[:=]|\b{name}\b\s*,.*=|"
                     rf"^[A-Z_, ()]*\b{name}\b[A-Z_, ()]*=", text, re.M) is not None


def _code_problems(cell: str) -> list[str]:
    problems = []
    for m in CODE_REF.finditer(cell):
        if m.group("file").startswith("tests/"):
            continue
        path = _source(m.group("file"))
        if path is None:
            problems.append(f"{m.group('file')}: no such file (or not unique: name its folder)")
            continue
        for name in re.split(r"\s*[/,]\s*", m.group("names") or ""):
            if name and not _defines(path, name):
                problems.append(f"{m.group('file')}:{name}: not defined there")
    return problems


def _test_problems(cell: str) -> list[str]:
    problems, current = [], None
    for m in TEST_REF.finditer(re.sub(r"\[[^\]]*\]", "", cell)):
        if m.group("file"):
            name = m.group("file")
            current = ROOT / (name if name.startswith("tests/") else f"tests/{name}")
            if not current.is_file():
                problems.append(f"{name}: no such test file")
                current = None
            continue
        test = m.group("test") or m.group("bare")
        if current is None:
            problems.append(f"{test}: no test file named before it")
        elif not re.search(rf"^\s*def {test}\(", current.read_text(encoding="utf-8"), re.M):
            problems.append(f"{current.name}::{test}: no such test")
    return problems


@pytest.mark.parametrize("line,code,tests", _rows(), ids=lambda v: str(v)[:40])
def test_every_row_names_code_and_tests_that_exist(line, code, tests):
    problems = _code_problems(code) + _test_problems(tests)
    assert not problems, f"docs/rules-coverage.md:{line}: " + "; ".join(problems)


def test_the_checker_catches_a_missing_test_and_a_missing_function():
    assert _test_problems("tests/test_engine_game.py::test_no_such_rule_test")
    assert _code_problems("sim/engine/rules/turn.py:_no_such_kernel")
    assert not _test_problems("tests/test_engine_game.py::test_rotation_order_and_placement")
    assert not _code_problems("sim/engine/rules/turn.py:_gm_turn")
