"""Gaps the progress audit of every command found (issue #23 item 1: the line names the stage,
done of total and the time left, and the totals are true). Each was a strict xfail that failed at
its assertion, and is now a test of the fix (``Progress.counting``).

The nested fit: ``rulings --rating-games`` and ``rarity --replicates`` fit the card ratings
(the boards' jackknife, counted in boards) inside a stage counted in games. The line names the
fit but shows the games of the outer stage, stuck, with a time left from the games' pace:
``rulings --games 32 --boards 2 --rating-games 256 --only dice.tier_faces`` printed "rule sets
> fitting the card ratings (the boards' jackknife): 576/864 games, 73.3 games/s, 10 s so far,
about 4 s left" 18 s before it ended, the time left growing (4, 5, 6, 7, 8 s) while nothing
moved, then "864/864 games, ... about 0 s left" for the last 4 s of the last fit."""

from __future__ import annotations

import io
import re


from sim.runner.progress import Progress
from tests._cli_kit import Clock, eager_progress, run
from tests.test_progress_cli import TINY_POOL, progress_lines


def test_a_nested_fit_in_boards_shows_its_boards_not_the_stuck_games():
    """rulings' structure (sim/runner/rulings.py:202 "rule sets" in games, the fit of
    sim/runner/rarity.py:261 in boards inside it), on a fake clock: 576 of 864 games played at
    ~58 games/s, then the jackknife's 64 boards, 8 at a time, 2 s per tick."""
    clock, out = Clock(), io.StringIO()
    p = Progress("rulings", stream=out, clock=clock, tty=False, delay=0.0)
    outer = p.open("rule sets", 864)
    for _ in range(18):
        clock.now += 0.55
        p.advance(32)
    fit = p.open("fitting the card ratings (the boards' jackknife)", 64, unit="boards")
    lefts = []
    for _ in range(4):
        clock.now += 2.0
        p.advance(8)
        lefts.append(p.line())
    assert fit.done == 32 and outer.done == 576
    # the line names the fit: its count and time left should be the fit's (32/64 boards)
    assert "32/64 boards" in lefts[-1], lefts


def test_rarity_replicates_fit_line_counts_boards(capsys, monkeypatch, tmp_path):
    """The CLI: ``rarity --replicates 2`` on a tiny pool (64 games, 4 boards). Every line
    naming the replicate's fit reads "independent replicates > fitting the card ratings (the
    boards' jackknife): 64/64 games, ..." (the replicate's games, done before the fit began),
    never the fit's boards."""
    (tmp_path / "pool.toml").write_text(TINY_POOL, encoding="utf-8")
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "rarity", "--experiment", tmp_path / "pool.toml",
                         "--ablation", "1", "--replicates", "2", "--format", "json",
                         "--out", tmp_path)
    assert code == 0, err
    fits = [ln for ln in progress_lines(err, "rarity")
            if "independent replicates > fitting the card ratings" in ln]
    assert fits, err
    assert any(re.search(r"\d+/\d+ boards", ln) for ln in fits), fits
