"""Hostile-input audit of stop 82: careless input that still got past the checks."""

from __future__ import annotations

import shutil

import pytest

from sim.cli.main import main
from tests._validation_kit import SHIPPED

MARIO = "Mario,Video Games,Gold,mobility,distance=3; free_water=0,1,5,2,160,"


def _cards(tmp_path, old, new):
    folder = tmp_path / "cards"
    shutil.copytree(SHIPPED, folder)
    path = folder / "characters.csv"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def _errors(err):
    return [ln for ln in err.splitlines() if ln.startswith("error")]


@pytest.mark.parametrize("cell", ["1_60", "\u0661\u0666\u0660", "\uff11\uff16\uff10"])
def test_a_health_cell_that_is_not_plain_digits_is_refused(capsys, tmp_path, cell):
    """characters.csv with Mario's max_health written 1_60, in Arabic-Indic digits or in
    full-width digits: validate said "ok — 72 cards" and every command played Mario with 160
    health (Python's int() reads all three). A spreadsheet or pandas reads none of them as 160,
    and "1e3", "160.0", "0x10" are refused: one located line, exit 2."""
    folder = _cards(tmp_path, MARIO, MARIO.replace(",160,", f",{cell},"))
    code = main(["validate", str(folder)])
    err = capsys.readouterr().err
    lines = _errors(err)
    assert code == 2, err
    assert len(lines) == 1 and "characters.csv:3: max_health" in lines[0], err


@pytest.mark.parametrize("twin", ["\uff2dario", "M\u0430rio"])  # full-width M; Cyrillic a
def test_a_look_alike_of_a_card_name_is_refused(capsys, tmp_path, twin):
    """A second row "Ｍario" (full-width M) or "Mаrio" (Cyrillic a) beside Mario: validate said
    "ok — 73 cards"; both print as Mario in every table, a team file's "Mario" picks one of the
    two, and `validate --teams` of a team file naming Mario against a folder holding only the
    Cyrillic one said "unknown card 'Mario' (did you mean Mаrio ...)". A zero-width space in a
    name, or "MARIO", "Mario " beside Mario, is refused as a duplicate (the audit of stop 55);
    a look-alike should be too."""
    row = MARIO + "4,6,1,7,1,4,1,7,2,\n"
    folder = _cards(tmp_path, MARIO, row + twin + MARIO[len("Mario"):])
    code = main(["validate", str(folder)])
    err = capsys.readouterr().err
    lines = _errors(err)
    assert code == 2, err
    assert len(lines) == 1 and "characters.csv:4: name" in lines[0], err


def test_a_tab_separated_card_file_is_one_line(capsys, tmp_path):
    """characters.csv saved tab-separated (a spreadsheet's "Text (tab delimited)"): validate and
    combat printed 13 lines for the one problem, the first an "unknown column" line holding the
    whole header. One line naming the separator, exit 2."""
    folder = tmp_path / "cards"
    shutil.copytree(SHIPPED, folder)
    path = folder / "characters.csv"
    import csv
    import io
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    buf = io.StringIO()
    csv.writer(buf, delimiter="\t", lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    code = main(["validate", str(folder)])
    err = capsys.readouterr().err
    lines = _errors(err)
    assert code == 2, err
    assert len(lines) == 1 and "characters.csv:1" in lines[0], err


def test_a_compile_worker_that_dies_is_one_line_not_a_traceback(capsys, monkeypatch):
    """`bwlab play --seed 1 --teams ...` (also power-levels, rulings) on a cold cache whose
    compile worker was killed from outside (seen in the audit: a script that kills loky workers
    while another process warms the cache; equally the OOM killer): 30 lines of joblib traceback
    ending in TerminatedWorkerError, exit 1, and `run` left its new, empty --out folder behind.
    Not bad input, but the user needs one line saying the compile failed and why (a worker
    killed), not a traceback."""
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    import sim.runner.warm as warm

    def dead(*args, **kwargs):
        raise TerminatedWorkerError("A worker process managed by the executor was unexpectedly "
                                    "terminated. The exit codes of the workers are "
                                    "{SIGTERM(-15)}")

    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(warm, "is_warm", lambda: False)
    monkeypatch.setattr(warm, "warm", dead)
    teams = SHIPPED.parent / "experiments" / "teams" / "example.toml"
    try:
        code = main(["play", "--seed", "1", "--teams", str(teams)])
    except TerminatedWorkerError:
        code = "raised"
    err = capsys.readouterr().err
    assert code not in (0, "raised"), err
    assert "Traceback" not in err
    assert len(_errors(err)) == 1, err
