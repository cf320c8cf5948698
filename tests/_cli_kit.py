"""Running the ``bwlab`` CLI in-process from a test: the exit code and what it printed, with the
project's promise checked on every call — bad input gets a line, never a traceback."""

from __future__ import annotations

from sim.cli.main import main


def run(capsys, *args):
    """``bwlab ARGS`` (each argument as a string): (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err
