"""Hostile input found by the audit of stop 77: each case exits 2 with one line naming the file
(and line and field), prints no traceback and leaves every file as it was.

- A rulings study whose alternative ``value`` is a TOML date, time or a list holding a table:
  ``validate --experiment`` and ``rulings`` printed a TypeError's traceback (exit 1).
- ``run --out`` naming a folder that holds someone's own ``manifest.json`` (no run's batches):
  the file was replaced by the run's manifest, exit 0 (a user's ``cards.csv`` there was
  already refused, unless a manifest.json sat beside it). A run's manifest names its
  ``experiment``; an older bwlab wrote one before any batch, and that one is still replaced
  (tests/test_run_store_batches.py).
- A JSON object of another kind (a package.json, a ``bwlab rulings`` results file) given as a
  drift baseline: nine lines, one per missing section; now one line naming what it is.
"""

from __future__ import annotations

import json

import pytest

from sim.cli.main import main
from tests._cli_hostile_kit import ROOT
from tests._cli_kit import tiny_experiment


def _bwlab(capsys, *args):
    """``bwlab ARGS`` in-process: (exit code, stdout, stderr); an exception that escaped the
    command (a traceback for the user) is the code, so that the test fails at its assertion."""
    try:
        code = main([str(a) for a in args])
    except Exception as exc:  # noqa: BLE001 - what the user saw as a traceback
        code = f"traceback: {exc!r}"
    out, err = capsys.readouterr()
    return code, out, err


STUDY = ('[study]\nteams = "teams/example.toml"\nfairness_games = 8\nfairness_boards = 2\n'
         'rating_games = 0\n\n[[alternatives]]\nruling = "Dice tiers"\nfile = "rules.toml"\n'
         'key = "dice.tier_faces"\nvalue = {value}\n')


@pytest.mark.parametrize("value, shown", [("1979-05-27", "1979-05-27"),
                                          ("07:32:00", "07:32:00"),
                                          ("[{ a = 1 }]", "a table in the list")])
@pytest.mark.parametrize("command", ["validate", "rulings"])
def test_an_alternative_value_toml_cannot_write_back_is_one_line(capsys, workdir, value, shown,
                                                                 command):
    study = workdir / "study.toml"
    study.write_text(STUDY.replace("{value}", value), encoding="utf-8")
    argv = (["validate", ROOT / "cards", "--experiment", study] if command == "validate" else
            ["rulings", "--alternatives", study, "-q"])
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = _bwlab(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1, (code, err)
    assert lines[0].startswith(f"error: {study}:11: alternatives.value: "), lines[0]
    assert shown in lines[0], lines[0]
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


@pytest.mark.parametrize("extra", [[], ["cards.csv"]], ids=["manifest", "manifest+cards.csv"])
def test_a_manifest_no_run_wrote_is_not_replaced(capsys, workdir, extra):
    """One line for each of the user's files the run would replace; nothing written."""
    exp = workdir / "tiny.toml"
    exp.write_text(tiny_experiment(games=8), encoding="utf-8")
    app = workdir / "webapp"
    app.mkdir()
    (app / "manifest.json").write_text(json.dumps({"name": "My app", "start_url": "/"}),
                                       encoding="utf-8")
    for name in extra:
        (app / name).write_text("name,score\nLuffy,3\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in app.iterdir()}
    code, _, err = _bwlab(capsys, "run", exp, "--out", app, "--jobs", "1", "-q")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 + len(extra), (code, err)
    for line, name in zip(lines, ["manifest.json", *extra]):
        assert line.startswith(f"error: {app / name}: --out: a {name} that no run wrote"), line
    assert {p.name: p.read_bytes() for p in app.iterdir()} == before


RULINGS_RESULTS = {"conclusion": "no ruling matters", "study": {}, "alternatives": []}


@pytest.mark.parametrize("data, words", [
    ({"name": "my-app", "version": "1.0.0"}, "not a baseline written by --update"),
    ({"a": 2}, "not a baseline written by --update"),
    (RULINGS_RESULTS, "a bwlab rulings results file, not a drift baseline"),
], ids=["package.json", "one-key", "rulings-results"])
@pytest.mark.parametrize("command", [
    ["validate", "--baseline"],
    ["drift", "-q", "--suite", ROOT / "experiments" / "drift.toml", "--baseline"]],
    ids=["validate", "drift"])
def test_a_json_file_of_another_kind_as_baseline_is_one_line(capsys, workdir, data, words,
                                                             command):
    path = workdir / "other.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = _bwlab(capsys, *command, path)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1, (code, err)
    assert lines[0].startswith(f"error: {path}: baseline: ") and words in lines[0], lines[0]
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


def test_a_pool_entry_that_is_not_text_is_named_as_the_file_spells_it(capsys, tmp_path):
    """A draft pool whose ``cards`` list holds a date (``cards = [1979-05-27, ...]``) said
    "unknown card datetime.date(1979, 5, 27)": Python's spelling, not the file's. Now
    "expected card names (text), got 1979-05-27"; a number or a list the same way."""
    names = ", ".join(f'"{n}"' for n in _card_names()[:19])
    pool = tmp_path / "pool.toml"
    pool.write_text(f"cards = [1979-05-27, {names}]\n", encoding="utf-8")
    code, _, err = _bwlab(capsys, "validate", "--pool", pool)
    assert code == 2, err
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert lines == [f"error: {pool}:1: cards: expected card names (text), got 1979-05-27"], err
    pool.write_text(f"cards = [[7], {names}]\n", encoding="utf-8")
    code, _, err = _bwlab(capsys, "validate", "--pool", pool)
    assert code == 2 and "expected card names (text), got [7]" in err, err


def test_an_empty_only_names_the_empty_key(capsys, workdir):
    """``rulings --only ""`` said "no alternative of  in FILE" (a double space where the key
    goes); each unknown key is now quoted, the empty one too."""
    study = workdir / "study.toml"
    study.write_text(STUDY.replace("{value}", "[6, 10, 12, 20]"), encoding="utf-8")
    code, _, err = _bwlab(capsys, "rulings", "--alternatives", study, "--only", "", "-q")
    assert code == 2, err
    assert f"no alternative of '' in {study}" in err, err


def _card_names() -> list[str]:
    import csv

    with open(ROOT / "cards" / "characters.csv", encoding="utf-8") as f:
        return [row["name"] for row in csv.DictReader(f)]
