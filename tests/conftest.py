"""Shared fixtures: the shipped catalogue, rules variants for alternative house rulings, and a
private copy of the shipped card folder."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

# The thread-count tests compare the default thread count against one thread; on a one-CPU
# machine the default would be one too and they would test nothing. Numba may run more threads
# than CPUs: two, before anything imports numba.
if (os.cpu_count() or 1) < 2:
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")

# Under pytest-xdist (``make test``: a worker per CPU) the workers are the parallelism. OpenBLAS
# (NumPy's and SciPy's) starts a thread per CPU in every worker, and its threads spin while they
# wait: beside a worker playing games on Numba's threads, a fit-heavy calibration test ran 13
# times slower than alone (214 s against 16 s on a 2-CPU host, stop 66). One BLAS thread per
# worker, set before anything imports NumPy (xdist names the worker before it loads this file);
# results do not depend on it (tests/test_fixed_sums.py).
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
import pytest
from hypothesis import settings

from sim.catalogue.loader import load_catalogue

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards"

# Property tests draw the same examples on every run ("the same seed gives the same results"):
# a red CI is a change's doing, never a new draw. HYPOTHESIS_PROFILE=explore draws fresh ones
# (a failure found that way becomes an @example of its test).
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Under ``NUMBA_DISABLE_JIT=1`` (fast iteration on engine logic: the kernels run as Python)
    the random generator's uint64 arithmetic wraps as designed, which NumPy scalars report as an
    overflow warning; compiled code wraps silently. Only then is that warning not an error."""
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        config.addinivalue_line("filterwarnings", "ignore:overflow encountered:RuntimeWarning")


@pytest.fixture(scope="session")
def catalogue():
    return load_catalogue(CARDS)


@pytest.fixture(scope="session")
def rules(catalogue):
    return catalogue.rules


@pytest.fixture
def cards(tmp_path) -> Path:
    """A private copy of the shipped card folder, with the experiments beside it (its
    arena_budget.toml names experiments/rarity.toml, relative to the folder's parent). The
    ``bwlab validate`` tests break one file of it (tests/_validation_kit.py)."""
    shutil.copytree(CARDS.parent / "experiments", tmp_path / "experiments")
    return Path(shutil.copytree(CARDS, tmp_path / "cards"))


def with_rules(rules, **changes):
    """A copy of ``rules`` with some house rulings changed (tiny dice make enumeration cheap)."""
    if "tier_faces" in changes:
        changes["tier_faces"] = np.asarray(changes["tier_faces"], dtype=np.int64)
    return dataclasses.replace(rules, **changes)


@pytest.fixture(autouse=True)
def own_games_journal(monkeypatch, tmp_path_factory):
    """Each test's commands keep their games journal (sim/runner/journal.py) in a folder of its
    own: two tests that run the same command at once, in two workers, never see each other's
    games (a resume notice on stderr, a folder deleted under the other)."""
    if "BWLAB_JOURNAL" not in os.environ or os.environ["BWLAB_JOURNAL"].lower() != "off":
        monkeypatch.setenv("BWLAB_JOURNAL", str(tmp_path_factory.mktemp("journal")))
