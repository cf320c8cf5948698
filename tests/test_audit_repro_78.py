"""Stop 78's reproducibility audit: seeds at the edge of their range, and a run stopped while it
sums up its stored batches."""

from __future__ import annotations

import json

import pytest

from tests._cli_kit import run
from tests._run_store_kit import _errors, _run

TOO_BIG = str(2**64)  # above every root seed: a root seed is stored in an int64 column


@pytest.mark.parametrize("args", [
    ("fairness", "experiments/teams/example.toml", "--games", "8"),
    ("draft", "--pool", "experiments/pools/example.toml", "--games", "8"),
    ("rulings", "--games", "8"),
])
def test_a_root_seed_too_large_is_one_line_and_exit_2(capsys, args):
    """``bwlab fairness ... --seed 18446744073709551616`` ended in an OverflowError traceback
    (exit 1) once the games were played (numpy.full of an int64 column): a root seed above
    2**63 - 1 is refused like a negative one, before any game."""
    code, out, err = run(capsys, *args, "--seed", TOO_BIG, "-q")
    assert code == 2
    assert len(_errors(err)) == 1 and "--seed" in err


def test_the_largest_root_seed_the_cli_takes_is_the_experiments():
    from sim.cli._numbers import ROOT_SEED
    from sim.runner.experiment import MAX_SEED

    assert ROOT_SEED.min == 0 and ROOT_SEED.max == MAX_SEED


def test_ctrl_c_while_the_run_sums_up_keeps_a_manifest_of_every_batch(capsys, exp_dir,
                                                                      tmp_path, monkeypatch):
    """Ctrl-C after the last batch, while "summing up the stored batches" (1-2 s of a real
    run), printed "aborted" and left a manifest listing only the batches of its last periodic
    save (1 of 40 in a 640-game smoke run), against "a finished or interrupted run's manifest
    lists every stored batch"; the run says how many it stored and names --resume, and the
    resumed run finishes."""
    from sim.runner import store, summary

    monkeypatch.setattr(store, "MANIFEST_EVERY", 3600.0)  # no periodic save after the first
    real, stops = summary.summarise, []

    def stopped(*a, **k):
        if not stops:
            stops.append(1)
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(summary, "summarise", stopped)
    out = tmp_path / "run"
    code, _, err = _run(capsys, exp_dir / "tiny.toml", out)
    assert stops and code == 130
    files = sorted(out.glob("batch-*.parquet"))
    listed = json.loads((out / "manifest.json").read_text())["batches"]
    assert len(listed) == len(files) == 4
    assert "--resume" in err
    code, text, _ = _run(capsys, exp_dir / "tiny.toml", out, "--resume")
    assert code == 0 and "(4 already stored, 0 played now)" in text
