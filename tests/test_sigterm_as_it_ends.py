"""A SIGTERM in the last instant of a journaled command ends it with a line and 143, never in
silence (sim/cli/terminate.py: end_watched).

The audit saw ``bwlab ladder`` exit 143 with its output complete and no line: the SIGTERM
handler covered only the command's block, which ends as soon as the result is printed; from
there until the process was gone (main returning, the ``atexit`` handlers, then about 0.35 s of
the interpreter's teardown with the compiled kernels loaded) SIGTERM had Python's default and
killed the process without a word (the shell's 143; -15 for a parent process). A sweep of kill
delays from 80 % to 105 % of the run time of ``ladder --games 32 --players random,greedy
--boards 2 --format json`` hit it in 11 runs of 120 (in 25 of 30 sent within 0.45 s after its
output). Each test sends the signal at one exact point of that tail."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
LADDER = ("ladder", "--games", "4", "--players", "random,greedy", "--boards", "2", "--format",
          "json")
LINE = "ladder: terminated (SIGTERM) as it ended, after its output was complete"


class Unhandled(Exception):
    """A SIGTERM that reached the test's own handler: the command had left it unhandled (in a
    command's process of its own, Python's default: killed without a word)."""


def _stand_in(signum, frame):
    raise Unhandled("SIGTERM reached the test's handler: the command did not handle it")


def test_a_sigterm_after_the_output_while_the_command_returns_says_so_and_exits_143(
        capsys, monkeypatch, tmp_path):
    """The signal lands as the progress session closes, after the journaled block (and its
    handler) had ended: it used to reach the handler before the command's (here the stand-in;
    in a process of its own Python's default, which killed it silently). Now: the JSON
    complete on stdout, the line, 143; and the handler before the command back after it."""
    from sim.runner import progress

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    real, sent = progress.Progress.finish, []

    def finish(self):
        sent.append(signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once, on this thread
        real(self)

    monkeypatch.setattr(progress.Progress, "finish", finish)
    previous = signal.signal(signal.SIGTERM, _stand_in)
    try:
        code, out, err = run(capsys, *LADDER)
        assert signal.getsignal(signal.SIGTERM) is _stand_in
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert sent and code == 143, err
    assert json.loads(out)["games"] == 4
    assert err.strip().splitlines()[-1] == LINE, err
    assert not any((tmp_path / "j").glob("*/part-*.npz"))  # the ended command kept nothing


# The command in a process of its own (``main()`` as ``bwlab`` calls it), with ``plant`` run
# inside the command (in the progress session's close, after the journaled block) to arm the
# signal for a later point of the process's end.
CHILD = """
import os, signal, sys
from sim.runner import progress
plant = {plant!r}
real = progress.Progress.finish
def finish(self):
    real(self)
    exec(plant, globals())
progress.Progress.finish = finish
from sim.cli.main import main
sys.argv = ["bwlab", *sys.argv[1:]]
sys.exit(main())
"""


def _child(tmp_path, plant: str):
    env = {**os.environ, "BWLAB_JOURNAL": str(tmp_path / "j")}
    p = subprocess.run([sys.executable, "-c", CHILD.format(plant=plant), *LADDER], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_a_sigterm_in_the_atexit_handlers_says_so_and_exits_143(tmp_path):
    """The signal sent by an ``atexit`` handler (joblib's, Dask's, a thread pool's run there),
    after ``main`` had returned 0: it used to kill the process (-15, the shell's 143) with
    nothing on stderr."""
    code, out, err = _child(tmp_path, "import atexit; atexit.register("
                                      "lambda: os.kill(os.getpid(), signal.SIGTERM))")
    assert "Traceback" not in err, err
    assert code == 143, (code, err)  # not -15: killed without a word
    assert json.loads(out)["games"] == 4
    assert err.strip().splitlines()[-1] == LINE, err


def test_a_sigterm_in_the_very_last_instant_says_so_and_exits_143(tmp_path):
    """The signal arriving once the process's last Python code has blocked it (the point after
    which Python used to give SIGTERM back to its default and spend ~0.35 s tearing the
    interpreter down, a SIGTERM there killing it silently): pending, it is found and said."""
    plant = ("real_mask = signal.pthread_sigmask\n"
             "def mask(how, sigs):\n"
             "    old = real_mask(how, sigs)\n"
             "    if how == signal.SIG_BLOCK and signal.SIGTERM in set(sigs):\n"
             "        os.kill(os.getpid(), signal.SIGTERM)\n"
             "    return old\n"
             "signal.pthread_sigmask = mask\n")
    code, out, err = _child(tmp_path, plant)
    assert "Traceback" not in err, err
    assert code == 143, (code, err)
    assert json.loads(out)["games"] == 4
    assert err.strip().splitlines()[-1] == LINE, err


def test_without_a_sigterm_the_process_ends_with_its_own_status_and_all_its_output(tmp_path):
    """The control: no signal, the same process ends 0 with the whole JSON and no line (the
    end that skips the interpreter's teardown keeps the status and flushes every stream)."""
    code, out, err = _child(tmp_path, "pass")
    assert code == 0, err
    assert json.loads(out)["games"] == 4
    assert "terminated" not in err, err


def test_a_command_that_takes_no_sigterm_is_left_to_pythons_default(capsys):
    """Commands outside the SIGTERM block (``validate``, ``board``...) are untouched: main's
    watch does nothing for them, and SIGTERM keeps its handler."""
    before = signal.getsignal(signal.SIGTERM)
    code, _, _ = run(capsys, "validate", ROOT / "cards")
    assert code == 0 and signal.getsignal(signal.SIGTERM) is before


def test_a_sigterm_while_the_journal_is_removed_is_a_stop_not_a_bad_descriptor(
        capsys, monkeypatch, tmp_path):
    """A SIGTERM that lands just after ``shutil.rmtree``'s ``os.close`` returned, while the
    finished command removes its games journal: ``rmtree``'s ``finally`` closed the descriptor
    again and the EBADF replaced the stop ("error: bwlab: Bad file descriptor", exit 2; once in
    the SIGTERM sweep of stop 69). With the removal's stops held (``Journal.discard``), the
    journal is gone and the stop ends the command: the line and 143."""
    from sim.runner import journal

    monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path / "j"))
    real_discard, real_close, sent = journal.Journal.discard, os.close, []

    def close(fd):
        real_close(fd)
        if not sent:  # the signal, handled at once on this thread, right after the close
            sent.append(fd)
            signal.raise_signal(signal.SIGTERM)

    def discard(self):
        monkeypatch.setattr(os, "close", close)
        try:
            real_discard(self)
        finally:
            monkeypatch.setattr(os, "close", real_close)

    monkeypatch.setattr(journal.Journal, "discard", discard)
    code, out, err = run(capsys, *LADDER)
    assert sent, "the journal was removed without closing a folder"
    assert code == 143 and "Bad file descriptor" not in err, err
    assert "terminated (SIGTERM) as it ended, after its output was complete" in err, err
    assert json.loads(out)["players"], out
    assert not any(p.is_dir() for p in (tmp_path / "j").glob("*/*")), "journal left behind"
