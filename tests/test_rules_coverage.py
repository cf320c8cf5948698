"""docs/rules-coverage.md stays true (issue #20, item 4): every file, function and test a row names
exists, so a renamed test or a deleted helper turns a row red here instead of leaving it stale.

A row names code as ``path.py:function`` (``a/b`` or ``a, b`` for several in one file; a bare
``file.py`` must be unique under sim/) and tests as ``tests/test_x.py::test_name``, with
``::other`` or ``, other`` continuing the same file. Parametrised ids (``name[case]``) are checked
by their function name.

The README and every other page under docs/ (but docs/performance.md, a dated history that names
code as it was then) get the same check on what they put in backticks: a repository path
(``sim/runner/x.py``, ``experiments/y.toml``, a glob), ``path.py:name``, ``tests/test_x.py::test``,
a dotted ``sim.a.b.name``, ``module.name`` for a module under sim/ (``interpreter._run_effect``),
``Class.attribute`` and a bare private function (``_advance``); and a repository path or a test
file written as plain text. A rename left in prose is as stale as one left in a row.
"""

from __future__ import annotations

import re
from functools import cache
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


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _defines(path: Path, name: str) -> bool:
    text = _text(path)
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
    assert _test_problems("tests/test_engine_game_turns.py::test_no_such_rule_test")
    assert _code_problems("sim/engine/rules/turn.py:_no_such_kernel")
    assert not _test_problems("tests/test_engine_game_turns.py::test_rotation_order_and_placement")
    assert not _code_problems("sim/engine/rules/turn.py:_gm_turn")


# ---- every other doc -------------------------------------------------------------------------

DOCS = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").glob("*.md")
                                     if p.name != "performance.md")
TICKED = re.compile(r"`([^`\n]+)`")
REPO_DIRS = ("sim/", "tests/", "benchmarks/", "experiments/", "cards/", "docs/", ".ci/")
SIM_MODULES: dict[str, list[Path]] = {}
for _p in sorted((ROOT / "sim").rglob("*.py")):
    SIM_MODULES.setdefault(_p.stem, []).append(_p)
# backticked words shaped like code that name something else: JSON keys of a command's output
# (fairness's balance.largest_gap, a run manifest's summary.balance) and a column suffix
NOT_CODE = {"summary.balance", "balance.largest_gap", "_high"}
# every name a module under sim/ or benchmarks/ defines or assigns at the start of a line
DEFINED = {a or b for p in [*(ROOT / "sim").rglob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
           for a, b in re.findall(r"^\s*(?:(?:def|class) (\w+)|(\w+)\s*[:=])", _text(p), re.M)}


def _module_problem(dotted: str) -> str | None:
    """``sim.a.b.name``: the longest prefix that is a module or package, and the rest in it."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:k])
        if base.with_suffix(".py").is_file() or base.is_dir():
            break
    rest = parts[k:]
    if not rest:
        return None
    module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
    if not module.is_file() or not _defines(module, rest[0]):
        return f"{dotted}: {rest[0]} not defined in {'.'.join(parts[:k])}"
    return None


def _ref_problem(t: str) -> str | None:
    """What is wrong with one backticked token, or None (also for anything that is not code)."""
    if t in NOT_CODE or "NAME" in t:   # a pattern: _run_NAME, reports/runs/NAME
        return None
    m = re.fullmatch(r"(?:tests/)?(test_\w+\.py)(?:::(test_\w+|_\w+))?(?:\[.*\])?", t)
    if m:
        path = ROOT / "tests" / m[1]
        if not path.is_file():
            return f"{t}: no such test file"
        if m[2] and not re.search(rf"^\s*def {m[2]}\(", _text(path), re.M):
            return f"{t}: no such test"
        return None
    m = re.fullmatch(r"(?:::)?(test_\w+)", t)
    if m:
        found = any(re.search(rf"^\s*def {m[1]}\(", _text(p), re.M)
                    for p in (ROOT / "tests").glob("test_*.py"))
        return None if found else f"{t}: no such test in tests/"
    m = re.fullmatch(rf"([\w./-]+\.py):({IDENT})(?:\.{IDENT})?(?:\(.*\))?", t)
    if m:
        return "; ".join(_code_problems(f"{m[1]}:{m[2]}")) or None
    if t.startswith(REPO_DIRS) and " " not in t:
        path = t.rstrip("/")
        if re.search(r"<|NAME|NNN|\.\.\.", path):
            return None
        if "*" in path:
            return None if list(ROOT.glob(path)) else f"{t}: matches no file"
        if (ROOT / path).exists():
            return None
        m = re.fullmatch(r"(.+)\.(\w+)", path)       # sim/analysis/cluster.clustered_mean
        if m and (ROOT / f"{m[1]}.py").is_file():
            return None if _defines(ROOT / f"{m[1]}.py", m[2]) else f"{t}: not defined there"
        return f"{t}: no such file or folder"
    m = re.fullmatch(rf"(sim(?:\.{IDENT})+)(?:\(.*\))?", t)
    if m:
        return _module_problem(m[1])
    m = re.fullmatch(rf"({IDENT})\.({IDENT})(?:\(.*\))?", t)
    if m and m[1] in SIM_MODULES and m[2] not in ("py", "toml", "csv", "json", "md"):
        return None if any(_defines(p, m[2]) for p in SIM_MODULES[m[1]]) else \
            f"{t}: {m[2]} not defined in any sim/**/{m[1]}.py"
    m = re.fullmatch(rf"([A-Z]\w*)\.({IDENT})(?:\[.*\])?(?:\(.*\))?", t)
    if m:
        homes = [p for ps in SIM_MODULES.values() for p in ps
                 if re.search(rf"^(?:class {m[1]}\b|{m[1]}\s*=)", _text(p), re.M)]
        if homes and not any(re.search(rf"\b{m[2]}\b", _text(p)) for p in homes):
            return f"{t}: {m[1]} has no {m[2]}"
        return None
    m = re.fullmatch(r"(_[a-z]\w*)(?:\(.*\))?", t)
    if m and m[1] not in DEFINED and m[1] not in SIM_MODULES:
        return f"{t}: defined nowhere under sim/ or benchmarks/"
    return None


# outside backticks: a repository path or a test reference written as plain text
PLAIN = re.compile(r"(?<![\w./-])(?:(?:tests/)?test_\w+\.py(?:::\w+)?|"
                   r"(?:sim|tests|benchmarks|experiments|cards|docs|\.ci)/(?:[\w./*-]*[\w/*])?)")


def _doc_problems(doc: Path) -> list[str]:
    problems = []
    for n, line in enumerate(_text(doc).splitlines(), 1):
        tokens = TICKED.findall(line) + PLAIN.findall(TICKED.sub(" ", line))
        for token in tokens:
            problem = _ref_problem(token.strip())
            if problem:
                problems.append(f"{doc.relative_to(ROOT)}:{n}: {problem}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_doc_names_files_code_and_tests_that_exist(doc):
    problems = _doc_problems(doc)
    assert not problems, "\n".join(problems)


def test_the_doc_checker_catches_each_kind_of_stale_reference():
    for stale in ("tests/test_engine_game_turns.py::test_no_such_rule_test",
                  "test_no_such_test_at_all",
                  "sim/runner/no_such_module.py", "sim/engine/rules/turn.py:_no_such_kernel",
                  "sim.engine.rules.turn._no_such_kernel", "interpreter._no_such_kernel",
                  "State.no_such_field", "_no_such_private_function", "benchmarks/no_*_such.py"):
        assert _ref_problem(stale), stale
    assert PLAIN.findall(
        "see sim/runner/journal.py, tests/test_journal_calls.py::test_x and docs/.") == [
        "sim/runner/journal.py", "tests/test_journal_calls.py::test_x", "docs/"]
    for sound in ("tests/test_engine_game_turns.py::test_rotation_order_and_placement",
                  "sim/runner/progress.py", "sim/engine/rules/turn.py:_gm_turn",
                  "sim.engine.rules.turn._apply(st, S, a)", "interpreter._run_effect",
                  "State.floor", "_advance", "benchmarks/*_pool.py", "reports/report.html",
                  "--games 4000", "balance.largest_gap"):
        assert not _ref_problem(sound), sound
