"""The games journal (sim/runner/journal.py): an interrupted command continues from the games it
had finished, and gives the very rows of an uninterrupted run.

The engine is deterministic in a call's inputs (each game's dice are child ``game`` of the root
seed), so a journal is safe exactly when its name covers every input: these tests interrupt a
call part-way, resume it and compare every result column with a run that never stopped, plant
damaged and foreign files, and check that any changed input (or engine source) names another
journal. Standard: "Results are written atomically and runs can resume."
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from sim.runner import journal
from tests._cli_kit import run, stopping_once

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def arena():
    from sim.catalogue.loader import load_catalogue
    from sim.engine.state.fields import POLICY_IDS
    from sim.runner.experiment import load_experiment
    from sim.runner.tasks import build_arena

    catalogue = load_catalogue(ROOT / "cards")
    exp = load_experiment(ROOT / "experiments/rarity.toml", catalogue.cards, tuple(POLICY_IDS),
                          games=60)
    return build_arena(catalogue, exp)


def _timeless(text: str) -> str:
    """A command's stdout without its wall time ("in 0.1 s")."""
    return re.sub(r" in [0-9.]+ s\b", " in - s", text)


def _kept(root: Path) -> int:
    """The games on disk under ``root``, each once, as the command counts them: a stop landing
    just after a part's rename leaves its rows pending, and the session writes them again."""
    rows = [np.load(p)["rows"] for p in root.glob("*/part-*.npz")]
    return int(np.unique(np.concatenate(rows)).size) if rows else 0


class Interrupt(RuntimeError):
    """A failure part-way (the journal keeps the games of any command that does not end)."""


class CtrlC(KeyboardInterrupt):
    """Ctrl-C as the CLI gets it (click turns it into exit 130)."""


def _sigterm_after_the_first_chunk(m) -> None:
    """``play_many`` patched (monkeypatch context ``m``) to send this process a real SIGTERM
    once, after its first chunk of games: the games of that chunk are finished, then the stop."""
    import signal

    from sim.ai import play as loop

    real, sent = loop.play_many, []

    def play_many(*a, **k):
        out = real(*a, **k)
        if not sent:  # once, after the first chunk of games
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)
        return out

    m.setattr(loop, "play_many", play_many)


def _interrupting_loop(monkeypatch, after_games: int, error=Interrupt):
    """The engine loop, raising Ctrl-C once ``after_games`` games were played; returns the list
    of games each engine call played."""
    from sim.ai import play as loop

    real, played = getattr(loop.play_many, "real", loop.play_many), []

    def play_many(*args, **kwargs):
        if sum(played) >= after_games:
            raise error
        out = real(*args, **kwargs)
        played.append(len(args[2]))
        return out

    play_many.real = real
    monkeypatch.setattr(loop, "play_many", play_many)
    return played


def test_an_interrupted_call_resumes_with_the_rows_of_a_run_that_never_stopped(
        arena, monkeypatch, tmp_path):
    from sim.runner import progress
    from sim.runner.tasks import play_games

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)  # every finished chunk reaches the disk
    whole = play_games(arena, 0, 60)  # no session: the loop's own call, no journal
    played = _interrupting_loop(monkeypatch, after_games=20)
    said = []
    with pytest.raises(Interrupt):
        with progress.reporting("test", quiet=True), journal.session(say=said.append):
            play_games(arena, 0, 60)
    first = sum(played)
    assert 20 <= first < 60 and said and "kept" in said[-1]
    assert len(list(tmp_path.glob("*/part-*.npz"))) >= 1

    played = _interrupting_loop(monkeypatch, after_games=10**9)
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 2.0)
    with progress.reporting("test", quiet=True), journal.session(say=said.append):
        resumed = play_games(arena, 0, 60)
    assert sum(played) == 60 - first  # only the games the first run had not finished
    assert "resuming" in said[-1]
    for name in whole:
        np.testing.assert_array_equal(whole[name], resumed[name], err_msg=name)
    assert list(tmp_path.iterdir()) == []  # a command that ends deletes its journal


def test_a_damaged_or_misshapen_part_is_ignored_and_the_games_are_played_again(
        arena, monkeypatch, tmp_path):
    from sim.runner import progress
    from sim.runner.tasks import play_games

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)
    whole = play_games(arena, 0, 24)
    _interrupting_loop(monkeypatch, after_games=8)
    with pytest.raises(Interrupt):
        with progress.reporting("test", quiet=True), journal.session():
            play_games(arena, 0, 24)
    (folder,) = tmp_path.iterdir()
    (folder / "part-000000001-broken00.npz").write_bytes(b"not a zip file")
    np.savez(folder / "part-000000002-wrongsha.npz", rows=np.arange(3), out=np.zeros((3, 2)))
    played = _interrupting_loop(monkeypatch, after_games=10**9)
    with progress.reporting("test", quiet=True), journal.session():
        again = play_games(arena, 0, 24)
    assert 0 < sum(played) < 24
    for name in whole:
        np.testing.assert_array_equal(whole[name], again[name], err_msg=name)


def test_a_part_unreadable_for_now_is_kept_for_a_later_run_and_a_damaged_one_deleted(
        monkeypatch, tmp_path):
    """A part that cannot be read at this moment (an I/O error, no file descriptor left) is
    finished games: skipped, not deleted (it used to be deleted as if damaged); the next run
    that can read it takes its games. A part that is not an archive is deleted."""
    import errno

    good = tmp_path / "part-000000000-aaaaaaaa.npz"
    np.savez(good, rows=np.arange(3), out=np.arange(6).reshape(3, 2))
    bad = tmp_path / "part-000000003-bbbbbbbb.npz"
    bad.write_bytes(b"not a zip file")
    real = journal.np.load

    def load(path, *a, **k):
        if Path(path) == good:
            raise OSError(errno.EMFILE, "Too many open files")
        return real(path, *a, **k)

    with monkeypatch.context() as m:
        m.setattr(journal.np, "load", load)
        call = journal.Call(tmp_path, 5, 2, None)
    assert not call.done.any() and good.exists() and not bad.exists()
    call = journal.Call(tmp_path, 5, 2, None)
    assert call.done.tolist() == [True, True, True, False, False]
    np.testing.assert_array_equal(call.out[:3], np.arange(6).reshape(3, 2))


def test_every_input_and_the_engine_source_name_their_own_journal(arena, monkeypatch):
    """A journal found under a key is only ever the games of the same inputs and engine: any
    changed input or source gives another key (so a stale journal can never be read)."""
    inputs = {"stacked": arena.stacked, "cards": arena.cards, "board_of": np.arange(4),
              "team_cards": np.zeros((4, 4, 5), np.int64), "root_seed": 7,
              "policies": arena.policies, "seats": np.zeros(4, np.int64),
              "games": np.arange(4), "budgets": None, "weights": (None,) * 4}
    base = journal.call_key(inputs)
    assert journal.call_key(dict(inputs)) == base
    changed = []
    static = arena.stacked[0]
    bumped = static._replace(move_roll=static.move_roll + 1)
    changed.append({**inputs, "stacked": (bumped, *arena.stacked[1:])})
    changed.append({**inputs, "root_seed": 8})
    changed.append({**inputs, "games": np.arange(1, 5)})
    changed.append({**inputs, "seats": np.ones(4, np.int64)})
    changed.append({**inputs, "board_of": np.arange(4).astype(np.int32)})  # the type counts
    changed.append({**inputs, "weights": (np.ones(3),) + (None,) * 3})
    keys = {journal.call_key(c) for c in changed}
    assert base not in keys and len(keys) == len(changed)
    monkeypatch.setattr(journal, "_code_identity", lambda: b"another engine source")
    assert journal.call_key(inputs) != base
    with pytest.raises(journal.Unjournaled):
        journal.call_key({**inputs, "cards": object()})


def test_off_writes_nothing_and_an_unwritable_root_never_fails_a_command(
        capsys, monkeypatch, tmp_path):
    args = ("fairness", ROOT / "experiments/teams/example.toml", "--games", 16, "--round", 8,
            "--boards", 4, "--quiet")
    monkeypatch.setenv("BWLAB_JOURNAL", "off")
    code, out, _ = run(capsys, *args)
    assert code in (0, 1, 3)
    blocked = tmp_path / "file"
    blocked.write_text("a file where the journal's folder would go")
    monkeypatch.setenv("BWLAB_JOURNAL", str(blocked))
    again = run(capsys, *args)
    assert (again[0], _timeless(again[1])) == (code, _timeless(out))
    assert os.listdir(tmp_path) == ["file"]


def test_the_cli_says_what_it_kept_and_continues_from_it(capsys, monkeypatch, tmp_path):
    """Ctrl-C in ``bwlab fairness``: exit 130, one line naming the games kept; the same command
    again says it resumes and prints the verdict of a run that never stopped."""
    args = ("fairness", ROOT / "experiments/teams/example.toml", "--games", 64, "--round", 32,
            "--boards", 8)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "uninterrupted"))
    code, whole, _ = run(capsys, *args)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)
    with monkeypatch.context() as m:
        # inside the first look (32 games): a verdict settled there plays no second round
        _interrupting_loop(m, after_games=16, error=CtrlC)
        stopped, _, err = run(capsys, *args)
    assert stopped == 130 and "finished games kept in" in err
    again, out, err = run(capsys, *args)
    assert (again, _timeless(out)) == (code, _timeless(whole))
    assert "resuming an interrupted run" in err
    assert list((tmp_path / "j").iterdir()) == []


def test_an_identical_second_call_reuses_the_games_and_says_no_resume(arena, monkeypatch,
                                                                      tmp_path):
    """Two identical calls in one command (the drift gate's "before" and "now" when the cards
    differ by a comment only): the second plays nothing, since the first's games are in the
    journal, but nothing was interrupted, so nothing may say "resuming"; the summary names
    them as this command's own. Games an earlier, interrupted command left still resume."""
    import io

    from sim.runner import progress
    from sim.runner.tasks import play_games
    from tests._cli_kit import eager_progress

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path))
    eager_progress(monkeypatch)
    played, said, log = _interrupting_loop(monkeypatch, after_games=10**9), [], io.StringIO()
    with progress.reporting("test", stream=log, heartbeat=False), \
            journal.session(say=said.append):
        with progress.stage("twice", 48):
            first = play_games(arena, 0, 24)
            second = play_games(arena, 0, 24)
    assert sum(played) == 24 and said == []
    for name in first:
        np.testing.assert_array_equal(first[name], second[name], err_msg=name)
    summary = log.getvalue().splitlines()[-1]
    assert summary.endswith("(24 of them the same games as this command had already played, "
                            "not played again)") and "resumed" not in summary, summary

    _interrupting_loop(monkeypatch, after_games=8)  # an interrupted command leaves some games
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)
    with pytest.raises(Interrupt):
        with progress.reporting("test", quiet=True), journal.session():
            play_games(arena, 0, 24)
    played, log = _interrupting_loop(monkeypatch, after_games=10**9), io.StringIO()
    with progress.reporting("test", stream=log, heartbeat=False), \
            journal.session(say=said.append):
        with progress.stage("again, twice", 48):
            play_games(arena, 0, 24)
            play_games(arena, 0, 24)
    left = 24 - sum(played)
    assert 8 <= left < 24 and len(said) == 1 and said[0].startswith("resuming an interrupted")
    summary = log.getvalue().splitlines()[-1]
    assert f"({left} of them resumed from the journal; 24 of them the same games as this " \
        "command had already played" in summary, summary


def test_sigterm_keeps_the_finished_games_says_so_and_exits_143(capsys, monkeypatch, tmp_path):
    """SIGTERM, how CI cancels a job, killed the command at once: no journal flush, no word,
    nothing kept. Now it ends as Ctrl-C does: every finished game flushed (even with no
    periodic flush due), a line naming them, exit 143, the handler restored; the same command
    again resumes and prints an uninterrupted run's verdict. (A stand-in handler catches a
    SIGTERM the command does not handle, so a regression fails here instead of killing the
    test run.)"""
    import signal

    class Unhandled(Exception):
        pass

    def stand_in(signum, frame):
        raise Unhandled("SIGTERM reached the test's handler: the command did not handle it")

    args = ("fairness", ROOT / "experiments/teams/example.toml", "--games", 64, "--round", 32,
            "--boards", 8)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "uninterrupted"))
    code, whole, _ = run(capsys, *args)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 1e9)  # only the stop itself can flush
    previous = signal.signal(signal.SIGTERM, stand_in)
    try:
        with monkeypatch.context() as m:
            _sigterm_after_the_first_chunk(m)
            stopped, _, err = run(capsys, *args)
        assert signal.getsignal(signal.SIGTERM) is stand_in
    finally:
        signal.signal(signal.SIGTERM, previous)
    kept = _kept(tmp_path / "j")
    assert stopped == 143 and kept > 0, err
    assert f"fairness: {kept:,} finished games kept in {tmp_path / 'j'}" in err, err
    assert err.strip().splitlines()[-1] == "fairness: terminated (SIGTERM)", err
    again, out, err = run(capsys, *args)
    assert (again, _timeless(out)) == (code, _timeless(whole))
    assert "resuming an interrupted run" in err


ARGS = ("fairness", ROOT / "experiments/teams/example.toml", "--games", 64, "--round", 32,
        "--boards", 8)


@pytest.mark.parametrize("lands", ["before the rename", "after the rename"])
def test_a_stop_landing_inside_the_last_flush_keeps_the_games(capsys, monkeypatch, tmp_path,
                                                              lands):
    """A stop is an exception raised between two bytecodes of the main thread, and the main
    thread flushes last, when its games are done, so a SIGTERM sent as a chunk ends often
    lands inside that very write (it made the test above fail now and then: "terminated
    (SIGTERM) before any game finished", no part on disk). The write used to drop its rows
    before the part had its name, losing finished games. Here the stop is raised inside the
    first write, before or just after its rename: the command still keeps every finished game,
    counts each once, exits 143 and resumes to an uninterrupted run's verdict."""
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "uninterrupted"))
    code, whole, _ = run(capsys, *ARGS)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 1e9)  # the call's own last flush is the first
    name = "savez" if lands == "before the rename" else "replace"
    with monkeypatch.context() as m:
        # inside the write the part never gets its name; just after the rename it has it, and
        # its rows are still pending
        stops = stopping_once(m, journal.np if name == "savez" else journal.os, name,
                               after=name == "replace")
        stopped, _, err = run(capsys, *ARGS)
    kept, parts = _kept(tmp_path / "j"), len(list((tmp_path / "j").glob("*/part-*.npz")))
    assert stopped == 143 and stops and kept > 0, err
    assert parts == (1 if name == "savez" else 2), parts  # after the rename: written twice
    assert f"fairness: {kept:,} finished games kept in {tmp_path / 'j'}" in err, err
    again, out, err = run(capsys, *ARGS)
    assert (again, _timeless(out)) == (code, _timeless(whole))
    assert "resuming an interrupted run" in err


def test_a_stop_landing_in_the_clean_up_of_an_ended_command_says_it_had_ended(
        capsys, monkeypatch, tmp_path):
    """A command that has ended deletes its journal; a SIGTERM landing in that clean-up used to
    end it with "terminated (SIGTERM) before any game finished: nothing to keep", after the
    whole verdict had been printed. Now: exit 143 (it was terminated), the verdict printed as an
    uninterrupted run prints it, a line saying it had ended, and the clean-up finished (no
    leftover journal for a later run to "resume" from)."""
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "uninterrupted"))
    code, whole, _ = run(capsys, *ARGS)
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    with monkeypatch.context() as m:
        stops = stopping_once(m, journal.shutil, "rmtree")  # the session's discard
        stopped, out, err = run(capsys, *ARGS)
    assert stops and stopped == 143, err
    assert _timeless(out) == _timeless(whole)
    assert err.strip().splitlines()[-1] == ("fairness: terminated (SIGTERM) as it ended, after "
                                            "its output was complete"), err
    assert "nothing to keep" not in err and "kept in" not in err, err
    assert not list((tmp_path / "j").glob("*/part-*.npz"))  # the clean-up was finished


def _interrupted_once(capsys, monkeypatch, root: Path, args) -> str:
    """A fairness run stopped inside its first journal write (before the rename): the session's
    last flush writes the part. Returns stderr."""
    monkeypatch.setenv("BWLAB_JOURNAL", str(root))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 1e9)
    with monkeypatch.context() as m:
        stops = stopping_once(m, journal.np, "savez")
        code, _, err = run(capsys, *args)
    assert code == 143 and stops and any(root.glob("*/part-*.npz")), err
    return err


def test_a_stop_while_a_resumed_call_reads_its_parts_counts_them_as_kept(capsys,
                                                                             monkeypatch,
                                                                             tmp_path):
    """Journal.open built the Call (whose __init__ reads every part of the folder: Call._load)
    before it added the folder to Journal.folders, the list kept() counts. A stop landing while
    a resumed command read an earlier run's parts: kept() found no folder, the session said
    nothing and the CLI said "terminated (SIGTERM) before any game finished: nothing to keep",
    though the parts were still on disk and the next run resumed from every one of them. The
    folder is now counted before its parts are read."""
    root = tmp_path / "j"
    _interrupted_once(capsys, monkeypatch, root, ARGS)
    on_disk = _kept(root)
    with monkeypatch.context() as m:
        stops = stopping_once(m, journal.np, "load")  # the first read is Call._load's
        code, _, err = run(capsys, *ARGS)
    assert code == 143 and stops, err
    assert _kept(root) == on_disk > 0  # nothing was deleted
    # before: err was only "... terminated (SIGTERM) before any game finished: nothing to keep"
    assert f"fairness: {on_disk:,} finished games kept in {root}" in err, err
    assert "nothing to keep" not in err, err
    again, _, err = run(capsys, *ARGS)
    assert again in (0, 1, 3) and "resuming an interrupted run" in err, err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_real_sigterm_ends_a_journaled_command_in_its_own_process_with_143(tmp_path):
    """The test above, with a real SIGTERM sent to the command in a process of its own (as CI's
    cancel and ``kill`` send it), once the journal has flushed a first part: exit 143, not the
    -15 of a process killed unhandled; the finished games (those flushed at the stop too) kept
    and counted in one line, then the terminated line; no traceback, nothing written. Rarity,
    not fairness: its games are a fixed number, far more than it plays before the signal
    (fairness may settle and end first); one engine thread, to keep the test light."""
    from tests._cli_kit import sigterm_midway

    root, reports = tmp_path / "j", tmp_path / "reports"
    code, out, err = sigterm_midway(
        ("rarity", "--games", 100_000, "--ablation", 0, "--out", reports, "-q"),
        ready=lambda: any(root.glob("*/part-*.npz")),
        env={"BWLAB_JOURNAL": str(root), "NUMBA_NUM_THREADS": "1"})
    kept = _kept(root)
    assert code == 143 and 0 < kept < 100_000 and out == "", err
    assert not any(reports.glob("*")), "an interrupted rarity wrote its results"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.splitlines() == [
        f"rarity: {kept:,} finished games kept in {root}: the same command, run again, "
        "continues from them",
        "rarity: terminated (SIGTERM)"], err


# every command that keeps a journal, in its tiny form (fairness: the tests above); {tmp}: the
# test's folder, {n}: the run's own output folder
RESUMED = [
    ("rarity", ["--experiment", "{tmp}/pool.toml", "--ablation", "1", "--format", "json",
                "--out", "{tmp}/out-{n}"]),
    ("ladder", ["--games", "32", "--players", "random,greedy", "--boards", "2", "--format",
                "json"]),
    ("power-levels", ["--games", "64", "--format", "json", "--out", "{tmp}/out-{n}/levels.csv",
                      "--cards", "{tmp}/lab/cards"]),
    ("draft", ["--random", "20", "--games", "16", "--no-alternating", "--proposals", "1",
               "--format", "json"]),
    ("rulings", ["--games", "16", "--boards", "2", "--rating-games", "0", "--only",
                 "dice.tier_faces", "--format", "json", "--out", "{tmp}/out-{n}/rulings.json"]),
    ("drift", ["--baseline", "{tmp}/baseline.json", "--games", "16", "--cards", "{tmp}/lab/cards",
               "--format", "json"]),
    ("report", ["--out", "{tmp}/out-{n}", "--teams", ROOT / "experiments/teams/example.toml",
                "--fairness-games", "16", "--rating-games", "0"]),
]


@pytest.mark.parametrize("command, args", RESUMED, ids=[c[0] for c in RESUMED])
def test_every_journaled_command_stopped_by_sigterm_resumes_to_an_uninterrupted_run(
        capsys, monkeypatch, tmp_path, command, args):
    """Each command that keeps a journal, stopped by a real SIGTERM after its first games and
    run again, prints (and writes) what a run that never stopped prints: the standard's "a
    resumed run" case, command by command (fairness: the tests above)."""
    import json

    from tests.test_progress_cli import TINY_POOL, tiny_lab, without_seconds

    (tmp_path / "pool.toml").write_text(TINY_POOL, encoding="utf-8")
    if command in ("power-levels", "drift"):
        tiny_lab(tmp_path / "lab")
    if command == "drift":  # a baseline of the shipped cards: the gate replays its copy too
        monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "base"))
        code, _, err = run(capsys, "drift", "--baseline", tmp_path / "baseline.json", "--update",
                           "--games", "16", "--quiet")
        assert code == 0, err

    def command_run(n: int):
        argv = [str(a).replace("{tmp}", str(tmp_path)).replace("{n}", str(n)) for a in args]
        for d in argv:
            if d.endswith((".csv", ".json")) and "out-" in d:
                Path(d).parent.mkdir(parents=True, exist_ok=True)
        code, out, err = run(capsys, command, *argv, "--quiet")
        out = out.replace(f"out-{n}", "out-n")
        # not the page (its footer holds the time it was made), nor a JSON file's wall time
        files = {p.name: (without_seconds(json.loads(p.read_text(encoding="utf-8")))
                          if p.suffix == ".json" else p.read_bytes())
                 for p in sorted((tmp_path / f"out-{n}").glob("*")) if p.suffix != ".html"}
        return code, (without_seconds(json.loads(out)) if out.startswith("{")
                      else _timeless(out)), files, err

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "uninterrupted"))
    whole = command_run(0)
    assert whole[0] in (0, 1, 3), whole[3]
    assert bool(whole[2]) == any("out-{n}" in str(a) for a in args)  # its files are compared
    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)
    with monkeypatch.context() as m:
        _sigterm_after_the_first_chunk(m)
        stopped, _, _, err = command_run(1)
    assert stopped == 143 and "finished games kept in" in err, err
    code, out, files, err = command_run(1)
    assert "resuming an interrupted run" in err, err
    assert (code, out, files) == whole[:3]
