"""Hostile copies of the files bwlab writes and reads back (the inputs audit of stop 74, 883
fuzzed command runs and 4,500 bit flips): a run folder given to ``run --resume``, the command
journal's parts; and other files the commands read (a drift suite, a rulings study). Each test
is one cause, written first as a strict xfail that failed at its assertion, now fixed; the
promise checked is the README's ("Limits and output paths"): bad input is one line per problem
naming the file, exit 2, no traceback, no hang, nothing lost.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.cli.main import main
from tests._cli_kit import tiny_experiment

ROOT = Path(__file__).resolve().parents[1]
TINY = tiny_experiment()


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory) -> Path:
    """A finished run of the tiny experiment (2 batches of 4 games) in ``runA``."""
    folder = tmp_path_factory.mktemp("stored")
    shutil.copytree(ROOT / "experiments" / "teams", folder / "teams")
    (folder / "tiny.toml").write_text(TINY, encoding="utf-8")
    assert main(["run", str(folder / "tiny.toml"), "--out", str(folder / "runA"),
                 "--no-progress", "--cards", str(ROOT / "cards")]) == 0
    return folder


@pytest.fixture
def run_copy(stored_run, tmp_path, monkeypatch, capsys) -> Path:
    shutil.copytree(stored_run, tmp_path / "w")
    monkeypatch.chdir(tmp_path / "w")
    monkeypatch.setenv("BWLAB_CARDS", str(ROOT / "cards"))
    capsys.readouterr()
    return tmp_path / "w"


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_batch_whose_footer_lost_a_column_name_is_not_a_traceback(capsys, run_copy):
    """One bit flipped in a stored batch's footer renames a column ('rotations' ->
    'sotations'): the page checksums pass and the digest and batch number are intact, so the
    store counts the batch as this run's, and the summary's table.column('rotations') raised
    KeyError (exit 1, a traceback). Expected: exit 0 with the batch played again (damaged,
    as a truncated one is), or exit 2 with one line naming it; never a traceback."""
    path = run_copy / "runA" / "batch-000000.parquet"
    data = bytearray(path.read_bytes())
    footer = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    at = data.index(b"rotations", footer)  # the schema's name of the column, in the footer
    data[at] ^= 1  # 'r' -> 's'
    path.write_bytes(bytes(data))
    assert "sotations" in pq.read_table(path, page_checksum_verification=True).column_names
    code, _, err = _run(capsys, "run", "tiny.toml", "--out", "runA", "--resume",
                        "--no-progress")
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 0 or (code == 2 and len(lines) == 1 and "batch-000000" in lines[0]), err
    assert (run_copy / "runA" / "batch-000001.parquet").exists()  # the sound batch is kept


def test_a_manifest_value_cannot_forge_an_error_line(capsys, run_copy):
    """The experiment edited (another root seed) and the run resumed: each changed input is
    named, one line each, and the manifest's package_version is quoted in one of them. A
    version holding a line break printed as two lines, the second starting "error: " with text
    taken from the file. Expected: every printed line is one problem (the value quoted, as
    Problem quotes a file name or a field holding one)."""
    manifest = run_copy / "runA" / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["package_version"] = "9.9\nerror: forged line"
    manifest.write_text(json.dumps(data), encoding="utf-8")
    exp = run_copy / "tiny.toml"
    exp.write_text(TINY.replace("root_seed = 5", "root_seed = 6"), encoding="utf-8")
    code, _, err = _run(capsys, "run", "tiny.toml", "--out", "runA", "--resume",
                        "--no-progress")
    assert code == 2, err
    assert "Traceback" not in err
    assert all(ln.startswith("error: ") for ln in err.splitlines() if ln.strip()), err
    assert not any(ln.startswith("error: forged") for ln in err.splitlines()), err


FAIRNESS = ["fairness", "teams/example.toml", "--games", "8", "--boards", "2", "--round", "8",
            "-q", "--cards", str(ROOT / "cards")]


HANG_SECONDS = 300  # longer than any loaded run of the command, short of for ever


def test_a_pipe_among_the_journals_parts_does_not_hang_the_command(tmp_path, monkeypatch,
                                                                  capsys):
    """An interrupted command's journal (its clean-up switched off, as a Ctrl-C leaves it),
    then a named pipe put beside its part, named as a part. The same command run again read
    every part-*.npz with np.load: opening the pipe waited for a writer for ever (the journal
    'can only save work, never fail a command', and every other reader here refuses a pipe
    before opening it). Expected: the pipe is passed over and the command ends as it does
    without the journal."""
    from sim.runner import journal

    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "journal"
    monkeypatch.setenv("BWLAB_JOURNAL", str(root))
    monkeypatch.setattr(journal.Journal, "discard", lambda self: None)
    assert main(FAIRNESS) in (0, 1, 3)
    capsys.readouterr()
    parts = sorted(root.glob("*/part-*.npz"))
    assert parts
    os.mkfifo(parts[0].with_name("part-000000000-00000000.npz"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BWLAB_JOURNAL": str(root)}
    code = "import sys; from sim.cli.main import main; sys.exit(main(sys.argv[1:]))"
    # a hang lasts for ever; the command itself took over 15 s on a loaded 2-CPU host (the
    # fresh-clone CI of 2026-12-07, load 18), so the wait is generous
    try:
        done = subprocess.run([sys.executable, "-c", code, *FAIRNESS], cwd=tmp_path, env=env,
                              capture_output=True, timeout=HANG_SECONDS,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("bwlab fairness waited for ever on the pipe in its journal")
    assert done.returncode in (0, 1, 3) and b"Traceback" not in done.stderr, done.stderr


def test_a_journal_part_with_impossible_results_does_not_fail_the_command(tmp_path,
                                                                         monkeypatch, capsys):
    """The journal 'can only save work, never fail a command' (sim/runner/journal.py): a part
    that cannot be read or does not fit its call's shapes is deleted and its games played
    again. A part of the right shapes whose results no game gives (every column -7: an
    edited or hand-made part; a flipped bit fails the archive's CRC) was taken as it is, and
    the command ended in a traceback. Expected: such a part is passed over like a damaged
    one, and the command gives its verdict."""
    import numpy as np

    from sim.runner import journal

    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "journal"
    monkeypatch.setenv("BWLAB_JOURNAL", str(root))
    with monkeypatch.context() as m:
        m.setattr(journal.Journal, "discard", lambda self: None)
        assert main(FAIRNESS) in (0, 1, 3)
    capsys.readouterr()
    part = sorted(root.glob("*/part-*.npz"))[0]
    with np.load(part) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["out"] = np.full(arrays["out"].shape, -7, arrays["out"].dtype)
    with open(part, "wb") as f:
        np.savez(f, **arrays)
    code = main(FAIRNESS)
    _, err = capsys.readouterr()
    assert code in (0, 1, 3), err


def _lines(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.strip()]


def test_a_refused_min_games_is_one_line_not_two(tmp_path, monkeypatch, capsys):
    """A drift suite with `max_games = 512` and `min_games = 0`: one problem (0 is out of
    range). A second line followed, "min_games: 1024 is above max_games 512": the fallback's
    value, not the file's (the rule the experiment loader keeps: no second line about a
    fallback, tests/test_cli_hostile.py games-negative-one-line). The same two lines from
    `bwlab drift --suite`."""
    import re

    shutil.copytree(ROOT / "experiments" / "matchups", tmp_path / "matchups")
    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    text = (ROOT / "experiments" / "drift.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^min_games = \d+", "min_games = 0", text)
    text = re.sub(r"(?m)^max_games = \d+", "max_games = 512", text)
    (tmp_path / "suite.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "validate", ROOT / "cards", "--experiment", "suite.toml")
    assert code == 2 and "min_games: 0 out of range" in err, err
    assert len(_lines(err)) == 1, err


def test_a_nan_among_the_alternatives_is_one_line_not_two(tmp_path, capsys):
    """A rulings study whose alternatives array holds a NaN beside a sound alternative: one
    problem. It printed "alternatives: nan is not a finite number" and then "alternatives:
    expected an [[alternatives]] table" for the same element (validate --experiment, and
    bwlab rulings --alternatives the same)."""
    study = tmp_path / "alts.toml"
    study.write_text(
        'alternatives = [{ruling = "Simultaneous elimination", file = "rules.toml", '
        'key = "game.simultaneous_tiebreak", value = "draw", completes = "x"}, nan]\n'
        f'[study]\nteams = "{ROOT}/experiments/teams/example.toml"\n'
        f'rating_experiment = "{ROOT}/experiments/rarity.toml"\n', encoding="utf-8")
    code, _, err = _run(capsys, "validate", ROOT / "cards", "--experiment", study)
    assert code == 2 and "nan is not a finite number" in err, err
    assert len(_lines(err)) == 1, err
