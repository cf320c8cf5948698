"""Hostile resource requests on the command line (issue #22 item 3): an unreachable dask
scheduler fails fast with one line, --jobs is capped at the machine's cores unless forced, and
``combat --samples`` streams its dice in fixed-size chunks instead of allocating them at once.
"""

from __future__ import annotations

import time

import pytest

from tests._cli_hostile_kit import _experiment
from tests._cli_kit import run


def test_unreachable_dask_scheduler_fails_fast(capsys, workdir):
    """Item 3: "`--backend dask --scheduler tcp://127.0.0.1:1` must fail fast with one line
    (exit 2), not a traceback after 30 s"; and before the output folder is made."""
    pytest.importorskip("distributed")
    exp = _experiment(workdir)
    t0 = time.monotonic()
    code, _, err = run(capsys, "run", exp, "--backend", "dask", "--scheduler",
                       "tcp://127.0.0.1:1", "--out", workdir / "out", "--no-progress")
    assert code == 2 and time.monotonic() - t0 < 15
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: tcp://127.0.0.1:1: --scheduler:")
    assert not (workdir / "out").exists()


def test_jobs_are_capped_at_the_cores_unless_forced():
    """Item 3: "--jobs is capped at the machine's cores unless forced", with a one-line notice;
    forced, at most four per core."""
    from sim.runner.limits import FORCED_JOBS_PER_CORE, cap_jobs, cores

    n = cores()
    jobs, notice = cap_jobs(10_000, force=False)
    assert jobs == n and notice.count("\n") == 0 and "--force-jobs" in notice
    assert cap_jobs(n, force=False) == (n, None) and cap_jobs(None, force=False) == (n, None)
    assert cap_jobs(n + 1, force=True) == (n + 1, None)
    assert cap_jobs(10_000, force=True)[0] == FORCED_JOBS_PER_CORE * n


def test_sampled_combat_streams_the_same_dice_in_blocks(monkeypatch, rules):
    """Item 3: "`combat --samples` must not try to allocate: stream in fixed-size chunks": the
    histogram streamed in blocks of one sampler chunk equals one call's (same seed, same dice)."""
    import numpy as np

    from sim.combat.sampler import CHUNK, sample_damage
    from sim.runner import calculator_eval

    n = 3 * CHUNK + 17
    monkeypatch.setattr(calculator_eval, "STREAM_CHUNKS", 1)
    hist, hits, hits_sq = calculator_eval.sample_histogram(6, 3, 2, rules, 11, n, 0, 0, 6 * 12 + 1)
    whole = sample_damage(6, 3, 2, rules, seed=11, n=n)
    np.testing.assert_array_equal(hist, np.bincount(whole.damage, minlength=hist.size))
    assert hits == int(whole.hits.sum())
    assert hits_sq == int((whole.hits.astype(np.int64) ** 2).sum())
