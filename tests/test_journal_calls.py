"""The games journal (sim/runner/journal.py) call by call, in-process on one arena (the
module-scoped ``arena``, built once): an interrupted call continues from the games it had
finished and gives the very rows of an uninterrupted run, a damaged or misshapen part is ignored
and its games played again, a part unreadable for now is kept for a later run, every input (and
the engine source) names its own journal, and an identical second call reuses the games.

The engine is deterministic in a call's inputs (each game's dice are child ``game`` of the root
seed), so a journal is safe exactly when its name covers every input. Standard: "Results are
written atomically and runs can resume."
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.runner import journal
from tests._journal_kit import Interrupt, ROOT, _interrupting_loop


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


def test_a_command_running_now_with_the_same_call_is_neither_resumed_nor_removed(tmp_path):
    """Two commands at once in one clone making an identical call (the advice audit of stop 74:
    the second said "resuming an interrupted run" though nothing was interrupted, and the
    first's clean-up removed the folder under it): the second journals into a folder of its
    own, finds nothing, says nothing, and keeps its games when the first ends. A command that
    stops lets its lock go (a dead process holds none), and the next run resumes its games."""
    inputs = {"games": np.arange(6)}
    said_a, said_b = [], []
    a, b = journal.Journal(tmp_path, said_a.append), journal.Journal(tmp_path, said_b.append)
    first = a.open(inputs, 4, 2, None)
    first.out[:2] = 7
    first.record(np.array([0, 1]))
    first.flush()
    second = b.open(inputs, 4, 2, None)
    assert second.found == 0 and said_b == [] and second.folder != first.folder
    second.out[:] = 1
    second.record(np.arange(4))
    second.flush()
    a.discard()
    a.release()
    assert not first.folder.exists() and b.kept() == 4
    b.release()                                  # b stops: its folder is left, unlocked
    said_c = []
    again = journal.Journal(tmp_path, said_c.append).open(inputs, 4, 2, None)
    assert again.folder == first.folder and again.found == 0  # a's ended: nothing to resume
    stopped = journal.Journal(tmp_path / "x", None)
    call = stopped.open(inputs, 4, 2, None)
    call.out[:3] = 5
    call.record(np.arange(3))
    call.flush()
    stopped.release()                            # as the process dies
    said_d = []
    resumed = journal.Journal(tmp_path / "x", said_d.append).open(inputs, 4, 2, None)
    assert resumed.found == 3 and resumed.folder == call.folder
    assert len(said_d) == 1 and said_d[0].startswith("resuming an interrupted run")
