"""Audit of watching games (stop 78): what a GM reads to see why a team won."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.report.rerun import _difference

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args):
    import os
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sim.cli.main", *map(str, args)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)


def test_a_refused_log_names_the_field_that_differs():
    """replay --gif refused an edited damage with only "differs from the log here"."""
    from sim.engine.log.events import EVENTS
    k = next(i for i, (name, _, _) in EVENTS.items() if name == "damage")
    name, args, _ = EVENTS[k]
    row = [k, 1] + list(range(len(args)))
    ev = {"event": name, "rotation": 1, **{a: i for i, a in enumerate(args)}}
    ev["damage"] = ev["damage"] + 5
    said = _difference(row, ev)
    assert "damage" in said and str(ev["damage"]) in said and str(ev["damage"] - 5) in said


@pytest.fixture(scope="module")
def stalemate_log(tmp_path_factory):
    log = tmp_path_factory.mktemp("w") / "g5.jsonl"
    r = _cli("play", "--teams", "experiments/teams/example.toml", "--seed", 5, "--log", log,
             "--quiet")
    assert r.returncode == 0, r.stderr
    return log


def test_a_cut_log_is_refused_as_cut(stalemate_log, tmp_path):
    cut = tmp_path / "cut.jsonl"
    lines = stalemate_log.read_text(encoding="utf-8").splitlines(keepends=True)[:500]
    cut.write_text("".join(lines), encoding="utf-8")
    r = _cli("replay", cut, "--html", tmp_path / "x.html", "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert f"{cut}:500:" in r.stderr and "the log ends here" in r.stderr


def test_a_stalemate_cites_the_stalemate_rule(stalemate_log):
    end = json.loads(stalemate_log.read_text(encoding="utf-8").splitlines()[-1])
    assert end["event"] == "game over" and end["reason"] == 2  # seed 5: a stalemate
    r = _cli("replay", stalemate_log, "--rules", "--quiet")
    last = r.stdout.strip().splitlines()[-1]
    assert "stalemate" in last
    assert "highest collective health" in last or "most total health" in last


def test_a_free_water_crossing_is_a_sentence():
    from sim.engine.log.events import _water_roll
    ev = {"entity": 0, "face": 0, "success": 1, "wall": 0, "from": 1, "to": 2}
    text = _water_roll(ev, lambda f: "Shadow Scribe (T2)")
    assert "freely for water" not in text


def test_the_legend_says_what_the_crosses_mean():
    """The legend labelled a CPU's start "CPU" with the "X" a dead piece is drawn with (living
    CPUs are black dots), and had no key for a dead piece or a spawn. The start has its own
    mark, and the legend keys a CPU, a dead piece and a spawn (sim/report/board_view.py)."""
    from sim.report.board_style import FEATURE_MARK
    from sim.report.board_view import _piece_keys

    marks = {label: mark for mark, label in FEATURE_MARK.values()}
    assert "CPU" not in marks and marks["CPU's start"] != "X"
    keys: dict = {}
    _piece_keys(keys)
    labels = {h.get_label() for h in keys.values()}
    assert {"CPU", "dead (where it fell)", "spawn (team colour)"} <= labels
    assert keys["dead"].get_marker() == "X"


def test_plain_replay_refuses_an_edited_seed(stalemate_log, tmp_path):
    lines = stalemate_log.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    head["seed"] = 2
    lines[0] = json.dumps(head) + "\n"
    bad = tmp_path / "seed.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    r = _cli("replay", bad, "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
