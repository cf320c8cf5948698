"""A command's results are written as one set: a stop leaves every old file or every new one
(the guide: "Results are written atomically"). ``sim.atomic.atomic_paths`` writes the set into
temporary files and renames them together with Ctrl-C and SIGTERM held. The audit of stop 67
found ``report`` and ``compare-systems`` writing file by file: a Ctrl-C between two files (for
``compare-systems`` any time while its figure was drawn, about a second) left a new table beside
an old figure or page."""

from __future__ import annotations

import os
import signal

import pytest

from sim import atomic
from sim.atomic import atomic_paths
from tests._cli_kit import run


def _old_files(folder, names):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text(f"old {name}\n")


def _contents(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_set_is_written_whole_or_not_at_all(tmp_path):
    names = ["a.csv", "b.csv", "page.html"]
    _old_files(tmp_path, names)
    with pytest.raises(RuntimeError):
        with atomic_paths([tmp_path / n for n in names]) as temps:
            temps[0].write_text("new a\n")
            raise RuntimeError("the work failed after the first file")
    assert _contents(tmp_path) == {n: f"old {n}\n".encode() for n in names}  # no temp left
    with atomic_paths([tmp_path / n for n in names]) as temps:
        for tmp, n in zip(temps, names):
            tmp.write_text(f"new {n}\n")
    assert _contents(tmp_path) == {n: f"new {n}\n".encode() for n in names}
    assert all(oct(os.stat(tmp_path / n).st_mode)[-3:] == "644" for n in names)


@pytest.mark.parametrize("sig, stop", [(signal.SIGINT, KeyboardInterrupt),
                                       (signal.SIGTERM, None)])
def test_a_stop_during_the_renames_is_raised_once_every_file_is_in_place(
        tmp_path, monkeypatch, request, sig, stop):
    """A real signal sent while the first file is renamed: the block finishes the set, then the
    command's own handler raises the stop (Ctrl-C's KeyboardInterrupt; SIGTERM's Terminated,
    the CLI's handler, installed here as the CLI does)."""
    from sim.cli.terminate import Terminated, terminated_as_interrupt

    names = ["a.csv", "b.csv", "c.csv"]
    _old_files(tmp_path, names)
    real, sent = os.replace, []

    def replace(src, dst):
        if not sent:
            sent.append(dst)
            os.kill(os.getpid(), sig)  # delivered at once: the handler runs in this thread
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    # Ctrl-C's handler as a command has it (an xdist worker ignores SIGINT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, previous))
    with terminated_as_interrupt():
        with pytest.raises(stop or Terminated):
            with atomic_paths([tmp_path / n for n in names]) as temps:
                for tmp, n in zip(temps, names):
                    tmp.write_text(f"new {n}\n")
    assert sent and _contents(tmp_path) == {n: f"new {n}\n".encode() for n in names}


def test_compare_systems_stopped_while_drawing_keeps_its_old_table_and_figure(
        tmp_path, monkeypatch, capsys):
    """Ctrl-C while the figure is saved (the table was already complete): before, the new
    table replaced the old one and the old figure stayed beside it."""
    import matplotlib.figure

    out = tmp_path / "cmp"
    names = ["compare_systems.csv", "compare_systems.png"]
    _old_files(out, names)

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", interrupted)
    code, _, _ = run(capsys, "compare-systems", "--out", out)
    assert code == 130
    assert _contents(out) == {n: f"old {n}\n".encode() for n in names}
    monkeypatch.undo()
    code, _, _ = run(capsys, "compare-systems", "--out", out)
    assert code == 0 and set(_contents(out)) == set(names)
    assert _contents(out)["compare_systems.png"][:8] == b"\x89PNG\r\n\x1a\n"


def test_report_stopped_while_writing_its_page_keeps_every_old_file(tmp_path, monkeypatch,
                                                                     capsys):
    """Ctrl-C while the page is written, after its tables: before, the tables were already
    new beside the old page."""
    from sim.report import html

    out = tmp_path / "rep"
    names = ["report.html", "combat_report.csv", "power_curve.csv", "rarity_summary.csv"]
    _old_files(out, names)
    args = ["report", "--out", str(out), "--teams", "", "--rating-games", "0"]

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(html.Page, "render", interrupted)
    code, _, _ = run(capsys, *args)
    assert code == 130
    assert _contents(out) == {n: f"old {n}\n".encode() for n in names}
    monkeypatch.undo()
    code, _, _ = run(capsys, *args)
    assert code == 0 and set(_contents(out)) == set(names)
    assert all(not p.read_bytes().startswith(b"old") for p in out.iterdir())
