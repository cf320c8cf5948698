"""A run's summary is the same whether it counts its batches as they arrive or reads them back.

``bwlab run`` counts each batch it stores (``summary.RunTotals``) and reads back only the batches
stored before it started (a resumed run's), so a 1,000,000-game run no longer reads its 1,000
batches again at the end (docs/performance.md, stop 61). Batches arrive in any order from the
workers; the summary must still be the one a pass over the stored batches in order gives: every
count, the balance metrics and their intervals, the order an Apocalypse's endings are listed in,
and cards.csv. Each run here is the 16-game, 4-batch experiment of tests/test_runner.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sim.catalogue.loader import load_catalogue
from sim.engine.state.fields import POLICY_IDS
from sim.runner.experiment import load_experiment
from sim.runner.store import RunStore
from sim.runner.summary import RunTotals, summarise
from tests._cli_kit import run
from tests.test_runner import SMALL

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards"


@pytest.fixture
def played(capsys, tmp_path):
    """A finished run of the small experiment: (experiment, output folder, its manifest)."""
    folder = tmp_path / "experiments"
    shutil.copytree(ROOT / "experiments" / "teams", folder / "teams")
    (folder / "tiny.toml").write_text(SMALL, encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(capsys, "run", folder / "tiny.toml", "--jobs", "1", "--out", out,
                       "--no-progress")
    assert code == 0, err
    exp = load_experiment(folder / "tiny.toml", load_catalogue(CARDS).cards, tuple(POLICY_IDS))
    return exp, out, json.loads((out / "manifest.json").read_text())


def _same(summary: dict) -> str:
    """The summary as the manifest stores it (JSON: tuples become lists, keys sorted)."""
    return json.dumps(json.loads(json.dumps(summary)), sort_keys=True)


def _reread(exp, out: Path, totals=None) -> tuple[dict, str]:
    """The summary of the stored batches (those not in ``totals`` read back), and cards.csv."""
    store = RunStore.open(out, exp, CARDS, resume=True)
    try:
        names = load_catalogue(CARDS).cards.names
        return summarise(store, names, totals), (out / "cards.csv").read_text()
    finally:
        store.close()


def _tables(exp, out: Path) -> dict:
    """The stored batches' Arrow tables by batch number, as the store reads them back."""
    store = RunStore.open(out, exp, CARDS, resume=True)
    try:
        return dict(store.batches())
    finally:
        store.close()


def test_batches_counted_in_any_order_give_the_summary_of_a_pass_in_order(played):
    exp, out, manifest = played
    assert exp.n_batches == 4 and manifest["summary"]["games"] == 16
    cards_csv = (out / "cards.csv").read_text()
    # read back in order: what summarise gave before runs counted their own batches
    in_order, csv_in_order = _reread(exp, out)
    assert _same(in_order) == _same(manifest["summary"])
    assert csv_in_order == cards_csv
    # the batches counted as workers might hand them over (last first), then summarised
    tables = _tables(exp, out)
    shuffled = RunTotals()
    for b in (3, 1, 0, 2):
        shuffled.add(b, tables[b])
    shuffled.add(1, tables[1])  # a batch counted twice counts once
    assert _same(shuffled.summary()) == _same(in_order)
    # a resumed run: two batches counted as stored, the other two read back
    part = RunTotals()
    for b in (2, 0):
        part.add(b, tables[b])
    resumed, csv_resumed = _reread(exp, out, part)
    assert sorted(part.parts) == [0, 1, 2, 3]
    assert _same(resumed) == _same(in_order) and csv_resumed == cards_csv


def test_the_apocalypses_endings_keep_the_order_a_pass_in_order_meets_them(played):
    """The manifest and the summary lines sort the endings, but the summary a caller gets is
    the very dict a pass over the batches in order builds, down to the order of its keys:
    counted last batch first and merged as they came, an ending batch 3 met first would come
    first."""
    exp, out, _ = played
    in_order, _ = _reread(exp, out)
    tables = _tables(exp, out)
    backwards = RunTotals()
    for b in sorted(tables, reverse=True):
        backwards.add(b, tables[b])
    got, want = backwards.summary()["apocalypses"], in_order["apocalypses"]
    assert got == want and list(got) == list(want)
    for a in want:
        assert list(got[a]["outcomes"]) == list(want[a]["outcomes"])
