"""A Ctrl-C that Python drops is raised again, so a stopped command stops (the guide: results
are written atomically, runs can resume; a stop must not be lost).

Python runs a signal's handler in whatever code runs when the signal comes; inside a weakref
callback (matplotlib fires them while drawing) the KeyboardInterrupt is printed as "Exception
ignored" and dropped. The audit of stop 67 saw ``compare-systems`` carry on after such a Ctrl-C,
write its files and exit 0. ``sim.stops`` notes the dropped stop and raises it again before any
result is renamed into place, at the next progress step, or when the command returns."""

from __future__ import annotations

import signal
import sys
import threading
import weakref

import pytest

from sim.atomic import atomic_paths
from sim.runner import progress
from sim.stops import dropped_stops_kept, raise_dropped
from tests._cli_kit import run


class _Thing:
    pass


def _drop_a_stop(send=lambda: signal.raise_signal(signal.SIGINT)):
    """A Ctrl-C landing in a weakref callback, as in matplotlib: ``send`` runs inside the
    callback (a real SIGINT by default: its handler runs at once, in the callback)."""
    thing = _Thing()
    ref = weakref.ref(thing, lambda _: send())
    del thing  # the callback runs here; Python drops what it raises
    return ref


@pytest.fixture
def ctrl_c(request):
    """Ctrl-C's handler as a command has it (an xdist worker ignores SIGINT)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))


def test_a_dropped_stop_lands_no_result_and_is_raised(tmp_path, ctrl_c):
    target = tmp_path / "table.csv"
    target.write_text("old\n")
    with dropped_stops_kept():
        with pytest.raises(KeyboardInterrupt):
            with atomic_paths([target]) as (tmp,):
                tmp.write_text("new\n")
                _drop_a_stop()  # dropped by Python: the block itself carries on
                tmp.write_text("new, complete\n")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]  # no temporary file left


def test_outside_the_block_python_drops_the_stop_as_before(tmp_path, ctrl_c):
    """The control: without :func:`dropped_stops_kept` the stop is lost and the file lands (the
    behaviour the audit found); this is what the block changes."""
    target = tmp_path / "table.csv"
    hook, seen = sys.unraisablehook, []
    sys.unraisablehook = lambda u: seen.append(u.exc_type)
    try:
        with atomic_paths([target]) as (tmp,):
            _drop_a_stop()
            tmp.write_text("new\n")
    finally:
        sys.unraisablehook = hook
    assert seen == [KeyboardInterrupt] and target.read_text() == "new\n"


def test_a_dropped_stop_is_raised_at_the_next_progress_step_and_only_on_the_main_thread(ctrl_c):
    with dropped_stops_kept(), progress.reporting("test", quiet=True):
        _drop_a_stop()
        worker = threading.Thread(target=progress.advance)  # a worker's advance: no raise
        worker.start()
        worker.join()
        with pytest.raises(KeyboardInterrupt):
            with progress.stage("next step", 3):
                pass
        raise_dropped()  # raised once: nothing left


def test_a_dropped_sigterm_keeps_its_own_class():
    """The CLI's SIGTERM raises Terminated (exit 143): dropped and raised again, it stays one."""
    from sim.cli.terminate import Terminated

    def terminated():
        raise Terminated

    with pytest.raises(Terminated):
        with dropped_stops_kept():
            _drop_a_stop(terminated)


def test_the_clean_up_of_a_stop_already_unwinding_still_writes(tmp_path, ctrl_c):
    """A stop dropped, then a second Ctrl-C unwinding: the clean-up (the games journal's last
    flush) must still write its file; the dropped stop adds nothing."""
    target = tmp_path / "journal.csv"
    with dropped_stops_kept():
        _drop_a_stop()
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            with atomic_paths([target]) as (tmp,):
                tmp.write_text("kept games\n")
    assert target.read_text() == "kept games\n"


def test_other_unraisable_errors_still_reach_the_previous_hook():
    hook, seen = sys.unraisablehook, []
    sys.unraisablehook = lambda u: seen.append(u.exc_type)
    try:
        with dropped_stops_kept():
            _drop_a_stop(lambda: 1 / 0)
        assert seen == [ZeroDivisionError]
    finally:
        sys.unraisablehook = hook


def test_compare_systems_ctrl_c_dropped_while_drawing_stops_it(tmp_path, monkeypatch, capsys,
                                                               ctrl_c):
    """A real SIGINT inside a weakref callback while the figure is saved: the command used to
    finish, replace its files and exit 0 (with Python's "Exception ignored" traceback on
    stderr); now it stops with Ctrl-C's 130 and the old table and figure stay."""
    import matplotlib.figure

    out = tmp_path / "cmp"
    out.mkdir()
    names = ["compare_systems.csv", "compare_systems.png"]
    for name in names:
        (out / name).write_text(f"old {name}\n")
    real, drawn = matplotlib.figure.Figure.savefig, []

    def savefig(self, *args, **kwargs):
        _drop_a_stop()
        real(self, *args, **kwargs)  # the drawing carries on after the dropped stop
        drawn.append(True)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    code, _, err = run(capsys, "compare-systems", "--out", out)
    assert drawn == [True]
    assert code == 130 and "aborted" in err and "Exception ignored" not in err
    assert {p.name: p.read_text() for p in out.iterdir()} == {n: f"old {n}\n" for n in names}


def test_a_stop_dropped_after_the_last_write_still_ends_the_command_as_stopped(
        tmp_path, monkeypatch, capsys, ctrl_c):
    """Dropped once every result was written (no later write or step raises it): the command's
    status is Ctrl-C's 130 with a line saying its output was complete, not 0."""
    from sim.cli import compare

    real = compare.click.echo

    def echo(*args, **kwargs):  # the table printed on stdout: after the files are written
        real(*args, **kwargs)
        if not kwargs.get("err"):
            _drop_a_stop()

    monkeypatch.setattr(compare.click, "echo", echo)
    code, _, err = run(capsys, "compare-systems", "--out", tmp_path / "cmp")
    assert code == 130
    assert "aborted (Ctrl-C) as it ended, after its output was complete" in err
    assert {p.name for p in (tmp_path / "cmp").iterdir()} == {"compare_systems.csv",
                                                             "compare_systems.png"}
