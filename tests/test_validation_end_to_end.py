"""``bwlab validate`` in its own process (``python -m sim.cli.main`` from this checkout): a
broken folder exits 2 with one stderr line per problem and no traceback, the shipped folder
exits 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests._validation_kit import LINE, ROOT, SHIPPED, set_cell


# ---------------------------------------------------------------------------- end to end

def _bwlab() -> list[str]:
    """The CLI of *this* checkout in a fresh process: ``python -m sim.cli.main`` from the
    repository root (an installed ``bwlab`` script may import another checkout's ``sim``)."""
    return [sys.executable, "-m", "sim.cli.main"]


def test_end_to_end_bad_folder_exit_2(cards):
    """``bwlab validate`` in its own process exits 2 with one stderr line per problem, no
    traceback."""
    set_cell(cards, 2, "defense", "10")
    set_cell(cards, 3, "suit", "Nope")
    proc = subprocess.run([*_bwlab(), "validate", str(cards)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2
    assert [(Path(f).name, int(n), fld)
            for f, n, fld, _ in (LINE.match(s).groups() for s in lines)] \
        == [("characters.csv", 2, "defense"), ("characters.csv", 3, "suit")]


def test_end_to_end_shipped_folder_exit_0():
    """The installed ``bwlab validate`` accepts the shipped folder (exit 0)."""
    proc = subprocess.run([*_bwlab(), "validate", str(SHIPPED)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "ok" in proc.stdout
