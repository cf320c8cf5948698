"""Shared fixtures: the shipped catalogue, rules variants for alternative house rulings, a
private copy of the shipped card folder, a scratch working folder of hostile inputs, and an
experiments folder for the run-store tests."""

from __future__ import annotations

import dataclasses
import json
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


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    """A scratch working folder holding a file `afile`, a folder `adir`, an experiment folder,
    a game log nested 100 000 deep and a frames folder whose final.png is a folder (the hostile
    command-line tests, tests/test_cli_hostile_*.py)."""
    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    (tmp_path / "adir").mkdir()
    (tmp_path / "deep.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    (tmp_path / "runout" / "batch-000001.parquet").mkdir(parents=True)
    (tmp_path / "frames" / "final.png").mkdir(parents=True)
    header = {"event": "game", "text": "a game", "seed": 1, "teams": ["A", "B", "C", "D"],
              "cards": [["Luffy"] * 5] * 4, "policies": ["greedy"] * 4, "apocalypse": "x"}
    for name, field, value in (("noteams", "teams", []), ("seedx", "seed", "x"),
                               ("cards3", "cards", [["Luffy"] * 5] * 3),
                               ("escteam", "teams", ["A\x1b[31m", "B", "C", "D"])):
        (tmp_path / f"{name}.jsonl").write_text(json.dumps({**header, field: value}) + "\n",
                                                encoding="utf-8")
    (tmp_path / "esctext.jsonl").write_text(json.dumps({**header, "text": "a game\x1b[2J"})
                                            + "\n", encoding="utf-8")
    (tmp_path / "usercsv").mkdir()  # a folder holding someone's own cards.csv, no run's files
    (tmp_path / "usercsv" / "cards.csv").write_text("name,score\nLuffy,3\n", encoding="utf-8")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")  # a loop of links
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    (tmp_path / "gonelink").symlink_to(tmp_path / "gone")  # a link to nothing
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BWLAB_CARDS", str(ROOT / "cards"))  # named: no "using ..." notice
    return tmp_path


@pytest.fixture
def exp_dir(tmp_path) -> Path:
    """An experiments folder holding the example teams, the tiny experiment of
    tests/test_runner.py (``tiny.toml``) and the same with another name and seed (``other.toml``)
    (the run-store tests, tests/test_run_store_*.py; tests/test_runner.py has its own)."""
    from tests.test_runner import SMALL

    folder = tmp_path / "experiments"
    shutil.copytree(ROOT / "experiments" / "teams", folder / "teams")
    (folder / "tiny.toml").write_text(SMALL, encoding="utf-8")
    (folder / "other.toml").write_text(SMALL.replace('name = "tiny"', 'name = "other"')
                                       .replace("root_seed = 5", "root_seed = 6"), encoding="utf-8")
    return folder


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
