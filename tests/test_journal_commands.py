"""The games journal (sim/runner/journal.py) from the command line: ``BWLAB_JOURNAL=off`` writes
nothing and an unwritable root never fails a command, the CLI says what it kept and continues
from it, and a stop at any moment (SIGTERM, a stop landing inside the last flush, in the clean-up
of an ended command or while a resumed call reads its parts) keeps the finished games and says
so, SIGTERM with exit 143; every journaled command stopped by SIGTERM resumes to the rows of an
uninterrupted run.

The engine is deterministic in a call's inputs (each game's dice are child ``game`` of the root
seed), so a journal is safe exactly when its name covers every input. Standard: "Results are
written atomically and runs can resume."
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

from sim.runner import journal
from tests._cli_kit import run, stopping_once
from tests._journal_kit import ROOT, _interrupting_loop


def _timeless(text: str) -> str:
    """A command's stdout without its wall time ("in 0.1 s")."""
    return re.sub(r" in [0-9.]+ s\b", " in - s", text)


def _kept(root: Path) -> int:
    """The games on disk under ``root``, each once, as the command counts them: a stop landing
    just after a part's rename leaves its rows pending, and the session writes them again."""
    rows = [np.load(p)["rows"] for p in root.glob("*/part-*.npz")]
    return int(np.unique(np.concatenate(rows)).size) if rows else 0


class CtrlC(KeyboardInterrupt):
    """Ctrl-C as the CLI gets it (click turns it into exit 130)."""


def _sigterm_after_the_first_chunk(m) -> None:
    """``play_many`` patched (monkeypatch context ``m``) to send this process a real SIGTERM
    once, after its first chunk of games: the games of that chunk are finished, then the stop."""
    import signal
    import threading

    from sim.ai import play as loop

    real, sent, once = loop.play_many, [], threading.Lock()

    def play_many(*a, **k):
        out = real(*a, **k)
        with once:  # two engine threads ending together: one signal (a second kills pytest)
            if sent:
                return out
            sent.append(signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # once, after the first chunk of games
        return out

    m.setattr(loop, "play_many", play_many)


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


def test_a_sigterm_landing_as_an_engine_thread_starts_keeps_the_games_it_finished(
        capsys, monkeypatch, tmp_path):
    """The games are played by a thread pool (sim/runner/playing.py) whose ``submit`` starts a
    thread and only then adds it to the threads ``shutdown(wait=True)`` joins. Under load the
    first engine thread can play its first chunk before ``Thread.start`` has returned on the
    main thread; a SIGTERM sent then landed inside ``start``, the thread was never joined, and
    the command counted the journal before the thread recorded its games: "terminated (SIGTERM)
    before any game finished: nothing to keep", the chunk's part written a moment later (the
    every-journaled-command test failed so, once, in a loaded full run: 2 of 150 stopped
    rarity runs under load). Here that schedule is made: the thread's first chunk ends and
    sends a real SIGTERM while ``start`` waits for it, and the thread records its games only
    once the command has counted (or after 1 s). Now ``submit`` holds the stop: every finished
    game is kept and counted, and no engine thread outlives the command."""
    import signal
    import threading

    from sim.ai import play as loop

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    monkeypatch.setattr(journal, "FLUSH_SECONDS", 0.0)
    played, counted = threading.Event(), threading.Event()
    real_play, real_start, real_kept = loop.play_many, threading.Thread.start, journal.Journal.kept

    def play_many(*a, **k):  # on the engine thread
        out = real_play(*a, **k)
        if not played.is_set():
            os.kill(os.getpid(), signal.SIGTERM)
            played.set()
            counted.wait(1.0)  # a command that does not wait for this thread counts first
        return out

    def start(self):  # on the main thread, inside the pool's submit
        real_start(self)
        if self.name.startswith("bwlab-games"):
            played.wait(30.0)  # the thread's first chunk ends before start returns

    def kept(self):
        try:
            return real_kept(self)
        finally:
            counted.set()

    with monkeypatch.context() as m:
        m.setattr(loop, "play_many", play_many)
        m.setattr(threading.Thread, "start", start)
        m.setattr(journal.Journal, "kept", kept)
        try:
            stopped, _, err = run(capsys, *ARGS)
        finally:
            outlived = [t for t in threading.enumerate() if t.name.startswith("bwlab-games")]
            for t in outlived:  # none may be left to play into a later test
                t.join()
    kept_on_disk = _kept(tmp_path / "j")
    assert played.is_set() and stopped == 143 and kept_on_disk > 0, err
    assert f"fairness: {kept_on_disk:,} finished games kept in {tmp_path / 'j'}" in err, err
    assert "nothing to keep" not in err, err
    assert not outlived, outlived


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
