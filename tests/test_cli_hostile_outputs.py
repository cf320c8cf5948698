"""Hostile output paths on the command line (issue #22 item 3; the standards' "nothing written or
lost"): a result path naming one of the command's inputs, a card file or the card folder is
refused before the work, a command writing several files writes all or none, a read-only
folder and a full disk are one line, and an output is never renamed over a pipe and goes
through a link. Every case exits 2 with one line and no traceback, and writes nothing.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests._cli_hostile_kit import ROOT, _experiment
from tests._cli_kit import run


@pytest.mark.parametrize("argv, victim", [
    (["play", "--seed", "1", "--cards", "mycards", "--log", "mycards/characters.csv"],
     "mycards/characters.csv"),
    (["play", "--seed", "1", "--cards", "mycards", "--html", "mycards/rules.toml"],
     "mycards/rules.toml"),
    (["board", "--seed", "1", "--cards", "mycards", "--png", "mycards/tiles.toml"],
     "mycards/tiles.toml"),
    (["play", "--seed", "1", "--policy", "greedy:weights=w.toml", "--log", "w.toml"], "w.toml"),
    (["play", "--seed", "1", "--teams", "teams/example.toml", "--log", "hard.toml"],
     "teams/example.toml"),
    (["rulings", "--alternatives", "alts.toml", "--games", "8", "--boards", "2",
      "--rating-games", "0", "--only", "game.simultaneous_tiebreak", "--out", "alts.toml"],
     "alts.toml"),
])
def test_no_result_replaces_a_file_the_command_read(capsys, workdir, argv, victim):
    """Standards: "nothing written or lost". A result path naming one of the command's inputs
    (a card file, a weights file named in --policy, a hard link to the team file, the rulings
    command's own alternatives file) replaced it, exit 0: the data was gone. Now exit 2, one
    line naming it, and the input keeps its bytes (sim/atomic.py, inputs_guarded)."""
    shutil.copytree(ROOT / "cards", workdir / "mycards")
    shutil.copy(ROOT / "experiments" / "greedy_tuned.toml", workdir / "w.toml")
    os.link(workdir / "teams" / "example.toml", workdir / "hard.toml")
    alts = (ROOT / "experiments" / "rulings.toml").read_text(encoding="utf-8")
    (workdir / "alts.toml").write_text(alts.replace('"experiments/', f'"{ROOT}/experiments/'),
                                       encoding="utf-8")
    before = (workdir / victim).read_bytes()
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("rulings:",
                                                                               "bwlab:"))]
    assert code == 2 and len(lines) == 1, err
    assert "is also an input of this command" in lines[0], err
    assert (workdir / victim).read_bytes() == before


@pytest.mark.parametrize("argv, victim", [
    (["board", "--seed", "1", "--cards", "mycards", "--png", "mycards/tiles.toml"],
     "mycards/tiles.toml"),
    (["combat", "--attacks", "8", "--tier", "2", "--defense", "4", "--cards", "mycards",
      "--png", "mycards/rules.toml"], "mycards/rules.toml"),
])
def test_a_chart_over_a_card_file_names_its_flag_before_the_work(capsys, workdir, argv, victim):
    """board and combat refused a --png naming a card file only as they wrote it (sim.atomic's
    last guard): a line without the flag, after the board was printed or the dice sampled. Now
    the flag is named before the work, and nothing is printed."""
    shutil.copytree(ROOT / "cards", workdir / "mycards")
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", err
    assert [ln for ln in err.splitlines() if ln.strip()] == [
        f"error: {victim}: --png: is also an input of this command ({victim}); "
        "refusing to replace it"], err


@pytest.mark.parametrize("argv, blocker", [
    (["report", "--out", "rep", "--teams", "", "--rating-games", "0"], "rep/report.html"),
    (["compare-systems", "--out", "rep"], "rep/compare_systems.png"),
    (["rarity", "--experiment", str(ROOT / "experiments" / "rarity.toml"), "--games", "16",
      "--out", "rep"], "rep/rarity_cards.csv"),
    (["demo", "--out", "rep"], "rep/combat_report.csv"),
])
def test_a_command_writing_several_files_writes_all_or_none(capsys, workdir, argv, blocker):
    """Standards: bad input gets "exit 2, no traceback, nothing written". A folder where one
    of report's (compare-systems') files goes was refused only when that file's turn came:
    the CSV tables before it were written. Now every target is checked first."""
    (workdir / blocker).mkdir(parents=True)
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(lines) == 1 and "not a regular file" in lines[0], err
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


@pytest.mark.parametrize("argv", [
    ["demo", "--cards", "mycards", "--out", "mycards"],
    ["compare-systems", "--cards", "mycards", "--out", "adir/../mycards"],
    ["rarity", "--experiment", str(ROOT / "experiments" / "rarity.toml"), "--games", "16",
     "--cards", "mycards", "--out", "adir/../mycards"],
    ["report", "--teams", "", "--rating-games", "0", "--cards", "mycards", "--out", "mycards"],
    ["run", "{exp}", "--cards", "mycards", "--out", "mycards"],
])
def test_a_result_folder_is_never_the_card_folder(capsys, workdir, argv):
    """Standards: "nothing written or lost". ``demo --out CARDS`` (compare-systems, rarity,
    report alike) wrote its tables into the card folder, exit 0, and every run on those cards
    then refused to resume (its card digest had changed). ``run --out CARDS`` was refused
    already: every folder --out is refused the same way, one line, nothing written."""
    shutil.copytree(ROOT / "cards", workdir / "mycards")
    exp = _experiment(workdir)
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = run(capsys, *[str(exp) if a == "{exp}" else a for a in argv])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"error: {argv[-1]}: --out: is the card folder;"), err
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


@pytest.mark.parametrize("argv", [
    ["power-levels", "--cards", "mycards", "--levels-experiment",
     str(ROOT / "experiments" / "rarity.toml"), "--games", "64", "--out", "mycards/levels.csv"],
    ["rulings", "--cards", "mycards", "--out", "mycards/sub/../rulings.csv"],
    ["drift", "--suite", str(ROOT / "experiments" / "drift.toml"), "--cards", "mycards",
     "--update", "--baseline", "mycards/baseline.json"],
    ["rarity", "--experiment", str(ROOT / "experiments" / "rarity.toml"), "--games", "16",
     "--cards", "mycards", "--out", "mycards/tables"],
])
def test_a_result_file_is_never_inside_the_card_folder(capsys, workdir, argv):
    """As a folder --out (above), a result file inside the card folder joins the cards' files
    and stops every run on them from resuming: ``power-levels --out cards/x.csv`` and
    ``rulings --out cards/x.csv`` exited 0 (the audit of stop 67). One line, nothing written."""
    shutil.copytree(ROOT / "cards", workdir / "mycards")
    shutil.copytree(ROOT / "experiments", workdir / "experiments")  # rulings' files name them
    (workdir / "mycards" / "sub").mkdir()
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(lines) >= 1, err
    assert all("is inside the card folder mycards" in ln for ln in lines), err
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permission bits")
def test_read_only_folder_is_refused_before_work(capsys, workdir):
    """Item 3: `--out` in a read-only folder: exit 2, one line, nothing written."""
    locked = workdir / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        code, _, err = run(capsys, "play", "--seed", "1", "--log", locked / "g.jsonl")
    finally:
        locked.chmod(0o755)
    assert code == 2 and err.startswith(f"error: {locked / 'g.jsonl'}: --log: not writable")


def test_a_full_disk_is_one_line_and_leaves_no_partial_file(capsys, workdir, monkeypatch):
    """Item 3: "`--out` on a ... full filesystem" is one line and exit 2, no traceback; the
    atomic write leaves neither the result nor a temp file behind. The disk fills up during the
    write (ENOSPC raised by the CSV writer)."""
    import errno

    import pandas as pd

    def full(self, path, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    out = workdir / "reports"
    code, _, err = run(capsys, "demo", "--out", out)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and "Traceback" not in err
    assert len(lines) == 1 and "No space left on device" in lines[0], err
    assert not out.exists() or not any(out.iterdir())


def test_an_output_is_never_renamed_over_a_pipe_and_goes_through_a_link(capsys, workdir):
    """Item 3: results are written atomically (a temporary file renamed over the target), so a
    pipe, a device or a link named as the output would be replaced by a plain file (as root,
    `--log /dev/null` replaced the system's /dev/null). A pipe is refused when the command
    line is read and by the writer itself; a link is written through, the link kept."""
    from sim.atomic import write_text

    fifo = workdir / "fifo"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "play", "--seed", "1", "--log", fifo)
    assert code == 2 and err.strip() == (f"error: {fifo}: --log: is not a regular file (a "
                                         f"device, a pipe or a socket): name a file")
    with pytest.raises(OSError, match="not a regular file"):
        write_text(fifo, "x")
    assert fifo.is_fifo()
    target, link = workdir / "target.txt", workdir / "link.txt"
    target.write_text("old", encoding="utf-8")
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in workdir.iterdir() if p.name.startswith(".")) == []


def test_only_a_defaulted_file_may_have_its_folder_created(workdir):
    """Item 3: ``power-levels --out``'s default lives in reports/, which a fresh checkout may not
    have, so its folder may be created; the same folder given by the user is a typo to report
    (it was created silently)."""
    import click
    from click.testing import CliRunner

    from sim.cli._paths import OUT_FILE_IN_NEW_FOLDER

    @click.command()
    @click.option("--out", type=OUT_FILE_IN_NEW_FOLDER, default=Path("newdir/p.csv"))
    def command(out):
        click.echo(f"ok {out}")

    assert CliRunner().invoke(command, []).output == "ok newdir/p.csv\n"
    given = CliRunner().invoke(command, ["--out", "newdir/p.csv"])
    assert given.exit_code != 0 and "folder newdir does not exist" in str(given.exception)
    assert not (workdir / "newdir").exists()
