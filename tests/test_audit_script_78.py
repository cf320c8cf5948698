"""Audit of the CLI as a contract for scripts and CI (stop 78): exit codes when stdout is a
closed pipe, and JSON documents that name one concept one way, in one unit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEAMS = "experiments/teams/example.toml"


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT), BWLAB_JOURNAL="off")
    env.setdefault("BWLAB_JIT_CACHE", str(ROOT / ".jit-cache"))
    return env


def _bwlab(*args, closed_stdout=False):
    """``bwlab ARGS`` in a process of its own: (exit code, stdout, stderr). With
    ``closed_stdout`` its stdout is a pipe whose reader has gone (``bwlab ... | head -1``)."""
    cmd = [sys.executable, "-m", "sim.cli.main", *map(str, args)]
    if not closed_stdout:
        p = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=_env(), stdout=w, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    finally:
        os.close(w)
    return p.returncode, "", p.stderr


@pytest.mark.parametrize("args", [
    ("fairness", TEAMS, "--games", 64, "--round", 32, "--boards", 8, "-q"),  # verdict: 3
    ("drift", "--games", 16, "-q"),  # verdict: 0, no drift
])
def test_closed_stdout_never_reads_as_a_verdict_or_bad_input(args):
    """``bwlab ... | head -1``: click turned the closed pipe into exit 1 ("unfair", "drift")
    and drift into "internal error: BrokenPipeError", exit 2. It ends quietly with 141, the
    shell's status of SIGPIPE and no verdict of the lab's (sim/cli/terminate.stdout_closed)."""
    code, _, err = _bwlab(*args, closed_stdout=True)
    assert code == 141, (code, err)
    assert "error" not in err and "Traceback" not in err and "kept" not in err, err


@pytest.fixture(scope="module")
def draft_doc():
    code, out, _ = _bwlab("draft", "--random", 20, "--seed", 4, "--games", 16, "--proposals", 1,
                          "--no-alternating", "-q", "--format", "json")
    assert code in (0, 1, 3)
    return json.loads(out)


def test_draft_gap_has_one_scale(draft_doc):
    """The fairest split's gap from 25 % was only in points (max_deviation_points 18.75) where
    search.tried gives it as a fraction (0.1875): it is also given as search.tried gives it."""
    gap = draft_doc["fairest"]["largest_gap_from_25"]
    assert gap == pytest.approx(draft_doc["fairest"]["max_deviation_points"] / 100)
    tried = [t["largest_gap_from_25"] for t in draft_doc["search"]["tried"]]
    assert any(abs(gap - t) < 1e-9 for t in tried), (gap, tried)


def test_draft_advice_names_only_what_draft_can_change(draft_doc):
    """A split left open advised "widen the tolerance", which draft did not take: draft now
    has --tolerance, as fairness has, and a wider band changes its verdicts' band."""
    from sim.cli.draft import draft

    assert "--tolerance" in {o for p in draft.params for o in p.opts}
    code, out, _ = _bwlab("draft", "--random", 20, "--seed", 4, "--games", 16, "--proposals", 1,
                          "--no-alternating", "-q", "--format", "json", "--tolerance", "0.2")
    assert code in (0, 1, 3)
    assert "25 % ± 20 points" in json.loads(out)["fairest"]["text"] or \
        json.loads(out)["fairest"]["verdict"] == "fair"
