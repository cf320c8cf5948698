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

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.catalogue.tomldoc import key_lines
from sim.cli.main import main
from tests._validation_kit import LINE, SHIPPED

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


# --- one line per problem (stop 55 audit item 6) -------------------------------------------------

EXPERIMENT = ('name = "t"\ngames = nan\nroot_seed = 5\nbatch_size = 4\nboards = 2\n'
              'teams = "teams/example.toml"\n')


@pytest.mark.parametrize("flag, name, text, lines", [
    ("--experiment", "nan.toml", EXPERIMENT, ["{f}:2: games: nan is not a finite number"]),
    ("--teams", "t5.toml", "teams = 5\n", ["{f}:1: teams: expected a list, got 5"]),
    ("--teams", "x.toml", "x=1\n", ["{f}:1: x: unknown key", "{f}:1: teams: missing"]),
])
def test_one_problem_is_one_line(capsys, tmp_path, flag, name, text, lines):
    """`games = nan` was two lines (not a finite number; expected an integer, got nan), a team
    file's `teams = 5` two (expected a list; expected 4 [[teams]], got 0), and `x=1` alone three
    (teams missing, and again as 0 teams). One line each now."""
    shutil.copytree(SHIPPED.parent / "experiments" / "teams", tmp_path / "teams")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code = main(["validate", str(SHIPPED), flag, str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.splitlines() == ["error: " + ln.format(f=path) for ln in lines], err


@pytest.mark.parametrize("argv, kind", [
    (["validate", "--experiment", "experiments/teams/example.toml"],
     "a team file, not an experiment"),
    (["drift", "--suite", "experiments/smoke.toml"], "an experiment, not a drift suite"),
    (["run", "experiments/greedy_tuned.toml", "--out", "{tmp}/out"],
     "a greedy weights file, not an experiment"),
    (["rulings", "--alternatives", "experiments/drift.toml"], "a drift suite, not a rulings study"),
    # a GM's slip, the experiment for its team file: nine lines, "name: unknown key" to "teams:
    # expected a list" (the audit of 2026-12-05)
    (["fairness", "experiments/smoke.toml"], "an experiment, not a team file"),
    (["validate", "--teams", "experiments/smoke.toml"], "an experiment, not a team file"),
    (["play", "--teams", "experiments/drift.toml", "--seed", "1"],
     "a drift suite, not a team file"),
    (["report", "--teams", "experiments/smoke.toml", "--out", "{tmp}/rep"],
     "an experiment, not a team file"),
    # a greedy weights file and a draft pool: a line per key, nine for smoke.toml (the audit of
    # 2026-12)
    (["play", "--seed", "1", "-q", "--policy", "greedy:weights=experiments/smoke.toml"],
     "an experiment, not a greedy weights file"),
    (["validate", "--weights", "experiments/smoke.toml"],
     "an experiment, not a greedy weights file"),
    (["draft", "--pool", "experiments/greedy_tuned.toml"],
     "a greedy weights file, not a draft pool"),
    (["draft", "--pool", "experiments/teams/example.toml"], "a team file, not a draft pool"),
    (["validate", "--pool", "experiments/smoke.toml"], "an experiment, not a draft pool"),
])
def test_a_file_of_another_kind_is_one_line_naming_its_kind(capsys, tmp_path, monkeypatch, argv,
                                                            kind):
    """A lab file given where another kind goes was a line per key it did not know and per key
    it lacked (a team file as an experiment: three, one echoing the whole teams table). One line
    names what the file is and where it goes; nothing is written."""
    monkeypatch.chdir(SHIPPED.parent)
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    lines = capsys.readouterr().err.splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert LINE.match(lines[0]) or re.match(r"^error: [^:]+: file: ", lines[0]), lines[0]
    assert f": file: {kind} (it goes " in lines[0], lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, flag", [
    (["report", "--rating-games", "66", "--out", "{tmp}/rep"], "--rating-games"),
    (["rulings", "--rating-games", "66"], "--rating-games"),
    (["draft", "--random", "20", "--level-games", "66"], "--level-games"),
    (["fairness", "experiments/teams/example.toml", "--team-budget", "10", "--level-games", "66"],
     "--level-games"),
    (["power-levels", "--games", "66", "--out", "{tmp}/pl.csv"], "--games"),
])
def test_a_game_count_off_the_duplicate_blocks_names_the_flag_given(capsys, tmp_path,
                                                                      monkeypatch, argv, flag):
    """``report --rating-games 10`` was refused as "--games: games: 10 games cannot be played
    in duplicate blocks of 4": a flag the command the user typed does not have (report's,
    rulings', draft's and fairness' counts of a pool experiment's games; the audit of
    2026-12-05). The line names the flag the count was given with."""
    monkeypatch.chdir(SHIPPED.parent)
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    lines = capsys.readouterr().err.splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"error: {flag}: games: 66 games cannot be played in duplicate "
                               f"blocks of 4"), lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_huge_name_is_cut_in_its_line(capsys, tmp_path):
    """A team file naming a card of 200,000 characters: the problem is one line, as any other,
    and the name is cut with how much was left out (it was echoed whole, twice: the name and the
    team it sits in)."""
    example = (SHIPPED.parent / "experiments" / "teams" / "example.toml").read_text("utf-8")
    path = tmp_path / "huge.toml"
    path.write_text(example.replace('"Luffy"', '"' + "x" * 200_000 + '"'), encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--teams", str(path)])
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1, err[:2000]
    assert LOCATED.match(lines[0]) and len(lines[0]) < 1300, lines[0][:300]
    assert "more characters)" in lines[0]


@pytest.mark.parametrize("argv, name", [(["validate", "--teams", ""], "--teams"),
                                        (["validate", "--baseline", ""], "--baseline"),
                                        (["fairness", ""], "TEAMS_FILE"),
                                        (["run", ""], "EXPERIMENT"),
                                        (["validate", ""], "PATH")])
def test_an_empty_input_path_is_named_as_such(capsys, argv, name):
    """`validate --teams ""` said ".: file: cannot be read: Is a directory" (Path("") is the
    working folder), where an empty output path says "an empty path". `validate ""` checked
    the working folder: four "rules.toml: file: not found" lines, none naming PATH."""
    code = main(argv)
    err = capsys.readouterr().err
    what = "a folder" if name == "PATH" else "a file"
    assert code == 2 and err.splitlines() == [f"error: '': {name}: an empty path: name {what}"]


def test_a_batch_of_this_run_under_another_number_is_named_and_kept(capsys, tmp_path):
    """A sound batch copied in as batch-000099.parquet (beyond the run's 4) was deleted with
    "was damaged (truncated or failing its checksum); playing it again": untrue, and the user's
    file was gone. Now one line saying it does not belong to this run; every file is kept."""
    from tests.test_runner import SMALL

    shutil.copytree(SHIPPED.parent / "experiments" / "teams", tmp_path / "teams")
    exp, out = tmp_path / "tiny.toml", tmp_path / "out"
    exp.write_text(SMALL, encoding="utf-8")
    argv = ["run", str(exp), "--jobs", "1", "--out", str(out), "--no-progress"]
    assert main(argv) == 0
    shutil.copy(out / "batch-000001.parquet", out / "batch-000099.parquet")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    capsys.readouterr()
    code = main(argv + ["--resume"])
    err = capsys.readouterr().err
    assert code == 2 and err.splitlines() == [
        f"error: {out}: --out: batch-000099.parquet does not belong to this run: it holds batch "
        "1 of this run (whose file is batch-000001.parquet); move it away (it is not deleted), "
        "or choose another --out"], err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
