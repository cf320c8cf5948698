"""What the progress line says when a command stops or ends (the lab's standard: "Anything that
runs longer than about two seconds shows progress on stderr (stage, done/total, time left).
Results are written atomically and runs can resume").

An interrupted stage's closing line counts exactly the games the command kept, those a resume
will not play again: a game that finished as the stop landed (its chunk recorded in the games
journal, its batch stored) but had not yet been counted into the line made the closing line
say fewer games than the journal's "N finished games kept" or the run's batches on disk.
"""

from __future__ import annotations

import re

from sim.runner import progress
from tests._cli_kit import Clock, eager_progress, run, stopping_once
from tests._journal_kit import ROOT
from tests.test_journal_commands import _kept

TEAMS = ROOT / "experiments/teams/example.toml"


def _counting_games(*a, **k) -> bool:
    """Whether the innermost open stage counts games (not the boards built before them)."""
    p = progress.current()
    return bool(p and p.stages and p.stages[-1].unit == "games")


def _closing(err: str, command: str, stage: str) -> int:
    """The games the closing line of ``stage`` states."""
    said = re.search(rf"^{command}: {re.escape(stage)}: ([\d,]+) games in ", err, re.M)
    assert said is not None, err
    return int(said[1].replace(",", ""))


def test_a_stopped_fairness_states_the_games_its_journal_kept(capsys, monkeypatch, tmp_path):
    """SIGTERM (the CLI's ``Terminated``) lands as the first chunk of games is counted: that
    chunk, and the one the other engine thread finishes while the pool shuts down, are in the
    journal. Before the fix the closing line said "0 games in 0 s" beside "4 finished games
    kept"."""
    eager_progress(monkeypatch)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    with monkeypatch.context() as m:
        stops = stopping_once(m, progress, "advance", when=_counting_games)
        code, _, err = run(capsys, "fairness", TEAMS, "--games", "64", "--round", "32",
                           "--boards", "4")
    kept = _kept(tmp_path / "j")
    assert stops and code == 143 and kept > 0, err
    assert f"fairness: {kept:,} finished games kept in " in err, err
    assert _closing(err, "fairness", "duplicate play of the four teams") == kept


def test_a_stopped_run_states_the_games_of_the_batches_it_stored(capsys, monkeypatch, exp_dir):
    """A batch played by a worker (here: in this process, outside the line, as a loky or Dask
    worker plays it) is stored, then the stop lands before the line counts it. Before the fix
    the closing line said "0 games" with batch 0 (4 games) on disk, not played again by
    --resume."""
    from sim.runner import parallel, tasks
    from sim.runner.summary import RunTotals

    def as_a_worker(args, todo, policies, jobs):
        for b in todo:
            watching, progress._current = progress._current, None  # a worker has no line
            try:
                result = tasks.run_batch(*args, b, policies, None)
            finally:
                progress._current = watching
            yield result, None

    eager_progress(monkeypatch)
    out = exp_dir / "out"
    with monkeypatch.context() as m:
        m.setattr(parallel, "_local_results", as_a_worker)
        stops = stopping_once(m, RunTotals, "add")  # just after the first batch's write
        code, _, err = run(capsys, "run", exp_dir / "tiny.toml", "--jobs", "1", "--out", out)
    assert stops and code == 143, err
    stored = len(list(out.glob("batch-*.parquet")))
    assert stored == 1 and "interrupted: 1 of 4 batches stored" in err, err
    assert _closing(err, "run", "playing tiny") == 4 * stored


def test_a_stopped_run_does_not_count_the_games_of_a_batch_it_never_stored(capsys, monkeypatch,
                                                                           exp_dir):
    """With one job the batches play in this process and count their games as they finish; a
    stop after the second batch's games, before it is checked and stored, leaves it unstored
    (--resume plays it again), so the closing line must not count its games."""
    from sim.runner import parallel

    eager_progress(monkeypatch)
    out = exp_dir / "out"
    with monkeypatch.context() as m:
        stops = stopping_once(m, parallel, "check_result", when=lambda result, *a: result[0] == 1)
        code, _, err = run(capsys, "run", exp_dir / "tiny.toml", "--jobs", "1", "--out", out)
    assert stops and code == 143, err
    stored = len(list(out.glob("batch-*.parquet")))
    assert stored == 1 and "interrupted: 1 of 4 batches stored" in err, err
    assert _closing(err, "run", "playing tiny") == 4 * stored


def test_the_closing_rate_is_the_games_own_not_diluted_by_building_the_boards():
    """``run --jobs 1`` builds each batch's boards inside "playing smoke" (a stage counted in
    boards, with a closing line of its own); the games' closing line divided its games by the
    whole stage, boards included: "64 games in 10 s, 6.4 games/s" for games that took 8 s.
    It now gives the games' own rate and says what its time includes."""
    import io

    clock, out = Clock(), io.StringIO()
    p = progress.Progress("run", stream=out, clock=clock, tty=False, delay=0.0)
    games = p.open("playing smoke", 64)
    boards = p.open("building the boards", 4, unit="boards")
    clock.now += 2.0
    p.advance(4)
    p.close(boards)
    for _ in range(4):
        clock.now += 2.0
        p.advance(16)
    p.close(games)
    closing = out.getvalue().splitlines()[-1]
    assert closing == ("run: playing smoke: 64 games in 10 s (2 s of it building the boards), "
                       "8.0 games/s"), closing


# -- the outer stages of play and report count their parts ---------------------------------

def _stage_lines(err: str, command: str, stage: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith(f"{command}: {stage}")
            and not ln.startswith(f"{command}: {stage} >")]


def test_play_counts_its_one_game(capsys, monkeypatch):
    """``play`` drew "playing the game (greedy) (1 s so far)", then "done in 1 s": a stage with
    no total, though it plays exactly one game."""
    eager_progress(monkeypatch)
    code, _, err = run(capsys, "play", "--teams", TEAMS, "--seed", "1")
    assert code == 0, err
    lines = _stage_lines(err, "play", "playing the game (greedy)")
    assert lines and all(re.fullmatch(r"play: playing the game \(greedy\): ([01]/1 game, \d+ s so "
                                      r"far|1 game in \d+ s)", ln) for ln in lines), err
    assert lines[-1].startswith("play: playing the game (greedy): 1 game in "), err


def test_a_watched_play_counts_its_rotations_against_the_cap(capsys, monkeypatch, tmp_path):
    """Recording each turn (``--png-every``, ``--gif``, ``--html``) drew "playing (recording
    each turn) (1 s so far)": the game ends by the rotation cap (cards/rules.toml [game]
    rotation_cap = 60) at the latest, a total known in advance."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "play", "--teams", TEAMS, "--seed", "1", "--png-every", "100",
                         tmp_path / "frames")
    assert code == 0, err
    rotation = int(re.search(r"rotation (\d+)", out)[1])
    lines = _stage_lines(err, "play", "playing (recording each turn)")
    assert lines, err
    assert all(re.fullmatch(r"play: playing \(recording each turn\): (\d+ of at most 60 "
                            r"rotations, .* left|\d+ rotations in .*)", ln) for ln in lines), err
    assert lines[-1].startswith(f"play: playing (recording each turn): {rotation} rotations in "
                                ), err


def test_report_counts_its_parts(capsys, monkeypatch, tmp_path):
    """``report`` drew "building the report (11 s so far)" between its parts: the fairness
    check and the sections without games are two parts, known before the first game."""
    eager_progress(monkeypatch)
    code, _, err = run(capsys, "report", "--out", tmp_path / "r", "--teams", TEAMS,
                       "--fairness-games", "8", "--rating-games", "0")
    assert code == 0, err
    lines = _stage_lines(err, "report", "building the report")
    assert "report: building the report: 1/2 parts, 0 s so far" in [
        re.sub(r"\d+ s so far", "0 s so far", ln) for ln in lines], err
    assert lines[-1].startswith("report: building the report: 2 parts in "), err
