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


@pytest.mark.xfail(strict=True, reason="a reader that stops early (| head -1) turns the verdict "
                                       "into exit 1 (unfair / drift) or, for drift, exit 2 with "
                                       "'internal error: BrokenPipeError'")
@pytest.mark.parametrize("args", [
    ("fairness", TEAMS, "--games", 64, "--round", 32, "--boards", 8, "-q"),  # verdict: 3
    ("drift", "--games", 16, "-q"),  # verdict: 0, no drift
])
def test_closed_stdout_never_reads_as_a_verdict_or_bad_input(args):
    code, _, err = _bwlab(*args, closed_stdout=True)
    assert code not in (1, 2), (code, err)
    assert "error" not in err, err


@pytest.fixture(scope="module")
def draft_doc():
    code, out, _ = _bwlab("draft", "--random", 20, "--seed", 4, "--games", 16, "--proposals", 1,
                          "--no-alternating", "-q", "--format", "json")
    assert code in (0, 1, 3)
    return json.loads(out)


@pytest.mark.xfail(strict=True, reason="draft's JSON gives the fairest split's gap from 25 % "
                                       "in points (max_deviation_points 18.75) and the same gap "
                                       "in search.tried as a fraction (largest_gap_from_25 0.1875)")
def test_draft_gap_has_one_scale(draft_doc):
    gap = draft_doc["fairest"]["max_deviation_points"]
    tried = [t["largest_gap_from_25"] for t in draft_doc["search"]["tried"]]
    assert any(abs(gap - t) < 1e-9 for t in tried), (gap, tried)


@pytest.mark.xfail(strict=True, reason="draft's verdict text advises 'widen the tolerance'; "
                                       "draft has no --tolerance")
def test_draft_advice_names_only_what_draft_can_change(draft_doc):
    for split in ("fairest", "snake"):
        assert "tolerance" not in draft_doc[split]["text"], draft_doc[split]["text"]


@pytest.mark.xfail(strict=True, reason="the same concept has different keys across commands: "
                                       "a win rate is win_probability (fairness, draft) or "
                                       "win_rate (ladder, rarity); 'games' is a count everywhere "
                                       "but drift's top level, where it is a list of matchups")
def test_same_concept_same_key():
    _, fair, _ = _bwlab("fairness", TEAMS, "--games", 64, "--round", 32, "--boards", 8, "-q",
                        "--format", "json")
    _, ladder, _ = _bwlab("ladder", "--games", 16, "--players", "random,greedy", "--boards", 2,
                          "-q", "--format", "json")
    _, drift, _ = _bwlab("drift", "--games", 16, "-q", "--format", "json")
    fair, ladder, drift = json.loads(fair), json.loads(ladder), json.loads(drift)
    win_keys = {k for k in ("win_rate", "win_probability") if k in fair["teams"][0]}
    assert win_keys == {k for k in ("win_rate", "win_probability") if k in ladder["matches"][0]}
    assert isinstance(fair["games"], int) and isinstance(ladder["games"], int)
    assert isinstance(drift["games"], int), type(drift["games"])
