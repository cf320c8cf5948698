"""Hostile data files (issue #22, item 5): whatever one value of any designer file becomes, and
wherever a file is cut, ``bwlab validate`` answers with exit 0, or exit 2 and one
``error: FILE:LINE: FIELD: message`` line per problem — never a traceback, never a line without
its file and line.

Hypothesis draws a file of ``cards/``, one of its keys (TOML) or cells (CSV), and a replacement
from the values careless and hostile users type: wrong types, NaN and infinities, huge and
negative numbers, empty text, control characters, non-UTF-8 bytes; or a truncation at any byte.
Examples are derandomised (tests/conftest.py): the same draws on every run.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.catalogue.tomldoc import key_lines
from sim.cli.main import main
from tests.test_validation import LINE, SHIPPED

TOML_FILES = sorted(p.name for p in SHIPPED.glob("*.toml"))
CSV_FILES = sorted(p.name for p in SHIPPED.glob("*.csv"))
HOSTILE_TOML = ["nan", "inf", "-inf", "99999999999999999999", "-1", "0", "1e308", '""',
                '"\\u0000"', "true", "[]", "{}", '"x"', "[nan]", "-99999999999999999999"]
HOSTILE_CELL = ["", "nan", "inf", "-1", "99999999999999999999", "1.5", "x", "\x00", '"',
                "0x10", " 7 "]
LOCATED = re.compile(r"^error: .+?:\d+: [^:]+: .+$")


def _validate(folder: Path, capsys) -> None:
    code = main(["validate", str(folder)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 2), err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("warning")]
    if code == 2:
        assert lines, "exit 2 without a problem line"
        for line in lines:
            assert LINE.match(line) or LOCATED.match(line), f"not FILE:LINE: FIELD: message: {line!r}"


def _copy() -> Path:
    return Path(shutil.copytree(SHIPPED, Path(tempfile.mkdtemp(prefix="bwlab-hostile-")) / "cards"))


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TOML_FILES), st.integers(0, 10_000), st.sampled_from(HOSTILE_TOML))
def test_any_toml_value_replaced_is_a_located_line_or_ok(capsys, name, pick, value):
    folder = _copy()
    path = folder / name
    text = path.read_text(encoding="utf-8").splitlines()
    keyed = sorted({line for key, line in key_lines("\n".join(text)).items()
                    if "=" in text[line - 1] and not text[line - 1].lstrip().startswith("[")})
    n = keyed[pick % len(keyed)]
    key = text[n - 1].split("=", 1)[0]
    text[n - 1] = f"{key}= {value}"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    _validate(folder, capsys)
    shutil.rmtree(folder.parent)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(CSV_FILES), st.integers(1, 10_000), st.integers(0, 30),
       st.sampled_from(HOSTILE_CELL))
def test_any_csv_cell_replaced_is_a_located_line_or_ok(capsys, name, row, col, value):
    import csv
    import io
    folder = _copy()
    path = folder / name
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    r = 1 + row % (len(rows) - 1)
    rows[r][col % len(rows[r])] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    _validate(folder, capsys)
    shutil.rmtree(folder.parent)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TOML_FILES + CSV_FILES), st.floats(0, 1), st.booleans())
def test_a_truncated_or_non_utf8_file_is_a_located_line(capsys, name, where, latin):
    folder = _copy()
    path = folder / name
    data = path.read_bytes()
    cut = data[: int(where * len(data))]
    path.write_bytes(cut + (b"\xe9\xff" if latin else b""))
    _validate(folder, capsys)
    shutil.rmtree(folder.parent)
