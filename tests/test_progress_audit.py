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
from pathlib import Path

import pytest

from sim.cli.main import COMMANDS
from sim.runner.progress import Progress
from tests._cli_kit import Clock, eager_progress, run
from tests.test_progress_cli import TINY_POOL, progress_lines

ROOT = Path(__file__).resolve().parents[1]


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


# -- the silent stretches (the audit of 2026-12-07): time with no stage open ------------------
# Measured from the process's start on a loaded 2-CPU host, tiny arguments: report's libraries
# (matplotlib, scipy.stats, pandas) 2.2-3.2 s before "building the report"; play 2.6-4.8 s
# (the engine's modules, its compiled kernels) before "playing the game"; compare-systems
# 1.8-2.8 s, power-levels 2.3-2.7 s, rulings 2.3-2.4 s (1.4 s of it importing its own module,
# before the session began), drift 1.5-2.1 s; then ladder's Elo fit 1.9-2.7 s after its games,
# the GIF and the page of play and replay 2.1-3.3 s after their frames, and board --png
# 2.5-3.2 s with no line at all.


def _waiting_for_a_line(seconds: float = 2.0) -> None:
    """A slow step (a heavy import, a load): it returns once the session has drawn a line, or
    after ``seconds`` when nothing is drawn. The heartbeat (every 0.25 s) draws only while a
    stage, or the loading before the first one, is open: the wait ends within a beat if one
    is, and times out if none is."""
    import time

    from sim.runner import progress

    deadline = time.monotonic() + seconds
    while progress.current().last_draw is None and time.monotonic() < deadline:
        time.sleep(0.02)


def _slow_report_import(monkeypatch) -> None:
    """``from sim.report.lab_report import write_report`` made slow, as it is: 2-5 s."""
    import sys
    import types

    real = sys.modules.get("sim.report.lab_report") or __import__(
        "sim.report.lab_report", fromlist=["write_report"])

    class Loading(types.ModuleType):
        def __getattr__(self, name):  # every name: the stand-in holds none
            _waiting_for_a_line()
            return getattr(real, name)

    monkeypatch.setitem(sys.modules, "sim.report.lab_report", Loading(real.__name__))


def _slow_engine_load(monkeypatch) -> None:
    """The engine command's load before its first game made slow (ready_to_play's check of
    the compiled kernels stands for the engine's modules and kernels: 2-5 s in ``play``)."""
    from sim.cli import _engine

    real = _engine.compile_if_cold
    monkeypatch.setattr(_engine, "compile_if_cold",
                        lambda *a, **k: (_waiting_for_a_line(), real(*a, **k))[1])


LOADING = [
    ("report", ["--out", "{tmp}/r", "--teams", "", "--rating-games", "0"], _slow_report_import),
    ("play", ["--seed", "1"], _slow_engine_load),
]


@pytest.mark.parametrize("command, args, slow", LOADING, ids=[c[0] for c in LOADING])
def test_loading_before_the_first_stage_is_a_stage(capsys, monkeypatch, tmp_path, command,
                                                   args, slow):
    """Imports, inputs and the engine's kernels come before a command's first stage; with no
    stage open the heartbeat drew nothing, so ``report`` was silent 3-5 s and ``play`` up to
    5 s. The line must name what it is doing while it loads."""
    eager_progress(monkeypatch)
    slow(monkeypatch)
    code, out, err = run(capsys, command, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 0, err
    lines = progress_lines(err, command)
    assert lines and lines[0].startswith(f"{command}: loading the libraries and the inputs"), err


def test_the_ladders_fit_after_its_games_is_a_stage(capsys, monkeypatch):
    """After "round robin" closed, ``ladder`` imported scipy and fitted the Elo ratings and the
    matches' balance for 1.9-2.7 s with no stage open."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "ladder", "--games", "8", "--players", "random,greedy",
                         "--boards", "2", "--format", "json")
    assert code == 0, err
    assert "ladder: fitting the Elo ratings: done in " in err, err


def test_writing_the_gif_and_the_page_are_stages(monkeypatch, tmp_path):
    """``play --gif --html`` and ``replay --gif --html`` encoded the GIF and the page's PNGs for
    2.1-3.3 s after "drawing frames" closed, with no stage open (sim/report/watch.py, shared)."""
    from types import SimpleNamespace

    from PIL import Image

    from sim.report.watch import write_gif, write_html
    from sim.runner import progress

    eager_progress(monkeypatch)
    images = [Image.new("P", (8, 8), k) for k in range(3)]
    frames = [SimpleNamespace(view=SimpleNamespace(title=f"step {k}"), first=k, last=k + 1)
              for k in range(3)]
    out = io.StringIO()
    with progress.reporting("replay", stream=out, heartbeat=False):
        write_gif(tmp_path / "g.gif", images)
        write_html(tmp_path / "g.html", frames, ["a", "b", "c"], images, "t")
    assert "replay: writing the GIF: done in " in out.getvalue(), out.getvalue()
    assert re.search(r"^replay: writing the HTML page: 1/3 frames, ", out.getvalue(), re.M)
    assert "replay: writing the HTML page: 3 frames in " in out.getvalue()


def test_drawing_the_board_is_a_stage(capsys, monkeypatch, tmp_path):
    """``board --png`` spent 2.5-3.2 s loading matplotlib, laying the board out and writing
    it, with no line at all: board had no progress session."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "board", "--seed", "1", "--png", tmp_path / "b.png")
    assert code == 0 and (tmp_path / "b.png").stat().st_size > 0, err
    assert re.search(r"^board: drawing the board: 1/2 steps, \d+ s so far$", err, re.M), err
    assert "board: drawing the board: 2 steps in " in err


HEAVY = ("scipy", "matplotlib", "pandas")  # 1-3 s each to import on the 2-CPU host


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_commands_module_loads_no_heavy_library(command):
    """A command's module is imported before its progress session begins (the CLI needs its
    options), so nothing can be drawn while it loads: ``rulings`` imported scipy with it
    (sim/cli/_balance_text.py), 1.4-2.9 s, and its first line came 3.7-5.7 s in. The heavy
    libraries load inside the command, under its "loading" line (``report``'s way)."""
    import subprocess
    import sys

    module = COMMANDS[command][0]
    code = (f"import sys, sim.cli.main; import {module}; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.split() == [], f"{module} imports {done.stdout.strip()}"


@pytest.mark.parametrize("args", [["cards"], ["--experiment", "experiments/drift.toml"],
                                  ["--experiment", "experiments/rarity.toml"]],
                         ids=["cards", "drift-suite", "experiment"])
def test_validate_loads_no_heavy_library(args):
    """``validate`` is not a progress command: it must end before a line is due (about 2 s). It
    took 1.5-1.9 s on a quiet host and 4.2 s on a loaded one, 1.2 s of it importing scipy.stats
    (through sim/runner/budget.py, for the arena budget's experiment check, now
    sim/runner/levels_input.py; with a drift suite, through sim/runner/drift.py for its loader,
    which lives in sim/runner/drift_suite.py) and pandas (the rulings results' loader, imported
    with no such file given). Checking the card folder, a drift suite or an experiment imports
    neither."""
    import subprocess
    import sys

    code = (f"import sys; from sim.cli.main import main; code = main(['validate', *{args!r}]); "
            f"print(code, ' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.split()[-1:] == ["0"], done.stdout + done.stderr


def test_demo_ends_its_loading_with_a_stage_before_its_table(capsys, monkeypatch, tmp_path):
    """``demo`` opened no stage: once the loading line was shown (pandas, 1-2 s on a loaded
    host) it stood over the work and, on a terminal, was not ended before the table printed.
    Its work is a stage, so the loading ends with a line of its own, then the work's."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "demo", "--out", tmp_path)
    assert code == 0, err
    assert "demo: computing the combat report: done in " in err, err


def test_the_compile_notice_ends_a_loading_line_first(capsys, monkeypatch):
    """The first run's "bwlab: compiling the game engine ..." comes once the input is checked,
    while the loading line may stand in place on a terminal: the line is ended first
    (``progress.aside``), as before drift's and run's notes."""
    from sim.cli import _engine
    from sim.runner import progress
    from sim.runner import warm as warm_module

    said = []
    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", lambda stream=None, verbose=True, on_part=None: 1.0)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(progress, "aside", lambda: said.append("aside"))
    echo = _engine.click.echo
    monkeypatch.setattr(_engine.click, "echo", lambda text="", **k: (said.append(text[:24]),
                                                                      echo(text, **k)))
    code, out, err = run(capsys, "play", "--seed", "1")
    assert code == 0, err
    assert said[:2] == ["aside", "bwlab: compiling the gam"], said


def test_plays_final_picture_is_a_stage(capsys, monkeypatch, tmp_path):
    """``play --png-every N DIR`` draws final.png after "playing (recording each turn)" closed:
    matplotlib's load (when no picture came before it), the board and the PNG, 2.9 s on a
    loaded host with no stage open."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "play", "--seed", "1", "--png-every", "100", tmp_path)
    assert code == 0 and (tmp_path / "final.png").stat().st_size > 0, err
    assert "play: drawing the final picture: 2 steps in " in err, err


def test_runs_summary_after_its_games_is_a_stage(capsys, monkeypatch, tmp_path):
    """``run`` sums up its stored batches after "playing NAME" closed: it reads them back and
    loads scipy for the balance metrics, 1.3-2.3 s with no stage open (2.3 s on a loaded
    host), as ladder's fit was."""
    eager_progress(monkeypatch)
    code, out, err = run(capsys, "run", ROOT / "experiments/smoke.toml", "--games", "16",
                         "--jobs", "1", "--out", tmp_path / "run")
    assert code == 0, err
    assert "run: summing up the stored batches: done in " in err, err
