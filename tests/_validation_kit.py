"""Shared helpers of the ``bwlab validate`` tests (tests/test_validation_*.py, and the item,
entity, hostile-data, paragraph and validate-everything tests that borrow them): the shipped
folder, the ``error: FILE:LINE: FIELD: message`` line format, ``run`` (validate in-process, no
traceback), ``parse`` and ``expect`` (exit 2 and exactly the expected problem lines), and the
editors of a private copy of ``cards/`` (``set_cell`` and the rows of characters.csv,
``edit_toml``). The private copy itself is the ``cards`` fixture of tests/conftest.py."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from sim.cli.main import main


ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "cards"
LINE = re.compile(r"^error: (?P<file>.+?):(?P<line>\d+): (?P<field>[^:]+): (?P<msg>.+)$")


# ----------------------------------------------------------------------------------- helpers

def run(capsys, folder: Path) -> tuple[int, str, list[str]]:
    code = main(["validate", str(folder)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, [line for line in err.splitlines() if line.strip()]


def parse(err_lines: list[str]) -> list[tuple[str, int, str, str]]:
    """(file name, line, field, message) of every stderr line; each must match the format."""
    parsed = []
    for text in err_lines:
        m = LINE.match(text)
        assert m, f"not 'error: FILE:LINE: FIELD: message': {text!r}"
        parsed.append((Path(m["file"]).name, int(m["line"]), m["field"], m["msg"]))
    return parsed


def expect(capsys, folder: Path, *problems: tuple[str, int, str, str]) -> list[str]:
    """Run validate; assert exit 2 and exactly one line per expected (file, line, field, text)."""
    code, _, err = run(capsys, folder)
    assert code == 2, err
    got = parse(err)
    assert len(got) == len(problems), "\n".join(err)
    for (file, line, field, text), (g_file, g_line, g_field, g_msg) in zip(problems, got):
        assert (g_file, g_line, g_field) == (file, line, field), "\n".join(err)
        assert text.lower() in g_msg.lower(), "\n".join(err)
    return err


def read_rows(folder: Path) -> list[list[str]]:
    text = (folder / "characters.csv").read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(text, newline="")))


def write_rows(folder: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (folder / "characters.csv").write_text(out.getvalue(), encoding="utf-8")


def set_cell(folder: Path, line: int, column: str, value: str) -> None:
    """Set ``column`` of CSV ``line`` (1 = header; the shipped file has one row per line)."""
    rows = read_rows(folder)
    rows[line - 1][rows[0].index(column)] = value
    write_rows(folder, rows)


def edit_toml(folder: Path, name: str, old: str, new: str) -> int:
    """Replace the first ``old`` in ``name``; return the 1-based line it was on."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line
