"""Experiments at scale: experiment validation, the schedule, reproducible and resumable runs.

Rules of the lab (issue #7): each game's seed derives from the root seed and the game's index,
never from the worker — results are bit-identical for --jobs 1, --jobs 2 and the Dask backend;
an interrupted run keeps every finished batch and --resume finishes it without repeating or
losing a game. Book: "Each game of Board Wars is played with 4 teams, each composed of 5
Character Cards."
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from sim.runner.experiment import load_experiment
from sim.runner.schedule import schedule
from tests._cli_kit import run, tiny_experiment

ROOT = Path(__file__).resolve().parents[1]
POLICIES = ("random", "greedy")
SMALL = tiny_experiment(games=16)


@pytest.fixture
def exp_dir(tmp_path) -> Path:
    folder = tmp_path / "experiments"
    shutil.copytree(ROOT / "experiments" / "teams", folder / "teams")
    (folder / "tiny.toml").write_text(SMALL, encoding="utf-8")
    return folder


def tables(folder: Path):
    return [pq.read_table(p) for p in sorted(folder.glob("batch-*.parquet"))]


@pytest.mark.parametrize("edit,field,words", [
    (("games = 16", "games = 0"), "games", "out of range"),
    (('policies = ["greedy"]', 'policies = ["greedy", "smart"]'), "policies", "1 or 4 policies"),
    (('policies = ["greedy"]', 'policies = ["genius"]'), "policies", "unknown policy"),
    (('seating = "duplicate"', 'seating = "shuffle"'), "seating", "unknown value"),
    (("games = 16", "games = 18"), "games", "duplicate blocks"),
    (("boards = 2", "boards = 2\nbord = 3"), "bord", "unknown key"),
    (('teams = "teams/example.toml"', 'teams = "teams/none.toml"'), "teams", "no team file"),
    (('teams = "teams/example.toml"', '[pool]\ncards = ["Luffy", "Mario"]'), "pool.cards",
     "at least 20"),
    (('teams = "teams/example.toml"', '[pool]\ncards = ["Lufy"]'), "pool.cards", "did you mean"),
])
def test_bad_experiment_files_give_one_line_per_problem(capsys, exp_dir, edit, field, words):
    """Malformed experiment files: one clear line naming file and field, exit 2."""
    path = exp_dir / "tiny.toml"
    path.write_text(SMALL.replace(*edit), encoding="utf-8")
    code, _, err = run(capsys, "run", path, "--out", exp_dir / "out")
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert any(f": {field}:" in ln and words in ln for ln in lines), err
    assert not (exp_dir / "out" / "manifest.json").exists()


def test_a_games_flag_outside_duplicate_blocks_names_the_flag_not_the_file(capsys, exp_dir):
    """``--games 7`` on a duplicate-seated experiment: the flag the user typed is the mistake,
    so the line names ``--games``, not the file's ``games =`` line (which holds 16)."""
    path = exp_dir / "tiny.toml"
    code, _, err = run(capsys, "run", path, "--games", "7", "--out", exp_dir / "out")
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("error: --games: games: 7 games") and "duplicate blocks" in lines[0]
    assert f"{path}:" not in lines[0]
    assert not (exp_dir / "out").exists()


def test_three_teams_is_refused(capsys, exp_dir):
    """"Each game of Board Wars is played with 4 teams": a team file with 3 is an error."""
    teams = exp_dir / "teams" / "example.toml"
    text = teams.read_text(encoding="utf-8")
    teams.write_text(text[: text.rindex("[[teams]]")], encoding="utf-8")
    code, _, err = run(capsys, "run", exp_dir / "tiny.toml", "--out", exp_dir / "out")
    assert code == 2 and "expected 4 [[teams]]" in err


def test_duplicate_schedule_rotates_every_team_through_every_seat(catalogue, exp_dir):
    """Duplicate play: each block of four games shares a board and the teams, and each team sits
    once in each seat; the schedule of a game does not depend on the batch it is played in."""
    exp = load_experiment(exp_dir / "tiny.toml", catalogue.cards, POLICIES)
    whole = schedule(exp, 0, 16)
    for block in range(4):
        rows = slice(4 * block, 4 * block + 4)
        assert len(set(whole.board[rows])) == 1
        seats_of_team = whole.team_of_seat[rows]
        for seat in range(4):
            assert sorted(seats_of_team[:, seat]) == [0, 1, 2, 3]
    parts = [schedule(exp, a, b) for a, b in ((0, 3), (3, 11), (11, 16))]
    np.testing.assert_array_equal(np.concatenate([p.team_cards for p in parts]), whole.team_cards)
    np.testing.assert_array_equal(np.concatenate([p.board for p in parts]), whole.board)


def test_pool_draws_are_reproducible_and_distinct_cards(catalogue, exp_dir):
    """"Though cards are randomly assigned": a pool experiment draws 20 distinct cards per block,
    from its own seed stream."""
    path = exp_dir / "tiny.toml"
    path.write_text(SMALL.replace('teams = "teams/example.toml"', '[pool]\ncards = "all"'),
                    encoding="utf-8")
    exp = load_experiment(path, catalogue.cards, POLICIES)
    a, b = schedule(exp, 0, 16), schedule(exp, 0, 16)
    np.testing.assert_array_equal(a.team_cards, b.team_cards)
    for row in a.team_cards:
        assert len(set(row.ravel())) == 20
    assert not np.array_equal(a.team_cards[0], a.team_cards[4])  # a new draw per block


def test_jobs_1_jobs_2_and_dask_give_identical_results_and_resume_loses_nothing(capsys, exp_dir):
    """Bit-identical Parquet rows for --jobs 1, --jobs 2 and the Dask backend on a loopback
    LocalCluster; a run missing a batch (as after a kill) is finished by --resume, which plays only
    that batch (on either backend: a local run finished on the cluster stores the same rows), and
    refuses to resume when the experiment changed."""
    exp = exp_dir / "tiny.toml"
    code, _, err = run(capsys, "run", exp, "--jobs", "1", "--out", exp_dir / "j1", "--no-progress")
    assert code == 0, err
    code, _, err = run(capsys, "run", exp, "--jobs", "2", "--out", exp_dir / "j2", "--no-progress")
    assert code == 0, err
    one, two = tables(exp_dir / "j1"), tables(exp_dir / "j2")
    assert len(one) == 4 and all(a.equals(b) for a, b in zip(one, two))
    assert sum(t.num_rows for t in one) == 16

    from distributed import LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=":0", processes=True) as cluster:
        code, _, err = run(capsys, "run", exp, "--backend", "dask", "--scheduler",
                           cluster.scheduler_address, "--out", exp_dir / "dask", "--no-progress")
        assert code == 0, err
        # a run begun by local processes and finished on the cluster: the same rows
        (exp_dir / "j1" / "batch-000001.parquet").unlink()
        code, out, err = run(capsys, "run", exp, "--resume", "--backend", "dask", "--scheduler",
                             cluster.scheduler_address, "--out", exp_dir / "j1", "--no-progress")
    assert code == 0 and "3 already stored, 1 played now" in out, err
    assert all(a.equals(b) for a, b in zip(one, tables(exp_dir / "dask")))
    assert all(a.equals(b) for a, b in zip(one, tables(exp_dir / "j1")))

    (exp_dir / "j2" / "batch-000002.parquet").unlink()        # a batch lost to an interrupt
    (exp_dir / "j2" / ".batch-000002.parquet.x.tmp").write_bytes(b"half")  # and its temp file
    code, out, err = run(capsys, "run", exp, "--resume", "--out", exp_dir / "j2", "--no-progress")
    assert code == 0, err
    assert "3 already stored, 1 played now" in out
    assert all(a.equals(b) for a, b in zip(one, tables(exp_dir / "j2")))
    manifest = json.loads((exp_dir / "j2" / "manifest.json").read_text())
    assert manifest["summary"]["games"] == 16
    # issue #21: the balance metrics of the stored games, shares clustered by board
    balance = manifest["summary"]["balance"]
    assert balance["games"] == 16 and len(balance["seats"]) == 4
    assert sum(x["share"] for x in balance["outcomes"].values()) == pytest.approx(1.0)
    assert sum(w["wins"] for w in balance["wld"]) + balance["wld"][0]["no_winner"] == 16
    assert "balance (1 - largest gap" in out
    import pandas as pd
    per_card = pd.read_csv(exp_dir / "j2" / "cards.csv")
    assert per_card["games"].sum() == 16 * 20  # every seat's five cards, every game
    assert per_card["wins"].sum() <= 16 * 5 and (per_card["alive"] <= per_card["games"]).all()
    rows = pd.concat([t.to_pandas() for t in one])
    assert per_card["kills"].sum() == sum(rows[f"seat{s}_card{k}_kills"].sum()
                                          for s in range(1, 5) for k in range(1, 6))

    exp.write_text(SMALL.replace("root_seed = 5", "root_seed = 6"), encoding="utf-8")
    code, _, err = run(capsys, "run", exp, "--resume", "--out", exp_dir / "j2", "--no-progress")
    assert code == 2 and err.startswith(f"error: {exp}:3: root_seed: 6, but the run stored") \
        and len(err.splitlines()) == 1, err
    # --resume into a folder with no batch of the run (a mistyped --out) says it starts afresh
    code, out, err = run(capsys, "run", exp, "--resume", "--out", exp_dir / "j3", "--no-progress")
    assert code == 0 and f"no batch of this run in {exp_dir / 'j3'}; starting it" in err
    assert "0 already stored, 4 played now" in out


def _workers(pid: int) -> list[int]:
    """The loky worker processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if parent == pid and b"LokyProcess" in cmdline:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie nobody reaped is not running)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_killed_run_keeps_its_batches_and_resume_finishes_it(exp_dir):
    """Kill a running `bwlab run --jobs 2` (SIGKILL: no clean-up at all) once a batch is stored:
    its worker processes stop within seconds (issue #22 item 2: "workers stop when the main
    process dies"), every stored batch is a complete Parquet file, and --resume plays the rest
    across the batch boundaries — each game exactly once, the batches stored before the kill
    untouched."""
    import os
    import signal
    import subprocess
    import sys
    import time

    exp = exp_dir / "tiny.toml"
    exp.write_text(SMALL.replace("games = 16", "games = 96").replace("batch_size = 4",
                                                                      "batch_size = 2"))
    out = exp_dir / "killed"
    cmd = [sys.executable, "-m", "sim.cli.main", "run", str(exp), "--out", str(out),
           "--no-progress"]
    proc = subprocess.Popen(cmd + ["--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    # no wall-clock deadline for the first batch (a cold compile cache takes minutes): the loop
    # ends when a batch is stored or the run exits; the hour is only a guard against a hang
    deadline = time.monotonic() + 3600
    while not list(out.glob("batch-*.parquet")) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    workers = _workers(proc.pid)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    gone = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < gone:
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)], "workers outlived the killed run"
    before = {p.name: p.read_bytes() for p in out.glob("batch-*.parquet")}
    assert before, "no batch was stored before the run ended"
    for name in before:
        pq.read_table(out / name)  # complete files only: written under a temp name, then renamed
    done = subprocess.run(cmd + ["--jobs", "1", "--resume"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    games = np.concatenate([t.column("game").to_numpy() for t in tables(out)])
    np.testing.assert_array_equal(np.sort(games), np.arange(96))
    for name, data in before.items():
        assert (out / name).read_bytes() == data
